"""The run lock (kwx_bot/store/lock.py): one process per bot and database, on SQLite and PostgreSQL.
A second holder of the same bot is refused with one line naming the bot, other bots lock side by
side, and a holder killed with SIGKILL leaves nothing behind that blocks the next start."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from kwx_bot.store import AlreadyRunning, hold_run_lock
from kwx_bot.store.lock import PgRunLock, pg_lock_key

BOT, OTHER = 4242, 8_123_456_789


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a bot runs: an SQLite file's path or a fresh PostgreSQL database's URL."""
    if request.param == "sqlite":
        return str(tmp_path / "data" / "kwx.sqlite3")
    return str(request.getfixturevalue("postgres_url"))


async def _take_now(database: str, bot_id: int) -> object:
    """Take the lock once, without PostgreSQL's grace (the holder is alive: no need to wait)."""
    if "://" in database:
        return await PgRunLock.take(database, bot_id, grace=0)
    return await hold_run_lock(database, bot_id)


async def test_a_second_holder_of_the_same_bot_is_refused_other_bots_are_not(database):
    first = await hold_run_lock(database, BOT)
    try:
        with pytest.raises(AlreadyRunning) as refused:
            await _take_now(database, BOT)
        message = str(refused.value)
        assert message.startswith(f"bot {BOT} is already running on ") and "\n" not in message
        assert "stop it first" in message
        if "://" not in database:  # the file names the holder
            assert f"process {os.getpid()} holds {database}.bot{BOT}.lock" in message
        else:  # the holder's session names itself; the password is never shown
            assert f"kwx-bot {BOT} run lock (pid {os.getpid()}" in message
        other = await hold_run_lock(database, OTHER)  # several bots over one database
        await other.release()
    finally:
        await first.release()
    again = await hold_run_lock(database, BOT)  # released: the next start runs
    await again.release()


HOLDER = """
import asyncio, sys
from kwx_bot.store import hold_run_lock

async def main():
    await hold_run_lock(sys.argv[1], int(sys.argv[2]))
    print("locked", flush=True)
    await asyncio.sleep(600)

asyncio.run(main())
"""


async def test_a_killed_holder_does_not_block_the_next_start(database):
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, database, str(BOT)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
        with pytest.raises(AlreadyRunning, match=f"process {holder.pid} holds|pid {holder.pid} on"):
            await _take_now(database, BOT)
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    lock = await hold_run_lock(database, BOT)  # at once (PostgreSQL: within its grace)
    await lock.release()


async def test_an_in_memory_database_needs_no_lock():
    first, second = await hold_run_lock(":memory:", BOT), await hold_run_lock(":memory:", BOT)
    await first.release()
    await second.release()


def test_the_postgres_key_keeps_kwx_bits_above_the_bot_id():
    assert pg_lock_key(BOT) == 0x6B7 << 52 | BOT and pg_lock_key((1 << 52) - 1) < 1 << 63
    assert pg_lock_key(1) != 0x6B7778  # the write transactions' lock (store/postgres.py)
    with pytest.raises(ValueError):
        pg_lock_key(1 << 52)


async def test_a_lost_postgres_lock_connection_is_a_warning(postgres_url, caplog):
    import asyncpg

    lock = await hold_run_lock(postgres_url, BOT)
    try:
        admin = await asyncpg.connect(postgres_url)
        try:
            killed = await admin.fetchval(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name LIKE $1",
                f"kwx-bot {BOT} run lock%",
            )
            assert killed
            other = await PgRunLock.take(postgres_url, BOT)  # the lock went with the session
            await other.release()
        finally:
            await admin.close()
        await asyncio.wait_for(_until(lambda: any("run lock" in r.getMessage() for r in caplog.records)), 10)
    finally:
        await lock.release()
    [record] = [r for r in caplog.records if "run lock" in r.getMessage()]
    assert record.levelname == "WARNING" and f"bot {BOT}" in record.getMessage()


async def _until(condition) -> None:
    while not condition():
        await asyncio.sleep(0.05)
