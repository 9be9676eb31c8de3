"""Hand-analysis speed, side by side with the `mahjong` package on the same seeded hands.

Measures, per hand, the median over repeated batches of:
* win check of 14-tile hands (half random, half winning): ours `is_complete_keys` vs `Agari.is_agari`;
* waits of 13-tile ready hands: ours `waits_mask` vs 21 calls of `is_agari` (one per tile kind);
* shanten of 13- and 14-tile hands: ours `shanten_keys` vs `Shanten.calculate_shanten`.
Ours reads the per-suit keys the game keeps up to date as tiles move (docs/architecture.md §2); the line
"incl. keys_of" also charges ours for building the keys from a 30-count list.

Bars (docs/architecture.md §7): win <= 0.5 us and >= 5x; waits <= 2.5 us and >= 30x; shanten <= 6 us and >= 6x.
Usage: python benchmarks/bench_engine.py [--hands N] [--repeat R]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mahjong.agari import Agari
from mahjong.shanten import Shanten

from engine.analysis import is_complete_keys, keys_of, shanten_keys, waits_mask
from engine.tiles import STANDARD_KINDS, counts_of
from tests.engine.handgen import mixed_hands, random_hand, winning_hand

KINDS = [int(t) for t in STANDARD_KINDS]


def to34(counts: Sequence[int]) -> list[int]:
    out = [0] * 34
    for i in range(9):
        out[9 + i] = counts[i]
        out[18 + i] = counts[9 + i]
    out[31], out[32], out[33] = counts[27], counts[28], counts[29]
    return out


def per_item_median(fn: Callable[[], object], items: int, repeat: int) -> float:
    """Median over ``repeat`` batches of the time per item, in microseconds."""
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t0) / items * 1e6)
    return statistics.median(samples)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=4000)
    ap.add_argument("--repeat", type=int, default=15)
    args = ap.parse_args()
    rng = random.Random(2026)

    wins14: list[list[int]] = []
    while len(wins14) < args.hands:
        h = random_hand(rng, 14) if len(wins14) % 2 == 0 else winning_hand(rng)
        if h is not None:
            wins14.append(h)
    ready13 = []
    for h in mixed_hands(seed=5, count=args.hands * 6, size=13):
        if waits_mask(keys_of(counts_of(h))):
            ready13.append(h)
        if len(ready13) == args.hands:
            break
    shan = mixed_hands(seed=6, count=args.hands // 2, size=13) + mixed_hands(seed=7, count=args.hands // 2, size=14)

    agari = Agari()
    shanten_ref = Shanten()
    rows = []

    keys = [keys_of(counts_of(h)) for h in wins14]
    arrays = [to34(counts_of(h)) for h in wins14]
    counts = [counts_of(h) for h in wins14]
    ours = per_item_median(lambda: [is_complete_keys(k) for k in keys], len(keys), args.repeat)
    ours_full = per_item_median(lambda: [is_complete_keys(keys_of(c)) for c in counts], len(keys), args.repeat)
    ref = per_item_median(lambda: [agari.is_agari(a) for a in arrays], len(keys), args.repeat)
    rows.append(("win check (14 tiles)", ours, ref, 0.5, 5.0))
    rows.append(("  incl. keys_of", ours_full, ref, None, None))

    keys = [keys_of(counts_of(h)) for h in ready13]
    arrays = [to34(counts_of(h)) for h in ready13]
    idx34 = [to34([1 if i == t else 0 for i in range(30)]).index(1) for t in KINDS]

    def ref_waits() -> None:
        for a in arrays:
            for i in idx34:
                if a[i] < 4:
                    a[i] += 1
                    agari.is_agari(a)
                    a[i] -= 1

    ours = per_item_median(lambda: [waits_mask(k) for k in keys], len(keys), args.repeat)
    ref = per_item_median(ref_waits, len(keys), max(3, args.repeat // 3))
    rows.append(("waits (13 tiles, ready)", ours, ref, 2.5, 30.0))

    keys = [keys_of(counts_of(h)) for h in shan]
    arrays = [to34(counts_of(h)) for h in shan]
    ours = per_item_median(lambda: [shanten_keys(k) for k in keys], len(keys), args.repeat)
    ref = per_item_median(
        lambda: [shanten_ref.calculate_shanten(a) for a in arrays], len(keys), max(3, args.repeat // 3)
    )
    rows.append(("shanten (13/14 tiles)", ours, ref, 6.0, 6.0))

    print(f"{'path':28} {'kwx us':>9} {'mahjong us':>11} {'ratio':>8}   bar")
    for name, o, r, bar_us, bar_ratio in rows:
        verdict = ""
        if bar_us is not None and bar_ratio is not None:
            ok = o <= bar_us and r / o >= bar_ratio
            verdict = f"<= {bar_us} us and >= {bar_ratio:g}x: {'PASS' if ok else 'FAIL'}"
        print(f"{name:28} {o:9.3f} {r:11.3f} {r / o:7.1f}x   {verdict}")
    print(f"hands: {len(wins14)} win, {len(ready13)} ready, {len(shan)} shanten; python {sys.version.split()[0]}")


if __name__ == "__main__":
    main()
