"""Compact ASCII ``callback_data`` and deep-link payloads (DESIGN.md §4 "Buttons carry versions").

callback_data = ``<table>:<seq>:<op>[<tile>]``

* ``<table>``: table id in base 36 (lower case); ``<seq>``: the table's event seq when the button was
  made, base 36 — a press whose seq is not the table's current seq is stale;
* ``<op>``: one letter (:class:`Op`); tile ops append the tile notation (``5s``, ``7z``).

Example: ``1f:2k:d5s`` = table 51, seq 92, discard 5条 (9 bytes; the longest possible is well under
Telegram's 64-byte limit).  Nothing user-controlled or non-ASCII ever enters callback data.

Settings-menu buttons (:class:`ConfigButton`) = ``G:<group36>:<item>[:<choice>]`` — ``G`` is not a
base-36 digit, so they never look like table buttons; ``<item>`` is one lower-case letter, ``<choice>``
an index of the item's choices (0-9).  A choice sets an absolute value, so a stale menu is harmless.

``/void`` confirmation buttons (:class:`VoidButton`) = ``V:<group36>:<hand36>:<y|n>`` (``y`` = void the
hand, ``n`` = cancel); voiding is idempotent (a voided hand is never voided twice), so a stale or
repeated press is harmless.

Deep-link payloads (``t.me/<bot>?start=<payload>``, ``A-Za-z0-9_-``, <= 64 chars):
``j<table36>_<token>`` = join that table, where ``<token>`` is the table's random join secret (24
lower-case hex digits, ``TableRow.join_token``) — a link cannot be guessed or derived from the table
id; ``h<table36>`` = send me my hand (at the user's own seat: the id picks nothing the user does not
already have).  An old-style ``j<table36>`` decodes with ``token=None`` and is refused by the lobby.

:func:`decode` raises :class:`CodecError` for anything that is not exactly this grammar (forged or
garbage data), so handlers answer politely and change nothing.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from engine.tiles import NotationError, Tile, parse_tile

__all__ = [
    "Button",
    "CodecError",
    "Op",
    "StartPayload",
    "b36",
    "decode",
    "decode_start",
    "encode",
    "encode_start",
    "from_b36",
]

MAX_CALLBACK_BYTES = 64
_B36 = "0123456789abcdefghijklmnopqrstuvwxyz"
_DATA_RE = re.compile(r"^([0-9a-z]{1,10}):([0-9a-z]{1,10}):([A-Za-z])([1-9][psmz])?$")
_START_RE = re.compile(r"^([jh])([0-9a-z]{1,10})(?:_([0-9a-f]{24}))?$")
_CONFIG_RE = re.compile(r"^G:([0-9a-z]{1,10}):([a-z])(?::([0-9]))?$")
_VOID_RE = re.compile(r"^V:([0-9a-z]{1,10}):([0-9a-z]{1,10}):([yn])$")


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
    TAKE_BACK = "T"  # end 托管, play the seat again


TILE_OPS = frozenset({Op.DISCARD, Op.LIANGDAO, Op.CONCEALED_KONG, Op.ADDED_KONG, Op.LIANGDAO_PICK})


@dataclass(frozen=True, slots=True)
class Button:
    """The meaning of one inline button: ``op`` on ``table_id`` valid at ``seq`` (``tile`` for tile ops)."""

    table_id: int
    seq: int
    op: Op
    tile: Tile | None = None

    def __post_init__(self) -> None:
        if (self.tile is not None) != (self.op in TILE_OPS):
            raise CodecError(f"op {self.op.name} {'needs' if self.op in TILE_OPS else 'takes no'} tile")
        if self.table_id < 0 or self.seq < 0:
            raise CodecError("table id and seq must be non-negative")


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


def encode(button: Button) -> str:
    """Button -> callback_data (ASCII, <= 64 bytes)."""
    data = (
        f"{b36(button.table_id)}:{b36(button.seq)}:{button.op.value}{'' if button.tile is None else str(button.tile)}"
    )
    if len(data) > MAX_CALLBACK_BYTES:  # unreachable for ids below 36**10
        raise CodecError("callback data too long")
    return data


def decode(data: str | None) -> Button:
    """callback_data -> Button; :class:`CodecError` if it is not something :func:`encode` makes."""
    if not data or len(data) > MAX_CALLBACK_BYTES:
        raise CodecError("empty or oversized callback data")
    m = _DATA_RE.fullmatch(data)
    if m is None:
        raise CodecError("malformed callback data")
    table, seq, op_char, tile_text = m.groups()
    try:
        op = Op(op_char)
    except ValueError:
        raise CodecError(f"unknown op {op_char!r}") from None
    tile = None
    if tile_text is not None:
        try:
            tile = parse_tile(tile_text)
        except NotationError:
            raise CodecError(f"bad tile {tile_text!r}") from None
    return Button(from_b36(table), from_b36(seq), op, tile)


@dataclass(frozen=True, slots=True)
class ConfigButton:
    """A settings-menu button of group ``group_id``: open ``item`` (``choice`` None) or set it to its
    ``choice``-th value."""

    group_id: int
    item: str
    choice: int | None = None


def encode_config(button: ConfigButton) -> str:
    """ConfigButton -> callback_data."""
    tail = "" if button.choice is None else f":{button.choice}"
    return f"G:{b36(button.group_id)}:{button.item}{tail}"


def decode_config(data: str | None) -> ConfigButton:
    """callback_data -> ConfigButton; :class:`CodecError` if it is not one."""
    m = _CONFIG_RE.fullmatch(data or "")
    if m is None:
        raise CodecError("not a settings button")
    group, item, choice = m.groups()
    return ConfigButton(from_b36(group), item, None if choice is None else int(choice))


def is_config(data: str | None) -> bool:
    """The callback data belongs to a settings menu (``G:`` prefix)."""
    return bool(data) and str(data).startswith("G:")


@dataclass(frozen=True, slots=True)
class VoidButton:
    """A ``/void`` confirmation button: void hand ``hand_id`` of group ``group_id`` (``confirm``) or cancel."""

    group_id: int
    hand_id: int
    confirm: bool


def encode_void(button: VoidButton) -> str:
    """VoidButton -> callback_data (at most 26 bytes)."""
    return f"V:{b36(button.group_id)}:{b36(button.hand_id)}:{'y' if button.confirm else 'n'}"


def decode_void(data: str | None) -> VoidButton:
    """callback_data -> VoidButton; :class:`CodecError` if it is not one."""
    m = _VOID_RE.fullmatch(data or "")
    if m is None:
        raise CodecError("not a void button")
    group, hand, choice = m.groups()
    return VoidButton(from_b36(group), from_b36(hand), choice == "y")


def is_void(data: str | None) -> bool:
    """The callback data belongs to a ``/void`` confirmation (``V:`` prefix)."""
    return bool(data) and str(data).startswith("V:")


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


__all__ += ["TILE_OPS", "ConfigButton", "StartKind", "decode_config", "encode_config", "is_config"]
__all__ += ["VoidButton", "decode_void", "encode_void", "is_void"]
