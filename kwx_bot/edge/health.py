"""Liveness: is the update loop still fetching and processing updates? (docs/architecture.md §4)

Not a database check (``kwx-bot check-db`` is that).  :class:`Liveness` is told three things:

* every ``getUpdates`` call and how it ended (long polling: :class:`HeartbeatRequest` is the
  ``get_updates_request`` of the production application);
* every update that starts and finishes being processed (:class:`~kwx_bot.edge.processor.PerChatProcessor`);
* how many updates wait in the application's queue (read when asked).

:meth:`Liveness.check` answers stalled when, for more than ``stall_seconds``:

* (long polling only) no ``getUpdates`` succeeded — a long poll in flight right after a successful
  one counts as alive for its own timeout (``poll_timeout``) plus ``stall_seconds``, a failed one does
  not; in webhook mode Telegram pushes and a quiet bot receives nothing, so there is nothing to miss;
* or updates are waiting (queued or in processing) and none finished.

A blocked event loop cannot answer at all: the health check's own timeout catches that.
:func:`start_ops_server` serves ``GET /healthz`` (200 ``ok`` / 503 with the reason, one line) and,
when metrics are on, ``GET /metrics`` on 127.0.0.1 (``KWX_OPS_LISTEN``) with aiohttp.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web
from telegram.request import HTTPXRequest, RequestData

__all__ = ["HeartbeatRequest", "Liveness", "health_handler", "start_ops_server"]

log = logging.getLogger("kwx.health")

Clock = Callable[[], float]


class Liveness:
    """What the update loop did lately; see the module docstring for the rule.

    ``stall_seconds``: allowed silence; ``poll_timeout``: the long-poll timeout passed to
    ``getUpdates`` (seconds); ``polling``: False in webhook mode; ``clock``: monotonic seconds.
    """

    def __init__(
        self, stall_seconds: float, *, poll_timeout: float = 10.0, polling: bool = True, clock: Clock = time.monotonic
    ) -> None:
        self.stall_seconds = stall_seconds
        self.poll_timeout = poll_timeout
        self.polling = polling
        self.clock = clock
        now = clock()
        self._last_poll_ok = now
        self._poll_since: float | None = None
        self._poll_failed = False
        self._in_flight = 0
        self._last_move = now
        self.updates_done = 0

    # -- what happened -------------------------------------------------------------------------

    def poll_sent(self) -> None:
        """A ``getUpdates`` call is on its way."""
        self._poll_since = self.clock()

    def poll_done(self, ok: bool) -> None:
        """The ``getUpdates`` call ended: answered 200 (``ok``) or not (an error status, a network error)."""
        self._poll_since = None
        if ok:
            self._last_poll_ok = self.clock()
            self._poll_failed = False
        else:
            self._poll_failed = True

    def update_started(self) -> None:
        """An update went to processing."""
        if self._in_flight == 0:
            self._last_move = self.clock()
        self._in_flight += 1

    def update_done(self) -> None:
        """An update finished processing (handled, or failed into the error handler)."""
        self._in_flight = max(0, self._in_flight - 1)
        self._last_move = self.clock()
        self.updates_done += 1

    # -- the verdict ---------------------------------------------------------------------------

    def check(self, queued: int = 0) -> str | None:
        """None when alive, else why not (one line).  ``queued``: updates waiting in the
        application's queue, not yet handed to processing."""
        now = self.clock()
        if self._in_flight + queued == 0:
            self._last_move = now
        elif now - self._last_move > self.stall_seconds:
            return f"{self._in_flight + queued} update(s) waiting and none finished for {now - self._last_move:.0f} s"
        if not self.polling or now - self._last_poll_ok <= self.stall_seconds:
            return None
        since = self._poll_since
        if since is not None and not self._poll_failed and now - since <= self.poll_timeout + self.stall_seconds:
            return None  # a long poll after a good one, still within its own timeout
        return f"no successful getUpdates for {now - self._last_poll_ok:.0f} s"


class HeartbeatRequest(HTTPXRequest):
    """PTB's HTTPX request for ``getUpdates`` that tells :class:`Liveness` when each poll is sent and
    how it ended (PTB's defaults for the polling connection: one connection, HTTP/1.1)."""

    def __init__(self, liveness: Liveness, **kwargs: Any) -> None:
        kwargs.setdefault("connection_pool_size", 1)
        super().__init__(**kwargs)
        self.liveness = liveness

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: Any = HTTPXRequest.DEFAULT_NONE,
        write_timeout: Any = HTTPXRequest.DEFAULT_NONE,
        connect_timeout: Any = HTTPXRequest.DEFAULT_NONE,
        pool_timeout: Any = HTTPXRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        """See ``HTTPXRequest.do_request``; a poll that raises or answers other than 200 failed."""
        self.liveness.poll_sent()
        ok = False
        try:
            code, payload = await super().do_request(
                url, method, request_data, read_timeout, write_timeout, connect_timeout, pool_timeout
            )
            ok = code == 200
            return code, payload
        finally:
            self.liveness.poll_done(ok)


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


async def start_ops_server(host: str, routes: dict[int, dict[str, Handler]]) -> list[web.AppRunner]:
    """Serve ``routes`` (port -> path -> aiohttp handler; two paths may share a port) on ``host``;
    returns the runners to ``cleanup()`` at shutdown.  Raises ``OSError`` if a port is taken."""
    runners: list[web.AppRunner] = []
    try:
        for port, paths in routes.items():
            app = web.Application()
            for path, handler in paths.items():
                app.router.add_get(path, handler)
            runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
            await runner.setup()
            runners.append(runner)
            await web.TCPSite(runner, host, port).start()
            log.info("serving %s on http://%s:%d", ", ".join(paths), host, port)
    except BaseException:
        for runner in runners:
            await runner.cleanup()
        raise
    return runners


def health_handler(liveness: Liveness, queued: Callable[[], int]) -> Handler:
    """``GET /healthz``: 200 ``ok`` while alive, 503 and the reason when stalled."""

    async def healthz(request: web.Request) -> web.Response:
        await asyncio.sleep(0)
        problem = liveness.check(queued())
        if problem is None:
            return web.Response(text="ok\n")
        return web.Response(status=503, text=f"stalled: {problem}\n")

    return healthz
