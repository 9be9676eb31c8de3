"""The store: all SQL of kwx lives in this package (docs/architecture.md).

:func:`open_store` opens the database an operator chose: :class:`Store` (SQLite, the embedded
default, below) for a file path, :class:`~.postgres.PgStore` for a ``postgresql://`` URL
(``KWX_DATABASE_URL``).  Both share their reads (:class:`~.base.SqlStore`), their writes
(:class:`~.tx.Tx`) and their migrations (:mod:`.migrations`); the rest of this docstring is SQLite's.

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
import asyncpg

from .base import SqlStore, table_row
from .db import SqliteDb, StatementHook
from .ledger_queries import open_readonly
from .lock import AlreadyRunning, RunLock, hold_run_lock
from .migrations import MIGRATIONS, SCHEMA_VERSION, sql_for
from .port import TableStore
from .postgres import PgStore
from .rows import (
    EventRow,
    GroupStanding,
    HandRecord,
    HandRow,
    LedgerEntry,
    LedgerRow,
    SeasonReport,
    SeatHand,
    SeatResult,
    SeatRow,
    Standing,
    StatsRows,
    TableRow,
    TableStatus,
    UserRow,
    loads,
)
from .tx import Conflict, StaleSeq, StoreError, Tx, dumps

__all__ = [
    "SCHEMA_VERSION",
    "AlreadyRunning",
    "Conflict",
    "DatabaseError",
    "EventRow",
    "GroupStanding",
    "HandRecord",
    "HandRow",
    "LedgerEntry",
    "LedgerRow",
    "PgStore",
    "RunLock",
    "SeasonReport",
    "SeatHand",
    "SeatResult",
    "SeatRow",
    "SqlStore",
    "StaleSeq",
    "Standing",
    "StatsRows",
    "Store",
    "StoreError",
    "TableRow",
    "TableStatus",
    "TableStore",
    "Tx",
    "UserRow",
    "dumps",
    "hold_run_lock",
    "is_database_url",
    "loads",
    "open_store",
    "table_row",
]


class Store(SqlStore):
    """The SQLite database of one bot process.  Create with :meth:`open`; close with :meth:`close`."""

    def __init__(self, db: aiosqlite.Connection, path: str) -> None:
        self._db = db
        self._lock = asyncio.Lock()
        self.path = path
        self._reader: aiosqlite.Connection | None = None
        self._read_lock = asyncio.Lock()
        self.on_commit: Callable[[float], None] | None = None
        """Told the seconds of every committed write transaction, ``BEGIN`` to ``COMMIT`` (metrics)."""
        self.statements = StatementHook()

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
            await db.set_trace_callback(store.statements.sql)
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
                await self._reader.set_trace_callback(self.statements.sql)
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
                    for statement in sql_for(MIGRATIONS[version - 1], "sqlite"):
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
        """One write transaction (``BEGIN IMMEDIATE``), committed on exit, rolled back on error.

        Its statements go to aiosqlite's thread together (``SqliteDb`` ``batch``): the ``BEGIN``
        and the writes with the first read, the rest with the ``COMMIT``.  A caller cancelled
        meanwhile leaves no transaction open: a trip under way runs on in the thread whatever the
        caller does, and the ``ROLLBACK`` queued after it (if its ``BEGIN`` went at all) ends it;
        a failure in the trip of the ``COMMIT`` rolls back there."""
        async with self._lock:
            started = time.perf_counter()
            db = SqliteDb(self._db, batch=True, begin="BEGIN IMMEDIATE")
            try:
                yield Tx(db, time.time())
            except BaseException:
                await db.rollback()
                raise
            await db.commit()
            if self.on_commit is not None:
                self.on_commit(time.perf_counter() - started)

    async def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]:
        return list(await self._db.execute_fetchall(sql, params))  # one trip to aiosqlite's thread, not three


DatabaseError = (sqlite3.Error, asyncpg.PostgresError)
"""The database drivers' own errors (a file that is not kwx's database, say), for the entry point."""


def is_database_url(target: str | Path) -> bool:
    """Whether ``target`` names a PostgreSQL database (``postgresql://`` or ``postgres://``)."""
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


async def open_store(target: str | Path, *, migrate: bool = True) -> SqlStore:
    """The store at ``target``: a ``postgresql://`` URL opens :class:`~.postgres.PgStore`, anything
    else the SQLite file (or ``":memory:"``) with :class:`Store`.  Raises :class:`StoreError` as
    the two ``open`` methods do."""
    if is_database_url(target):
        return await PgStore.open(str(target), migrate=migrate)
    return await Store.open(target, migrate=migrate)
