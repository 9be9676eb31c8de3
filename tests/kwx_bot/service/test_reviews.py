"""Reviews off the event loop (kwx_bot.service.reviews): the job reviews a hand's record and draws
each player's costliest decisions; the reviewer runs it in a worker process (or a thread) within its
time limit, and the event loop keeps running meanwhile."""

from __future__ import annotations

import asyncio
import io
import random
import time
from collections.abc import Sequence

from PIL import Image

from engine.ai import Level, choose_action
from engine.game import Action, legal_actions, replay, start, step, view_for
from engine.game.record import record
from engine.rules import RuleSet
from engine.views import SeatView
from kwx_bot.service import game
from kwx_bot.service.reviews import ProcessReviewer, review_job


def _hand(level: Level | None, seed: int = 1) -> dict:
    """A finished hand's record, every seat played by ``level`` (None: random legal actions)."""
    rules = RuleSet()
    rng = random.Random(seed)
    events = start(rules, 0, seed=f"reviews {seed}")
    state = replay(events)
    while not state.over:
        seat = state.to_act()[0]
        legal = legal_actions(state, seat)
        action = rng.choice(legal) if level is None else choose_action(view_for(state, seat), legal, level, rng)
        state, new = step(state, action)
        events.extend(new)
    return record(events)


def _lowest(view: SeatView, legal: Sequence[Action], rng: random.Random, *, budget_ms: float = 80.0) -> dict:
    return {a: -(int(a.tile) if a.tile is not None else 0.5) for a in legal}


def test_a_player_who_played_as_the_reviewer_would_gets_no_picture() -> None:
    doc = _hand(Level.NORMAL)
    ranking = ("normal", game.normal_ranking(RuleSet()))
    out = review_job(doc, [0, 1, 2], {0: "en", 1: "en", 2: "zh_CN"}, "kawuxing", 30, "png", evaluator=ranking)
    assert [r.seat for r in out] == [0, 1, 2]
    assert all(r.differed == 0 and r.picture is None and r.decisions > 0 and r.complete for r in out)


def test_the_costliest_three_are_drawn_with_the_points_lost() -> None:
    doc = _hand(None, 2)
    (one,) = review_job(doc, [1], {1: "en"}, "kawuxing", 30, "png", evaluator=("lowest", _lowest))
    assert one.differed > 3 and one.shown == 3 and one.lost is not None and one.lost > 0
    image = Image.open(io.BytesIO(one.picture or b""))
    assert image.format == "PNG" and image.width == 600 and image.height <= 840
    ranking = ("normal", game.normal_ranking(RuleSet()))
    (unestimated,) = review_job(doc, [1], {1: "en"}, "kawuxing", 30, "png", evaluator=ranking)
    assert unestimated.lost is None and unestimated.picture is not None


def test_the_time_limit_cuts_the_review_short_and_says_so() -> None:
    (cut,) = review_job(_hand(None, 3), [0], {0: "en"}, "kawuxing", 0.0, "png", evaluator=("lowest", _lowest))
    assert not cut.complete and cut.differed == 0 and cut.decisions > 0


async def test_a_review_in_a_worker_process_leaves_the_event_loop_free() -> None:
    reviewer = ProcessReviewer(1, fmt="png", playouts=8)
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    ticker = asyncio.create_task(tick())
    try:
        began = time.monotonic()
        out = await reviewer.review(_hand(None, 4), [0, 2], {0: "en", 2: "zh_CN"}, "kawuxing")
        spent = time.monotonic() - began
    finally:
        ticker.cancel()
        reviewer.close()
    assert out is not None and [r.seat for r in out] == [0, 2]
    assert ticks >= 0.3 * spent / 0.01  # the loop kept ticking while the worker reviewed


async def test_a_review_past_its_grace_is_given_up() -> None:
    reviewer = ProcessReviewer(0, seconds=0.0, grace=0.0)
    assert await reviewer.review(_hand(None, 5), [0], {0: "en"}, "kawuxing") is None


def test_only_the_players_own_presses_are_judged() -> None:
    doc = _hand(None, 6)
    lowest = ("lowest", _lowest)
    (whole,) = review_job(doc, [2], {2: "en"}, "kawuxing", 30, "png", evaluator=lowest)
    (none,) = review_job(doc, [2], {2: "en"}, "kawuxing", 30, "png", evaluator=lowest, pressed=frozenset())
    assert whole.decisions > 0 and whole.differed > 0
    assert (none.decisions, none.differed, none.picture) == (0, 0, None)  # the bot made every move
