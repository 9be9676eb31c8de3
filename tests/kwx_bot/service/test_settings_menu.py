"""The /settings menu: compact buttons that lead to every item, its text, an item's page."""

from __future__ import annotations

from kwx_bot.edge.codec import decode_config
from kwx_bot.edge.sender import markup
from kwx_bot.service import settings_menu
from kwx_bot.service.group_settings import ITEMS, GroupConfig, item_by_code
from kwx_bot.service.settings_menu import menu_text
from kwx_bot.words.i18n import translator


def menu_keyboard(*args, **kwargs):
    """The menu's keyboard as Telegram gets it (callback data encoded by the edge)."""
    return markup(settings_menu.menu_keyboard(*args, **kwargs))


EN, ZH = translator("en"), translator("zh_CN")


def config(stored=None):
    return GroupConfig.of(stored or {}, discard=30.0, claim=15.0, language="zh_CN")


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
