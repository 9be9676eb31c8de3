"""One process per bot and database: the run lock (docs/architecture.md §8, docs/security.md §6).

Two ``kwx-bot run`` processes on one bot token would both poll (Telegram answers each ``Conflict:
terminated by other getUpdates request``), both arm the same tables' deadlines and both answer
presses.  So a process holds a lock for its whole life, keyed by the **bot id** (the token's number
before ``:``), on the database it runs on; a second process of the same bot on the same database
finds it taken and refuses to start (:class:`AlreadyRunning`, one line).  Other bots over the same
database (docs/architecture.md §8) have locks of their own and run side by side.

* **SQLite**: ``flock`` on the file ``<database>.bot<id>.lock`` beside the database (created, and
  left in place: removing a lock file races with a process about to lock it); it holds the
  holder's pid, for the refusal's message.  The kernel releases the lock when the process ends,
  however it ends (``kill -9`` included), and it is not inherited by the render workers (they are
  spawned, not forked).  Like SQLite's own locking, it needs a local file system.
* **PostgreSQL**: a session-level advisory lock (``pg_try_advisory_lock``) on a connection of its
  own, held open for the process's life, with the key :func:`pg_lock_key` (kwx's bit pattern and the
  bot id; the write transactions' lock :data:`~.postgres.WRITE_LOCK` is another key).  The server
  releases it when that session ends: at once when the process dies (its socket closes), and after
  TCP keepalive (30 s idle, then 3 probes 10 s apart: about a minute) when the machine it ran on is
  gone; a starting process tries again for :data:`PG_GRACE_SECONDS` before it refuses, so a restart
  right after a crash does not race the server's clean-up.  The connection names the holder
  (``application_name``: bot id, pid, host) for the refusal's message, and opts out of
  ``idle_session_timeout`` (PostgreSQL 14+), which would end it.  If the connection is lost while
  the bot runs (the server restarted), the lock is gone: a WARNING says so.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import logging
import os
import socket
import time
from pathlib import Path

import asyncpg

from .postgres import redact
from .tx import StoreError

__all__ = [
    "PG_GRACE_SECONDS",
    "AlreadyRunning",
    "FileRunLock",
    "NoRunLock",
    "PgRunLock",
    "RunLock",
    "hold_run_lock",
    "pg_lock_key",
]

log = logging.getLogger("kwx.store")

_PG_NAMESPACE = 0x6B7
"""The top bits of every run-lock key ("kw"): Telegram ids have at most 52 bits, the key 63."""


PG_GRACE_SECONDS = 3.0
"""How long a starting process tries again for a PostgreSQL run lock before it refuses: a killed
holder's session ends a moment after the process (a file lock is released as it dies)."""


class AlreadyRunning(StoreError):
    """Another process already runs this bot on this database (the message says which and where)."""


def pg_lock_key(bot_id: int) -> int:
    """The PostgreSQL advisory lock key of ``bot_id``'s run lock: ``0x6B7`` in the top 11 bits of
    a positive ``bigint``, the bot id (a Telegram id, below 2**52) in the rest.  Raises
    ``ValueError`` for an id out of that range."""
    if not 0 < bot_id < 1 << 52:
        raise ValueError(f"a bot id is a positive number below 2**52, got {bot_id}")
    return _PG_NAMESPACE << 52 | bot_id


class RunLock:
    """A held run lock; :meth:`release` it at the end of the process (dying releases it too)."""

    async def release(self) -> None:
        """Give the lock up (idempotent)."""


class NoRunLock(RunLock):
    """No lock: an in-memory SQLite database cannot be shared."""


class FileRunLock(RunLock):
    """``flock`` on a file beside the SQLite database (see the module docstring)."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd: int | None = fd

    @classmethod
    def take(cls, database: Path, bot_id: int) -> FileRunLock:
        """Lock ``<database>.bot<bot_id>.lock`` (creating the database's directory and the file).
        Raises :class:`AlreadyRunning` when another process holds it, :class:`StoreError` when the
        directory or the file cannot be made."""
        path = database.with_name(f"{database.name}.bot{bot_id}.lock")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:  # as Store.open says it
            raise StoreError(f"cannot create the database directory {path.parent}: {e.strerror or e}") from None
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as e:
            raise StoreError(f"cannot create the lock file {path}: {e.strerror or e}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as e:
            holder = _read_pid(fd)
            os.close(fd)
            if e.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise StoreError(f"cannot lock {path}: {e.strerror or e}") from None
            who = f"process {holder}" if holder else "another process"
            raise AlreadyRunning(
                f"bot {bot_id} is already running on {database} ({who} holds {path}); "
                "one process per bot and database: stop it first"
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        return cls(path, fd)

    async def release(self) -> None:
        """Unlock and close the file (the file stays)."""
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)  # closing the only descriptor releases the flock


def _read_pid(fd: int) -> str:
    """The pid the holder wrote into the lock file ("" if none can be read)."""
    with contextlib.suppress(OSError):
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
        if text.isascii() and text.isdigit():
            return text
    return ""


class PgRunLock(RunLock):
    """A session-level advisory lock on a connection of its own (see the module docstring)."""

    def __init__(self, conn: asyncpg.Connection, key: int, bot_id: int) -> None:
        self._conn: asyncpg.Connection | None = conn
        self._key = key
        self._bot_id = bot_id
        conn.add_termination_listener(self._lost)

    @classmethod
    async def take(cls, url: str, bot_id: int, *, grace: float = PG_GRACE_SECONDS) -> PgRunLock:
        """Connect and take ``bot_id``'s lock, trying again for ``grace`` seconds (the server ends
        a killed process's session a moment after it died).  Raises :class:`AlreadyRunning` when
        another session still holds it, :class:`StoreError` when the server cannot be reached."""
        key = pg_lock_key(bot_id)
        settings = {
            "application_name": f"kwx-bot {bot_id} run lock (pid {os.getpid()} on {socket.gethostname()})"[:63],
            "tcp_keepalives_idle": "30",
            "tcp_keepalives_interval": "10",
            "tcp_keepalives_count": "3",
        }
        try:
            conn = await asyncpg.connect(url, timeout=10, server_settings=settings)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError, TimeoutError) as e:
            raise StoreError(f"cannot connect to the PostgreSQL database at {redact(url)}: {e}") from None
        try:
            await conn.execute(
                "SELECT set_config('idle_session_timeout', '0', false) "
                "WHERE current_setting('server_version_num')::int >= 140000"
            )
            deadline = time.monotonic() + grace
            while not await conn.fetchval("SELECT pg_try_advisory_lock($1)", key):
                if time.monotonic() >= deadline:
                    break
                await asyncio.sleep(0.2)
            else:
                return cls(conn, key, bot_id)
            holder = await conn.fetchval(
                "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
                "WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 "
                "AND l.classid::bigint = $1 AND l.objid::bigint = $2",
                key >> 32,
                key & 0xFFFFFFFF,
            )
        except BaseException:
            await conn.close()
            raise
        await conn.close()
        who = holder or "another kwx-bot"
        raise AlreadyRunning(
            f"bot {bot_id} is already running on the PostgreSQL database at {redact(url)} ({who} holds its "
            "advisory lock); one process per bot and database: stop it first"
        )

    def _lost(self, conn: asyncpg.Connection) -> None:
        if self._conn is not None:
            self._conn = None
            log.warning(
                "lost the PostgreSQL connection that held bot %s's run lock: another process of this bot could "
                "start now",
                self._bot_id,
            )

    async def release(self) -> None:
        """Unlock and close the connection."""
        if self._conn is not None:
            conn, self._conn = self._conn, None
            with contextlib.suppress(OSError, asyncpg.PostgresError, asyncpg.InterfaceError):
                await conn.execute("SELECT pg_advisory_unlock($1)", self._key)
            await conn.close()


async def hold_run_lock(target: str | Path, bot_id: int) -> RunLock:
    """Take ``bot_id``'s run lock on the database ``target`` (a ``postgresql://`` URL or an SQLite
    path; ``":memory:"`` needs none).  Raises :class:`AlreadyRunning` (one line: who holds it,
    where) or :class:`StoreError` (the database cannot be reached)."""
    from . import is_database_url

    if is_database_url(target):
        return await PgRunLock.take(str(target), bot_id)
    if str(target) == ":memory:":
        return NoRunLock()
    return FileRunLock.take(Path(target).expanduser(), bot_id)
