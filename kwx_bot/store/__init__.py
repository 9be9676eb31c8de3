"""The SQLite store: all SQL of kwx lives in this package (docs/architecture.md).

One :class:`Store` per process holds one aiosqlite connection (its own worker thread) opened in
autocommit mode with WAL, ``synchronous=NORMAL``, ``foreign_keys=ON`` and a 5 s busy timeout.
Writes happen only inside ``async with store.transaction() as tx:`` — an ``asyncio.Lock`` plus
``BEGIN IMMEDIATE``, so coroutines sharing the connection never interleave statements inside each
other's transaction (docs/telegram.md §5), and everything a move changes (events, seq, deadline, hand
result, ledger) commits or rolls back together.  Reads outside a transaction see committed data.

The table service sees it only through :class:`~.port.TableStore`, a narrow ``Protocol`` (rows in,
rows out, ledger reports as methods), so another implementation can replace it; no SQL and no
connection leave this package.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any

import aiosqlite

from . import ledger_queries
from .ledger_queries import open_readonly
from .migrations import MIGRATIONS, SCHEMA_VERSION
from .port import TableStore
from .rows import (
    EventRow,
    GroupStanding,
    HandRecord,
    HandRow,
    LedgerEntry,
    LedgerRow,
    SeasonReport,
    SeatResult,
    SeatRow,
    Standing,
    TableRow,
    TableStatus,
    UserRow,
    dumps,
    loads,
)
from .tx import Conflict, StaleSeq, StoreError, Tx

__all__ = [
    "SCHEMA_VERSION",
    "Conflict",
    "EventRow",
    "GroupStanding",
    "HandRecord",
    "HandRow",
    "LedgerEntry",
    "LedgerRow",
    "SeasonReport",
    "SeatResult",
    "SeatRow",
    "StaleSeq",
    "Standing",
    "Store",
    "StoreError",
    "TableRow",
    "TableStatus",
    "TableStore",
    "Tx",
    "UserRow",
]

_TABLE_COLUMNS = (
    "t.table_id, t.group_id, c.chat_id, t.status, t.rules, t.options, t.created_by, t.created_at, "
    "t.updated_at, t.seq, t.hand_no, t.next_dealer, t.next_deal, t.lobby_msg_id, t.table_msg_id, "
    "t.deadline_at, t.deadline_seq, t.deadline_kind, t.announced_seq, t.join_token, t.table_digest"
)


def table_row(r: Sequence[Any]) -> TableRow:
    """Build a :class:`TableRow` from a ``_TABLE_COLUMNS`` result row."""
    return TableRow(
        table_id=r[0], group_id=r[1], chat_id=r[2], status=r[3], rules=loads(r[4]), options=loads(r[5]),
        created_by=r[6], created_at=r[7], updated_at=r[8], seq=r[9], hand_no=r[10], next_dealer=r[11],
        next_deal=loads(r[12]), lobby_msg_id=r[13], table_msg_id=r[14], deadline_at=r[15],
        deadline_seq=r[16], deadline_kind=r[17], announced_seq=r[18], join_token=r[19], table_digest=r[20],
    )  # fmt: skip


_SEAT_COLUMNS = "table_id, seat, user_id, ai_level, on_auto, timeouts, hand_msg_id, last_press, shown_digest"


def _seat_row(r: Sequence[Any]) -> SeatRow:
    return SeatRow(
        table_id=r[0], seat=r[1], user_id=r[2], ai_level=r[3], on_auto=bool(r[4]), timeouts=r[5],
        hand_msg_id=r[6], last_press=r[7], shown_digest=r[8],
    )  # fmt: skip


class Store:
    """The database of one bot process.  Create with :meth:`open`; close with :meth:`close`."""

    def __init__(self, db: aiosqlite.Connection, path: str) -> None:
        self._db = db
        self._lock = asyncio.Lock()
        self.path = path
        self._reader: aiosqlite.Connection | None = None
        self._read_lock = asyncio.Lock()
        self.on_commit: Callable[[float], None] | None = None
        """Told the seconds of every committed write transaction, ``BEGIN`` to ``COMMIT`` (metrics)."""

    # -- lifecycle -------------------------------------------------------------------------------

    @classmethod
    async def open(cls, path: str | Path, *, migrate: bool = True) -> Store:
        """Open (creating parent directories and the file) and bring the schema up to date.

        ``path`` may be ``":memory:"`` for tests.  Raises :class:`StoreError` with a one-line
        message if the directory cannot be created, the file cannot be opened or is not an SQLite
        database ("database at PATH is not a kwx SQLite database (...)"), or it holds a newer schema
        than this code knows; a migration that fails raises its ``sqlite3.Error`` (rolled back).  On
        any failure the connection (and its worker thread, which would otherwise keep the process
        alive) is closed before raising.
        """
        spath = str(path)
        if spath != ":memory:":
            parent = Path(spath).expanduser().parent
            try:
                parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise StoreError(f"cannot create the database directory {parent}: {e.strerror or e}") from None
        try:
            db = await aiosqlite.connect(spath, isolation_level=None, timeout=5.0)
        except sqlite3.Error as e:
            raise StoreError(f"cannot open the database at {spath}: {e}") from None
        store = cls(db, spath)
        try:
            try:
                for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON", "busy_timeout=5000"):
                    await db.execute(f"PRAGMA {pragma}")
                await store._scalar("SELECT count(*) FROM sqlite_master")  # a non-database fails here
            except sqlite3.DatabaseError as e:
                if isinstance(e, sqlite3.OperationalError) and "locked" in str(e):
                    raise StoreError(f"database at {spath} is locked ({e}): is another kwx-bot using it?") from None
                raise StoreError(f"database at {spath} is not a kwx SQLite database ({e})") from None
            if migrate:
                await store.migrate()
        except BaseException:
            await db.close()
            raise
        return store

    async def close(self) -> None:
        """Close the connections (waits for a running transaction and a running report)."""
        async with self._read_lock:
            if self._reader is not None:
                await self._reader.close()
                self._reader = None
        async with self._lock:
            await self._db.close()

    @contextlib.asynccontextmanager
    async def reader(self) -> AsyncIterator[aiosqlite.Connection]:
        """A connection for the read-only report queries of :mod:`.reports` (one report at a time).

        A file database gets its own read-only connection (opened on first use; WAL lets it read
        while the bot writes, and it never sees another coroutine's uncommitted transaction).  An
        in-memory database cannot be shared, so its reports run on the main connection while no
        write transaction is open.
        """
        if self.path == ":memory:":
            async with self._lock:
                yield self._db
            return
        async with self._read_lock:
            if self._reader is None:
                self._reader = await open_readonly(self.path)
            yield self._reader

    async def schema_version(self) -> int:
        """``PRAGMA user_version`` of the file."""
        return int(await self._scalar("PRAGMA user_version"))

    async def migrate(self) -> list[int]:
        """Apply pending migrations, each in its own transaction; returns the versions applied."""
        current = await self.schema_version()
        if current > SCHEMA_VERSION:
            raise StoreError(
                f"database schema version {current} is newer than this kwx ({SCHEMA_VERSION}); upgrade kwx"
            )
        applied = []
        for version in range(current + 1, SCHEMA_VERSION + 1):
            async with self._lock:
                await self._db.execute("BEGIN IMMEDIATE")
                try:
                    for statement in MIGRATIONS[version - 1]:
                        await self._db.execute(statement)
                    await self._db.execute(f"PRAGMA user_version = {version}")
                except BaseException:
                    await self._db.execute("ROLLBACK")
                    raise
                await self._db.execute("COMMIT")
            applied.append(version)
        return applied

    async def integrity_check(self, *, quick: bool = False) -> list[str]:
        """``PRAGMA integrity_check`` lines (``["ok"]`` when healthy) plus foreign-key violations.

        ``quick``: ``PRAGMA quick_check`` instead — the same checks except that indexes are not
        compared with their tables' rows, so it runs in about linear time of the file's size."""
        async with self._db.execute("PRAGMA quick_check" if quick else "PRAGMA integrity_check") as cur:
            lines = [str(r[0]) for r in await cur.fetchall()]
        async with self._db.execute("PRAGMA foreign_key_check") as cur:
            lines += [f"foreign key violation: {tuple(r)}" for r in await cur.fetchall()]
        return lines

    async def backup(self, target: str | Path) -> None:
        """Online backup of the whole database to ``target`` (a new SQLite file)."""
        Path(target).expanduser().parent.mkdir(parents=True, exist_ok=True)
        dest = await aiosqlite.connect(str(target))
        try:
            async with self._lock:
                await self._db.backup(dest)
        finally:
            await dest.close()

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        """One write transaction (``BEGIN IMMEDIATE``), committed on exit, rolled back on error."""
        async with self._lock:
            started = time.perf_counter()
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield Tx(self._db, time.time())
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")
            if self.on_commit is not None:
                self.on_commit(time.perf_counter() - started)

    # -- small helpers ---------------------------------------------------------------------------

    async def _scalar(self, sql: str, params: Sequence[Any] = ()) -> Any:
        async with self._db.execute(sql, params) as cur:
            row = await cur.fetchone()
        return None if row is None else row[0]

    async def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        async with self._db.execute(sql, params) as cur:
            return list(await cur.fetchall())

    # -- users and chats -------------------------------------------------------------------------

    async def get_user(self, user_id: int) -> UserRow | None:
        """The user, or None if never seen."""
        rows = await self._rows(
            "SELECT user_id, first_name, last_name, username, language_code, can_pm, pending_table_id "
            "FROM users WHERE user_id = ?",
            (user_id,),
        )
        if not rows:
            return None
        r = rows[0]
        return UserRow(r[0], r[1], r[2], r[3], r[4], bool(r[5]), r[6])

    async def users(self, user_ids: Sequence[int]) -> dict[int, UserRow]:
        """Several users by id (missing ids are absent from the result)."""
        out = {}
        for uid in set(user_ids):
            row = await self.get_user(uid)
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

    async def open_table_of_group(self, group_id: int) -> TableRow | None:
        """The group's non-closed table, or None."""
        rows = await self._rows(
            f"SELECT {_TABLE_COLUMNS} FROM tables t JOIN chats c USING (group_id) "
            "WHERE t.group_id = ? AND t.status != 'closed'",
            (group_id,),
        )
        return table_row(rows[0]) if rows else None

    async def open_tables(self) -> list[TableRow]:
        """Every non-closed table (what a restart must resume), oldest first."""
        rows = await self._rows(
            f"SELECT {_TABLE_COLUMNS} FROM tables t JOIN chats c USING (group_id) "
            "WHERE t.status != 'closed' ORDER BY t.table_id"
        )
        return [table_row(r) for r in rows]

    async def seats(self, table_id: int) -> list[SeatRow]:
        """The seats of a table in seat order."""
        rows = await self._rows(
            f"SELECT {_SEAT_COLUMNS} FROM seats WHERE table_id = ? ORDER BY seat",
            (table_id,),
        )
        return [_seat_row(r) for r in rows]

    async def open_seat_of_user(self, user_id: int) -> SeatRow | None:
        """The user's seat at an open table, or None (a user sits at one open table at a time)."""
        rows = await self._rows(
            f"SELECT {_SEAT_COLUMNS} FROM seats WHERE user_id = ? AND active = 1",
            (user_id,),
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
        rows = await self._rows(
            "SELECT h.hand_id, h.table_id, h.hand_no, h.dealer, h.deal, h.first_seq, h.status, h.result, h.sitting_out "
            "FROM hands h JOIN tables t ON t.table_id = h.table_id "
            "WHERE t.group_id = ? AND (? IS NULL OR h.hand_no = ?) "
            "ORDER BY h.started_at DESC, h.hand_id DESC LIMIT 20",
            (group_id, hand_no, hand_no),
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


DatabaseError = sqlite3.Error
"""The database driver's own error (a file that is not kwx's database, say), for the entry point."""

__all__ += ["DatabaseError", "dumps", "loads", "table_row"]
