"""Rate limits: time the bot was held back, per chat (ThrottleLog), and the bot's own pacing
(PacingRateLimiter: per group and overall, no retries, no global pause, stoppable)."""

from __future__ import annotations

import asyncio

import pytest
from telegram.error import NetworkError, RetryAfter

from kwx_bot.edge.throttle import GroupBudget, PacingRateLimiter, ThrottleLog, TokenLoad


class Clock:
    def __init__(self, now: float = 100.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_blocked_is_the_union_of_the_chats_intervals_within_the_window():
    clock = Clock()
    log = ThrottleLog(clock)
    log.add(-1, 100.0, 103.0)
    log.add(5, 102.0, 104.0)  # overlaps the group's wait: counted once
    log.add(6, 110.0, 111.0)  # another table's player
    clock.now = 120.0
    assert log.blocked([-1, 5], since=100.0) == pytest.approx(4.0)
    assert log.blocked([-1, 5], since=102.5) == pytest.approx(1.5)
    assert log.blocked([-1, 5], since=90.0, until=101.0) == pytest.approx(1.0)
    assert log.blocked([6], since=0.0) == pytest.approx(1.0)
    assert log.blocked([7], since=0.0) == 0.0
    assert log.total == pytest.approx(6.0)


def test_a_wait_still_going_on_counts_up_to_now_and_tiny_waits_do_not_count():
    clock = Clock()
    log = ThrottleLog(clock)
    token = log.begin(5)
    clock.now = 102.0
    assert log.blocked([5], since=100.0) == pytest.approx(2.0)
    clock.now = 103.0
    log.end(5, token)
    clock.now = 110.0
    assert log.blocked([5], since=100.0) == pytest.approx(3.0)
    log.add(5, 120.0, 120.001)
    assert log.blocked([5], since=115.0, until=130.0) == 0.0


async def test_pacing_rate_limiter_never_retries_a_429_and_passes_chatless_calls():
    limiter = PacingRateLimiter()
    calls = []

    async def refused(*args, **kwargs):
        calls.append(args)
        raise RetryAfter(1)

    # the 429 reaches the caller at once (the sender is the one retry layer), nothing is paused
    with pytest.raises(RetryAfter):
        await limiter.process_request(refused, ("x",), {}, "sendMessage", {"chat_id": -7}, None)
    assert len(calls) == 1

    async def ok(*args, **kwargs):
        return {"ok": True}

    assert await limiter.process_request(ok, (), {}, "getMe", {}, None) == {"ok": True}
    assert await limiter.process_request(ok, (), {}, "sendMessage", {"chat_id": 8}, None) == {"ok": True}


async def test_pacing_rate_limiter_paces_each_group_on_its_own_and_stop_ends_the_waits():
    limiter = PacingRateLimiter(group_max_rate=2, group_time_period=60)
    sent: list[int] = []

    async def call(chat_id):
        sent.append(chat_id)
        return True

    async def send(chat_id):
        return await limiter.process_request(call, (chat_id,), {}, "sendMessage", {"chat_id": chat_id}, None)

    await send(-1)
    await send(-1)
    third = asyncio.ensure_future(send(-1))  # the group's bucket is full: this one waits
    await send(-2)  # another group is not held up, nor is a private chat
    await send(5)
    await asyncio.sleep(0.05)
    assert not third.done() and sent == [-1, -1, -2, 5]
    limiter.stop()  # shutting down: the wait ends at once, the call is not made
    with pytest.raises(NetworkError):
        await asyncio.wait_for(third, 1)
    assert sent == [-1, -1, -2, 5]
    with pytest.raises(NetworkError):
        await send(-3)


def test_group_budget_counts_group_writes_in_a_sliding_window_and_keeps_a_reserve():
    clock = Clock(0.0)
    budget = GroupBudget(limit=4, window=60.0, clock=clock)
    for t in (0.0, 10.0, 20.0):
        clock.now = t
        budget.record(-1)
    budget.record(5)  # private chats are not counted
    clock.now = 30.0
    assert budget.used(-1) == 3 and budget.used(5) == 0
    assert budget.wait(-1) == 0.0  # a fourth write is allowed now
    assert budget.wait(-1, reserve=1) == pytest.approx(30.0)  # keeping one free: after the first expires
    assert budget.wait(-1, reserve=2) == pytest.approx(40.0)
    assert budget.wait(-2, reserve=3) == 0.0  # another group has its own budget
    clock.now = 70.0
    assert budget.used(-1) == 1 and budget.wait(-1, reserve=2) == 0.0


def test_token_load_is_busy_while_the_last_seconds_demand_reaches_its_share_of_the_limit():
    clock = Clock(0.0)
    load = TokenLoad(limit=10, window=1.0, share=0.5, clock=clock)
    for i in range(4):
        clock.now = i * 0.1
        load.record()
    assert load.demand() == pytest.approx(4.0) and not load.busy()  # 4 a second: under 5
    load.record()
    assert load.busy()  # the fifth write within the second
    clock.now = 1.05  # the first write left the window
    assert load.demand() == pytest.approx(4.0) and not load.busy()
    clock.now = 3.0
    assert load.demand() == 0.0
    assert not TokenLoad(limit=0, clock=clock).busy()  # no limit: never busy


async def test_pacing_rate_limiter_never_paces_reads():
    """``getChatMember`` names the group but is no message: a full group bucket (and a full token
    bucket) does not hold it back, and it takes nothing from them."""
    limiter = PacingRateLimiter(overall_max_rate=1, group_max_rate=1, group_time_period=60)
    made: list[str] = []

    async def call(endpoint):
        made.append(endpoint)
        return True

    async def request(endpoint, chat_id):
        return await limiter.process_request(call, (endpoint,), {}, endpoint, {"chat_id": chat_id}, None)

    await request("sendMessage", -1)  # the group's bucket and the token's bucket are full now
    for _ in range(5):
        await asyncio.wait_for(request("getChatMember", -1), 0.5)
    assert made == ["sendMessage"] + ["getChatMember"] * 5
    waiting = asyncio.ensure_future(request("sendMessage", -1))  # writes are still paced
    await asyncio.sleep(0.05)
    assert not waiting.done()
    limiter.stop()
    with pytest.raises(NetworkError):
        await asyncio.wait_for(waiting, 1)
