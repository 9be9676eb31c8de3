"""The store's reads, written once for SQLite and PostgreSQL (docs/architecture.md).

:class:`SqlStore` implements every read of :class:`~.port.TableStore` over two primitives its
subclasses give — :meth:`SqlStore._rows` on the store's own connection (or pool) and
:meth:`SqlStore.reader`, the connection of the ledger reports — and declares the lifecycle both
databases have (``open``, ``migrate``, ``transaction``, ``close``...).  The SQL is the subset the two
databases read alike, with ``?`` placeholders (see :mod:`.db`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from . import ledger_queries
from .db import StatementHook
from .ledger_queries import Conn
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
    loads,
)
from .tx import Tx

__all__ = ["TABLES", "SqlStore", "table_row"]

TABLES = ("users", "chats", "chat_aliases", "settings", "tables", "seats", "hands", "events", "ledger", "bot_users")
"""Every table of the schema, each after the tables it refers to (the order a copy fills them in);
not ``group_writes``, a bot's last minute of group writes, which no copy needs."""

_TABLE_COLUMNS = (
    "t.table_id, t.group_id, c.chat_id, t.status, t.rules, t.options, t.created_by, t.created_at, "
    "t.updated_at, t.seq, t.hand_no, t.next_dealer, t.next_deal, t.lobby_msg_id, t.table_msg_id, "
    "t.deadline_at, t.deadline_seq, t.deadline_kind, t.announced_seq, t.join_token, t.table_digest, t.bot_id, "
    "t.deadline_start"
)


def table_row(r: Sequence[Any]) -> TableRow:
    """Build a :class:`TableRow` from a ``_TABLE_COLUMNS`` result row."""
    return TableRow(
        table_id=r[0], group_id=r[1], chat_id=r[2], status=r[3], rules=loads(r[4]), options=loads(r[5]),
        created_by=r[6], created_at=r[7], updated_at=r[8], seq=r[9], hand_no=r[10], next_dealer=r[11],
        next_deal=loads(r[12]), lobby_msg_id=r[13], table_msg_id=r[14], deadline_at=r[15],
        deadline_seq=r[16], deadline_kind=r[17], announced_seq=r[18], join_token=r[19], table_digest=r[20],
        bot_id=r[21], deadline_start=r[22],
    )  # fmt: skip


_SEAT_COLUMNS = (
    "table_id, seat, user_id, ai_level, on_auto, timeouts, hand_msg_id, last_press, shown_digest, bank_used, "
    "reminder_msg_id, reminder_seq"
)


def _seat_row(r: Sequence[Any]) -> SeatRow:
    return SeatRow(
        table_id=r[0], seat=r[1], user_id=r[2], ai_level=r[3], on_auto=bool(r[4]), timeouts=r[5],
        hand_msg_id=r[6], last_press=r[7], shown_digest=r[8], bank_used=r[9], reminder_msg_id=r[10],
        reminder_seq=r[11],
    )  # fmt: skip


class SqlStore:
    """The reads of the store, shared by :class:`~kwx_bot.store.Store` (SQLite) and
    :class:`~kwx_bot.store.postgres.PgStore` (PostgreSQL)."""

    path: str
    """Where the database is: the SQLite file, or the PostgreSQL URL without its password."""
    on_commit: Callable[[float], None] | None
    """Told the seconds of every committed write transaction, ``BEGIN`` to ``COMMIT`` (metrics)."""
    statements: StatementHook
    """Told the kind of every SQL statement the store runs: set ``statements.told`` (metrics)."""

    # -- what each database gives -----------------------------------------------------------------

    async def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]:
        """Every row of one read outside a transaction (committed data)."""
        raise NotImplementedError

    def reader(self) -> contextlib.AbstractAsyncContextManager[Conn]:
        """A connection for the read-only report queries of :mod:`.ledger_queries`."""
        raise NotImplementedError

    def transaction(self) -> contextlib.AbstractAsyncContextManager[Tx]:
        """One write transaction: everything in it commits or rolls back together; one at a time."""
        raise NotImplementedError

    async def close(self) -> None:
        """Close the connections."""
        raise NotImplementedError

    async def schema_version(self) -> int:
        """The schema version the database is at (0 = empty)."""
        raise NotImplementedError

    async def migrate(self) -> list[int]:
        """Apply pending migrations, each in its own transaction; returns the versions applied."""
        raise NotImplementedError

    async def integrity_check(self, *, quick: bool = False) -> list[str]:
        """Problems found, ``["ok"]`` when healthy."""
        raise NotImplementedError

    async def backup(self, target: str | Path) -> None:
        """A copy of the whole database at ``target``."""
        raise NotImplementedError

    async def _scalar(self, sql: str, params: Sequence[Any] = ()) -> Any:
        rows = await self._rows(sql, params)
        return rows[0][0] if rows else None

    # -- users and chats -------------------------------------------------------------------------

    async def get_user(self, user_id: int, *, bot_id: int) -> UserRow | None:
        """The user as bot ``bot_id`` knows them (names and language are shared by every bot;
        ``can_pm`` and the pending join are that bot's), or None if never seen."""
        rows = await self._rows(
            "SELECT u.user_id, u.first_name, u.last_name, u.username, u.language_code, b.can_pm, "
            "b.pending_table_id FROM users u LEFT JOIN bot_users b ON b.user_id = u.user_id AND b.bot_id = ? "
            "WHERE u.user_id = ?",
            (bot_id, user_id),
        )
        if not rows:
            return None
        r = rows[0]
        return UserRow(r[0], r[1], r[2], r[3], r[4], bool(r[5]), r[6])

    async def users(self, user_ids: Sequence[int], *, bot_id: int) -> dict[int, UserRow]:
        """Several users by id as bot ``bot_id`` knows them (missing ids are absent from the result)."""
        out = {}
        for uid in set(user_ids):
            row = await self.get_user(uid, bot_id=bot_id)
            if row is not None:
                out[uid] = row
        return out

    async def group_id_for_chat(self, chat_id: int) -> int | None:
        """Our group id for a Telegram chat id (current or pre-migration), or None."""
        gid = await self._scalar("SELECT group_id FROM chats WHERE chat_id = ?", (chat_id,))
        if gid is None:
            gid = await self._scalar("SELECT group_id FROM chat_aliases WHERE old_chat_id = ?", (chat_id,))
        return None if gid is None else int(gid)

    async def chat_id_for_group(self, group_id: int) -> int | None:
        """The current Telegram chat id of a group."""
        cid = await self._scalar("SELECT chat_id FROM chats WHERE group_id = ?", (group_id,))
        return None if cid is None else int(cid)

    async def group_title(self, group_id: int) -> str:
        """The group's title as last seen ("" if unknown)."""
        return str(await self._scalar("SELECT title FROM chats WHERE group_id = ?", (group_id,)) or "")

    async def group_settings(self, group_id: int) -> dict[str, Any]:
        """All settings of a group as ``{key: value}`` (values decoded from JSON)."""
        rows = await self._rows("SELECT key, value FROM settings WHERE group_id = ?", (group_id,))
        return {r[0]: loads(r[1]) for r in rows}

    # -- tables, seats, hands, events ------------------------------------------------------------

    async def get_table(self, table_id: int) -> TableRow | None:
        """A table by id, or None."""
        rows = await self._rows(
            f"SELECT {_TABLE_COLUMNS} FROM tables t JOIN chats c USING (group_id) WHERE t.table_id = ?",
            (table_id,),
        )
        return table_row(rows[0]) if rows else None

    async def open_table_of_group(self, group_id: int, *, bot_id: int) -> TableRow | None:
        """The group's non-closed table if bot ``bot_id`` runs it, else None (a group has at most one
        open table, whichever bot runs it)."""
        rows = await self._rows(
            f"SELECT {_TABLE_COLUMNS} FROM tables t JOIN chats c USING (group_id) "
            "WHERE t.group_id = ? AND t.status != 'closed' AND t.bot_id = ?",
            (group_id, bot_id),
        )
        return table_row(rows[0]) if rows else None

    async def open_table_bot(self, group_id: int) -> int | None:
        """The bot that runs the group's non-closed table (its ``tables.bot_id``), or None when the
        group has no open table (docs/architecture.md §8: one open table per group, whichever bot)."""
        rows = await self._rows("SELECT bot_id FROM tables WHERE group_id = ? AND status != 'closed'", (group_id,))
        return int(rows[0][0]) if rows else None

    async def open_tables(self, *, bot_id: int) -> list[TableRow]:
        """Every non-closed table of bot ``bot_id`` (what its restart must resume), oldest first."""
        rows = await self._rows(
            f"SELECT {_TABLE_COLUMNS} FROM tables t JOIN chats c USING (group_id) "
            "WHERE t.status != 'closed' AND t.bot_id = ? ORDER BY t.table_id",
            (bot_id,),
        )
        return [table_row(r) for r in rows]

    async def open_table_count(self) -> int:
        """How many tables are open, whichever bot runs them (``kwx-bot check-db``)."""
        return int(await self._scalar("SELECT count(*) FROM tables WHERE status != 'closed'"))

    async def seats(self, table_id: int) -> list[SeatRow]:
        """The seats of a table in seat order."""
        rows = await self._rows(
            f"SELECT {_SEAT_COLUMNS} FROM seats WHERE table_id = ? ORDER BY seat",
            (table_id,),
        )
        return [_seat_row(r) for r in rows]

    async def group_writes(self, *, bot_id: int) -> dict[int, list[float]]:
        """Group chat id -> the unix times of bot ``bot_id``'s writes there, oldest first, as kept at
        its last clean stop (:meth:`~kwx_bot.store.tx.Tx.keep_group_writes`)."""
        out: dict[int, list[float]] = {}
        for chat_id, sent_at in await self._rows(
            "SELECT chat_id, sent_at FROM group_writes WHERE bot_id = ? ORDER BY sent_at", (bot_id,)
        ):
            out.setdefault(int(chat_id), []).append(float(sent_at))
        return out

    async def open_seat_of_user(self, user_id: int, *, bot_id: int) -> SeatRow | None:
        """The user's seat at an open table of bot ``bot_id``, or None (a user sits at one open table
        at a time, whichever bot runs it)."""
        rows = await self._rows(
            f"SELECT {_SEAT_COLUMNS} FROM seats WHERE user_id = ? AND active = 1 "
            "AND table_id IN (SELECT table_id FROM tables WHERE bot_id = ?)",
            (user_id, bot_id),
        )
        return _seat_row(rows[0]) if rows else None

    async def current_hand(self, table_id: int) -> HandRow | None:
        """The table's latest hand (playing or over), or None before the first deal."""
        rows = await self._rows(
            "SELECT hand_id, table_id, hand_no, dealer, deal, first_seq, status, result, sitting_out FROM hands "
            "WHERE table_id = ? ORDER BY hand_no DESC LIMIT 1",
            (table_id,),
        )
        if not rows:
            return None
        r = rows[0]
        return HandRow(r[0], r[1], r[2], r[3], loads(r[4]), r[5], r[6], loads(r[7]), r[8])

    async def hands_numbered(self, group_id: int, hand_no: int | None = None) -> list[HandRow]:
        """The group's dealt hands numbered ``hand_no`` (per table, as ``/history`` numbers them; every
        hand when None), any status, newest first (by start, then hand id); at most 20."""
        numbered = "" if hand_no is None else " AND h.hand_no = ?"
        rows = await self._rows(
            "SELECT h.hand_id, h.table_id, h.hand_no, h.dealer, h.deal, h.first_seq, h.status, h.result, "
            "h.sitting_out "
            f"FROM hands h JOIN tables t ON t.table_id = h.table_id WHERE t.group_id = ?{numbered} "
            "ORDER BY h.started_at DESC, h.hand_id DESC LIMIT 20",
            (group_id,) if hand_no is None else (group_id, hand_no),
        )
        return [HandRow(r[0], r[1], r[2], r[3], loads(r[4]), r[5], r[6], loads(r[7]), r[8]) for r in rows]

    async def hand_events(self, hand_id: int) -> list[EventRow]:
        """The events of a hand in seq order."""
        rows = await self._rows(
            "SELECT table_id, seq, hand_id, kind, data, actor FROM events WHERE hand_id = ? ORDER BY seq",
            (hand_id,),
        )
        return [EventRow(r[0], r[1], r[2], r[3], loads(r[4]), r[5]) for r in rows]

    async def ledger_of_hand(self, hand_id: int) -> list[LedgerRow]:
        """Ledger rows of one hand (kind 'hand'), by seat."""
        rows = await self._rows(
            "SELECT hand_id, seat, user_id, hand_delta, kong_delta, delta, won, dealt_in, multiplier, fans "
            "FROM ledger WHERE hand_id = ? AND kind = 'hand' ORDER BY seat",
            (hand_id,),
        )
        return [LedgerRow(r[0], r[1], r[2], r[3], r[4], r[5], bool(r[6]), bool(r[7]), r[8], r[9]) for r in rows]

    async def ledger_of_table(self, table_id: int) -> list[LedgerRow]:
        """Every ledger row of a table, hand by hand."""
        rows = await self._rows(
            "SELECT hand_id, seat, user_id, hand_delta, kong_delta, delta, won, dealt_in, multiplier, fans "
            "FROM ledger WHERE table_id = ? ORDER BY hand_id, seat, entry_id",
            (table_id,),
        )
        return [LedgerRow(r[0], r[1], r[2], r[3], r[4], r[5], bool(r[6]), bool(r[7]), r[8], r[9]) for r in rows]

    async def counts(self) -> dict[str, int]:
        """Row counts per table (for ``kwx-bot check-db``)."""
        out = {}
        for name in ("users", "chats", "tables", "seats", "hands", "events", "ledger"):
            out[name] = int(await self._scalar(f"SELECT count(*) FROM {name}"))
        return out

    # -- ledger reports (read-only, on the reader connection: see :meth:`reader`) ----------------

    async def season_report(self, group_id: int) -> SeasonReport:
        """The group's current season, its standings and how many hands it scored (one snapshot)."""
        async with self.reader() as db:
            season = await ledger_queries.current_season(db, group_id)
            rows = await ledger_queries.season_standings(db, group_id, season)
            hands = await ledger_queries.season_hands(db, group_id, season)
        return SeasonReport(season, rows, hands)

    async def user_standings(self, user_id: int) -> list[GroupStanding]:
        """A user's standing in every group and season (see :func:`.ledger_queries.user_standings`)."""
        async with self.reader() as db:
            return await ledger_queries.user_standings(db, user_id)

    async def recent_hands(self, group_id: int, count: int, *, hand_id: int | None = None) -> list[HandRecord]:
        """The group's last ``count`` scored hands, newest first (only ``hand_id`` if given)."""
        async with self.reader() as db:
            return await ledger_queries.recent_hands(db, group_id, count, hand_id=hand_id)

    async def ledger_entries(self, group_id: int, *, season: int | None = None) -> list[LedgerEntry]:
        """Every ledger row of the group (of one ``season`` if given), oldest first."""
        async with self.reader() as db:
            return await ledger_queries.ledger_entries(db, group_id, season=season)

    async def scored_hands_numbered(self, group_id: int, hand_no: int) -> list[tuple[int, int]]:
        """``(hand_id, table_id)`` of the group's scored hands numbered ``hand_no`` (the hand's
        ``kind = 'hand'`` ledger rows exist), newest first."""
        async with self.reader() as db:
            return await ledger_queries.scored_hands_numbered(db, group_id, hand_no)

    async def hand_void_state(self, hand_id: int) -> tuple[bool, bool]:
        """``(every seat of the hand nets to zero, the hand has correction rows)``."""
        async with self.reader() as db:
            return await ledger_queries.hand_void_state(db, hand_id)

    async def stats_rows(
        self, *, group_id: int | None = None, user_id: int | None = None, all_seasons: bool = False
    ) -> StatsRows:
        """What ``/stats`` counts of a group, a user, or a user in a group (see
        :func:`.ledger_queries.stats_rows`)."""
        async with self.reader() as db:
            return await ledger_queries.stats_rows(db, group_id=group_id, user_id=user_id, all_seasons=all_seasons)
