"""Rate limits: the bot's own pacing (:class:`PacingRateLimiter`) and the time Telegram held it back,
per chat (:class:`ThrottleLog`) — time spent while the bot itself was rate-limited does not count
against a player.

:class:`ThrottleLog` records intervals (unix seconds on the service clock) during which a send to a
chat was held back by Telegram: the sender's waits after a 429 ``RetryAfter`` (the one retry layer;
:class:`PacingRateLimiter` only paces and never retries).
A table's deadline is then extended by :meth:`ThrottleLog.blocked` — the length of the union of its
chats' intervals since the deadline started — so a player is never timed out while the bot could
not show them their turn.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable, Coroutine, Iterable
from typing import Any

from aiolimiter import AsyncLimiter
from telegram.error import NetworkError
from telegram.ext import BaseRateLimiter

__all__ = ["GroupBudget", "PacingRateLimiter", "ThrottleLog", "TokenLoad"]

KEEP_SECONDS = 3600.0
"""Intervals older than this are forgotten (no deadline is that long)."""

TOKEN_WRITES_PER_SECOND = 30
"""Writes a second Telegram lets one bot token make over all chats (docs/telegram.md §2)."""

MIN_INTERVAL = 0.01
"""Waits shorter than this (seconds) are scheduling noise, not throttling."""


class ThrottleLog:
    """Blocked intervals per chat id.  ``clock`` returns unix seconds (the table service's clock)."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self._done: dict[int, deque[tuple[float, float]]] = {}
        self._open: dict[int, dict[int, float]] = {}
        self._next_token = 0
        self.total = 0.0
        """Seconds of all finished intervals (all chats), for logs and tests."""

    def begin(self, chat_id: int) -> int:
        """A send to ``chat_id`` starts waiting; returns a token for :meth:`end`."""
        self._next_token += 1
        self._open.setdefault(chat_id, {})[self._next_token] = self.clock()
        return self._next_token

    def end(self, chat_id: int, token: int) -> None:
        """The wait started by :meth:`begin` is over."""
        start = self._open.get(chat_id, {}).pop(token, None)
        if start is not None:
            self.add(chat_id, start, self.clock())

    def add(self, chat_id: int, start: float, end: float) -> None:
        """Record that sends to ``chat_id`` were held back from ``start`` to ``end``."""
        if end - start < MIN_INTERVAL:
            return
        self.total += end - start
        done = self._done.setdefault(chat_id, deque())
        done.append((start, end))
        horizon = end - KEEP_SECONDS
        while done and done[0][1] < horizon:
            done.popleft()

    def blocked(self, chat_ids: Iterable[int], since: float, until: float | None = None) -> float:
        """Seconds within ``[since, until]`` (default: now) during which a send to any of
        ``chat_ids`` was held back (overlapping waits count once; waits still going on count up to
        ``until``)."""
        until = self.clock() if until is None else until
        spans: list[tuple[float, float]] = []
        for chat_id in set(chat_ids):
            spans.extend(self._done.get(chat_id, ()))
            spans.extend((start, until) for start in self._open.get(chat_id, {}).values())
        total = 0.0
        edge = since
        for start, end in sorted(spans):
            start, end = max(start, edge), min(end, until)
            if end > start:
                total += end - start
                edge = end
        return total


class GroupBudget:
    """Writes (sends, edits, deletions) per group chat in a sliding window: Telegram allows a bot
    about ``limit`` = 20 messages a minute in one group, edits included (docs/telegram.md §2).

    The :class:`~kwx_bot.sender.Sender` records every write to a group that Telegram took;
    presentation asks :meth:`wait` before a write that can wait (the live table's picture) and
    keeps ``reserve`` writes of every window for those that cannot (a hand's start, 亮倒 reveals,
    the result, notices).  ``clock``: monotonic seconds; ``limit`` 0: no budget.
    """

    def __init__(self, limit: int = 20, window: float = 60.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self._writes: dict[int, deque[float]] = {}

    def _recent(self, chat_id: int, now: float) -> deque[float]:
        writes = self._writes.setdefault(chat_id, deque())
        while writes and writes[0] <= now - self.window:
            writes.popleft()
        if not writes:
            del self._writes[chat_id]
        return writes

    def record(self, chat_id: int) -> None:
        """A write to ``chat_id`` reached Telegram now (private chats are not counted)."""
        if chat_id < 0:
            now = self.clock()
            self._recent(chat_id, now)
            self._writes.setdefault(chat_id, deque()).append(now)

    def used(self, chat_id: int) -> int:
        """Writes to ``chat_id`` within the last ``window`` seconds."""
        return len(self._recent(chat_id, self.clock()))

    def wait(self, chat_id: int, reserve: int = 0) -> float:
        """Seconds until a write to ``chat_id`` leaves ``reserve`` writes of the window unused (0: now)."""
        if self.limit <= 0:  # no budget (tests that do not measure it)
            return 0.0
        now = self.clock()
        writes = self._recent(chat_id, now)
        allowed = max(1, self.limit - reserve)
        if len(writes) < allowed:
            return 0.0
        return writes[len(writes) - allowed] + self.window - now


class TokenLoad:
    """The writes the bot asked Telegram for over all chats in the last ``window`` seconds: the
    demand on the bot token's ~``limit`` writes a second (docs/telegram.md §2), counted when a
    write is asked for, so writes still waiting in the pacing limiter count too.

    :meth:`busy` says whether that demand reached ``share`` of the limit; presentation then holds
    back writes that can wait (the group's live table picture) so that the token's capacity goes to
    the players' own hand messages first (docs/architecture.md §4 "Presentation").  ``clock``:
    monotonic seconds; ``limit`` 0: never busy.
    """

    def __init__(
        self,
        limit: float = TOKEN_WRITES_PER_SECOND,
        window: float = 5.0,
        share: float = 0.5,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limit = limit
        self.window = window
        self.share = share
        self.clock = clock
        self._asked: deque[float] = deque()

    def record(self) -> None:
        """A write (send, edit, deletion) is asked for now."""
        now = self.clock()
        self._forget(now)
        self._asked.append(now)

    def _forget(self, now: float) -> None:
        while self._asked and self._asked[0] <= now - self.window:
            self._asked.popleft()

    def demand(self) -> float:
        """Writes asked for per second over the last ``window`` seconds."""
        self._forget(self.clock())
        return len(self._asked) / self.window

    def busy(self) -> bool:
        """The demand reached ``share`` × ``limit`` writes a second."""
        return self.limit > 0 and self.demand() >= self.share * self.limit


class PacingRateLimiter(BaseRateLimiter[int]):
    """PTB rate limiter that only paces: at most ``overall_max_rate`` chat-bound calls per
    ``overall_time_period`` seconds for the whole bot and ``group_max_rate`` per
    ``group_time_period`` per group (Telegram's ~30/s and 20/min, docs/telegram.md §2), each a
    leaky bucket (aiolimiter's ``AsyncLimiter``, the one PTB's ``AIORateLimiter`` uses).

    It never retries and never pauses the whole bot: a 429 ``RetryAfter`` reaches the
    :class:`~kwx_bot.edge.sender.Sender`, the one retry layer, which waits out that chat only and logs
    one WARNING per wait (PTB's ``AIORateLimiter`` retries too, logs a traceback when it gives up,
    and stops every request of the bot while it waits — one busy group would slow every table).

    :meth:`stop` makes every pending and later wait end at once (the call then fails with
    ``NetworkError``), so a shutdown is never held up by pacing.  Pacing waits are the bot's own
    choice, not Telegram holding it back, so they are not recorded in the :class:`ThrottleLog`.

    Reads — Bot API methods named ``get…``, such as ``getChatMember`` — are not messages: they are
    not paced at all, neither as writes to the group they name nor against the token's writes
    (the sender asks each read once and never waits out a 429 for it).
    """

    def __init__(
        self,
        *,
        overall_max_rate: float = TOKEN_WRITES_PER_SECOND,
        overall_time_period: float = 1,
        group_max_rate: float = 20,
        group_time_period: float = 60,
    ) -> None:
        self._overall = AsyncLimiter(overall_max_rate, overall_time_period) if overall_max_rate > 0 else None
        self._group_rate = (group_max_rate, group_time_period)
        self._groups: dict[int, AsyncLimiter] = {}
        self._stopping = asyncio.Event()

    async def initialize(self) -> None:
        """Nothing to set up (PTB calls it on start)."""

    async def shutdown(self) -> None:
        """PTB calls it on shutdown: pending waits end."""
        self.stop()

    def stop(self) -> None:
        """End every pending pacing wait now and skip later ones (the process is stopping)."""
        self._stopping.set()

    def _group(self, chat_id: int) -> AsyncLimiter | None:
        rate, period = self._group_rate
        if rate <= 0 or chat_id >= 0:
            return None
        limiter = self._groups.get(chat_id)
        if limiter is None:
            if len(self._groups) > 10_000:  # forget idle groups' buckets (a full bucket is a new one)
                self._groups = {k: v for k, v in self._groups.items() if not v.has_capacity(rate)}
            limiter = self._groups[chat_id] = AsyncLimiter(rate, period)
        return limiter

    async def _acquire(self, limiter: AsyncLimiter) -> None:
        if self._stopping.is_set():
            raise NetworkError("kwx is stopping")
        if limiter.has_capacity():
            await limiter.acquire()
            return
        acquire = asyncio.ensure_future(limiter.acquire())
        stopping = asyncio.ensure_future(self._stopping.wait())
        try:
            await asyncio.wait({acquire, stopping}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            stopping.cancel()
            if not acquire.done():
                acquire.cancel()
        if not acquire.done() or acquire.cancelled():
            raise NetworkError("kwx is stopping")

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, Any]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> Any:
        """Wait for the group's and the bot's buckets (chat-bound writes only), then call once."""
        if endpoint.startswith("get"):  # a read: never paced (class docstring)
            return await callback(*args, **kwargs)
        chat_id = _chat_id(data.get("chat_id"))
        if chat_id is not None:
            group = self._group(chat_id)
            if group is not None:
                await self._acquire(group)
            if self._overall is not None:
                await self._acquire(self._overall)
        return await callback(*args, **kwargs)


def _chat_id(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None
