"""Readings that tie on their pattern product: the one with the higher cap pays (docs/rules.md §E#1, §E#46)."""

from __future__ import annotations

from engine.rules import RuleSet
from engine.scoring import WinBy, WinContext, score_win
from engine.tiles import Tile, parse_tiles


def _self_draw(concealed: str, tile: Tile) -> WinContext:
    return WinContext(
        concealed=tuple(parse_tiles(concealed)),
        melds=(),
        win_tile=tile,
        win_by=WinBy.SELF_DRAW,
        winner=0,
        discarder=None,
        liangdao=(False, False, False),
        after_kong=False,
        last_tile=False,
    )


def test_tie_goes_to_the_shuanglong_reading_and_its_cap_16() -> None:
    # With 卡五星 worth 4, a standard reading of these tiles reaches the same product (64) as the
    # 双龙七对 x 清一色 reading; only the 双龙 reading caps at 16 instead of 8.
    rules = RuleSet.from_json({"preset": "standard", "values": {"kawuxing": 4}})
    score = score_win(_self_draw("33s4444s555s66s77s", Tile.S5), rules)
    assert score.fans == ("双龙七对", "清一色")
    assert score.multiplier == {1: 64, 2: 64}
    assert score.cap == 16 and score.deltas == (32, -16, -16)


def test_without_a_tie_the_larger_product_still_wins() -> None:
    score = score_win(_self_draw("33s4444s555s66s77s", Tile.S5), RuleSet.preset("standard"))
    assert score.multiplier == {1: 64, 2: 64}  # 双龙七对 x 清一色 beats 清一色 x 卡五星 (x2) outright
    assert score.fans == ("双龙七对", "清一色")
