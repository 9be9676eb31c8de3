"""Hand analysis: win check, waits and shanten against an independent brute force and `mahjong`."""

from __future__ import annotations

import io
import json
import random

import pytest
from mahjong.agari import Agari
from mahjong.shanten import Shanten

from engine import analysis
from engine.analysis import TILE_INC, TILE_SLOT, is_complete, keys_of, shanten, waits
from engine.cli_analyze import main as analyze_main
from engine.tiles import counts_of, parse_tiles
from tests.engine.handgen import KINDS, brute_complete, brute_waits, mixed_hands


def c(text: str) -> list[int]:
    return counts_of(parse_tiles(text))


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("123p789p234s46s88s", ["5s"]),  # D08: closed 4_6 wait
        ("123p456p234s78s99p", ["6s", "9s"]),  # D01
        ("123p789p2245667s", ["5s", "8s"]),  # D13/D14
        ("123p456p789p123s5s", ["5s"]),  # D60
        ("1111p33p77p22s88s6z", ["6z"]),  # D31: 龙七对 wait
        ("11s22s33s44s5s66s77s", ["5s", "8s"]),  # D35: 七对 and standard readings
        ("123p456p777s89s99p", ["9p", "7s"]),  # D27
        ("1112345678999p", ["1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p"]),
        ("1111p2222p3333p5z", ["5z"]),  # 111 222 333 123 + a 白 pair; no 4p reading
        ("123p456p789p111s2s", ["2s", "3s"]),
    ],
)
def test_waits_of_known_hands(hand: str, expected: list[str]) -> None:
    assert [str(t) for t in waits(c(hand))] == sorted(expected, key=lambda s: parse_tiles(s)[0])


def test_fourth_copy_in_a_meld_is_not_a_wait() -> None:
    # 7s pung declared, hand waits on 7s/8s shape: 7s is gone (three in the meld, one in hand).
    concealed = c("123p456p99p7s8s")  # waits 6s 9s
    assert [str(t) for t in waits(concealed, melds=1)] == ["6s", "9s"]
    single = c("123p456p789p7s")  # 单吊 7s with [碰 777s]
    held = list(single)
    held[parse_tiles("7s")[0]] += 3
    assert waits(single, melds=1) == parse_tiles("7s")
    assert waits(single, melds=1, held=held) == []


@pytest.mark.parametrize(
    ("hand", "melds", "complete"),
    [
        ("123p789p234s456s88s", 0, True),
        ("11s22s33s44s55s66s77s", 0, True),  # 七对 清一色
        ("2222s4444s88p6z6z7z7z", 0, True),  # 双龙七对
        ("22p44p66p88p11s", 1, False),  # D61: 七对 needs no melds
        ("22p44p66p88p11s99s", 0, False),  # 12 tiles are no 七对
        ("5z6z7z123p456p789p11s", 0, False),  # dragons never form runs
        ("5z5z5z123p456p789p11s", 0, True),
        ("333p777s5z5z", 2, True),  # D22 with two pungs declared
    ],
)
def test_complete(hand: str, melds: int, complete: bool) -> None:
    assert is_complete(c(hand), melds) is complete


@pytest.mark.parametrize(
    ("hand", "melds", "value"),
    [
        ("123p789p234s46s88s", 0, 0),
        ("123p789p234s456s88s", 0, -1),
        ("11p33p55p77p99p11s3s", 0, 0),  # 七对 ready (six pairs)
        ("147p369p1258s5z6z7z", 0, 4),  # four kanchan/penchan shapes, no pair
        ("5z", 4, 0),
        ("5z6z", 4, -1 + 1),  # 手抓一 discard: one of 5z 6z kept, waiting on it
    ],
)
def test_shanten_of_known_hands(hand: str, melds: int, value: int) -> None:
    assert shanten(c(hand), melds) == value


def test_keys_move_with_tiles() -> None:
    counts = c("123p46s88s7z")
    keys = list(keys_of(counts))
    for t in parse_tiles("5s7z"):
        keys[TILE_SLOT[t]] += TILE_INC[t]
        counts[t] += 1
    assert tuple(keys) == keys_of(counts)


@pytest.mark.parametrize("size", [14, 11, 8, 5, 2])
def test_win_check_matches_brute_force(size: int) -> None:
    melds = (14 - size) // 3
    hands = mixed_hands(seed=size, count=60_000 if size == 14 else 5_000, size=size)
    mismatches = [h for h in hands if is_complete(counts_of(h), melds) != brute_complete(counts_of(h), melds)]
    assert mismatches == []
    assert sum(is_complete(counts_of(h), melds) for h in hands) > len(hands) // 10  # the sample has wins


@pytest.mark.parametrize("size", [13, 10, 7, 4, 1])
def test_waits_match_brute_force(size: int) -> None:
    melds = (13 - size) // 3
    hands = mixed_hands(seed=100 + size, count=50_000 if size == 13 else 5_000, size=size)
    mismatches = []
    for h in hands:
        counts = counts_of(h)
        if [int(t) for t in waits(counts, melds)] != brute_waits(counts, melds):
            mismatches.append(h)
    assert mismatches == []


def _to_34(counts: list[int]) -> list[int]:
    """Our tiles on the `mahjong` package's 34 indices: p -> pin, s -> sou, 白發中 -> haku hatsu chun."""
    out = [0] * 34
    for i in range(9):
        out[9 + i] = counts[i]
        out[18 + i] = counts[9 + i]
    out[31], out[32], out[33] = counts[27], counts[28], counts[29]
    return out


def test_win_check_against_mahjong_package_differs_only_on_long_qidui() -> None:
    """Rules coincide except 龙七对: a quad counts as two pairs here, never in riichi (docs/rules.md §A7.2)."""
    agari = Agari()
    hands = mixed_hands(seed=7, count=20_000, size=14)
    explained = 0
    for h in hands:
        counts = counts_of(h)
        ours = is_complete(counts)
        theirs = agari.is_agari(_to_34(counts))
        if ours != theirs:
            # the only allowed difference: a 七对 reading that needs a quad as two pairs
            assert ours and not theirs
            assert all(x % 2 == 0 for x in counts) and 4 in counts
            explained += 1
    assert explained > 0


def test_waits_against_mahjong_package() -> None:
    agari = Agari()
    hands = mixed_hands(seed=8, count=5_000, size=13)
    for h in hands:
        counts = counts_of(h)
        theirs = []
        for t in KINDS:
            if counts[t] < 4:
                counts[t] += 1
                if agari.is_agari(_to_34(counts)):
                    theirs.append(t)
                counts[t] -= 1
        ours = [int(t) for t in waits(counts)]
        if ours != theirs:
            extra = set(ours) - set(theirs)
            assert set(theirs) <= set(ours)
            for t in extra:  # each extra wait is a 龙七对 completion
                counts[t] += 1
                assert all(x % 2 == 0 for x in counts) and 4 in counts
                counts[t] -= 1


def test_shanten_is_consistent_with_draws_and_discards() -> None:
    """Shanten is -1 exactly for wins, 0 exactly for ready hands, and moves by one per exchange."""
    for h in mixed_hands(seed=9, count=400, size=13):
        counts = counts_of(h)
        s13 = shanten(counts)
        assert (s13 == 0) == bool(waits(counts))
        after_draw = []
        for t in KINDS:
            if counts[t] < 4:
                counts[t] += 1
                s14 = shanten(counts)
                assert (s14 == -1) == is_complete(counts)
                # an incomplete 14-tile hand's value is that of its best discard
                best = min(shanten([x - (i == d) for i, x in enumerate(counts)]) for d in range(30) if counts[d])
                assert s14 == (-1 if s14 == -1 else best)
                after_draw.append(s14)
                counts[t] -= 1
        assert min(after_draw) == s13 - 1 or (s13 == 0 and min(after_draw) == -1)


def test_shanten_against_mahjong_on_hands_without_quads() -> None:
    """Where no tile is held 3+ times the classic formula and the exact distance agree closely."""
    calc = Shanten()
    diffs = 0
    hands = [h for h in mixed_hands(seed=10, count=3_000, size=13) if max(counts_of(h)) <= 2]
    for h in hands:
        counts = counts_of(h)
        ours = shanten(counts)
        theirs = calc.calculate_shanten(_to_34(counts), use_kokushi=False)
        assert ours >= theirs  # the exact distance is never below the classic estimate
        diffs += ours != theirs
    assert diffs <= len(hands) // 50


def test_tables_are_built_for_every_key() -> None:
    assert len(analysis._STD) == 5**9 and len(analysis._PAIRS) == 5**9
    assert analysis._STD[0] == 1 and analysis._STDZ[0] == 1


def test_analyze_command_line() -> None:
    out = io.StringIO()
    status = analyze_main([], io.StringIO("123p789p234s46s88s\n123p789p234s456s88s\n"), out)
    lines = [json.loads(x) for x in out.getvalue().splitlines()]
    assert status == 0
    assert lines[0] == {"tiles": "123p789p234s46s88s", "complete": False, "waits": ["5s"], "shanten": 0}
    assert lines[1] == {"tiles": "123p789p234s456s88s", "complete": True, "shanten": -1}


@pytest.mark.parametrize("bad", ["1x", "123", "11111p", "0p", "1z", "123p456p789p123s"])
def test_analyze_rejects_bad_lines(bad: str) -> None:
    out = io.StringIO()
    assert analyze_main([bad], io.StringIO(), out) == 2
    obj = json.loads(out.getvalue())
    assert obj["tiles"] == bad and obj["error"]


def test_relabelling_suits_keeps_every_answer() -> None:
    """p <-> s and p -> m (a variant suit, docs/rules.md §A1.1) change no verdict, wait or shanten."""
    for h in mixed_hands(seed=11, count=2_000, size=13) + mixed_hands(seed=12, count=2_000, size=14):
        counts = counts_of(h)
        swapped = counts[9:18] + counts[0:9] + counts[18:]
        to_m = [0] * 9 + counts[9:18] + counts[0:9] + counts[27:]
        for other in (swapped, to_m):
            assert shanten(other) == shanten(counts)
            assert is_complete(other) == is_complete(counts)
            assert len(waits(other)) == len(waits(counts))


def _random_hand(rng: random.Random, kinds: list[int], size: int) -> list[int]:
    pool = [t for t in kinds for _ in range(4)]
    rng.shuffle(pool)
    counts = [0] * 30
    for t in pool[:size]:
        counts[t] += 1
    return counts


@pytest.mark.parametrize("suits", ["ps", "psm"])
def test_lowering_draws_and_discard_shanten_match_shanten_keys(suits: str) -> None:
    # the per-family shortcut (and its memo shared between hands) answers as shanten_keys tile by tile
    rng = random.Random(f"lowering-{suits}")
    kinds = [t for t in range(27) if "psm"[t // 9] in suits] + [27, 28, 29]
    memo: dict[tuple[int, ...], tuple[int, ...]] = {}
    for i in range(3000):
        melds = i % 5
        counts = _random_hand(rng, kinds, 14 - 3 * melds)
        keys = keys_of(counts)
        held = [t for t in range(30) if counts[t]]
        got = analysis.shanten_after_discards(keys, melds, held, memo if i % 2 else None)
        assert got == {t: analysis.shanten_keys(analysis.minus_keys(keys, t), melds) for t in held}
        t = held[i % len(held)]
        after = analysis.minus_keys(keys, t)
        sh = got[t]
        mask = sum(1 << k for k in kinds if counts[k] - (k == t) < 4)
        expected = sum(
            1 << k for k in kinds if mask >> k & 1 and analysis.shanten_keys(analysis.plus_keys(after, k), melds) < sh
        )
        assert analysis.lowering_draws(after, melds, sh, mask, memo if i % 3 else None) == expected
