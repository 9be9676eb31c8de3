"""Readings of a winning hand: every way to read its tiles as sets (docs/rules.md §A7, §A10.1, Appendix 2 step 2).

A *reading* is one decomposition of the winner's 14 - 3k concealed tiles (concealed hand + winning
tile) into one pair (将) and 4 - k sets, combined with the k declared melds; or, with no melds at
all, the 七对 reading (seven pairs, a 4-of-a-kind counting as two pairs, docs/rules.md §A7.2).  Runs are three
consecutive numbers of one suit; dragons (白 發 中) never form runs (docs/rules.md §A7.1, §E#35).

Scoring evaluates the 番 of every reading and keeps the best one (:mod:`engine.fans`,
:mod:`engine.scoring`).  This module is a plain enumerator over 30-count lists (index = ``Tile``), kept
independent of the table-driven win check in :mod:`engine.analysis`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from .tiles import NUM_KINDS, Meld, Tile, format_tiles

__all__ = ["Reading", "is_complete", "readings", "splits", "waits"]


@dataclass(frozen=True, slots=True)
class Reading:
    """One reading of a winning hand.

    Standard reading (``qidui`` False): ``pair`` is the 将, ``pungs`` the concealed pungs (刻子),
    ``runs`` the lowest tile of each concealed run, ``melds`` the declared 碰/杠 (each a pung).
    七对 reading (``qidui`` True): ``pairs`` lists the seven pairs in tile order; a 4-of-a-kind
    appears twice (docs/rules.md §A7.2); ``pair`` is None and ``pungs``/``runs``/``melds`` are empty.
    """

    qidui: bool
    pair: Tile | None = None
    pungs: tuple[Tile, ...] = ()
    runs: tuple[Tile, ...] = ()
    melds: tuple[Meld, ...] = ()
    pairs: tuple[Tile, ...] = ()

    @property
    def longs(self) -> int:
        """Number of 4-of-a-kinds in a 七对 reading (0 = 七对, 1 = 龙, 2 = 双龙, 3 = 三龙); 0 otherwise."""
        return sum(1 for i in range(1, len(self.pairs)) if self.pairs[i] == self.pairs[i - 1])

    def pung_tiles(self) -> tuple[Tile, ...]:
        """Tiles of every pung-like set: concealed pungs plus every 碰/杠 meld."""
        return self.pungs + tuple(m.tile for m in self.melds)

    def __str__(self) -> str:
        """For people, e.g. ``"123p 789p 234s 456s 88s"``; melds in docs/rules.md notation ``[碰 111p]``."""
        if self.qidui:
            groups: list[tuple[Tile, ...]] = []
            for tile in self.pairs:
                if groups and groups[-1][0] == tile:
                    groups[-1] = (tile,) * 4
                else:
                    groups.append((tile, tile))
        else:
            groups = [(t, t, t) for t in self.pungs]
            groups += [(t, Tile(t + 1), Tile(t + 2)) for t in self.runs]
            if self.pair is not None:
                groups.append((self.pair, self.pair))
            groups.sort(key=lambda g: (g[0], len(g)))
        parts = [format_tiles(g) for g in groups]
        parts += [f"[{m.kind.chinese} {format_tiles(m.tiles)}]" for m in self.melds]
        return " ".join(parts)


def _runs_ok(i: int) -> bool:
    """True when tile index ``i`` can start a run (suited, number 1-7)."""
    return i < 27 and i % 9 <= 6


def _sets(counts: list[int], start: int) -> Iterator[list[tuple[bool, int]]]:
    """Every way to split ``counts`` (from index ``start`` on) into sets: (is_run, lowest tile index).

    ``counts`` is modified during the search and restored before each yield returns control.
    """
    i = start
    while i < NUM_KINDS and counts[i] == 0:
        i += 1
    if i == NUM_KINDS:
        yield []
        return
    if counts[i] >= 3:
        counts[i] -= 3
        for rest in _sets(counts, i):
            yield [(False, i), *rest]
        counts[i] += 3
    if _runs_ok(i) and counts[i + 1] and counts[i + 2]:
        counts[i] -= 1
        counts[i + 1] -= 1
        counts[i + 2] -= 1
        for rest in _sets(counts, i):
            yield [(True, i), *rest]
        counts[i] += 1
        counts[i + 1] += 1
        counts[i + 2] += 1


def readings(counts: Sequence[int], melds: Sequence[Meld] = ()) -> list[Reading]:
    """Every reading of a hand whose concealed tiles (incl. the winning tile) have ``counts``.

    ``counts``: 30 counts summing to 14 - 3*len(melds).  Standard readings come first, in a fixed
    order; the 七对 reading (only when there are no melds and every count is 0, 2 or 4) comes last.
    An empty list means the hand is not complete.
    """
    work = list(counts)
    out: list[Reading] = []
    if sum(work) % 3 == 2:
        for p in range(NUM_KINDS):
            if work[p] < 2:
                continue
            work[p] -= 2
            for sets in _sets(work, 0):
                out.append(
                    Reading(
                        qidui=False,
                        pair=Tile(p),
                        pungs=tuple(Tile(t) for is_run, t in sets if not is_run),
                        runs=tuple(Tile(t) for is_run, t in sets if is_run),
                        melds=tuple(melds),
                    )
                )
            work[p] += 2
    if not melds and sum(work) == 14 and all(c % 2 == 0 for c in work):
        pairs = tuple(Tile(t) for t in range(NUM_KINDS) for _ in range(work[t] // 2))
        out.append(Reading(qidui=True, pairs=pairs))
    return out


def is_complete(counts: Sequence[int], num_melds: int = 0) -> bool:
    """True if concealed tiles with ``counts`` (14 - 3*num_melds of them) form a winning shape."""
    work = list(counts)
    total = sum(work)
    if total != 14 - 3 * num_melds:
        return False
    if num_melds == 0 and all(c % 2 == 0 for c in work):
        return True
    return splits(work, 1)


def splits(counts: Sequence[int], pairs: int) -> bool:
    """Whether tiles with ``counts`` (30 counts, any number of tiles) split into complete sets (pungs,
    runs) and exactly ``pairs`` pairs, ``pairs`` 0 or 1 (docs/rules.md §A7.1); negative counts never split."""
    work = list(counts)
    if any(c < 0 for c in work) or pairs not in (0, 1):
        return False
    if pairs == 0:
        return next(_sets(work, 0), None) is not None
    for p in range(NUM_KINDS):
        if work[p] >= 2:
            work[p] -= 2
            found = next(_sets(work, 0), None) is not None
            work[p] += 2
            if found:
                return True
    return False


def waits(counts: Sequence[int], melds: Sequence[Meld] = ()) -> tuple[Tile, ...]:
    """The tiles that complete a 13 - 3k tile concealed hand (docs/rules.md §A7.4, Appendix 2 last line).

    A tile of which the player already holds all 4 copies (concealed or in melds) is not a wait.
    """
    held = list(counts)
    for m in melds:
        held[m.tile] += m.kind.size
    work = list(counts)
    out: list[Tile] = []
    for t in range(NUM_KINDS):
        if held[t] >= 4:
            continue
        work[t] += 1
        if is_complete(work, len(melds)):
            out.append(Tile(t))
        work[t] -= 1
    return tuple(out)
