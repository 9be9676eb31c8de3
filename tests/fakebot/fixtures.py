"""pytest fixtures for the fake Telegram Bot API.

Enable them in ``tests/conftest.py``::

    pytest_plugins = ["tests.fakebot.fixtures"]

Fixtures (all function-scoped; a fresh world per test, startup costs ~1 ms in-process and a few
ms over HTTP):

* ``fakebot`` — a :class:`FakeBotAPI` (bot ``@kwx_test_bot``); the test fails at teardown if the
  fake itself crashed (``fake.internal_errors``). Configure it per test with the marker
  ``@pytest.mark.fakebot(privacy_mode=False, callback_query_ttl=5, latency=0.01, ...)`` (keyword
  arguments of :class:`FakeBotAPI`).
* ``fakebot_server`` — a running :class:`FakeBotServer` on 127.0.0.1 for ``fakebot`` (sets
  ``NO_PROXY`` for 127.0.0.1/localhost); ``.base_url`` / ``.base_file_url`` for PTB.
* ``fakebot_builder`` — ``ApplicationBuilder`` factory wired over HTTP to the server; call it,
  add handlers, ``.build()``, then ``async with run_application(app):``.
* ``fakebot_inprocess_builder`` — the same over the in-process transport (no sockets).
* ``fakebot_bot`` — an initialized ``telegram.Bot`` over HTTP, for direct API calls.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator

import pytest
from telegram import Bot
from telegram.ext import ApplicationBuilder

from fakebot.core import FakeBotAPI
from fakebot.http import FakeBotServer
from fakebot.ptb import application_builder, fake_bot


def pytest_configure(config: pytest.Config) -> None:
    """Register the ``fakebot`` marker."""
    config.addinivalue_line("markers", "fakebot(**kwargs): keyword arguments for the fakebot fixture's FakeBotAPI")


@pytest.fixture
def fakebot(request: pytest.FixtureRequest) -> Iterator[FakeBotAPI]:
    """A fresh fake Telegram world (``@pytest.mark.fakebot(...)`` passes constructor arguments)."""
    marker = request.node.get_closest_marker("fakebot")
    fake = FakeBotAPI(**(marker.kwargs if marker else {}))
    yield fake
    if fake.internal_errors:
        pytest.fail(f"the fake Bot API crashed: {fake.internal_errors!r}")


@pytest.fixture
async def fakebot_server(fakebot: FakeBotAPI, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeBotServer]:
    """The fake served over HTTP on 127.0.0.1 (a free port)."""
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")
    async with FakeBotServer(fakebot) as server:
        yield server


@pytest.fixture
def fakebot_builder(fakebot: FakeBotAPI, fakebot_server: FakeBotServer) -> Callable[[], ApplicationBuilder]:
    """Factory of ``ApplicationBuilder``s talking HTTP to ``fakebot_server``."""
    return lambda: application_builder(fakebot, fakebot_server)


@pytest.fixture
def fakebot_inprocess_builder(fakebot: FakeBotAPI) -> Callable[[], ApplicationBuilder]:
    """Factory of ``ApplicationBuilder``s using the in-process transport."""
    return lambda: application_builder(fakebot)


@pytest.fixture
async def fakebot_bot(fakebot: FakeBotAPI, fakebot_server: FakeBotServer) -> AsyncIterator[Bot]:
    """An initialized ``telegram.Bot`` talking HTTP to the fake."""
    async with fake_bot(fakebot, fakebot_server) as bot:
        yield bot
