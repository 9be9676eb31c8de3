"""A table changed: the signal a second delivery of its screens waits on (docs/architecture.md §4
"The Mini App").

The presenter calls :meth:`TableChanges.changed` whenever it brings a table's messages up to date
(after every committed move, menu step, deal, lobby change or ending): exactly when a screen of the
table may differ.  A waiter takes the table's :meth:`TableChanges.signal` *before* it reads the
screens, then awaits it: a change made between the read and the wait is not missed.  Waking says
only "look again"; the waiter recomputes its screen and sends it if it differs.

A :class:`Signal` also keeps what was computed from the table while it was the current one
(:attr:`Signal.screens`, the page's screens per view): every open page of the same view (a
spectator's, a second device's) reads the one value made since the last change instead of making
its own (docs/architecture.md §4 "The Mini App").  Set, it is no longer the table's, and what it
kept goes with it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Hashable
from typing import Any

__all__ = ["Signal", "TableChanges"]


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


class TableChanges:
    """One :class:`Signal` per watched table, replaced at each change."""

    def __init__(self) -> None:
        self._events: dict[int, Signal] = {}

    def signal(self, table_id: int) -> Signal:
        """The event set at the table's next change."""
        event = self._events.get(table_id)
        if event is None:
            event = self._events[table_id] = Signal()
        return event

    def changed(self, table_id: int) -> None:
        """The table's screens may have changed: wake every waiter."""
        event = self._events.pop(table_id, None)
        if event is not None:
            event.screens.clear()
            event.set()
