"""``decide`` / ``step``: validate an action, emit its events and every automatic step after it
(draws, replacement draws, a 亮倒 seat's 摸打 and automatic 胡, window resolutions, the end of the
hand) until some seat has a real choice or the hand is over.  See :mod:`engine.game.machine`."""

from __future__ import annotations

from ..rules import GangChainSelf
from ..tiles import MeldKind, Tile
from .actions import Action, ActionKind
from .basics import auto_win, kong_money
from .checks import can_self_win, validate
from .claims import window_options
from .endings import finish_claim_win, finish_draw, finish_guansi, finish_self_draw, guansi_seat
from .events import Answered, Discarded, Drew, Event, Konged, Ponged, WindowOpened
from .evolve import Builder
from .hands import liangdao_declared
from .legal import kong_actions
from .state import ClaimOption, Phase, State, WindowKind

__all__ = ["decide", "step"]


def step(state: State, action: Action) -> tuple[State, list[Event]]:
    """:func:`decide` and the resulting state at once (the state :func:`evolve` would build from the
    events, without applying them a second time).  Raises :class:`IllegalAction` like decide."""
    validate(state, action)
    b = Builder(state)
    _apply(b, action)
    _advance(b)
    return b.state, b.events


def decide(state: State, action: Action) -> list[Event]:
    """The events of ``action`` in ``state`` and of every automatic step after it.

    Raises :class:`IllegalAction` (with a :class:`Reason`) when the action is not allowed now;
    ``state`` is an immutable value and is never changed.
    """
    return step(state, action)[1]


def _apply(b: Builder, action: Action) -> None:
    s = b.state
    kind = action.kind
    if s.phase is Phase.TURN:
        i = s.turn
        if kind is ActionKind.WIN:
            finish_self_draw(b)
        elif kind is ActionKind.DISCARD or kind is ActionKind.LIANGDAO:
            assert action.tile is not None
            _discard(b, action.tile, kind is ActionKind.LIANGDAO, auto=False, reveal=action.reveal)
        elif kind is ActionKind.CONCEALED_KONG:
            assert action.tile is not None
            chain = _self_chain(s, action.tile)
            b.emit(
                Konged(
                    b.seq,
                    i,
                    MeldKind.CONCEALED_KONG,
                    action.tile,
                    None,
                    kong_money(s.rules, MeldKind.CONCEALED_KONG, i, None, chain),
                    chain,
                )
            )
            _replacement(b)
        else:  # added kong
            assert action.tile is not None
            _declare_added_kong(b, action.tile)
        return
    b.emit(Answered(b.seq, action.seat, kind))


def _self_chain(state: State, tile: Tile) -> int:
    """Place in the 杠上杠 chain of a kong by the turn seat (A13.3, E#17)."""
    if state.chain == 0:
        return 1
    if state.rules.gang_chain_self is GangChainSelf.ANY_KONG_SAME_TURN:
        return state.chain + 1
    if state.replacement and state.drawn == tile:
        return state.chain + 1
    return 1


def _discard(b: Builder, tile: Tile, liangdao: bool, auto: bool, reveal: tuple[Tile, ...] | None = None) -> None:
    s = b.state
    i = s.turn
    # a partial reveal: its shape fixes the waits (docs/rules.md §E#48)
    waits, hidden = liangdao_declared(s.seats[i], tile, reveal) if liangdao else ((), ())
    # the fact evolve needs for 过胡翻番: a 亮倒 seat's own discard declines a 自摸 it could declare
    declined = can_self_win(s) if s.seats[i].liangdao and not auto else None
    b.emit(Discarded(b.seq, i, tile, liangdao, waits, auto, hidden, declined))
    if _guansi(b):
        return
    s = b.state
    last = s.wall_remaining == 0
    gangpao = s.chain > 0
    options = window_options(s, WindowKind.CLAIM, i, tile, gangpao, last)
    if not options:
        _next_draw(b, i)
        return
    b.emit(WindowOpened(b.seq, WindowKind.CLAIM, i, tile, options, gangpao, last))
    _auto_answers(b)


def _auto_answers(b: Builder) -> None:
    """A 亮倒 seat that can win the tile on the table does so without being asked (A9.4, E#40)."""
    window = b.state.window
    assert window is not None
    if not auto_win(b.state.rules):
        return
    for o in window.options:
        if o.win and b.state.seats[o.seat].liangdao:
            b.emit(Answered(b.seq, o.seat, ActionKind.WIN, auto=True))


def _declare_added_kong(b: Builder, tile: Tile) -> None:
    s = b.state
    i = s.turn
    options: tuple[ClaimOption, ...] = ()
    if s.rules.qianggang:
        options = window_options(s, WindowKind.ROB, i, tile, False, False)
    if options:
        b.emit(WindowOpened(b.seq, WindowKind.ROB, i, tile, options, False, False))
        _auto_answers(b)
        return
    _complete_added_kong(b, tile)


def _complete_added_kong(b: Builder, tile: Tile) -> None:
    s = b.state
    i = s.turn
    chain = _self_chain(s, tile)
    b.emit(
        Konged(
            b.seq, i, MeldKind.ADDED_KONG, tile, None, kong_money(s.rules, MeldKind.ADDED_KONG, i, None, chain), chain
        )
    )
    _replacement(b)


def _replacement(b: Builder) -> None:
    """The kong's replacement draw from the wall's back (A3.2) — unless the kong left some seat 关死
    (卡心五, docs/rules.md §B, §E#49: checked after the kong, before the replacement)."""
    if _guansi(b):
        return
    s = b.state
    b.emit(Drew(b.seq, s.turn, s.wall[s.back - 1], True))


def _next_draw(b: Builder, after: int) -> None:
    s = b.state
    if s.wall_remaining == 0:
        finish_draw(b)
        return
    b.emit(Drew(b.seq, (after + 1) % s.rules.players, s.wall[s.front], False))


def _resolve(b: Builder) -> None:
    """Close a window whose pending answers are all in (E#40)."""
    s = b.state
    w = s.window
    assert w is not None
    winners = [seat for seat, a in w.answers if a is ActionKind.WIN]
    if winners:
        finish_claim_win(b, winners)
        return
    if w.kind is WindowKind.ROB:
        _complete_added_kong(b, w.tile)
        return
    for seat, a in w.answers:
        if a is ActionKind.KONG:
            chain = s.chain + 1 if w.gangpao else 1
            b.emit(
                Konged(
                    b.seq,
                    seat,
                    MeldKind.KONG,
                    w.tile,
                    w.from_seat,
                    kong_money(s.rules, MeldKind.KONG, seat, w.from_seat, chain),
                    chain,
                )
            )
            _replacement(b)
            return
    for seat, a in w.answers:
        if a is ActionKind.PONG:
            b.emit(Ponged(b.seq, seat, w.tile, w.from_seat))
            return
    _next_draw(b, w.from_seat)


def _guansi(b: Builder) -> bool:
    """End the hand if some seat is 关死 (卡心五, docs/rules.md §B, §E#49: checked whenever a hand
    changed, before the next seat acts); True when it did."""
    g = guansi_seat(b.state)
    if g is None:
        return False
    finish_guansi(b, g)
    return True


def _liangdao_turn_has_choice(s: State) -> bool:
    """Whether a 亮倒 turn seat has anything but discarding its drawn tile (a permitted kong, or a win
    it may decline)."""
    if can_self_win(s):
        return True
    return bool(kong_actions(s))


def _advance(b: Builder) -> None:
    """Run the automatic steps until a seat has a real choice or the hand is over."""
    while True:
        s = b.state
        if s.phase in (Phase.TURN, Phase.CLAIM, Phase.ROB) and _guansi(b):
            return
        if s.phase is Phase.TURN:
            seat = s.seats[s.turn]
            if not seat.liangdao:
                return
            if auto_win(s.rules) and can_self_win(s):
                finish_self_draw(b)
                return
            if _liangdao_turn_has_choice(s):
                return
            assert s.drawn is not None
            _discard(b, s.drawn, False, auto=True)
        elif s.phase in (Phase.CLAIM, Phase.ROB):
            assert s.window is not None
            if s.window.pending():
                return
            _resolve(b)
        else:
            return
