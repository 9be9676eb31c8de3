"""Inline keyboards as plain values: lobby, hand (turn / claim / 亮倒 menu), next hand (docs/telegram.md).

Keys carry :class:`~kwx_bot.service.buttons.Button` presses bound to the table's current event seq.
Discard buttons are text labels (``5条``), one per tile kind in hand, at most 7 per row (Telegram allows 8); the drawn
tile's button is marked ``▶``, a tile some 亮倒 opponent waits on is marked ``⚠`` (discarding it
means 包胡, docs/rules.md §E#13); a tile the player may not discard because a 亮倒 / 廊起 player waits
on it (protection, docs/rules.md §A9.8, §B) is shown ``🔒`` with a button that only says why.  The 廊起
/ 亮倒 reveal choice (docs/rules.md §A9.2, §E#48) shows one toggle per kept tile (``☑`` shown, ``☐``
hidden), each carrying the whole new choice, then Confirm (only when the engine accepts the choice),
Show all and Back.  Claim buttons (胡 / 杠 / 碰 / 过) sit on their own row and are only ever
shown to seats that can claim.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..words.i18n import Translator
from ..words.texts import game_name, tile_label
from ..words.ui import RevealChoice, Ui
from .buttons import Button, Key, Keyboard, Op, keyboard
from .game import Action, ActionKind, Tile
from .reveal import all_shown, canonical, toggled

__all__ = [
    "LANGUAGE_SWITCH",
    "close_confirm_keyboard",
    "hand_keyboard",
    "lobby_keyboard",
    "next_hand_keyboard",
    "take_back_keyboard",
]

ROW = 7
_CLAIMS = frozenset({ActionKind.PASS, ActionKind.PONG, ActionKind.KONG})


def _b(text: str, table_id: int, seq: int, op: Op, tile: Tile | None = None, shown: int | None = None) -> Key:
    return Key(text, Button(table_id, seq, op, tile, shown))


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
    game: str = "kawuxing", seats: int = 3, taken: int = 0,
) -> Keyboard:  # fmt: skip
    """Join / leave / the language switch (:data:`LANGUAGE_SWITCH` of the lobby's language, ``tr.lang``),
    add AI / remove AI / start, the game (卡五星 / 卡心五) and the table size (2, 3 or 4 seats; the
    current ones marked ✓, for the table's opener), plus a URL button that opens the private chat.

    Add AI and Remove AI carry the number of seats ``taken`` when the keyboard was drawn in place of
    the table's seq (a lobby has no events, so its seq says nothing): a press made for another seating
    — a double tap, or an old lobby message — changes nothing (:meth:`.lobby.Lobby.press`)."""
    _ = tr.gettext
    row1 = [_b(_("Join"), table_id, seq, Op.JOIN), _b(_("Leave"), table_id, seq, Op.LEAVE)]
    switch = LANGUAGE_SWITCH.get(tr.lang)
    if switch is not None:
        row1.append(_b(switch[0], table_id, seq, switch[1]))
    row2 = []
    if not full:
        row2.append(_b(_("Add AI"), table_id, taken, Op.ADD_AI))
    if has_ai:
        row2.append(_b(_("Remove AI"), table_id, taken, Op.REMOVE_AI))
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


def _reveal_keyboard(
    tr: Translator, table_id: int, seq: int, choice: RevealChoice, kept: Sequence[Tile], *, langqi: bool
) -> Keyboard:
    """The reveal choice: a toggle per kept tile, Confirm when legal, Show all, Back."""
    _ = tr.gettext
    mask = canonical(kept, choice.shown)
    toggles = [
        _b(("☑" if mask >> i & 1 else "☐") + tile_label(t, tr), table_id, seq, Op.REVEAL, choice.discard,
           toggled(kept, mask, i))
        for i, t in enumerate(kept)
    ]  # fmt: skip
    last = []
    if choice.legal:
        text = tr.gettext_for(langqi, "Lay down, discard {tile}")
        last.append(_b(text.format(tile=tile_label(choice.discard, tr)), table_id, seq, Op.LIANGDAO, choice.discard,
                       mask))  # fmt: skip
    if mask != all_shown(kept):
        last.append(_b(_("Show all"), table_id, seq, Op.REVEAL, choice.discard, all_shown(kept)))
    last.append(_b(_("Back"), table_id, seq, Op.BACK))
    return keyboard(*_rows(toggles, 5), *_rows(last, 2))


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
    protected: Sequence[Tile] = (),
    reveal: RevealChoice | None = None,
    kept: Sequence[Tile] = (),
    langqi: bool = False,
) -> Keyboard | None:
    """The buttons of a hand message for the seat's ``legal`` actions (None: nothing to do).

    ``ui`` selects the 亮倒 menu (choose the discard), its confirmation for ``ui_tile``, or the reveal
    choice ``reveal`` over the ``kept`` tiles (tile order).  ``protected``: held tiles the engine
    keeps out of the discards (shown disabled).  ``langqi``: the table plays 卡心五 (廊起 for 亮倒).
    """
    _ = tr.gettext
    if not legal:
        return None
    kinds = {a.kind for a in legal}
    liangdao_tiles = [a.tile for a in legal if a.kind is ActionKind.LIANGDAO and a.tile is not None]
    liangdao_tiles = sorted(set(liangdao_tiles))
    if ui is Ui.REVEAL and reveal is not None and reveal.discard in liangdao_tiles:
        return _reveal_keyboard(tr, table_id, seq, reveal, kept, langqi=langqi)
    if ui is Ui.CONFIRM and ui_tile in liangdao_tiles:
        assert ui_tile is not None
        text = tr.gettext_for(langqi, "Lay down, discard {tile}")
        label = text.format(tile=tile_label(ui_tile, tr))
        return keyboard([_b(label, table_id, seq, Op.LIANGDAO, ui_tile)], [_b(_("Back"), table_id, seq, Op.BACK)])
    if ui in (Ui.LIANGDAO, Ui.CONFIRM, Ui.REVEAL) and liangdao_tiles:
        buttons = _discard_buttons(tr, table_id, seq, liangdao_tiles, drawn, danger, Op.LIANGDAO_PICK)
        return keyboard(*_rows(buttons), [_b(_("Back"), table_id, seq, Op.BACK)])
    if kinds & _CLAIMS:  # a claim window (under 有杠必杠 a 直杠 comes without 过, docs/rules.md §B)
        row = []
        if ActionKind.WIN in kinds:
            row.append(_b(_("Win"), table_id, seq, Op.WIN))
        if ActionKind.KONG in kinds:
            row.append(_b(_("Kong"), table_id, seq, Op.KONG))
        if ActionKind.PONG in kinds:
            row.append(_b(_("Pong"), table_id, seq, Op.PONG))
        if ActionKind.PASS in kinds:
            row.append(_b(_("Pass"), table_id, seq, Op.PASS))
        return keyboard(row)
    discard_tiles = [a.tile for a in legal if a.kind is ActionKind.DISCARD and a.tile is not None]
    discards = _discard_buttons(tr, table_id, seq, discard_tiles, drawn, danger, Op.DISCARD)
    if discard_tiles and protected:  # disabled: the press only says why (docs/rules.md §A9.8, §B)
        locked = [(t, _b("🔒" + tile_label(t, tr), table_id, seq, Op.PROTECTED, t)) for t in protected]
        merged = sorted([*zip(discard_tiles, discards, strict=True), *locked], key=lambda pair: pair[0])
        discards = [key for _t, key in merged]
    rows = _rows(discards)
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
        extra.append(_b(tr.gettext_for(langqi, "Lay down…"), table_id, seq, Op.LIANGDAO_MENU))
    rows.extend(_rows(extra, 4))
    return keyboard(*rows)
