"""Property tests (Hypothesis) for scoring: zero-sum payments, the cap, suit relabelling p<->s.

Hands are generated complete by construction (melds + sets + pair, or seven pairs), with random
winning tile, way of winning, 亮倒 flags and rule options.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import analysis
from engine.readings import readings
from engine.rules import RuleSet
from engine.scoring import WinBy, WinContext, score_win
from engine.tiles import STANDARD_KINDS, Meld, MeldKind, Tile, counts_of

SUITED = [t for t in STANDARD_KINDS if not t.is_dragon]
RUN_STARTS = [t for t in SUITED if t.number <= 7]


@st.composite
def complete_hands(draw: st.DrawFn) -> tuple[list[Tile], tuple[Meld, ...], Tile]:
    """(concealed 13 - 3k tiles, melds, winning tile) of a complete hand."""
    held = [0] * 30
    melds: list[Meld] = []
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(list(MeldKind)))
        options = [t for t in STANDARD_KINDS if held[t] + kind.size <= 4]
        tile = draw(st.sampled_from(options))
        held[tile] += kind.size
        melds.append(Meld(kind, tile))
    tiles: list[Tile] = []

    def add(group: list[Tile]) -> None:
        for t in group:
            held[t] += 1
        tiles.extend(group)

    def pungs(size: int) -> list[Tile]:
        return [t for t in STANDARD_KINDS if held[t] + size <= 4]

    def runs() -> list[Tile]:
        return [t for t in RUN_STARTS if max(held[t], held[t + 1], held[t + 2]) < 4]

    if not melds and draw(st.integers(0, 5)) == 0:  # 七对 family, quads allowed
        for _ in range(7):
            t = draw(st.sampled_from(pungs(2)))
            add([t, t])
    else:
        for _ in range(4 - len(melds)):
            starts = runs()
            if starts and draw(st.booleans()):
                t = draw(st.sampled_from(starts))
                add([t, Tile(t + 1), Tile(t + 2)])
            else:
                t = draw(st.sampled_from(pungs(3)))
                add([t, t, t])
        t = draw(st.sampled_from(pungs(2)))
        add([t, t])
    win = draw(st.sampled_from(tiles))
    tiles.remove(win)
    return draw(st.permutations(tiles)), tuple(melds), win


RULE_OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "cap": st.sampled_from(["none", "8", "8_sl16", "16", "32"]),
        "base": st.sampled_from([1, 2, 5]),
        "dui_liang_fanfan": st.booleans(),
        "liangdao_payer_double": st.booleans(),
        "baohu": st.booleans(),
        "pihu_ron": st.booleans(),
        "qihu_2fan": st.booleans(),
        "situational_for_qihu": st.booleans(),
        "kwx_rule": st.sampled_from(["generous", "strict_single_wait"]),
        "sigui_scope": st.sampled_from(["ban", "quan"]),
        "sigui_multi": st.booleans(),
        "ansigui_requires_pung": st.booleans(),
        "szy_with_pph": st.booleans(),
        "sanyuan_qidui": st.booleans(),
        "haidi_pao": st.sampled_from([0, 2]),
        "haidi_pihu": st.sampled_from([2, "off"]),
        "gangshang_chain_hu": st.sampled_from(["x2_only", "compound"]),
        "kwx_value": st.sampled_from([2, 4]),
    },
)


@st.composite
def wins(draw: st.DrawFn) -> tuple[WinContext, dict[str, Any]]:
    concealed, melds, win = draw(complete_hands())
    how = draw(st.sampled_from(list(WinBy)))
    holds_win = concealed.count(win) + sum(m.kind.size for m in melds if m.tile == win)
    if how is WinBy.ROB_KONG and holds_win:
        how = WinBy.DISCARD
    winner = draw(st.integers(0, 2))
    others = [s for s in range(3) if s != winner]
    discarder = None if how is WinBy.SELF_DRAW else draw(st.sampled_from(others))
    ctx = WinContext(
        concealed=tuple(concealed),
        melds=melds,
        win_tile=win,
        win_by=how,
        winner=winner,
        discarder=discarder,
        liangdao=tuple(draw(st.lists(st.booleans(), min_size=3, max_size=3))),
        after_kong=draw(st.booleans()),
        last_tile=draw(st.booleans()),
        kong_chain=draw(st.integers(1, 3)),
    )
    return ctx, draw(RULE_OPTIONS)


def swap_ps(t: Tile) -> Tile:
    """p <-> s relabelling of one tile (dragons unchanged)."""
    if t < 9:
        return Tile(t + 9)
    if t < 18:
        return Tile(t - 9)
    return t


@settings(max_examples=400, deadline=None)
@given(wins())
def test_payments_sum_to_zero_and_respect_the_cap(case: tuple[WinContext, dict[str, Any]]) -> None:
    ctx, options = case
    rules = RuleSet.from_json(options)
    s = score_win(ctx, rules)
    assert s.complete
    assert sum(s.deltas) == 0
    assert all(m >= 1 for m in s.multiplier.values())
    if not s.legal:
        assert s.deltas == (0, 0, 0) and s.shares == {}
        return
    cap = s.cap
    unit = rules.base * (cap if cap is not None else max(s.multiplier.values()))
    for m in s.multiplier.values():
        assert rules.base * min(m, cap or m) <= unit
    if s.baohu:
        assert list(s.shares) == [ctx.discarder]
        assert s.shares[ctx.discarder] <= 2 * unit
    else:
        assert set(s.shares) == set(s.multiplier)
        assert all(amount <= unit for amount in s.shares.values())
    assert s.deltas[ctx.winner] == sum(s.shares.values()) > 0
    if ctx.win_by is not WinBy.SELF_DRAW and not rules.pihu_ron:
        assert ctx.discarder is not None and s.multiplier[ctx.discarder] >= 2


@settings(max_examples=300, deadline=None)
@given(wins())
def test_suit_relabelling_keeps_the_score(case: tuple[WinContext, dict[str, Any]]) -> None:
    ctx, options = case
    rules = RuleSet.from_json(options)
    swapped = WinContext(
        concealed=tuple(swap_ps(t) for t in ctx.concealed),
        melds=tuple(Meld(m.kind, swap_ps(m.tile)) for m in ctx.melds),
        win_tile=swap_ps(ctx.win_tile),
        win_by=ctx.win_by,
        winner=ctx.winner,
        discarder=ctx.discarder,
        liangdao=ctx.liangdao,
        after_kong=ctx.after_kong,
        last_tile=ctx.last_tile,
        kong_chain=ctx.kong_chain,
    )
    a, b = score_win(ctx, rules), score_win(swapped, rules)
    assert b.complete and a.complete
    assert (sorted(a.fans), a.multiplier, a.deltas, a.legal, a.cap) == (
        sorted(b.fans), b.multiplier, b.deltas, b.legal, b.cap)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(STANDARD_KINDS), min_size=14, max_size=14))
def test_readings_agree_with_the_table_driven_win_check(tiles: list[Tile]) -> None:
    counts = counts_of(tiles)
    if max(counts) > 4:
        return
    assert bool(readings(counts)) == analysis.is_complete(counts)
    ctx = WinContext(tuple(tiles[:13]), (), tiles[13], WinBy.SELF_DRAW, 0)
    s = score_win(ctx)
    assert s.complete == analysis.is_complete(counts)
    assert sum(s.deltas) == 0
