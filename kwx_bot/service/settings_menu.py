"""The ``/settings`` menu: its text and its buttons (:class:`~kwx_bot.service.buttons.ConfigButton`
presses), drawn from a :class:`~kwx_bot.service.group_settings.GroupConfig`."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any

from ..words.i18n import Translator
from ..words.texts import esc, name, rules_label
from .buttons import ConfigButton, Key, Keyboard, keyboard
from .group_settings import CLOSE, ITEMS, MAIN, GroupConfig, Item
from .time_control import TIMER_KEYS

__all__ = ["PHONE_ROW", "menu_keyboard", "menu_text"]

PHONE_ROW = 42
"""Columns of a phone's row of buttons below a message, about 40 Latin letters across a 390 px screen
(the playground's bubble is 318 px): Telegram cuts a button's text that does not fit and gives the
buttons of a row equal widths.  A letter is one column, a CJK character two, each button's padding
three; a row holds ``n`` buttons only while ``n`` times its widest one fits (a wider label gets a row
of its own)."""


def _label(item: Item, value: Any, tr: Translator) -> str:
    for choice in item.choices:
        if choice.value == value and type(choice.value) is type(value):
            text = choice.label if choice.literal else tr.gettext(choice.label)
            break
    else:
        text = esc(str(value))
    if item.key in TIMER_KEYS:
        return tr.gettext("no limit") if not value else tr.gettext("{n} s").format(n=value)
    if item.key == "preset":
        return rules_label(value, tr)
    return text


def menu_text(config: GroupConfig, tr: Translator, *, title: str, item: Item | None = None) -> str:
    """The menu message (HTML): every setting with its value, or one item's page."""
    _ = tr.gettext
    head = _("<b>Settings</b> · {title}").format(title=name(title or "?", 40))
    if item is not None:
        return "\n".join([head, _("Choose: {item}").format(item=_(item.title)),
                          _("Now: {value}").format(value=_label(item, config.value(item), tr))])  # fmt: skip
    rules = config.rules
    lines = [head, _("Rules: {rules}").format(rules=rules_label(rules, tr))]
    lines += [
        "• " + _("{item}: {value}").format(item=_(i.title), value=_label(i, config.value(i), tr))
        for i in ITEMS
        if i.key != "preset"
    ]
    lines.append(_("Changes apply from the next hand, never during one. Only group admins can change them."))
    return "\n".join(lines)


def _button(text: str, group_id: int, code: str, choice: int | None = None) -> Key:
    return Key(text, ConfigButton(group_id, code, choice))


def _columns(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text) + 3


def _rows(buttons: Sequence[Key], most: int) -> list[list[Key]]:
    """``buttons`` in order, at most ``most`` a row, a row closed before it would pass
    :data:`PHONE_ROW`."""
    rows: list[list[Key]] = []
    for b in buttons:
        row = rows[-1] if rows else None
        if (
            row is not None
            and len(row) < most
            and (len(row) + 1) * max(_columns(k.text) for k in (*row, b)) <= PHONE_ROW
        ):
            row.append(b)
        else:
            rows.append([b])
    return rows


def menu_keyboard(config: GroupConfig, tr: Translator, group_id: int, item: Item | None = None) -> Keyboard:
    """The main page (one button per setting, up to two a row, and Close) or an item's page (its
    choices, up to three a row, the current one marked ✓, and Back); a row holds only what a phone
    shows uncut (:data:`PHONE_ROW`)."""
    _ = tr.gettext
    if item is None:
        buttons = [_button(_(i.title), group_id, i.code) for i in ITEMS]
        rows = _rows(buttons, 2)
        rows.append([_button(_("Close"), group_id, CLOSE)])
        return keyboard(*rows)
    current = config.value(item)
    choices = []
    for index, choice in enumerate(item.choices):
        label = _label(item, choice.value, tr)
        mark = "✓ " if choice.value == current and type(choice.value) is type(current) else ""
        choices.append(_button(mark + label, group_id, item.code, index))
    rows = _rows(choices, 3)
    rows.append([_button(_("« Back"), group_id, MAIN)])
    return keyboard(*rows)
