"""Build ``engine/data/suit_distance.bin.zlib``, the per-suit distance table behind shanten.

For every base-5 suit key ``k`` (nine digits 0-4, the counts of tiles 1-9 of one suit, digit ``i``
worth ``5**i``) and every target shape of ``m`` sets (0-4) and ``h`` pairs (0-1), the table holds the
least number of tiles that must be *added* to ``k`` so that it contains ``m`` sets (runs or pungs)
plus ``h`` pairs, with no tile count above 4:

    d(k, m, h) = min over targets t of  sum_i max(0, t_i - k_i)

It is computed as ``F(k) - |k|`` where ``F(k)`` is the smallest tile count of a key ``j >= k``
(digit-wise) that contains a target; "contains a target" is the downward closure of the exact
targets (a prefix maximum along each digit axis) and ``F`` is a suffix minimum along each axis.
Entries for keys holding more than 14 tiles are stored as 0 (a hand never has them).

Layout: 5**9 records of 10 bytes, record ``k`` at offset ``10*k``, byte ``2*m + h``; zlib level 9.
Needs numpy (a test dependency); the engine itself only reads the file with the standard library.

Usage: python tools/build_shanten_table.py [OUT]
"""

from __future__ import annotations

import sys
import zlib
from itertools import combinations_with_replacement
from pathlib import Path

import numpy as np

DIGITS = 9
N = 5**DIGITS
POW = [5**i for i in range(DIGITS)]


def _sets() -> list[list[int]]:
    out = []
    for i in range(DIGITS):
        c = [0] * DIGITS
        c[i] = 3
        out.append(c)
    for i in range(DIGITS - 2):
        c = [0] * DIGITS
        c[i] = c[i + 1] = c[i + 2] = 1
        out.append(c)
    return out


def exact_targets(m: int, h: int) -> set[int]:
    """Keys of exactly ``m`` sets plus ``h`` pairs in one suit (counts <= 4)."""
    keys: set[int] = set()
    sets = _sets()
    for combo in combinations_with_replacement(range(len(sets)), m):
        base = [0] * DIGITS
        for s in combo:
            base = [a + b for a, b in zip(base, sets[s], strict=True)]
        pairs = range(DIGITS) if h else [None]
        for p in pairs:
            c = list(base)
            if p is not None:
                c[p] += 2
            if max(c) <= 4:
                keys.add(sum(d * w for d, w in zip(c, POW, strict=True)))
    return keys


def build() -> bytes:
    flat_keys = np.arange(N, dtype=np.int64)
    digits = [(flat_keys // w) % 5 for w in POW]
    size = sum(digits).astype(np.int16)
    out = np.zeros((N, 10), dtype=np.uint8)
    shape = (5,) * DIGITS
    for m in range(5):
        for h in range(2):
            exact = np.zeros(N, dtype=bool)
            exact[list(exact_targets(m, h))] = True
            e = exact.reshape(shape)
            for axis in range(DIGITS):
                e = np.maximum.accumulate(e, axis=axis)
            g = np.where(e, size.reshape(shape), np.int16(99))
            for axis in range(DIGITS):
                g = np.flip(np.minimum.accumulate(np.flip(g, axis=axis), axis=axis), axis=axis)
            dist = g.reshape(N) - size
            assert dist.min() >= 0 and dist.max() <= 14
            dist[size > 14] = 0
            out[:, 2 * m + h] = dist.astype(np.uint8)
    return zlib.compress(out.tobytes(), 9)


def main() -> None:
    default = Path(__file__).resolve().parent.parent / "engine" / "data" / "suit_distance.bin.zlib"
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else default
    data = build()
    target.write_bytes(data)
    print(f"wrote {target} ({len(data)} bytes)")


if __name__ == "__main__":
    main()
