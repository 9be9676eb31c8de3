"""Seeded hand generators and an independent brute-force decomposer for differential tests.

The brute force knows nothing of the engine's tables: it removes a pair and then sets from the lowest
tile upward, recursively (docs/rules.md §A7.1), and checks 七对 (A7.2, a quad as two pairs) by counting.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.tiles import STANDARD_KINDS

KINDS = [int(t) for t in STANDARD_KINDS]
WALL = [t for t in KINDS for _ in range(4)]


def _sets_only(counts: list[int], start: int = 0) -> bool:
    i = start
    while i < 30 and counts[i] == 0:
        i += 1
    if i == 30:
        return True
    if counts[i] >= 3:
        counts[i] -= 3
        ok = _sets_only(counts, i)
        counts[i] += 3
        if ok:
            return True
    if i < 27 and i % 9 <= 6 and counts[i + 1] and counts[i + 2]:
        counts[i] -= 1
        counts[i + 1] -= 1
        counts[i + 2] -= 1
        ok = _sets_only(counts, i)
        counts[i] += 1
        counts[i + 1] += 1
        counts[i + 2] += 1
        if ok:
            return True
    return False


def brute_complete(counts: Sequence[int], melds: int = 0) -> bool:
    """Independent win check of 14 - 3*melds concealed tiles."""
    c = list(counts)
    if sum(c) != 14 - 3 * melds:
        return False
    if melds == 0 and all(x % 2 == 0 for x in c):
        return True
    for i in range(30):
        if c[i] >= 2:
            c[i] -= 2
            ok = _sets_only(c)
            c[i] += 2
            if ok:
                return True
    return False


def brute_waits(counts: Sequence[int], melds: int = 0) -> list[int]:
    """Tiles completing 13 - 3*melds concealed tiles (no tile beyond its 4th copy)."""
    out = []
    c = list(counts)
    for t in KINDS:
        if c[t] < 4:
            c[t] += 1
            if brute_complete(c, melds):
                out.append(t)
            c[t] -= 1
    return out


def random_hand(rng: random.Random, n: int) -> list[int]:
    """``n`` tiles drawn from a shuffled 84-tile set."""
    return rng.sample(WALL, n)


def winning_hand(rng: random.Random, sets: int = 4) -> list[int] | None:
    """A random complete hand of ``sets`` sets plus a pair (runs never with dragons), or None."""
    counts = [0] * 30
    for _ in range(sets):
        if rng.random() < 0.5:
            t = rng.choice([k for k in KINDS if k < 27 and k % 9 <= 6])
            tiles = [t, t + 1, t + 2]
        else:
            t = rng.choice(KINDS)
            tiles = [t, t, t]
        for x in tiles:
            counts[x] += 1
    counts[rng.choice(KINDS)] += 2
    if max(counts) > 4:
        return None
    return [t for t in range(30) for _ in range(counts[t])]


def seven_pairs_hand(rng: random.Random) -> list[int]:
    """A random 七对 hand, quads allowed."""
    counts = [0] * 30
    pairs = 0
    while pairs < 7:
        t = rng.choice(KINDS)
        if counts[t] <= 2:
            counts[t] += 2
            pairs += 1
    return [t for t in range(30) for _ in range(counts[t])]


def mixed_hands(seed: int, count: int, size: int) -> list[list[int]]:
    """``count`` hands of ``size`` tiles: one third random, the rest near winning shapes."""
    rng = random.Random(seed)
    out: list[list[int]] = []
    while len(out) < count:
        kind = len(out) % 3
        sets = (size - 1) // 3 if size % 3 != 0 else 0
        hand: list[int] | None
        if kind == 0:
            hand = random_hand(rng, size)
        else:
            hand = winning_hand(rng, sets) if (kind == 1 or size < 13) else seven_pairs_hand(rng)
            if hand is None:
                continue
            if kind == 2 and rng.random() < 0.5:
                hand = winning_hand(rng, sets)
                if hand is None:
                    continue
            if len(hand) > size:  # 13-tile and smaller hands: drop a random tile
                hand.pop(rng.randrange(len(hand)))
            if rng.random() < 0.3:  # perturb: swap one tile for a random one
                i = rng.randrange(len(hand))
                new = rng.choice(KINDS)
                if hand.count(new) < 4:
                    hand[i] = new
        out.append(hand)
    return out
