"""The Mini App's web server: the page's API in the bot's own process and event loop
(docs/architecture.md §4 "The Mini App", docs/security.md §9).

Off unless ``KWX_WEBAPP_URL`` is set; listens on ``KWX_WEBAPP_LISTEN``:``KWX_WEBAPP_PORT`` (default
127.0.0.1:8444) behind the operator's TLS proxy.  Everything is under ``/webapp/``:

``GET  /webapp/api/table/{id}``
    200 ``{"table", "seq", "role": "seat"|"spectator", "seat": int|null, "lang": "en"|"zh",
    "screen": {...}, "result"?: {...}, "deadline_ms"?: int, "bank_ms"?: int}`` — the user's
    :class:`~kwx_bot.service.pages.PageScreen` (his seat's screen, or the group's; the result once
    the hand is over; his time while the hand waits on him), 404 no such open table, 403 not
    seated and not a member of its group, 503 when Telegram cannot say whether he is
    (``Retry-After``).
``GET  /webapp/api/table/{id}/events``
    ``text/event-stream``: the same JSON as ``event: screen`` messages (``id:`` the table's seq),
    the current one first, then each time the user's screen changes; ``: ping`` every
    :data:`PING_SECONDS`; ``event: gone`` (``{"error"}``) and the end when the table is closed or
    he may no longer see it.  While a stream is open his hand message gets no Telegram writes
    (:class:`~kwx_bot.service.open_pages.OpenPages`).
``POST /webapp/api/table/{id}/press``
    body ``{"data": <a button's "data" object from the screen, as received>}`` → 200 ``{"ok": bool
    (it changed something), "text": str|null (the chat's answer to the same press), "alert": bool,
    "screen": {...} (the same JSON as a GET), "buttons"?: [...] (End the table's confirmation)}``;
    400 for a body that is not such an object or a press of another table.

``GET  /webapp/api/replay/{table}/{hand}``
    200 :meth:`~kwx_bot.service.records.HandReplay.to_json` — a finished hand moment by moment with
    every hand face up (``/replay``'s moments), for a member of the table's group; 404 no such
    finished hand of this bot (in play or stopped included), 403 not a member, 503 as above.

Every API request carries ``Authorization: tma <initData>`` (401 ``{"error": reason}`` when missing,
forged or stale, :mod:`.auth`); its ``Host`` must be the page URL's host or this server's own
address, and an ``Origin``, when sent, the page URL's origin (403); each user may make
:data:`RATE` requests a second with bursts of :data:`BURST` (429 with ``Retry-After``); a body may
not exceed 1 MiB (413).  The page itself (``/webapp/``, ``/webapp/static/…``) carries no hidden
information and needs no signature.  Answers are ``Cache-Control: no-store``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web
from aiolimiter import AsyncLimiter

from ..service import TableService, UserInfo
from ..service.buttons import Button, CodecError
from ..service.pages import PageRefusal, PageScreen
from ..service.screen.json import press_from_json
from ..settings import Settings
from .auth import AuthError, WebAppUser, check_init_data, from_header
from .static_routes import add_static_routes

__all__ = ["BURST", "MAX_BODY", "PING_SECONDS", "RATE", "Looks", "WebApp", "start_webapp"]

log = logging.getLogger("kwx.webapp")

PING_SECONDS = 15.0
"""A comment line on every quiet events stream this often (proxies close silent connections)."""
LOOK_SECONDS = 1.0
"""How often a quiet events stream looks whether its page is still connected."""
RATE = 20.0
"""Requests per second a user may make on average."""
BURST = 40
"""Requests a user may make at once."""
MAX_BODY = 1024 * 1024
"""The largest request body, in bytes."""
MAX_USERS = 10_000
"""Users whose rate is followed at once (past it the least recent are forgotten)."""

_STATUS = {PageRefusal.NO_TABLE: 404, PageRefusal.NOT_MEMBER: 403, PageRefusal.ASK_LATER: 503}
_USER = web.RequestKey("user", WebAppUser)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def _error(status: int, error: str, **headers: str) -> web.Response:
    return web.json_response({"error": error}, status=status, headers={"Cache-Control": "no-store", **headers})


def _sse(screen: PageScreen) -> bytes:
    """One ``event: screen`` message: ``id`` the seq, ``data`` the JSON on one line (made once per
    screen value, :meth:`~kwx_bot.service.pages.PageScreen.json_text`)."""
    return f"id: {screen.seq}\nevent: screen\ndata: {screen.json_text()}\n\n".encode()


class Looks:
    """The quiet streams' looks at their connection (docs/architecture.md §4 "The Mini App"): one
    timer, every :data:`LOOK_SECONDS`, looks at every waiting stream's connection and wakes only
    the streams whose page went away or whose ping is due — instead of a timer and a task
    (``asyncio.wait_for``) per stream and look, which with hundreds of pages open were a good part
    of the event loop's work."""

    def __init__(self) -> None:
        self._waiting: dict[asyncio.Future[None], tuple[web.Request, float]] = {}
        """a stream's future -> (its request, when its ping is due: loop time)"""
        self._timer: asyncio.TimerHandle | None = None

    def wake(self, future: asyncio.Future[None], request: web.Request, ping_at: float) -> None:
        """Resolve ``future`` at the first look (within :data:`LOOK_SECONDS`) that finds the
        request's connection closing or the loop's time past ``ping_at``."""
        self._waiting[future] = (request, ping_at)
        if self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(LOOK_SECONDS, self._look)

    def forget(self, future: asyncio.Future[None]) -> None:
        """Stop looking for ``future`` (woken otherwise, or cancelled)."""
        self._waiting.pop(future, None)

    def _look(self) -> None:
        loop = asyncio.get_running_loop()
        now = loop.time()
        for future, (request, ping_at) in list(self._waiting.items()):
            transport = request.transport
            if future.done() or transport is None or transport.is_closing() or now >= ping_at:
                del self._waiting[future]
                if not future.done():
                    future.set_result(None)
        self._timer = loop.call_later(LOOK_SECONDS, self._look) if self._waiting else None

    def close(self) -> None:
        """Shutdown: no more looks."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._waiting.clear()


class WebApp:
    """The Mini App's aiohttp application over ``service`` (see the module docstring).  ``clock``:
    unix seconds, for the age of initData; ``rate`` (requests a second) and ``burst``: each user's
    limit."""

    def __init__(
        self,
        service: TableService,
        settings: Settings,
        *,
        clock: Callable[[], float] = time.time,
        rate: float = RATE,
        burst: int = BURST,
    ) -> None:
        assert settings.webapp_url is not None
        self.service = service
        self.pages = service.pages
        self.settings = settings
        self.clock = clock
        url = urlsplit(settings.webapp_url)
        self.origin = f"{url.scheme}://{url.netloc}".lower()
        listen = settings.webapp_listen
        own = f"[{listen}]" if ":" in listen else listen
        self.hosts = {url.netloc.lower(), own, f"{own}:{settings.webapp_port}"}
        """The Host headers served: the page URL's, and this server's own address (the playground)."""
        self.rate = rate
        self.burst = burst
        self._limits: OrderedDict[int, AsyncLimiter] = OrderedDict()
        self.streams: set[asyncio.Task[Any]] = set()
        self.looks = Looks()

    def app(self) -> web.Application:
        """The aiohttp application: the API behind the checks, the page's files beside it."""
        app = web.Application(client_max_size=MAX_BODY, middlewares=[self._guard])
        app.router.add_get("/webapp/api/table/{table_id:[0-9]{1,18}}", self.table)
        app.router.add_get("/webapp/api/table/{table_id:[0-9]{1,18}}/events", self.events)
        app.router.add_post("/webapp/api/table/{table_id:[0-9]{1,18}}/press", self.press)
        app.router.add_get("/webapp/api/replay/{table_id:[0-9]{1,18}}/{hand_no:[0-9]{1,9}}", self.replay)
        add_static_routes(app)  # the page, its files, the tile faces, its words (docs/webapp.md §4)
        return app

    # -- the checks ------------------------------------------------------------------------------

    @web.middleware
    async def _guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Host and Origin (403), then for the API the signature (401) and the user's rate (429)."""
        if request.host.lower() not in self.hosts:
            return _error(403, "host")
        origin = request.headers.get("Origin")
        if origin is not None and origin.lower() != self.origin:
            return _error(403, "origin")
        if not request.path.startswith("/webapp/api/"):
            return await handler(request)
        try:
            user = check_init_data(
                from_header(request.headers.get("Authorization")), self.settings.token,
                max_age=self.settings.webapp_max_age, now=self.clock(),
            )  # fmt: skip
        except AuthError as e:
            return _error(401, e.reason.value)
        limit = self._limit(user.id)
        if not limit.has_capacity():
            return _error(429, "rate", **{"Retry-After": "1"})
        await limit.acquire()
        request[_USER] = user
        return await handler(request)

    def _limit(self, user_id: int) -> AsyncLimiter:
        limit = self._limits.pop(user_id, None) or AsyncLimiter(self.burst, self.burst / self.rate)
        self._limits[user_id] = limit
        while len(self._limits) > MAX_USERS:
            self._limits.popitem(last=False)
        return limit

    # -- the API ---------------------------------------------------------------------------------

    async def table(self, request: web.Request) -> web.Response:
        """``GET /webapp/api/table/{id}``: the user's screen of the table now."""
        screen = await self.pages.screen(int(request.match_info["table_id"]), request[_USER].id)
        if isinstance(screen, PageRefusal):
            return self._refused(screen)
        return web.json_response(screen.to_json(), headers={"Cache-Control": "no-store"})

    async def replay(self, request: web.Request) -> web.Response:
        """``GET /webapp/api/replay/{table}/{hand}``: a finished hand, moment by moment, face up."""
        found = await self.pages.replay(
            int(request.match_info["table_id"]), int(request.match_info["hand_no"]), request[_USER].id
        )
        if isinstance(found, PageRefusal):
            return self._refused(found)
        return web.json_response(found.to_json(), headers={"Cache-Control": "no-store"})

    async def press(self, request: web.Request) -> web.Response:
        """``POST /webapp/api/table/{id}/press``: a button of the screen, pressed."""
        table_id = int(request.match_info["table_id"])
        try:
            body = await request.json()
        except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: nested past the parser's depth
            return _error(400, "body")
        if not isinstance(body, dict) or set(body) != {"data"}:
            return _error(400, "body")
        try:
            press = press_from_json(body["data"])
        except CodecError:
            return _error(400, "data")
        if not isinstance(press, Button) or press.table_id != table_id:
            return _error(400, "data")
        user: WebAppUser = request[_USER]
        info = UserInfo(user.id, user.first_name, user.last_name, user.username, user.language_code)
        answer = await self.pages.press(table_id, info, press)
        if isinstance(answer, PageRefusal):
            return self._refused(answer)
        return web.json_response(answer.to_json(), headers={"Cache-Control": "no-store"})

    async def events(self, request: web.Request) -> web.StreamResponse:
        """``GET /webapp/api/table/{id}/events``: the user's screen, live (module docstring)."""
        table_id, user_id = int(request.match_info["table_id"]), request[_USER].id
        first = await self.pages.shared(table_id, user_id)  # (the stream's first screen, made once)
        if isinstance(first, PageRefusal):
            return self._refused(first)
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store", "X-Accel-Buffering": "no"}
        )
        await response.prepare(request)
        pages = self.service.open_pages
        pages.opened(table_id, user_id)
        task = asyncio.current_task()
        if task is not None:
            self.streams.add(task)
        try:
            await self._stream(request, response, table_id, user_id)
        except ConnectionResetError:  # the page went away
            pass
        finally:
            pages.closed(table_id, user_id)
            if task is not None:
                self.streams.discard(task)
        return response

    async def _stream(self, request: web.Request, response: web.StreamResponse, table_id: int, user_id: int) -> None:
        """Send the user's screen whenever it changes, a ping when quiet; end when he may no longer
        see the table (``event: gone``) or the page went away (looked at every :data:`LOOK_SECONDS`:
        aiohttp does not cancel a handler whose client left)."""
        changes = self.service.open_pages
        last, shown = b"", None
        while True:
            signal = changes.signal(table_id)  # taken before the read: no change is missed
            screen = await self.pages.shared(table_id, user_id)  # one per view and change (pages.py)
            if isinstance(screen, PageRefusal):
                if screen is not PageRefusal.ASK_LATER:  # Telegram cannot say: keep what he sees
                    await response.write(f"event: gone\ndata: {json.dumps({'error': screen.value})}\n\n".encode())
                    return
            elif screen is not shown:  # the very value sent last time is the same screen
                message = _sse(screen)
                if message != last:
                    await response.write(message)
                    last = message
                shown = screen
            loop = asyncio.get_running_loop()
            pinged = loop.time()
            while not signal.is_set():
                transport = request.transport
                if transport is None or transport.is_closing():
                    return
                if loop.time() - pinged >= PING_SECONDS:
                    await response.write(b": ping\n\n")
                    pinged = loop.time()
                woken: asyncio.Future[None] = loop.create_future()  # the change, the page gone or the ping due
                signal.wake(woken)
                self.looks.wake(woken, request, pinged + PING_SECONDS)
                try:
                    await woken
                finally:
                    signal.forget(woken)
                    self.looks.forget(woken)

    @staticmethod
    def _refused(refusal: PageRefusal) -> web.Response:
        if refusal is PageRefusal.ASK_LATER:
            return _error(503, refusal.value, **{"Retry-After": "2"})
        return _error(_STATUS[refusal], refusal.value)

    async def close_streams(self) -> None:
        """End every open events stream (shutdown: the pages reconnect to the next start)."""
        for task in list(self.streams):
            task.cancel()
        for task in list(self.streams):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.looks.close()


async def start_webapp(service: TableService, settings: Settings) -> tuple[WebApp, web.AppRunner]:
    """Serve the Mini App on ``KWX_WEBAPP_LISTEN``:``KWX_WEBAPP_PORT``; returns the app and its
    runner (``cleanup()`` at shutdown).  Raises ``OSError`` if the port is taken."""
    webapp = WebApp(service, settings)
    runner = web.AppRunner(webapp.app(), access_log=None, shutdown_timeout=1.0)
    await runner.setup()
    try:
        await web.TCPSite(runner, settings.webapp_listen, settings.webapp_port).start()
    except BaseException:
        await runner.cleanup()
        raise
    log.info("serving the Mini App on http://%s:%d/webapp/", settings.webapp_listen, settings.webapp_port)
    return webapp, runner
