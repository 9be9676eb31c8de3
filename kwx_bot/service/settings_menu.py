"""The ``/settings`` menu: its text and its buttons (:class:`~kwx_bot.service.buttons.ConfigButton`
presses), drawn from a :class:`~kwx_bot.service.group_settings.GroupConfig`."""

from __future__ import annotations

from typing import Any

from ..words.i18n import Translator
from ..words.texts import esc, name, rules_label
from .buttons import ConfigButton, Key, Keyboard, keyboard
from .group_settings import CLOSE, ITEMS, MAIN, GroupConfig, Item
from .time_control import TIMER_KEYS

__all__ = ["menu_keyboard", "menu_text"]


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


def menu_keyboard(config: GroupConfig, tr: Translator, group_id: int, item: Item | None = None) -> Keyboard:
    """The main page (one button per setting, two per row, and Close) or an item's page (its
    choices, the current one marked ✓, and Back)."""
    _ = tr.gettext
    if item is None:
        buttons = [_button(_(i.title), group_id, i.code) for i in ITEMS]
        rows = [buttons[k : k + 2] for k in range(0, len(buttons), 2)]
        rows.append([_button(_("Close"), group_id, CLOSE)])
        return keyboard(*rows)
    current = config.value(item)
    choices = []
    for index, choice in enumerate(item.choices):
        label = _label(item, choice.value, tr)
        mark = "✓ " if choice.value == current and type(choice.value) is type(current) else ""
        choices.append(_button(mark + label, group_id, item.code, index))
    rows = [choices[k : k + 3] for k in range(0, len(choices), 3)]
    rows.append([_button(_("« Back"), group_id, MAIN)])
    return keyboard(*rows)
