"""Reading stored event logs: their JSON decoded and brought up to the current event form, once, at load
(docs/architecture.md §2 "decide / evolve").

:func:`evolve` asks no rule: every fact a rule decided is stored in the event.  A log written before
a fact was stored lacks it; :func:`upgrade_events` derives it here, outside ``evolve``, by replaying the
log and asking the rule check once per such event.  Upgrades, in the order the facts were added:

* ``discarded.declined`` — whether a seat that had already declared 亮倒 declined a 自摸 it could
  declare when it chose to discard (counted by 过胡翻番, docs/rules.md §C ``guohu_fanfan``): read as
  :func:`engine.game.checks.can_self_win` in the state before the discard, as the engine decided it
  when the log was written.

An upgraded log replays to the same states, and its hands to the same results, as before the fact was
stored; a log in the current form passes through unchanged.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Any

from .checks import can_self_win
from .events import Discarded, Event, event_from_json
from .evolve import evolve
from .state import EMPTY, State

__all__ = ["events_from_json", "upgrade_events"]


def _legacy_choice(state: State, event: Discarded) -> bool:
    """A discard a 亮倒 seat chose to make (not automatic, not its 亮倒 declaration) stored without
    ``declined``: written before the fact was stored."""
    if event.declined is not None or event.auto or event.liangdao or not 0 <= event.seat < len(state.seats):
        return False
    return state.seats[event.seat].liangdao


def upgrade_events(events: Sequence[Event]) -> list[Event]:
    """``events`` (one hand, in order) with every fact a log written before it was stored filled in
    (see the module docstring); the same events when nothing is missing.  Events after a malformed
    one are not inspected further than ``evolve`` allows (``evolve`` does not validate)."""
    if not any(isinstance(e, Discarded) and e.liangdao for e in events):
        return list(events)  # no seat declared 亮倒: no discard can have declined a win
    out: list[Event] = []
    state = EMPTY
    for event in events:
        if isinstance(event, Discarded) and _legacy_choice(state, event):
            event = dataclasses.replace(event, declined=can_self_win(state))
        state = evolve(state, event)
        out.append(event)
    return out


def events_from_json(data: Iterable[Any]) -> list[Event]:
    """A hand's stored event JSON objects (in seq order) decoded (:func:`event_from_json`) and
    upgraded (:func:`upgrade_events`): what to replay.  Raises ``ValueError`` as ``event_from_json``."""
    return upgrade_events([event_from_json(d) for d in data])
