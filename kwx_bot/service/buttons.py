"""What buttons and deep links mean, as plain values (the edge encodes them; docs/architecture.md).

A message's buttons are a :data:`Keyboard`: rows of :class:`Key`, each with a label and either a
:data:`Press` (what pressing it means: a table :class:`Button`, a settings-menu :class:`ConfigButton`
or a ``/void`` :class:`VoidButton`) or a URL.  The Telegram edge turns presses into ``callback_data``
and back (:mod:`kwx_bot.edge.codec`); the service only ever sees decoded values.

Deep-link payloads (``t.me/<bot>?start=<payload>``, ``A-Za-z0-9_-``, <= 64 chars), made by the
service for its URL keys: ``j<table36>_<token>`` = join that table, where ``<token>`` is the table's
random join secret (24 lower-case hex digits, ``TableRow.join_token``) — a link cannot be guessed or
derived from the table id; ``h<table36>`` = send me my hand (at the user's own seat: the id picks
nothing the user does not already have).  An old-style ``j<table36>`` decodes with ``token=None`` and
is refused by the lobby.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from .game import Tile

__all__ = [
    "MASK_OPS",
    "MAX_MASK",
    "TILE_OPS",
    "Button",
    "CodecError",
    "ConfigButton",
    "Key",
    "Keyboard",
    "Op",
    "Press",
    "StartKind",
    "StartPayload",
    "VoidButton",
    "b36",
    "decode_start",
    "encode_start",
    "from_b36",
    "keyboard",
]

_B36 = "0123456789abcdefghijklmnopqrstuvwxyz"
_START_RE = re.compile(r"^([jh])([0-9a-z]{1,10})(?:_([0-9a-f]{24}))?$")


class CodecError(ValueError):
    """callback_data or a start payload that is not one of ours."""


class Op(enum.StrEnum):
    """Button operations.  Lobby/table ops take no tile; game ops may (``TILE_OPS``)."""

    # lobby and between hands
    JOIN = "J"
    LEAVE = "Q"
    ADD_AI = "A"
    REMOVE_AI = "R"
    START = "S"
    NEXT_HAND = "N"
    CLOSE = "X"  # asks for confirmation
    CLOSE_CONFIRM = "Y"  # ends the table
    CLOSE_CANCEL = "Z"  # back to Next hand / End the table
    LANG_ZH = "C"  # lobby: the group's language becomes Chinese
    LANG_EN = "E"  # lobby: the group's language becomes English
    GAME_KAWUXING = "W"  # lobby: the table plays 卡五星
    GAME_KAXINWU = "H"  # lobby: the table plays 卡心五
    SEATS_2 = "D"  # lobby: a table of 2 seats
    SEATS_3 = "F"  # lobby: 3 seats
    SEATS_4 = "K"  # lobby: 4 seats
    # engine actions
    DISCARD = "d"  # + tile
    LIANGDAO = "l"  # + tile: declare 亮倒 with this discard (after confirmation)
    WIN = "w"  # 胡 / 自摸 / 抢杠胡
    PONG = "p"
    KONG = "k"  # 直杠 of the current discard
    CONCEALED_KONG = "c"  # + tile, 暗杠
    ADDED_KONG = "b"  # + tile, 补杠
    PASS = "x"
    # hand-message interface steps (no engine action)
    LIANGDAO_MENU = "L"  # show the discards that keep the hand ready
    LIANGDAO_PICK = "P"  # + tile: ask to confirm 亮倒 with this discard
    BACK = "B"  # leave the 亮倒 menu
    REVEAL = "r"  # + tile + shown mask: the 亮倒 / 廊起 with this discard, showing these tiles (a choice)
    PROTECTED = "o"  # + tile: a protected tile's disabled discard button (answers why, changes nothing)
    TAKE_BACK = "T"  # end 托管, play the seat again


TILE_OPS = frozenset(
    {Op.DISCARD, Op.LIANGDAO, Op.CONCEALED_KONG, Op.ADDED_KONG, Op.LIANGDAO_PICK, Op.REVEAL, Op.PROTECTED}
)
MASK_OPS = frozenset({Op.LIANGDAO, Op.REVEAL})
"""Ops that may carry a ``shown`` mask (:class:`Button`); :attr:`Op.REVEAL` must."""
MAX_MASK = (1 << 14) - 1
"""The largest ``shown`` mask: one bit per tile of a hand of at most 14 tiles."""


@dataclass(frozen=True, slots=True)
class Button:
    """The meaning of one inline button: ``op`` on ``table_id`` valid at ``seq`` (``tile`` for tile ops).

    ``shown`` (the 亮倒 / 廊起 reveal choice, docs/rules.md §A9.2, §E#48): a bit mask over the tiles
    the seat keeps after discarding ``tile``, in tile order (bit i = the i-th kept tile is shown); a
    press carries the whole choice, so a choice survives a restart and a repeated press changes
    nothing.  Required by :attr:`Op.REVEAL`, optional on :attr:`Op.LIANGDAO` (None = the whole hand).
    """

    table_id: int
    seq: int
    op: Op
    tile: Tile | None = None
    shown: int | None = None

    def __post_init__(self) -> None:
        if (self.tile is not None) != (self.op in TILE_OPS):
            raise CodecError(f"op {self.op.name} {'needs' if self.op in TILE_OPS else 'takes no'} tile")
        if self.table_id < 0 or self.seq < 0:
            raise CodecError("table id and seq must be non-negative")
        if self.shown is not None and (self.op not in MASK_OPS or not 0 <= self.shown <= MAX_MASK):
            raise CodecError(f"op {self.op.name} takes no shown mask {self.shown!r}")
        if self.op is Op.REVEAL and self.shown is None:
            raise CodecError("op REVEAL needs a shown mask")


def b36(n: int) -> str:
    """Non-negative int -> lower-case base 36."""
    if n < 0:
        raise ValueError("negative")
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = _B36[r] + out
        if n == 0:
            return out


def from_b36(text: str) -> int:
    """Lower-case base 36 -> int (ValueError on other characters)."""
    return int(text, 36)


@dataclass(frozen=True, slots=True)
class ConfigButton:
    """A settings-menu button of group ``group_id``: open ``item`` (``choice`` None) or set it to its
    ``choice``-th value."""

    group_id: int
    item: str
    choice: int | None = None


@dataclass(frozen=True, slots=True)
class VoidButton:
    """A ``/void`` confirmation button: void hand ``hand_id`` of group ``group_id`` (``confirm``) or cancel."""

    group_id: int
    hand_id: int
    confirm: bool


Press = Button | ConfigButton | VoidButton
"""What pressing an inline button means."""


@dataclass(frozen=True, slots=True)
class Key:
    """One inline button: its ``text`` and either a ``press`` (callback), a ``url`` to open, or a
    ``web_app`` (the URL of a Mini App page Telegram opens over the chat: private chats only,
    docs/architecture.md §4 "The Mini App").

    ``face``: the tile of the player's hand the button stands for (a discard, a 亮倒 pick, a
    protected tile, a reveal toggle), so a page that draws the hand puts the button on that tile;
    ``on``: a reveal toggle's state (the tile is shown).  The chat's buttons ignore both."""

    text: str
    press: Press | None = None
    url: str | None = None
    web_app: str | None = None
    face: Tile | None = None
    on: bool | None = None


Keyboard = tuple[tuple[Key, ...], ...]
"""Inline buttons, row by row (comparable: two keyboards are equal iff they show the same)."""


def keyboard(*rows: list[Key] | tuple[Key, ...]) -> Keyboard:
    """A :data:`Keyboard` from rows (lists or tuples of keys)."""
    return tuple(tuple(row) for row in rows)


class StartKind(enum.StrEnum):
    """What a ``/start <payload>`` asks for."""

    JOIN = "j"
    HAND = "h"


@dataclass(frozen=True, slots=True)
class StartPayload:
    """A decoded deep-link payload."""

    kind: StartKind
    table_id: int
    token: str | None = None
    """The join secret of a ``j`` payload (None if the payload carries none)."""


def encode_start(kind: StartKind, table_id: int, token: str | None = None) -> str:
    """Deep-link payload for ``t.me/<bot>?start=...``; ``token``: the table's join secret (``j``)."""
    return f"{kind.value}{b36(table_id)}" + (f"_{token}" if token else "")


def decode_start(payload: str | None) -> StartPayload:
    """Payload -> StartPayload; :class:`CodecError` if it is not one of ours."""
    m = _START_RE.fullmatch(payload or "")
    if m is None:
        raise CodecError("unknown start payload")
    return StartPayload(StartKind(m.group(1)), from_b36(m.group(2)), m.group(3))
