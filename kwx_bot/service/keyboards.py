"""Inline keyboards as plain values: lobby, the hand message's parts (turn / claim / 亮倒 menu), next
hand (docs/telegram.md).  Which of a hand message's parts a seat gets is the screen's decision
(:mod:`.screen.seat`); each builder here makes one part.

Keys carry :class:`~kwx_bot.service.buttons.Button` presses bound to the table's current event seq.
Discard buttons are text labels (``5条``), one per tile kind in hand, at most 7 per row (Telegram
allows 8); the drawn tile's button is marked ``▶``, a tile of the engine's ``danger`` (a 亮倒
opponent waits on it: discarding it means 包胡, docs/rules.md §A9.7) is marked ``⚠``; a tile the
player may not discard because a 亮倒 / 廊起 player waits on it (protection, docs/rules.md §A9.8,
§B) is shown ``🔒`` with a button that only says why.  The 廊起 / 亮倒 reveal choice (docs/rules.md
§A9.2, §E#48) shows one toggle per kept tile (``☑`` shown, ``☐`` hidden), each carrying the whole
new choice, then Confirm (only when the engine accepts the choice), Show the fewest (the engine's
fewest reveal that keeps every wait), Show all and Back.  Claim
buttons (胡 / 杠 / 碰 / 过) sit on their own row and are only ever shown to seats that can claim.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

from ..words.i18n import Translator
from ..words.texts import game_name, tile_label
from ..words.ui import RevealChoice
from .buttons import Button, Key, Keyboard, Op, keyboard
from .game import Action, ActionKind, Ruleset, Tile
from .reveal import all_shown, canonical, toggled

__all__ = [
    "LANGUAGE_SWITCH",
    "back_key",
    "claim_keyboard",
    "close_confirm_keyboard",
    "confirm_keyboard",
    "discard_rows",
    "liangdao_pick_keyboard",
    "lobby_keyboard",
    "next_hand_keyboard",
    "open_table_row",
    "reveal_keyboard",
    "take_back_keyboard",
    "turn_extras",
]

ROW = 7


def _b(
    text: str, table_id: int, seq: int, op: Op, tile: Tile | None = None, shown: int | None = None,
    *, face: Tile | None = None, on: bool | None = None,
) -> Key:  # fmt: skip
    return Key(text, Button(table_id, seq, op, tile, shown), face=face, on=on)


def _rows(buttons: Sequence[Key], width: int = ROW) -> list[list[Key]]:
    return [list(buttons[i : i + width]) for i in range(0, len(buttons), width)]


LANGUAGE_SWITCH = {"zh_CN": ("English", Op.LANG_EN), "en": ("中文", Op.LANG_ZH)}
"""The lobby's one-tap language switch: in a lobby of language ``lang`` the button names the other
language in that language's own words, and pressing it sets the group's language to it."""


GAME_KEYS = ((Ruleset.KAWUXING, Op.GAME_KAWUXING), (Ruleset.KAXINWU, Op.GAME_KAXINWU))
"""The lobby's choice of game: :attr:`~.group_settings.TableChoice.game` and its op."""
SEAT_KEYS = ((2, Op.SEATS_2), (3, Op.SEATS_3), (4, Op.SEATS_4))
"""The lobby's choice of table size: seats and the op."""


def lobby_keyboard(
    tr: Translator, table_id: int, seq: int, *, deep_link: str, full: bool, has_ai: bool,
    game: Ruleset = Ruleset.KAWUXING, seats: int = 3, taken: int = 0,
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
    tr: Translator, table_id: int, seq: int, tiles: Iterable[Tile], drawn: Tile | None, danger: Collection[Tile], op: Op
) -> list[Key]:
    out = []
    for t in tiles:
        label = tile_label(t, tr)
        if t in danger:
            label = "⚠" + label
        if t == drawn:
            label = "▶" + label
        out.append(_b(label, table_id, seq, op, t, face=t))
    return out


def back_key(tr: Translator, table_id: int, seq: int) -> Key:
    """Leave the 亮倒 / 廊起 menu."""
    return _b(tr.gettext("Back"), table_id, seq, Op.BACK)


def reveal_keyboard(
    tr: Translator, table_id: int, seq: int, choice: RevealChoice, kept: Sequence[Tile], *, langqi: bool
) -> Keyboard:
    """The reveal choice (docs/rules.md §A9.2, §E#48): a toggle per ``kept`` tile (tile order), each
    carrying the whole new choice; Confirm when the engine accepts the choice, Show the fewest (the
    engine's :attr:`RevealChoice.fewest`) and Show all unless the choice is already that, Back."""
    _ = tr.gettext
    mask = canonical(kept, choice.shown)
    toggles = [
        _b(("☑" if mask >> i & 1 else "☐") + tile_label(t, tr), table_id, seq, Op.REVEAL, choice.discard,
           toggled(kept, mask, i), face=t, on=bool(mask >> i & 1))
        for i, t in enumerate(kept)
    ]  # fmt: skip
    last = []
    if choice.legal:
        last.append(_confirm_key(tr, table_id, seq, choice.discard, mask, langqi=langqi))
    fewest = None if choice.fewest is None else canonical(kept, choice.fewest)
    if fewest is not None and mask != fewest:
        last.append(_b(_("Show the fewest"), table_id, seq, Op.REVEAL, choice.discard, fewest))
    if mask != all_shown(kept):
        last.append(_b(_("Show all"), table_id, seq, Op.REVEAL, choice.discard, all_shown(kept)))
    last.append(back_key(tr, table_id, seq))
    return keyboard(*_rows(toggles, 5), *_rows(last, 2))


def _confirm_key(tr: Translator, table_id: int, seq: int, tile: Tile, mask: int | None = None, *, langqi: bool) -> Key:
    text = tr.gettext_for(langqi, "Lay down, discard {tile}")
    return _b(text.format(tile=tile_label(tile, tr)), table_id, seq, Op.LIANGDAO, tile, mask)


def confirm_keyboard(tr: Translator, table_id: int, seq: int, tile: Tile, *, langqi: bool) -> Keyboard:
    """The 亮倒 / 廊起 confirmation with discard ``tile`` (the whole hand shown), and Back."""
    return keyboard([_confirm_key(tr, table_id, seq, tile, langqi=langqi)], [back_key(tr, table_id, seq)])


def liangdao_pick_keyboard(
    tr: Translator, table_id: int, seq: int, tiles: Sequence[Tile], *, drawn: Tile | None, danger: Collection[Tile]
) -> Keyboard:
    """The 亮倒 / 廊起 menu: one button per discard that keeps the hand ready (``tiles``), and Back."""
    buttons = _discard_buttons(tr, table_id, seq, tiles, drawn, danger, Op.LIANGDAO_PICK)
    return keyboard(*_rows(buttons), [back_key(tr, table_id, seq)])


def claim_keyboard(tr: Translator, table_id: int, seq: int, kinds: Collection[ActionKind]) -> Keyboard:
    """A claim window's one row (胡 / 杠 / 碰 / 过, those of ``kinds``; under 有杠必杠 a 直杠 comes
    without 过, docs/rules.md §B)."""
    _ = tr.gettext
    offered = ((ActionKind.WIN, _("Win"), Op.WIN), (ActionKind.KONG, _("Kong"), Op.KONG),
               (ActionKind.PONG, _("Pong"), Op.PONG), (ActionKind.PASS, _("Pass"), Op.PASS))  # fmt: skip
    return keyboard([_b(text, table_id, seq, op) for kind, text, op in offered if kind in kinds])


def discard_rows(
    tr: Translator, table_id: int, seq: int, tiles: Sequence[Tile], *, drawn: Tile | None,
    danger: Collection[Tile], protected: Sequence[Tile],
) -> list[list[Key]]:  # fmt: skip
    """A turn's discard buttons, one per tile kind (``tiles``, the legal discards, in tile order), at
    most :data:`ROW` a row: the drawn tile marked ▶, a ``danger`` tile ⚠ (包胡, docs/rules.md §A9.7);
    the ``protected`` tiles among them as disabled 🔒 buttons that only say why (§A9.8, §B)."""
    discards = _discard_buttons(tr, table_id, seq, tiles, drawn, danger, Op.DISCARD)
    if tiles and protected:
        locked = [(t, _b("🔒" + tile_label(t, tr), table_id, seq, Op.PROTECTED, t, face=t)) for t in protected]
        merged = sorted([*zip(tiles, discards, strict=True), *locked], key=lambda pair: pair[0])
        discards = [key for _t, key in merged]
    return _rows(discards)


def turn_extras(
    tr: Translator, table_id: int, seq: int, legal: Sequence[Action], *, liangdao: bool, langqi: bool
) -> list[list[Key]]:
    """A turn's other buttons, at most four a row: 自摸, each 暗杠 / 补杠 of ``legal``, and the 亮倒 /
    廊起 menu when ``liangdao`` is offered (``langqi``: 卡心五 names it 廊起)."""
    _ = tr.gettext
    extra = []
    if any(a.kind is ActionKind.WIN for a in legal):
        extra.append(_b(_("Self-draw win"), table_id, seq, Op.WIN))
    kongs = {ActionKind.CONCEALED_KONG: (_("Concealed kong {tile}"), Op.CONCEALED_KONG),
             ActionKind.ADDED_KONG: (_("Added kong {tile}"), Op.ADDED_KONG)}  # fmt: skip
    for a in legal:
        if a.kind in kongs and a.tile is not None:
            text, op = kongs[a.kind]
            extra.append(_b(text.format(tile=tile_label(a.tile, tr)), table_id, seq, op, a.tile))
    if liangdao:
        extra.append(_b(tr.gettext_for(langqi, "Lay down…"), table_id, seq, Op.LIANGDAO_MENU))
    return _rows(extra, 4)


def open_table_row(tr: Translator, table_id: int, webapp_url: str, *, private: bool, bot: str = "") -> Keyboard:
    """The "Open the table" row of a message, with a Mini App at ``webapp_url`` (``KWX_WEBAPP_URL``;
    without one a message has no such row, and its callers ask for none): in a private chat a
    ``web_app`` key opening ``<webapp_url>?table=<id>``; in a group, where Telegram allows no
    ``web_app`` key, a link to the bot's Main Mini App with the table as its start parameter,
    ``https://t.me/<bot>?startapp=t<id>`` (docs/architecture.md §4 "The Mini App")."""
    text = tr.gettext("Open the table")
    if private:
        return keyboard([Key(text, web_app=f"{webapp_url}?table={table_id}")])
    return keyboard([Key(text, url=f"https://t.me/{bot}?startapp=t{table_id}")])


def replay_row(tr: Translator, param: str, webapp_url: str | None, bot: str) -> Keyboard:
    """The "Step through the hand" row under ``/replay``'s animation (none without a Mini App): a link
    to the bot's Main Mini App with the replay's start parameter ``param`` (``/replay`` answers in
    the group, where Telegram allows no ``web_app`` key; docs/architecture.md §4 "The Mini App")."""
    if webapp_url is None:
        return ()
    return keyboard([Key(tr.gettext("Step through the hand"), url=f"https://t.me/{bot}?startapp={param}")])
