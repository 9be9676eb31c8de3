"""Group settings: values with defaults, changes validated by the rules engine, the inline menu."""

from __future__ import annotations

import pytest

from engine.rules import Cap, RuleSet
from kwx_bot.edge.codec import decode_config
from kwx_bot.edge.sender import markup
from kwx_bot.service import settings_menu
from kwx_bot.service.group_settings import ITEMS, ConfigError, GroupConfig, item_by_code, parse_change
from kwx_bot.service.settings_menu import menu_text
from kwx_bot.words.i18n import translator


def menu_keyboard(*args, **kwargs):
    """The menu's keyboard as Telegram gets it (callback data encoded by the edge)."""
    return markup(settings_menu.menu_keyboard(*args, **kwargs))


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


def test_menu_buttons_are_compact_and_lead_to_items():
    c = config({"rules": {"preset": "standard", "cap": "16"}, "discard_seconds": 45})
    main = menu_keyboard(c, EN, 12)
    data = [b.callback_data for row in main.inline_keyboard for b in row]
    assert all(len(d.encode()) <= 64 for d in data)
    assert {item_by_code(decode_config(d).item) for d in data[:-1]} == set(ITEMS)
    text = menu_text(c, EN, title="<b>Friends</b>")
    assert "Cap (封顶): ×16" in text and "Time to discard: 45 s" in text and "&lt;b&gt;Friends" in text
    cap = item_by_code("c")
    page = menu_keyboard(c, EN, 12, cap)
    labels = [b.text for row in page.inline_keyboard for b in row]
    assert "✓ ×16" in labels and labels[-1] == "« Back"
    assert sum(label.startswith("✓") for label in labels) == 1
    assert "封顶" in menu_text(c, ZH, title="x", item=cap) and "当前" in menu_text(c, ZH, title="x", item=cap)
