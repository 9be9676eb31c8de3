"""The end of a hand: 自摸 and discard wins (one or more winners), 荒庄 with its payments and
查叫, 卡心五's 关死, and the next dealer (docs/rules.md §A12, §A14, §A15, §B)."""

from __future__ import annotations

from collections.abc import Sequence

from ..rules import DealerOnDraw, HuangzhuangLiangdao
from ..scoring import WinBy, WinContext, WinScore, score_win
from ..tiles import Tile
from ..views import HandResultView, MeldView, Outcome, WinView
from .basics import liangdao_flags
from .checks import self_win_score
from .claims import claim_score
from .events import HandEnded
from .evolve import Builder
from .hands import wait_tiles
from .state import State, WindowKind

__all__ = [
    "finish_claim_win",
    "finish_draw",
    "finish_guansi",
    "finish_self_draw",
    "guansi_seat",
    "max_multiplier_share",
]


def _win_view(
    state: State,
    seat_no: int,
    concealed: Sequence[Tile],
    win_tile: Tile,
    by: WinBy,
    from_seat: int | None,
    score: WinScore,
) -> WinView:
    seat = state.seats[seat_no]
    return WinView(
        seat=seat_no,
        concealed=tuple(sorted(concealed)),
        melds=tuple(MeldView(m.kind, m.tile, m.source) for m in seat.melds),
        win_tile=win_tile,
        by=by,
        from_seat=from_seat,
        fans=score.fans,
        multiplier=dict(score.multiplier),
        baohu=score.baohu,
        reading=score.reading,
    )


def finish_self_draw(b: Builder) -> None:
    """End the hand on the turn seat's 自摸 of its drawn tile (docs/rules.md §A12)."""
    s = b.state
    score = self_win_score(s)
    assert score is not None and s.drawn is not None
    concealed = s.seats[s.turn].tiles()
    concealed.remove(s.drawn)
    view = _win_view(s, s.turn, concealed, s.drawn, WinBy.SELF_DRAW, None, score)
    _emit_result(b, Outcome.WIN, (view,), score.deltas, s.turn)


def finish_claim_win(b: Builder, winners: list[int]) -> None:
    """End the hand on the window's tile won by ``winners`` (each scored independently, §A12)."""
    s = b.state
    w = s.window
    assert w is not None
    by = WinBy.ROB_KONG if w.kind is WindowKind.ROB else WinBy.DISCARD
    order = sorted(winners, key=lambda seat: (seat - w.from_seat) % s.rules.players)
    views = []
    deltas = [0] * s.rules.players
    for seat_no in order:
        score = claim_score(s, seat_no, w)
        assert score is not None and score.legal
        views.append(_win_view(s, seat_no, s.seats[seat_no].tiles(), w.tile, by, w.from_seat, score))
        for k, d in enumerate(score.deltas):
            deltas[k] += d
    next_dealer = order[0] if len(order) == 1 else w.from_seat
    _emit_result(b, Outcome.WIN, tuple(views), tuple(deltas), next_dealer)


def _emit_result(
    b: Builder,
    outcome: Outcome,
    winners: tuple[WinView, ...],
    hand: Sequence[int],
    next_dealer: int,
    *,
    guansi: int | None = None,
    chajiao: tuple[int, ...] = (),
) -> None:
    s = b.state
    kong = tuple(0 if guansi is not None else seat.kong_money for seat in s.seats)
    result = HandResultView(
        outcome=outcome,
        winners=winners,
        hand_deltas=tuple(hand),
        kong_deltas=kong,
        deltas=tuple(h + k for h, k in zip(hand, kong, strict=True)),
        next_dealer=next_dealer,
        guansi=guansi,
        chajiao=chajiao,
    )
    b.emit(HandEnded(b.seq, result))


def max_multiplier_share(state: State, winner: int, payer: int) -> int:
    """卡心五 (docs/rules.md §B, §E#49): what ``payer`` pays the 廊起 seat ``winner`` at 关死 or 查叫 —
    the largest capped share over the winner's waits W, scored as a win on ``payer``'s discard without
    杠上花/杠上炮/海底, counting a wait even when every copy is gone (× base, capped as any share)."""
    seat = state.seats[winner]
    best = 0
    concealed = tuple(seat.tiles())
    for t in seat.waits:
        ctx = WinContext(
            concealed=concealed,
            melds=seat.melds,
            win_tile=t,
            win_by=WinBy.DISCARD,
            winner=winner,
            discarder=payer,
            liangdao=liangdao_flags(state),
            num_players=state.rules.players,
            hidden=seat.hidden,
            waits=seat.waits,
        )
        score = score_win(ctx, state.rules)
        if score.complete:
            best = max(best, score.shares.get(payer, 0))
    return best


def guansi_seat(state: State) -> int | None:
    """关死 (docs/rules.md §B, §E#49): the first seat, in turn order from the turn seat, that has not
    declared 廊起 and whose every concealed tile is a tile some 廊起 seat waits on; None when there is
    none (or ``guansi`` is off, or nobody has 廊起)."""
    if not state.rules.guansi or not state.liangdao_order:
        return None
    mask = 0
    for seat in state.seats:
        if seat.liangdao:
            for t in seat.waits:
                mask |= 1 << t
    n = state.rules.players
    for k in range(n):
        i = (state.turn + k) % n
        seat = state.seats[i]
        if not seat.liangdao and all(not c or mask >> t & 1 for t, c in enumerate(seat.hand)):
            return i
    return None


def finish_guansi(b: Builder, g: int) -> None:
    """End the hand in 关死 of seat ``g`` (docs/rules.md §B): ``g`` pays every 廊起 seat that seat's
    maximum multiplier (:func:`max_multiplier_share`) and every other seat without 廊起 2 × base; all
    kong money of the hand is void; ``g`` deals next."""
    s = b.state
    hand = [0] * s.rules.players
    for q, seat in enumerate(s.seats):
        if q == g:
            continue
        amount = max_multiplier_share(s, q, g) if seat.liangdao else 2 * s.rules.base
        hand[g] -= amount
        hand[q] += amount
    _emit_result(b, Outcome.GUANSI, (), hand, g, guansi=g)


def _chajiao_share(state: State, winner: int, payer: int) -> int:
    """查叫 (A14.2 option chajiao): ``payer``'s capped share of ``winner``'s best 自摸 over its waits."""
    seat = state.seats[winner]
    best = 0
    concealed = tuple(seat.tiles())
    for t in seat.waits if seat.liangdao else wait_tiles(seat.hand, seat.keys, seat.melds):
        ctx = WinContext(
            concealed=concealed,
            melds=seat.melds,
            win_tile=t,
            win_by=WinBy.SELF_DRAW,
            winner=winner,
            liangdao=liangdao_flags(state),
            num_players=state.rules.players,
        )
        score = score_win(ctx, state.rules)
        if score.complete:
            share = score.shares.get(payer, 0)
            best = max(best, share)
    return best


def finish_draw(b: Builder) -> None:
    """End the hand in 荒庄 (docs/rules.md §A14): the 亮倒 penalty of ``huangzhuang_liangdao`` and
    the next dealer (§A15.3), for any number of seats (``rules.players``).

    Payments (§A14.2, generalised from 3 seats; the same code at 3 seats): ``s000`` — every 亮倒
    seat pays every seat that has not declared 亮倒 1 × base (nobody pays when all or none declared);
    ``s004_first`` — the first seat to declare 亮倒 pays every other seat 1 × base; ``chajiao`` —
    every ready seat collects from every seat that is not ready, and a ready seat without 亮倒 also
    from every 亮倒 seat, that payer's capped share of the ready seat's best 自摸 over its waits;
    ``none``; ``chajiao_langqi`` (卡心五 查叫, docs/rules.md §B) — every seat without 廊起 pays every
    廊起 seat that seat's maximum multiplier (:func:`max_multiplier_share`), ready or not; kong money
    stands.  Next dealer under ``dealer_on_draw = chajiao_langqi``: :func:`_kaxinwu_dealer`.
    Under ``dealer_on_draw = chajiao``: exactly one seat paid → it deals;
    every seat but one paid → the one that paid nothing deals (at 2 seats the first rule decides);
    otherwise (4 seats, two payers) the first seat to declare 亮倒 among those that paid nothing
    deals, and the dealer stays when there is none or nobody paid — the 流局 rule of the seed text
    for four players (docs/rules.md §B).
    """
    s = b.state
    rules = s.rules
    flags = liangdao_flags(s)
    ledger = _Ledger(rules.players)
    _DRAW_PAYMENTS[rules.huangzhuang_liangdao](s, flags, ledger)
    seats = range(rules.players)
    chajiao: tuple[int, ...] = ()
    if rules.huangzhuang_liangdao is HuangzhuangLiangdao.CHAJIAO_LANGQI and any(flags):
        chajiao = tuple(p for p in seats if not flags[p])
    dealer = _draw_dealer(s, flags, ledger.paid)
    _emit_result(b, Outcome.DRAW, (), tuple(ledger.hand), dealer, chajiao=chajiao)


class _Ledger:
    """The payments of a 荒庄 (docs/rules.md §A14.2): points per seat and the seats that paid."""

    __slots__ = ("hand", "paid")

    def __init__(self, players: int) -> None:
        self.hand = [0] * players
        self.paid: set[int] = set()

    def pay(self, p: int, q: int, amount: int) -> None:
        """Seat ``p`` pays seat ``q`` ``amount`` points (nothing, and ``p`` has not paid, when 0)."""
        if amount:
            self.hand[p] -= amount
            self.hand[q] += amount
            self.paid.add(p)


def _pay_s000(s: State, flags: Sequence[bool], ledger: _Ledger) -> None:
    """``s000``: every 亮倒 seat pays every seat without 亮倒 1 × base."""
    for p in range(s.rules.players):
        for q in range(s.rules.players):
            if flags[p] and not flags[q]:
                ledger.pay(p, q, s.rules.base)


def _pay_s004_first(s: State, flags: Sequence[bool], ledger: _Ledger) -> None:
    """``s004_first``: the first seat to declare 亮倒 pays every other seat 1 × base."""
    if s.liangdao_order:
        first = s.liangdao_order[0]
        for q in range(s.rules.players):
            if q != first:
                ledger.pay(first, q, s.rules.base)


def _pay_chajiao(s: State, flags: Sequence[bool], ledger: _Ledger) -> None:
    """``chajiao``: every ready seat collects from every seat that is not ready, and a ready seat
    without 亮倒 also from every 亮倒 seat, that payer's capped share of its best 自摸."""
    seats = range(s.rules.players)
    ready = [
        bool(seat.waits) if seat.liangdao else bool(wait_tiles(seat.hand, seat.keys, seat.melds)) for seat in s.seats
    ]
    for w in seats:
        if not ready[w]:
            continue
        for p in seats:
            if p == w or (ready[p] and not (flags[p] and not flags[w])):
                continue
            ledger.pay(p, w, _chajiao_share(s, w, p))


def _pay_chajiao_langqi(s: State, flags: Sequence[bool], ledger: _Ledger) -> None:
    """``chajiao_langqi`` (卡心五 查叫): every seat without 廊起 pays every 廊起 seat its maximum multiplier."""
    seats = range(s.rules.players)
    for w in seats:
        if flags[w]:
            for p in seats:
                if not flags[p]:
                    ledger.pay(p, w, max_multiplier_share(s, w, p))


def _pay_none(s: State, flags: Sequence[bool], ledger: _Ledger) -> None:
    """``none``: no 荒庄 payments."""


_DRAW_PAYMENTS = {
    HuangzhuangLiangdao.S000: _pay_s000,
    HuangzhuangLiangdao.S004_FIRST: _pay_s004_first,
    HuangzhuangLiangdao.CHAJIAO: _pay_chajiao,
    HuangzhuangLiangdao.CHAJIAO_LANGQI: _pay_chajiao_langqi,
    HuangzhuangLiangdao.NONE: _pay_none,
}
"""The 荒庄 payments of each ``huangzhuang_liangdao`` (docs/rules.md §A14.2, §B)."""


def _draw_dealer(s: State, flags: Sequence[bool], paid: set[int]) -> int:
    """The next dealer after a 荒庄 under ``dealer_on_draw`` (docs/rules.md §A15.3, §B); see
    :func:`finish_draw`."""
    rules = s.rules
    seats = range(rules.players)
    if rules.dealer_on_draw is DealerOnDraw.CHAJIAO_LANGQI:
        return _kaxinwu_dealer(s, tuple(p for p in seats if not flags[p]))
    if rules.dealer_on_draw is DealerOnDraw.LAST_DRAWER and s.last_drawer is not None:
        return s.last_drawer
    if rules.dealer_on_draw is DealerOnDraw.CHAJIAO:
        unpaid = [p for p in seats if p not in paid]
        if len(paid) == 1:
            return next(iter(paid))
        if len(unpaid) == 1:
            return unpaid[0]
        if paid:
            return next((p for p in s.liangdao_order if p not in paid), s.dealer)
    return s.dealer


def _kaxinwu_dealer(state: State, chajiao: tuple[int, ...]) -> int:
    """卡心五's dealer after a 流局 (docs/rules.md §B, §E#49), by the number k of 被查叫 seats (every
    seat without 廊起) at n seats: nobody has 廊起 (k = n) or everybody has (k = 0) → the dealer stays;
    k = 1 → that seat deals (at 2 seats this rule comes first); k = n - 1 ("3 被查叫" read as "all but
    one") → the one 廊起 seat deals; otherwise (4 seats, k = 2) → the first seat to declare 廊起."""
    n = state.rules.players
    k = len(chajiao)
    if k in (0, n):
        return state.dealer
    if k == 1:
        return chajiao[0]
    if k == n - 1:
        return next(p for p in range(n) if p not in chajiao)
    return state.liangdao_order[0]
