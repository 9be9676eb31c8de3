"""A hand's record: the seats' actions that reproduce its events, as ``python -m engine play`` input.

A hand is its events (docs/architecture.md §2 "Chance is an event"): ``hand_started`` carries the
chance, and every later event follows from an action of some seat and the automatic steps after it.
:func:`actions_of` recovers those actions from the events alone, by replaying the hand and, at each
point where a seat had a choice, taking the one legal action whose events are the next stored ones
(draws, a 亮倒 seat's 摸打, window resolutions and the end are automatic and are not actions).
:func:`record` writes the whole hand as one ``play`` scenario object (:mod:`engine.game.scenario`):
feeding it to ``python -m engine play`` prints the same events and, for a finished hand, the same
result, which the record also carries under ``expect`` (a key ``play`` ignores) so anyone can compare.
:func:`public_moments` is the same walk seen from the group: the public view at each decision point
where the table changed (the frames of a replay, :mod:`render.replay`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from ..tiles import Tile, format_tiles
from ..views import MeldView, PublicView
from .actions import Action, ActionKind
from .events import Answered, Discarded, Event, HandEnded, HandStarted, Konged
from .legal import legal_actions
from .machine import replay, start, step
from .scenario import result_json
from .state import State
from .views import public_view, view_for

__all__ = ["OpenMoment", "RecordError", "actions_of", "open_moments", "public_moments", "record"]


class RecordError(ValueError):
    """The events are not a hand the engine plays: no legal action of any seat makes the next stored
    events (a corrupted or foreign log); the message names the first event that cannot be reached."""


def _could_start(action: Action, event: Event) -> bool:
    """A cheap filter: ``action`` may produce ``event`` as its first event (the full check compares
    every event the action produces)."""
    if isinstance(event, Discarded):
        kinds = (ActionKind.LIANGDAO,) if event.liangdao else (ActionKind.DISCARD,)
        return action.seat == event.seat and action.kind in kinds and action.tile == event.tile
    if isinstance(event, Answered):
        return action.seat == event.seat and action.kind.value == event.answer
    if isinstance(event, Konged):
        return action.seat == event.seat and action.kind.value == event.kind.value
    return True


def _steps(events: Sequence[Event]) -> Iterator[tuple[State, Action | None]]:
    """The hand's decision points: the state after the deal (action None), then after each action
    with the automatic steps that followed it.  Raises :class:`RecordError` (see :func:`actions_of`)."""
    if not events or not isinstance(events[0], HandStarted):
        raise RecordError("a hand's events start with hand_started")
    started = events[0]
    dealt = start(started.rules, started.dealer, hands=started.hands, wall=started.wall)
    done = len(dealt)  # hand_started and the deal's automatic steps, if any
    if list(events[1:done]) != dealt[1:]:
        raise RecordError("the deal's automatic steps are not the stored ones")
    state = replay(events[:done])
    yield state, None
    while done < len(events):
        target = events[done]
        found = None
        for seat in state.to_act():
            for candidate in legal_actions(state, seat):
                if not _could_start(candidate, target):
                    continue
                after, new = step(state, candidate)
                if list(events[done : done + len(new)]) == new:
                    found = candidate, after, len(new)
                    break
            if found is not None:
                break
        if found is None:
            raise RecordError(f"no legal action leads to event {done + 1} ({target.type}, seq {target.seq})")
        action, state, count = found
        done += count
        yield state, action


def actions_of(events: Sequence[Event]) -> list[Action]:
    """The actions, in order, that reproduce ``events`` (one hand, ``hand_started`` first) when fed
    one by one to :func:`engine.game.step` after the deal.

    Raises :class:`RecordError` when the first event is not ``hand_started`` or some stored event
    cannot be reached by any legal action.  A hand that was stopped before its end gives the actions
    up to its last event.
    """
    return [a for _, a in _steps(events) if a is not None]


def public_moments(events: Sequence[Event]) -> list[PublicView]:
    """What the group could see of the hand, moment by moment: the public view after the deal, then
    after every action whose consequences show on the table -- each discard, 碰, kong and 亮倒
    reveal, and the end (the last view, with the result) -- as the live table showed it at that
    decision point (docs/architecture.md §2 "Views are the only doors": no concealed tile of a seat
    that has not declared 亮倒 is in any of them before the end).  A pass, or a draw alone, adds no
    moment.  Raises :class:`RecordError` as :func:`actions_of` does."""
    return [view for _state, view in _moments(events)]


def _moments(events: Sequence[Event]) -> Iterator[tuple[State, PublicView]]:
    """The states of :func:`public_moments`, each with its public view."""
    shown: object = None
    for state, _action in _steps(events):
        view = public_view(state)
        key = (tuple((s.discards, s.melds, s.revealed, s.liangdao) for s in view.seats), view.result)
        if key != shown:
            yield state, view
            shown = key


OpenMoment = tuple[PublicView, tuple[tuple[tuple[Tile, ...], tuple[MeldView, ...]], ...]]
"""A moment of a finished hand: the public view and every seat's hand then (its concealed tiles,
the drawn one last, and its melds)."""


def open_moments(events: Sequence[Event]) -> list[OpenMoment]:
    """The moments of :func:`public_moments` with every hand face up: for a finished hand only, whose
    every tile is public once it is over (docs/architecture.md §5 "Result").  Raises
    :class:`RecordError` as :func:`actions_of` does, and when the last event is not ``hand_ended``
    (a hand in play, or one stopped before its end, keeps its concealed tiles private)."""
    if not events or not isinstance(events[-1], HandEnded):
        raise RecordError("only a finished hand is shown face up")
    out: list[OpenMoment] = []
    for state, view in _moments(events):
        hands = []
        for seat in range(len(view.seats)):
            own = view_for(state, seat)
            hands.append((own.concealed + ((own.drawn,) if own.drawn is not None else ()), own.melds))
        out.append((view, tuple(hands)))
    return out


def record(events: Sequence[Event], *, description: str | None = None) -> dict[str, Any]:
    """The hand as one ``python -m engine play`` scenario object (JSON-ready)::

        {"description": ..., "rules": ..., "dealer": 0, "seed": "..." | "hands": [...], "wall": "...",
         "actions": [{"seat": 0, "act": "discard", "tile": "9p"}, ...],
         "expect": {"events": [...every stored event...], "result": {...} (a finished hand only)}}

    A hand dealt from a shuffle seed is written with its ``seed`` (``play`` re-derives the same
    ``hand_started``, docs/rules.md §A3.1), a prepared deal with its ``hands`` and ``wall`` in
    notation.  ``expect.result`` is ``play``'s ``result`` object of the finished hand.  Raises
    :class:`RecordError` as :func:`actions_of` does.
    """
    actions = actions_of(events)
    started = events[0]
    assert isinstance(started, HandStarted)
    out: dict[str, Any] = {}
    if description is not None:
        out["description"] = description
    start_json = started.to_json()
    out["rules"] = start_json["rules"]
    out["dealer"] = started.dealer
    if started.seed is not None:
        out["seed"] = started.seed
    else:
        out["hands"] = [format_tiles(h, sort=False) for h in started.hands]
        out["wall"] = format_tiles(started.wall, sort=False)
    out["actions"] = [a.to_json() for a in actions]
    expect: dict[str, Any] = {"events": [e.to_json() for e in events]}
    state = replay(list(events))
    if state.over:
        expect["result"] = result_json(state)
    out["expect"] = expect
    return out
