"""Membership asked of Telegram and remembered briefly (docs/security.md §1): "member" for a
minute, "not a member" for seconds, "could not say" never; a seating asks afresh."""

from __future__ import annotations

from kwx_bot.service.membership import MEMBER_SECONDS, OUTSIDER_SECONDS, Membership
from kwx_bot.service.ports import Outcome, Sent

GROUP = -100


class Telegram:
    """Answers ``is_member`` from ``members`` (None: Telegram could not say) and counts the questions."""

    def __init__(self) -> None:
        self.members: dict[int, bool | None] = {}
        self.asked: list[int] = []

    async def is_member(self, chat_id: int, user_id: int) -> bool | None:
        self.asked.append(user_id)
        return self.members.get(user_id, False)

    async def membership(self, chat_id: int, user_id: int) -> Sent:  # pragma: no cover - not used
        return Sent(Outcome.OK, member=await self.is_member(chat_id, user_id))


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def make() -> tuple[Membership, Telegram, Clock]:
    telegram, clock = Telegram(), Clock()
    return Membership(telegram, clock=clock), telegram, clock  # type: ignore[arg-type]


async def test_a_member_is_remembered_for_a_minute():
    members, telegram, clock = make()
    telegram.members[1] = True
    assert await members.check(GROUP, 1) is True
    telegram.members[1] = False  # left the group: a lobby button does not know for a minute
    clock.now += MEMBER_SECONDS - 1
    assert await members.check(GROUP, 1) is True and telegram.asked == [1]
    clock.now += 1
    assert await members.check(GROUP, 1) is False and telegram.asked == [1, 1]
    assert await members.check(GROUP + 1, 1) is False  # per group


async def test_a_seating_asks_again_and_its_answer_is_remembered():
    members, telegram, _clock = make()
    telegram.members[1] = True
    assert await members.check(GROUP, 1) is True
    telegram.members[1] = False
    assert await members.check(GROUP, 1, fresh=True) is False  # who left is refused a seat at once
    assert await members.check(GROUP, 1) is False and telegram.asked == [1, 1]


async def test_an_outsider_is_remembered_for_seconds_and_refused_without_asking():
    members, telegram, clock = make()
    assert await members.check(GROUP, 2) is False
    assert await members.check(GROUP, 2, fresh=True) is False  # a refusal is always safe
    assert telegram.asked == [2]
    telegram.members[2] = True  # joined the group
    clock.now += OUTSIDER_SECONDS
    assert await members.check(GROUP, 2, fresh=True) is True and telegram.asked == [2, 2]


async def test_no_answer_is_never_remembered_and_the_oldest_answers_go_first():
    members, telegram, _clock = make()
    telegram.members[3] = None  # flood control, network: ask again next time
    assert await members.check(GROUP, 3) is None
    assert await members.check(GROUP, 3) is None and telegram.asked == [3, 3]
    assert members.remembered(GROUP, 3) is None
    members.size = 2
    telegram.members.update({4: True, 5: True, 6: True})
    for user in (4, 5, 6):
        await members.check(GROUP, user)
    assert [members.remembered(GROUP, u) for u in (4, 5, 6)] == [None, True, True]
