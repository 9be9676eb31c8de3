"""/review N in the service: answered in the group at once, reviewed in the background, each player
told privately; one review of a hand at a time and a bounded number over all groups; a review that
does not finish in time is told to the group."""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from kwx_bot.service.records import MAX_REVIEWS
from kwx_bot.service.reviews import SeatReview

from .conftest import ANN, BEN, CAT, GROUP, World
from .test_play import SCENARIO, deal, perform


class HeldReviewer:
    """A reviewer that answers when released: seat 0 differed (a picture), the others did not."""

    def __init__(self, answer: bool = True) -> None:
        self.release = asyncio.Event()
        self.answer = answer
        self.asked: list[tuple[list[int], dict[int, str], Collection[int] | None]] = []

    async def review(
        self, record: dict[str, Any], seats: Sequence[int], langs: Mapping[int, str], ruleset: str,
        pressed: Collection[int] | None = None,
    ) -> list[SeatReview] | None:  # fmt: skip
        self.asked.append((list(seats), dict(langs), pressed))
        await self.release.wait()
        if not self.answer:
            return None
        return [SeatReview(s, 5, 2 if s == 0 else 0, 1.5 if s == 0 else 0.0, 2 if s == 0 else 0, True,
                           b"png" if s == 0 else None) for s in seats]  # fmt: skip


async def _finished(world: World) -> None:
    await deal(world)
    for action in SCENARIO["actions"]:
        await perform(world, action)


async def test_reviews_go_privately_to_each_player_once_ready(world: World) -> None:
    await _finished(world)
    reviewer = HeldReviewer()
    world.service.records.reviewer = reviewer
    (ack,) = (await world.service.records.review(world.command(BEN, "review", "1"))).outs
    assert "each of its 3 players" in ack.text and ack.reply
    await asyncio.sleep(0)
    (again,) = (await world.service.records.review(world.command(CAT, "review", "1"))).outs
    assert "being reviewed already" in again.text  # one review of a hand at a time
    seats, langs, pressed = reviewer.asked[0]
    assert seats == [0, 1, 2] and set(langs.values()) == {"en"} and pressed  # only the players' own presses
    before = {u.user_id: len(world.chat.in_chat(u.user_id)) for u in (ANN, BEN, CAT)}
    reviewer.release.set()
    await world.service.idle()
    ann = world.chat.in_chat(ANN.user_id)[before[ANN.user_id] :]
    assert len(ann) == 1 and ann[0].photo and "2 decisions differed; about 1.5 points lost." in ann[0].text
    for user in (BEN, CAT):
        (word,) = world.chat.in_chat(user.user_id)[before[user.user_id] :]
        assert not word.photo and "Well played" in word.text
    assert world.service.records._reviewing == set()


async def test_the_reviewer_is_bounded_and_a_late_review_is_told(world: World) -> None:
    await _finished(world)
    reviewer = HeldReviewer(answer=False)
    world.service.records.reviewer = reviewer
    world.service.records._reviewing.update(range(-MAX_REVIEWS, 0))  # other groups' hands
    (busy,) = (await world.service.records.review(world.command(ANN, "review", "1"))).outs
    assert "busy" in busy.text and reviewer.asked == []
    world.service.records._reviewing.clear()
    await world.service.records.review(world.command(ANN, "review", "1"))
    reviewer.release.set()
    await world.service.idle()
    assert "did not finish in time" in world.chat.last(GROUP).text
