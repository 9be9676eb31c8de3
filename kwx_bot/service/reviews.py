"""Reviews of finished hands off the event loop: the engine's review and its pictures in a worker
process (docs/architecture.md §5 "Records").

A review judges every decision of the hand's people with the engine's reviewer
(:func:`.game.review_record`: ``strong`` when the build has it, tens of milliseconds per decision, so
seconds for a hand) and draws each player's costliest decisions (:func:`render.review.render_review`).
It runs in a worker process of its own (:class:`ProcessReviewer`: spawned once, like the render
worker, but apart from it, so that a review never holds up a hand picture), or in a thread when
there are no worker processes (tests, one-core machines).  Two limits keep it bounded: the job stops
evaluating at its own deadline (``seconds`` after it starts; what was judged is still answered,
marked incomplete), and the caller stops waiting ``GRACE_SECONDS`` later (answer None).  One review
runs at a time; others queue for the worker.

:func:`review_job` is the job itself: plain values in (a hand's record, the seats, each seat's
language), plain values out (:class:`SeatReview`, the picture encoded).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import time
from collections.abc import Collection, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Protocol

from . import game
from .pictures import warm_worker

__all__ = ["GRACE_SECONDS", "REVIEW_SECONDS", "ProcessReviewer", "Reviewer", "SeatReview", "review_job"]

log = logging.getLogger("kwx.reviews")

REVIEW_SECONDS = 40.0
"""How long one hand's review may evaluate decisions (seconds of the worker's time)."""
GRACE_SECONDS = 20.0
"""How much longer than its own limit the bot waits for a review (drawing, a queued review)."""
MAX_SHOWN = 3
"""Decisions a player's review picture shows at most (the costliest)."""


@dataclass(frozen=True, slots=True)
class SeatReview:
    """One player's review of a hand: ``decisions`` he made (points with more than one legal
    action), how many ``differed`` from the reviewer's choice, the points ``lost`` by its estimate
    (None: the reviewer estimates no points), how many the ``picture`` shows (``shown``; the picture
    is None when nothing differed) and whether the review judged the whole hand (``complete``)."""

    seat: int
    decisions: int
    differed: int
    lost: float | None
    shown: int
    complete: bool
    picture: bytes | None


def review_job(
    record: dict[str, Any],
    seats: Sequence[int],
    langs: Mapping[int, str],
    ruleset: str,
    seconds: float,
    fmt: str = "palette",
    evaluator: tuple[str, game.Evaluator] | None = None,
    playouts: int = game.REVIEW_PLAYOUTS,
    pressed: Collection[int] | None = None,
) -> list[SeatReview]:
    """Review ``record`` (``python -m engine play`` input, :func:`.game.hand_record`) for ``seats``
    within ``seconds`` and draw each seat's picture in ``langs[seat]`` for ``ruleset`` (encoded as
    ``fmt``, :func:`render.encode`); ``evaluator``: the engine's by default (tests pass their own),
    with ``playouts`` per decision; ``pressed``: the events the players' own presses made
    (:func:`.game.pressed_seqs`; None: every action is judged).
    CPU-bound: runs in a worker process or thread."""
    import render
    from render.review import ReviewItem, render_review

    from ..words.pictures import picture_words

    deadline = time.monotonic() + seconds
    result = game.review_record(
        record, seats, deadline=deadline, playouts=playouts, evaluator=evaluator, pressed=pressed
    )
    out = []
    for seat in seats:
        summary = result.summary(seat)
        mine = [d for d in result.decisions if d.seat == seat]
        worst = result.worst(seat, MAX_SHOWN)
        picture = None
        if worst:
            items = [ReviewItem(d.view, d.played, d.suggested, d.loss) for d in worst]
            words = picture_words(langs.get(seat, "zh_CN"))
            picture = render.encode(render_review(items, words, ruleset), fmt)
        lost = sum(d.loss or 0.0 for d in mine) if all(d.loss is not None for d in mine) else None
        decisions = summary.decisions if summary is not None else 0
        out.append(SeatReview(seat, decisions, len(mine), lost, len(worst), result.complete, picture))
    return out


class Reviewer(Protocol):
    """What ``/review`` needs: a hand's reviews, computed off the event loop."""

    async def review(
        self,
        record: dict[str, Any],
        seats: Sequence[int],
        langs: Mapping[int, str],
        ruleset: str,
        pressed: Collection[int] | None = None,
    ) -> list[SeatReview] | None:
        """Each seat's :class:`SeatReview` (in ``seats`` order) of the actions its player chose
        (``pressed``, :func:`review_job`), or None when the review did not answer in time or failed."""
        ...


class ProcessReviewer:
    """:class:`Reviewer` running :func:`review_job` in one worker process (``processes`` > 0) or a
    thread (0), with the limits of the module docstring (``seconds``, ``grace``), the reviewer's
    ``playouts`` per decision, pictures encoded as ``fmt``."""

    def __init__(
        self,
        processes: int = 0,
        *,
        fmt: str = "palette",
        seconds: float = REVIEW_SECONDS,
        grace: float = GRACE_SECONDS,
        playouts: int = game.REVIEW_PLAYOUTS,
    ) -> None:
        self.processes = processes
        self.playouts = playouts
        self.fmt = fmt
        self.seconds = seconds
        self.grace = grace
        self._pool: ProcessPoolExecutor | None = None
        self._turn = asyncio.Lock()

    def _executor(self) -> ProcessPoolExecutor | None:
        if self.processes <= 0:
            return None
        if self._pool is None:
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(1, mp_context=context, initializer=warm_worker, initargs=(os.getpid(),))
        return self._pool

    async def review(
        self,
        record: dict[str, Any],
        seats: Sequence[int],
        langs: Mapping[int, str],
        ruleset: str,
        pressed: Collection[int] | None = None,
    ) -> list[SeatReview] | None:
        """See :meth:`Reviewer.review`; a failure is logged."""
        judged = None if pressed is None else frozenset(pressed)
        args = (record, list(seats), dict(langs), ruleset, self.seconds, self.fmt, None, self.playouts, judged)
        async with self._turn:  # one at a time: a queued review's time starts when its turn comes
            try:
                return await asyncio.wait_for(self._call(args), self.seconds + self.grace)
            except TimeoutError:
                log.warning("a review took longer than %.0f s; given up", self.seconds + self.grace)
            except Exception:
                log.exception("a review failed")
        return None

    async def _call(self, args: tuple[Any, ...]) -> list[SeatReview]:
        pool = self._executor()
        if pool is not None:
            try:
                return await asyncio.get_running_loop().run_in_executor(pool, review_job, *args)
            except BrokenProcessPool:
                log.error("the review worker process died; reviewing in threads from now on")
                self.processes = 0
                self._pool = None
        return await asyncio.to_thread(review_job, *args)

    def close(self) -> None:
        """Stop the worker process (shutdown)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
