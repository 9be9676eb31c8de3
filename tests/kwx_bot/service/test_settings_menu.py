"""The /settings menu: compact buttons that lead to every item, its text, an item's page."""

from __future__ import annotations

import unicodedata

import pytest

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


def _columns(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


@pytest.mark.parametrize("tr", [EN, ZH], ids=["en", "zh"])
def test_every_settings_row_fits_a_phone(tr):
    # Telegram cuts a button's text that does not fit ("Plain win (屁胡) on a…") and gives a row's buttons
    # equal widths: n buttons share a row only if n times the widest (a CJK character two columns, a
    # button's padding three more) fits PHONE_ROW
    c = config({"rules": {"preset": "standard"}})
    for item in (None, *ITEMS):
        rows = menu_keyboard(c, tr, 12, item).inline_keyboard
        for row in rows:
            width = len(row) * max(_columns(b.text) + 3 for b in row)
            assert len(row) == 1 or width <= settings_menu.PHONE_ROW, (item and item.key, [b.text for b in row])
            assert width <= 48, [b.text for b in row]  # even alone: a 390 px phone's whole width
    cap = menu_keyboard(c, tr, 12, item_by_code("c")).inline_keyboard
    assert cap[0][0].text.startswith("✓") and len(cap[1]) == 3  # short choices three a row
    # the flat ×8 does not read like the ×8 with its ×16 exception beside it
    assert cap[1][0].text == {"en": "×8 always", "zh_CN": "一律 ×8"}[tr.lang] and "16" in cap[0][0].text
