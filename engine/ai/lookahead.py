"""The 自摸 look-ahead: what a not-yet-ready hand is worth over the seat's own next draws, by Monte
Carlo (docs/architecture.md §2 "AI").

:func:`discard_values` ``(hands, melds, rules, unseen, draws, others, ron_any, rng, futures)`` —
for each candidate 13 - 3k tile hand (what a discard would leave), the expected points of 底金 it wins
over the seat's next ``draws`` draws, estimated from ``futures`` random sequences of draws:

* the draws are taken, without replacement, from the tiles the seat cannot see (``unseen``: the
  wall and the other hands, as the seat cannot tell them apart); every candidate meets the same
  sequences (common random numbers), so their differences are much less noisy than their values;
* the hand plays greedily: a draw that lowers the shanten is kept (the discard keeping the lower
  shanten with the most 有效牌 goes; on becoming ready, the one with the most live waits times
  their 番), any other draw is discarded at once;
* a ready hand wins on a drawn wait (自摸: its 番, :func:`engine.ai.hand.pattern_value`, from each
  of the ``others`` seats) or, for a wait of 番 >= 2 (any wait when ``ron_any``: a 屁胡 wins on a 亮倒
  seat's discard, docs/rules.md §A8.2), on another seat's discard — in expectation, each other
  seat discarding one of its live waits with probability :data:`RON_SHARE` times their share of the
  unseen tiles, paid by that seat alone;
* the hand may end first: each other seat wins on each of its turns with probability
  :data:`HAZARD`, and the value of a win after ``k`` rounds is weighted by the chance that nobody
  else won before.

The ``strong`` level's prior uses it for the discards of a hand one step from ready (1-shanten), at
the tables where it was measured to pay (:class:`engine.ai.players.Tuning` ``lookahead``); the
look-ahead ignores 亮倒, kongs, 碰 and the others' danger, which the prior's other terms weigh.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from ..analysis import Keys, lowering_draws, shanten_after_discards, waits_mask
from ..rules import RuleSet
from ..tiles import NUM_KINDS
from ..views import MeldView
from .hand import minus, pattern_value, plus, ukeire_total

__all__ = ["HAZARD", "RON_SHARE", "discard_values"]

HAZARD = 0.025
"""The chance that another seat wins on one of its turns (a constant: about a third of the hands
won by each of two other seats over some 15 turns at 3 seats)."""

RON_SHARE = 0.5
"""How much less often than a random tile another seat discards one of the hand's waits (it keeps
what it needs and avoids what looks dangerous)."""


class _Futures:
    """One decision's look-ahead: the shared caches of the hands met in its futures."""

    __slots__ = (
        "_improve",
        "_lowering",
        "_ready",
        "live",
        "melds",
        "memo",
        "nm",
        "others",
        "ron_any",
        "rules",
        "unseen",
    )

    def __init__(
        self, melds: Sequence[MeldView], rules: RuleSet, unseen: Sequence[int], others: int, ron_any: bool
    ) -> None:
        self.melds = melds
        self.nm = len(melds)
        self.rules = rules
        self.unseen = unseen
        self.others = others
        self.ron_any = ron_any
        self.live = sum(1 << t for t in range(NUM_KINDS) if unseen[t])
        self.memo: dict[tuple[int, ...], tuple[int, ...]] = {}
        self._lowering: dict[tuple[Keys, int], int] = {}
        self._ready: dict[Keys, tuple[dict[int, int], float, float]] = {}
        self._improve: dict[Keys, int] = {}

    def lowering(self, keys: Keys, shanten: int, counts: Sequence[int]) -> int:
        """Bit mask of the live draws that lower the shanten of ``keys`` (held four times: none)."""
        found = self._lowering.get((keys, shanten))
        if found is None:
            full = 0
            for t in range(NUM_KINDS):
                if counts[t] >= 4:
                    full |= 1 << t
            found = lowering_draws(keys, self.nm, shanten, self.live & ~full, self.memo)
            self._lowering[(keys, shanten)] = found
        return found

    def ready(self, keys: Keys, counts: list[int]) -> tuple[dict[int, int], float, float]:
        """A ready hand's (番 of each live wait, expected 番 of a discard won on / share, share of the
        unseen tiles that another seat's discard would win)."""
        found = self._ready.get(keys)
        if found is None:
            values: dict[int, int] = {}
            ron_value = ron_copies = 0.0
            mask = waits_mask(keys, self.nm)
            for w in range(NUM_KINDS):
                if mask >> w & 1 and self.unseen[w]:
                    counts[w] += 1
                    v = pattern_value(counts, plus(keys, w), self.melds, w, self.rules)
                    counts[w] -= 1
                    if v > 0:
                        values[w] = v
                        if v >= 2 or self.ron_any:
                            ron_value += self.unseen[w] * v
                            ron_copies += self.unseen[w]
            total = max(1, sum(self.unseen))
            found = self._ready[keys] = (values, ron_value / total, ron_copies / total)
        return found

    def improve(self, keys14: Keys, counts: list[int], shanten: int) -> int:
        """The discard of a 14 - 3k tile hand that keeps ``shanten`` (its 13 - 3k tile shanten after
        the best discard) and leaves the most: live waits times 番 when ready, 有效牌 otherwise."""
        found = self._improve.get(keys14)
        if found is None:
            kinds = [t for t in range(NUM_KINDS) if counts[t]]
            after = shanten_after_discards(keys14, self.nm, kinds, self.memo)
            best_score = -1.0
            found = kinds[0]
            for t in kinds:
                if after[t] != shanten:
                    continue
                rest = minus(keys14, t)
                counts[t] -= 1
                if shanten == 0:
                    values, ron_value, _ = self.ready(rest, counts)
                    score = sum(self.unseen[w] * v for w, v in values.items()) + 2.0 * ron_value
                else:
                    score = float(ukeire_total(self.lowering(rest, shanten, counts), self.unseen))
                counts[t] += 1
                if score > best_score:
                    found, best_score = t, score
            self._improve[keys14] = found
        return found

    def play(self, keys: Keys, counts: list[int], shanten: int, draws: Sequence[int]) -> float:
        """Expected points of 底金 of one future: the hand ``keys`` (``counts``) drawing ``draws``."""
        others = self.others
        survive = (1.0 - HAZARD) ** others
        alive = 1.0
        value = 0.0
        counts = list(counts)
        good = self.lowering(keys, shanten, counts)
        waits: dict[int, int] = {}
        for t in draws:
            if shanten == 0:
                waits, ron_value, ron_share = self.ready(keys, counts)
                value += alive * RON_SHARE * ron_value * others
                alive *= max(0.0, 1.0 - RON_SHARE * ron_share * others)
            alive *= survive
            if not good >> t & 1:
                continue
            if shanten == 0:
                fan = waits.get(t, 0)  # 0: the tile completes no winning hand
                if fan:
                    return value + alive * fan * others
                continue
            keys14 = plus(keys, t)
            counts[t] += 1
            shanten -= 1
            out = self.improve(keys14, counts, shanten)
            counts[out] -= 1
            keys = minus(keys14, out)
            good = self.lowering(keys, shanten, counts) if shanten else sum(1 << w for w in self.ready(keys, counts)[0])
        return value


def discard_values(
    hands: Mapping[int, tuple[Keys, list[int], int]],
    melds: Sequence[MeldView],
    rules: RuleSet,
    unseen: Sequence[int],
    draws: int,
    others: int,
    ron_any: bool,
    rng: random.Random,
    futures: int,
) -> dict[int, float]:
    """The expected points of 底金 (module docstring) of each candidate discard.

    ``hands``: discard tile -> (the keys, the 30 counts and the shanten of the 13 - 3k tiles it
    leaves; shanten >= 0).  ``melds``: the seat's melds.  ``unseen``: 30 counts of the tiles the
    seat cannot see.  ``draws``: the seat's draws left (>= 1).  ``others``: the other seats (who pay
    a 自摸).  ``ron_any``: another seat has declared 亮倒, so a 屁胡 wins on its discards.  ``rng``
    draws the ``futures`` sequences (>= 1), shared by the candidates.  Pure: the answer depends on
    its arguments and ``rng``'s state only."""
    pool = [t for t in range(NUM_KINDS) for _ in range(unseen[t])]
    length = min(draws, len(pool))
    sequences = [rng.sample(pool, length) for _ in range(futures)]
    sim = _Futures(melds, rules, unseen, others, ron_any)
    out: dict[int, float] = {}
    for tile, (keys, counts, shanten) in hands.items():
        out[tile] = sum(sim.play(keys, counts, shanten, s) for s in sequences) / futures
    return out
