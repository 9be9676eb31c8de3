"""AI players for 卡五星: pure functions of one seat's view (docs/architecture.md §2).

* :func:`choose_action` ``(view, legal, level, rng, *, rules=None) -> Action`` — one decision;
  levels :class:`Level` ``random``, ``greedy``, ``easy``, ``normal`` (see :mod:`engine.ai.players`),
  ``strong`` (a search over sampled worlds, :mod:`engine.ai.strong`).
* :func:`engine.ai.strong.evaluate` — the expected points of each legal action (hand review).
* :mod:`engine.ai.sampling` — game states drawn at random among those consistent with a seat's view.
* :mod:`engine.ai.hand` — the hand estimates the players use (unseen tiles, 有效牌, 番 values).
* :mod:`engine.ai.selfplay` — AI-only hands with rule checks and statistics (``python -m engine
  simulate``).

Used by the bot for AI seats and for 托管 (auto-play of an absent player), and for self-play.
"""

from __future__ import annotations

from .hand import unseen_counts
from .players import Level, Tuning, choose_action

__all__ = ["Level", "Tuning", "choose_action", "unseen_counts"]
