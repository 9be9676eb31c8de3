"""A review of a recorded hand: every decision where an evaluator would have played otherwise
(docs/architecture.md §2 "Review").

:func:`review` walks a hand given as ``python -m engine play`` input (as ``/export N`` writes it,
:func:`engine.game.record.record`) action by action.  At each decision — a point where the acting
seat had more than one legal action — it asks an :class:`Evaluator` for the expected points of every
legal action *from that seat's view at that moment* (:func:`decision_view`: the seat's own tiles and
the table as it could see it, never another seat's concealed tiles nor the wall; in a claim window
the seat sees only itself asked, docs/security.md §4), and records a :class:`Decision` where the
evaluator's best action is not the one played.  ``loss`` is the evaluator's expected points (of 底金)
of its best action minus those of the action played — estimated again for the two alone, on fresh
random worlds, so that picking the best of many noisy values does not inflate it — a float >= 0;
None when the evaluator gave the played action no value (:func:`normal_ranking` ranks and does not
estimate).

The evaluator: the ``strong`` AI's :func:`engine.ai.strong.evaluate` when this build has it
(:func:`default_evaluator`), bounded by a number of playouts rather than by time (so a review
depends on its input only, not on the machine's speed or load), else :func:`normal_ranking` — the
``normal`` AI's choice, without a loss estimate.  A difference smaller than ``min_loss`` points
(default :data:`MIN_LOSS`) is within the estimate's noise and not reported.  Each decision's random
state is seeded by its index and seat, so the same input and a deterministic evaluator (one that does
not stop on the clock) give the same review.

``judged`` limits the review to the actions a person chose: the ``seq`` of the first event of each
action to judge (the bot keeps who pressed what; an action made for a seat — a time-out, 托管 — is
neither judged nor counted).

``deadline`` bounds the whole review in wall-clock time (``time.monotonic()`` seconds): decisions
reached after it are not evaluated and the :class:`Review` says ``complete = False``.
"""

from __future__ import annotations

import importlib
import inspect
import random
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from .ai import Level, choose_action
from .game import Action, IllegalAction, legal_actions, replay, step, view_for
from .game.scenario import InputError, parse_scenario
from .game.state import State
from .rules import RuleSet
from .views import SeatView

__all__ = [
    "MIN_LOSS",
    "REVIEW_PLAYOUTS",
    "ActionRefused",
    "Decision",
    "Evaluator",
    "InputError",
    "Review",
    "SeatSummary",
    "decision_view",
    "default_evaluator",
    "normal_ranking",
    "review",
    "review_scenario",
]

DEFAULT_BUDGET_MS = 80.0
"""The time an evaluator may take per decision (milliseconds), as the ``strong`` AI's default."""
REVIEW_PLAYOUTS = 64
"""Playouts per decision of the ``strong`` evaluator in a review (about 0.1-0.4 s a decision on one
core of the project's machine, so a seat's hand in a few seconds)."""
MIN_LOSS = 0.1
"""Differences below this many points of 底金 are not reported (the playouts' noise)."""


class ActionRefused(ValueError):
    """The input's action ``index`` is one the engine refuses: ``reason`` is its
    :class:`engine.game.Reason`, the message says why (as ``python -m engine play`` reports it)."""

    def __init__(self, index: int, error: IllegalAction) -> None:
        super().__init__(error.message)
        self.index = index
        self.reason = error.reason
        self.message = error.message


class Evaluator(Protocol):
    """Expected points (of 底金, for the seat of ``view``, until the end of the hand) of each action
    of ``legal``, judged from ``view`` alone; may leave actions out (no estimate).  ``rng``: its only
    randomness; ``budget_ms``: the time it may take."""

    def __call__(
        self, view: SeatView, legal: Sequence[Action], rng: random.Random, *, budget_ms: float = DEFAULT_BUDGET_MS
    ) -> dict[Action, float]: ...


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision where the evaluator would have played otherwise.

    ``index``: the action's position in the input's ``actions``; ``seq``: events applied before it
    (the hand's version then); ``view``: what the seat saw (:func:`decision_view`); ``legal``: its
    legal actions then; ``played`` / ``suggested``: the action taken and the evaluator's best;
    ``values``: the evaluator's expected points per action (those it estimated); ``loss``: expected
    points lost, >= 0, or None (no estimate of the played action)."""

    index: int
    seq: int
    seat: int
    view: SeatView
    legal: tuple[Action, ...]
    played: Action
    suggested: Action
    values: dict[Action, float]
    loss: float | None

    def to_json(self) -> dict[str, Any]:
        """``{"index", "seq", "seat", "played", "suggested", "loss", "values"}``: actions in the
        ``play`` action form (``values``: a list of ``{"action", "points"}``, best first; points
        rounded to 3 decimals)."""
        ranked = sorted(self.values.items(), key=lambda kv: -kv[1])
        return {
            "index": self.index,
            "seq": self.seq,
            "seat": self.seat,
            "played": self.played.to_json(),
            "suggested": self.suggested.to_json(),
            "loss": None if self.loss is None else round(self.loss, 3),
            "values": [{"action": a.to_json(with_seat=False), "points": round(v, 3)} for a, v in ranked],
        }


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """One seat's review in numbers: ``decisions`` it made (points with more than one legal
    action), how many ``differed`` from the evaluator and the estimated points ``lost`` (the sum of
    the known losses)."""

    seat: int
    decisions: int
    differed: int
    lost: float

    def to_json(self) -> dict[str, Any]:
        """``{"seat", "decisions", "differed", "loss"}`` (loss rounded to 3 decimals)."""
        return {"seat": self.seat, "decisions": self.decisions, "differed": self.differed, "loss": round(self.lost, 3)}


@dataclass(frozen=True, slots=True)
class Review:
    """The review of a hand: ``decisions`` that differed (in hand order), ``seats`` (one summary per
    reviewed seat), ``evaluator`` (its name), ``complete`` (False: the deadline cut it short)."""

    decisions: tuple[Decision, ...]
    seats: tuple[SeatSummary, ...]
    evaluator: str
    complete: bool

    def worst(self, seat: int, count: int = 3) -> tuple[Decision, ...]:
        """``seat``'s ``count`` costliest differing decisions (the largest known loss first, then
        those without an estimate, in hand order), returned in hand order."""
        mine = [d for d in self.decisions if d.seat == seat]
        mine.sort(key=lambda d: (d.loss is None, -(d.loss or 0.0), d.index))
        return tuple(sorted(mine[:count], key=lambda d: d.index))

    def summary(self, seat: int) -> SeatSummary | None:
        """The summary of ``seat`` (None: not reviewed)."""
        return next((s for s in self.seats if s.seat == seat), None)

    def to_json(self) -> dict[str, Any]:
        """The ``review`` command's output object (see :mod:`engine.cli_review`)."""
        return {
            "decisions": [d.to_json() for d in self.decisions],
            "seats": [s.to_json() for s in self.seats],
            "evaluator": self.evaluator,
            "complete": self.complete,
        }


def decision_view(state: State, seat: int) -> SeatView:
    """What ``seat`` saw when it had to act in ``state``: :func:`engine.game.view_for`, and in a
    claim or rob window only itself among those asked (whether another seat could claim is not
    its knowledge, docs/security.md §4)."""
    view = view_for(state, seat)
    if state.window is not None and seat in view.public.to_act and view.public.to_act != (seat,):
        return replace(view, public=replace(view.public, to_act=(seat,)))
    return view


def normal_ranking(rules: RuleSet) -> Evaluator:
    """An evaluator that ranks and does not estimate: the ``normal`` AI's choice (under ``rules``)
    is worth 0.0 and no other action gets a value — so a review with it says where the normal AI
    would have played otherwise, with ``loss`` None."""

    def evaluate(
        view: SeatView, legal: Sequence[Action], rng: random.Random, *, budget_ms: float = DEFAULT_BUDGET_MS
    ) -> dict[Action, float]:
        return {choose_action(view, legal, Level.NORMAL, rng, rules=rules): 0.0}

    return evaluate


def default_evaluator(rules: RuleSet, playouts: int | None = REVIEW_PLAYOUTS) -> tuple[str, Evaluator]:
    """``(name, evaluator)``: the ``strong`` AI's ``evaluate`` under ``rules``, bounded by
    ``playouts`` per decision (None: by the ``budget_ms`` it is given) when this build has it, else
    ``("normal", normal_ranking(rules))``."""
    try:
        strong = importlib.import_module("engine.ai.strong")
        evaluate: Callable[..., dict[Action, float]] = strong.evaluate
    except (ImportError, AttributeError):
        return "normal", normal_ranking(rules)
    accepts = inspect.signature(evaluate).parameters
    options: dict[str, Any] = {"rules": rules} if "rules" in accepts else {}
    by_playouts = playouts is not None and "playouts" in accepts

    def bounded(
        view: SeatView, legal: Sequence[Action], rng: random.Random, *, budget_ms: float = DEFAULT_BUDGET_MS
    ) -> dict[Action, float]:
        if by_playouts:
            return evaluate(view, legal, rng, budget_ms=None, playouts=playouts, **options)
        return evaluate(view, legal, rng, budget_ms=budget_ms, **options)

    return "strong", bounded


def _judge(
    evaluator: Evaluator, view: SeatView, legal: Sequence[Action], played: Action, seed: str,
    budget_ms: float, min_loss: float,
) -> tuple[Action, dict[Action, float], float | None]:  # fmt: skip
    """``(suggested, values, loss)`` of one decision (``seed``: its random states' seed).

    First every legal action is valued and the best found (ties keep the played one, then the legal
    order).  When that is not the played action, the two are valued again, alone, on fresh random
    worlds: the best of many noisy estimates is biased upwards (the winner's curse), a fresh
    comparison of two is not.  ``loss`` is that second difference; within ``min_loss`` the played
    action stands (loss 0.0).  An evaluator that gives the played action no value gives no loss."""
    rng = random.Random(seed)
    values = {a: float(v) for a, v in evaluator(view, legal, rng, budget_ms=budget_ms).items() if a in legal}
    if not values:
        return played, values, None
    best = max(values.values())
    suggested = played if values.get(played) == best else next(a for a in legal if values.get(a) == best)
    if played not in values:
        return suggested, values, None
    if suggested == played or best - values[played] < min_loss:
        return played, values, 0.0
    again = evaluator(view, [played, suggested], random.Random(seed + ":again"), budget_ms=budget_ms)
    if played not in again or suggested not in again:
        return suggested, values, best - values[played]
    loss = float(again[suggested]) - float(again[played])
    return (suggested, values, loss) if loss >= min_loss else (played, values, 0.0)


def review(
    events: Sequence[Any],
    actions: Sequence[Action],
    evaluator: Evaluator,
    *,
    seats: Sequence[int] | None = None,
    name: str = "custom",
    budget_ms: float = DEFAULT_BUDGET_MS,
    deadline: float | None = None,
    min_loss: float = MIN_LOSS,
    judged: Collection[int] | None = None,
) -> Review:
    """Review the hand that ``actions`` play after the start ``events`` (as
    :func:`engine.game.scenario.parse_scenario` returns them) with ``evaluator`` (called ``name``),
    for ``seats`` (None: every seat), only the actions whose first event's ``seq`` is in ``judged``
    (None: every action; module docstring).  Raises :class:`ActionRefused` at the first action the engine
    refuses."""
    state = replay(list(events))
    players = len(state.seats)
    wanted = set(range(players) if seats is None else seats)
    counts = dict.fromkeys(sorted(wanted), 0)
    found: list[Decision] = []
    complete = True
    for i, action in enumerate(actions):
        seat = action.seat
        mine = seat in wanted and (judged is None or state.seq + 1 in judged)
        legal = tuple(legal_actions(state, seat)) if mine and not state.over else ()
        if len(legal) > 1 and action in legal:
            counts[seat] += 1
            if deadline is not None and time.monotonic() > deadline:
                complete = False
            else:
                view = decision_view(state, seat)
                seed = f"review:{i}:{seat}"
                suggested, values, loss = _judge(evaluator, view, legal, action, seed, budget_ms, min_loss)
                if suggested != action:
                    found.append(Decision(i, state.seq, seat, view, legal, action, suggested, values, loss))
        try:
            state, _ = step(state, action)
        except IllegalAction as exc:
            raise ActionRefused(i, exc) from None
    summaries = tuple(
        SeatSummary(
            s,
            counts[s],
            sum(1 for d in found if d.seat == s),
            sum(d.loss or 0.0 for d in found if d.seat == s),
        )
        for s in sorted(wanted)
    )
    return Review(tuple(found), summaries, name, complete)


def review_scenario(
    obj: object,
    *,
    seats: Sequence[int] | None = None,
    evaluator: tuple[str, Evaluator] | None = None,
    budget_ms: float = DEFAULT_BUDGET_MS,
    playouts: int | None = REVIEW_PLAYOUTS,
    deadline: float | None = None,
    min_loss: float = MIN_LOSS,
    judged: Collection[int] | None = None,
) -> Review:
    """:func:`review` of a ``play`` input object (``expect`` and ``description`` are ignored) with
    ``evaluator`` (``(name, evaluator)``; default :func:`default_evaluator` of the hand's rules and
    ``playouts``).
    Raises :class:`InputError` for a malformed scenario or a seat the table does not have, and
    :class:`ActionRefused` for an action the engine refuses."""
    events, actions = parse_scenario(obj)
    rules = replay(events).rules
    for s in seats or ():
        if not 0 <= s < rules.players:
            raise InputError(f"seat {s} is not at this table (seats 0 to {rules.players - 1})")
    name, evaluate = evaluator or default_evaluator(rules, playouts)
    return review(
        events, actions, evaluate, seats=seats, name=name, budget_ms=budget_ms, deadline=deadline, min_loss=min_loss,
        judged=judged,
    )  # fmt: skip
