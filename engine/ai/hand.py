"""Hand evaluation for the AI players: what a seat can work out from its own view.

Everything here is a pure function of 30-count lists (indexed by :class:`~engine.tiles.Tile`), the
suit keys of :mod:`engine.analysis` and the seat's view; nothing reads a game state.

* :func:`unseen_counts` — copies of each tile the seat cannot see (4 minus its own tiles, every
  unclaimed pond tile, every meld tile shown, every revealed 亮倒 hand).  The wall and the other
  hidden hands hold exactly these.
* :func:`danger_mask` — the tiles that win for another seat that has declared 亮倒 (docs/rules.md §A9.2
  publishes its waits; feeding one is 包胡, A9.7).
* :func:`ukeire` — 有效牌: unseen copies of the tiles whose draw lowers the shanten.
* :func:`pattern_value` — an estimate of the pattern product (番, docs/rules.md §A10) of a complete hand:
  七对 family, 清一色, 碰碰胡 / 手抓一, 卡五星, 大/小三元, 明/暗四归一.  It is a quick AI estimate,
  not the scorer (:func:`engine.scoring.score_win` is exact); it is exact for the common hands.
* :func:`pengpeng_shanten` — tiles short of an all-pungs hand (碰碰胡), minus one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..analysis import TILE_INC, TILE_SLOT, Keys, is_complete_keys, lowering_draws, seven_pairs_count
from ..rules import RuleSet
from ..tiles import NUM_KINDS, MeldKind
from ..views import MeldView, SeatView

__all__ = [
    "danger_mask",
    "hand_counts",
    "live_mask",
    "minus",
    "near_mask",
    "pattern_value",
    "pengpeng_shanten",
    "plus",
    "ukeire",
    "ukeire_total",
    "unseen_counts",
]

_HONOR0 = 27


def plus(keys: Keys, tile: int, n: int = 1) -> Keys:
    """``keys`` with ``n`` copies of ``tile`` added (negative ``n`` removes)."""
    d = TILE_INC[tile] * n
    p, s, m, z = keys
    slot = TILE_SLOT[tile]
    if slot == 0:
        return (p + d, s, m, z)
    if slot == 1:
        return (p, s + d, m, z)
    if slot == 2:
        return (p, s, m + d, z)
    return (p, s, m, z + d)


def minus(keys: Keys, tile: int, n: int = 1) -> Keys:
    """``keys`` with ``n`` copies of ``tile`` removed."""
    return plus(keys, tile, -n)


def hand_counts(view: SeatView) -> list[int]:
    """30 counts of the seat's concealed tiles, the drawn tile included."""
    counts = [0] * NUM_KINDS
    for t in view.concealed:
        counts[t] += 1
    if view.drawn is not None:
        counts[view.drawn] += 1
    return counts


def unseen_counts(view: SeatView, kinds: Iterable[int] | None = None) -> list[int]:
    """Copies of each tile (30 counts) that ``view``'s seat cannot see anywhere: the wall plus the
    other seats' hidden tiles.  ``kinds``: tile kinds in play (default: the standard 21 kinds); other
    kinds get 0.  Another seat's 暗杠 is face down (its kind unknown), so its tiles stay "unseen"."""
    seen = [0] * NUM_KINDS
    for t in view.concealed:
        seen[t] += 1
    if view.drawn is not None:
        seen[view.drawn] += 1
    me = view.seat
    for m in view.melds:
        if m.tile is not None:
            seen[m.tile] += m.kind.size
    for seat in view.public.seats:
        if seat.seat != me:
            for m in seat.melds:
                if m.tile is not None:
                    seen[m.tile] += m.kind.size
            for t in seat.revealed:
                seen[t] += 1
        for d in seat.discards:
            if not d.claimed:
                seen[d.tile] += 1
    out = [0] * NUM_KINDS
    for k in kinds if kinds is not None else _STANDARD:
        n = 4 - seen[k]
        out[k] = n if n > 0 else 0
    return out


_STANDARD = (*range(18), 27, 28, 29)


def danger_mask(view: SeatView) -> int:
    """Bit mask (bit ``t`` = tile ``t``) of the tiles that win for another seat that has declared
    亮倒 (its published waits, docs/rules.md §A9.2).  Feeding one makes a non-亮倒 discarder pay 包胡 (A9.7)."""
    mask = 0
    me = view.seat
    for seat in view.public.seats:
        if seat.liangdao and seat.seat != me:
            for t in seat.waits:
                mask |= 1 << t
    return mask


def near_mask(counts: Sequence[int]) -> int:
    """Bit mask of the tiles that can lower the shanten of a hand holding ``counts``: numbered tiles
    within two steps of a held tile of the same suit, and held honours.  A tile farther from every
    held tile can only start a new pair, which never lowers the shanten of a 13 - 3k tile hand."""
    mask = 0
    for t in range(_HONOR0):
        if counts[t]:
            n = t % 9
            lo = t - min(n, 2)
            hi = t + min(8 - n, 2)
            mask |= ((1 << (hi - lo + 1)) - 1) << lo
    for t in range(_HONOR0, NUM_KINDS):
        if counts[t]:
            mask |= 1 << t
    return mask


def live_mask(unseen: Sequence[int]) -> int:
    """Bit mask of the tiles with at least one unseen copy."""
    mask = 0
    for t, n in enumerate(unseen):
        if n:
            mask |= 1 << t
    return mask


def ukeire(
    keys: Keys,
    melds: int,
    shanten: int,
    unseen: Sequence[int],
    mask: int,
    memo: dict[tuple[int, ...], tuple[int, ...]] | None = None,
) -> tuple[int, int]:
    """有效牌 of a ``13 - 3*melds`` tile hand with the given ``shanten``: (unseen copies of the tiles in
    ``mask`` whose draw lowers the shanten, number of such tile kinds).

    ``memo``: the per-decision store of :func:`engine.analysis.lowering_draws` (the answer is the same
    with or without it; one dict may serve every candidate discard of one decision)."""
    good = lowering_draws(keys, melds, shanten, mask & live_mask(unseen), memo)
    return ukeire_total(good, unseen), good.bit_count()


def ukeire_total(tiles: int, unseen: Sequence[int]) -> int:
    """Unseen copies of the tiles of the bit mask ``tiles``."""
    total = 0
    while tiles:
        low = tiles & -tiles
        tiles ^= low
        total += unseen[low.bit_length() - 1]
    return total


def pengpeng_shanten(counts: Sequence[int], melds: int) -> int:
    """Tiles to add (minus one) to make the concealed ``counts`` into ``4 - melds`` pungs and a pair
    (碰碰胡, docs/rules.md §F1), ignoring which copies are still live."""
    need = 4 - melds
    count = counts.count
    # the pungs from the biggest groups (a quad counts as a pung), the pair from the next one
    big, pairs, singles = count(4) + count(3), count(2), count(1)
    if big > need:
        return -1
    k = need - big
    if pairs > k:
        return k - 1
    cost = pairs + 2 * min(k - pairs, singles) + 3 * max(k - pairs - singles, 0)
    return cost + (1 if singles > k - pairs else 2) - 1


def _suit_of_hand(counts: Sequence[int], melds: Sequence[MeldView]) -> int:
    """The numbered suit (0, 1, 2) of a hand whose tiles (melds included) are all of one numbered
    suit, else -1 (清一色 test)."""
    suit = -1
    for t in range(NUM_KINDS):
        if counts[t]:
            s = t // 9
            if s == 3 or (suit >= 0 and s != suit):
                return -1
            suit = s
    for m in melds:
        if m.tile is None:
            return -1
        s = m.tile // 9
        if s == 3 or (suit >= 0 and s != suit):
            return -1
        suit = s
    return suit


def pattern_value(counts: Sequence[int], keys: Keys, melds: Sequence[MeldView], win: int, rules: RuleSet) -> int:
    """Estimated pattern product (docs/rules.md §A10, without situational factors and 亮倒) of the complete
    hand ``counts`` (14 - 3*len(melds) concealed tiles, the winning tile ``win`` included) with
    ``melds``; 0 when the tiles are not a winning hand.  The best of the 七对 reading and the standard
    readings (A10.1), where the standard factors are combined as if one reading held them all."""
    values = rules.values
    nm = len(melds)
    best = 0
    qys = _suit_of_hand(counts, melds) >= 0
    if nm == 0 and seven_pairs_count(keys) == 7:
        quads = sum(1 for c in counts if c == 4)
        qd = (values.qidui, values.longqidui, values.shuanglong, values.sanlong)[min(quads, 3)]
        best = qd * (values.qingyise if qys else 1)
    if not is_complete_keys(keys, 1):  # the standard shapes only (melds >= 1 rules out 七对)
        return best
    return max(best, _standard_value(counts, keys, melds, win, rules, qys))


def _standard_value(
    counts: Sequence[int], keys: Keys, melds: Sequence[MeldView], win: int, rules: RuleSet, qys: bool
) -> int:
    """:func:`pattern_value` of the standard readings of a complete hand (``qys``: all one suit)."""
    values = rules.values
    nm = len(melds)
    v = values.qingyise if qys else 1
    pph = all(c in (0, 2, 3) for c in counts) and sum(1 for c in counts if c == 2) == 1
    kwx = False
    if win < _HONOR0 and win % 9 == 4 and counts[win - 1] and counts[win + 1]:
        rest = minus(minus(minus(keys, win - 1), win), win + 1)
        kwx = is_complete_keys(rest, 1)
    if pph and nm == 4:
        v *= values.shouzhuayi * (values.pengpeng if rules.szy_with_pph else 1)
    elif pph or kwx:
        v *= max(values.pengpeng if pph else 1, values.kawuxing if kwx else 1)
    dragons = [counts[t] for t in range(_HONOR0, NUM_KINDS)]
    for m in melds:
        if m.tile is not None and m.tile >= _HONOR0:
            dragons[m.tile - _HONOR0] += 3
    big = sum(1 for d in dragons if d >= 3)
    if big == 3:
        v *= values.dasanyuan
    elif big == 2 and 2 in dragons:
        v *= values.xiaosanyuan
    if any(m.kind is MeldKind.PONG and m.tile == win for m in melds):
        v *= values.mingsigui
    elif counts[win] == 4:
        v *= values.ansigui
    return v
