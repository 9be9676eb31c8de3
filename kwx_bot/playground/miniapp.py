"""The playground's Mini App (docs/webapp.md "The playground"): the bot's page served at
``<playground>/webapp/`` with the stand-in Telegram script, everything else under ``/webapp/`` (its
API and live stream, the tile faces, the words) passed on to the bot process's own Mini App server,
and ``initData`` signed with the playground's token as Telegram signs it, for the chosen user.

Routes::

    GET  /webapp/                     the page (kwx_bot/webapp/static/index.html), loading
                                      static/telegram-stub.js in place of Telegram's script
    GET  /webapp/static/telegram-stub.js
    *    /webapp/{anything else}      passed on to http://127.0.0.1:<KWX_WEBAPP_PORT>/webapp/…,
                                      streamed (the events stream stays open, and is ended
                                      upstream as soon as the page goes); 502 ``{"error":
                                      "bot_down"}`` while the bot is down (the
                                      page reconnects; a press, tapped again)
    GET  /api/webapp?user=U&table=N   {"url": "/webapp/?table=N#tgWebAppData=…"}: the address
                                      Telegram would open for U (his initData signed, his language)
    GET  /api/webapp?user=U&replay=rT_H
                                      {"url": "/webapp/#tgWebAppData=…"}: the address of the bot's
                                      Main Mini App opened from a ``t.me/<bot>?startapp=rT_H`` link
                                      (a finished hand's replay, docs/webapp.md §9): the start
                                      parameter signed in the initData, as Telegram passes it

The playground imports nothing of the bot: the page's files are read from the package's
``webapp/static`` folder, and the bot is reached over HTTP only.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import re
import socket
import time
import urllib.parse
from pathlib import Path

from aiohttp import ClientError, ClientSession, ClientTimeout, StreamReader, web

from fakebot import FakeUser

__all__ = ["BOT_DOWN", "PAGE_DIR", "MiniApp", "free_port", "sign_init_data"]

PAGE_DIR = Path(__file__).resolve().parent.parent / "webapp" / "static"
"""The Mini App's files (kwx_bot/webapp/static), read as files."""
_REPLAY = re.compile(r"r\d{1,18}_\d{1,9}")
"""A replay's start parameter: ``r<table>_<hand>`` (docs/webapp.md §9)."""
TELEGRAM_SCRIPT = '<script src="https://telegram.org/js/telegram-web-app.js"></script>'
STUB_SCRIPT = '<script src="static/telegram-stub.js"></script>'
THEME = {"bg_color": "#ffffff", "text_color": "#000000", "hint_color": "#707579", "link_color": "#3390ec",
         "button_color": "#3390ec", "button_text_color": "#ffffff", "secondary_bg_color": "#f4f4f5"}  # fmt: skip
"""Telegram's light theme colours, as a client sends them (``themeParams``)."""
BOT_DOWN = {"error": "bot_down"}
"""The 502 answer while the bot process is down (a restart): for the operator's eyes in the browser's
tools; the page shows its own words for any failed press (docs/webapp.md §3), never this."""
LOOK_SECONDS = 0.5
"""How often a quiet answer being passed on looks whether its page is still connected."""
_HOP = {"connection", "keep-alive", "transfer-encoding", "content-length", "host", "origin", "te", "upgrade",
        "content-encoding", "proxy-authorization", "proxy-authenticate", "trailer"}  # fmt: skip


def free_port() -> int:
    """A TCP port on 127.0.0.1 free now (the bot's Mini App server binds it; it stays the same
    across the bot's restarts, so an open page reconnects)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def sign_init_data(token: str, user: FakeUser, *, start_param: str | None = None, now: float | None = None) -> str:
    """``initData`` for ``user`` as Telegram makes it for a Mini App of the bot with ``token``:
    the fields (``auth_date``, ``user`` as JSON, ``start_param`` when given) and their ``hash``:
    hex HMAC-SHA256 of the sorted ``key=value`` lines under the key HMAC-SHA256("WebAppData",
    token) (Telegram's "Validating data received via the Mini App")."""
    who = {"id": user.id, "first_name": user.first_name, "language_code": user.language_code or "en"}
    if user.username:
        who["username"] = user.username
    fields = {
        "auth_date": str(int(time.time() if now is None else now)),
        "user": json.dumps(who, separators=(",", ":")),
    }
    if start_param is not None:
        fields["start_param"] = start_param
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    fields["hash"] = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    return urllib.parse.urlencode(fields, quote_via=urllib.parse.quote)


class MiniApp:
    """The routes above for the bot whose Mini App server listens on 127.0.0.1:``port``."""

    def __init__(self, token: str, port: int) -> None:
        self.token = token
        self.port = port
        self._session: ClientSession | None = None

    def add_routes(self, app: web.Application) -> None:
        """Add the routes (module docstring) to the playground's application."""
        app.router.add_get("/webapp/", self.page)
        app.router.add_get("/webapp/static/telegram-stub.js", self.stub)
        app.router.add_route("*", "/webapp/{tail:.+}", self.forward)
        app.on_cleanup.append(self._close)

    def url_for(self, user: FakeUser, table: int) -> str:
        """The page's address as Telegram opens it for ``user`` from a button of table ``table``."""
        return f"/webapp/?table={table}#{self._fragment(user, f't{table}')}"

    def replay_url_for(self, user: FakeUser, replay: str) -> str:
        """The page's address as Telegram opens it for ``user`` from a ``startapp=<replay>`` link
        (``replay``: ``r<table>_<hand>``): no query, the start parameter in the signed initData."""
        return f"/webapp/#{self._fragment(user, replay)}"

    def _fragment(self, user: FakeUser, start_param: str) -> str:
        data = sign_init_data(self.token, user, start_param=start_param)
        return urllib.parse.urlencode(
            {"tgWebAppData": data, "tgWebAppVersion": "8.0", "tgWebAppThemeParams": json.dumps(THEME)},
            quote_via=urllib.parse.quote,
        )

    async def page(self, _request: web.Request) -> web.Response:
        html = (PAGE_DIR / "index.html").read_text(encoding="utf-8").replace(TELEGRAM_SCRIPT, STUB_SCRIPT)
        return web.Response(text=html, content_type="text/html", headers={"Cache-Control": "no-store"})

    async def stub(self, _request: web.Request) -> web.FileResponse:
        return web.FileResponse(PAGE_DIR / "telegram-stub.js", headers={"Cache-Control": "no-store"})

    async def forward(self, request: web.Request) -> web.StreamResponse:
        """Pass the request on to the bot's Mini App server and its answer back, streamed."""
        if self._session is None:
            self._session = ClientSession(timeout=ClientTimeout(total=None, sock_connect=3), auto_decompress=False)
        target = f"http://127.0.0.1:{self.port}{request.rel_url}"
        headers = {k: v for k, v in request.headers.items() if k.lower() not in _HOP}
        body = await request.read() if request.can_read_body else None
        out: web.StreamResponse | None = None
        try:
            async with self._session.request(request.method, target, headers=headers, data=body) as upstream:
                out = web.StreamResponse(status=upstream.status, headers={
                    k: v for k, v in upstream.headers.items() if k.lower() not in _HOP
                })  # fmt: skip
                await out.prepare(request)
                if await _pass_on(request, upstream.content, out):
                    await out.write_eof()
                return out  # leaving the block ends the upstream request: the bot sees the page go
        except (ClientError, ConnectionResetError, TimeoutError):
            if out is not None:  # the bot went away mid-stream: end it (the page reconnects)
                return out
            return web.json_response(BOT_DOWN, status=502)

    def api(self, user: FakeUser, table: str | None, replay: str | None = None) -> web.Response:
        """``GET /api/webapp``'s answer for ``user``: the table from the button (its id), or the
        replay from the link (``r<table>_<hand>``).  400 for anything else."""
        if replay is not None:
            if not _REPLAY.fullmatch(replay):
                raise web.HTTPBadRequest(text="replay must be r<table>_<hand>")
            return web.json_response({"url": self.replay_url_for(user, replay)})
        if table is None or not table.isdigit() or len(table) > 18:
            raise web.HTTPBadRequest(text="table must be a table id")
        return web.json_response({"url": self.url_for(user, int(table))})

    async def _close(self, _app: web.Application) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None


async def _pass_on(request: web.Request, content: StreamReader, out: web.StreamResponse) -> bool:
    """Copy ``content`` to ``out`` as it comes; True at its end, False as soon as the page went
    away.  aiohttp does not cancel a handler whose client left, and a quiet events stream writes
    nothing for seconds (pings every 15 s), so the client's connection is looked at every
    :data:`LOOK_SECONDS`: the bot must see the page close at once, as without the playground
    between them (its presence grace, then the hand message's catch-up, starts then)."""
    read: asyncio.Future[bytes] | None = None
    try:
        while True:
            transport = request.transport
            if transport is None or transport.is_closing():
                return False
            if read is None:
                read = asyncio.ensure_future(content.readany())
            done, _pending = await asyncio.wait({read}, timeout=LOOK_SECONDS)
            if not done:
                continue
            chunk, read = read.result(), None
            if not chunk:
                return True
            await out.write(chunk)
    finally:
        if read is not None:
            read.cancel()
