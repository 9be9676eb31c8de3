"""The store's contract tests run on both databases: the ``store`` fixture is parametrized over
SQLite (a file) and PostgreSQL (a fresh database on the throwaway server of tests/conftest.py); a
test of one database's own behaviour asks for it with ``@pytest.mark.parametrize("store",
["sqlite"], indirect=True)``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from kwx_bot.store import PgStore, SqlStore, Store
from tests.pgserver import PgServer, drop_database, fresh_database

BACKENDS = ["sqlite", "postgres"]
BOT = 123_456_789
"""The bot (its Telegram user id) whose tables and private facts the contract tests read and write."""


async def open_backend(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[SqlStore]:
    """Yield an open, migrated, empty store of ``request.param``'s database; closed (and the
    PostgreSQL database dropped) afterwards."""
    if request.param == "sqlite":
        store: SqlStore = await Store.open(tmp_path / "kwx.sqlite3")
        try:
            yield store
        finally:
            await store.close()
        return
    server: PgServer = request.getfixturevalue("postgres_server")
    name, url = await fresh_database(server)
    store = await PgStore.open(url)
    try:
        yield store
    finally:
        await store.close()
        await drop_database(server, name)


@pytest.fixture(params=BACKENDS)
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[SqlStore]:
    """An empty store, once per database."""
    async for opened in open_backend(request, tmp_path):
        yield opened
