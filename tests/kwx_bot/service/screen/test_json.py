"""A press as JSON and back (kwx_bot/service/screen/json.py): what a web client sends is read
exactly as the chat's callback data is."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kwx_bot.service.buttons import MASK_OPS, MAX_MASK, TILE_OPS, Button, CodecError, ConfigButton, Op, VoidButton
from kwx_bot.service.game import parse_tiles
from kwx_bot.service.screen.json import press_from_json, press_json

TILES = parse_tiles("123456789p123456789s567z")


@st.composite
def buttons(draw: st.DrawFn) -> Button:
    op = draw(st.sampled_from(list(Op)))
    tile = draw(st.sampled_from(TILES)) if op in TILE_OPS else None
    shown = None
    if op is Op.REVEAL or (op in MASK_OPS and draw(st.booleans())):
        shown = draw(st.integers(0, MAX_MASK))
    return Button(draw(st.integers(0, 10**9)), draw(st.integers(0, 10**6)), op, tile, shown)


PRESSES = st.one_of(
    buttons(),
    st.builds(ConfigButton, st.integers(-(10**13), 10**13), st.text(max_size=8), st.none() | st.integers(0, 9)),
    st.builds(VoidButton, st.integers(-(10**13), 10**13), st.integers(0, 10**6), st.booleans()),
)


@given(PRESSES)
def test_a_press_reads_back_from_its_json(press: Button | ConfigButton | VoidButton) -> None:
    assert press_from_json(json.loads(json.dumps(press_json(press)))) == press


@pytest.mark.parametrize(
    "data",
    [
        None, [], "d5s", {}, {"type": "table"},
        {"type": "table", "table": 1, "seq": 2, "op": "?"},
        {"type": "table", "table": 1, "seq": 2, "op": "d"},  # a discard needs its tile
        {"type": "table", "table": 1, "seq": 2, "op": "w", "tile": "5s"},  # a win takes none
        {"type": "table", "table": 1, "seq": 2, "op": "d", "tile": "0s"},
        {"type": "table", "table": 1, "seq": 2, "op": "d", "tile": 5},
        {"type": "table", "table": "1", "seq": 2, "op": "w"},
        {"type": "table", "table": 1, "seq": True, "op": "w"},
        {"type": "table", "table": 1, "seq": -1, "op": "w"},
        {"type": "table", "table": 1, "seq": 2, "op": "w", "extra": 1},
        {"type": "table", "table": 1, "seq": 2, "op": "r", "tile": "5s"},  # a reveal needs its mask
        {"type": "table", "table": 1, "seq": 2, "op": "d", "tile": "5s", "shown": 3},
        {"type": "void", "group_id": 1, "hand_id": 2, "confirm": "yes"},
        {"type": "config", "group_id": 1, "item": 3},
        {"type": "admin"},
    ],
)  # fmt: skip
def test_anything_else_is_refused_as_not_ours(data: object) -> None:
    with pytest.raises(CodecError):
        press_from_json(data)


def test_plain_turns_values_into_json_types_by_kind_not_by_base_type() -> None:
    """``plain`` (every screen sent to the page): a dataclass becomes its fields in order, a tile
    its notation and an enum its value — though both are ints or strings underneath — tuples and
    lists lists, a dict's keys strings; plain numbers, strings, booleans and None stay."""
    import dataclasses
    import enum

    from kwx_bot.service.game import Tile
    from kwx_bot.service.screen.json import plain

    class Colour(enum.Enum):
        RED = "red"

    class Rank(enum.IntEnum):
        HIGH = 3

    @dataclasses.dataclass(frozen=True)
    class Inner:
        tile: Tile
        rank: Rank

    @dataclasses.dataclass(frozen=True)
    class Outer:
        inner: Inner
        seq: tuple[Any, ...]
        by: dict[int, Colour]
        flag: bool
        ratio: float
        none: None

    value = Outer(Inner(Tile(0), Rank.HIGH), (1, "x", [Tile(9)]), {2: Colour.RED}, True, 0.5, None)
    assert plain(value) == {
        "inner": {"tile": str(Tile(0)), "rank": 3}, "seq": [1, "x", [str(Tile(9))]], "by": {"2": "red"},
        "flag": True, "ratio": 0.5, "none": None,
    }  # fmt: skip
    assert type(plain(value)["inner"]["rank"]) is int and plain(Outer) is Outer  # a class stays as it is
    json.dumps(plain(value))
