"""Game state machine: seeded random self-play, with and without the invariant checks.

1. ``checked``: N whole hands (default 10,000) over ten rule variants, half uniform-random and half
   eager policy, with every invariant of ``tests/engine/test_game_selfplay.py`` asserted after every
   event (tile conservation, ``reduce(evolve, events) == state``, sampled legal actions accepted,
   exact ``legal_actions`` at 0.4% of positions, no hidden tiles in views, zero-sum money, JSON replay).
2. ``bare``: standard rules, uniformly random legal actions through ``legal_actions`` + ``step`` only
   (what an AI self-play loop pays for the rules, without the AI), in hands per second on one core.

Usage: ``python benchmarks/bench_game_selfplay.py [--hands N] [--bare N]``.  Exit status 1 on any
invariant failure (the failing seed and rule variant are printed).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.game import legal_actions, replay, start, step
from engine.rules import RuleSet
from tests.engine.test_game_selfplay import RULE_VARIANTS, Stats, eager_policy, play_hand, uniform_policy


def checked(n: int) -> int:
    stats = Stats()
    rng = random.Random(1)
    t0 = time.perf_counter()
    c0 = time.process_time()
    for i in range(n):
        rules = RULE_VARIANTS[i % len(RULE_VARIANTS)]
        try:
            play_hand(
                f"bench-{i}", rules, rng, eager_policy if i % 2 else uniform_policy, exact_every=0.004, stats=stats
            )
        except AssertionError as exc:
            print(f"FAILED at hand {i} (seed 'bench-{i}', rule variant {i % len(RULE_VARIANTS)}): {exc!r}")
            return 1
    dt = time.perf_counter() - t0
    cpu = time.process_time() - c0
    print(f"checked: {n} hands in {dt:.1f} s wall, {cpu:.1f} s CPU ({n / cpu:.0f} hands/s CPU) with every invariant")
    print(f"  {stats}")
    return 0


def bare(n: int) -> None:
    rules = RuleSet()
    rng = random.Random(2)
    t0 = time.perf_counter()
    c0 = time.process_time()
    decisions = 0
    for i in range(n):
        state = replay(start(rules, i % 3, seed=f"bare-{i}"))
        while not state.over:
            acts = [a for s in state.to_act() for a in legal_actions(state, s)]
            state, _ = step(state, rng.choice(acts))
            decisions += 1
    dt = time.perf_counter() - t0
    cpu = time.process_time() - c0
    print(
        f"bare: {n} hands in {dt:.2f} s = {n / dt:.0f} hands/s wall, {n / cpu:.0f} hands/s CPU "
        f"({decisions / n:.0f} decisions per hand, {cpu / decisions * 1e6:.0f} us CPU per legal_actions + step)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--bare", type=int, default=3_000)
    args = parser.parse_args()
    if args.bare > 0:
        bare(args.bare)
    return checked(args.hands) if args.hands > 0 else 0


if __name__ == "__main__":
    sys.exit(main())
