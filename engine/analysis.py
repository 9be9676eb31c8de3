"""Table-driven hand analysis: win check, waits (听) and shanten (docs/architecture.md §2, docs/rules.md §A7).

A hand is read per suit.  Each suit's nine counts form a base-5 *suit key* (digit ``i`` = count of
tile ``i+1``, worth ``5**i``); the dragons form a three-digit key (白 發 中).  A hand is the 4-tuple
of keys ``(p, s, m, z)`` — see :func:`keys_of` — kept up to date as tiles move (adding tile ``t``
adds :data:`TILE_INC` ``[t]`` to slot :data:`TILE_SLOT` ``[t]``).  Every question is then a handful of
table reads:

* ``_STD[key]``: 1 if the suit splits into sets only (the empty suit included), 3 if into sets plus
  one pair, 16 otherwise.  A hand is a standard win (docs/rules.md §A7.1) iff the four codes sum to 6.
* ``_PAIRS[key]``: pairs in the suit, a quad counting as two (docs/rules.md §A7.2: 七对 with 龙).
* ``_WS[key]`` / ``_WP[key]``: bit masks of the tiles whose addition makes the suit sets-only /
  sets-plus-pair complete (for waits).
* the shipped distance table (``engine/data/suit_distance.bin.zlib``, built by
  ``tools/build_shanten_table.py``): least tiles to add for ``m`` sets and ``h`` pairs, per suit.

Tables are built (or loaded) once at import, in about 0.1 s; no call is ever slow the first time.
Dragons never form runs (docs/rules.md §A7.1, §E#35).  Every function takes the number of declared melds so
that ``13 - 3*melds`` concealed tiles (14 - 3*melds with the winning tile) are understood; 七对 is
possible only with no melds at all (A7.2).
"""

from __future__ import annotations

import zlib
from array import array
from collections.abc import Callable, Sequence
from importlib import resources
from itertools import combinations_with_replacement
from typing import Any

from .tiles import DRAGONS, NUM_KINDS, Tile

__all__ = [
    "TILE_INC",
    "TILE_SLOT",
    "Keys",
    "is_complete",
    "is_complete_keys",
    "keys_of",
    "lowering_draws",
    "mask_to_tiles",
    "minus_keys",
    "plus_keys",
    "seven_pairs_count",
    "shanten",
    "shanten_after_discards",
    "shanten_keys",
    "waits",
    "waits_mask",
]

Keys = tuple[int, int, int, int]
"""Suit keys ``(p, s, m, z)`` of a multiset of tiles (see the module docstring)."""

_N9 = 5**9
_DRAGON_KINDS = len(DRAGONS)
_N3 = 5**_DRAGON_KINDS
_POW = tuple(5**i for i in range(9))

TILE_SLOT: tuple[int, ...] = tuple(t // 9 for t in range(NUM_KINDS))
"""Key slot (0 p, 1 s, 2 m, 3 z) of each tile index."""
TILE_INC: tuple[int, ...] = tuple(_POW[t % 9] for t in range(NUM_KINDS))
"""What adding one copy of each tile adds to its slot's key."""


def _digits(key: int, n: int) -> list[int]:
    return [(key // _POW[i]) % 5 for i in range(n)]


def _complete_keys(n: int, runs: bool) -> tuple[set[int], set[int]]:
    """(sets-only keys, sets-plus-one-pair keys) of an ``n``-digit suit, at most 4 sets, counts <= 4."""
    shapes: list[tuple[int, ...]] = [tuple(3 if j == i else 0 for j in range(n)) for i in range(n)]
    if runs:
        shapes += [tuple(1 if i <= j <= i + 2 else 0 for j in range(n)) for i in range(n - 2)]
    sets_only: set[int] = set()
    for m in range(5):
        for combo in combinations_with_replacement(shapes, m):
            counts = [sum(c) for c in zip(*combo, strict=True)] if combo else [0] * n
            if max(counts) <= 4:
                sets_only.add(sum(c * _POW[i] for i, c in enumerate(counts)))
    with_pair: set[int] = set()
    for key in sets_only:
        digits = _digits(key, n)
        for i in range(n):
            if digits[i] <= 2:
                with_pair.add(key + 2 * _POW[i])
    return sets_only, with_pair


def _code_table(size: int, n: int, runs: bool) -> tuple[bytes, array[int], array[int]]:
    sets_only, with_pair = _complete_keys(n, runs)
    std = bytearray(b"\x10" * size)
    for key in sets_only:
        std[key] = 1
    for key in with_pair:
        std[key] = 3
    ws = array("H", bytes(2 * size))
    wp = array("H", bytes(2 * size))
    for table, keys in ((ws, sets_only), (wp, with_pair)):
        for key in keys:
            for i, d in enumerate(_digits(key, n)):
                if d:
                    table[key - _POW[i]] |= 1 << i
    return bytes(std), ws, wp


def _pairs_table(n: int) -> bytes:
    """Pairs per key (``floor(count/2)`` summed), built digit by digit with ``bytes.translate``."""
    per_digit = (0, 0, 1, 1, 2)
    table = bytes(per_digit)
    for _ in range(n - 1):
        table = b"".join(table.translate(bytes((v + per_digit[d]) & 255 for v in range(256))) for d in range(5))
    return table


_STD, _WS, _WP = _code_table(_N9, 9, True)
_STDZ, _WSZ, _WPZ = _code_table(_N3, 3, False)
_PAIRS = _pairs_table(9)
_PAIRSZ = _pairs_table(3)


def _load_distance() -> bytes:
    raw = resources.files(__package__).joinpath("data/suit_distance.bin.zlib").read_bytes()
    data = zlib.decompress(raw)
    if len(data) != 10 * _N9:  # pragma: no cover - guards a corrupt install
        raise RuntimeError(
            "engine/data/suit_distance.bin.zlib is corrupt; rebuild it with tools/build_shanten_table.py"
        )
    return data


def _honor_distance() -> bytes:
    """The dragons' distance table (pungs and pairs only), 125 records of 10 bytes."""
    out = bytearray(10 * _N3)
    for key in range(_N3):
        have = _digits(key, _DRAGON_KINDS)
        for m in range(5):
            for h in range(2):
                best = 99
                # choose which dragons carry a pung (<= 3 of them) and which the pair
                for pungs in combinations_with_replacement(range(_DRAGON_KINDS), m):
                    if len(set(pungs)) != m:
                        continue
                    for p in range(_DRAGON_KINDS) if h else (None,):
                        need = [3 if i in pungs else 0 for i in range(_DRAGON_KINDS)]
                        if p is not None:
                            need[p] += 2
                        if max(need) > 4:
                            continue
                        best = min(best, sum(max(0, need[i] - have[i]) for i in range(_DRAGON_KINDS)))
                out[10 * key + 2 * m + h] = best if best < 99 else 60
    return bytes(out)


_DIST = _load_distance()
_DISTZ = _honor_distance()


def keys_of(counts: Sequence[int]) -> Keys:
    """Suit keys of a 30-count list (indexed by :class:`Tile`)."""
    p = s = m = z = 0
    for i in range(9):
        w = _POW[i]
        p += counts[i] * w
        s += counts[9 + i] * w
        m += counts[18 + i] * w
    for i in range(_DRAGON_KINDS):
        z += counts[27 + i] * _POW[i]
    return p, s, m, z


def is_complete_keys(keys: Keys, melds: int = 0) -> bool:
    """Whether the concealed tiles ``keys`` (14 - 3*melds of them) form a winning shape.

    Standard: sets plus exactly one pair (docs/rules.md §A7.1).  七对 (A7.2): only with ``melds == 0``, seven
    pairs where a quad counts as two.  The 起胡 restrictions of A8 are not checked here.
    """
    p, s, m, z = keys
    if _STD[p] + _STD[s] + _STD[m] + _STDZ[z] == 6:
        return True
    return melds == 0 and _PAIRS[p] + _PAIRS[s] + _PAIRS[m] + _PAIRSZ[z] == 7


def is_complete(counts: Sequence[int], melds: int = 0) -> bool:
    """:func:`is_complete_keys` for a 30-count list."""
    return is_complete_keys(keys_of(counts), melds)


def seven_pairs_count(keys: Keys) -> int:
    """Pairs toward 七对, a quad counting as two (docs/rules.md §A7.2)."""
    p, s, m, z = keys
    return _PAIRS[p] + _PAIRS[s] + _PAIRS[m] + _PAIRSZ[z]


def waits_mask(keys: Keys, melds: int = 0) -> int:
    """Bit mask (bit ``t`` for :class:`Tile` ``t``) of the tiles completing ``keys`` (13 - 3*melds tiles).

    A tile whose four copies are all in ``keys`` is never a wait (the tables stop at 4 copies); copies
    held in melds are the caller's to exclude (see :func:`waits`).  docs/rules.md §A7.4.
    """
    p, s, m, z = keys
    cp, cs, cm, cz = _STD[p], _STD[s], _STD[m], _STDZ[z]
    mask = 0
    other = cs + cm + cz
    if other == 3:
        mask |= _WP[p]
    elif other == 5:
        mask |= _WS[p]
    other = cp + cm + cz
    if other == 3:
        mask |= _WP[s] << 9
    elif other == 5:
        mask |= _WS[s] << 9
    if m:
        other = cp + cs + cz
        if other == 3:
            mask |= _WP[m] << 18
        elif other == 5:
            mask |= _WS[m] << 18
    other = cp + cs + cm
    if other == 3:
        mask |= _WPZ[z] << 27
    elif other == 5:
        mask |= _WSZ[z] << 27
    if melds == 0 and _PAIRS[p] + _PAIRS[s] + _PAIRS[m] + _PAIRSZ[z] == 6:
        mask |= _odd_tile_mask(keys)
    return mask


def _odd_tile_mask(keys: Keys) -> int:
    """The 七对 wait of a hand with six pairs: the tile held an odd number of times (1 or 3)."""
    mask = 0
    for slot, key in enumerate(keys):
        n = 3 if slot == 3 else 9
        for i, d in enumerate(_digits(key, n)):
            if d & 1:
                mask |= 1 << (9 * slot + i)
    # With 13 tiles and six pairs exactly one kind is odd; with other tile counts this is no wait.
    return mask if mask & (mask - 1) == 0 else 0


def mask_to_tiles(mask: int) -> list[Tile]:
    """Tiles of a bit mask, in :class:`Tile` order."""
    out: list[Tile] = []
    while mask:
        low = mask & -mask
        out.append(Tile(low.bit_length() - 1))
        mask ^= low
    return out


def waits(counts: Sequence[int], melds: int = 0, held: Sequence[int] | None = None) -> list[Tile]:
    """Waits (听) of the concealed ``counts`` (13 - 3*melds tiles), in :class:`Tile` order.

    ``held``: 30 counts of every tile the player holds, melds included; tiles held four times are
    excluded (there is no fifth copy, docs/rules.md Appendix 2).  Defaults to ``counts``.
    """
    mask = waits_mask(keys_of(counts), melds)
    tiles = mask_to_tiles(mask)
    if held is not None:
        tiles = [t for t in tiles if held[t] < 4]
    return tiles


def _combine(a: bytes, ai: int, b: bytes, bi: int, need: int) -> bytes:
    """Min-plus product of two suits' distance records: record[2*m + h] for m <= need."""
    best = bytearray(b"\x63" * 10)
    for m in range(need + 1):
        lo0 = lo1 = 99
        for i in range(m + 1):
            x = ai + 2 * i
            y = bi + 2 * (m - i)
            lo0 = min(lo0, a[x] + b[y])
            lo1 = min(lo1, a[x + 1] + b[y], a[x] + b[y + 1])
        best[2 * m] = lo0
        best[2 * m + 1] = lo1
    return bytes(best)


def _kernel_source(need: int) -> str:
    """Straight-line source of the three-family shanten distance for ``need`` sets plus a pair.

    ``kernel(A, ai, B, bi, Z, zi)`` reads the records of two numbered suits (A, B) and of the
    dragons (Z) and returns min over (m_a + m_b + m_z = need, one pair among them) of the summed
    distances: the :func:`_combine` of A and B, then of the result with Z, unrolled (2.1 us against
    4.4 us for the loops, which matters for the docs/architecture.md §7 shanten bar).
    """
    lines = ["def kernel(A, ai, B, bi, Z, zi):"]
    for name, base, start in (("a", "A", "ai"), ("b", "B", "bi"), ("z", "Z", "zi")):
        lines.append(f"    {', '.join(f'{name}{i}' for i in range(10))} = {base}[{start}:{start} + 10]")
    for m in range(need + 1):
        t0 = [f"a{2 * i} + b{2 * (m - i)}" for i in range(m + 1)]
        t1 = [f"a{2 * i + 1} + b{2 * (m - i)}" for i in range(m + 1)]
        t1 += [f"a{2 * i} + b{2 * (m - i) + 1}" for i in range(m + 1)]
        lines.append(f"    c{m}0 = min({', '.join(t0)}, 99)")
        lines.append(f"    c{m}1 = min({', '.join(t1)})")
    final = []
    for mz in range(need + 1):
        final += [f"c{need - mz}1 + z{2 * mz}", f"c{need - mz}0 + z{2 * mz + 1}"]
    lines.append(f"    return min({', '.join(final)})")
    return "\n".join(lines)


def _build_kernels() -> list[Callable[[bytes, int, bytes, int, bytes, int], int]]:
    kernels = []
    for need in range(5):
        namespace: dict[str, Any] = {}
        exec(compile(_kernel_source(need), f"<shanten kernel {need}>", "exec"), namespace)
        kernels.append(namespace["kernel"])
    return kernels


_KERNELS = _build_kernels()


def shanten_keys(keys: Keys, melds: int = 0) -> int:
    """Shanten of ``13 - 3*melds`` or ``14 - 3*melds`` concealed tiles: -1 complete, 0 ready.

    Defined as (least tiles to add for ``4 - melds`` sets plus a pair, or for 七对 when there are no
    melds) minus one; for a 14-tile hand this equals the shanten after its best discard.  Targets may
    use the numbered suits in the hand, the dragons, and one numbered suit the hand lacks (two suits
    are in play, docs/rules.md §A1.1); the fourth copy sitting in a meld is not excluded.
    """
    p, s, m, z = keys
    need = 4 - melds
    if not m:
        best = _KERNELS[need](_DIST, 10 * p, _DIST, 10 * s, _DISTZ, 10 * z)
    else:  # a variant hand holding 万 (docs/rules.md §A1.1 option `suits`)
        present = [k for k in (p, s, m) if k] + [0]  # an absent suit is used only when fewer than 2
        acc = _DIST[10 * present[0] : 10 * present[0] + 10]
        for k in present[1:-2]:
            acc = _combine(acc, 0, _DIST, 10 * k, need)
        best = _KERNELS[need](acc, 0, _DIST, 10 * present[-2 if len(present) > 2 else -1], _DISTZ, 10 * z)
    if melds == 0:
        seven = 7 - min(_PAIRS[p] + _PAIRS[s] + _PAIRS[m] + _PAIRSZ[z], 7)
        if seven < best:
            best = seven
    return best - 1


def _pair_source(need: int) -> str:
    """Straight-line source of ``pair(B, bi, C, ci)``: the min-plus product of two families' distance
    records (the first half of :func:`_kernel_source`), as the tuple ``(c00, c01, c10, c11, ...)``
    indexed ``2*m + h`` for ``m <= need`` sets and ``h`` pairs."""
    lines = ["def pair(B, bi, C, ci):"]
    for name, base, start in (("b", "B", "bi"), ("c", "C", "ci")):
        lines.append(f"    {', '.join(f'{name}{i}' for i in range(10))} = {base}[{start}:{start} + 10]")
    out = []
    for m in range(need + 1):
        t0 = [f"b{2 * i} + c{2 * (m - i)}" for i in range(m + 1)]
        t1 = [f"b{2 * i + 1} + c{2 * (m - i)}" for i in range(m + 1)]
        t1 += [f"b{2 * i} + c{2 * (m - i) + 1}" for i in range(m + 1)]
        out += [f"min({', '.join(t0)}, 99)", f"min({', '.join(t1)})"]
    lines.append(f"    return ({', '.join(out)},)")
    return "\n".join(lines)


def _final_source(need: int) -> str:
    """Straight-line source of ``final(A, ai, R)``: the distance of family A's record joined with the
    pair record ``R`` of the two other families (:func:`_pair_source`)."""
    terms = []
    for ma in range(need + 1):
        terms += [f"A[ai + {2 * ma}] + R[{2 * (need - ma) + 1}]", f"A[ai + {2 * ma + 1}] + R[{2 * (need - ma)}]"]
    return f"def final(A, ai, R):\n    return min({', '.join(terms)})"


def _draws_source(need: int) -> str:
    """Straight-line source of ``draws(table, ptable, own, r, fmask, target, base_pairs)``: the bits
    of ``fmask`` (tiles of one family, bit ``i`` = its digit ``i``) whose addition to the family key
    ``own`` brings the distance (:func:`_final_source` with the joined record ``r`` of the two other
    families, or 7 - pairs for 七对) below ``target``."""
    n = 2 * need + 2
    a = ", ".join(f"a{j}" for j in range(n))
    r = ", ".join(f"r{j}" for j in range(n))
    terms = ", ".join(f"a{j} + r{n - 1 - j}" for j in range(n))
    return "\n".join(
        [
            "def draws(table, ptable, own, r, fmask, target, base_pairs):",
            f"    {r}, = r",
            "    out = 0",
            "    while fmask:",
            "        low = fmask & -fmask",
            "        fmask ^= low",
            "        key = own + POW[low.bit_length() - 1]",
            f"        {a}, = table[10 * key : 10 * key + {n}]",
            f"        if min({terms}) < target or 7 - base_pairs - ptable[key] < target:",
            "            out |= low",
            "    return out",
        ]
    )


def _build(source: Callable[[int], str], name: str) -> list[Any]:
    out = []
    for need in range(5):
        namespace: dict[str, Any] = {"POW": _POW}
        exec(compile(source(need), f"<shanten {name} {need}>", "exec"), namespace)
        out.append(namespace[name])
    return out


_PAIR_KERNELS = _build(_pair_source, "pair")
_DRAW_KERNELS = _build(_draws_source, "draws")
_FINAL_KERNELS = _build(_final_source, "final")


_FAMILIES = ((0, 0, 9), (1, 9, 18), (3, 27, 30))
"""(key slot, first tile, end tile) of the families a standard hand's keys hold: 筒, 条, dragons."""


def _rest_record(memo: dict[tuple[int, ...], tuple[int, ...]], fam: int, need: int, keys: Keys) -> tuple[int, ...]:
    """The joined distance record of the two families of ``keys`` other than ``fam`` (memoised)."""
    p, s, _m, z = keys
    if fam == 0:
        mk = (0, need, s, z)
        r = memo.get(mk)
        if r is None:
            r = memo[mk] = _PAIR_KERNELS[need](_DIST, 10 * s, _DISTZ, 10 * z)
    elif fam == 1:
        mk = (1, need, p, z)
        r = memo.get(mk)
        if r is None:
            r = memo[mk] = _PAIR_KERNELS[need](_DIST, 10 * p, _DISTZ, 10 * z)
    else:
        mk = (3, need, p, s)
        r = memo.get(mk)
        if r is None:
            r = memo[mk] = _PAIR_KERNELS[need](_DIST, 10 * p, _DIST, 10 * s)
    return r


def _one_tile_changed(
    keys: Keys, melds: int, mask: int, step: int, memo: dict[tuple[int, ...], tuple[int, ...]] | None
) -> list[tuple[int, int]]:
    """(tile, shanten of ``keys`` with one copy of the tile added (``step`` 1) or removed (-1)) for
    each tile of ``mask``, for a hand without 万: only the changed family's last kernel step runs."""
    need = 4 - melds
    final = _FINAL_KERNELS[need]
    if memo is None:
        memo = {}
    seven = melds == 0
    pairs = _PAIRS[keys[0]] + _PAIRS[keys[1]] + _PAIRSZ[keys[3]]
    out = []
    for fam, lo, hi in _FAMILIES:
        fmask = (mask >> lo) & ((1 << (hi - lo)) - 1)
        if not fmask:
            continue
        r = _rest_record(memo, fam, need, keys)
        own = keys[fam]
        if fam == 3:
            table, ptable = _DISTZ, _PAIRSZ
        else:
            table, ptable = _DIST, _PAIRS
        base_pairs = pairs - ptable[own]
        while fmask:
            low = fmask & -fmask
            i = low.bit_length() - 1
            fmask ^= low
            key = own + step * _POW[i]
            d = final(table, 10 * key, r)
            if seven:
                p7 = base_pairs + ptable[key]
                if 7 - p7 < d:
                    d = 7 - p7 if p7 < 7 else 0
            out.append((lo + i, d - 1))
    return out


def lowering_draws(
    keys: Keys, melds: int, shanten: int, mask: int, memo: dict[tuple[int, ...], tuple[int, ...]] | None = None
) -> int:
    """Bit mask of the tiles of ``mask`` whose addition to ``keys`` gives a shanten below ``shanten``:
    the 有效牌 kinds of a ``13 - 3*melds`` tile hand whose shanten is ``shanten`` (``mask`` must not
    hold a tile the hand holds four times).

    Equal to testing ``shanten_keys(keys + t, melds) < shanten`` tile by tile, faster: a draw changes
    one family (筒, 条 or the dragons), so the other two families' joined record is computed once per
    family and only the last step of the shanten kernel runs per tile.  ``memo`` keeps those joined
    records (keyed by family, sets needed and the two keys; valid for any hand) — pass one dict per
    decision to share them between the candidate discards.  A hand holding 万 takes the plain path.
    """
    out = 0
    if keys[2]:
        while mask:
            low = mask & -mask
            t = low.bit_length() - 1
            mask ^= low
            if shanten_keys(plus_keys(keys, t), melds) < shanten:
                out |= low
        return out
    need = 4 - melds
    draws = _DRAW_KERNELS[need]
    if memo is None:
        memo = {}
    target = shanten + 1  # the distance (shanten + 1) must drop below this
    # 七对 (no melds): distance 7 - pairs (at most 7 pairs); -99 keeps it out of reach with melds
    seven_pairs = _PAIRS[keys[0]] + _PAIRS[keys[1]] + _PAIRSZ[keys[3]] if melds == 0 else -99
    for fam, lo, hi in _FAMILIES:
        fmask = (mask >> lo) & ((1 << (hi - lo)) - 1)
        if fmask:
            own = keys[fam]
            table, ptable = (_DISTZ, _PAIRSZ) if fam == 3 else (_DIST, _PAIRS)
            r = _rest_record(memo, fam, need, keys)
            out |= draws(table, ptable, own, r, fmask, target, seven_pairs - ptable[own]) << lo
    return out


def shanten_after_discards(
    keys: Keys, melds: int, tiles: Sequence[int], memo: dict[tuple[int, ...], tuple[int, ...]] | None = None
) -> dict[int, int]:
    """Shanten (as :func:`shanten_keys`) of ``keys`` without one copy of each of ``tiles`` (each held),
    by tile: the candidate discards of a ``14 - 3*melds`` tile hand.  Same answers as calling
    :func:`shanten_keys` per tile; ``memo`` as in :func:`lowering_draws` (the records are shared)."""
    if keys[2]:
        return {t: shanten_keys(minus_keys(keys, t), melds) for t in tiles}
    mask = 0
    for t in tiles:
        mask |= 1 << t
    return dict(_one_tile_changed(keys, melds, mask, -1, memo))


def plus_keys(keys: Keys, tile: int, n: int = 1) -> Keys:
    """``keys`` with ``n`` copies of ``tile`` added (negative ``n`` removes)."""
    k = list(keys)
    k[TILE_SLOT[tile]] += n * TILE_INC[tile]
    return (k[0], k[1], k[2], k[3])


def minus_keys(keys: Keys, tile: int) -> Keys:
    """``keys`` with one copy of ``tile`` removed."""
    return plus_keys(keys, tile, -1)


def shanten(counts: Sequence[int], melds: int = 0) -> int:
    """:func:`shanten_keys` for a 30-count list."""
    return shanten_keys(keys_of(counts), melds)
