"""The deterministic shuffle and deal (docs/rules.md §A3.1): anyone holding the seed can re-derive the wall.

Algorithm (version 1, fixed — changing it would change every published seed's deal):

1. **Tile set**: the kinds in play in :class:`~engine.tiles.Tile` order (standard: 1p..9p, 1s..9s,
   5z 6z 7z), each written four times in a row: ``[1p,1p,1p,1p, 2p,2p,2p,2p, ..., 7z,7z,7z,7z]``
   (84 tiles; 120 with the three suits 1p..9p, 1s..9s, 1m..9m and the dragons).
2. **Random stream**: block ``k`` (k = 0, 1, 2, ...) is ``SHA-256(UTF-8(seed) || k as 4-byte
   big-endian)``; the stream is block 0, block 1, ... cut into 4-byte big-endian unsigned words.
3. **Fisher-Yates**: for ``i`` from ``n - 1`` down to 1: ``m = i + 1``; take words until one is
   below ``2**32 - (2**32 mod m)`` (rejection, so every ``j`` is equally likely); ``j = word mod m``;
   swap positions ``i`` and ``j``.
4. **Deal** to ``n`` players (``rules.players``, 2 to 4): with the shuffled list ``t``, seat
   ``(dealer + k) mod n`` gets ``t[13k : 13k + 13]`` for k = 0 .. n-1; the dealer's 14th tile is
   ``t[13n]``; the live wall is ``t[13n + 1:]`` in draw order (normal draws from its front, kong
   replacements from its back ``t[-1]``).  With 3 players: ``t[39]`` and ``t[40:]``.

Re-derive in a few lines of any language; :func:`shuffled` and :func:`deal` are the reference.

**Commitment**: :func:`commitment` is ``SHA-256(UTF-8(seed))`` in lower-case hex.  Published at the
deal while the seed stays secret, it binds the table to one wall; once the seed is revealed after the
hand, anyone checks the hash and re-derives the deal (``python -m engine deal --seed S --dealer D``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence

from ..tiles import Tile

__all__ = ["commitment", "deal", "shuffled", "tile_set"]


def commitment(seed: str) -> str:
    """The published commitment to ``seed``: SHA-256 of its UTF-8 bytes, 64 lower-case hex digits."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def tile_set(kinds: Sequence[Tile]) -> list[Tile]:
    """Four copies of each kind, in the given kind order (step 1)."""
    return [t for t in kinds for _ in range(4)]


def _words(seed: str) -> Iterator[int]:
    data = seed.encode("utf-8")
    k = 0
    while True:
        block = hashlib.sha256(data + k.to_bytes(4, "big")).digest()
        for i in range(0, 32, 4):
            yield int.from_bytes(block[i : i + 4], "big")
        k += 1


def shuffled(seed: str, kinds: Sequence[Tile]) -> list[Tile]:
    """The tile set of ``kinds`` shuffled by ``seed`` (steps 1-3)."""
    tiles = tile_set(kinds)
    words = _words(seed)
    for i in range(len(tiles) - 1, 0, -1):
        m = i + 1
        limit = (1 << 32) - ((1 << 32) % m)
        w = next(words)
        while w >= limit:
            w = next(words)
        j = w % m
        tiles[i], tiles[j] = tiles[j], tiles[i]
    return tiles


def deal(
    seed: str, dealer: int, kinds: Sequence[Tile], players: int
) -> tuple[tuple[tuple[Tile, ...], ...], tuple[Tile, ...]]:
    """``(hands, wall)`` for ``seed`` at a table of ``players`` (step 4): ``hands[seat]`` sorted, the
    dealer's (``0 <= dealer < players``) with his 14th tile appended last; ``wall`` in draw order."""
    t = shuffled(seed, kinds)
    hands: list[tuple[Tile, ...]] = [()] * players
    for k in range(players):
        hands[(dealer + k) % players] = tuple(sorted(t[13 * k : 13 * k + 13]))
    hands[dealer] = (*hands[dealer], t[13 * players])
    return tuple(hands), tuple(t[13 * players + 1 :])
