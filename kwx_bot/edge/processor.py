"""Per-chat ordering with cross-chat concurrency (docs/telegram.md §3, "PerChatProcessor").

PTB's default runs updates one at a time, so one group waiting on Telegram's rate limiter stalls
every other table; ``concurrent_updates(True)`` loses the order within a chat.  This processor takes
one ``asyncio.Lock`` per chat: updates of one chat run in arrival order (``asyncio.Lock`` is FIFO
and PTB creates the tasks in arrival order), different chats run concurrently.  A table's own
consistency does not depend on it (the table service has its own lock; a player's private chat and
the group are different chats).  Locks of idle chats are dropped so the map does not grow forever.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any

from telegram import Update
from telegram.ext import BaseUpdateProcessor

from .health import Liveness
from .metrics import NO_METRICS, Metrics

__all__ = ["PerChatProcessor"]


class PerChatProcessor(BaseUpdateProcessor):
    """Ordered within a chat, concurrent across chats (at most ``max_concurrent_updates`` at once).

    Tells ``liveness`` when each update starts and finishes, and ``metrics`` when it is done."""

    def __init__(
        self, max_concurrent_updates: int = 256, *, liveness: Liveness | None = None, metrics: Metrics = NO_METRICS
    ) -> None:
        super().__init__(max_concurrent_updates)
        self._locks: dict[int, asyncio.Lock] = {}
        self._users: dict[int, int] = {}
        self.liveness = liveness
        self.metrics = metrics

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        """Run ``coroutine`` under the lock of the update's chat (updates without a chat run freely)."""
        liveness = self.liveness
        if liveness is not None:
            liveness.update_started()
        try:
            await self._in_order(update, coroutine)
        finally:
            if liveness is not None:
                liveness.update_done()
            self.metrics.update()

    async def _in_order(self, update: object, coroutine: Awaitable[Any]) -> None:
        chat = update.effective_chat if isinstance(update, Update) else None
        if chat is None:
            await coroutine
            return
        key = chat.id
        lock = self._locks.setdefault(key, asyncio.Lock())
        self._users[key] = self._users.get(key, 0) + 1
        try:
            async with lock:
                await coroutine
        finally:
            self._users[key] -= 1
            if self._users[key] == 0:
                del self._users[key]
                del self._locks[key]

    async def initialize(self) -> None:
        """Nothing to set up."""

    async def shutdown(self) -> None:
        """Nothing to tear down."""
