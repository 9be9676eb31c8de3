"""Compact ASCII ``callback_data`` for the service's presses, and the patterns that route them.

callback_data of a table :class:`~kwx_bot.service.buttons.Button` = ``<table>:<seq>:<op>[<tile>]``

* ``<table>``: table id in base 36 (lower case); ``<seq>``: the table's event seq when the button was
  made, base 36 — a press whose seq is not the table's current seq is stale;
* ``<op>``: one letter (:class:`~kwx_bot.service.buttons.Op`); tile ops append the tile notation
  (``5s``, ``7z``); a 亮倒 / 廊起 reveal choice appends ``.<mask36>``, the shown tiles as a bit mask in
  base 36 (``Button.shown``, at most 3 digits).

Example: ``1f:2k:d5s`` = table 51, seq 92, discard 5条 (9 bytes; the longest possible is well under
Telegram's 64-byte limit).  Nothing user-controlled or non-ASCII ever enters callback data.

Settings-menu buttons (``ConfigButton``) = ``G:<group36>:<item>[:<choice>]`` — ``G`` is not a
base-36 digit, so they never look like table buttons; ``<item>`` is one lower-case letter, ``<choice>``
an index of the item's choices (0-9).  A choice sets an absolute value, so a stale menu is harmless.

``/void`` confirmation buttons (``VoidButton``) = ``V:<group36>:<hand36>:<y|n>`` (``y`` = void the
hand, ``n`` = cancel); voiding is idempotent (a voided hand is never voided twice), so a stale or
repeated press is harmless.

The handlers route by prefix with PTB's own ``pattern=`` (:data:`CONFIG_PATTERN`,
:data:`VOID_PATTERN`; every other query is a table button), then decode; :func:`decode` and friends
raise :class:`~kwx_bot.service.buttons.CodecError` for anything that is not exactly this grammar
(forged or garbage data), so handlers answer politely and change nothing.
"""

from __future__ import annotations

import re

from ..service.buttons import (
    TILE_OPS,
    Button,
    CodecError,
    ConfigButton,
    Op,
    Press,
    StartKind,
    StartPayload,
    VoidButton,
    b36,
    decode_start,
    encode_start,
    from_b36,
)
from ..service.game import NotationError, parse_tile

__all__ = [
    "CONFIG_PATTERN",
    "MAX_CALLBACK_BYTES",
    "TILE_OPS",
    "VOID_PATTERN",
    "Button",
    "CodecError",
    "ConfigButton",
    "Op",
    "StartKind",
    "StartPayload",
    "VoidButton",
    "b36",
    "decode",
    "decode_config",
    "decode_start",
    "decode_void",
    "encode",
    "encode_config",
    "encode_press",
    "encode_start",
    "encode_void",
    "from_b36",
]

MAX_CALLBACK_BYTES = 64
_DATA_RE = re.compile(r"^([0-9a-z]{1,10}):([0-9a-z]{1,10}):([A-Za-z])([1-9][psmz])?(?:\.([0-9a-z]{1,3}))?$")
_CONFIG_RE = re.compile(r"^G:([0-9a-z]{1,10}):([a-z])(?::([0-9]))?$")
_VOID_RE = re.compile(r"^V:([0-9a-z]{1,10}):([0-9a-z]{1,10}):([yn])$")
CONFIG_PATTERN = re.compile(r"^G:")
"""Routes a query to the settings menu (then :func:`decode_config`)."""
VOID_PATTERN = re.compile(r"^V:")
"""Routes a query to the ``/void`` confirmation (then :func:`decode_void`)."""


def encode(button: Button) -> str:
    """Button -> callback_data (ASCII, <= 64 bytes)."""
    data = (
        f"{b36(button.table_id)}:{b36(button.seq)}:{button.op.value}{'' if button.tile is None else str(button.tile)}"
    ) + ("" if button.shown is None else f".{b36(button.shown)}")
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
    table, seq, op_char, tile_text, mask = m.groups()
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
    return Button(from_b36(table), from_b36(seq), op, tile, None if mask is None else from_b36(mask))


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


def encode_press(press: Press) -> str:
    """Any press -> its callback_data."""
    if isinstance(press, ConfigButton):
        return encode_config(press)
    if isinstance(press, VoidButton):
        return encode_void(press)
    return encode(press)
