"""``evolve(state, event) -> state``: apply one fact, without validating (the fold of the state
machine; ``replay`` is ``reduce(evolve, events, EMPTY)``), and :class:`Builder`, which accumulates
the events of one decision while evolving.

Evolving applies what the events say and asks no rule: it imports nothing of the rule checks, the
claims, legal actions, scoring or 番 (docs/architecture.md §2 "decide / evolve"; a test pins this),
so a stored hand replays the same whatever those become.  What a rule decided when the event was
made is in the event (a window's options, kong money, a 亮倒 seat's declined win)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import assert_never

from ..analysis import keys_of
from ..tiles import Meld, MeldKind, Tile, counts_of
from ..views import DiscardView
from .actions import ActionKind
from .basics import kinds_for, replace_seat
from .events import Answered, Discarded, Drew, Event, HandEnded, HandStarted, Konged, Ponged, WindowOpened
from .hands import from_kept, moved
from .state import EMPTY, Phase, SeatState, State, Window, WindowKind, updated

__all__ = ["Builder", "evolve", "replay"]

_TILES = tuple(Tile)


def evolve(state: State, event: Event) -> State:
    """Apply one event (no validation).  Pure: returns a new state."""
    seq = event.seq
    if isinstance(event, Drew):
        return _evolve_drew(state, event)
    if isinstance(event, Discarded):
        i = event.seat
        seat = state.seats[i]
        # a 亮倒 seat that discarded instead of a 自摸 it could declare declined a win (过胡翻番): a
        # stored fact of the event, so replaying asks no rule check
        declined = seat.declined + 1 if event.declined else seat.declined
        hand, keys = moved(seat, event.tile, -1)
        seat = updated(
            seat,
            hand=hand,
            keys=keys,
            discards=(*seat.discards, DiscardView(event.tile, False, event.liangdao)),
            liangdao=seat.liangdao or event.liangdao,
            waits=event.waits if event.liangdao else seat.waits,
            declined=declined,
            hidden=event.hidden if event.liangdao else seat.hidden,
        )
        order = (*state.liangdao_order, i) if event.liangdao else state.liangdao_order
        return updated(
            state,
            seq=seq,
            phase=Phase.DISCARDED,
            seats=replace_seat(state.seats, i, seat),
            turn=i,
            drawn=None,
            replacement=False,
            turn_draws=(),
            liangdao_order=order,
        )
    if isinstance(event, WindowOpened):
        window = Window(event.kind, event.from_seat, event.tile, event.options, (), event.gangpao, event.last)
        phase = Phase.CLAIM if event.kind is WindowKind.CLAIM else Phase.ROB
        return updated(state, seq=seq, phase=phase, window=window)
    if isinstance(event, Answered):
        return _evolve_answered(state, event)
    if isinstance(event, Ponged):
        i = event.seat
        seat = state.seats[i]
        hand, keys = moved(seat, event.tile, -2)
        seat = updated(
            seat,
            hand=hand,
            keys=keys,
            melds=(*seat.melds, Meld(MeldKind.PONG, event.tile, event.from_seat)),
            louhu=(),
            passed_pong=(),
        )
        seats = replace_seat(state.seats, i, seat)
        seats = _mark_claimed(seats, event.from_seat)
        return updated(
            state,
            seq=seq,
            phase=Phase.TURN,
            seats=seats,
            turn=i,
            drawn=None,
            replacement=False,
            turn_draws=(),
            chain=0,
            window=None,
        )
    if isinstance(event, Konged):
        return _evolve_konged(state, event)
    if isinstance(event, HandEnded):
        return updated(state, seq=seq, phase=Phase.OVER, window=None, result=event.result)
    if isinstance(event, HandStarted):
        return _evolve_started(event)
    assert_never(event)


def _evolve_started(event: HandStarted) -> State:
    seats = []
    for tiles in event.hands:
        hand = counts_of(tiles)
        seats.append(SeatState(hand=tuple(hand), keys=keys_of(hand)))
    drawn = event.hands[event.dealer][-1]
    return State(
        rules=event.rules,
        seq=event.seq,
        phase=Phase.TURN,
        dealer=event.dealer,
        seed=event.seed,
        kinds=kinds_for(event.rules),
        seats=tuple(seats),
        wall=event.wall,
        front=0,
        back=len(event.wall),
        turn=event.dealer,
        drawn=drawn,
        replacement=False,
        turn_draws=(drawn,),
    )


def _evolve_drew(state: State, event: Drew) -> State:
    i = event.seat
    seat = state.seats[i]
    hand, keys = moved(seat, event.tile, 1)
    seat = updated(seat, hand=hand, keys=keys, louhu=(), passed_pong=())
    if event.replacement:
        return updated(
            state,
            seq=event.seq,
            phase=Phase.TURN,
            seats=replace_seat(state.seats, i, seat),
            back=state.back - 1,
            turn=i,
            drawn=event.tile,
            replacement=True,
            turn_draws=(*state.turn_draws, event.tile),
            window=None,
            last_drawer=i,
        )
    return updated(
        state,
        seq=event.seq,
        phase=Phase.TURN,
        seats=replace_seat(state.seats, i, seat),
        front=state.front + 1,
        turn=i,
        drawn=event.tile,
        replacement=False,
        turn_draws=(event.tile,),
        chain=0,
        window=None,
        last_drawer=i,
    )


def _evolve_answered(state: State, event: Answered) -> State:
    window = state.window
    assert window is not None
    window = updated(window, answers=(*window.answers, (event.seat, event.answer)))
    seats = state.seats
    option = window.option(event.seat)
    if option is not None:
        seat = seats[event.seat]
        changed = False
        if option.win and event.answer is not ActionKind.WIN:
            seat = updated(
                seat,
                louhu=(*seat.louhu, (window.tile, option.win)),
                declined=seat.declined + (1 if seat.liangdao else 0),
            )
            changed = True
        if option.pong and event.answer not in (ActionKind.PONG, ActionKind.WIN) and state.rules.guoshou_peng:
            seat = updated(seat, passed_pong=(*seat.passed_pong, window.tile))
            changed = True
        if changed:
            seats = replace_seat(seats, event.seat, seat)
    return updated(state, seq=event.seq, seats=seats, window=window)


def _mark_claimed(seats: tuple[SeatState, ...], from_seat: int) -> tuple[SeatState, ...]:
    src = seats[from_seat]
    last = src.discards[-1]
    src = updated(src, discards=(*src.discards[:-1], DiscardView(last.tile, True, last.liangdao)))
    return replace_seat(seats, from_seat, src)


def _evolve_konged(state: State, event: Konged) -> State:
    i = event.seat
    seat = state.seats[i]
    t = event.tile
    seats = state.seats
    if event.kind is MeldKind.CONCEALED_KONG:
        hand, keys = moved(seat, t, -4)
        seat = updated(seat, hand=hand, keys=keys, melds=(*seat.melds, Meld(MeldKind.CONCEALED_KONG, t, None)))
        turn_draws = state.turn_draws
    elif event.kind is MeldKind.ADDED_KONG:
        hand, keys = moved(seat, t, -1)
        melds = tuple(
            Meld(MeldKind.ADDED_KONG, t, m.source) if m.kind is MeldKind.PONG and m.tile == t else m for m in seat.melds
        )
        seat = updated(seat, hand=hand, keys=keys, melds=melds)
        turn_draws = state.turn_draws
    else:
        hand, keys = moved(seat, t, -3)
        seat = updated(
            seat,
            hand=hand,
            keys=keys,
            melds=(*seat.melds, Meld(MeldKind.KONG, t, event.from_seat)),
            louhu=(),
            passed_pong=(),
        )
        turn_draws = ()
    if seat.hidden:
        copies = from_kept(t, {MeldKind.CONCEALED_KONG: 4, MeldKind.ADDED_KONG: 1}.get(event.kind, 3), state.drawn)
        hidden = counts_of(seat.hidden)
        hidden[t] -= min(hidden[t], copies)
        seat = updated(seat, hidden=tuple(_TILES[k] for k, n in enumerate(hidden) for _ in range(n)))
    seats = replace_seat(seats, i, seat)
    if event.kind is MeldKind.KONG:
        assert event.from_seat is not None
        seats = _mark_claimed(seats, event.from_seat)
    if any(event.money):
        seats = tuple(
            updated(s, kong_money=s.kong_money + m) if m else s for s, m in zip(seats, event.money, strict=True)
        )
    return updated(
        state,
        seq=event.seq,
        phase=Phase.KONGED,
        seats=seats,
        turn=i,
        drawn=None,
        replacement=False,
        turn_draws=turn_draws,
        chain=event.chain,
        window=None,
    )


def replay(events: Sequence[Event]) -> State:
    """The state after ``events`` (``reduce(evolve, events, EMPTY)``)."""
    state = EMPTY
    for e in events:
        state = evolve(state, e)
    return state


class Builder:
    """Accumulates the events of one decide call, evolving as it goes."""

    __slots__ = ("events", "state")

    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[Event] = []

    @property
    def seq(self) -> int:
        """The sequence number of the next event."""
        return self.state.seq + 1

    def emit(self, event: Event) -> None:
        """Record ``event`` and evolve the state by it."""
        self.events.append(event)
        self.state = evolve(self.state, event)
