"""Liveness: stalled when getUpdates stop succeeding or updates wait without one finishing."""

from __future__ import annotations

import asyncio

import aiohttp

from kwx_bot.edge.health import Liveness, health_handler, start_ops_server
from kwx_bot.edge.processor import PerChatProcessor


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_polls_that_succeed_keep_it_alive_and_failing_ones_stall_it_after_the_allowed_silence():
    clock = Clock()
    live = Liveness(30, poll_timeout=10, clock=clock)
    for _ in range(5):  # long polls of 10 s each, answered
        live.poll_sent()
        clock.now += 10
        live.poll_done(True)
        assert live.check() is None
    live.poll_sent()
    clock.now += 2
    live.poll_done(False)  # e.g. 502 from Telegram, or a network error
    clock.now += 28
    assert live.check() is None  # 30 s since the last good poll: still within the allowed silence
    clock.now += 1
    assert live.check() == "no successful getUpdates for 31 s"
    live.poll_sent()
    live.poll_done(True)
    assert live.check() is None


def test_a_long_poll_in_flight_after_a_good_one_counts_as_alive_for_its_timeout():
    clock = Clock()
    live = Liveness(5, poll_timeout=10, clock=clock)
    live.poll_sent()
    clock.now += 14
    assert live.check() is None  # a 10 s long poll may take 10 s (plus the allowed 5)
    clock.now += 2
    assert live.check() == "no successful getUpdates for 16 s"  # it hangs


def test_webhook_mode_has_no_polls_to_miss():
    clock = Clock()
    live = Liveness(5, polling=False, clock=clock)
    clock.now += 3600
    assert live.check() is None


def test_updates_waiting_without_one_finishing_stall_it():
    clock = Clock()
    live = Liveness(5, polling=False, clock=clock)
    live.update_started()
    clock.now += 4
    live.update_started()
    live.update_done()  # one finished: the processing moves
    clock.now += 5
    assert live.check() is None
    clock.now += 1
    assert live.check() == "1 update(s) waiting and none finished for 6 s"
    live.update_done()
    assert live.check() is None and live.updates_done == 2
    clock.now += 3
    assert live.check(queued=4) is None  # waiting for 3 s since the last one finished
    clock.now += 6
    assert live.check(queued=4) == "4 update(s) waiting and none finished for 9 s"


async def test_a_blocked_processor_flips_healthz_to_503_and_back():
    clock = Clock()
    live = Liveness(5, polling=False, clock=clock)
    processor = PerChatProcessor(liveness=live)
    release = asyncio.Event()
    runners = await start_ops_server("127.0.0.1", {0: {"/healthz": health_handler(live, lambda: 0)}})
    port = runners[0].addresses[0][1]

    async def get() -> tuple[int, str]:
        async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}/healthz") as r:
            return r.status, await r.text()

    try:
        assert await get() == (200, "ok\n")
        task = asyncio.create_task(processor.do_process_update(object(), release.wait()))
        await asyncio.sleep(0)
        clock.now += 6
        assert await get() == (503, "stalled: 1 update(s) waiting and none finished for 6 s\n")
        release.set()
        await task
        assert await get() == (200, "ok\n")
    finally:
        for runner in runners:
            await runner.cleanup()
