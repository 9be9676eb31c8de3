"""Screen values as plain JSON: what a web client receives (docs/architecture.md §4 "The screen model").

Tiles are written in the engine's notation (``5s``, ``7z``, docs/rules.md §0.3), every closed set of
names (phases, meld kinds, 番, outcomes) as its value, engine views field by field; texts are already
in the viewer's language (Telegram HTML: names escaped).  A button is ``{"label", "data"}``: ``data``
is what pressing it means (:func:`press_json`) — the same table, seq and action a chat button
carries, so a press from the web is judged exactly as one from the chat — or ``{"label", "url"}``
(``{"label", "web_app"}``); a button that stands for a tile of the hand adds that ``tile`` (and a
reveal toggle ``on``: the tile is shown), so a page can put it on the tile it draws.
:func:`press_from_json` reads a ``data`` object back into the press (the inverse: a web client
sends the object it was given).
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Any

from ..buttons import Button, CodecError, ConfigButton, Key, Keyboard, Op, Press, VoidButton
from ..game import NotationError, Tile, parse_tile

__all__ = ["keyboard_json", "plain", "press_from_json", "press_json"]


_SCALARS = frozenset({str, int, float, bool, type(None)})
"""Types that are JSON as they are (exactly these: an enum or a tile is a subclass of one)."""


_FIELD_NAMES: dict[type, tuple[str, ...] | None] = {}


def _field_names(kind: type) -> tuple[str, ...] | None:
    """The fields of dataclass ``kind`` in order, None for a class that is none (once per class)."""
    if kind not in _FIELD_NAMES:
        _FIELD_NAMES[kind] = tuple(f.name for f in dataclasses.fields(kind)) if dataclasses.is_dataclass(kind) else None
    return _FIELD_NAMES[kind]


def plain(value: Any) -> Any:
    """``value`` (engine views and values: frozen dataclasses, tuples, enums, tiles, dicts) as JSON
    types: a dataclass becomes an object of its fields, a tile its notation, an enum its value, a
    dict's keys strings.  (Every screen sent to the Mini App's pages goes through here: the plain
    numbers, strings and tuples that most of it is are told by their exact type first.)"""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is tuple or kind is list:
        return [plain(v) for v in value]
    if isinstance(value, Tile):
        return str(value)
    if isinstance(value, enum.Enum):
        return value.value
    names = _field_names(kind)
    if names is not None:
        return {name: plain(getattr(value, name)) for name in names}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    return value


def press_json(press: Press) -> dict[str, Any]:
    """What pressing a button means, as JSON: a table button's ``table``, ``seq``, ``op`` (the
    :class:`~kwx_bot.service.buttons.Op` letter) and, when it has them, ``tile`` and ``shown`` (the
    reveal mask); a settings or ``/void`` button likewise by its fields, with its ``type``."""
    if isinstance(press, Button):
        out: dict[str, Any] = {"type": "table", "table": press.table_id, "seq": press.seq, "op": press.op.value}
        if press.tile is not None:
            out["tile"] = str(press.tile)
        if press.shown is not None:
            out["shown"] = press.shown
        return out
    kind = "config" if isinstance(press, ConfigButton) else "void"
    assert isinstance(press, (ConfigButton, VoidButton))
    fields: dict[str, Any] = plain(press)
    return {"type": kind, **fields}


_FIELDS = {
    "table": {"type", "table", "seq", "op", "tile", "shown"},
    "config": {"type", "group_id", "item", "choice"},
    "void": {"type", "group_id", "hand_id", "confirm"},
}


def _int(data: dict[str, Any], key: str, *, optional: bool = False) -> int | None:
    value = data.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise CodecError(f"{key} must be an integer")
    return value


def press_from_json(data: Any) -> Press:
    """The press a :func:`press_json` object means (``press_from_json(press_json(p)) == p``).
    :class:`~kwx_bot.service.buttons.CodecError` for anything else: not an object, an unknown
    ``type`` or ``op``, a missing, extra or mistyped field, a bad tile, or what a
    :class:`~kwx_bot.service.buttons.Button` refuses (a tile on an op that takes none …)."""
    if not isinstance(data, dict):
        raise CodecError("a press is a JSON object")
    kind = data.get("type")
    if kind not in _FIELDS or not set(data) <= _FIELDS[kind]:
        raise CodecError("unknown press type or field")
    if kind == "config":
        item, choice = data.get("item"), _int(data, "choice", optional=True)
        if not isinstance(item, str):
            raise CodecError("item must be a string")
        return ConfigButton(_int(data, "group_id") or 0, item, choice)
    if kind == "void":
        confirm = data.get("confirm")
        if not isinstance(confirm, bool):
            raise CodecError("confirm must be true or false")
        return VoidButton(_int(data, "group_id") or 0, _int(data, "hand_id") or 0, confirm)
    try:
        op = Op(str(data.get("op")))
    except ValueError:
        raise CodecError("unknown op") from None
    tile_text = data.get("tile")
    tile = None
    if tile_text is not None:
        if not isinstance(tile_text, str):
            raise CodecError("tile must be a string")
        try:
            tile = parse_tile(tile_text)
        except NotationError:
            raise CodecError(f"bad tile {tile_text!r}") from None
    table, seq = _int(data, "table") or 0, _int(data, "seq") or 0
    return Button(table, seq, op, tile, _int(data, "shown", optional=True))


def _key_json(key: Key) -> dict[str, Any]:
    out: dict[str, Any] = {"label": key.text}
    if key.press is not None:
        out["data"] = press_json(key.press)
    elif key.web_app is not None:
        out["web_app"] = key.web_app
    else:
        out["url"] = key.url
    if key.face is not None:
        out["tile"] = str(key.face)
    if key.on is not None:
        out["on"] = key.on
    return out


def keyboard_json(keyboard: Keyboard) -> list[list[dict[str, Any]]]:
    """Buttons row by row as JSON."""
    return [[_key_json(key) for key in row] for row in keyboard]
