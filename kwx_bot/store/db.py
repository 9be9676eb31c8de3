"""One connection interface over SQLite (aiosqlite) and PostgreSQL (asyncpg) (docs/architecture.md).

The store's SQL is written once, with ``?`` placeholders, in the subset both databases read alike
(``INSERT ... RETURNING``, ``ON CONFLICT ... DO UPDATE``, ``CASE`` instead of SQLite's two-argument
``max``); :class:`PgDb` numbers the placeholders (``$1``, ``$2``...) for asyncpg.  Rows come back as
sequences indexed by column position.  What the two databases do differently stays here:

* :meth:`Db.guarded` — a statement that may violate a uniqueness rule runs under a savepoint on
  PostgreSQL (a failed statement would otherwise abort the whole transaction; SQLite undoes just the
  statement), so the caller can turn the error into :class:`~.tx.Conflict` and go on;
* :meth:`Db.snapshot` — a report's statements see one consistent state (a read transaction).
"""

from __future__ import annotations

import contextlib
import functools
import re
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import aiosqlite
import asyncpg

__all__ = ["INTEGRITY_ERRORS", "Db", "PgDb", "SqliteDb", "StatementHook", "numbered", "statement_kind"]

INTEGRITY_ERRORS: tuple[type[Exception], ...] = (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)
"""A uniqueness, foreign-key or check rule, or an append-only trigger, refused a write (either database)."""

_WRITES = frozenset({"INSERT", "UPDATE", "DELETE", "REPLACE"})


@functools.lru_cache(maxsize=512)
def statement_kind(sql: str) -> str:
    """What one SQL statement does, for the metrics: ``"select"`` (a read: ``SELECT`` or ``WITH``,
    but not the write lock's ``SELECT pg_advisory_xact_lock``), ``"write"`` (``INSERT``,
    ``UPDATE``, ``DELETE``, ``REPLACE``) or ``"other"`` (``BEGIN``, ``COMMIT``, ``PRAGMA``, DDL …)."""
    word = sql.lstrip().split(None, 1)[0].upper() if sql.strip() else ""
    if word in ("SELECT", "WITH"):
        return "other" if "pg_advisory" in sql else "select"
    return "write" if word in _WRITES else "other"


class StatementHook:
    """Tells :attr:`told` the :func:`statement_kind` of every statement run on the connections it is
    attached to (None: nobody listens; then it costs one attribute read per statement)."""

    def __init__(self) -> None:
        self.told: Callable[[str], None] | None = None

    def sql(self, sql: str) -> None:
        """A statement ran (an SQLite trace callback; called on aiosqlite's worker thread)."""
        told = self.told
        if told is not None:
            told(statement_kind(sql))

    def logged(self, query: Any) -> None:
        """A statement ran (an asyncpg query logger: ``query.query`` is its text)."""
        self.sql(query.query)

    async def attach(self, conn: asyncpg.Connection) -> None:
        """Listen to a pooled PostgreSQL connection (the pool's ``init``)."""
        conn.add_query_logger(self.logged)


_PLACEHOLDER = re.compile(r"'(?:[^']|'')*'|\?")


@functools.lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """``sql`` with each ``?`` outside string literals replaced by ``$1``, ``$2``... in order."""
    count = 0

    def number(m: re.Match[str]) -> str:
        nonlocal count
        if m.group(0) != "?":
            return m.group(0)
        count += 1
        return f"${count}"

    return _PLACEHOLDER.sub(number, sql)


class Db:
    """A connection as the store uses it.  ``sql`` uses ``?`` placeholders; ``params`` a sequence."""

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        """Run one statement."""
        raise NotImplementedError

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement once per parameter row."""
        raise NotImplementedError

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]:
        """Every result row."""
        raise NotImplementedError

    async def fetchval(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """The first column of the first row, or None without rows."""
        rows = await self.fetch(sql, params)
        return rows[0][0] if rows else None

    async def expect(self, sql: str, params: Sequence[Any], value: Any, error: Callable[[Any], Exception]) -> None:
        """Raise ``error(found)`` unless :meth:`fetchval` finds ``value`` (a check the transaction
        stands on: a batching :class:`SqliteDb` holds it back with its writes, and it raises from
        the trip that runs it, the transaction then rolled back whole)."""
        found = await self.fetchval(sql, params)
        if found != value:
            raise error(found)

    def guarded(self) -> contextlib.AbstractAsyncContextManager[None]:
        """A scope whose failed statement leaves the surrounding transaction usable."""
        return contextlib.nullcontext()

    def snapshot(self) -> contextlib.AbstractAsyncContextManager[None]:
        """A scope whose reads see one consistent state of the database."""
        return contextlib.nullcontext()


Statement = tuple[str, Any, "bool | Check"]
"""A statement held back by a batching :class:`SqliteDb`: (sql, parameters, how: False once, True
once per row of parameters, a :class:`Check` of its first value)."""


@dataclass(frozen=True, slots=True)
class Check:
    """A held :meth:`Db.expect`: the value the statement must find, and the error if it does not."""

    value: Any
    error: Callable[[Any], Exception]


def _run_held(conn: sqlite3.Connection, held: list[Statement]) -> None:
    """Run ``held`` in order on ``conn`` (in aiosqlite's thread); the first failure raises and the
    statements after it do not run, as if each had been awaited in turn."""
    for sql, params, how in held:
        if how is True:
            conn.executemany(sql, params)
        elif how is False:
            conn.execute(sql, params).close()
        else:
            cursor = conn.execute(sql, params)
            row = cursor.fetchone()
            cursor.close()
            found = row[0] if row else None
            if found != how.value:
                raise how.error(found)


def _held_then_fetch(conn: sqlite3.Connection, held: list[Statement], sql: str, params: Any) -> list[Any]:
    _run_held(conn, held)
    cursor = conn.execute(sql, params)
    try:
        return cursor.fetchall()
    finally:
        cursor.close()


def _rollback_open(conn: sqlite3.Connection) -> None:
    """``ROLLBACK`` if a transaction is open (its ``BEGIN`` may have failed: the file locked)."""
    if conn.in_transaction:
        conn.execute("ROLLBACK").close()


def _held_then_commit(conn: sqlite3.Connection, held: list[Statement]) -> None:
    """The held statements and ``COMMIT``; if any fails, ``ROLLBACK`` (here, in the same trip: the
    caller may be cancelled by then, and no transaction is left open on the shared connection)."""
    try:
        _run_held(conn, held)
        conn.execute("COMMIT").close()
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK").close()
        raise


class SqliteDb(Db):
    """An :class:`aiosqlite.Connection` (``conn``).  Every call is one trip to aiosqlite's thread
    (a queue, a wake-up, the event loop woken back: about as much of the event loop as the
    statement itself, and the thread must win the GIL back from a busy loop each time).

    ``batch`` (a write transaction, :meth:`~kwx_bot.store.Store.transaction`): ``begin`` and every
    statement whose result nobody reads (``execute``, ``executemany``) are held back and run, in
    order, in the same trip as the next read, the end of a :meth:`guarded` scope or the
    :meth:`commit` — so a transaction of writes only is one trip, and so is a move (the check of
    the seq it was decided at, :meth:`expect`, then its events, seq, deadline and seat changes),
    not one per statement
    (docs/architecture.md §4 "Persistence and restart", docs/telegram.md §5).  A held statement
    that fails raises from that later call, inside the same transaction, which then rolls back
    (:meth:`rollback`) as before."""

    def __init__(
        self, conn: aiosqlite.Connection, *, snapshots: bool = False, batch: bool = False, begin: str | None = None
    ) -> None:
        self.conn = conn
        self._snapshots = snapshots
        self._batch = batch
        self._held: list[Statement] = [] if begin is None else [(begin, (), False)]
        self._begun = begin is None
        """The held ``begin`` went to the thread (a transaction may be open)."""
        self._call: Callable[..., Awaitable[Any]] = conn._execute  # (untyped)
        """``(fn, *args)``: ``fn(*args)`` in aiosqlite's thread, in order with its other calls (its
        own queue: the call every aiosqlite method makes); ``fn`` gets the sqlite3 connection first."""

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        """Run one statement (held back while batching: class docstring)."""
        if self._batch:
            self._held.append((sql, params, False))
            return
        await self._call(_run_held, self.conn._conn, [(sql, params, False)])

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement once per parameter row (held back while batching)."""
        if self._batch:
            self._held.append((sql, list(rows), True))
            return
        await self.conn.executemany(sql, rows)

    async def expect(self, sql: str, params: Sequence[Any], value: Any, error: Callable[[Any], Exception]) -> None:
        """See :meth:`Db.expect` (held back while batching)."""
        if self._batch:
            self._held.append((sql, params, Check(value, error)))
            return
        await super().expect(sql, params, value, error)

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]:
        """Every result row (the statements held back run first, in the same trip)."""
        held, self._held, self._begun = self._held, [], True
        return list(await self._call(_held_then_fetch, self.conn._conn, held, sql, params))

    async def flush(self) -> None:
        """Run the statements held back, in one trip."""
        if self._held:
            held, self._held, self._begun = self._held, [], True
            await self._call(_run_held, self.conn._conn, held)

    async def commit(self) -> None:
        """Run the statements held back and ``COMMIT``, in one trip (none for a transaction that
        made no statement); if one fails, the transaction is rolled back in that trip and the
        error raised."""
        if self._begun or len(self._held) > 1:
            held, self._held, self._begun = self._held, [], True
            await self._call(_held_then_commit, self.conn._conn, held)

    async def rollback(self) -> None:
        """Forget the statements held back and roll back what went (if its ``begin`` did)."""
        begun, self._held = self._begun, []
        if begun:
            await self._call(_rollback_open, self.conn._conn)

    @contextlib.asynccontextmanager
    async def guarded(self) -> AsyncIterator[None]:
        """SQLite undoes just a failed statement; while batching, the scope's statements run at its
        end (and those before it at its start), so that a failure raises inside it."""
        await self.flush()
        yield
        await self.flush()

    @contextlib.asynccontextmanager
    async def snapshot(self) -> AsyncIterator[None]:
        """One read transaction — only on a read-only report connection (``snapshots``): on the
        store's shared connection its writer owns transactions (a ``BEGIN`` here could collide with
        its ``BEGIN IMMEDIATE``)."""
        if not self._snapshots or self.conn.in_transaction:
            yield
            return
        await self.conn.execute("BEGIN")
        try:
            yield
        finally:
            await self.conn.execute("COMMIT")


class PgDb(Db):
    """An :class:`asyncpg.Connection` (``conn``); ``in_transaction``: it already runs one."""

    def __init__(self, conn: asyncpg.Connection, *, in_transaction: bool = False) -> None:
        self.conn = conn
        self._in_transaction = in_transaction

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        """Run one statement."""
        await self.conn.execute(numbered(sql), *params)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement once per parameter row."""
        await self.conn.executemany(numbered(sql), rows)

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Sequence[Any]]:
        """Every result row."""
        return list(await self.conn.fetch(numbered(sql), *params))

    @contextlib.asynccontextmanager
    async def guarded(self) -> AsyncIterator[None]:
        """A savepoint: a failed statement rolls back to it and the transaction goes on."""
        async with self.conn.transaction():
            yield

    @contextlib.asynccontextmanager
    async def snapshot(self) -> AsyncIterator[None]:
        """A read-only ``REPEATABLE READ`` transaction (nothing new when one is open already)."""
        if self._in_transaction:
            yield
            return
        async with self.conn.transaction(isolation="repeatable_read", readonly=True):
            yield
