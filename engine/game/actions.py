"""Player actions of one hand and the error raised for an illegal one (docs/rules.md §A4-§A9).

An :class:`Action` is what a seat asks for: ``Action(seat, ActionKind.DISCARD, Tile.S5)``.  Its JSON
form is the ``play`` command line's action form (``{"seat": 0, "act": "discard", "tile": "5s"}``).

Acts and their ``tile``:

* ``discard`` (tile) — discard a tile on one's own turn (A4.1c).
* ``liangdao`` (tile, optional ``reveal``) — discard ``tile`` and declare 亮倒 with it (A9.1);
  ``reveal`` names the kept tiles shown (``"reveal": "46s"`` in the ``play`` form) under
  ``liangdao_reveal = kou`` / ``minimal`` (A9.2, §E#48); without it the whole hand is shown.
* ``concealed_kong`` (tile) — 暗杠 on one's own turn (A6.1).
* ``added_kong`` (tile) — 补杠 on one's own turn (A6.1, A6.2).
* ``win`` — 自摸 on one's own turn, or 胡 / 抢杠胡 in a claim window (A5, A6.6, A7, A8).
* ``pong`` — 碰 the current discard (A5.1).
* ``kong`` — 直杠 of the current discard (A5.1, A6.1).
* ``pass`` — decline every claim in a claim window.

``win``, ``pong``, ``kong`` and ``pass`` carry no tile (the tile is the one on the table / just drawn).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from ..rules import STANDARD_PLAYERS
from ..tiles import NotationError, Tile, format_tiles, parse_tile, parse_tiles

__all__ = ["Action", "ActionKind", "IllegalAction", "Reason", "action", "action_from_json", "seat_list"]


class ActionKind(enum.StrEnum):
    """The acts of the ``play`` contract; values are their command-line spellings (a member equals
    its value string).  WIN, KONG, PONG and PASS are also the answers to a claim window."""

    DISCARD = "discard"
    LIANGDAO = "liangdao"
    PONG = "pong"
    KONG = "kong"
    CONCEALED_KONG = "concealed_kong"
    ADDED_KONG = "added_kong"
    WIN = "win"
    PASS = "pass"

    @property
    def takes_tile(self) -> bool:
        """True for the acts that name a tile (discard, liangdao, concealed_kong, added_kong)."""
        return self in _TILE_ACTS


_TILE_ACTS = frozenset({ActionKind.DISCARD, ActionKind.LIANGDAO, ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG})


@dataclass(frozen=True, slots=True)
class Action:
    """One seat's request: ``kind`` and, for the tile acts, ``tile`` (else None); a 亮倒 may name
    the tiles it shows (``reveal``, None = the whole hand).

    ``waits``: on a 亮倒 listed by :func:`engine.game.legal_actions`, the waits it leads to (the
    hand's waits after the discard, or those the shown shape fixes, docs/rules.md §A9.2, §E#48), in
    tile order; () otherwise.  It is an answer, not part of the request: actions that differ only in
    ``waits`` are equal, and :func:`decide` ignores it.
    """

    seat: int
    kind: ActionKind
    tile: Tile | None = None
    reveal: tuple[Tile, ...] | None = None
    waits: tuple[Tile, ...] = field(default=(), compare=False)

    def to_json(self, *, with_seat: bool = True) -> dict[str, Any]:
        """``{"seat": 0, "act": "discard", "tile": "5s"}`` (no ``tile`` key for tile-less acts; a
        ``reveal`` key in notation only for a 亮倒 naming its shown tiles)."""
        out: dict[str, Any] = {"seat": self.seat} if with_seat else {}
        out["act"] = self.kind.value
        if self.tile is not None:
            out["tile"] = str(self.tile)
        if self.reveal is not None:
            out["reveal"] = format_tiles(self.reveal)
        return out

    def __str__(self) -> str:
        text = f"seat {self.seat} {self.kind.value}" + (f" {self.tile}" if self.tile is not None else "")
        return text + (f" showing {format_tiles(self.reveal)}" if self.reveal is not None else "")


_CACHE: dict[tuple[int, ActionKind, Tile | None, tuple[Tile, ...] | None, tuple[Tile, ...]], Action] = {}


def action(
    seat: int,
    kind: ActionKind,
    tile: Tile | None = None,
    reveal: tuple[Tile, ...] | None = None,
    waits: tuple[Tile, ...] = (),
) -> Action:
    """The shared :class:`Action` value (actions are immutable, so the state machine reuses them)."""
    key = (seat, kind, tile, reveal, waits)
    a = _CACHE.get(key)
    if a is None:
        if len(_CACHE) > 1 << 16:
            _CACHE.clear()
        a = _CACHE[key] = Action(seat, kind, tile, reveal, waits)
    return a


def seat_list(players: int) -> str:
    """The seat numbers of a table of ``players`` in words: ``"0, 1 or 2"`` (for messages)."""
    seats = [str(s) for s in range(players)]
    return f"{', '.join(seats[:-1])} or {seats[-1]}"


def action_from_json(value: object, players: int = STANDARD_PLAYERS) -> Action:
    """Parse the ``play`` action form at a table of ``players`` seats; raises ``ValueError`` (a
    :class:`NotationError` for bad tiles) saying what is wrong.  Checks shape only (the seat is one of
    the table's) — whether the action is legal is :func:`decide`'s job."""
    if not isinstance(value, dict):
        raise ValueError(
            f"an action must be an object like {{'seat': 0, 'act': 'discard', 'tile': '5s'}}, got {value!r}"
        )
    unknown = set(value) - {"seat", "act", "tile", "reveal"}
    if unknown:
        raise ValueError(f"unknown action key(s) {sorted(unknown)}; an action has seat, act, tile (and reveal)")
    seat = value.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
        raise ValueError(f"action seat must be {seat_list(players)}, got {seat!r}")
    act = value.get("act")
    try:
        kind = ActionKind(str(act))
    except ValueError:
        raise ValueError(f"unknown act {act!r}; use one of {', '.join(k.value for k in ActionKind)}") from None
    raw_tile = value.get("tile")
    if kind.takes_tile:
        if not isinstance(raw_tile, str):
            raise ValueError(f'act {kind.value!r} needs a tile, e.g. "tile": "5s"')
        tile = parse_tile(raw_tile)
        raw_reveal = value.get("reveal")
        if raw_reveal is None:
            return Action(seat, kind, tile)
        if kind is not ActionKind.LIANGDAO or not isinstance(raw_reveal, str):
            raise ValueError('only a liangdao names a reveal, as tiles in notation, e.g. "reveal": "46s"')
        return Action(seat, kind, tile, tuple(sorted(parse_tiles(raw_reveal))))
    if value.get("reveal") is not None:
        raise ValueError(f"act {kind.value!r} takes no reveal (only liangdao does)")
    if raw_tile is not None:
        raise NotationError(f"act {kind.value!r} takes no tile (it acts on the tile on the table), got {raw_tile!r}")
    return Action(seat, kind)


class Reason(enum.Enum):
    """Machine codes of :class:`IllegalAction` (values are the ``play`` command's ``reason``)."""

    HAND_OVER = "hand_over"  # the hand has ended
    BAD_SEAT = "bad_seat"  # no such seat
    NOT_YOUR_TURN = "not_your_turn"  # another seat is to act
    CLAIM_PENDING = "claim_pending"  # a claim window is open: answer win/kong/pong/pass
    NO_CLAIM_PENDING = "no_claim_pending"  # pong/kong/pass without a discard to claim
    ALREADY_ANSWERED = "already_answered"  # this seat already answered the claim window
    NOTHING_TO_CLAIM = "nothing_to_claim"  # this seat has no claim on the tile on the table
    MISSING_TILE = "missing_tile"  # a tile act without a tile
    UNEXPECTED_TILE = "unexpected_tile"  # win/pong/kong/pass with a tile
    TILE_NOT_IN_HAND = "tile_not_in_hand"
    NOT_COMPLETE = "not_complete"  # win: the hand is not a winning hand (A7)
    NO_DRAWN_TILE = "no_drawn_tile"  # 自摸 without a drawn tile (e.g. right after 碰)
    PIHU_CANNOT_WIN_ON_DISCARD = "pihu_cannot_win_on_discard"  # A8.2: M < 2 on a discard / robbed kong
    QIHU_2FAN = "qihu_2fan"  # option qihu_2fan: self-draw needs M >= 2 too (A8.1)
    LOUHU = "louhu"  # A8.3: a win was passed since the last own draw / 碰 / 直杠
    CANNOT_PONG = "cannot_pong"  # fewer than 2 copies in hand
    CANNOT_KONG = "cannot_kong"  # not the copies a kong needs
    GUOSHOU_PENG = "guoshou_peng"  # option guoshou_peng: this tile's 碰 was declined (A5.5)
    LAST_DISCARD_WIN_ONLY = "last_discard_win_only"  # A5.4: the last discard can only be won
    KONG_ON_LAST_TILE = "kong_on_last_tile"  # A6.5: no kong when the wall is empty
    KONG_NOT_ALLOWED_AFTER_PONG = "kong_not_allowed_after_pong"  # A6.3
    BUGANG_NOT_IMMEDIATE = "bugang_not_immediate"  # A6.2, E#42: 补杠 only with a tile drawn this turn
    LIANGDAO_CANNOT_PONG = "liangdao_cannot_pong"  # A5.3
    LIANGDAO_MUST_DISCARD_DRAWN = "liangdao_must_discard_drawn"  # A4.3, A9.3
    LIANGDAO_KONG_FORBIDDEN = "liangdao_kong_forbidden"  # option liangdao_kong = none / anpu_and_bugang_only
    LIANGDAO_KONG_CHANGES_WAITS = "liangdao_kong_changes_waits"  # A9.5
    ALREADY_LIANGDAO = "already_liangdao"  # 亮倒 is declared once
    NOT_READY_FOR_LIANGDAO = "not_ready_for_liangdao"  # A9.1: the hand after the discard is not 听
    LIANGDAO_WALL_TOO_SHORT = "liangdao_wall_too_short"  # option liangdao_min_wall
    PROTECTED_TILE = "protected_tile"  # option liangdao_protect (A9.8)
    KONG_MANDATORY = "kong_mandatory"  # 卡心五 有杠必杠 (docs/rules.md §B): the kong must be taken
    WIN_MANDATORY = "win_mandatory"  # 卡心五 有胡必胡 (docs/rules.md §B, §E#26): a 自摸 must be declared
    BAD_REVEAL = "bad_reveal"  # A9.2, E#48: the tiles named to show are not a legal reveal


class IllegalAction(Exception):
    """An action that is well formed but not allowed now.  ``reason`` is a :class:`Reason`; the message
    says why in words.  Raised by :func:`engine.game.decide`; the state is left unchanged."""

    def __init__(self, reason: Reason, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message
