"""The reveal choice as a bit mask: canonical masks and toggles (kwx_bot.service.reveal)."""

from __future__ import annotations

import pytest

from engine.tiles import Tile, parse_tiles
from kwx_bot.service.reveal import all_shown, canonical, shown_tiles, toggled

KEPT = tuple(parse_tiles("123p456p789p22s68s"))


def test_masks_round_trip_and_are_canonical() -> None:
    assert all_shown(KEPT) == (1 << 13) - 1 and shown_tiles(KEPT, all_shown(KEPT)) == KEPT
    assert shown_tiles(KEPT, canonical(KEPT, parse_tiles("68s"))) == (Tile.S6, Tile.S8)
    # the second 2s alone and the first 2s alone are the same choice: one mask
    assert canonical(KEPT, [Tile.S2]) == 1 << 9
    with pytest.raises(ValueError):
        shown_tiles(KEPT, 1 << 13)


def test_toggle_moves_one_copy() -> None:
    none = 0
    one = toggled(KEPT, none, 10)  # the second 2s: one 2s becomes shown, at the first position
    assert one == 1 << 9 and shown_tiles(KEPT, one) == (Tile.S2,)
    two = toggled(KEPT, one, 10)
    assert shown_tiles(KEPT, two) == (Tile.S2, Tile.S2)
    assert toggled(KEPT, two, 9) == one  # a shown copy hides one 2s
    assert toggled(KEPT, toggled(KEPT, all_shown(KEPT), 0), 0) == all_shown(KEPT)
