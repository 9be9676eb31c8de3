"""Fixtures shared by every test package: the fake Bot API (tests.fakebot.fixtures) and PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from tests.pgserver import PgServer, PgUnavailable, drop_database, fresh_database

pytest_plugins = ["tests.fakebot.fixtures"]


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PgServer]:
    """A throwaway PostgreSQL cluster for this test process (see :mod:`tests.pgserver`); a machine
    without PostgreSQL fails here with what to install — these tests are never skipped."""
    try:
        server = PgServer()
    except PgUnavailable as e:
        pytest.fail(str(e), pytrace=False)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
async def postgres_url(postgres_server: PgServer) -> AsyncIterator[str]:
    """The URL of a new, empty database (dropped after the test)."""
    name, url = await fresh_database(postgres_server)
    try:
        yield url
    finally:
        await drop_database(postgres_server, name)
