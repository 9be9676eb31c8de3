"""Group settings: values with defaults, changes validated by the rules engine, rules people type
refused when the state machine cannot play them (engine.game.check_rules)."""

from __future__ import annotations

import io

import pytest

from engine.cli_simulate import main as simulate_main
from engine.game import check_rules
from engine.rules import Cap, RuleError, RuleSet
from kwx_bot.service.game import check_table_rules, rules_from_json
from kwx_bot.service.group_settings import ITEMS, ConfigError, GroupConfig, TableChoice, parse_change, parse_new
from kwx_bot.words.i18n import translator

EN, ZH = translator("en"), translator("zh_CN")


def config(stored=None):
    return GroupConfig.of(stored or {}, discard=30.0, claim=15.0, language="zh_CN")


def test_defaults_fill_in_and_malformed_values_fall_back():
    c = config()
    assert (c.rules, c.discard_seconds, c.claim_seconds, c.language) == ("standard", 30.0, 15.0, "zh_CN")
    c = config({"discard_seconds": "soon", "claim_seconds": True, "language": "fr", "rules": {"cap": "7"}})
    assert (c.discard_seconds, c.claim_seconds, c.language) == (30.0, 15.0, "zh_CN")
    assert c.ruleset() == RuleSet()  # stored rules the engine refuses are never played


def test_changing_an_option_keeps_only_what_differs_from_the_preset():
    c = config()
    assert c.change("cap", "16") == {"rules": {"preset": "standard", "cap": "16"}}
    c = config({"rules": {"preset": "standard", "cap": "16"}})
    assert c.change("base", 2) == {"rules": {"preset": "standard", "cap": "16", "base": 2}}
    assert c.change("cap", "8_sl16") == {"rules": "standard"}  # back to the preset's value
    assert c.change("kwx_value", 4)["rules"]["kwx_value"] == 4
    assert c.change("preset", "shiyan") == {"rules": "shiyan"}  # a preset resets the options
    assert c.change("reset", None) == {"rules": "standard"}


@pytest.mark.parametrize(
    ("key", "value", "msg"),
    [
        ("kwx_value", 3, "refused"),
        ("cap", "7", "refused"),
        ("preset", "mars", "refused"),
        ("pihu_ron", "maybe", "refused"),
        ("players", 4, "refused"),
        ("colour", "red", "no setting"),
        ("discard_seconds", 601, "seconds"),
        ("claim_seconds", True, "seconds"),
        ("language", "fr", "zh"),
    ],
)
def test_bad_changes_are_refused_politely(key, value, msg):
    with pytest.raises(ConfigError) as info:
        config().change(key, value)
    text = info.value.render(EN)
    assert msg in text
    assert "<code>" not in text or info.value.detail  # the engine's reason is shown when it has one
    assert info.value.render(ZH) != text


def test_timers_and_language():
    c = config()
    assert c.change("discard_seconds", 45) == {"discard_seconds": 45}
    assert c.change("claim_seconds", 0) == {"claim_seconds": 0}
    assert c.change("language", "EN") == {"language": "en"} and c.change("language", "中文") == {"language": "zh_CN"}


def test_parse_change():
    assert parse_change(["cap", "16"]) == ("cap", 16)
    assert parse_change(["pihu_ron", "on"]) == ("pihu_ron", True)
    assert parse_change(["discard", "45"]) == ("discard_seconds", 45)
    assert parse_change(["louhu", "strict"]) == ("louhu", "strict")
    assert parse_change(["reset"]) == ("reset", None)
    with pytest.raises(ConfigError):
        parse_change(["cap"])
    assert config().change(*parse_change(["cap", "16"])) == {"rules": {"preset": "standard", "cap": "16"}}


def test_every_menu_choice_is_accepted_by_the_rules_engine_and_shown_as_current():
    for item in ITEMS:
        for choice in item.choices:
            rows = config().change(item.key, choice.value)
            c = config(rows)
            assert c.value(item) == choice.value, (item.key, choice.value)
            if item.is_rule:
                RuleSet.from_json(rows["rules"])
    assert config({"rules": {"preset": "standard", "cap": "16"}}).ruleset().cap is Cap.SIXTEEN


UNPLAYABLE = {"preset": "standard", "players": 5}
PARTIAL_REVEALS = (
    {"preset": "standard", "liangdao_reveal": "kou"},
    {"preset": "standard", "liangdao_reveal": "minimal"},
)


def test_check_rules_accepts_presets_and_partial_reveals() -> None:
    """The bot plays 暗铺 / 廊起 reveals (docs/rules.md §A9.2, §E#48) and 卡心五 (§B) at every table
    size; rules for a number of seats the engine does not play are refused."""
    for name in ("standard", "shiyan", "nocap", "kaxinwu"):
        check_rules(RuleSet.preset(name))
        check_table_rules(RuleSet.preset(name))
    for rules in PARTIAL_REVEALS:
        check_table_rules(RuleSet.from_json(rules))
        assert rules_from_json(rules).liangdao_reveal.value == rules["liangdao_reveal"]
    for players in (2, 3, 4):
        check_table_rules(RuleSet.from_json({"preset": "kaxinwu", "players": players}))
    with pytest.raises(RuleError, match="players"):
        rules_from_json(UNPLAYABLE)


def test_settings_refuse_an_unplayable_option_and_change_nothing() -> None:
    config = GroupConfig.of({}, discard=30.0, claim=15.0, language="zh_CN")
    with pytest.raises(ConfigError):
        config.change("players", 5)
    assert config.change("cap", "none") == {"rules": {"preset": "standard", "cap": "none"}}
    assert config.change("liangdao_reveal", "kou") == {"rules": {"preset": "standard", "liangdao_reveal": "kou"}}


def test_stored_rules_must_be_playable() -> None:
    with pytest.raises(RuleError):
        rules_from_json(UNPLAYABLE)
    assert rules_from_json("standard") == RuleSet.preset("standard")


def test_simulate_refuses_unplayable_rules_with_exit_2() -> None:
    out = io.StringIO()
    status = simulate_main(["--hands", "3", "--rules", '{"preset": "standard", "players": 4}'], io.StringIO(), out)
    assert status == 2
    assert "players" in out.getvalue() and "Traceback" not in out.getvalue()


def test_the_bot_plays_every_table_size_and_the_size_is_chosen_per_table() -> None:
    """The bot plays 2 to 4 seats (docs/rules.md §A2.1); ``players`` is the table's choice at /new,
    so /settings refuses it (the size presets stay: they are the group's default size)."""
    for rules, players in (("two_seats", 2), ("four_seats", 4), ({"preset": "standard", "players": 4}, 4)):
        assert rules_from_json(rules).players == players
    with pytest.raises(RuleError, match="players"):
        rules_from_json({"players": 5})
    config = GroupConfig.of({}, discard=30.0, claim=15.0, language="zh_CN")
    with pytest.raises(ConfigError) as info:
        config.change("players", 2)
    assert "/new 2" in info.value.render(EN)
    assert config.change("preset", "two_seats") == {"rules": "two_seats"}
    assert TableChoice.default("two_seats") == TableChoice("kawuxing", 2)


def test_a_tables_choice_makes_its_rules_from_the_groups() -> None:
    assert TableChoice("kawuxing", 3).rules("standard") == "standard"
    assert TableChoice("kawuxing", 2).rules("standard") == "two_seats"
    assert TableChoice("kawuxing", 4).rules({"preset": "standard", "cap": "16"}) == {
        "preset": "four_seats", "cap": "16"}  # fmt: skip
    assert TableChoice("kawuxing", 3).rules("two_seats") == "standard"
    assert TableChoice("kawuxing", 2).rules("shiyan") == {"preset": "shiyan", "players": 2}
    assert TableChoice("kaxinwu", 4).rules({"preset": "standard", "base": 2, "cap": "16"}) == {
        "preset": "kaxinwu", "base": 2}  # fmt: skip
    assert TableChoice("kaxinwu", 2).rules("standard") == {"preset": "kaxinwu", "players": 2}
    assert TableChoice.of({"game": "chess", "seats": 9}) == TableChoice()


@pytest.mark.parametrize(
    ("args", "choice"),
    [
        ((), None),
        (("4",), TableChoice("kawuxing", 4)),
        (("kaxinwu", "2"), TableChoice("kaxinwu", 2)),
        (("2P", "卡心五"), TableChoice("kaxinwu", 2)),
        (("kxw",), TableChoice("kaxinwu", 4)),
        (("kawuxing",), TableChoice("kawuxing", 3)),
        (("3人",), TableChoice("kawuxing", 3)),
    ],
)
def test_new_arguments_choose_the_game_and_size(args, choice) -> None:
    assert parse_new(args, "standard") == choice


@pytest.mark.parametrize("args", [("5",), ("1",), ("chess",), ("4", "4"), ("kaxinwu", "kawuxing")])
def test_bad_new_arguments_are_answered_with_the_usage(args) -> None:
    with pytest.raises(ConfigError) as info:
        parse_new(args, "standard")
    assert "/new kaxinwu 2" in info.value.render(EN) and info.value.render(ZH) != info.value.render(EN)


@pytest.mark.parametrize(
    ("args", "english", "chinese"),
    [
        (
            ["cap", "7"],
            "“cap 7” was refused: it is not a choice for Cap (封顶). "
            "The choices: ×8; double / triple dragon seven pairs ×16 · ×8 always · ×16 · ×32 · no cap.",
            "不封顶",
        ),
        (["louhu", "maybe"], "a bigger hand may win · strict · same tile only (过手胡)", "“louhu maybe”"),
        (
            ["huangzhuang_liangdao", "x"],
            "each who laid down pays · the first who laid down pays · ready check · none",
            "“huangzhuang_liangdao x”",
        ),
        (["pihu_ron", "2"], "The choices: off · on.", "“pihu_ron 2”"),
        (["base", "0"], "“base 0” was refused: Base stake (底金) is a whole number", "底金"),
        (
            ["preset", "foo"],
            "“preset foo” was refused: there is no rules preset of that name. The presets: standard,",
            "“preset foo”",
        ),
    ],
)
def test_a_bad_value_is_explained_in_words_not_internal_ids(args, english, chinese) -> None:
    with pytest.raises(ConfigError) as refused:
        config().change(*parse_change(args))
    en, zh = refused.value.render(EN), refused.value.render(ZH)
    assert english in en and chinese in zh
    for internal in ("8_sl16", "bigger_exception", "same_tile", "s000", "s004_first", "rule option", "<code>"):
        assert internal not in en and internal not in zh
    assert refused.value.text(EN) == en  # no engine detail: the plain text is the whole refusal


def test_the_ai_level_is_a_setting_of_its_own():
    assert config().ai_level == "strong"  # the operator's default when the group has not chosen
    assert GroupConfig.of({}, discard=30.0, claim=15.0, language="en", ai_level="easy").ai_level == "easy"
    assert config({"ai_level": "normal"}).ai_level == "normal"
    assert config({"ai_level": "genius"}).ai_level == "strong"  # a stored value no longer known
    assert config().change("ai_level", "Normal") == {"ai_level": "normal"}
    assert parse_change(["ai", "easy"]) == ("ai_level", "easy") and parse_change(["电脑", "strong"])[0] == "ai_level"
    with pytest.raises(ConfigError) as err:
        config().change("ai_level", "genius")
    assert "easy, normal or strong" in err.value.render(EN) and "电脑水平" in err.value.render(ZH)
    item = next(i for i in ITEMS if i.key == "ai_level")
    assert not item.is_rule and [c.value for c in item.choices] == ["easy", "normal", "strong"]
    assert config({"ai_level": "easy"}).value(item) == "easy"
