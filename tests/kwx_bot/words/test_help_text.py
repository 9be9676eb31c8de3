"""The /help text and the command menus."""

from __future__ import annotations

import re

import pytest

from kwx_bot.words.calc import calc_usage
from kwx_bot.words.help_text import COMMANDS, MenuScope, command_menu, help_text
from kwx_bot.words.i18n import translator

EN = translator("en")


ZH = translator("zh_CN")


@pytest.mark.parametrize("tr", [EN, ZH], ids=["en", "zh_CN"])
def test_help_mentions_every_command(tr) -> None:
    text = help_text(tr)
    for command in ("/new", "/hand", "/score", "/score me", "/history", "/settle", "/export", "/rules",
                    "/settings", "/calc", "/back", "/kill", "/kick", "/help", "/season new", "/stats",
                    "/stats all", "/stats me"):  # fmt: skip
        assert command in text, command
    assert len(text) < 4096
    assert text.count("<b>") == text.count("</b>")


def test_help_is_translated_and_has_a_calc_topic() -> None:
    en, zh = help_text(EN).splitlines(), help_text(ZH).splitlines()
    assert len(en) == len(zh)
    assert all(e != z for e, z in zip(en, zh, strict=True) if e)
    assert help_text(EN, "calc") == calc_usage(EN) == help_text(EN, " /calc ")


def test_command_menus() -> None:
    for scope in MenuScope:
        for tr in (EN, ZH):
            menu = command_menu(tr, scope)
            assert menu and len({c for c, _ in menu}) == len(menu)
            for command, description in menu:
                assert re.fullmatch(r"[a-z0-9_]{1,32}", command)
                assert 1 <= len(description) <= 256
    private = [c for c, _ in command_menu(EN, MenuScope.PRIVATE)]
    group = [c for c, _ in command_menu(EN, MenuScope.GROUP)]
    admins = [c for c, _ in command_menu(EN, MenuScope.ADMINS)]
    assert "hand" in private and "new" not in private and "settings" not in group
    assert "stats" in private and "stats" in group and "stats" in admins
    assert set(group) <= set(admins) and {"settings", "kill", "kick", "season"} <= set(admins)
    assert command_menu(ZH, MenuScope.GROUP) != command_menu(EN, MenuScope.GROUP)
    assert {c for c, _, _ in COMMANDS} == set(admins) | set(private)
