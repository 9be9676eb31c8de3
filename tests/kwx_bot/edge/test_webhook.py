"""The webhook server's door (docs/security.md §5): a request without the secret, or with a body
over the limit, is answered from its headers — its body is never read — and anything else reaches
the handler unchanged.  Raw HTTP over a socket, so the test decides how much of a body is sent."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
import tornado.netutil
import tornado.web

from kwx_bot.edge.webhook import MAX_UPDATE_BYTES, SECRET_HEADER, GuardedHTTPServer

SECRET = "door-" + "k" * 27
HUGE = 99 * 1024 * 1024


class _Hook(tornado.web.RequestHandler):
    """Records the bodies that reached it."""

    def initialize(self, seen: list[bytes]) -> None:
        self.seen = seen

    def post(self) -> None:
        self.seen.append(self.request.body)
        self.write("ok")


@pytest.fixture
async def hook() -> AsyncIterator[tuple[int, list[bytes]]]:
    """A guarded server on a free port whose handler records the bodies it got."""
    seen: list[bytes] = []
    server = GuardedHTTPServer(tornado.web.Application([("/hook", _Hook, {"seen": seen})]), secret_token=SECRET)
    [sock] = tornado.netutil.bind_sockets(0, "127.0.0.1")
    server.add_sockets([sock])
    try:
        yield sock.getsockname()[1], seen
    finally:
        server.stop()
        await server.close_all_connections()


async def request(port: int, headers: dict[str, str], body: bytes = b"", *, chunks: int = 0) -> tuple[int, bytes]:
    """POST /hook with ``headers`` and ``body`` sent ``chunks`` times over (never the rest a
    ``Content-Length`` may promise); the answer's status and body, read until the server closes the
    connection (a reset, when it closes with unread data, ends the body too)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        head = "POST /hook HTTP/1.1\r\nHost: kwx\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers.items())
        writer.write(head.encode() + b"\r\n" + body * max(chunks, 1))
        status_line = await asyncio.wait_for(reader.readline(), 10)  # not waiting for a body never sent
        try:
            while (await asyncio.wait_for(reader.readline(), 10)) not in (b"\r\n", b""):
                pass
            answer = await asyncio.wait_for(reader.read(), 10)
        except ConnectionResetError:
            answer = b""
        return int(status_line.split()[1]), answer
    finally:
        writer.close()


JSON = {"Content-Type": "application/json"}


async def test_a_wrong_or_missing_secret_is_refused_before_the_body(hook):
    port, seen = hook
    for secret in ({}, {SECRET_HEADER: "not-" + SECRET}, {SECRET_HEADER: SECRET[:-1]}):
        headers = {**JSON, **secret, "Content-Length": str(HUGE)}
        assert await request(port, headers, b"x" * 65536) == (403, b"")
    assert seen == []


async def test_a_body_over_the_limit_is_refused_by_its_length_before_it_is_read(hook):
    port, seen = hook
    headers = {**JSON, SECRET_HEADER: SECRET, "Content-Length": str(MAX_UPDATE_BYTES + 1)}
    assert await request(port, headers) == (413, b"")
    assert seen == []


async def test_a_chunked_body_is_cut_off_at_the_limit(hook):
    port, seen = hook
    headers = {**JSON, SECRET_HEADER: SECRET, "Transfer-Encoding": "chunked"}
    chunk = b"10000\r\n" + b"x" * 0x10000 + b"\r\n"  # 64 KiB; the terminating chunk is never sent
    assert await request(port, headers, chunk, chunks=MAX_UPDATE_BYTES // 0x10000 + 1) == (400, b"")
    assert seen == []


async def test_a_request_with_the_secret_within_the_limit_reaches_the_handler(hook):
    port, seen = hook
    body = b'{"update_id": 1}' + b" " * (MAX_UPDATE_BYTES - 16)
    headers = {**JSON, SECRET_HEADER: SECRET, "Content-Length": str(len(body)), "Connection": "close"}
    assert await request(port, headers, body) == (200, b"ok")
    assert seen == [body]
