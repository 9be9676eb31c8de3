"""AI self-play: speed, strength and a long invariant-checked soak (docs/architecture.md §7).

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
    player's winning tile, 包胡 docs/rules.md §A9.7) per 1,000 hands.
``soak``
    Long self-play with every invariant checked after every event (``simulate(check=True)``): tile
    conservation, decide == step, replay(events) == state, zero-sum payments and kong money — over
    level mixes and rule variants.  Default 100,002 hands.  Exit status 1 on any rule error.

``tune --a JSON [--b JSON]``
    A variant of ``normal`` (``Tuning`` fields as JSON, e.g. ``'{"liangdao_other_win": 5.5}'``)
    against two copies of ``--b`` (default: the defaults), duplicate seating; prints A's points per
    hand and A - B with 95% CIs.  Default 12,000 hands.

``--jobs`` runs that many worker processes (default 2) for ``strength``, ``soak`` and ``tune``.

Results (this 2-core machine, shared with other jobs; Python 3.11.7; engine.ai at the commit of this
docstring; points = 底金 per hand, kong money included; ± = 95% CI, cluster-robust over deals)
-----------------------------------------------------------------------------------------------

``python benchmarks/bench_selfplay.py speed --hands 3000``::

    easy:    547 hands/s on one core (CPU time)  -> bar >= 500: PASS; 20.6 decisions/hand
             start 4.1% | legal_actions 11.2% | view_for 22.9% | step 42.8% | choose_action 19.0%
    normal:   97 hands/s on one core; 28.7 decisions/hand; choose_action 78% of the time
             (有效牌: one shanten per candidate discard and per tile that could be drawn; since
             then 1.6-1.7x faster by engine.analysis.lowering_draws, see README "AI levels")

    cProfile of easy self-play (1,000 fresh deals), cumulative share of the time:
      engine/game/machine.py:step 43% = evolve 18% (state.py:updated 9%) + _window_options 7%
        + win scoring (scoring.py:score_win, 8% in all: legality of every discard that completes a
        hand, and the final result) + _validate 3%
      engine/game/views.py:view_for 24% = public_view 13% (_public_seat 9%) + state.py:tiles 5%
      engine/game/machine.py:legal_actions 15% (_turn_actions 14%: actions.py:action 4%,
        _liangdao_waits 3%)
      engine/ai/players.py:choose_action 18%;  machine.py:start 4% (shuffle.deal 3%)

``python benchmarks/bench_selfplay.py strength --hands 21000 --jobs 2 --seed strength-2``::

    match                 player  points/hand      diff vs other     win%  点炮%  亮倒%  feeds/1000 (forced)
    normal,random,random  normal  +2.891 ±0.042   +4.336 ±0.068     67.5    0.1   15.5    0.0 (0.0)
                          random  -1.445 ±0.033                      2.4   16.2    6.0   67.1 (0.0)  荒庄 27.8%
    normal,greedy,greedy  normal  +0.965 ±0.045   +1.485 ±0.080     43.8    0.8   13.5    0.4 (0.4)
                          greedy  -0.519 ±0.049                     27.4   27.2   63.8  119.4 (0.0)  荒庄 2.6%
    greedy,normal,normal  greedy  -1.193 ±0.052   -1.800 ±0.086     17.7   31.1   65.3   83.9 (0.0)
                          normal  +0.607 ±0.042                     39.6    4.0   15.3    0.2 (0.2)  荒庄 4.3%
    normal,easy,easy      normal  +0.556 ±0.064   +0.833 ±0.095     42.4    1.8   13.8    0.7 (0.7)
                          easy    -0.278 ±0.032                     28.1   19.6   75.1    0.1 (0.1)  荒庄 2.9%
    easy,normal,normal    easy    -0.722 ±0.067   -1.083 ±0.101     22.5   25.5   77.7    0.1 (0.1)
                          normal  +0.361 ±0.034                     37.2    4.2   15.0    0.2 (0.2)  荒庄 4.1%
    greedy,greedy,greedy  greedy  -0.012 ±0.051                     33.0   22.8   60.7  152.8 (0.0)  荒庄 1.5%
    normal,normal,normal  normal  +0.000 ±0.000                     31.1    7.3   18.4    0.2 (0.2)  荒庄 7.1%
    rule errors: 0 in every match (147,000 hands)

    normal beats random and greedy (and easy) on points per hand, alone or in the majority; it feeds
    亮倒 players only when every legal discard would (0.2-0.7 per 1,000 hands, all forced), greedy
    83.9-152.8 per 1,000 hands.  (An earlier run, seed strength-1, gave the same picture:
    normal +1.013 ±0.048 vs two greedy, +2.923 ±0.044 vs two random.)

``python benchmarks/bench_selfplay.py soak --hands 100002 --jobs 2 --seed soak-1``::

    soak: 100224 hands over 8 rule variants x 6 level mixes, every event checked (tile conservation,
    decide == step, replay == state, zero-sum payments and kong money); rule errors: 0; 374 s

Tuning of ``normal`` (``tune``; A = one variant vs two B; A - B points/hand ± 95% CI)::

    亮倒 cost weight (liangdao_other_win), the one knob that mattered:
      B = 0.5 (first draft, 亮倒 in 68% of hands), 3,000 hands: never 亮倒 +0.41 ±0.21, 1.5 +0.19 ±0.13,
          3.0 +0.41 ±0.18, 6.0 +0.39 ±0.20
      B = 3.0, 12,000 hands: 2.3 -0.12 ±0.06, 4.0 +0.05 ±0.04, never 亮倒 +0.00 ±0.07
      B = 4.0 (default), 12,000 hands: 5.5 +0.01 ±0.05, 8.0 -0.00 ±0.06
    flat around the defaults (B = 3.0, 3,000-6,000 hands): shanten_cost 2.5 -0.20 ±0.15, 3.5 -0.02 ±0.08;
      defence 0 -0.06 ±0.25, 2 -0.15 ±0.14, 3 -0.18 ±0.17; defence_early 0 -0.02 ±0.09, 0.8 -0.06 ±0.09;
      qidui_factor 1 -0.01 ±0.07, 6 -0.08 ±0.10; pengpeng_factor 1 -0.04 ±0.04, 2.5 -0.04 ±0.04;
      ron_factor 2.5 +0.04 ±0.05; kawuxing_factor 1.6 -0.07 ±0.07; sanyuan_factor 1 -0.01 ±0.03;
      liangdao_hidden_ron 0 -0.03 ±0.06, 1.5 -0.03 ±0.04; liangdao_ron 0.6 -0.04 ±0.04
    Why 亮倒 costs so much against players who defend: they never feed the published waits, while
    the frozen hand's 摸打 discards are open to any of their hands (a 屁胡 may win on a 亮倒
    discarder, ×2): in 1,500 hands of normal self-play (weight 3.0) 68% of the discard wins were
    taken off 亮倒 discarders.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.ai import Level, Tuning, choose_action
from engine.ai.selfplay import Simulation, ai_agent, simulate
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


# ============================================================================ tune


def _tune_job(args: tuple[dict[str, object], dict[str, object], int, str, int]) -> Simulation:
    a, b, hands, seed, start_index = args
    rules = RuleSet()
    agents = [ai_agent(Level.NORMAL, rules, Tuning(**a))] + [ai_agent(Level.NORMAL, rules, Tuning(**b))] * 2  # type: ignore[arg-type]
    return simulate(
        [Level.NORMAL] * 3, hands, seed, rules, agents=agents, labels=["A", "B", "B"], start_index=start_index
    )


def run_tune(a: dict[str, object], b: dict[str, object], hands: int, seed: str, jobs: int) -> int:
    blocks = -(-hands // 6)
    per = -(-blocks // jobs) * 6
    tasks = [(a, b, min(per, hands - lo), seed, lo) for lo in range(0, hands, per)]
    with multiprocessing.Pool(jobs) as pool:
        sim = _merge(pool.map(_tune_job, tasks))
    s = sim.summary()
    mean, ci = sim.mean_ci(0)
    diff, dci = sim.diff_ci(0, 1)
    pa, pb = s.players[0], s.players[1]
    print(
        f"A={a} vs 2 x B={b}, {s.hands} hands: A {mean:+.3f} ±{ci:.3f} points/hand, A - B {diff:+.3f} ±{dci:.3f}; "
        f"win A {pa.wins / s.hands:.3f} B {pb.wins / s.hands:.3f}; 亮倒 A {pa.liangdao / s.hands:.2f} "
        f"B {pb.liangdao / s.hands:.2f}; 点炮 A {pa.dealt_in / s.hands:.3f} B {pb.dealt_in / s.hands:.3f}; "
        f"rule errors {len(s.errors)}"
    )
    return 1 if s.errors else 0


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
    ap.add_argument("cmd", nargs="?", default="speed", choices=("speed", "strength", "soak", "tune"))
    ap.add_argument("--a", default="{}", help="tune: Tuning fields of the variant (JSON)")
    ap.add_argument("--b", default="{}", help="tune: Tuning fields of the two opponents (JSON)")
    ap.add_argument("--hands", type=int, default=None)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", default="bench")
    args = ap.parse_args(argv)
    if args.cmd == "speed":
        return run_speed(args.hands or 3000, args.seed)
    if args.cmd == "tune":
        return run_tune(json.loads(args.a), json.loads(args.b), args.hands or 12000, args.seed, args.jobs)
    if args.cmd == "strength":
        return run_strength(args.hands or 21000, args.seed, args.jobs)
    return run_soak(args.hands or 100_002, args.seed, args.jobs)


if __name__ == "__main__":
    sys.exit(main())
