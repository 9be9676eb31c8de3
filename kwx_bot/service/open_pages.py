"""The Mini App's open pages: who has a table open there, and the signal that wakes them
(docs/architecture.md §4 "The Mini App").  :class:`OpenPages` is the service's :class:`~.ports.Page`.

The page's server calls :meth:`OpenPages.opened` when a user's live events stream starts and
:meth:`OpenPages.closed` when it ends.  While a user has at least one stream open for a table, and
for :data:`GRACE_SECONDS` after his last one closed (a reload, a network drop, the page reconnecting
after a bot restart), he is one of the table's *viewers*: the presenter makes no Telegram write for
his hand message then.  Once the grace has passed with no stream open again, ``on_left(table_id,
user_id)`` is called once: the service then brings his hand message up to date, in one delivery of
the screen as it is by then.

The presenter calls :meth:`OpenPages.changed` whenever it brings a table's messages up to date
(after every committed move, menu step, deal, lobby change or ending): exactly when a screen of the
table may differ; the answer is the table's viewers, whose hand messages wait.  A stream takes the
table's :meth:`OpenPages.signal` *before* it reads the screen, then awaits it: a change made between
the read and the wait is not missed.  Waking says only "look again"; the stream recomputes its
screen and sends it if it differs.

A :class:`Signal` also keeps what was computed from the table while it was the current one
(:attr:`Signal.screens`, the page's screens per view): every open page of the same view (a
spectator's, a second device's) reads the one value made since the last change instead of making
its own (docs/architecture.md §4 "The Mini App").  Set, it is no longer the table's, and what it
kept goes with it.

In memory only: a restart forgets every stream (the pages reconnect within seconds and count again;
meanwhile the hand message is brought up to date as after any start).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable
from typing import Any

__all__ = ["GRACE_SECONDS", "OpenPages", "Signal"]

GRACE_SECONDS = 10.0
"""A user stays a viewer of a table this long after his last stream for it closed."""


class Signal(asyncio.Event):
    """The event set at a table's next change, with what was computed from the table meanwhile."""

    def __init__(self) -> None:
        super().__init__()
        self.screens: dict[Hashable, Any] = {}
        """view -> a value computed from the table after this signal was taken (valid while it is
        not set: the module docstring)"""
        self._futures: set[asyncio.Future[None]] = set()

    def wake(self, future: asyncio.Future[None]) -> None:
        """Resolve ``future`` when the signal is set (at once if it is): a waiter that also waits
        for something else (a timer) awaits one future, with no task of its own; it calls
        :meth:`forget` once woken."""
        if self.is_set():
            if not future.done():
                future.set_result(None)
        else:
            self._futures.add(future)

    def forget(self, future: asyncio.Future[None]) -> None:
        """Stop resolving ``future`` (its waiter was woken otherwise, or gave up)."""
        self._futures.discard(future)

    def set(self) -> None:
        """Wake every waiter, those of :meth:`wait` and of :meth:`wake` alike."""
        super().set()
        futures, self._futures = self._futures, set()
        for future in futures:
            if not future.done():
                future.set_result(None)


class OpenPages:
    """Open page streams per (table, user), the viewers per table and one :class:`Signal` per
    watched table (module docstring).  ``on_left``: called once a user's last stream for a table has
    stayed closed for ``grace`` seconds."""

    def __init__(self, on_left: Callable[[int, int], None], *, grace: float = GRACE_SECONDS) -> None:
        self.on_left = on_left
        self.grace = grace
        self._open: dict[tuple[int, int], int] = {}
        """(table id, user id) -> streams open"""
        self._leaving: dict[tuple[int, int], asyncio.TimerHandle] = {}
        """(table id, user id) -> the call that ends his grace"""
        self._viewers: dict[int, frozenset[int]] = {}
        """table id -> users with a stream open or in their grace (no entry: none)"""
        self._events: dict[int, Signal] = {}
        """table id -> the event set at its next change (only while a stream waits)"""

    # -- the presenter's questions (:class:`~.ports.Page`) --------------------------------------

    def changed(self, table_id: int) -> frozenset[int]:
        """The table's screens may have changed: wake every stream waiting on it; returns its viewers."""
        event = self._events.pop(table_id, None)
        if event is not None:
            event.screens.clear()
            event.set()
        return self._viewers.get(table_id, frozenset())

    def viewers(self, table_id: int) -> frozenset[int]:
        """The users who have the table open (a stream, or the last one closed less than the grace ago)."""
        return self._viewers.get(table_id, frozenset())

    # -- what the page's server reports ---------------------------------------------------------

    def signal(self, table_id: int) -> Signal:
        """The event set at the table's next change."""
        event = self._events.get(table_id)
        if event is None:
            event = self._events[table_id] = Signal()
        return event

    def opened(self, table_id: int, user_id: int) -> None:
        """A stream of ``user_id`` for ``table_id`` started."""
        key = (table_id, user_id)
        self._open[key] = self._open.get(key, 0) + 1
        self._viewers[table_id] = self._viewers.get(table_id, frozenset()) | {user_id}
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
        if key in self._open:
            return
        table_id, user_id = key
        viewers = self._viewers.get(table_id, frozenset()) - {user_id}
        if viewers:
            self._viewers[table_id] = viewers
        else:
            self._viewers.pop(table_id, None)
        self.on_left(table_id, user_id)

    def streams(self) -> int:
        """Streams open now (metrics, tests)."""
        return sum(self._open.values())

    def close(self) -> None:
        """Shutdown: forget every stream and pending grace (no ``on_left`` follows)."""
        for handle in self._leaving.values():
            handle.cancel()
        self._leaving.clear()
        self._open.clear()
        self._viewers.clear()
