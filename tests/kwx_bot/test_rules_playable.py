"""Rules people type are refused when the state machine cannot play them (engine.game.check_rules)."""

from __future__ import annotations

import io

import pytest

from engine.cli_simulate import main as simulate_main
from engine.game import check_rules
from engine.rules import RuleError, RuleSet
from kwx_bot.config_menu import ConfigError, GroupConfig
from kwx_bot.game import rules_from_json

UNPLAYABLE = {"preset": "standard", "liangdao_reveal": "kou"}


def test_check_rules_accepts_presets_and_refuses_partial_reveals() -> None:
    for name in ("standard", "shiyan", "nocap"):
        check_rules(RuleSet.preset(name))
    with pytest.raises(RuleError, match="liangdao_reveal"):
        check_rules(RuleSet.from_json(UNPLAYABLE))


def test_settings_refuse_an_unplayable_option_and_change_nothing() -> None:
    config = GroupConfig.of({}, discard=30.0, claim=15.0, language="zh_CN")
    with pytest.raises(ConfigError):
        config.change("liangdao_reveal", "kou")
    assert config.change("cap", "none") == {"rules": {"preset": "standard", "cap": "none"}}


def test_stored_rules_must_be_playable() -> None:
    with pytest.raises(RuleError):
        rules_from_json(UNPLAYABLE)
    assert rules_from_json("standard") == RuleSet.preset("standard")


def test_simulate_refuses_unplayable_rules_with_exit_2() -> None:
    out = io.StringIO()
    status = simulate_main(
        ["--hands", "3", "--rules", '{"preset": "standard", "liangdao_reveal": "kou"}'], io.StringIO(), out
    )
    assert status == 2
    assert "liangdao_reveal" in out.getvalue() and "Traceback" not in out.getvalue()


def test_the_bot_refuses_rules_for_another_table_size() -> None:
    """The engine plays 2 to 4 seats; the bot's tables have three (docs/rules.md §A2.1)."""
    for rules in ("two_seats", "four_seats", {"preset": "standard", "players": 4}):
        with pytest.raises(RuleError, match="this table has 3 seats"):
            rules_from_json(rules)
    config = GroupConfig.of({}, discard=30.0, claim=15.0, language="zh_CN")
    for key, value in (("preset", "two_seats"), ("players", 2), ("preset", "four_seats")):
        with pytest.raises(ConfigError):
            config.change(key, value)
