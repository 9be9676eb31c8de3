"""Inline keyboards as plain values: lobby, hand (turn / claim / 亮倒 menu), next hand (docs/telegram.md).

Keys carry :class:`~kwx_bot.service.buttons.Button` presses bound to the table's current event seq.
Discard buttons are text labels (``5条``), one per tile kind in hand, at most 7 per row (Telegram allows 8); the drawn
tile's button is marked ``▶``, a tile some 亮倒 opponent waits on is marked ``⚠`` (discarding it
means 包胡, docs/rules.md §E#13).  Claim buttons (胡 / 杠 / 碰 / 过) sit on their own row and are only ever
shown to seats that can claim.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..words.i18n import Translator
from ..words.texts import game_name, tile_label
from ..words.ui import Ui
from .buttons import Button, Key, Keyboard, Op, keyboard
from .game import Action, ActionKind, Tile

__all__ = [
    "LANGUAGE_SWITCH",
    "close_confirm_keyboard",
    "hand_keyboard",
    "lobby_keyboard",
    "next_hand_keyboard",
    "take_back_keyboard",
]

ROW = 7


def _b(text: str, table_id: int, seq: int, op: Op, tile: Tile | None = None) -> Key:
    return Key(text, Button(table_id, seq, op, tile))


def _rows(buttons: Sequence[Key], width: int = ROW) -> list[list[Key]]:
    return [list(buttons[i : i + width]) for i in range(0, len(buttons), width)]


LANGUAGE_SWITCH = {"zh_CN": ("English", Op.LANG_EN), "en": ("中文", Op.LANG_ZH)}
"""The lobby's one-tap language switch: in a lobby of language ``lang`` the button names the other
language in that language's own words, and pressing it sets the group's language to it."""


GAME_KEYS = (("kawuxing", Op.GAME_KAWUXING), ("kaxinwu", Op.GAME_KAXINWU))
"""The lobby's choice of game: :attr:`~.group_settings.TableChoice.game` and its op."""
SEAT_KEYS = ((2, Op.SEATS_2), (3, Op.SEATS_3), (4, Op.SEATS_4))
"""The lobby's choice of table size: seats and the op."""


def lobby_keyboard(
    tr: Translator, table_id: int, seq: int, *, deep_link: str, full: bool, has_ai: bool,
    game: str = "kawuxing", seats: int = 3,
) -> Keyboard:  # fmt: skip
    """Join / leave / the language switch (:data:`LANGUAGE_SWITCH` of the lobby's language, ``tr.lang``),
    add AI / remove AI / start, the game (卡五星 / 卡心五) and the table size (2, 3 or 4 seats; the
    current ones marked ✓, for the table's opener), plus a URL button that opens the private chat."""
    _ = tr.gettext
    row1 = [_b(_("Join"), table_id, seq, Op.JOIN), _b(_("Leave"), table_id, seq, Op.LEAVE)]
    switch = LANGUAGE_SWITCH.get(tr.lang)
    if switch is not None:
        row1.append(_b(switch[0], table_id, seq, switch[1]))
    row2 = []
    if not full:
        row2.append(_b(_("Add AI"), table_id, seq, Op.ADD_AI))
    if has_ai:
        row2.append(_b(_("Remove AI"), table_id, seq, Op.REMOVE_AI))
    row2.append(_b(_("Start"), table_id, seq, Op.START))
    games = [_b(("✓ " if g == game else "") + game_name(g, tr), table_id, seq, op) for g, op in GAME_KEYS]
    sizes = [
        _b(("✓ " if n == seats else "") + tr.ngettext("{n} seat", "{n} seats", n).format(n=n), table_id, seq, op)
        for n, op in SEAT_KEYS
    ]
    row3 = [Key(_("Open a private chat with me"), url=deep_link)]
    return keyboard(row1, row2, games, sizes, row3)


def next_hand_keyboard(tr: Translator, table_id: int, seq: int) -> Keyboard:
    """Under a result: deal the next hand, or close the table."""
    _ = tr.gettext
    return keyboard([_b(_("Next hand"), table_id, seq, Op.NEXT_HAND), _b(_("End the table"), table_id, seq, Op.CLOSE)])


def close_confirm_keyboard(tr: Translator, table_id: int, seq: int) -> Keyboard:
    """The second step of End the table: confirm, or go back to the Next hand / End choice."""
    _ = tr.gettext
    return keyboard(
        [_b(_("Yes, end the table"), table_id, seq, Op.CLOSE_CONFIRM), _b(_("Back"), table_id, seq, Op.CLOSE_CANCEL)]
    )


def take_back_keyboard(tr: Translator, table_id: int, seq: int) -> Keyboard:
    """For a seat on 托管: take the seat back."""
    return keyboard([_b(tr.gettext("I'm back: let me play"), table_id, seq, Op.TAKE_BACK)])


def _discard_buttons(
    tr: Translator, table_id: int, seq: int, tiles: Iterable[Tile], drawn: Tile | None, danger: set[Tile], op: Op
) -> list[Key]:
    out = []
    for t in tiles:
        label = tile_label(t, tr)
        if t in danger:
            label = "⚠" + label
        if t == drawn:
            label = "▶" + label
        out.append(_b(label, table_id, seq, op, t))
    return out


def hand_keyboard(
    tr: Translator,
    table_id: int,
    seq: int,
    legal: Sequence[Action],
    *,
    drawn: Tile | None,
    danger: set[Tile],
    ui: Ui = Ui.NORMAL,
    ui_tile: Tile | None = None,
) -> Keyboard | None:
    """The buttons of a hand message for the seat's ``legal`` actions (None: nothing to do).

    ``ui`` selects the 亮倒 menu (choose the discard) or its confirmation for ``ui_tile``.
    """
    _ = tr.gettext
    if not legal:
        return None
    kinds = {a.kind for a in legal}
    liangdao_tiles = [a.tile for a in legal if a.kind is ActionKind.LIANGDAO and a.tile is not None]
    if ui is Ui.CONFIRM and ui_tile in liangdao_tiles:
        assert ui_tile is not None
        label = _("Confirm liangdao, discard {tile}").format(tile=tile_label(ui_tile, tr))
        return keyboard([_b(label, table_id, seq, Op.LIANGDAO, ui_tile)], [_b(_("Back"), table_id, seq, Op.BACK)])
    if ui in (Ui.LIANGDAO, Ui.CONFIRM) and liangdao_tiles:
        buttons = _discard_buttons(tr, table_id, seq, liangdao_tiles, drawn, danger, Op.LIANGDAO_PICK)
        return keyboard(*_rows(buttons), [_b(_("Back"), table_id, seq, Op.BACK)])
    if ActionKind.PASS in kinds:  # a claim window
        row = []
        if ActionKind.WIN in kinds:
            row.append(_b(_("Win"), table_id, seq, Op.WIN))
        if ActionKind.KONG in kinds:
            row.append(_b(_("Kong"), table_id, seq, Op.KONG))
        if ActionKind.PONG in kinds:
            row.append(_b(_("Pong"), table_id, seq, Op.PONG))
        row.append(_b(_("Pass"), table_id, seq, Op.PASS))
        return keyboard(row)
    discard_tiles = [a.tile for a in legal if a.kind is ActionKind.DISCARD and a.tile is not None]
    rows = _rows(_discard_buttons(tr, table_id, seq, discard_tiles, drawn, danger, Op.DISCARD))
    extra = []
    if ActionKind.WIN in kinds:
        extra.append(_b(_("Self-draw win"), table_id, seq, Op.WIN))
    for a in legal:
        if a.kind is ActionKind.CONCEALED_KONG and a.tile is not None:
            extra.append(
                _b(
                    _("Concealed kong {tile}").format(tile=tile_label(a.tile, tr)),
                    table_id,
                    seq,
                    Op.CONCEALED_KONG,
                    a.tile,
                )
            )
        elif a.kind is ActionKind.ADDED_KONG and a.tile is not None:
            extra.append(
                _b(_("Added kong {tile}").format(tile=tile_label(a.tile, tr)), table_id, seq, Op.ADDED_KONG, a.tile)
            )
    if liangdao_tiles:
        extra.append(_b(_("Liangdao…"), table_id, seq, Op.LIANGDAO_MENU))
    rows.extend(_rows(extra, 4))
    return keyboard(*rows)
