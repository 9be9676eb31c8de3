"""The game state machine of one hand of 卡五星 at ``rules.players`` seats (docs/rules.md §A;
docs/architecture.md).

``decide(state, action) -> events``, ``evolve(state, event) -> state``, ``legal_actions(state, seat)``;
``start(rules, dealer, seed=...)`` deals; ``view_for`` / ``public_view`` are the only doors out;
``events_from_json`` reads a stored log (decoded and upgraded, :mod:`engine.game.upgrade`).
See :mod:`engine.game.machine` for the rules implemented and the decisions taken.
"""

from __future__ import annotations

from .actions import Action, ActionKind, IllegalAction, Reason, action_from_json
from .events import (
    Answered,
    Discarded,
    Drew,
    Event,
    HandEnded,
    HandStarted,
    Konged,
    Ponged,
    WindowOpened,
    event_from_json,
)
from .legal import fewest_reveal, protected_tiles, reveal_preview
from .machine import check_rules, decide, evolve, first_dealer, kinds_for, legal_actions, replay, start, step
from .reveal import RevealFault
from .shuffle import commitment
from .spectator import spectator_view
from .state import EMPTY, ClaimOption, Phase, SeatState, State, Window, WindowKind
from .upgrade import events_from_json, upgrade_events
from .views import public_view, view_for

__all__ = [
    "EMPTY",
    "Action",
    "ActionKind",
    "Answered",
    "ClaimOption",
    "Discarded",
    "Drew",
    "Event",
    "HandEnded",
    "HandStarted",
    "IllegalAction",
    "Konged",
    "Phase",
    "Ponged",
    "Reason",
    "RevealFault",
    "SeatState",
    "State",
    "Window",
    "WindowKind",
    "WindowOpened",
    "action_from_json",
    "check_rules",
    "commitment",
    "decide",
    "event_from_json",
    "events_from_json",
    "evolve",
    "fewest_reveal",
    "first_dealer",
    "kinds_for",
    "legal_actions",
    "protected_tiles",
    "public_view",
    "replay",
    "reveal_preview",
    "spectator_view",
    "start",
    "step",
    "upgrade_events",
    "view_for",
]
