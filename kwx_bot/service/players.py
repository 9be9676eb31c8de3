"""The AI seam: who decides for AI seats and for 托管 (auto-play of an absent player).

``choose_action(seat_view, legal_actions, level, rng) -> Action`` only sees a
:class:`~engine.views.SeatView` (never hidden tiles) and the seat's legal actions.  The policy is
:func:`engine.ai.choose_action` when the engine's AI is available (levels ``easy`` / ``normal``);
until then (and if it ever fails to import) a simple placeholder plays: win whenever possible, pass
claims, otherwise discard the drawn tile (else the last legal discard).
"""

from __future__ import annotations

import functools
import importlib
import logging
import random
from collections.abc import Callable, Sequence

from engine.game import Action, ActionKind
from engine.rules import RuleSet
from engine.views import SeatView

__all__ = ["Policy", "choose_action", "placeholder_policy"]

log = logging.getLogger("kwx.players")

Policy = Callable[[SeatView, Sequence[Action], str, random.Random, RuleSet | None], Action]


def placeholder_policy(
    view: SeatView, legal: Sequence[Action], level: str, rng: random.Random, rules: RuleSet | None = None
) -> Action:
    """Win if possible; pass a claim window; discard the drawn tile (else the last discard)."""
    if not legal:
        raise ValueError("no legal action to choose from")
    for a in legal:
        if a.kind is ActionKind.WIN:
            return a
    for a in legal:
        if a.kind is ActionKind.PASS:
            return a
    discards = [a for a in legal if a.kind is ActionKind.DISCARD]
    for a in discards:
        if a.tile == view.drawn:
            return a
    return discards[-1] if discards else legal[0]


@functools.cache
def _policy() -> Policy:
    try:
        ai = importlib.import_module("engine.ai")
        levels = {"easy": ai.Level.EASY, "normal": ai.Level.NORMAL}
    except (ImportError, AttributeError) as e:
        log.warning("engine.ai unavailable (%s): AI seats use the placeholder policy", e)
        return placeholder_policy

    def engine_policy(
        view: SeatView, legal: Sequence[Action], level: str, rng: random.Random, rules: RuleSet | None = None
    ) -> Action:
        action: Action = ai.choose_action(view, legal, levels.get(level, ai.Level.NORMAL), rng, rules=rules)
        return action

    return engine_policy


def choose_action(
    view: SeatView,
    legal: Sequence[Action],
    level: str = "normal",
    rng: random.Random | None = None,
    rules: RuleSet | None = None,
) -> Action:
    """The AI's choice among ``legal`` for the seat of ``view``, under the table's ``rules``."""
    return _policy()(view, legal, level, rng or random.Random(0), rules)
