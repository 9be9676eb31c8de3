"""Scoring units: readings, each 番 and its exclusions, every §C option that touches scoring, errors.

docs/rules.md §A8–§A12, §A10 table, §C, §E.  The D-series vectors are in test_vectors_d.py.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine.readings import is_complete, readings, splits, waits
from engine.rules import RuleSet
from engine.scoring import IllegalReason, ScoringError, WinBy, WinContext, WinScore, score_win
from engine.tiles import Meld, MeldKind, Tile, counts_of, parse_meld, parse_tile, parse_tiles


def ctx(
    concealed: str,
    win: str,
    how: str = "self_draw",
    *,
    melds: tuple[str, ...] = (),
    discarder: int | None = None,
    liangdao: tuple[int, ...] = (),
    winner: int = 0,
    **kw: Any,
) -> WinContext:
    by = WinBy(how)
    if by is not WinBy.SELF_DRAW and discarder is None:
        discarder = 1
    return WinContext(
        concealed=tuple(parse_tiles(concealed)),
        melds=tuple(parse_meld(m) for m in melds),
        win_tile=parse_tile(win),
        win_by=by,
        winner=winner,
        discarder=discarder,
        liangdao=tuple(s in liangdao for s in range(3)),
        **kw,
    )


def score(c: WinContext, **options: Any) -> WinScore:
    return score_win(c, RuleSet.from_json(options))


def fans(s: WinScore) -> Counter[str]:
    return Counter(s.fans)


# ---------------------------------------------------------------------------------------------- readings


def counts(text: str) -> list[int]:
    return counts_of(parse_tiles(text))


def test_readings_enumerate_every_decomposition() -> None:
    rs = readings(counts("111222333p456s99s"))
    shown = sorted(str(r) for r in rs)
    assert shown == ["111p 222p 333p 456s 99s", "123p 123p 123p 456s 99s"]
    # D35: two standard readings are impossible, one standard + the 七对 reading
    rs = readings(counts("11s22s33s44s55s66s77s"))
    assert [r.qidui for r in rs].count(True) == 1
    assert "11s 22s 33s 44s 55s 66s 77s" in [str(r) for r in rs]
    assert any(not r.qidui for r in rs)


def test_qidui_reading_needs_no_melds_and_counts_quads_as_two_pairs() -> None:
    rs = readings(counts("1111p2222s33s44s5z5z"))
    assert [r.longs for r in rs if r.qidui] == [2]
    meld = Meld(MeldKind.PONG, Tile.S9)
    assert readings(counts("22p44p66p88p11s"), (meld,)) == []  # D61


def test_dragons_never_form_runs() -> None:
    assert not is_complete(counts("567z123p456p789p11s"))
    assert readings(counts("567z123p456p789p11s")) == []


def test_waits_exclude_tiles_held_four_times() -> None:
    assert waits(counts("123p789p234s46s88s")) == (Tile.S5,)
    assert waits(counts("123p789p2245667s")) == (Tile.S5, Tile.S8)  # D13/D14
    assert waits(counts("123p456p234s78s99p")) == (Tile.S6, Tile.S9)  # D01
    # 1111p held: 1p cannot be a wait even though 11112p... shapes would take it
    assert Tile.P1 not in waits(counts("1111p23p456p789s9s"))
    meld = Meld(MeldKind.PONG, Tile.S9)
    assert Tile.S9 not in waits(counts("123p456p789p9s"), (meld,))


# ---------------------------------------------------------------------------------------------- 番 units


def test_pengpeng_with_concealed_pungs() -> None:
    s = score(ctx("111p333p555s777s5z", "5z"))
    assert fans(s) == Counter({"碰碰胡": 1}) and s.patterns == 2


def test_shouzhuayi_replaces_pengpeng_unless_stacked() -> None:
    melds = ("pong 111p", "pong 999s", "kong 5555p", "pong 7z7z7z")
    c = ctx("3s", "3s", melds=melds)
    assert fans(score(c)) == Counter({"手抓一": 1})
    assert fans(score(c, szy_with_pph=True)) == Counter({"手抓一": 1, "碰碰胡": 1})
    assert score(c, szy_value=8).multiplier == {1: 8, 2: 8}


def test_ansigui_options() -> None:
    # E#10: 345s + 567s + 55s holds four 5s without a pung: counts by default
    c = ctx("123p789p3455567s", "5s", "discard")
    s = score(c)
    assert fans(s) == Counter({"暗四归一": 1}) and s.multiplier == {1: 4}
    s = score(c, ansigui_requires_pung=True)
    assert not s.legal and s.fans == ("屁胡",) and s.illegal is IllegalReason.BELOW_TWO
    # read as a pung + run: still counts with the option (D27)
    assert score(ctx("123p456p777s89s99p", "7s", "discard"), ansigui_requires_pung=True).multiplier == {1: 4}


def test_sigui_in_qingyise_uses_quan_logic() -> None:
    # held concealed quad 1111p in a 清一色 hand: 暗四归一 (F2′), not only for the winning tile
    s = score(ctx("1111p23p456p789p9p", "9p"))
    assert fans(s) == Counter({"清一色": 1, "暗四归一": 1}) and s.patterns == 16
    # 碰 111p + the 4th 1p in the concealed hand: 明四归一 in 清一色
    s = score(ctx("123p456p789p9p", "9p", melds=("pong 111p",)))
    assert fans(s) == Counter({"清一色": 1, "明四归一": 1}) and s.patterns == 8
    # the same shapes outside 清一色: nothing unless sigui_scope = quan
    c = ctx("1111p23p456s789s9s", "9s")
    assert score(c).fans == ("屁胡",)
    assert fans(score(c, sigui_scope="quan")) == Counter({"暗四归一": 1})
    c = ctx("123s456s789p9p", "9p", melds=("pong 111s",))
    assert score(c).fans == ("屁胡",)
    assert fans(score(c, sigui_scope="quan")) == Counter({"明四归一": 1})


def test_sigui_multi_counts_every_gui() -> None:
    c = ctx("1111p23p2222s34s9s", "9s")
    assert score(c, sigui_scope="quan").patterns == 4
    s = score(c, sigui_scope="quan", sigui_multi=True)
    assert fans(s) == Counter({"暗四归一": 2}) and s.patterns == 16


def test_longqidui_never_adds_ansigui_and_sanlong_value() -> None:
    s = score(ctx("1111p2222p3333p5p", "5p"))
    assert fans(s) == Counter({"三龙七对": 1, "清一色": 1})
    assert s.multiplier == {1: 128, 2: 128} and s.cap == 16 and s.deltas == (32, -16, -16)
    assert score(ctx("1111p2222p3333p5p", "5p"), sanlong_value=16).patterns == 64


def test_sanyuan_qidui_on_long_reading() -> None:
    c = ctx("5z5z5z5z6z6z7z11p33p55p", "7z")
    assert fans(score(c)) == Counter({"龙七对": 1})
    s = score(c, sanyuan_qidui=True)
    assert fans(s) == Counter({"龙七对": 1, "小三元七对": 1}) and s.patterns == 16
    c = ctx("5555z6666z7777z1p", "1p")
    s = score(c, sanyuan_qidui=True)
    assert fans(s) == Counter({"三龙七对": 1, "大三元七对": 1}) and s.patterns == 128


def test_dasanyuan_with_concealed_pungs_and_qingyise_needs_no_dragons() -> None:
    s = score(ctx("555z666z777z123p9p", "9p"))
    assert fans(s) == Counter({"大三元": 1}) and s.patterns == 8
    s = score(ctx("555z666z77z123p99p", "7z"))
    assert fans(s) == Counter({"大三元": 1})
    s = score(ctx("555z666z77z123p99p", "9p"))
    assert fans(s) == Counter({"小三元": 1})


def test_kawuxing_needs_the_run_in_the_chosen_reading() -> None:
    # 卡五星 and 碰碰胡 readings compete: 444s 555s 666s vs 456s×3 (A10.1 "卡5和碰碰")
    s = score(ctx("444s55s666s123p99p", "5s"))  # 444s 555s 666s (屁胡) or 456s ×3 (卡五星)
    assert fans(s) == Counter({"卡五星": 1}) and s.reading == "123p 99p 456s 456s 456s"
    # kwx_value 4: 卡五星 reading wins over 屁胡 readings
    s = score(ctx("123p789p234s46s88s", "5s", "discard"), kwx_value=4)
    assert s.multiplier == {1: 4}


def test_kawuxing_in_m_suit_when_in_play() -> None:
    s = score(ctx("123p789p234m46m88m", "5m"), suits=["p", "m"])
    assert fans(s) == Counter({"卡五星": 1})


# ---------------------------------------------------------------------------------------------- situational


def test_gangshang_values_and_compound_chain() -> None:
    c = ctx("123s456s789s9p", "9p", melds=("concealed_kong 3333p",), after_kong=True, kong_chain=3)
    assert score(c).multiplier == {1: 2, 2: 2}
    assert score(c, gangshang_chain_hu="compound").multiplier == {1: 8, 2: 8}
    assert score(c, gangshang_value=4).multiplier == {1: 4, 2: 4}


def test_gangkai_and_haidi_stack_and_haidi_pihu_off() -> None:
    c = ctx("123s456s789s9p", "9p", melds=("concealed_kong 3333p",), after_kong=True, last_tile=True)
    s = score(c)
    assert fans(s) == Counter({"杠上开花": 1, "海底捞月": 1}) and s.multiplier == {1: 4, 2: 4}  # E#14
    s = score(ctx("123p456p789p23s99s", "4s", last_tile=True), haidi_pihu="off")
    assert s.fans == ("屁胡",) and s.multiplier == {1: 1, 2: 1}
    s = score(ctx("123p789p234s46s88s", "5s", last_tile=True), haidi_pihu="off")
    assert fans(s) == Counter({"卡五星": 1, "海底捞月": 1})


def test_haidipao_with_gangpao() -> None:
    c = ctx("123p456p789p23s99s", "4s", "discard", after_kong=True, last_tile=True)
    assert fans(score(c)) == Counter({"杠上炮": 1})
    assert fans(score(c, haidi_pao=2)) == Counter({"杠上炮": 1, "海底炮": 1})


def test_after_kong_and_last_tile_ignored_on_rob() -> None:
    c = ctx("123p456p789p68s5z5z", "7s", "rob_kong", after_kong=True, last_tile=True)
    assert score(c).fans == ("抢杠胡",)
    assert score(c, qianggang_value=4).multiplier == {1: 4}
    assert score(c, qianggang=False).illegal is IllegalReason.QIANGGANG_OFF


def test_guohu_fanfan() -> None:
    c = ctx("123p456p234s78s99p", "9s", liangdao=(0,), declined_wins=2)
    assert score(c).multiplier == {1: 2, 2: 2}
    s = score(c, guohu_fanfan=True)
    assert fans(s) == Counter({"亮倒": 1, "过胡翻番": 1}) and s.multiplier == {1: 8, 2: 8}


# ---------------------------------------------------------------------------------------------- legality


def test_qihu_2fan() -> None:
    plain = ctx("123p456p234s78s99p", "9s")
    s = score(plain, qihu_2fan=True)
    assert not s.legal and s.illegal is IllegalReason.BELOW_TWO and s.deltas == (0, 0, 0)
    assert score(ctx("123p456p234s78s99p", "9s", liangdao=(0,)), qihu_2fan=True).legal
    # a payer's 亮倒 does not lift a self-draw over the 2-fan bar (decision in engine.scoring)
    assert not score(ctx("123p456p234s78s99p", "9s", liangdao=(1,)), qihu_2fan=True).legal
    # on a discard qihu_2fan keeps the bar even with pihu_ron
    ron = ctx("123p456p234s78s99p", "9s", "discard")
    assert score(ron, pihu_ron=True).legal
    assert not score(ron, pihu_ron=True, qihu_2fan=True).legal


def test_self_draw_always_legal_by_default() -> None:
    assert score(ctx("123p456p234s78s99p", "9s")).legal


def test_discarder_multiplier_for_louhu() -> None:
    s = score(ctx("123p789p234s46s88s", "5s", "discard", discarder=2))
    assert s.discarder_multiplier == 2 and s.discarder == 2
    assert score(ctx("123p789p234s46s88s", "5s")).discarder_multiplier is None
    # 包胡: the discarder's own M (his share), not the 2-share total
    s = score(ctx("123p789p234s46s88s", "5s", "discard", liangdao=(0,)))
    assert s.baohu and s.discarder_multiplier == 4 and s.shares == {1: 8}


# ---------------------------------------------------------------------------------------------- payments


def test_payer_liangdao_on_self_draw() -> None:
    s = score(ctx("123p789p234s46s88s", "5s", liangdao=(2,)))
    assert s.multiplier == {1: 2, 2: 4} and s.deltas == (6, -2, -4) and s.fans == ("卡五星", "亮倒")


def test_baohu_shares_use_each_payers_liangdao_under_dui_liang_fanfan() -> None:
    # E#44: W and X 亮倒, D not: D pays share(W,D) + share(W,X)
    c = ctx("123p789p234s46s88s", "5s", "discard", liangdao=(0, 2))
    s = score(c)
    assert s.baohu and s.multiplier == {1: 4, 2: 4} and s.deltas == (8, -8, 0)
    s = score(c, dui_liang_fanfan=True, cap="none")
    assert s.multiplier == {1: 4, 2: 8} and s.deltas == (12, -12, 0)


def test_baohu_on_robbed_kong() -> None:
    s = score(ctx("123p456p789p68s5z5z", "7s", "rob_kong", liangdao=(0,)))
    assert s.baohu and s.multiplier == {1: 4, 2: 4} and s.deltas == (8, -8, 0)  # A12.4


def test_cap_applies_per_share_before_baohu_and_base() -> None:
    c = ctx("11s22s33s44s5s66s77s", "5s", "discard", liangdao=(0,))
    s = score(c, base=3)
    assert s.multiplier == {1: 32, 2: 32} and s.cap == 8
    assert s.shares == {1: 48} and s.deltas == (48, -48, 0)
    assert score(c, cap=32).deltas == (64, -64, 0)
    assert score(c, cap="16").deltas == (32, -32, 0)


def test_cap_follows_the_chosen_reading() -> None:
    """E#46: 33s 4444s 5555s 66s 99p reads as 双龙七对 (16) or 345 345 456 456 99 (暗四归一, 卡五星)."""
    c = ctx("33s4444s555s66s99p", "5s")
    s = score(c)  # standard reading: 暗四归一 4 × 卡五星 2 = 8 < 16
    assert fans(s) == Counter({"双龙七对": 1}) and s.cap == 16 and s.deltas == (32, -16, -16)
    s = score(c, sigui_scope="quan", sigui_multi=True)  # standard: 4 × 4 × 2 = 32 > 16
    assert fans(s) == Counter({"暗四归一": 2, "卡五星": 1}) and s.cap == 8 and s.deltas == (16, -8, -8)
    assert s.multiplier == {1: 32, 2: 32}


# ---------------------------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"concealed": "123p789p234s46s8s", "win": "5s"}, "has 13 tiles, got 12"),
        ({"concealed": "123p789p234s46s88s", "win": "5s", "melds": ("pong 111p",)}, "has 10 tiles, got 13"),
        ({"concealed": "1111p789p234s46s8s", "win": "1p"}, "5 copies of 1p"),
        ({"concealed": "123p789p234s46s8s", "win": "1p", "melds": ("pong 111p",)}, "has 10 tiles"),
        ({"concealed": "1234p", "win": "1p", "melds": ("pong 111p",) * 3}, "11 copies of 1p"),
        ({"concealed": "123p789p234s46s88s", "win": "5s", "how": "discard", "discarder": 0}, "another seat"),
        ({"concealed": "123p789p234s46s88s", "win": "5s", "how": "discard", "discarder": 3}, "another seat"),
        ({"concealed": "123p789p234s46s88s", "win": "5s", "discarder": 1}, "self-draw has no discarder"),
        ({"concealed": "123p789p234s46s55s", "win": "5s", "how": "rob_kong"}, "robbed kong"),
        ({"concealed": "123p789p234s46s88s", "win": "5s", "winner": 3}, "winner"),
        ({"concealed": "123p789p234s46s88s", "win": "5s", "kong_chain": 0}, "kong_chain"),
    ],
)
def test_malformed_contexts(kwargs: dict[str, Any], fragment: str) -> None:
    args = dict(kwargs)
    concealed, win = args.pop("concealed"), args.pop("win")
    with pytest.raises(ScoringError) as info:
        ctx(concealed, win, **args)
    assert fragment in str(info.value)


def test_discard_needs_discarder() -> None:
    with pytest.raises(ScoringError, match="needs the discarder"):
        WinContext(tuple(parse_tiles("123p789p234s46s88s")), (), Tile.S5, WinBy.DISCARD, 0)


def test_liangdao_length_and_default() -> None:
    c = WinContext(tuple(parse_tiles("123p789p234s46s88s")), (), Tile.S5, WinBy.SELF_DRAW, 0)
    assert c.liangdao == (False, False, False)
    with pytest.raises(ScoringError, match="one flag per seat"):
        WinContext(tuple(parse_tiles("123p789p234s46s88s")), (), Tile.S5, WinBy.SELF_DRAW, 0, liangdao=(True,))


def test_tiles_not_in_play() -> None:
    with pytest.raises(ScoringError, match="not in play"):
        score(ctx("123m789p234s46s88s", "5s"))
    with pytest.raises(ScoringError, match="no dragons"):
        score(ctx("123p789p234s46s5z5z", "5s"), dragons=False)


def test_not_complete_result() -> None:
    s = score(ctx("123p456p789p123s5s", "7s"))
    assert (s.complete, s.legal, s.fans, s.multiplier, s.shares, s.deltas, s.reading) == (
        False, False, (), {}, {}, (0, 0, 0), "")  # fmt: skip


def test_num_players_two() -> None:
    c = WinContext(tuple(parse_tiles("123p789p234s46s88s")), (), Tile.S5, WinBy.SELF_DRAW, 1, num_players=2)
    s = score_win(c)
    assert s.multiplier == {0: 2} and s.deltas == (-2, 2)


def test_liangdao_revealed_sigui_ming() -> None:
    """E#36: by default a 亮倒 winner's revealed triplet + the 4th is still 暗四归一; option -> 明四归一."""
    c = ctx("123p456p777s89s99p", "7s", "discard", liangdao=(0,))
    assert fans(score(c)) == Counter({"暗四归一": 1, "亮倒": 1})
    s = score(c, liangdao_revealed_sigui_ming=True)
    assert fans(s) == Counter({"明四归一": 1, "亮倒": 1}) and s.multiplier == {1: 4, 2: 4}


def test_e1_second_wait_does_not_spoil_kawuxing() -> None:
    """E#1: 234s 456s 5s waits on 2s and 5s; the 5s win is still 卡五星 under the generous rule."""
    c = ctx("123p789p234s456s5s", "5s", "discard")
    assert score(c).fans == ("卡五星",)
    assert not score(c, kwx_rule="strict_single_wait").legal
    assert score(ctx("123p789p234s456s5s", "2s")).fans == ("屁胡",)


@pytest.mark.parametrize(
    ("tiles", "pairs", "expected"),
    [
        ("", 0, True),
        ("", 1, False),
        ("55s", 1, True),
        ("55s", 0, False),
        ("555s", 0, True),
        ("456s55s", 1, True),
        ("4556s", 1, False),
        ("123p789p", 0, True),
        ("46s", 0, False),
        ("1122p", 1, False),
    ],
)
def test_splits(tiles: str, pairs: int, expected: bool) -> None:
    """:func:`engine.readings.splits`: complete sets and exactly ``pairs`` pairs, any number of tiles."""
    assert splits(counts_of(parse_tiles(tiles)), pairs) is expected


def test_splits_rejects_negative_counts() -> None:
    counts = counts_of(parse_tiles("55s"))
    counts[Tile.S4] = -1
    assert not splits(counts, 1)
