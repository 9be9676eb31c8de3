"""Rules audit: ``engine.scoring.score_win`` against an independent brute-force scorer (docs/rules.md §A7–§A12).

The reference scorer below is written from docs/rules.md alone (A10 table, A10.1–A10.3, A11, A12,
Appendix 2) and shares no code with the engine: it enumerates every decomposition of the 14 - 3k
concealed tiles by choosing a multiset of candidate sets (``itertools.combinations_with_replacement``)
rather than by the engine's lowest-tile recursion, computes each reading's 番, keeps the best, applies
situational factors, 亮倒, legality, cap and payments, and is compared field by field with the engine
on many seeded random hands biased towards the hard cases (5s next to 4s and 6s, quads in concealed
hands, 清一色, dragons, melds, 亮倒 on every seat, every relevant §C option).
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from typing import Any

import pytest

from engine.rules import RuleSet
from engine.scoring import ScoringError, WinBy, WinContext, score_win
from engine.tiles import Meld, MeldKind, Tile, parse_meld, parse_tile, parse_tiles

SUITED = [t for t in range(27) if t < 18]  # 1p-9p, 1s-9s (standard suits)
DRAGON_KINDS = [27, 28, 29]
KINDS = SUITED + DRAGON_KINDS

# ----------------------------------------------------------------------------------- the reference scorer


def _candidate_sets(counts: list[int]) -> list[tuple[int, ...]]:
    """Every pung (x x x) and run (x x+1 x+2, same suit, no dragons) that fits in ``counts`` on its own."""
    out: list[tuple[int, ...]] = []
    for t in KINDS:
        if counts[t] >= 3:
            out.append((t, t, t))
    for t in SUITED:
        if t % 9 <= 6 and counts[t] and counts[t + 1] and counts[t + 2]:
            out.append((t, t + 1, t + 2))
    return out


def ref_decompositions(counts14: list[int], n_sets: int) -> list[tuple[int, tuple[tuple[int, ...], ...]]]:
    """Every (pair, sets) with sum exactly ``counts14`` (docs/rules.md §A7.1): multisets of candidate sets."""
    out = []
    for pair in KINDS:
        if counts14[pair] < 2:
            continue
        rest = list(counts14)
        rest[pair] -= 2
        cands = _candidate_sets(rest)
        for combo in itertools.combinations_with_replacement(cands, n_sets):
            c = [0] * 30
            for s in combo:
                for t in s:
                    c[t] += 1
            if c == rest:
                out.append((pair, combo))
    return out


def ref_complete(counts14: list[int], n_melds: int) -> bool:
    if sum(counts14) != 14 - 3 * n_melds:
        return False
    if n_melds == 0 and all(c % 2 == 0 for c in counts14):
        return True
    return bool(ref_decompositions(counts14, 4 - n_melds))


def ref_waits(counts13: list[int], melds: list[tuple[str, int]]) -> set[int]:
    held = list(counts13)
    for kind, t in melds:
        held[t] += 3 if kind == "pong" else 4
    out = set()
    for t in KINDS:
        if held[t] >= 4:
            continue
        c = list(counts13)
        c[t] += 1
        if ref_complete(c, len(melds)):
            out.add(t)
    return out


@dataclass
class Opts:
    """The §C options the reference understands (others stay at their defaults)."""

    cap: str = "8_sl16"
    kwx_rule: str = "generous"
    sigui_scope: str = "ban_qys_quan"
    ansigui_requires_pung: bool = False
    sigui_multi: bool = False
    szy_with_pph: bool = False
    dui_liang_fanfan: bool = False
    liangdao_payer_double: bool = True
    pihu_ron: bool = False
    qihu_2fan: bool = False
    situational_for_qihu: bool = True
    haidi_pao: int = 0
    haidi_pihu: bool = True
    baohu: bool = True
    qianggang: bool = True
    base: int = 1
    kwx_value: int = 2
    pph_value: int = 2

    def rules_json(self) -> dict[str, Any]:
        return {
            "preset": "standard",
            "cap": self.cap,
            "kwx_rule": self.kwx_rule,
            "sigui_scope": self.sigui_scope,
            "ansigui_requires_pung": self.ansigui_requires_pung,
            "sigui_multi": self.sigui_multi,
            "szy_with_pph": self.szy_with_pph,
            "dui_liang_fanfan": self.dui_liang_fanfan,
            "liangdao_payer_double": self.liangdao_payer_double,
            "pihu_ron": self.pihu_ron,
            "qihu_2fan": self.qihu_2fan,
            "situational_for_qihu": self.situational_for_qihu,
            "haidi_pao": self.haidi_pao,
            "haidi_pihu": 2 if self.haidi_pihu else "off",
            "baohu": self.baohu,
            "qianggang": self.qianggang,
            "base": self.base,
            "kwx_value": self.kwx_value,
            "pph_value": self.pph_value,
        }


VALUES = {
    "碰碰胡": 2,
    "明四归一": 2,
    "暗四归一": 4,
    "七对": 4,
    "龙七对": 8,
    "双龙七对": 16,
    "三龙七对": 32,
    "大三元": 8,
    "小三元": 4,
    "清一色": 4,
    "手抓一": 4,
    "卡五星": 2,
}


def _value(name: str, o: Opts) -> int:
    if name == "卡五星":
        return o.kwx_value
    if name == "碰碰胡":
        return o.pph_value
    return VALUES[name]


@dataclass
class RefScore:
    complete: bool
    legal: bool = False
    product: int = 0
    best_names: list[tuple[str, ...]] | None = None  # name lists of every best-product reading
    situational: tuple[str, ...] = ()
    multiplier: dict[int, int] | None = None
    deltas: set[tuple[int, ...]] | None = None  # the payments of every tied best reading (see ref_score)


def ref_score(
    concealed: list[int],
    melds: list[tuple[str, int]],
    win: int,
    win_by: str,
    winner: int,
    discarder: int | None,
    liangdao: tuple[bool, bool, bool],
    after_kong: bool,
    last_tile: bool,
    o: Opts,
) -> RefScore:
    c13 = [0] * 30
    for t in concealed:
        c13[t] += 1
    c14 = list(c13)
    c14[win] += 1
    k = len(melds)
    all_kinds = {t for t in range(30) if c14[t]} | {t for _, t in melds}
    qys = len({t // 9 for t in all_kinds}) == 1 and min(all_kinds) < 27
    quan = qys or o.sigui_scope == "quan"
    readings: list[tuple[str, ...]] = []
    # standard readings (A7.1, A10 table, Appendix 2 step 3)
    for pair, sets in ref_decompositions(c14, 4 - k) if sum(c14) == 14 - 3 * k else []:
        names: list[str] = []
        pung_tiles = [s[0] for s in sets if s[0] == s[1]] + [t for _, t in melds]
        all_pung = all(s[0] == s[1] for s in sets)
        if k == 4:
            names.append("手抓一")
            if o.szy_with_pph:
                names.append("碰碰胡")
        elif all_pung:
            names.append("碰碰胡")
        # 四归 (F2, F3, F2')
        ming = {t for kind, t in melds if kind == "pong" and (t == win or (quan and c14[t] >= 1))}
        an = {win} if c13[win] == 3 else set()
        if quan:
            an |= {t for t in range(30) if c14[t] == 4}
        if o.ansigui_requires_pung:
            an = {t for t in an if (t, t, t) in sets}
        names += ["明四归一"] * (len(ming) if o.sigui_multi else min(1, len(ming)))
        names += ["暗四归一"] * (len(an) if o.sigui_multi else min(1, len(an)))
        dragons_pung = sum(1 for t in pung_tiles if t >= 27)
        if dragons_pung == 3:
            names.append("大三元")
        elif dragons_pung == 2 and pair >= 27:
            names.append("小三元")
        if qys:
            names.append("清一色")
        # 卡五星 (F16, A10.2)
        kwx_shape = win < 27 and win % 9 == 4 and (win - 1, win, win + 1) in sets
        if kwx_shape and (o.kwx_rule == "generous" or ref_waits(c13, melds) == {win}):
            names.append("卡五星")
        readings.append(tuple(names))
    # 七对 reading (A7.2, A10.3)
    if k == 0 and sum(c14) == 14 and all(c % 2 == 0 for c in c14):
        longs = sum(1 for c in c14 if c == 4)
        name = ["七对", "龙七对", "双龙七对", "三龙七对"][longs]
        readings.append((name, "清一色") if qys else (name,))
    if not readings:
        return RefScore(complete=False)

    def product_of(names: tuple[str, ...]) -> int:
        p = 1
        for n in names:
            p *= _value(n, o)
        return p

    best = max(product_of(r) for r in readings)
    best_names = [r for r in readings if product_of(r) == best]
    # the cap follows the chosen reading (E#46); when best readings tie with different caps, docs/rules.md
    # Appendix 2 says "ties: any" -- the reference accepts the payments of every tied reading
    tied_longs = {
        max((["七对", "龙七对", "双龙七对", "三龙七对"].index(n) for n in r if "七对" in n), default=0)
        for r in best_names
    }
    # situational (A11.1, F9-F11, F14, F14')
    sit: list[tuple[str, int, bool]] = []  # name, value, counts toward the threshold when situational_for_qihu off
    if win_by == "self_draw":
        if after_kong:
            sit.append(("杠上开花", 2, True))
        if last_tile and (o.haidi_pihu or best > 1):
            sit.append(("海底捞月", 2, True))
    elif win_by == "discard":
        if after_kong:
            sit.append(("杠上炮", 2, False))
        if last_tile and o.haidi_pao > 1:
            sit.append(("海底炮", o.haidi_pao, False))
    else:
        sit.append(("抢杠胡", 2, False))
    sit_all = 1
    sit_thr = 1
    for _, v, thr in sit:
        sit_all *= v
        if thr or o.situational_for_qihu:
            sit_thr *= v

    def lfactor(p: int) -> int:  # A9.6, A11.1, E#47
        w = liangdao[winner]
        pay = liangdao[p] and o.liangdao_payer_double
        if o.dui_liang_fanfan:
            return (2 if w else 1) * (2 if pay else 1)
        return 2 if (w or pay) else 1

    others = [p for p in range(3) if p != winner]
    baohu = discarder is not None and o.baohu and liangdao[winner] and not liangdao[discarder]
    payers = others if (discarder is None or baohu) else [discarder]
    mult = {p: best * sit_all * lfactor(p) for p in payers}
    # legality (A8)
    if win_by == "rob_kong" and not o.qianggang:
        legal = False
    elif discarder is None:
        legal = not (o.qihu_2fan and best * sit_all * (2 if liangdao[winner] else 1) < 2)
    else:
        enough = best * sit_thr * lfactor(discarder) >= 2
        legal = enough or (o.pihu_ron and not o.qihu_2fan)
    # cap (A11.5, E#46) and payments (A12)
    outcomes = set()
    for longs in tied_longs:
        cap = {"none": None, "8": 8, "16": 16, "32": 32}.get(o.cap, 16 if longs >= 2 else 8)
        deltas = [0, 0, 0]
        if legal:
            share = {p: o.base * (m if cap is None else min(m, cap)) for p, m in mult.items()}
            if baohu:
                assert discarder is not None
                share = {discarder: sum(share.values())}
            for p, amount in share.items():
                deltas[p] -= amount
                deltas[winner] += amount
        outcomes.add(tuple(deltas))
    return RefScore(True, legal, best, best_names, tuple(n for n, _, _ in sit), mult, outcomes)


# ----------------------------------------------------------------------------------- random hands


def _random_case(rng: random.Random) -> dict[str, Any] | None:
    """A random (mostly complete) winning context biased towards the hard cases."""
    pool = [0] * 30
    suits = rng.choice([[0], [1], [0, 1], [0, 1], [0, 1]])
    use_dragons = rng.random() < 0.35
    kinds = [s * 9 + n for s in suits for n in range(9)] + (DRAGON_KINDS if use_dragons else [])
    weights = [4 if (t < 27 and t % 9 in (3, 4, 5)) else 1 for t in kinds]

    def take(t: int, n: int) -> bool:
        if pool[t] + n > 4:
            return False
        pool[t] += n
        return True

    melds: list[tuple[str, int]] = []
    n_melds = rng.choice([0, 0, 0, 1, 1, 2, 3, 4])
    for _ in range(n_melds):
        t = rng.choices(kinds, weights)[0]
        kind = rng.choice(["pong", "pong", "kong", "concealed_kong", "added_kong"])
        if take(t, 3 if kind == "pong" else 4):
            melds.append((kind, t))
    k = len(melds)
    tiles: list[int] = []
    shape = rng.random()
    if shape < 0.2 and k == 0:  # 七对 family, often with quads
        while len(tiles) < 14:
            t = rng.choices(kinds, weights)[0]
            n = 4 if rng.random() < 0.3 and len(tiles) <= 10 else 2
            if take(t, n):
                tiles += [t] * n
    elif shape < 0.9:  # sets + pair
        tries = 0
        while len(tiles) < 12 - 3 * k and tries < 100:
            tries += 1
            t = rng.choices(kinds, weights)[0]
            if t < 27 and t % 9 <= 6 and rng.random() < 0.6:
                s = [t, t + 1, t + 2]
                if all(pool[x] < 4 for x in s) and pool[t + 1] + (t + 1 == t) < 4:
                    ok = True
                    for x in s:
                        ok = ok and take(x, 1)
                    if ok:
                        tiles += s
            elif take(t, 3):
                tiles += [t] * 3
        tries = 0
        while len(tiles) < 14 - 3 * k and tries < 100:
            tries += 1
            t = rng.choices(kinds, weights)[0]
            if take(t, 2):
                tiles += [t, t]
        if len(tiles) != 14 - 3 * k:
            return None
    else:  # anything
        while len(tiles) < 14 - 3 * k:
            t = rng.choices(kinds, weights)[0]
            if take(t, 1):
                tiles.append(t)
    win = rng.choice(tiles)
    tiles.remove(win)
    win_by = rng.choice(["self_draw", "self_draw", "discard", "discard", "rob_kong"])
    winner = rng.randrange(3)
    discarder = None if win_by == "self_draw" else rng.choice([p for p in range(3) if p != winner])
    liangdao = tuple(rng.random() < 0.3 for _ in range(3))
    after_kong = rng.random() < 0.15
    last_tile = rng.random() < 0.15
    return {
        "concealed": tiles,
        "melds": melds,
        "win": win,
        "win_by": win_by,
        "winner": winner,
        "discarder": discarder,
        "liangdao": liangdao,
        "after_kong": after_kong if win_by != "rob_kong" else False,
        "last_tile": last_tile if win_by != "rob_kong" else False,
    }


def _random_opts(rng: random.Random) -> Opts:
    if rng.random() < 0.4:
        return Opts()
    return Opts(
        cap=rng.choice(["8_sl16", "8", "none", "16", "32"]),
        kwx_rule=rng.choice(["generous", "strict_single_wait"]),
        sigui_scope=rng.choice(["ban_qys_quan", "quan"]),
        ansigui_requires_pung=rng.random() < 0.3,
        sigui_multi=rng.random() < 0.3,
        szy_with_pph=rng.random() < 0.3,
        dui_liang_fanfan=rng.random() < 0.3,
        liangdao_payer_double=rng.random() < 0.8,
        pihu_ron=rng.random() < 0.2,
        qihu_2fan=rng.random() < 0.2,
        situational_for_qihu=rng.random() < 0.7,
        haidi_pao=rng.choice([0, 2]),
        haidi_pihu=rng.random() < 0.7,
        baohu=rng.random() < 0.8,
        qianggang=rng.random() < 0.9,
        base=rng.choice([1, 1, 2, 5]),
        kwx_value=rng.choice([2, 4]),
        pph_value=rng.choice([2, 4]),
    )


_MELD_KIND = {
    "pong": MeldKind.PONG,
    "kong": MeldKind.KONG,
    "concealed_kong": MeldKind.CONCEALED_KONG,
    "added_kong": MeldKind.ADDED_KONG,
}


def _compare(case: dict[str, Any], o: Opts) -> None:
    rules = RuleSet.from_json(o.rules_json())
    try:
        ctx = WinContext(
            concealed=tuple(Tile(t) for t in case["concealed"]),
            melds=tuple(Meld(_MELD_KIND[kind], Tile(t)) for kind, t in case["melds"]),
            win_tile=Tile(case["win"]),
            win_by=WinBy(case["win_by"]),
            winner=case["winner"],
            discarder=case["discarder"],
            liangdao=case["liangdao"],
            after_kong=case["after_kong"],
            last_tile=case["last_tile"],
        )
    except ScoringError:
        return  # e.g. a robbed tile the winner also holds
    got = score_win(ctx, rules)
    ref = ref_score(
        case["concealed"],
        case["melds"],
        case["win"],
        case["win_by"],
        case["winner"],
        case["discarder"],
        case["liangdao"],
        case["after_kong"],
        case["last_tile"],
        o,
    )
    where = f"{case} {o}"
    assert got.complete == ref.complete, where
    if not ref.complete:
        return
    assert got.patterns == ref.product, (where, got)
    assert ref.best_names is not None
    reading_names = tuple(
        n for n in got.fans if n not in ("杠上开花", "杠上炮", "抢杠胡", "海底捞月", "海底炮", "亮倒", "屁胡")
    )
    assert sorted(reading_names) in [sorted(r) for r in ref.best_names], (where, got.fans, ref.best_names)
    assert tuple(n for n in got.fans if n in ref.situational) == ref.situational, (where, got.fans)
    assert got.legal == ref.legal, (where, got)
    assert got.multiplier == ref.multiplier, (where, got)
    assert ref.deltas is not None
    assert got.deltas in ref.deltas, (where, got, ref.deltas)


@pytest.mark.parametrize("chunk", range(8))
def test_score_win_matches_the_reference_scorer_on_random_hands(chunk: int) -> None:
    rng = random.Random(f"audit-scoring-{chunk}")
    done = 0
    while done < 1500:
        case = _random_case(rng)
        if case is None:
            continue
        _compare(case, _random_opts(rng))
        done += 1


# ----------------------------------------------------------------------------------- adversarial hands


def _case(
    concealed: str,
    win: str,
    *,
    melds: tuple[str, ...] = (),
    win_by: str = "discard",
    liangdao: tuple[bool, bool, bool] = (False, False, False),
    after_kong: bool = False,
    last_tile: bool = False,
) -> dict[str, Any]:
    return {
        "concealed": [int(t) for t in parse_tiles(concealed)],
        "melds": [(m.kind.value, int(m.tile)) for m in map(parse_meld, melds)],
        "win": int(parse_tile(win)),
        "win_by": win_by,
        "winner": 0,
        "discarder": None if win_by == "self_draw" else 1,
        "liangdao": liangdao,
        "after_kong": after_kong,
        "last_tile": last_tile,
    }


ADVERSARIAL = [
    # 卡五星 shapes of [S004] and their near misses (A10.2, E#1)
    _case("123p789p5z5z5z4556s", "5s"),
    _case("123p789p2245667s", "5s"),
    _case("123p789p2245667s", "8s"),
    _case("123p789p2245556s", "5s"),
    _case("123p789p2245556s", "2s"),
    _case("123p789p234s678s5s", "5s"),
    _case("123p789p44556s66s", "6s"),
    _case("123p789p44566s55s", "5s"),
    _case("123p456s5s789p99p", "5s"),
    _case("111p234s46s666s99s", "5s"),
    _case("4444s6666s5s123p9p", "9p", win_by="self_draw"),
    _case("444s666s5s55s123p", "5s"),
    _case("44455566s123p789p", "6s"),
    _case("2344456s123p789p", "5s"),
    # quads in concealed hands, 四归 with and without 清一色 (F2, F3, F2')
    _case("1111p234p567p89p", "7p"),
    _case("1111p234p567s89s", "7s"),
    _case("123p456p777s89s99p", "7s"),
    _case("345p567p55p789p9p", "5p"),
    _case("12345p99p", "6p", melds=("pong 666p",)),
    _case("123456p9p", "9p", melds=("pong 666p",)),
    _case("123p456p99p7s9s", "8s", melds=("pong 888s",)),
    _case("2222p345p678p9p", "9p", win_by="self_draw"),
    # all-pung with kongs, 手抓一 (F1, F13)
    _case("444p777s6z", "6z", melds=("kong 8888p", "concealed_kong 2222s"), win_by="self_draw"),
    _case("5p", "5p", melds=("pong 111p", "pong 333p", "pong 777p", "kong 9999p"), win_by="self_draw"),
    _case("7z", "7z", melds=("pong 555z", "pong 666z", "added_kong 1111p", "pong 999s")),
    # 七对 family: dragons, 龙 counting, caps (A7.2, A10.3, A11.5)
    _case("5z5z6z6z7z11p33p55p77p", "7z", win_by="self_draw"),
    _case("5z5z5z6z6z6z7z7z7z11p22p", "7z", win_by="self_draw"),
    _case("1111s2222s3333s5s", "5s", win_by="self_draw"),
    _case("11s22s33s44s5s66s77s", "5s"),
    _case("44s66s5s11p22p33p99p", "5s"),
    _case("2222s4444s88p6z6z7z", "7z", win_by="self_draw", liangdao=(True, False, False)),
    _case("111p33p77p22s88s6z6z", "1p"),
    _case("1111p2222p333p444p", "3p", win_by="self_draw"),
    # 大/小三元 (F7, F8)
    _case("7z7z123p88s", "7z", melds=("pong 555z", "pong 666z")),
    _case("7z7z123p88s", "8s", melds=("pong 555z", "pong 666z")),
    _case("7z7z222p99s", "9s", melds=("pong 555z", "kong 6666z"), win_by="self_draw"),
    # situational and 亮倒 stacking, thresholds (A8.2, A9.6, A11.1, E#3)
    _case("123p456p234s78s99p", "9s", liangdao=(False, True, False)),
    _case("123p456p234s78s99p", "9s", liangdao=(True, False, False)),
    _case("123p456p234s78s99p", "9s", liangdao=(True, True, True)),
    _case("123p456p789p67s99p", "8s", after_kong=True),
    _case("123p456p789p68s5z5z", "7s", win_by="rob_kong"),
    _case("123p456p789p23s99s", "4s", last_tile=True),
    _case("123p456p789p23s99s", "4s", win_by="self_draw", last_tile=True, after_kong=True),
]


@pytest.mark.parametrize("case", ADVERSARIAL, ids=[f"{c['concealed']}+{c['win']}" for c in ADVERSARIAL])
@pytest.mark.parametrize(
    "opts",
    [
        Opts(),
        Opts(kwx_rule="strict_single_wait"),
        Opts(sigui_scope="quan", sigui_multi=True),
        Opts(ansigui_requires_pung=True),
        Opts(cap="8", dui_liang_fanfan=True, szy_with_pph=True),
        Opts(cap="none", situational_for_qihu=False, haidi_pao=2, haidi_pihu=False),
        Opts(liangdao_payer_double=False, baohu=False, pihu_ron=True),
        Opts(qihu_2fan=True, qianggang=False),
    ],
    ids=["default", "strict", "quan_multi", "requires_pung", "cap8_dui_szy", "nocap_sit", "payer1_nobaohu", "2fan"],
)
def test_adversarial_hands_match_the_reference_scorer(case: dict[str, Any], opts: Opts) -> None:
    _compare(case, opts)
