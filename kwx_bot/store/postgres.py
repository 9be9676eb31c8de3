"""The PostgreSQL store, for operators who outgrow a file (docs/architecture.md).

Selected by ``KWX_DATABASE_URL=postgresql://user:password@host:port/database`` (see
:func:`kwx_bot.store.open_store`).  It keeps the SQLite store's guarantees with PostgreSQL's means:

* **one write transaction at a time**: an ``asyncio.Lock`` in the process and, inside every
  transaction, ``pg_advisory_xact_lock`` on one key — so write transactions of every process on the
  database run one after another, as SQLite's ``BEGIN IMMEDIATE`` makes them, and what a move
  changes (events, seq, deadline, hand result, ledger) commits or rolls back together;
* **restart**: a committed transaction is durable (PostgreSQL's default ``synchronous_commit``);
  everything a restart resumes from is in the tables, as with SQLite;
* **migrations**: the same steps as SQLite's (:func:`~.migrations.sql_for`), each with its version
  bump in one transaction (PostgreSQL's DDL is transactional), the version kept in ``kwx_schema``.

Reads outside a transaction and the ledger reports use a small connection pool (asyncpg) and see
committed data; a report's statements share one ``REPEATABLE READ`` snapshot.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import urllib.parse
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any

import asyncpg

from .base import SqlStore
from .db import PgDb, StatementHook, numbered
from .migrations import MIGRATIONS, SCHEMA_VERSION, sql_for
from .tx import StoreError, Tx

__all__ = ["WRITE_LOCK", "PgStore", "redact"]

WRITE_LOCK = 0x6B7778
"""The key of the advisory lock every write transaction holds ("kwx")."""
_POOL_SIZE = 4


def redact(url: str) -> str:
    """``url`` without its password (for messages and logs)."""
    parts = urllib.parse.urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username or ''}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urllib.parse.urlunsplit(parts._replace(netloc=netloc))


class PgStore(SqlStore):
    """The PostgreSQL database of one bot process.  Create with :meth:`open`; close with :meth:`close`."""

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self._pool = pool
        self._lock = asyncio.Lock()
        self.path = redact(url)
        """Where the database is (the URL without its password)."""
        self.on_commit: Callable[[float], None] | None = None
        self.statements = StatementHook()

    @classmethod
    async def open(cls, url: str, *, migrate: bool = True) -> PgStore:
        """Connect (a pool of up to four connections) and bring the schema up to date.

        Raises :class:`StoreError` with a one-line message if the server cannot be reached or refuses
        the login, or the database holds a newer schema than this code knows; a failing migration
        raises its ``asyncpg.PostgresError`` (rolled back).  On any failure the pool is closed."""
        try:
            statements = StatementHook()
            pool = await asyncpg.create_pool(url, min_size=1, max_size=_POOL_SIZE, timeout=10, init=statements.attach)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError, TimeoutError) as e:
            raise StoreError(f"cannot connect to the PostgreSQL database at {redact(url)}: {e}") from None
        store = cls(pool, url)
        store.statements = statements
        try:
            if migrate:
                await store.migrate()
        except BaseException:
            await pool.close()
            raise
        return store

    async def close(self) -> None:
        """Close the pool (waits for a running transaction)."""
        async with self._lock:
            await self._pool.close()

    async def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]:
        return list(await self._pool.fetch(numbered(sql), *params))

    @contextlib.asynccontextmanager
    async def reader(self) -> AsyncIterator[PgDb]:
        """A pooled connection for the read-only report queries of :mod:`.ledger_queries`."""
        async with self._pool.acquire() as conn:
            yield PgDb(conn)

    async def schema_version(self) -> int:
        """The version in ``kwx_schema`` (0 for a database kwx never migrated)."""
        async with self._pool.acquire() as conn:
            return await _version(conn)

    async def migrate(self) -> list[int]:
        """Apply pending migrations, each in its own transaction under the write lock (two processes
        starting together migrate once); returns the versions applied."""
        applied = []
        async with self._lock, self._pool.acquire() as conn:
            for version in range(1, SCHEMA_VERSION + 1):
                async with conn.transaction():
                    await conn.execute("SELECT pg_advisory_xact_lock($1)", WRITE_LOCK)
                    current = await _version(conn)
                    if current > SCHEMA_VERSION:
                        raise StoreError(
                            f"database schema version {current} is newer than this kwx ({SCHEMA_VERSION}); upgrade kwx"
                        )
                    if current >= version:
                        continue
                    await conn.execute("CREATE TABLE IF NOT EXISTS kwx_schema (version BIGINT NOT NULL)")
                    for statement in sql_for(MIGRATIONS[version - 1], "postgres"):
                        await conn.execute(statement)
                    await conn.execute("DELETE FROM kwx_schema")
                    await conn.execute("INSERT INTO kwx_schema (version) VALUES ($1)", version)
                applied.append(version)
        return applied

    async def integrity_check(self, *, quick: bool = False) -> list[str]:
        """``["ok"]``, or each hand whose ledger rows of one kind do not sum to zero.  (PostgreSQL
        checks its own pages and constraints; ``quick`` changes nothing here.)"""
        rows = await self._rows(
            "SELECT hand_id, kind, SUM(delta) FROM ledger GROUP BY hand_id, kind HAVING SUM(delta) <> 0 "
            "ORDER BY hand_id, kind"
        )
        return [f"ledger of hand {r[0]} ({r[1]}) sums to {r[2]}, not 0" for r in rows] or ["ok"]

    async def backup(self, target: str | Path) -> None:
        """Refused: a PostgreSQL database is backed up with ``pg_dump`` or the platform's backups."""
        raise StoreError("kwx-bot backup copies an SQLite file; back up PostgreSQL with pg_dump or your platform")

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        """One write transaction under the write lock, committed on exit, rolled back on error."""
        async with self._lock:
            started = time.perf_counter()
            async with self._pool.acquire() as conn, conn.transaction():
                await conn.execute("SELECT pg_advisory_xact_lock($1)", WRITE_LOCK)
                yield Tx(PgDb(conn, in_transaction=True), time.time())
            if self.on_commit is not None:
                self.on_commit(time.perf_counter() - started)

    @contextlib.asynccontextmanager
    async def connection(self) -> AsyncIterator[asyncpg.Connection]:
        """A pooled connection, for :mod:`.copy` (bulk copies use asyncpg's ``COPY`` directly)."""
        async with self._pool.acquire() as conn:
            yield conn


async def _version(conn: asyncpg.Connection) -> int:
    if await conn.fetchval("SELECT to_regclass('kwx_schema')") is None:
        return 0
    return int(await conn.fetchval("SELECT coalesce(max(version), 0) FROM kwx_schema"))
