"""AI decisions for AI seats and 托管, off the event loop when they are slow (docs/architecture.md §5).

``easy`` and ``normal`` decide in well under a millisecond: :class:`Thinker` makes them in place.
``strong`` searches (:data:`.game.SLOW_AI_LEVELS`: up to about 100 ms a decision on one core), which
would stall every table the bot serves if it ran on the event loop; so :class:`Thinker` sends it to
a worker process of its own (spawned on the first strong decision, apart from the render and review
workers: a hand picture never waits behind a search), or to a thread where there are no worker
processes (``KWX_RENDER_PROCESSES=0``: tests, one-core machines).  The decision is a pure function of
the seat's view, its legal actions, the level, the rules and the random state it is given
(:func:`.game.choose_action`), so where it runs changes nothing of what it decides.

One worker serves every table: about ten strong decisions a second on one core.  A table waits for
its own AI seats only; a press is answered before a strong seat thinks (:meth:`.play.Play.drive`).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from . import game
from .game import Action, RuleSet, SeatView

__all__ = ["Thinker"]

log = logging.getLogger("kwx.thinking")


def _warm_ai(parent: int) -> None:
    """A thinking worker's start: as a render worker's (signals, orphan watch), without pictures."""
    from .pictures import warm_worker

    warm_worker(parent, pictures=False)


class Thinker:
    """Makes AI decisions (see the module docstring) in ``processes`` worker processes (at most one
    is used; 0: a thread)."""

    def __init__(self, processes: int = 0) -> None:
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None

    @staticmethod
    def slow(level: str) -> bool:
        """A decision at ``level`` is made off the event loop (:data:`.game.SLOW_AI_LEVELS`)."""
        return level in game.SLOW_AI_LEVELS

    def _executor(self) -> ProcessPoolExecutor | None:
        if self.processes <= 0:
            return None
        if self._pool is None:
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(1, mp_context=context, initializer=_warm_ai, initargs=(os.getpid(),))
        return self._pool

    async def choose(
        self, view: SeatView, legal: Sequence[Action], level: str, rng: random.Random, rules: RuleSet
    ) -> Action:
        """:func:`.game.choose_action` of the seat of ``view`` at ``level`` — in place for a fast
        level, else in the worker process (or a thread)."""
        if not self.slow(level) or len(legal) == 1:
            return game.choose_action(view, legal, level, rng, rules)
        args = (view, list(legal), level, rng, rules)
        pool = self._executor()
        if pool is not None:
            try:
                return await asyncio.get_running_loop().run_in_executor(pool, game.choose_action, *args)
            except BrokenProcessPool:
                log.error("the AI worker process died; thinking in threads from now on")
                self.processes = 0
                self._pool = None
        return await asyncio.to_thread(game.choose_action, *args)

    def close(self) -> None:
        """Stop the worker process (shutdown)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
