"""Fixtures shared by every test package: the fake Bot API (tests.fakebot.fixtures) and PostgreSQL."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator

import pytest

from tests.pgserver import PgServer, PgUnavailable, drop_database, fresh_database

pytest_plugins = ["tests.fakebot.fixtures"]


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` starts two workers per core: the suite spends about half its time waiting (the
    end-to-end tests wait on the fake Bot API, real timers and child processes), so a second worker
    per core fills those waits — 2 cores: 239 s with two workers, 155 s with four."""
    return 2 * (os.cpu_count() or 1)


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
