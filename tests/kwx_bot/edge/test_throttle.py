"""Rate limits: time the bot was held back, per chat (ThrottleLog), and the bot's own pacing
(PacingRateLimiter: per group and overall, no retries, no global pause, stoppable)."""

from __future__ import annotations

import asyncio

import pytest
from telegram.error import NetworkError, RetryAfter

from kwx_bot.edge.throttle import (
    GroupBudget,
    Holds,
    PacingRateLimiter,
    Priority,
    SlidingWindow,
    ThrottleLog,
    TokenLoad,
)


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


def budget_with(times: tuple[float, ...], *, limit: int, now: float) -> tuple[GroupBudget, Clock]:
    """A group budget (60 s window) that recorded writes to group -1 at ``times``, its clock at ``now``."""
    clock = Clock(0.0)
    budget = GroupBudget(limit=limit, window=60.0, clock=clock)
    for t in times:
        clock.now = t
        budget.record(-1)
    clock.now = now
    return budget, clock


def test_group_budget_counts_group_writes_in_a_sliding_window_and_keeps_a_reserve():
    budget, clock = budget_with((0.0, 10.0, 20.0), limit=4, now=30.0)
    budget.record(5)  # private chats are not counted
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


class VirtualTime:
    """A fake clock for the pacer: time stands still until :meth:`run` jumps it to the next sleeper's
    wake-up, once every task is idle."""

    def __init__(self, now: float = 0.0) -> None:
        self.now = now
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        wake: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._sleepers.append((self.now + max(0.0, seconds), wake))
        await wake

    @staticmethod
    async def idle() -> None:
        for _ in range(50):
            await asyncio.sleep(0)

    async def run(self, *aws):
        """Await ``aws``, jumping the clock whenever nothing else can happen."""
        gathered = asyncio.ensure_future(asyncio.gather(*aws))
        while True:
            await self.idle()
            if gathered.done():
                return gathered.result()
            self._sleepers = [(t, f) for t, f in self._sleepers if not f.done()]
            assert self._sleepers, "stuck: nothing to wait for"
            self.now = max(self.now, min(t for t, _ in self._sleepers))
            for t, wake in self._sleepers:
                if t <= self.now:
                    wake.set_result(None)


def most_in_any_window(times: list[float], period: float) -> int:
    """The most of ``times`` within any half-open window of ``period`` seconds."""
    times = sorted(times)
    return max((sum(1 for u in times if t <= u < t + period) for t in times), default=0)


def paced(clock: VirtualTime, **kwargs) -> tuple[PacingRateLimiter, list[tuple[float, int, str]]]:
    limiter = PacingRateLimiter(clock=clock, sleep=clock.sleep, **kwargs)
    made: list[tuple[float, int, str]] = []

    async def call(chat_id, what):
        made.append((clock(), chat_id, what))
        return True

    async def write(chat_id, what="", priority=None, endpoint="editMessageMedia"):
        data = {"chat_id": chat_id}
        return await limiter.process_request(call, (chat_id, what), {}, endpoint, data, priority)

    limiter.write = write  # type: ignore[attr-defined]
    return limiter, made


async def test_the_pacer_never_lets_more_than_n_writes_into_any_second_and_reads_pass_at_once():
    clock = VirtualTime()
    limiter, made = paced(clock, overall_max_rate=28)
    writes = [asyncio.ensure_future(limiter.write(chat)) for chat in range(1, 101)]  # a burst of 100
    member = await limiter.process_request(lambda: asyncio.sleep(0, "member"), (), {}, "getChatMember",
                                           {"chat_id": -5, "user_id": 1}, None)  # fmt: skip
    assert member == "member" and clock.now == 0  # a read is no write: never queued
    await clock.run(*writes)
    times = [t for t, _, _ in made]
    assert len(times) == 100 and most_in_any_window(times, 1.0) == 28
    assert max(times) < 4.0  # and as fast as that allows: 28, 28, 28, 16
    await limiter.shutdown()


async def test_an_urgent_write_overtakes_queued_writes_that_can_wait_but_none_starves():
    clock = VirtualTime()
    limiter, made = paced(clock, overall_max_rate=10)
    table = [asyncio.ensure_future(limiter.write(-1 - i, "table", Priority.BACKGROUND)) for i in range(15)]
    await clock.idle()
    assert len(made) == 10  # the second is full; five live-table edits wait
    start = asyncio.ensure_future(limiter.write(-99, "start"))  # a group announcement
    hand = asyncio.ensure_future(limiter.write(7, "hand"))  # a player's own hand (a private chat)
    await clock.run(*table, start, hand)
    assert [w for _, _, w in made[10:13]] == ["hand", "start", "table"]
    assert made[10][0] == pytest.approx(1.0)
    await limiter.shutdown()


async def test_a_write_that_can_wait_yields_only_its_slack_so_none_starves():
    """Hands asked for faster than the token allows (12 a second against 10): a live-table edit
    queued at 0 goes after the hands queued within its slack (3 s), before every later one."""
    clock = VirtualTime()
    limiter, made = paced(clock, overall_max_rate=10)

    async def players():
        writes = []
        for second in range(8):
            writes += [asyncio.ensure_future(limiter.write(100 * second + i, f"hand@{second}")) for i in range(12)]
            if second == 0:
                writes.append(asyncio.ensure_future(limiter.write(-1, "table", Priority.BACKGROUND)))
            await clock.sleep(1.0)
        await asyncio.gather(*writes)

    await clock.run(players())
    order = [w for _, _, w in made]
    table = order.index("table")
    assert set(order[:table]) == {"hand@0", "hand@1", "hand@2"} and len(order[:table]) == 36
    assert all(int(w[5:]) >= 3 for w in order[table + 1 :])
    await limiter.shutdown()


async def test_each_group_gets_at_most_its_limit_in_any_window_counted_until_answered():
    """Calls take 0.2 s and Telegram, at worst, counts them when they end: still no 60 s window of
    its own holds more than 20 of one group's writes."""
    clock = VirtualTime()
    budget = GroupBudget(limit=20, window=60.0, clock=clock)
    limiter, made = paced(clock, budget=budget)

    async def slow(chat_id, what):
        await clock.sleep(0.2)
        made.append((clock(), chat_id, what))  # as late as Telegram can have received it
        return True

    writes = [asyncio.ensure_future(limiter.process_request(slow, (-1, "w"), {}, "sendPhoto", {"chat_id": -1}, None))
              for _ in range(25)]  # fmt: skip
    await clock.idle()
    other = asyncio.ensure_future(limiter.write(-2, "elsewhere"))  # another group is not held up by -1's window
    await clock.run(other)
    assert made[0][1] == -2
    assert budget.wait(-1, reserve=6) > 0  # presentation sees the same window: twenty in flight
    await clock.run(*writes)
    times = [t for t, c, _ in made if c == -1]
    assert len(times) == 25 and most_in_any_window(times, 60.0) == 20
    await limiter.shutdown()


def test_a_slow_answer_holds_its_slot_only_for_the_grace():
    window = SlidingWindow(limit=2, period=1.0, grace=0.25)
    slow, fast = window.take(0.0), window.take(0.0)
    assert window.free_at(0.0) == 1.25  # both in flight: they count until 1 s after their grace
    window.settle(fast, 0.1)
    assert window.free_at(0.2) == pytest.approx(1.1)  # answered at 0.1: it leaves at 1.1
    assert window.used(1.3) == 0 and window.flying == 1  # the slow one is still unanswered, no longer counted
    window.settle(slow, 5.0)
    assert window.used(5.0) == 0  # counted as answered at 0.25


def test_a_write_started_late_counts_its_grace_from_its_start():
    window = SlidingWindow(limit=1, period=1.0, grace=0.25)
    late = window.take(0.0)
    window.started(late, 0.4)  # the loop resumed the caller 0.4 s after it was let go
    assert window.free_at(0.5) == pytest.approx(1.65)  # in flight: counted until 1 s after 0.4 + its grace
    window.started(late, 0.1)  # never earlier than it was last known to start
    window.settle(late, 3.0)
    assert window.free_at(1.6) == pytest.approx(1.65)  # answered late: counted as answered at 0.65
    window.started(late, 9.0)  # an answered write is left alone
    assert window.free_at(1.7) == 1.7


async def test_the_pacer_restamps_a_write_when_its_caller_resumes():
    """A write is let go by the pacer's loop and started when its caller resumes (later, on a busy
    loop): the pacer tells the token's window that start, before the call is made."""
    clock = VirtualTime()
    limiter = PacingRateLimiter(clock=clock, sleep=clock.sleep)
    starts: list[tuple[int, float]] = []
    window = limiter.token
    assert window is not None
    window.started = lambda token, now: starts.append((token, now))  # type: ignore[method-assign]
    made: list[int] = []

    async def call(*_: object) -> bool:
        made.append(len(starts))  # the start was told before the call
        return True

    assert await limiter.process_request(call, (), {}, "sendMessage", {"chat_id": 5}, None) is True
    assert made == [1] and starts == [(0, clock())]
    group_starts: list[tuple[int, int]] = []
    limiter.budget.started = lambda chat, token: group_starts.append((chat, token))  # type: ignore[method-assign]
    assert await limiter.process_request(call, (), {}, "sendMessage", {"chat_id": -7}, None) is True
    assert made == [1, 2] and group_starts == [(-7, 0)]  # a group's window is told too
    await limiter.shutdown()


async def test_a_chats_queued_writes_wait_while_a_429_holds_it():
    clock = VirtualTime()
    holds = Holds()
    limiter, made = paced(clock, holds=holds)
    holds.begin(-5)
    held = asyncio.ensure_future(limiter.write(-5, "rules"))
    assert await limiter.write(-6, "other") is True
    await clock.idle()
    assert not held.done() and [c for _, c, _ in made] == [-6]
    holds.end(-5)
    await clock.run(held)
    assert [c for _, c, _ in made] == [-6, -5]
    await limiter.shutdown()


def test_the_group_budget_is_kept_across_a_restart_in_unix_time():
    budget, _clock = budget_with((450.0, 470.0, 490.0), limit=20, now=500.0)
    kept = budget.snapshot(unix_now=1_000_000.0)
    assert kept == {-1: [999_950.0, 999_970.0, 999_990.0]}
    fresh = GroupBudget(limit=20, window=60.0, clock=Clock(7.0))  # a new process: another monotonic clock
    fresh.restore(kept, unix_now=1_000_005.0)  # five seconds later
    assert fresh.used(-1) == 3
    assert fresh.wait(-1, reserve=17) == pytest.approx(10.0 - 5.0)  # when the first leaves the minute
