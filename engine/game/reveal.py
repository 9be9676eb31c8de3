"""Partial reveals at 亮倒: ``liangdao_reveal = kou`` (暗铺) and ``minimal`` (廊起) (docs/rules.md §A9.2,
§B, §E#48).

A reveal splits the 13 - 3*melds tiles a seat keeps after its 亮倒 discard into the shown tiles R and
the hidden tiles H.  Its waits are (docs/rules.md §E#48)

    W(R, H) = {t : R + t and H each split into complete sets and pairs, with exactly one pair in all
               (or, without melds, R + t and H are all pairs: 七对 / 龙七对)}

minus the tiles whose four copies the seat holds itself (concealed and melds).  The waits are W,
whatever else the concealed hand could have waited on: the shown shape fixes which tiles win.

* ``minimal`` (廊起): R is legal iff W(R, H) is not empty (then H necessarily splits into sets and
  pairs).  Showing the whole hand is always legal and gives the hand's full waits.
* ``kou`` (暗铺): H is any number of concealed triplets (three identical tiles) whose hiding leaves the
  wait set unchanged (W(R, H) = the hand's full waits); H empty is the whole hand.
* ``full``: the whole hand (H empty).

Decision (docs/rules.md §E#48): a reveal is given as the shown tiles; the ``play`` form is
``"reveal": "<tiles in notation>"`` and a missing reveal means the whole hand.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Sequence
from functools import lru_cache

from ..rules import LiangdaoReveal
from ..tiles import NUM_KINDS, Meld, Tile

__all__ = ["RevealFault", "kong_hidden", "legal_reveals", "reveal_fault", "reveal_problem", "reveal_waits"]

_TILES = tuple(Tile)
_SUITED = 27  # tiles 0..26 are suited (runs possible within each block of 9)
_RUN = (0, 1, 2)
"""The offsets of a run (顺子): three consecutive tiles of one suit."""


def _runs_ok(t: int) -> bool:
    return t < _SUITED and t % 9 <= 6


@lru_cache(maxsize=1 << 16)
def _split(counts: tuple[int, ...], pairs: int) -> bool:
    """Whether ``counts`` splits into complete sets (pungs, runs) and exactly ``pairs`` pairs."""
    t = next((i for i, n in enumerate(counts) if n), -1)
    if t < 0:
        return pairs == 0
    c = list(counts)
    if c[t] >= 3:
        c[t] -= 3
        if _split(tuple(c), pairs):
            return True
        c[t] += 3
    if pairs and c[t] >= 2:
        c[t] -= 2
        if _split(tuple(c), pairs - 1):
            return True
        c[t] += 2
    if _runs_ok(t) and c[t + 1] and c[t + 2]:
        c[t] -= 1
        c[t + 1] -= 1
        c[t + 2] -= 1
        if _split(tuple(c), pairs):
            return True
    return False


def _all_pairs(counts: Sequence[int]) -> bool:
    return all(n % 2 == 0 for n in counts)


@lru_cache(maxsize=1 << 16)
def _waits(shown: tuple[int, ...], hidden: tuple[int, ...], melds: int, full: tuple[int, ...]) -> tuple[Tile, ...]:
    hidden_sets = _split(hidden, 0)
    hidden_pair = _split(hidden, 1)
    hidden_pairs = melds == 0 and _all_pairs(hidden)
    out = []
    for t in range(NUM_KINDS):
        if full[t] >= 4:
            continue
        c = list(shown)
        c[t] += 1
        r = tuple(c)
        if (
            (hidden_sets and _split(r, 1))
            or (hidden_pair and _split(r, 0))
            or (hidden_pairs and sum(r) + sum(hidden) == 14 and _all_pairs(r))
        ):
            out.append(_TILES[t])
    return tuple(out)


def reveal_waits(shown: Sequence[int], hidden: Sequence[int], melds: Sequence[Meld]) -> tuple[Tile, ...]:
    """W(R, H) of the module docstring, in tile order.  ``shown``/``hidden``: 30 counts of R and H;
    ``melds``: the seat's melds (their tiles count toward "all four held")."""
    full = [a + b for a, b in zip(shown, hidden, strict=True)]
    for m in melds:
        full[m.tile] += m.kind.size
    return _waits(tuple(shown), tuple(hidden), len(melds), tuple(full))


def _sub(a: Sequence[int], b: Sequence[int]) -> tuple[int, ...]:
    return tuple(x - y for x, y in zip(a, b, strict=True))


def _hidden_candidates(kept: tuple[int, ...], melds: int) -> Iterator[tuple[int, ...]]:
    """Every H drawn from ``kept`` that splits into sets and at most one pair, or (no melds) into
    pairs only: the only H with a non-empty W.  Each H once."""
    seen: set[tuple[int, ...]] = set()

    def grow(h: list[int], start: int, pair: bool) -> Iterator[tuple[int, ...]]:
        key = tuple(h)
        if key not in seen:
            seen.add(key)
            yield key
        for t in range(start, NUM_KINDS):
            room = kept[t] - h[t]
            if room >= 3:
                h[t] += 3
                yield from grow(h, t, pair)
                h[t] -= 3
            if not pair and room >= 2:
                h[t] += 2
                yield from grow(h, t, True)
                h[t] -= 2
            if _runs_ok(t) and room >= 1 and kept[t + 1] > h[t + 1] and kept[t + 2] > h[t + 2]:
                for d in _RUN:
                    h[t + d] += 1
                yield from grow(h, t, pair)
                for d in _RUN:
                    h[t + d] -= 1

    yield from grow([0] * NUM_KINDS, 0, False)
    if melds == 0:

        def pairs(h: list[int], start: int) -> Iterator[tuple[int, ...]]:
            key = tuple(h)
            if key not in seen:
                seen.add(key)
                yield key
            for t in range(start, NUM_KINDS):
                if kept[t] - h[t] >= 2:
                    h[t] += 2
                    yield from pairs(h, t)
                    h[t] -= 2

        yield from pairs([0] * NUM_KINDS, 0)


@lru_cache(maxsize=1 << 12)
def _legal(kept: tuple[int, ...], melds: tuple[Meld, ...], mode: LiangdaoReveal) -> tuple[tuple[Tile, ...], ...]:
    full_waits = reveal_waits(kept, (0,) * NUM_KINDS, melds)
    if mode is LiangdaoReveal.FULL:
        return ()
    out = []
    if mode is LiangdaoReveal.KOU:
        triplets = [t for t, n in enumerate(kept) if n >= 3]
        for bits in range(1, 1 << len(triplets)):
            hidden = [0] * NUM_KINDS
            for k, t in enumerate(triplets):
                if bits >> k & 1:
                    hidden[t] = 3
            shown = _sub(kept, hidden)
            if reveal_waits(shown, hidden, melds) == full_waits:
                out.append(_tiles_of(shown))
        return tuple(out)
    for candidate in _hidden_candidates(kept, len(melds)):
        if not any(candidate):
            continue
        shown = _sub(kept, candidate)
        if reveal_waits(shown, candidate, melds):
            out.append(_tiles_of(shown))
    out.sort(key=lambda r: (len(r), r))
    return tuple(out)


def _tiles_of(counts: Sequence[int]) -> tuple[Tile, ...]:
    return tuple(_TILES[t] for t, n in enumerate(counts) for _ in range(n))


def legal_reveals(kept: Sequence[int], melds: Sequence[Meld], mode: LiangdaoReveal) -> tuple[tuple[Tile, ...], ...]:
    """The partial reveals a seat keeping ``kept`` (30 counts, after its 亮倒 discard) may show under
    ``mode``, each as its shown tiles in tile order, fewest tiles first; the whole hand is not listed
    (it is always legal and is the reveal of a 亮倒 that names none).  Empty under ``full``."""
    return _legal(tuple(kept), tuple(melds), mode)


class RevealFault(enum.Enum):
    """Why a set of shown tiles is not a legal reveal (docs/rules.md §A9.2, §E#48); values are stable
    machine names."""

    NOT_IN_HAND = "not_in_hand"  # the shown tiles are not all in the hand kept after the discard
    WHOLE_HAND_ONLY = "whole_hand_only"  # liangdao_reveal = full: the whole hand is shown
    KOU_TRIPLETS_ONLY = "kou_triplets_only"  # 暗铺: only concealed triplets may stay face down
    KOU_CHANGES_WAITS = "kou_changes_waits"  # 暗铺: hiding these triplets changes the waits
    HIDDEN_INCOMPLETE = "hidden_incomplete"  # 廊起: the hidden tiles do not split into sets and pairs
    NO_WAIT = "no_wait"  # 廊起: no tile completes the shown tiles together with the hidden ones


_FAULT_TEXT = {
    RevealFault.NOT_IN_HAND: "the reveal names tiles that are not in the hand kept after the discard",
    RevealFault.WHOLE_HAND_ONLY: "under liangdao_reveal = full the whole hand is shown (docs/rules.md §A9.2)",
    RevealFault.KOU_TRIPLETS_ONLY: (
        "暗铺 (liangdao_reveal = kou) keeps only concealed triplets face down (docs/rules.md §A9.2)"
    ),
    RevealFault.KOU_CHANGES_WAITS: (
        "hiding these triplets changes the waits, so they must be shown (docs/rules.md §A9.2)"
    ),
    RevealFault.HIDDEN_INCOMPLETE: (
        "the hidden tiles must split into complete sets and pairs; show the tiles that are "
        "not part of a complete set (docs/rules.md §E#48)"
    ),
    RevealFault.NO_WAIT: (
        "no tile completes the shown tiles together with the hidden ones (exactly one pair in all, "
        "or all pairs for 七对); show the tiles that define the wait (docs/rules.md §E#48)"
    ),
}


def reveal_fault(
    kept: Sequence[int], shown: Sequence[int], melds: Sequence[Meld], mode: LiangdaoReveal
) -> RevealFault | None:
    """Why showing ``shown`` (30 counts) of ``kept`` is not a legal reveal under ``mode``, as a
    :class:`RevealFault`; None when it is legal (docs/rules.md §A9.2, §E#48)."""
    if any(s > k for s, k in zip(shown, kept, strict=True)):
        return RevealFault.NOT_IN_HAND
    if tuple(shown) == tuple(kept):
        return None
    if mode is LiangdaoReveal.FULL:
        return RevealFault.WHOLE_HAND_ONLY
    hidden = _sub(kept, shown)
    if mode is LiangdaoReveal.KOU:
        if any(n not in (0, 3) for n in hidden):
            return RevealFault.KOU_TRIPLETS_ONLY
        if reveal_waits(shown, hidden, melds) != reveal_waits(kept, (0,) * NUM_KINDS, melds):
            return RevealFault.KOU_CHANGES_WAITS
        return None
    if not reveal_waits(shown, hidden, melds):
        if not any(_split(hidden, pairs) for pairs in range(8)):
            return RevealFault.HIDDEN_INCOMPLETE
        return RevealFault.NO_WAIT
    return None


def reveal_problem(
    kept: Sequence[int], shown: Sequence[int], melds: Sequence[Meld], mode: LiangdaoReveal
) -> str | None:
    """Why showing ``shown`` (30 counts) of ``kept`` is not a legal reveal under ``mode``, in words
    (:func:`reveal_fault` spelled out); None when it is legal (docs/rules.md §A9.2, §E#48)."""
    fault = reveal_fault(kept, shown, melds, mode)
    return None if fault is None else _FAULT_TEXT[fault]


def kong_hidden(hidden: Sequence[int], tile: int, copies: int) -> tuple[int, ...]:
    """The hidden part after a 亮倒 seat takes ``copies`` of ``tile`` out of its concealed hand for a
    kong: they come from the hidden tiles first (a 暗铺 triplet stays a concealed set, docs/rules.md
    §A9.2), the rest from the shown tiles."""
    h = list(hidden)
    h[tile] -= min(h[tile], copies)
    return tuple(h)
