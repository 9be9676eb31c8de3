"""AI self-play: speed, strength and a long invariant-checked soak (the AI players issue, DESIGN.md §7).

Subcommands (``python benchmarks/bench_selfplay.py <cmd> [--hands N] [--jobs J] [--seed S]``):

``speed`` (default)
    Whole hands per second on one core, CPU time of this process (``time.process_time``; wall time
    is shown too), for ``easy`` (bar: >= 500 hands/s) and ``normal`` self-play, three AIs of one
    level, standard rules, a fresh deal every hand (no deal is replayed, so no cache is flattered).
    Also the split of the time between the engine (``start``/``replay``, ``legal_actions``,
    ``view_for``, ``step``) and the AI (``choose_action``).  Default 3,000 hands per level.
``strength``
    Seeded matches of ``normal`` against ``random``, ``greedy`` and ``easy`` (one ``normal`` and two
    of the other, and the reverse), default 21,000 hands each (3,500 deals x 6 seatings; duplicate
    seating, see :mod:`engine.ai.selfplay`), with average points per hand and 95% confidence
    intervals, the difference normal - other, win / 点炮 / 亮倒 rates, and feeds (discarding a 亮倒
    player's winning tile, 包胡 RULES A9.7) per 1,000 hands.
``soak``
    Long self-play with every invariant checked after every event (``simulate(check=True)``): tile
    conservation, decide == step, replay(events) == state, zero-sum payments and kong money — over
    level mixes and rule variants.  Default 100,002 hands.  Exit status 1 on any rule error.

``--jobs`` runs that many worker processes (default 2) for ``strength`` and ``soak``.

Results (this 2-core machine, Python 3.11; commands as shown)
------------------------------------------------------------
See the ``RESULTS`` block at the end of this docstring, filled in from the runs.

RESULTS
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.ai import Level, choose_action
from engine.ai.selfplay import Simulation, simulate
from engine.game import legal_actions, replay, start, step, view_for
from engine.rules import RuleSet

SOAK_RULES: tuple[object, ...] = (
    "standard",
    "standard",
    {"liangdao_protect": True, "louhu": "strict", "huangzhuang_liangdao": "s004_first"},
    {"liangdao_auto_win": False, "huangzhuang_liangdao": "chajiao", "dealer_on_draw": "chajiao"},
    {"kong_after_peng": True, "gang_chain": "linear", "gang_chain_self": "any_kong_same_turn"},
    {"qianggang": False, "liangdao_kong": "none", "liangdao_min_wall": 12, "guoshou_peng": True},
    {"qihu_2fan": True, "bugang_immediate": False, "cap": "none", "dui_liang_fanfan": True},
    {"pihu_ron": True, "suits": ["p", "m"], "baohu": False, "guohu_fanfan": True},
)
SOAK_PLAYERS: tuple[tuple[Level, Level, Level], ...] = (
    (Level.NORMAL, Level.NORMAL, Level.NORMAL),
    (Level.EASY, Level.EASY, Level.EASY),
    (Level.NORMAL, Level.EASY, Level.GREEDY),
    (Level.NORMAL, Level.GREEDY, Level.RANDOM),
    (Level.EASY, Level.GREEDY, Level.RANDOM),
    (Level.GREEDY, Level.GREEDY, Level.GREEDY),
)


# ============================================================================ speed


def speed(level: Level, hands: int, seed: str) -> dict[str, float]:
    """Self-play of ``hands`` fresh deals by three AIs of ``level``, timed per part (CPU seconds)."""
    rules = RuleSet()
    rng = random.Random(seed)
    parts = {"start": 0.0, "legal_actions": 0.0, "view_for": 0.0, "choose_action": 0.0, "step": 0.0}
    clock = time.process_time
    decisions = 0
    wall0 = time.perf_counter()
    cpu0 = clock()
    for i in range(hands):
        t = clock()
        state = replay(start(rules, i % 3, seed=f"{seed}-{i}"))
        parts["start"] += clock() - t
        while not state.over:
            seat = state.to_act()[0]
            t0 = clock()
            legal = legal_actions(state, seat)
            t1 = clock()
            view = view_for(state, seat)
            t2 = clock()
            action = choose_action(view, legal, level, rng, rules=rules)
            t3 = clock()
            state, _ = step(state, action)
            t4 = clock()
            parts["legal_actions"] += t1 - t0
            parts["view_for"] += t2 - t1
            parts["choose_action"] += t3 - t2
            parts["step"] += t4 - t3
            decisions += 1
    cpu = clock() - cpu0
    wall = time.perf_counter() - wall0
    return {"hands": hands, "cpu": cpu, "wall": wall, "decisions": decisions, **parts}


def speed_plain(level: Level, hands: int, seed: str) -> float:
    """Hands per CPU second of the same loop without the per-part timers."""
    rules = RuleSet()
    rng = random.Random(seed)
    cpu0 = time.process_time()
    for i in range(hands):
        state = replay(start(rules, i % 3, seed=f"{seed}-{i}"))
        while not state.over:
            seat = state.to_act()[0]
            action = choose_action(view_for(state, seat), legal_actions(state, seat), level, rng, rules=rules)
            state, _ = step(state, action)
    return hands / (time.process_time() - cpu0)


def run_speed(hands: int, seed: str) -> int:
    status = 0
    for level in (Level.EASY, Level.NORMAL):
        n = hands if level is Level.EASY else max(hands // 5, 60)
        plain = speed_plain(level, n, seed)
        r = speed(level, n, seed)
        total = sum(r[k] for k in ("start", "legal_actions", "view_for", "choose_action", "step"))
        bar = " (bar >= 500: " + ("PASS" if plain >= 500 else "FAIL") + ")" if level is Level.EASY else ""
        print(
            f"{level.value:>6}: {plain:6.0f} hands/s on one core (CPU time, {n} hands){bar}; "
            f"{r['decisions'] / n:.1f} decisions/hand; instrumented run {n / r['cpu']:.0f} hands/s CPU, "
            f"{n / r['wall']:.0f} wall"
        )
        for k in ("start", "legal_actions", "view_for", "step", "choose_action"):
            print(f"        {k:<14} {1e3 * r[k] / n:7.3f} ms/hand  {100 * r[k] / total:5.1f}%")
        if level is Level.EASY and plain < 500:
            status = 1
    return status


# ============================================================================ strength


def _merge(parts: Sequence[Simulation]) -> Simulation:
    out = parts[0]
    for s in parts[1:]:
        out.records += s.records
        out.draws += s.draws
        out.actions += s.actions
        out.seconds = max(out.seconds, s.seconds)
        for name in ("totals", "wins", "self_draws", "dealt_in", "liangdao", "feeds", "forced_feeds", "baohu"):
            mine = getattr(out, name)
            mine[:] = [a + b for a, b in zip(mine, getattr(s, name), strict=True)]
        out.blocks.update(s.blocks)
        out.block_sizes.update(s.block_sizes)
        out.errors.extend(s.errors)
    return out


def _job(args: tuple[tuple[str, ...], int, str, int, object, bool]) -> Simulation:
    names, hands, seed, start_index, rules, check = args
    return simulate(
        [Level(n) for n in names], hands, seed, RuleSet.from_json(rules), check=check, start_index=start_index
    )


def run_parallel(
    players: Sequence[Level], hands: int, seed: str, jobs: int, rules: object = "standard", check: bool = False
) -> Simulation:
    """``simulate`` split into ``jobs`` processes over consecutive ranges of whole blocks."""
    blocks = -(-hands // 6)
    per = -(-blocks // jobs)
    tasks = []
    names = tuple(p.value for p in players)
    for j in range(jobs):
        lo = j * per * 6
        hi = min(hands, (j + 1) * per * 6)
        if hi > lo:
            tasks.append((names, hi - lo, seed, lo, rules, check))
    if jobs == 1:
        return _merge([_job(t) for t in tasks])
    with multiprocessing.Pool(jobs) as pool:
        return _merge(pool.map(_job, tasks))


def run_strength(hands: int, seed: str, jobs: int) -> int:
    matches = [
        (Level.NORMAL, Level.RANDOM, Level.RANDOM),
        (Level.NORMAL, Level.GREEDY, Level.GREEDY),
        (Level.GREEDY, Level.NORMAL, Level.NORMAL),
        (Level.NORMAL, Level.EASY, Level.EASY),
        (Level.EASY, Level.NORMAL, Level.NORMAL),
        (Level.GREEDY, Level.GREEDY, Level.GREEDY),
        (Level.NORMAL, Level.NORMAL, Level.NORMAL),
    ]
    errors = 0
    print(
        f"strength: {hands} hands per match, seed {seed!r}, standard rules, duplicate seating; "
        "points = 底金 per hand (kong money included), ± = 95% CI"
    )
    print(
        "match                    player  points/hand        diff vs other      win%   点炮%  亮倒%  "
        "feeds/1000 (forced)"
    )
    for players in matches:
        t0 = time.perf_counter()
        sim = run_parallel(players, hands, seed, jobs)
        s = sim.summary()
        errors += len(s.errors)
        label = ",".join(p.value for p in players)
        n = s.hands
        seen: set[str] = set()
        for p in s.players:
            if p.level in seen:
                continue
            seen.add(p.level)
            other = next((q.player for q in s.players if q.level != p.level), None)
            diff = ""
            if other is not None:
                d, dci = sim.diff_ci(p.player, other)
                diff = f"{d:+.3f} ±{dci:.3f}"
            print(
                f"{label:<24} {p.level:<7} {p.mean_points:+.3f} ±{p.ci95:.3f}   {diff:<18} "
                f"{100 * p.wins / n:5.1f} {100 * p.dealt_in / n:6.1f} {100 * p.liangdao / n:6.1f}   "
                f"{1000 * p.feeds / n:6.1f} ({1000 * p.forced_feeds / n:.1f})"
            )
        print(
            f"{'':<24} 荒庄 {100 * s.draw_rate:.1f}%  rule errors {len(s.errors)}  ({time.perf_counter() - t0:.0f} s)",
            flush=True,
        )
    return 1 if errors else 0


# ============================================================================ soak


def run_soak(hands: int, seed: str, jobs: int) -> int:
    combos = [(p, r) for r in SOAK_RULES for p in SOAK_PLAYERS]
    per = -(-hands // len(combos))
    per += -per % 6
    total = errors = 0
    t0 = time.perf_counter()
    for k, (players, rules) in enumerate(combos):
        sim = run_parallel(players, per, f"{seed}/{k}", jobs, rules, check=True)
        s = sim.summary()
        total += s.hands
        errors += len(s.errors)
        for seed_text, seats, message in s.errors[:5]:
            print(
                f"RULE ERROR rules={rules} players={[p.value for p in players]} deal {seed_text!r} "
                f"seats {list(seats)}: {message}"
            )
        if k % len(SOAK_PLAYERS) == len(SOAK_PLAYERS) - 1:
            print(
                f"  rules {rules}: done, {total} hands so far, {errors} rule errors, {time.perf_counter() - t0:.0f} s",
                flush=True,
            )
    print(
        f"soak: {total} hands, every event checked (tile conservation, decide == step, replay == state, "
        f"zero-sum payments and kong money); rule errors: {errors}; {time.perf_counter() - t0:.0f} s"
    )
    return 1 if errors else 0


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("cmd", nargs="?", default="speed", choices=("speed", "strength", "soak"))
    ap.add_argument("--hands", type=int, default=None)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", default="bench")
    args = ap.parse_args(argv)
    if args.cmd == "speed":
        return run_speed(args.hands or 3000, args.seed)
    if args.cmd == "strength":
        return run_strength(args.hands or 21000, args.seed, args.jobs)
    return run_soak(args.hands or 100_002, args.seed, args.jobs)


if __name__ == "__main__":
    sys.exit(main())
