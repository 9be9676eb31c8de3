"""What the table service may ask of the store: :class:`TableStore`, a ``Protocol`` of plain rows.

The service reads rows and reports through these methods and writes only inside
``async with store.transaction() as tx`` (a :class:`~.tx.Tx`); it never sees SQL or a connection.
Tables belong to one bot (docs/architecture.md §8): every read over open tables, and what a bot
knows of a user privately, takes the asking bot's id (``bot_id``), so a bot never sees another
bot's tables; the ledger and its reports are shared.
:class:`~kwx_bot.store.Store` (SQLite, a file or ``:memory:``) implements it.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

from .rows import (
    EventRow,
    GroupStanding,
    HandRecord,
    HandRow,
    LedgerEntry,
    LedgerRow,
    SeasonReport,
    SeatRow,
    StatsRows,
    TableRow,
    UserRow,
)
from .tx import Tx

__all__ = ["TableStore"]


class TableStore(Protocol):
    """The store as the table service uses it (see :class:`~kwx_bot.store.Store` for each method)."""

    def transaction(self) -> AbstractAsyncContextManager[Tx]:
        """One write transaction: everything in it commits or rolls back together."""
        ...

    async def get_user(self, user_id: int, *, bot_id: int) -> UserRow | None:
        """A user's row as bot ``bot_id`` knows them."""
        ...

    async def users(self, user_ids: Sequence[int], *, bot_id: int) -> dict[int, UserRow]:
        """Several users' rows by id, as bot ``bot_id`` knows them."""
        ...

    async def group_id_for_chat(self, chat_id: int) -> int | None:
        """The group recorded for a chat id."""
        ...

    async def group_title(self, group_id: int) -> str:
        """A group's title."""
        ...

    async def group_settings(self, group_id: int) -> dict[str, Any]:
        """A group's settings (key -> JSON value)."""
        ...

    async def get_table(self, table_id: int) -> TableRow | None:
        """A table's row."""
        ...

    async def open_table_of_group(self, group_id: int, *, bot_id: int) -> TableRow | None:
        """The group's open table, if bot ``bot_id`` runs it."""
        ...

    async def open_table_bot(self, group_id: int) -> int | None:
        """The bot that runs the group's open table, or None when it has none."""
        ...

    async def open_tables(self, *, bot_id: int) -> list[TableRow]:
        """Every open table of bot ``bot_id``."""
        ...

    async def seats(self, table_id: int) -> list[SeatRow]:
        """A table's seats."""
        ...

    async def open_seat_of_user(self, user_id: int, *, bot_id: int) -> SeatRow | None:
        """The user's seat at an open table of bot ``bot_id``, if any."""
        ...

    async def current_hand(self, table_id: int) -> HandRow | None:
        """A table's current (latest) hand."""
        ...

    async def hands_numbered(self, group_id: int, hand_no: int | None = None) -> list[HandRow]:
        """A group's hands numbered ``hand_no`` (all when None), newest first."""
        ...

    async def hand_events(self, hand_id: int) -> list[EventRow]:
        """A hand's events in order."""
        ...

    async def ledger_of_table(self, table_id: int) -> list[LedgerRow]:
        """A table's ledger rows."""
        ...

    async def season_report(self, group_id: int) -> SeasonReport:
        """The group's current season, standings and number of hands."""
        ...

    async def user_standings(self, user_id: int) -> list[GroupStanding]:
        """A user's standings in every group and season."""
        ...

    async def recent_hands(self, group_id: int, count: int, *, hand_id: int | None = None) -> list[HandRecord]:
        """The group's last scored hands, newest first."""
        ...

    async def ledger_entries(self, group_id: int, *, season: int | None = None) -> list[LedgerEntry]:
        """The group's ledger rows, oldest first."""
        ...

    async def scored_hands_numbered(self, group_id: int, hand_no: int) -> list[tuple[int, int]]:
        """``(hand_id, table_id)`` of the group's scored hands with this number, newest first."""
        ...

    async def hand_void_state(self, hand_id: int) -> tuple[bool, bool]:
        """``(the hand nets to zero, it has correction rows)``."""
        ...

    async def stats_rows(
        self, *, group_id: int | None = None, user_id: int | None = None, all_seasons: bool = False
    ) -> StatsRows:
        """What ``/stats`` counts of a group, a user, or a user in a group."""
        ...
