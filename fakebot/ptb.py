"""Glue for running a real python-telegram-bot 22 ``Application`` against the fake.

* :func:`application_builder` — an ``ApplicationBuilder`` wired to the fake over HTTP (a running
  :class:`~.http.FakeBotServer`) or in-process (:class:`~.inprocess.FakeRequest`), with fast
  timeouts, no rate limiter and proxies ignored.
* :func:`run_application` — the manual lifecycle tests need (``run_polling`` cannot run inside
  pytest-asyncio): initialize -> post_init -> start_polling -> start, and on exit, *always*,
  updater.stop -> stop -> post_stop -> shutdown -> post_shutdown, like ``run_polling`` does.
* :func:`fake_bot` — a plain ``telegram.Bot`` for contract tests.
* :func:`clocked_limiter` — aiolimiter's ``AsyncLimiter`` on the fake's clock, for tests that run
  PTB's ``AIORateLimiter`` (its throughput limits then take fake time, not real time).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dtm
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

from aiolimiter import AsyncLimiter
from telegram import Bot, Update
from telegram.error import TelegramError
from telegram.ext import Application, ApplicationBuilder
from telegram.request import HTTPXRequest

from .clock import FakeClock
from .core import FakeBotAPI
from .http import FakeBotServer
from .inprocess import FakeRequest

__all__ = ["application_builder", "clocked_limiter", "fake_bot", "http_request", "run_application"]


def http_request(*, pool_size: int = 16, read_timeout: float = 5.0, connect_timeout: float = 2.0) -> HTTPXRequest:
    """An ``HTTPXRequest`` with test-friendly timeouts that ignores proxy environment variables
    (httpx honours ``HTTP_PROXY`` even for 127.0.0.1 — docs/telegram.md §1.2)."""
    return HTTPXRequest(
        connection_pool_size=pool_size,
        read_timeout=read_timeout,
        write_timeout=read_timeout,
        connect_timeout=connect_timeout,
        pool_timeout=connect_timeout,
        httpx_kwargs={"trust_env": False},
    )


def application_builder(
    fake: FakeBotAPI, server: FakeBotServer | None = None, *, read_timeout: float = 5.0
) -> ApplicationBuilder:  # type: ignore[type-arg]
    """A builder for an ``Application`` that talks to ``fake``.

    With ``server`` it uses the real HTTP wire protocol (``base_url``/``base_file_url``);
    without, the in-process transport. No ``AIORateLimiter`` is configured (it would make tests
    sleep); add handlers, ``post_init`` etc. to the returned builder and ``.build()``.
    """
    builder = ApplicationBuilder().token(fake.token)
    if server is not None:
        builder = (
            builder.base_url(server.base_url)
            .base_file_url(server.base_file_url)
            .request(http_request(read_timeout=read_timeout))
            .get_updates_request(http_request(pool_size=1, read_timeout=read_timeout))
        )
    else:
        builder = builder.request(FakeRequest(fake, read_timeout)).get_updates_request(FakeRequest(fake, read_timeout))
    return builder


def fake_bot(fake: FakeBotAPI, server: FakeBotServer | None = None) -> Bot:
    """A ``telegram.Bot`` for ``fake`` (HTTP via ``server`` or in-process); use
    ``async with fake_bot(...) as bot:`` so it is initialized (getMe) and shut down."""
    if server is not None:
        return Bot(
            fake.token,
            base_url=server.base_url,
            base_file_url=server.base_file_url,
            request=http_request(),
            get_updates_request=http_request(pool_size=1),
        )
    return Bot(fake.token, request=FakeRequest(fake), get_updates_request=FakeRequest(fake))


class _ClockedLoop:
    """The running event loop as ``AsyncLimiter`` sees it: ``time()`` is the fake clock, and a timer
    (``call_at``) advances the clock to its moment and fires on the next loop iteration."""

    def __init__(self, loop: asyncio.AbstractEventLoop, clock: FakeClock) -> None:
        self._loop = loop
        self._clock = clock

    def time(self) -> float:
        return self._clock.monotonic()

    def call_at(self, when: float, callback: Callable[..., object], *args: Any) -> asyncio.Handle:
        self._clock.advance(max(0.0, when - self._clock.monotonic()))
        return self._loop.call_soon(callback, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._loop, name)


def clocked_limiter(clock: FakeClock) -> type[AsyncLimiter]:
    """An ``AsyncLimiter`` class whose leaky bucket runs on ``clock``.

    PTB's ``AIORateLimiter`` throttles with aiolimiter (30 calls/s overall, 20 per group per minute);
    a whole hand in one group then waits minutes of real time. Patched in with
    ``monkeypatch.setattr(telegram.ext._aioratelimiter, "AsyncLimiter", clocked_limiter(fake.clock))``,
    the limiter admits and queues calls exactly as before, but where it would sleep for capacity it
    advances ``clock`` by that wait instead (the fake then sees the calls that much later).
    """

    class ClockedLimiter(AsyncLimiter):
        @property
        def _loop(self) -> asyncio.AbstractEventLoop:
            return _ClockedLoop(asyncio.get_running_loop(), clock)  # type: ignore[return-value]

    return ClockedLimiter


@contextlib.asynccontextmanager
async def run_application(
    app: Application[Any, Any, Any, Any, Any, Any],
    *,
    poll_timeout: float = 10.0,
    drop_pending_updates: bool = False,
    allowed_updates: Sequence[str] | None = Update.ALL_TYPES,
    error_callback: Callable[[TelegramError], None] | None = None,
) -> AsyncIterator[Application[Any, Any, Any, Any, Any, Any]]:
    """Run ``app`` polling the fake for the duration of the ``async with`` block.

    Mirrors ``Application.run_polling``: initialize (getMe), ``post_init``, ``start_polling``
    (deleteWebhook, then long polls of ``poll_timeout`` s), ``start``; on exit — also when the
    test body failed — ``updater.stop``, ``stop``, ``post_stop``, ``shutdown``, ``post_shutdown``,
    so a failing assertion is never hidden by "This Application is still running!".

    Polling errors go to the application's error handlers (as under ``run_polling``) unless
    ``error_callback`` is given. ``drop_pending_updates`` defaults to False so that updates a test
    queued before starting are delivered (a restarted bot must see presses made while it was down).
    """

    def to_error_handlers(exc: TelegramError) -> None:
        app.create_task(app.process_error(error=exc, update=None))

    await app.initialize()
    try:
        if app.post_init is not None:
            await app.post_init(app)
        assert app.updater is not None, "the application was built without an Updater"
        await app.updater.start_polling(
            poll_interval=0.0,
            timeout=dtm.timedelta(seconds=poll_timeout),
            allowed_updates=allowed_updates,
            drop_pending_updates=drop_pending_updates,
            error_callback=error_callback or to_error_handlers,
        )
        await app.start()
        yield app
    finally:
        try:
            if app.updater is not None and app.updater.running:
                await app.updater.stop()
            if app.running:
                await app.stop()
                if app.post_stop is not None:
                    await app.post_stop(app)
        finally:
            await app.shutdown()
            if app.post_shutdown is not None:
                await app.post_shutdown(app)
