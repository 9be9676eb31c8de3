"""A table changed: the signal a second delivery of its screens waits on (docs/architecture.md §4
"The Mini App").

The presenter calls :meth:`TableChanges.changed` whenever it brings a table's messages up to date
(after every committed move, menu step, deal, lobby change or ending): exactly when a screen of the
table may differ.  A waiter takes the table's :meth:`TableChanges.signal` *before* it reads the
screens, then awaits it: a change made between the read and the wait is not missed.  Waking says
only "look again"; the waiter recomputes its screen and sends it if it differs.
"""

from __future__ import annotations

import asyncio

__all__ = ["TableChanges"]


class TableChanges:
    """One :class:`asyncio.Event` per watched table, replaced at each change."""

    def __init__(self) -> None:
        self._events: dict[int, asyncio.Event] = {}

    def signal(self, table_id: int) -> asyncio.Event:
        """The event set at the table's next change."""
        event = self._events.get(table_id)
        if event is None:
            event = self._events[table_id] = asyncio.Event()
        return event

    def changed(self, table_id: int) -> None:
        """The table's screens may have changed: wake every waiter."""
        event = self._events.pop(table_id, None)
        if event is not None:
            event.set()
