"""Table deadlines on PTB's JobQueue (kwx_bot/service/timers.py): one pending wake-up per table,
kept by table id (docs/architecture.md §7: the same cost at any number of tables)."""

from __future__ import annotations

import asyncio
import time

import pytest
from telegram.ext import Application

from kwx_bot.service.timers import JobQueueTimers


async def test_a_table_has_one_wake_up_replaced_by_each_arm_and_forgotten_once_it_ran(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = Application.builder().token("123:" + "t" * 35).build()
    queue = app.job_queue
    assert queue is not None
    fired: list[int] = []

    async def fire(table_id: int) -> None:
        fired.append(table_id)

    timers = JobQueueTimers(queue, fire)
    monkeypatch.setattr(type(queue), "jobs", lambda *a: pytest.fail("no walk over every job"))
    await queue.start()
    try:
        timers.arm(1, time.time() + 30)
        timers.arm(1, time.time() + 0.05)  # replaces the first
        timers.arm(2, time.time() + 0.1)
        timers.arm(3, time.time() + 0.1)
        timers.cancel(3)
        assert len(queue.scheduler.get_jobs()) == 2 and set(timers.jobs) == {1, 2}
        for _ in range(100):
            await asyncio.sleep(0.02)
            if len(fired) == 2:
                break
        assert sorted(fired) == [1, 2] and timers.jobs == {}
        timers.cancel(1)  # it ran: nothing left to cancel, and no error
        timers.arm(1, time.time() + 30)
        timers.cancel(1)
        assert queue.scheduler.get_jobs() == [] and timers.jobs == {}
    finally:
        await queue.stop(wait=False)
