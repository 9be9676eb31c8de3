"""Table deadlines: one pending timer per table, persisted in SQLite, armed in the JobQueue.

The deadline itself (unix time, the table seq it belongs to, its kind) is written in the same
transaction as the move that starts it (``tables.deadline_*``), so it survives a restart: start-up
re-arms every stored deadline (:meth:`kwx_bot.service.play.Play.resume`).  The JobQueue (APScheduler,
in memory) only holds the wake-up call; the callback re-checks the stored deadline and seq before
acting, so a late, duplicate or outdated wake-up does nothing.

Kinds: ``lobby`` (idle lobby expires), ``idle`` (no next hand for a long time: the table closes),
``turn`` (discard deadline), ``claim`` (claim-window deadline).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dtm
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

__all__ = ["AsyncioTimers", "Fire", "JobQueueTimers", "Timers"]

log = logging.getLogger("kwx.timers")

Fire = Callable[[int], Awaitable[None]]


class Timers(Protocol):
    """Wake the table service at a unix time for a table (replacing that table's earlier wake-up)."""

    def arm(self, table_id: int, at: float) -> None:
        """Call back for ``table_id`` at unix time ``at`` (past times fire at once)."""
        ...

    def cancel(self, table_id: int) -> None:
        """Forget the table's wake-up."""
        ...


class JobQueueTimers:
    """Timers on PTB's JobQueue (production); ``fire`` errors go to the application's error handlers.

    Each table's pending job is kept here (``jobs``), so arming and cancelling cost the same with
    one table or a thousand (the JobQueue's own lookup by name walks every scheduled job:
    docs/architecture.md §7)."""

    def __init__(self, job_queue: Any, fire: Fire, clock: Callable[[], float] = time.time) -> None:
        self.job_queue = job_queue
        self.fire = fire
        self.clock = clock
        self.jobs: dict[int, Any] = {}
        """table id -> its pending :class:`telegram.ext.Job`"""

    @staticmethod
    def _name(table_id: int) -> str:
        return f"kwx-table-{table_id}"

    def arm(self, table_id: int, at: float) -> None:
        """See :class:`Timers`."""
        self.cancel(table_id)
        delay = max(0.0, at - self.clock())
        self.jobs[table_id] = self.job_queue.run_once(
            self._callback, when=dtm.timedelta(seconds=delay), data=table_id, name=self._name(table_id)
        )

    def cancel(self, table_id: int) -> None:
        """See :class:`Timers`."""
        job = self.jobs.pop(table_id, None)
        if job is not None and not job.removed:
            with contextlib.suppress(KeyError):  # it ran meanwhile: APScheduler's JobLookupError
                job.schedule_removal()

    async def _callback(self, context: Any) -> None:
        table_id = int(context.job.data)
        if self.jobs.get(table_id) is context.job:  # it ran: no longer pending
            del self.jobs[table_id]
        await self.fire(table_id)


class AsyncioTimers:
    """Timers as asyncio tasks (no JobQueue: unit tests, tools)."""

    def __init__(self, fire: Fire, clock: Callable[[], float] = time.time) -> None:
        self.fire = fire
        self.clock = clock
        self.tasks: dict[int, asyncio.Task[None]] = {}

    def arm(self, table_id: int, at: float) -> None:
        """See :class:`Timers`."""
        self.cancel(table_id)
        self.tasks[table_id] = asyncio.get_running_loop().create_task(self._wait(table_id, at))

    def cancel(self, table_id: int) -> None:
        """See :class:`Timers`."""
        task = self.tasks.pop(table_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def _wait(self, table_id: int, at: float) -> None:
        await asyncio.sleep(max(0.0, at - self.clock()))
        if self.tasks.get(table_id) is asyncio.current_task():
            del self.tasks[table_id]
        try:
            await self.fire(table_id)
        except Exception:
            log.exception("table %s: deadline handling failed", table_id)

    async def aclose(self) -> None:
        """Cancel every pending wake-up."""
        for table_id in list(self.tasks):
            self.cancel(table_id)
