"""The HTTP transport: a real aiohttp server speaking the Bot API wire protocol on 127.0.0.1.

Point PTB at it with ``ApplicationBuilder().base_url(server.base_url)
.base_file_url(server.base_file_url)`` (or use :func:`fakebot.ptb.application_builder`).

* ``POST|GET /bot<token>/<method>`` — parameters from the query string plus an urlencoded,
  multipart (file parts become uploads) or JSON body; the answer is the fake's JSON.
* ``GET /file/bot<token>/<file_path>`` — file downloads (``getFile`` paths).
* A wrong token answers 401 (PTB: ``InvalidToken``).

Pitfalls handled (docs/telegram.md §1.1-§1.2): ``client_max_size`` is raised to 64 MiB (aiohttp's 1 MiB
default would 413 photo uploads); :meth:`FakeBotServer.close` first closes the fake, which wakes
long polls, and the runner uses ``shutdown_timeout=1`` plus ``handler_cancellation`` so a client
that disconnects mid-poll does not leave the shutdown waiting.
"""

from __future__ import annotations

import json
from types import TracebackType
from typing import Any

from aiohttp import web

from .core import FakeBotAPI
from .params import UploadedFile

MAX_REQUEST_BYTES = 64 * 2**20


class FakeBotServer:
    """An aiohttp server serving one :class:`FakeBotAPI` on ``host:port`` (0 = any free port).

    Use as ``async with FakeBotServer(fake) as server:`` or ``await server.start()`` /
    ``await server.close()``. ``server.url`` is e.g. ``http://127.0.0.1:41234``.
    """

    def __init__(self, fake: FakeBotAPI, host: str = "127.0.0.1", port: int = 0) -> None:
        self.fake = fake
        self.host = host
        self.port = port
        self._runner: web.AppRunner | None = None

    @property
    def url(self) -> str:
        """Server root URL."""
        if self._runner is None:
            raise RuntimeError("the server is not started")
        return f"http://{self.host}:{self.port}"

    @property
    def base_url(self) -> str:
        """Value for ``ApplicationBuilder.base_url`` / ``Bot(base_url=...)``."""
        return f"{self.url}/bot"

    @property
    def base_file_url(self) -> str:
        """Value for ``ApplicationBuilder.base_file_url`` / ``Bot(base_file_url=...)``."""
        return f"{self.url}/file/bot"

    async def start(self) -> FakeBotServer:
        """Bind and start serving; returns self."""
        app = web.Application(client_max_size=MAX_REQUEST_BYTES)
        app.router.add_route("*", "/bot{token}/{method}", self._api)
        app.router.add_get("/file/bot{token}/{path:.*}", self._download)
        runner = web.AppRunner(app, shutdown_timeout=1.0, handler_cancellation=True, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port)
        await site.start()
        self._runner = runner
        self.port = runner.addresses[0][1]
        return self

    async def close(self) -> None:
        """Wake pending long polls (``fake.close()``), then stop the server."""
        await self.fake.close()
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()

    async def __aenter__(self) -> FakeBotServer:
        return await self.start()

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    async def _api(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.fake.token:
            return web.json_response({"ok": False, "error_code": 401, "description": "Unauthorized"}, status=401)
        params: dict[str, Any] = dict(request.query)
        files: dict[str, UploadedFile] = {}
        if request.body_exists:
            if request.content_type == "application/json":
                try:
                    body = await request.json()
                except json.JSONDecodeError:
                    return web.json_response(
                        {"ok": False, "error_code": 400, "description": "Bad Request: can't parse JSON"}, status=400
                    )
                if isinstance(body, dict):
                    params.update(body)
            elif request.content_type in ("application/x-www-form-urlencoded", "multipart/form-data"):
                form = await request.post()
                for name, value in form.items():
                    if isinstance(value, web.FileField):
                        files[name] = (value.filename, value.file.read(), value.content_type)
                    else:
                        params[name] = value
        status, body = await self.fake.handle(request.match_info["method"], params, files)
        return web.json_response(body, status=status)

    async def _download(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.fake.token:
            return web.json_response({"ok": False, "error_code": 401, "description": "Unauthorized"}, status=401)
        data = self.fake.file_bytes(request.match_info["path"])
        if data is None:
            return web.json_response({"ok": False, "error_code": 404, "description": "Not Found"}, status=404)
        return web.Response(body=data, content_type="application/octet-stream")
