"""Tile notation (docs/architecture.md §2, docs/rules.md §0.3): parsing, formatting, melds and errors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.tiles import (
    STANDARD_KINDS,
    Meld,
    MeldKind,
    NotationError,
    Suit,
    Tile,
    format_tiles,
    parse_meld,
    parse_tile,
    parse_tiles,
)


def test_parse_shares_suit_letters() -> None:
    assert [str(t) for t in parse_tiles("123p46s88s")] == ["1p", "2p", "3p", "4s", "6s", "8s", "8s"]
    assert parse_tiles("5z 6z 7z") == [Tile.WHITE, Tile.GREEN, Tile.RED]
    assert parse_tiles("") == []


def test_tile_properties() -> None:
    five = parse_tile("5s")
    assert five.suit is Suit.BAMBOO and five.number == 5 and five.chinese == "5条"
    assert Tile.RED.chinese == "中" and Tile.RED.is_dragon and str(Tile.RED) == "7z"
    assert parse_tile("9m").chinese == "9万" and parse_tile("1p").chinese == "1筒"
    assert len(STANDARD_KINDS) == 21


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("123x", "unknown suit letter 'x'"),
        ("123", "no suit letter"),
        ("11111p", "5 copies of 1p"),
        ("0p", "no tile 0"),
        ("1z", "no winds"),
        ("p", "unexpected"),
    ],
)
def test_malformed_notation_says_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        parse_tiles(text)


def test_parse_tile_needs_exactly_one() -> None:
    with pytest.raises(NotationError, match="expected one tile"):
        parse_tile("12p")


def test_melds() -> None:
    assert parse_meld("pong 111p") == Meld(MeldKind.PONG, Tile.P1)
    assert parse_meld("[暗杠 2222s]") == Meld(MeldKind.CONCEALED_KONG, Tile.S2)
    assert str(parse_meld("added_kong 7777s")) == "added_kong 7777s"
    assert parse_meld("kong 8888p").tiles == (Tile.P8,) * 4


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("pong 123p", "no runs"),
        ("kong 888p", "4 copies"),
        ("chow 123p", "unknown meld kind"),
        ("pong", "kind and tiles"),
    ],
)
def test_bad_melds(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        parse_meld(text)


@given(st.lists(st.sampled_from(list(Tile)), max_size=20))
def test_format_parse_round_trip(tiles: list[Tile]) -> None:
    capped = [t for i, t in enumerate(tiles) if tiles[: i + 1].count(t) <= 4]
    assert parse_tiles(format_tiles(capped)) == sorted(capped)
    assert parse_tiles(format_tiles(capped, sort=False)) == capped


def test_every_tile_is_true_1_dot_included() -> None:
    """1 Dot is index 0; ``if tile`` or ``tile or …`` must not read it as "no tile"."""
    assert all(bool(t) for t in Tile) and (Tile.P1 or None) is Tile.P1
    assert int(Tile.P1) == 0 and [0, 5][Tile.P1] == 0  # still an index
