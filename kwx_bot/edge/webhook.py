"""The webhook server's door: refuse a request before reading its body (docs/security.md §5).

PTB's webhook server (``Application.run_webhook``) is a tornado ``HTTPServer`` that reads a whole
request body — up to tornado's default of 100 MB — before its handler checks the
``X-Telegram-Bot-Api-Secret-Token`` header, so anyone who finds the URL can make the bot hold
100 MB per request without knowing the secret.  :class:`GuardedHTTPServer` is that server with a
door in front of PTB's handler, which looks at the request's headers only:

* a request without the exact secret (compared in constant time) is answered ``403`` at once;
* a request whose ``Content-Length`` is over :data:`MAX_UPDATE_BYTES` (1 MiB: a Telegram update —
  at most 4096 characters of text plus its entities, a quoted reply and the like — is a few KiB)
  is answered ``413`` at once;
* a chunked body is cut off by tornado's own limit (the same 1 MiB) as soon as it is passed:
  ``400`` and the connection closed;
* everything else goes to PTB's handler unchanged (it checks the secret and the content type again).

A refused request's body is never read into memory: the door takes the connection over
(``HTTP1Connection.detach``), writes the answer, then reads and throws away at most
:data:`MAX_UPDATE_BYTES` more for up to :data:`LINGER_SECONDS` (so a client — a reverse proxy —
still sending sees the answer rather than a reset connection) and closes it.  Slow clients are
bounded too: :data:`BODY_TIMEOUT_SECONDS` for a body, :data:`IDLE_SECONDS` for an idle connection
or a request's headers.

:func:`guard_webhook_server` installs the door with tornado's ``Configurable.configure`` — tornado's
documented way to choose the class behind ``HTTPServer(...)``, so PTB builds its server as usual —
before ``run_webhook``.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import socket
import time
from collections.abc import Awaitable
from http import HTTPStatus
from typing import Any

from tornado import httputil, iostream
from tornado.http1connection import HTTP1Connection
from tornado.httpserver import HTTPServer

__all__ = [
    "BODY_TIMEOUT_SECONDS",
    "IDLE_SECONDS",
    "LINGER_SECONDS",
    "MAX_UPDATE_BYTES",
    "SECRET_HEADER",
    "GuardedHTTPServer",
    "guard_webhook_server",
]

log = logging.getLogger("kwx.webhook")

MAX_UPDATE_BYTES = 1 << 20
"""The largest request body the webhook accepts (1 MiB; the nginx sample's ``client_max_body_size 1m``)."""
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
"""The header in which Telegram sends the webhook's ``secret_token`` (docs/telegram.md §1.4)."""
LINGER_SECONDS = 2.0
"""How long a refused connection is drained (the answer written first) before it is closed."""
BODY_TIMEOUT_SECONDS = 30.0
"""The longest a request body may take to arrive (Telegram sends it at once)."""
IDLE_SECONDS = 120.0
"""The longest a connection may wait idle between requests, or for a request's headers."""


class GuardedHTTPServer(HTTPServer):
    """Tornado's ``HTTPServer`` with the door described in the module docstring.

    Extra keyword arguments: ``secret_token`` (``None``: no secret is checked, as PTB without one)
    and ``max_body_size`` (bytes, default :data:`MAX_UPDATE_BYTES`: over it by ``Content-Length``
    413, chunked 400).  Every other argument is tornado's."""

    def initialize(self, *args: Any, secret_token: str | None = None, **kwargs: Any) -> None:
        kwargs.setdefault("max_body_size", MAX_UPDATE_BYTES)
        kwargs.setdefault("body_timeout", BODY_TIMEOUT_SECONDS)
        kwargs.setdefault("idle_connection_timeout", IDLE_SECONDS)
        self.secret_token = secret_token
        self.max_update_bytes = int(kwargs["max_body_size"])
        super().initialize(*args, **kwargs)

    def start_request(self, server_conn: object, request_conn: httputil.HTTPConnection) -> httputil.HTTPMessageDelegate:
        """Tornado's delegate of the request, behind the door."""
        inner = super().start_request(server_conn, request_conn)
        return _Door(inner, request_conn, self.secret_token, self.max_update_bytes)


class _Door(httputil.HTTPMessageDelegate):
    """Lets a request through to ``inner`` only with the secret and a ``Content-Length`` within
    ``limit``; answers any other at once, from its headers."""

    def __init__(
        self, inner: httputil.HTTPMessageDelegate, conn: httputil.HTTPConnection, secret: str | None, limit: int
    ) -> None:
        self._inner = inner
        self._conn = conn
        self._secret = secret
        self._limit = limit

    def _refusal(self, headers: httputil.HTTPHeaders) -> HTTPStatus | None:
        if self._secret is not None:
            offered = headers.get(SECRET_HEADER, "")
            if not hmac.compare_digest(offered.encode(), self._secret.encode()):
                return HTTPStatus.FORBIDDEN
        length = headers.get("Content-Length", "")
        if length.isascii() and length.isdigit() and int(length) > self._limit:
            return HTTPStatus.REQUEST_ENTITY_TOO_LARGE
        return None  # a malformed length is tornado's to refuse (400)

    def headers_received(
        self, start_line: httputil.RequestStartLine | httputil.ResponseStartLine, headers: httputil.HTTPHeaders
    ) -> Awaitable[None] | None:
        status = self._refusal(headers)
        if status is None or not isinstance(self._conn, HTTP1Connection):
            return self._inner.headers_received(start_line, headers)
        log.debug("webhook request refused before its body: %d %s", status, status.phrase)
        return _refuse(self._conn.detach(), status, self._limit)

    def data_received(self, chunk: bytes) -> Awaitable[None] | None:
        return self._inner.data_received(chunk)

    def finish(self) -> None:
        self._inner.finish()

    def on_connection_close(self) -> None:
        self._inner.on_connection_close()


async def _refuse(stream: iostream.IOStream, status: HTTPStatus, limit: int) -> None:
    """Answer ``status`` on the taken-over connection, drain at most ``limit`` bytes for at most
    :data:`LINGER_SECONDS` (thrown away), close."""
    head = f"HTTP/1.1 {status.value} {status.phrase}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    try:
        await stream.write(head.encode("ascii"))
        if not isinstance(stream, iostream.SSLIOStream):
            stream.socket.shutdown(socket.SHUT_WR)  # the answer is complete
        deadline, drained = time.monotonic() + LINGER_SECONDS, 0
        while drained < limit and (left := deadline - time.monotonic()) > 0:
            read = stream.read_bytes(min(64 << 10, limit - drained), partial=True)
            drained += len(await asyncio.wait_for(read, left))
    except (iostream.StreamClosedError, OSError, TimeoutError):
        pass
    finally:
        stream.close()


def guard_webhook_server(secret_token: str | None, *, max_body_size: int = MAX_UPDATE_BYTES) -> None:
    """Make every tornado ``HTTPServer`` built from now on in this process a
    :class:`GuardedHTTPServer` with ``secret_token`` and ``max_body_size`` — in kwx that is only
    PTB's webhook server (``run_webhook``; call this first).  Process-wide: tornado keeps the
    choice on the ``HTTPServer`` class (``HTTPServer.configure(None)`` undoes it)."""
    HTTPServer.configure(GuardedHTTPServer, secret_token=secret_token, max_body_size=max_body_size)
