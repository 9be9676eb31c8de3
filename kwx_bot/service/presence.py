"""Who has a table open on the Mini App's page (docs/architecture.md §4 "The Mini App").

The page's server calls :meth:`PagePresence.opened` when a player's live events stream starts and
:meth:`PagePresence.closed` when it ends.  While a user has at least one stream open for a table,
and for :data:`GRACE_SECONDS` after his last one closed (a reload, a network drop, the page
reconnecting after a bot restart), he is *present*: the presenter makes no Telegram write for his
hand message there (:class:`~.ports.Presence`).  Once the grace has passed with no stream open
again, ``on_left(table_id, user_id)`` is called once: the service then brings his hand message up
to date, in one delivery of the screen as it is by then.

In memory only: a restart forgets every stream (the pages reconnect within seconds and count again;
meanwhile the hand message is brought up to date as after any start).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

__all__ = ["GRACE_SECONDS", "PagePresence"]

GRACE_SECONDS = 10.0
"""A user counts as present this long after his last stream for a table closed."""


class PagePresence:
    """Open page streams per (table, user) (see the module docstring).  ``on_left``: called once a
    user's last stream for a table has stayed closed for ``grace`` seconds."""

    def __init__(self, on_left: Callable[[int, int], None], *, grace: float = GRACE_SECONDS) -> None:
        self.on_left = on_left
        self.grace = grace
        self._open: dict[tuple[int, int], int] = {}
        """(table id, user id) -> streams open"""
        self._leaving: dict[tuple[int, int], asyncio.TimerHandle] = {}
        """(table id, user id) -> the call that ends his grace"""

    def present(self, table_id: int, user_id: int) -> bool:
        """A stream is open, or the last one closed less than the grace ago."""
        key = (table_id, user_id)
        return key in self._open or key in self._leaving

    def opened(self, table_id: int, user_id: int) -> None:
        """A stream of ``user_id`` for ``table_id`` started."""
        key = (table_id, user_id)
        self._open[key] = self._open.get(key, 0) + 1
        pending = self._leaving.pop(key, None)
        if pending is not None:
            pending.cancel()

    def closed(self, table_id: int, user_id: int) -> None:
        """A stream ended; after the last one, the grace starts (``on_left`` at its end)."""
        key = (table_id, user_id)
        left = self._open.get(key, 0) - 1
        if left > 0:
            self._open[key] = left
            return
        self._open.pop(key, None)
        if key not in self._leaving:
            self._leaving[key] = asyncio.get_running_loop().call_later(self.grace, self._left, key)

    def _left(self, key: tuple[int, int]) -> None:
        self._leaving.pop(key, None)
        if key not in self._open:
            self.on_left(*key)

    def streams(self) -> int:
        """Streams open now (metrics, tests)."""
        return sum(self._open.values())

    def close(self) -> None:
        """Shutdown: forget every stream and pending grace (no ``on_left`` follows)."""
        for handle in self._leaving.values():
            handle.cancel()
        self._leaving.clear()
        self._open.clear()
