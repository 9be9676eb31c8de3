"""Time the bot was held back by rate limits, per chat (ThrottleLog) and inside AIORateLimiter."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from telegram.error import RetryAfter
from telegram.ext import _aioratelimiter as aioratelimiter

from kwx_bot.edge.throttle import ThrottleLog, TrackingRateLimiter


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


async def test_tracking_rate_limiter_records_the_time_held_back_per_chat(monkeypatch):
    slept: list[float] = []

    async def fake_sleep(seconds: float) -> None:  # the pause passes on the fake clock
        slept.append(seconds)
        clock.now += seconds

    clock = Clock()
    log = ThrottleLog(clock)
    limiter = TrackingRateLimiter(log, max_retries=1, group_max_rate=0)
    monkeypatch.setattr(aioratelimiter, "asyncio", SimpleNamespace(sleep=fake_sleep))  # only PTB's limiter
    calls = []

    async def request(*args, **kwargs):
        calls.append(args)
        if len(calls) == 1:
            raise RetryAfter(1)
        return {"ok": True}

    # the call is made again after the pause, and the pause is logged for chat -7 (not for chat 8)
    result = await limiter.process_request(request, ("x",), {}, "sendMessage", {"chat_id": -7}, None)
    assert result == {"ok": True} and len(calls) == 2 and slept == [pytest.approx(1.1)]
    assert log.blocked([-7], since=0.0) == pytest.approx(1.1)
    assert log.blocked([8], since=0.0) == 0.0
    # chat-less calls are passed through
    assert await limiter.process_request(request, (), {}, "getMe", {}, None) == {"ok": True}
