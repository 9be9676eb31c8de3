"""Small hand helpers shared by the state machine and the views (30-count tuples + suit keys).

The waits and shanten of a hand depend only on its suit keys (and its melds), so they are memoised:
the same hand is asked about again and again (legal actions, views, AI players).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from ..analysis import TILE_INC, TILE_SLOT, Keys, mask_to_tiles, shanten_keys, waits_mask
from ..tiles import Meld, MeldKind, Tile, counts_of
from .reveal import kong_hidden, reveal_waits
from .state import SeatState

__all__ = [
    "from_kept",
    "keys_plus",
    "liangdao_declared",
    "liangdao_waits",
    "liangdao_waits_kept",
    "moved",
    "shanten_of",
    "wait_tiles",
]

_TILES = tuple(Tile)


def moved(seat: SeatState, tile: int, n: int) -> tuple[tuple[int, ...], Keys]:
    """The seat's ``(hand, keys)`` with ``n`` copies of ``tile`` added (negative ``n`` removes)."""
    hand = list(seat.hand)
    hand[tile] += n
    k = list(seat.keys)
    k[TILE_SLOT[tile]] += n * TILE_INC[tile]
    return tuple(hand), (k[0], k[1], k[2], k[3])


def keys_plus(keys: Keys, tile: int, n: int) -> Keys:
    """``keys`` with ``n`` copies of ``tile`` added."""
    k = list(keys)
    k[TILE_SLOT[tile]] += n * TILE_INC[tile]
    return (k[0], k[1], k[2], k[3])


def _count(keys: Keys, tile: int) -> int:
    return keys[TILE_SLOT[tile]] // TILE_INC[tile] % 5


@lru_cache(maxsize=1 << 16)
def _waits(keys: Keys, melds: tuple[Meld, ...]) -> tuple[Tile, ...]:
    mask = waits_mask(keys, len(melds))
    if not mask:
        return ()
    for m in melds:
        if mask >> m.tile & 1 and _count(keys, m.tile) + m.kind.size >= 4:
            mask &= ~(1 << m.tile)
    return tuple(mask_to_tiles(mask))


def wait_tiles(hand: Sequence[int], keys: Keys, melds: Sequence[Meld]) -> tuple[Tile, ...]:
    """Waits (听, docs/rules.md §A7.4) of a 13 - 3*melds hand, in tile order, excluding tiles the seat holds all
    four of (concealed and melds together: there is no fifth copy).  ``hand`` is the 30 counts of
    ``keys`` (kept for the callers' convenience; the answer depends on ``keys`` and ``melds`` only)."""
    return _waits(keys, tuple(melds))


@lru_cache(maxsize=1 << 16)
def shanten_of(keys: Keys, melds: int) -> int:
    """:func:`engine.analysis.shanten_keys`, memoised (-1 complete, 0 ready)."""
    return shanten_keys(keys, melds)


def from_kept(tile: Tile, remove: int, drawn: Tile | None) -> int:
    """Copies of ``tile`` a kong takes from the tiles kept at 亮倒 (not the tile just drawn): ``remove``
    copies leave the hand (4 暗杠, 1 补杠, 3 直杠); a drawn copy is used first on the seat's turn."""
    return remove - (1 if drawn == tile and remove != 3 else 0)


def liangdao_waits_kept(seat: SeatState, tile: Tile, remove: int, new_melds: int, drawn: Tile | None = None) -> bool:
    """Whether a 亮倒 seat's waits stay the same after taking ``remove`` copies of ``tile`` out of its
    hand for a kong (A9.5): 4 for 暗杠 and 1 for 补杠 (from a turn hand of 14 - 3*melds tiles), 3 for
    直杠 (from a 13 - 3*melds hand); ``new_melds`` is 1 when the kong is a new meld (暗杠/直杠).  For a
    暗杠 of a held quad the drawn tile stays in the hand and is part of the compared hand.

    After a partial reveal (``seat.hidden``, docs/rules.md §A9.2, §E#48) the copies come out of the
    hidden tiles first (``drawn``: the tile just drawn, used first), the drawn tile that stays joins the
    shown tiles, and the waits compared are those of the new shown/hidden split (:func:`reveal_waits`);
    the hidden tiles must still split so that the waits are not empty."""
    hand, keys = moved(seat, tile, -remove)
    melds = list(seat.melds)
    if new_melds:
        melds.append(Meld(MeldKind.CONCEALED_KONG, tile))
    else:
        melds = [Meld(MeldKind.ADDED_KONG, tile) if m.tile == tile and m.kind is MeldKind.PONG else m for m in melds]
    if sum(hand) != 13 - 3 * len(melds):
        return False
    if seat.hidden:
        hidden = kong_hidden(counts_of(seat.hidden), tile, from_kept(tile, remove, drawn))
        shown = [a - b for a, b in zip(hand, hidden, strict=True)]
        return reveal_waits(shown, hidden, melds) == seat.waits
    return wait_tiles(hand, keys, melds) == seat.waits


def liangdao_waits(seat: SeatState, tile: Tile) -> tuple[Tile, ...]:
    """The waits after discarding ``tile`` (empty = not ready)."""
    hand, keys = moved(seat, tile, -1)
    return wait_tiles(hand, keys, seat.melds)


def liangdao_declared(
    seat: SeatState, tile: Tile, reveal: tuple[Tile, ...] | None
) -> tuple[tuple[Tile, ...], tuple[Tile, ...]]:
    """What a 亮倒 with ``tile`` showing ``reveal`` (None: the whole hand) publishes: (the waits, the
    tiles kept face down).  The whole hand shown: the hand's waits and no hidden tile; a partial
    reveal: the waits its shown shape fixes (docs/rules.md §A9.2, §E#48) and the rest face down.
    The waits are empty when the hand is not ready (or the reveal fixes none); legality is not checked."""
    waits = liangdao_waits(seat, tile)
    if reveal is None:
        return waits, ()
    kept, _ = moved(seat, tile, -1)
    shown = counts_of(reveal)
    hidden = [k - r for k, r in zip(kept, shown, strict=True)]
    if not any(hidden):
        return waits, ()
    return reveal_waits(shown, hidden, seat.melds), tuple(_TILES[t] for t, n in enumerate(hidden) for _ in range(n))
