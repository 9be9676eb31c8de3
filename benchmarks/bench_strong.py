"""The ``strong`` AI: time per decision and strength against ``normal`` and ``greedy``
(docs/architecture.md §2 AI; README "AI levels").

Usage::

    python benchmarks/bench_strong.py match --game kawuxing --seats 3 --vs normal --hands 600 [--jobs 1]
    python benchmarks/bench_strong.py table --hands 600 [--jobs 1]      # 2/3/4 seats x both games x normal/greedy

``match``: one ``strong`` player against ``seats - 1`` copies of ``--vs`` under the game's rules
(卡五星: ``standard`` / ``two_seats`` / ``four_seats``; 卡心五: the ``kaxinwu`` preset with
``players``), duplicate seating (:mod:`engine.ai.selfplay`: every deal is played from every seat by
every player, so the luck of the deal cancels).  ``--hands`` is rounded up to whole deal blocks (2, 6
or 24 hands).  Prints strong's points of 底金 per hand with its 95% confidence interval
(cluster-robust over deals), strong - other (paired, same deals), win / 点炮 / 亮倒 rates, and the
time of each strong decision — searched or not — as p50 / p95 / max, in CPU time of the deciding
process (``time.process_time``: one core, not inflated by other jobs on the machine) and in wall
time, with the load average before and after.  ``table``: every match, one line each.

``--prior`` plays the strong seat without its search: the prior of its table's plan alone
(:func:`engine.ai.strong.prior_choice`: ``normal`` with the plan's tuning, 暗杠 and 廊起 rules).
``--defence W`` and ``--ankong on|off`` replace those of the plan (:func:`engine.ai.strong.plan_for`),
with or without ``--prior``: how the plans' values were chosen (README "AI levels").

``--sees wall|hands|both`` (with ``--prior``) is an instrument, not a level: the prior is let see what
no seat may — the live wall's tiles (its ``unseen`` counts become the wall's, so 有效牌 and waits are
counted exactly) and / or the other seats' concealed hands (its danger mask becomes every tile that
another hand would win on if it were discarded now: 番 >= 2, or any wait where a 屁胡 may win on a
discard).  The strong level never does this (it sees its seat's view only, as a test checks); the
figure bounds what better inference of the hidden tiles could give the prior (README "AI levels").

``--jobs J`` splits the deals over J worker processes (default 1; the machine has 2 cores).  The same
arguments replay the same hands (the strong search is bounded by playouts, not by time).
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import multiprocessing
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.ai import Level, players, selfplay, strong
from engine.ai.hand import pattern_value, plus
from engine.ai.selfplay import Agent, Simulation, ai_agent, seatings, simulate
from engine.analysis import waits_mask
from engine.game import Action, State
from engine.rules import RuleSet
from engine.tiles import NUM_KINDS
from engine.views import SeatView

GAMES = ("kawuxing", "kaxinwu")


def rules_for(game: str, seats: int) -> RuleSet:
    """The rules of a match: 卡五星 at 2/3/4 seats (presets two_seats / standard / four_seats) or
    卡心五 (preset kaxinwu with ``players``)."""
    if game == "kaxinwu":
        return RuleSet.from_json({"preset": "kaxinwu", "players": seats})
    return RuleSet.preset({2: "two_seats", 3: "standard", 4: "four_seats"}[seats])


def plan_of(rules: RuleSet, variant: Variant) -> strong.Plan:
    """The table's plan with the prior's :attr:`Tuning.defence` and the 暗杠 rule ("on" / "off")
    replaced where ``variant`` gives them."""
    plan = strong.plan_for(rules)
    if variant.defence is not None:
        plan = dataclasses.replace(plan, tuning=dataclasses.replace(plan.tuning, defence=variant.defence))
    if variant.ankong is not None:
        plan = dataclasses.replace(plan, ankong=variant.ankong == "on")
    return plan


SIGHTS = ("wall", "hands", "both")
_SIGHT_WORDS = {"wall": "THE WALL", "hands": "THE OTHERS' HANDS", "both": "THE WALL AND THE OTHERS' HANDS"}
_TRUTH: list[State] = []  # the state of the hand the last view was made from (an instrument seat's sight)


_VIEW_FOR: Callable[[State, int], SeatView] = getattr(selfplay, "view_for")  # noqa: B009  # patched below


def _remembering_view_for(state: State, seat: int) -> SeatView:
    _TRUTH[:] = [state]
    return _VIEW_FOR(state, seat)


def _wall_counts(view: SeatView, kinds: object = None) -> list[int]:
    """The live wall's tiles, 30 counts (in place of the tiles the seat cannot see)."""
    state = _TRUTH[0]
    out = [0] * NUM_KINDS
    for t in state.wall[state.front : state.back]:
        out[int(t)] += 1
    return out


def _true_danger(view: SeatView) -> int:
    """Bit mask of the tiles another seat would win on if the viewing seat discarded them now: a 亮倒
    seat's published waits, and each other hand's waits worth a win on a discard (番 >= 2, or any
    with ``pihu_ron``)."""
    state = _TRUTH[0]
    rules = state.rules
    mask = 0
    for i, seat in enumerate(state.seats):
        if i == view.seat:
            continue
        if seat.liangdao:
            for t in seat.waits:
                mask |= 1 << int(t)
            continue
        waits = waits_mask(seat.keys, len(seat.melds))
        counts = list(seat.hand)
        for w in range(NUM_KINDS):
            if waits >> w & 1:
                counts[w] += 1
                value = pattern_value(counts, plus(seat.keys, w), seat.melds, w, rules)  # type: ignore[arg-type]  # Meld reads as MeldView
                counts[w] -= 1
                if value >= 2 or (value and rules.pihu_ron):
                    mask |= 1 << w
    return mask


def _seeing(sees: str | None, choose: Callable[[], Action]) -> Action:
    """``choose()`` with the prior's sight widened as ``sees`` says (module docstring), then restored."""
    if sees is None:
        return choose()
    # the names the normal level reads its unseen counts and danger mask through, swapped for now
    saved = {name: getattr(players, name) for name in ("unseen_counts", "danger_mask")}
    if sees in ("wall", "both"):
        setattr(players, "unseen_counts", _wall_counts)  # noqa: B010
    if sees in ("hands", "both"):
        setattr(players, "danger_mask", _true_danger)  # noqa: B010
    try:
        return choose()
    finally:
        for name, value in saved.items():
            setattr(players, name, value)


def _timed_strong(rules: RuleSet, cpu: list[float], wall: list[float], variant: Variant) -> Agent:
    prior_only, sees = variant.prior, variant.sees
    plan = plan_of(rules, variant)
    if sees is not None:
        setattr(selfplay, "view_for", _remembering_view_for)  # noqa: B010  # this process only

    def agent(view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action:
        c0, w0 = time.process_time(), time.perf_counter()
        if prior_only:
            a = _seeing(sees, lambda: strong.prior_choice(view, legal, rules, plan))
        else:  # the strong level itself with the table's plan (choose_action's path), or the variant's
            a = strong.choose(view, legal, rng, rules=rules, plan=plan)
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
        return a

    return agent


class Variant(NamedTuple):
    """How the strong seat of a match differs from the strong level (None: as its table's plan)."""

    prior: bool = False  # the prior alone, without the search
    defence: float | None = None  # the prior's danger weight
    ankong: str | None = None  # "on" / "off": a 暗杠 whenever legal
    sees: str | None = None  # what the prior sees beyond its view: one of SIGHTS (an instrument)


def _job(args: tuple[str, int, str, int, int, str, Variant]) -> tuple[Simulation, list[float], list[float]]:
    game, seats, vs, start_index, hands, seed, variant = args
    rules = rules_for(game, seats)
    cpu: list[float] = []
    wall: list[float] = []
    levels = (Level.STRONG,) + (Level(vs),) * (seats - 1)
    agents = [_timed_strong(rules, cpu, wall, variant)] + [ai_agent(Level(vs), rules)] * (seats - 1)
    t0 = time.perf_counter()

    def progress(sim: Simulation) -> None:
        if len(sim.blocks) % 10 == 0:
            mean, ci = sim.mean_ci(0)
            print(
                f"  [{game} {seats} vs {vs}, from hand {start_index}] {sim.records} hands: strong {mean:+.3f} "
                f"±{ci:.3f}, {time.perf_counter() - t0:.0f} s",
                file=sys.stderr,
                flush=True,
            )

    sim = simulate(levels, hands, seed, rules, start_index=start_index, agents=agents, progress=progress)
    return sim, cpu, wall


def _merge(parts: Sequence[Simulation]) -> Simulation:
    out = Simulation(parts[0].labels)
    for p in parts:
        out.records += p.records
        out.draws += p.draws
        out.actions += p.actions
        out.seconds = max(out.seconds, p.seconds)
        for name in ("totals", "wins", "self_draws", "dealt_in", "liangdao", "feeds", "forced_feeds", "baohu"):
            mine, theirs = getattr(out, name), getattr(p, name)
            for i, v in enumerate(theirs):
                mine[i] += v
        out.blocks.update(p.blocks)
        out.block_sizes.update(p.block_sizes)
        out.errors.extend(p.errors)
    return out


def _pct(xs: Sequence[float], q: float) -> float:
    if not xs:
        return math.nan
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))] * 1000.0


_PLAIN = Variant()


def _describe(variant: Variant) -> str:
    parts = ["prior only"] if variant.prior else []
    parts += [f"defence {variant.defence:g}"] if variant.defence is not None else []
    parts += [f"ankong {variant.ankong}"] if variant.ankong is not None else []
    parts += [f"SEEING {_SIGHT_WORDS[variant.sees]}"] if variant.sees is not None else []
    return f" ({', '.join(parts)})" if parts else ""


def run_match(
    game: str, seats: int, vs: str, hands: int, jobs: int, seed: str, variant: Variant = _PLAIN
) -> dict[str, object]:
    """Play one match; its figures as a dict (also printed).  ``variant``: :data:`Variant`."""
    block = len(seatings(seats))
    blocks = max(1, math.ceil(hands / block))
    per = math.ceil(blocks / jobs)
    tasks = []
    for j in range(jobs):
        b0, b1 = j * per, min(blocks, (j + 1) * per)
        if b1 > b0:
            tasks.append((game, seats, vs, b0 * block, (b1 - b0) * block, seed, variant))
    load0 = os.getloadavg()
    t0 = time.perf_counter()
    if len(tasks) == 1:
        results = [_job(tasks[0])]
    else:
        with multiprocessing.get_context("spawn").Pool(len(tasks)) as pool:
            results = pool.map(_job, tasks)
    elapsed = time.perf_counter() - t0
    load1 = os.getloadavg()
    sim = _merge([r[0] for r in results])
    cpu = [x for r in results for x in r[1]]
    wall = [x for r in results for x in r[2]]
    mean, ci = sim.mean_ci(0)
    diff, dci = sim.diff_ci(0, 1)
    n = sum(sim.block_sizes.values())
    s = sim.summary()
    out = {
        "game": game,
        "seats": seats,
        "vs": vs,
        "hands": n,
        "strong": mean,
        "ci95": ci,
        "diff": diff,
        "diff_ci95": dci,
        "win%": 100.0 * s.players[0].wins / max(n, 1),
        "dealt_in%": 100.0 * s.players[0].dealt_in / max(n, 1),
        "liangdao%": 100.0 * s.players[0].liangdao / max(n, 1),
        "decisions": len(cpu),
        "cpu_p50_ms": _pct(cpu, 0.5),
        "cpu_p95_ms": _pct(cpu, 0.95),
        "cpu_max_ms": _pct(cpu, 1.0),
        "wall_p50_ms": _pct(wall, 0.5),
        "wall_p95_ms": _pct(wall, 0.95),
        "errors": len(sim.errors),
        "seconds": elapsed,
        "load": f"{load0[0]:.2f} -> {load1[0]:.2f}",
    }
    print(
        f"{game:<8} {seats} seats  strong{_describe(variant)} vs {vs:<6} x{seats - 1}: {n:>5} hands (seed {seed})  "
        f"strong {mean:+.3f} ±{ci:.3f}  strong-{vs} {diff:+.3f} ±{dci:.3f}  "
        f"win {out['win%']:.1f}% 点炮 {out['dealt_in%']:.1f}% 亮倒 {out['liangdao%']:.1f}%  "
        f"decision ms cpu p50 {out['cpu_p50_ms']:.1f} p95 {out['cpu_p95_ms']:.1f} max {out['cpu_max_ms']:.1f} "
        f"(wall p95 {out['wall_p95_ms']:.1f}; {len(cpu)} decisions)  "
        f"errors {len(sim.errors)}  {elapsed:.0f} s  load {out['load']}",
        flush=True,
    )
    for seed_text, seats_of, message in sim.errors[:5]:
        print(f"  RULE ERROR deal {seed_text!r} seats {list(seats_of)}: {message}", flush=True)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("cmd", choices=("match", "table"))
    ap.add_argument("--game", choices=GAMES, default="kawuxing")
    ap.add_argument("--seats", type=int, choices=(2, 3, 4), default=3)
    ap.add_argument("--vs", choices=("normal", "greedy", "easy"), default="normal")
    ap.add_argument("--hands", type=int, default=600)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", default="strong")
    ap.add_argument("--prior", action="store_true", help="the plan's prior alone, without the search")
    ap.add_argument("--defence", type=float, default=None, help="the prior's danger weight (Tuning.defence)")
    ap.add_argument("--ankong", choices=("on", "off"), default=None, help="a 暗杠 whenever legal")
    ap.add_argument("--sees", choices=SIGHTS, default=None, help="an instrument: the prior sees hidden tiles")
    a = ap.parse_args(argv)
    if a.sees is not None and not a.prior:
        ap.error("--sees widens the prior's sight: use it with --prior")
    if a.cmd == "match":
        variant = Variant(a.prior, a.defence, a.ankong, a.sees)
        r = run_match(a.game, a.seats, a.vs, a.hands, a.jobs, a.seed, variant)
        return 1 if r["errors"] else 0
    errors = 0
    for game in GAMES:
        for seats in (2, 3, 4):
            for vs in ("normal", "greedy"):
                r = run_match(game, seats, vs, a.hands, a.jobs, a.seed)
                errors += int(r["errors"])  # type: ignore[call-overload]
    return 1 if errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
