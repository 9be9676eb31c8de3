"""Time the bot itself spent rate-limited, per chat (issue 6 §2: "time spent while the bot itself was
rate-limited does not count against a player").

:class:`ThrottleLog` records intervals (unix seconds on the service clock) during which a send to a
chat was held back by Telegram: the sender's own waits after a 429 ``RetryAfter`` and, in
production, the ``retry_after`` pauses of PTB's ``AIORateLimiter`` (:class:`TrackingRateLimiter`).
A table's deadline is then extended by :meth:`ThrottleLog.blocked` — the length of the union of its
chats' intervals since the deadline started — so a player is never timed out while the bot could
not show them their turn.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Coroutine, Iterable
from typing import Any

from telegram.error import RetryAfter
from telegram.ext import AIORateLimiter

__all__ = ["ThrottleLog", "TrackingRateLimiter"]

KEEP_SECONDS = 3600.0
"""Intervals older than this are forgotten (no deadline is that long)."""

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


class TrackingRateLimiter(AIORateLimiter):
    """``AIORateLimiter`` that reports, per chat, the pauses it makes after a 429 ``RetryAfter``
    (from the refusal to the retry) to a :class:`ThrottleLog`.  Its own pacing of group messages
    (20 a minute) is not counted: that is the bot's choice, not Telegram holding it back."""

    def __init__(self, log: ThrottleLog, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.log = log

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, Any]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> Any:
        """See ``AIORateLimiter.process_request``; records the 429 pauses of chat-bound calls."""
        chat_id = _chat_id(data.get("chat_id"))
        if chat_id is None:
            return await super().process_request(callback, args, kwargs, endpoint, data, rate_limit_args)
        log = self.log
        pausing: list[int] = []  # the open ThrottleLog interval of a pause after a 429

        def resume() -> None:
            while pausing:
                log.end(chat_id, pausing.pop())

        async def tracked(*a: Any, **kw: Any) -> Any:
            resume()
            try:
                return await callback(*a, **kw)
            except RetryAfter:
                pausing.append(log.begin(chat_id))
                raise

        try:
            return await super().process_request(tracked, args, kwargs, endpoint, data, rate_limit_args)
        finally:
            resume()


def _chat_id(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None
