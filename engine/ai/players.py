"""AI players: one decision from one seat's view (docs/architecture.md §2).

:func:`choose_action` takes a :class:`~engine.views.SeatView` and that seat's legal actions (as
:func:`engine.game.legal_actions` lists them) and returns one of those actions.  It never sees a
game state, so it cannot see hidden tiles; the same view, legal list, level and random state always
give the same action.

Levels (:class:`Level`):

``random``
    A uniformly random legal action.  A baseline, not for play.
``greedy``
    A baseline: the discard with the lowest shanten (random among ties), every 胡, 碰/杠 whenever
    they do not raise the shanten, 亮倒 whenever possible; no defence at all.
``easy``
    Fast and sensible: the lowest-shanten discard found by trying tiles in order of uselessness
    (isolated honours and terminals first), never a 亮倒 player's winning tile while a safe tile
    exists, 胡 whenever possible, 碰 when it lowers the shanten, kongs that do not raise it, 亮倒 as
    soon as the hand is ready with a live wait.
``normal``
    Discards by an estimate of the hand's prospects: shanten, then 有效牌 (unseen copies of the tiles
    that advance the hand), times the value of the shape it is heading for — 七对, 清一色 (a
    one-suit route is weighed against the fastest route), 碰碰胡, 卡五星 (a 4-6 pair of a suit with
    its 5 to come), 三元 — and, once ready, the live waits times the estimated 番 of each wait
    (:func:`engine.ai.hand.pattern_value`; a 屁胡 wait cannot win on a discard, docs/rules.md §A8.2).
    Defence: never discards a 亮倒 player's wait while a safe tile exists (包胡, A9.7; when every
    tile feeds, the cheapest one); against players who have not declared, a danger estimate per
    tile (5筒/5条 for 卡五星, a suspected 清一色 suit, dragons next to a dragon pong, less for the
    player's own discards and for tiles whose copies are all visible), weighed more heavily as the
    wall runs out and the less ready the hand is.  Claims: always 胡; 碰 when it lowers the shanten
    or keeps it on a 碰碰胡 / 清一色 / 三元 route (never on a 七对 route); 直杠 and 暗杠 when they do
    not raise the shanten (kong money, A13); 补杠 likewise, unless a 亮倒 player would rob it.
    亮倒 (A9): compares the expected gain of ×2 (A9.6) and of opening discard wins to a 屁胡 with its
    costs — a frozen hand that cannot fold or improve, paying ×2 to the others' wins, the 荒庄
    penalty (A14.2) — from the live waits, the wait values, the cap, the tiles left in the wall and
    the number of seats (the price of a frozen hand differs per table size: measured by self-play,
    it is declared far less often at 2 seats and, in its best positions, at 4).
    Speed: the 有效牌 of every candidate discard comes from :func:`engine.analysis.lowering_draws`
    with one memo per decision (what the candidates share is computed once; nothing outlives the
    decision).
``strong``
    A search over worlds sampled from the view, with playouts (:mod:`engine.ai.strong`).

Every level but ``strong`` takes 胡 whenever it is offered: a win is never worse than waiting for a bigger one in
this model (a 亮倒 seat's wins are automatic anyway, A9.4).
"""

from __future__ import annotations

import enum
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..analysis import (
    Keys,
    keys_of,
    lowering_draws,
    seven_pairs_count,
    shanten_after_discards,
    shanten_keys,
    waits_mask,
)
from ..game.actions import Action, ActionKind
from ..rules import RuleSet, Ruleset
from ..tiles import DRAGONS, NUM_KINDS, NUM_SUITS, Suit, Tile
from ..views import PublicSeatView, SeatView
from .hand import (
    danger_mask,
    hand_counts,
    live_mask,
    minus,
    near_mask,
    pattern_value,
    pengpeng_shanten,
    plus,
    ukeire_total,
    unseen_counts,
)

__all__ = ["Level", "Tuning", "choose_action"]

_HONOR0 = 27
_STANDARD_RULES = RuleSet()
_SUIT_INDEX = {"p": 0, "s": 1, "m": 2}


class Level(enum.Enum):
    """How an AI seat plays (see the module docstring)."""

    RANDOM = "random"
    GREEDY = "greedy"
    EASY = "easy"
    NORMAL = "normal"
    STRONG = "strong"


@dataclass(frozen=True, slots=True)
class Tuning:
    """The knobs of the ``normal`` level; the defaults were chosen by self-play matches of variants
    (``benchmarks/bench_selfplay.py``; most knobs sit on a flat optimum, the 亮倒 cost does not).

    Discard score (higher is better), for each tile that may be discarded::

        log2(route value) + log2(1 + 有效牌) - shanten_cost * shanten - w * danger(tile)
        w = defence * (1 + best shanten) * (defence_early + share of the dealt wall drawn)

    and for a discard that leaves the hand ready: log2(1 + sum over live waits of copies * 番 *
    (``ron_factor`` if the wait can also win on a discard)).

    * ``shanten_cost``: log2 units one step of shanten is worth.
    * ``qidui_factor`` / ``pengpeng_factor``: route value when 七对 / 碰碰胡 is as close as the best
      route; ``kawuxing_factor``: a 4 and a 6 of a suit held (卡五星); ``sanyuan_factor``: two dragon
      pairs or pungs.
    * ``ron_factor``: weight of a wait that may win on a discard (番 >= 2, or any wait while some
      other seat has 亮倒: its discards are then open to a 屁胡, docs/rules.md §A8.2) — only with ``ron_open``
      for the latter.
    * ``defence``, ``defence_early``: the danger weight ``w`` above.
    * 亮倒 (docs/rules.md §A9) is declared when gain - cost > ``liangdao_margin``, with p = live waits / unseen
      tiles, n seats, P_self = 1 - (1 - p)^(my draws left), P_any = 1 - (1 - p)^(n * my draws left)::

          gain = P_self * (n-1) * (min(2V, cap) - min(V, cap))       # ×2 on every payer of a 自摸
                 + liangdao_ron * (P_any - P_self) * min(2V, cap)     # a 屁胡 may now win on discards
                 - liangdao_hidden_ron * (P_any - P_self) * min(V, cap)   # a 大胡 no longer fed unseen
          cost = liangdao_other_win * (1 - P_self) * 2 (x1.5 when another seat has 亮倒)

      (V = mean 番 of the live waits; only one of the two ron terms applies).  The cost stands for
      what a frozen hand loses: its 摸打 discards are open to every other hand (×2, and a 屁胡 may
      take them), it pays ×2 on the others' wins and the 荒庄 penalty, and it cannot fold.
    * ``liangdao_seat_cost``: the cost above times this factor at a table of 2, 3 and 4 seats (the
      formula was tuned at 3 seats; at the other tables the price of a frozen hand differs and was
      measured by self-play, ``benchmarks/bench_liangdao.py``, paired against the weight 1 of every
      table): at 2 seats the one opponent wins quickly and every one of its wins is paid by the
      frozen hand, so a declaration pays far less than the 自摸 chance over a long wall suggests
      (12: 亮倒 in 7% of the seat-hands instead of 76%, and better than never declaring);
      at 4 seats three payers of the ×2 outweigh more of the cost than the formula credits (0.5:
      16% instead of never; 0.3, 32%, gained less).
    """

    shanten_cost: float = 3.0
    qidui_factor: float = 3.0
    pengpeng_factor: float = 1.5
    kawuxing_factor: float = 1.2
    sanyuan_factor: float = 1.5
    ron_factor: float = 1.5
    ron_open: bool = True
    defence: float = 1.0
    defence_early: float = 0.3
    liangdao_ron: float = 0.2
    liangdao_hidden_ron: float = 0.5
    liangdao_other_win: float = 4.0
    liangdao_margin: float = 0.0
    liangdao_seat_cost: tuple[float, float, float] = (12.0, 1.0, 0.5)


_DEFAULT_TUNING = Tuning()


class _Ctx:
    """What one decision needs from the view, computed once (unseen counts lazily)."""

    __slots__ = ("_unseen", "counts", "danger", "keys", "meld_dragons", "memo", "nm", "rules", "view")

    def __init__(self, view: SeatView, rules: RuleSet) -> None:
        self.view = view
        self.rules = rules
        self.counts = hand_counts(view)
        self.keys: Keys = keys_of(self.counts)
        self.nm = len(view.melds)
        self.danger = danger_mask(view)
        shown = [0, 0, 0]  # dragons of each kind in the seat's melds
        for m in view.melds:
            if m.tile is not None and m.tile >= _HONOR0:
                shown[m.tile - _HONOR0] += m.kind.size
        self.meld_dragons = shown
        self._unseen: list[int] | None = None
        # what 有效牌 reuses between the candidate discards of this decision (the joined shanten
        # records of two tile families, engine.analysis.lowering_draws); never kept past the decision
        self.memo: dict[tuple[int, ...], tuple[int, ...]] = {}

    @property
    def unseen(self) -> list[int]:
        if self._unseen is None:
            kinds = _kinds(self.rules)
            self._unseen = unseen_counts(self.view, kinds)
        return self._unseen

    @property
    def me(self) -> PublicSeatView:
        return self.view.public.seats[self.view.seat]


_KINDS_CACHE: dict[tuple[tuple[str, ...], bool], tuple[int, ...]] = {}


def _kinds(rules: RuleSet) -> tuple[int, ...]:
    key = (tuple(rules.suits), rules.dragons)
    kinds = _KINDS_CACHE.get(key)
    if kinds is None:
        out = [int(t) for t in Tile if t.suit is not Suit.DRAGONS and t.suit.value in rules.suits]
        if rules.dragons:
            out += [int(Tile.WHITE), int(Tile.GREEN), int(Tile.RED)]
        kinds = _KINDS_CACHE[key] = tuple(out)
    return kinds


# ============================================================================ entry point


def choose_action(
    view: SeatView,
    legal: Sequence[Action],
    level: Level = Level.NORMAL,
    rng: random.Random | None = None,
    *,
    rules: RuleSet | None = None,
    tuning: Tuning | None = None,
) -> Action:
    """One of ``legal`` for the seat of ``view``.

    ``legal``: the seat's legal actions now (non-empty; :func:`engine.game.legal_actions`).
    ``rng``: used by ``random`` and ``greedy`` only (a fixed seed when None).  ``rules``: the table's
    house rules (public information; default standard) — fan values, cap and tile kinds inform the
    estimates.  ``tuning``: knobs of ``normal`` (:class:`Tuning`).  Raises ``ValueError`` when
    ``legal`` is empty.  Pure: depends on its arguments only (and ``rng``'s state).
    """
    if not legal:
        raise ValueError("no legal action to choose from")
    if level is Level.RANDOM:
        return (rng or random.Random(0)).choice(list(legal))
    if level is Level.STRONG:  # a search, in its own module (engine.ai.strong)
        from .strong import choose

        return choose(view, legal, rng or random.Random(0), rules=rules)
    for a in legal:
        if a.kind is ActionKind.WIN:
            return a
    rules = rules or _STANDARD_RULES
    first = legal[0].kind
    if first in (ActionKind.KONG, ActionKind.PONG, ActionKind.PASS):
        return _claim(_Ctx(view, rules), legal, level, tuning or _DEFAULT_TUNING)
    ctx = _Ctx(view, rules)
    discards: list[int] = []
    liangdao: set[int] = set()
    kongs: list[Action] = []
    discard_kind, liangdao_kind = ActionKind.DISCARD, ActionKind.LIANGDAO
    for a in legal:
        kind = a.kind
        if kind is discard_kind:
            discards.append(a.tile)  # type: ignore[arg-type]  # tile acts carry a tile
        elif kind is liangdao_kind:
            liangdao.add(a.tile)  # type: ignore[arg-type]
        elif a.tile is not None:
            kongs.append(a)
    if ctx.me.liangdao:
        return _liangdao_turn(ctx, kongs, legal)
    if kongs:
        kong = _own_kong(ctx, kongs, level)
        if kong is not None:
            return kong
    if not discards:  # pragma: no cover - a turn always lists discards
        return legal[-1]
    if level is Level.GREEDY:
        tile, declare = _greedy_discard(ctx, discards, liangdao, rng or random.Random(0))
    elif level is Level.EASY:
        tile, declare = _easy_discard(ctx, discards, liangdao)
    else:
        tile, declare = _normal_discard(ctx, discards, liangdao, tuning or _DEFAULT_TUNING)
    want = liangdao_kind if declare else discard_kind
    for a in legal:
        if a.kind is want and a.tile == tile:
            return a
    raise AssertionError(f"chosen discard {tile} is not legal")  # pragma: no cover


# ============================================================================ own turn: kongs


def _liangdao_turn(ctx: _Ctx, kongs: Sequence[Action], legal: Sequence[Action]) -> Action:
    """A 亮倒 seat: take a permitted kong (money; its waits stay the same, A9.5) unless another 亮倒
    seat would rob the 补杠; otherwise discard the drawn tile (the only discard listed)."""
    for a in kongs:
        if a.kind is ActionKind.CONCEALED_KONG:
            return a
        if a.kind is ActionKind.ADDED_KONG and a.tile is not None and not ctx.danger >> a.tile & 1:
            return a
    for a in legal:
        if a.kind is ActionKind.DISCARD:
            return a
    return legal[-1]  # pragma: no cover


def _own_kong(ctx: _Ctx, kongs: Sequence[Action], level: Level) -> Action | None:
    """暗杠 / 补杠 when they do not raise the shanten (greedy: always a 补杠); never a 补杠 of a tile a
    亮倒 player waits on (抢杠胡 would be 包胡, A12.4)."""
    keys, nm = ctx.keys, ctx.nm
    now = ctx.view.shanten
    for a in kongs:
        assert a.tile is not None
        t = int(a.tile)
        if a.kind is ActionKind.ADDED_KONG:
            if ctx.danger >> t & 1:
                continue
            if level is Level.GREEDY or shanten_keys(minus(keys, t), nm) <= now:
                return a
        elif shanten_keys(minus(keys, t, 4), nm + 1) <= now:
            return a
    return None


# ============================================================================ claims


def _claim(ctx: _Ctx, legal: Sequence[Action], level: Level, tuning: Tuning) -> Action:
    """Answer a claim window (胡 was handled by the caller): 杠 / 碰 / 过."""
    kinds = {a.kind: a for a in legal}
    pass_action = kinds.get(ActionKind.PASS, legal[-1])
    last = ctx.view.public.last_discard
    if last is None:  # pragma: no cover - a window always has a tile on the table
        return pass_action
    tile = int(last[1])
    keys, nm, counts = ctx.keys, ctx.nm, ctx.counts
    now = ctx.view.shanten
    kong = kinds.get(ActionKind.KONG)
    if kong is not None and shanten_keys(minus(keys, tile, 3), nm + 1) <= now:
        return kong
    pong = kinds.get(ActionKind.PONG)
    if pong is None:
        return pass_action
    after = minus(keys, tile, 2)
    sh = shanten_keys(after, nm + 1)  # 14 - 3*(nm+1) tiles: the shanten after the best discard
    if level is Level.GREEDY:
        return pong if sh <= now else pass_action
    if sh > now:
        return pass_action
    # after 碰 a tile must be discarded at once: not if every tile left would feed a 亮倒 player
    left = [t for t in range(NUM_KINDS) if counts[t] - (2 if t == tile else 0) > 0]
    if all(ctx.danger >> t & 1 for t in left):
        return pass_action
    if sh < now:
        if level is Level.NORMAL and nm == 0 and 6 - seven_pairs_count(keys) <= sh:
            return pass_action  # the 七对 route is at least as close: keep the hand closed
        return pong
    if level is not Level.NORMAL:
        return pass_action
    # same shanten: 碰 only for a shape that wants pungs
    if nm == 0 and 6 - seven_pairs_count(keys) <= now:
        return pass_action
    after_counts = list(counts)
    after_counts[tile] -= 2
    if pengpeng_shanten(after_counts, nm + 1) <= sh:
        return pong
    suit = _dominant_suit(ctx)
    if suit >= 0 and tile // 9 == suit:
        return pong
    if tile >= _HONOR0:
        dragons = sum(1 for d in range(_HONOR0, NUM_KINDS) if d != tile and _dragon_total(ctx, d) >= 2)
        if dragons >= 1:
            return pong
    return pass_action


def _dragon_total(ctx: _Ctx, tile: int) -> int:
    n = ctx.counts[tile]
    for m in ctx.view.melds:
        if m.tile == tile:
            n += m.kind.size
    return n


def _dominant_suit(ctx: _Ctx) -> int:
    """The numbered suit a 清一色 could be built in: every meld of that suit and at least 10 of the
    hand's 14 tiles (melds counted as 3) in it; else -1."""
    per = [0, 0, 0, 0]
    for t in range(NUM_KINDS):
        if ctx.counts[t]:
            per[t // 9] += ctx.counts[t]
    meld_suit = -1
    for m in ctx.view.melds:
        if m.tile is None or m.tile >= _HONOR0:
            return -1
        s = m.tile // 9
        if meld_suit >= 0 and s != meld_suit:
            return -1
        meld_suit = s
        per[s] += 3
    best = max(range(NUM_SUITS), key=lambda s: per[s])
    if meld_suit >= 0 and best != meld_suit:
        return -1
    return best if per[best] >= 10 else -1


# ============================================================================ discards: greedy, easy


def _greedy_discard(ctx: _Ctx, discards: list[int], liangdao: set[int], rng: random.Random) -> tuple[int, bool]:
    keys, nm = ctx.keys, ctx.nm
    scored = [(shanten_keys(minus(keys, t), nm), t) for t in discards]
    best = min(s for s, _ in scored)
    ties = [t for s, t in scored if s == best]
    declare = [t for t in ties if t in liangdao]
    if declare:
        return rng.choice(declare), True
    return rng.choice(ties), False


def uselessness(counts: Sequence[int], t: int) -> int:
    """Lower = discard first: isolated honours, then isolated terminals, then loose tiles."""
    c = counts[t]
    if t >= _HONOR0:
        return 0 if c == 1 else 20 * c
    n = t % 9
    score = 8 * c - 8 + _EDGE[n]
    if n:
        score += 4 * counts[t - 1] + (2 * counts[t - 2] if n > 1 else 0)
    if n < 8:
        score += 4 * counts[t + 1] + (2 * counts[t + 2] if n < 7 else 0)
    return score


_EDGE = (0, 1, 2, 2, 2, 2, 2, 1, 0)


def quick_discard(
    keys: Keys, nm: int, counts: Sequence[int], discards: list[int], danger: int, drawn: int | None, target: int
) -> tuple[int, int]:
    """The easy level's discard search, which the strong level's playouts share (docs/architecture.md
    §2): of ``discards`` (tile indices, non-empty; those outside the ``danger`` bit mask only, unless
    none is), tried in order of :func:`uselessness` (the ``drawn`` tile after its equals), the first
    whose discard leaves the lowest shanten of ``keys`` with ``nm`` melds, stopping at the first that
    reaches ``target``.  Returns the tile index and that shanten."""
    pool = [t for t in discards if not danger >> t & 1] if danger else discards
    if not pool:
        pool = discards
    pool.sort(key=lambda t: 2 * uselessness(counts, t) + (t != drawn))
    best_t, best_sh = pool[0], 99
    for t in pool:
        sh = shanten_keys(minus(keys, t), nm)
        if sh < best_sh:
            best_t, best_sh = t, sh
            if sh <= target:
                break
    return best_t, best_sh


def _easy_discard(ctx: _Ctx, discards: list[int], liangdao: set[int]) -> tuple[int, bool]:
    keys, nm = ctx.keys, ctx.nm
    # the target: the shanten of the 14 - 3k tiles, i.e. after the best discard
    best_t, best_sh = quick_discard(keys, nm, ctx.counts, discards, ctx.danger, ctx.view.drawn, ctx.view.shanten)
    if best_sh == 0 and best_t in liangdao:
        mask = waits_mask(minus(keys, best_t), nm)
        unseen = ctx.unseen
        live = sum(unseen[w] for w in range(NUM_KINDS) if mask >> w & 1)
        return best_t, live > 0
    return best_t, False


# ============================================================================ discards: normal


def _threats(ctx: _Ctx, tiles: Sequence[int]) -> list[float]:
    """Danger of each tile of ``tiles`` (30 entries, 0 for the others) from the seats that have not
    declared 亮倒 (arbitrary units, ~ the chance of dealing into a hand that may win on a discard)."""
    view = ctx.view
    unseen = ctx.unseen
    suits = [_SUIT_INDEX[x] for x in ctx.rules.suits if x in _SUIT_INDEX]
    out = [0.0] * NUM_KINDS
    for seat in view.public.seats:
        if seat.seat == view.seat or seat.liangdao:
            continue
        discards = seat.discards
        n_melds = len(seat.melds)
        ready = min(0.85, 0.045 * len(discards) + 0.12 * n_melds)
        if ready <= 0.0:
            continue
        own = 0
        suit_count = [0, 0, 0, 0]
        for d in discards:
            own |= 1 << d.tile
            suit_count[d.tile // 9] += 1
        meld_suits = {m.tile // 9 for m in seat.melds if m.tile is not None}
        dragon_pong = any(m.tile is not None and m.tile >= _HONOR0 for m in seat.melds)
        flush = -1
        if len(meld_suits) == 1 and n_melds >= 1:
            (s,) = meld_suits
            if s < 3:
                flush = s
        elif n_melds == 0 and len(discards) >= 6:
            # no tile at all of one suit in play among six or more discards: a 清一色 suspect
            empty = [s for s in suits if suit_count[s] == 0]
            if len(empty) == 1:
                flush = empty[0]
        for t in tiles:
            if t >= _HONOR0:
                if not unseen[t]:
                    continue
                b = 0.5 * (2.0 if dragon_pong else 1.0)
            else:
                n = t % 9
                b = 2.0 if n == 4 else 0.7 if n in (0, 8) else 1.0
                if not unseen[t]:
                    b *= 0.5
                if flush >= 0:
                    b *= 3.0 if t // 9 == flush else 0.3
            if own >> t & 1:
                b *= 0.25
            out[t] += ready * b
    return out


def _tenpai_value(ctx: _Ctx, after: Keys, counts: list[int], tuning: Tuning) -> tuple[float, int, float]:
    """(expected-value weight, live wait tiles, mean 番 of the live waits) of a ready hand ``after``
    (13 - 3*melds tiles, ``counts`` its 30 counts).  A wait whose estimated value is 1 (屁胡) can
    only win by 自摸 (docs/rules.md §A8.2); the others also on discards (weight ``ron_factor``)."""
    mask = waits_mask(after, ctx.nm)
    unseen = ctx.unseen
    melds = ctx.view.melds
    rules = ctx.rules
    ev = 0.0
    live = 0
    vsum = 0
    # a 屁胡 wins on a discard only from a 亮倒 discarder (A8.2): one is at the table
    ron_any = tuning.ron_open and any(s.liangdao for s in ctx.view.public.seats if s.seat != ctx.view.seat)
    while mask:
        low = mask & -mask
        w = low.bit_length() - 1
        mask ^= low
        n = unseen[w]
        if not n:
            continue
        counts[w] += 1
        v = pattern_value(counts, plus(after, w), melds, w, rules)
        counts[w] -= 1
        if v <= 0:
            continue
        live += n
        vsum += n * v
        ev += n * v * (tuning.ron_factor if v >= 2 or ron_any else 1.0)
    return ev, live, (vsum / live if live else 0.0)


def _normal_discard(ctx: _Ctx, discards: list[int], liangdao: set[int], tuning: Tuning) -> tuple[int, bool]:
    keys, nm, counts, danger = ctx.keys, ctx.nm, ctx.counts, ctx.danger
    safe = [t for t in discards if not danger >> t & 1]
    if not safe:
        return _least_feeding(ctx, discards), False
    unseen = ctx.unseen
    shs = shanten_after_discards(keys, nm, safe, ctx.memo)
    best = min(shs.values())
    near = near_mask(counts) & live_mask(unseen)  # the draws 有效牌 counts (lowering_draws needs copies left)
    threats = _threats(ctx, safe)
    wall = ctx.view.public.wall_remaining
    dealt_wall = 4 * len(_kinds(ctx.rules)) - 13 * len(ctx.view.public.seats) - 1  # 44 at the standard table
    drawn_share = max(0.0, 1.0 - wall / dealt_wall)
    w_def = tuning.defence * (1 + best) * (tuning.defence_early + drawn_share)
    suit = _dominant_suit(ctx)
    flush_route = _flush_route(ctx, suit, near, tuning) if suit >= 0 else None
    log2 = math.log2
    drawn = ctx.view.drawn
    cost = tuning.shanten_cost
    offense: dict[int, float] = {}
    tenpai_info: dict[int, tuple[float, int, float]] = {}
    uk_ref = 0
    # exact 有效牌 for the lowest-shanten discards (and the 1-shanten ones when ready is possible);
    # the others reuse the best 有效牌 found, so they can only win on value or safety
    exact = best + 1 if best == 0 else best
    for t in sorted(safe, key=shs.__getitem__):
        sh = shs[t]
        if sh > best + 1:
            offense[t] = -cost * sh
            continue
        after = minus(keys, t)
        counts[t] -= 1
        if sh == 0:
            info = _tenpai_value(ctx, after, counts, tuning)
            tenpai_info[t] = info
            offense[t] = log2(1.0 + info[0])
        else:
            if sh <= exact:
                uk = ukeire_total(lowering_draws(after, nm, sh, near, ctx.memo), unseen)
                uk_ref = max(uk_ref, uk)
            else:
                uk = uk_ref
            value = _value_factor(ctx, after, counts, sh, tuning)
            offense[t] = log2(value) + log2(1.0 + uk) - cost * sh
        counts[t] += 1
    scored: list[tuple[float, int, int]] = []
    for t in safe:
        o = offense[t]
        if flush_route is not None and t // 9 != suit and flush_route > o:
            o = flush_route + 0.01 * o  # among off-suit tiles, the one the fastest route needs least
        scored.append((o - w_def * threats[t], 0 if t == drawn else 1, t))
    scored.sort(key=lambda x: (-x[0], x[1], x[2]))
    tile = scored[0][2]
    if tile in liangdao and tile in tenpai_info:
        return tile, _declare(ctx, tenpai_info[tile], tuning)
    return tile, False


def _value_factor(ctx: _Ctx, after: Keys, counts: list[int], sh: int, tuning: Tuning) -> float:
    """Value of the route a not-yet-ready hand ``after`` (``counts``) is on: 七对 when its shanten is
    as low, 碰碰胡 likewise, then :func:`_shape_factor`."""
    value = 1.0
    nm = ctx.nm
    if nm == 0 and 6 - seven_pairs_count(after) <= sh:
        value *= tuning.qidui_factor
    if pengpeng_shanten(counts, nm) <= sh:
        value *= tuning.pengpeng_factor
    return value * _shape_factor(ctx, counts, tuning)


def _shape_factor(ctx: _Ctx, counts: list[int], tuning: Tuning) -> float:
    """Value hints of a not-yet-ready hand: a 4 and a 6 of a suit (卡五星), dragon pairs (三元)."""
    f = 1.0
    for base in (0, 9, 18):
        if counts[base + 3] and counts[base + 5]:
            f *= tuning.kawuxing_factor
            break
    shown = ctx.meld_dragons
    pairs = sum(1 for d in DRAGONS if counts[d] + shown[d - _HONOR0] >= 2)  # 白 發 中 (the three dragons)
    if pairs >= 2:
        f *= tuning.sanyuan_factor
    return f


def _flush_route(ctx: _Ctx, suit: int, near: int, tuning: Tuning) -> float:
    """Score of heading for 清一色 in ``suit`` (discarding off-suit tiles): the shanten and 有效牌 of
    the suit's tiles alone, with the ×4 value (A10 F12)."""
    keys = ctx.keys
    only: Keys = (keys[0] if suit == 0 else 0, keys[1] if suit == 1 else 0, keys[2] if suit == 2 else 0, 0)
    sh = shanten_keys(only, ctx.nm)
    suit_mask = near & (0x1FF << (9 * suit))
    uk = ukeire_total(lowering_draws(only, ctx.nm, sh, suit_mask, ctx.memo), ctx.unseen) if sh >= 0 else 0
    value = float(ctx.rules.values.qingyise)
    return math.log2(value) + math.log2(1.0 + uk) - tuning.shanten_cost * max(sh, 0)


def _least_feeding(ctx: _Ctx, discards: list[int]) -> int:
    """Every discard wins for a 亮倒 player: give the one worth least to them (their revealed hand)."""
    view = ctx.view
    best_t, best_v = discards[0], math.inf
    for t in discards:
        worst = 0.0
        for seat in view.public.seats:
            if seat.seat == view.seat or not seat.liangdao or t not in seat.waits:
                continue
            counts = [0] * NUM_KINDS
            for x in seat.revealed:
                counts[x] += 1
            counts[t] += 1
            melds = seat.melds
            v = (
                pattern_value(counts, keys_of(counts), melds, t, ctx.rules)
                if all(m.tile is not None for m in melds)
                else 2
            )
            worst = max(worst, float(v or 1))
        if worst < best_v:
            best_t, best_v = t, worst
    return best_t


def _declare(ctx: _Ctx, info: tuple[float, int, float], tuning: Tuning) -> bool:
    """Whether to declare 亮倒 with a ready hand of ``info`` = (ev, live waits, mean 番) (A9).

    Gain: ×2 on the 自摸 (every other seat pays, capped, A11.5) and, for a 屁胡, wins on discards.
    Loss: a hidden 大胡 wait that others would have fed; paying ×2 when another seat wins; being
    unable to fold; the 荒庄 penalty (A14.2).  The formula is in :class:`Tuning`.

    卡心五 (docs/rules.md §B): 廊起 always — it does not double, nobody without 廊起 may feed it any
    more, and it collects at 查叫 and 关死 (every seat without 廊起 pays it), even on dead waits.
    """
    _, live, value = info
    rules = ctx.rules
    if rules.ruleset is Ruleset.KAXINWU:
        return True
    if live <= 0:
        return False
    cap = rules.cap_for(0) or 1 << 20
    unseen_total = sum(ctx.unseen)
    wall = ctx.view.public.wall_remaining
    seats = len(ctx.view.public.seats)
    others = seats - 1
    draws = (wall + seats - 1) // seats
    p = live / max(unseen_total, 1)
    p_self = 1.0 - (1.0 - p) ** draws
    p_any = 1.0 - (1.0 - p) ** (seats * draws)
    double = rules.values.liangdao
    v_open = min(value * double, cap)
    v_hidden = min(value, cap)
    gain = p_self * others * (v_open - v_hidden)
    if value < 2:
        gain += tuning.liangdao_ron * (p_any - p_self) * v_open
    else:
        gain -= tuning.liangdao_hidden_ron * (p_any - p_self) * v_hidden
    # others' wins: as a 亮倒 payer (A9.6b) every payment doubles; they also win on my 摸打 discards
    cost = tuning.liangdao_other_win * (1.0 - p_self) * others * tuning.liangdao_seat_cost[min(max(seats, 2), 4) - 2]
    if any(s.liangdao for s in ctx.view.public.seats if s.seat != ctx.view.seat):
        cost *= 1.5
    return gain - cost > tuning.liangdao_margin
