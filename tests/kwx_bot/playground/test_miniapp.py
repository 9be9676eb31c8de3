"""The playground's Mini App: initData signed as Telegram signs it (the bot's own check accepts it,
for the chosen user, and refuses it under another token), the page with the stand-in script."""

from __future__ import annotations

import asyncio
import json
import urllib.parse

import pytest
from aiohttp import ClientSession, web
from aiohttp.test_utils import TestClient, TestServer

from fakebot import FakeBotAPI
from kwx_bot.playground.miniapp import MiniApp, free_port, sign_init_data
from kwx_bot.webapp.auth import AuthError, check_init_data
from kwx_bot.webapp.static_routes import STUB_SCRIPT, TELEGRAM_SCRIPT

TOKEN = "123456789:" + "A" * 35


def _user():
    return FakeBotAPI(token=TOKEN).create_user("Ann", username="ann", language_code="zh-hans")


def test_the_bots_check_accepts_the_playgrounds_initdata_for_that_user_only():
    user = _user()
    data = sign_init_data(TOKEN, user, start_param="t42", now=1_000_000)
    checked = check_init_data(data, TOKEN, max_age=86400, now=1_000_010)
    assert (checked.id, checked.first_name, checked.language_code, checked.start_param) == (
        user.id, "Ann", "zh-hans", "t42")  # fmt: skip
    with pytest.raises(AuthError):
        check_init_data(data, "987654321:" + "B" * 35, max_age=86400, now=1_000_010)
    forged = data.replace(urllib.parse.quote(f'"id":{user.id}'), urllib.parse.quote('"id":1'))
    with pytest.raises(AuthError):
        check_init_data(forged, TOKEN, max_age=86400, now=1_000_010)


async def test_the_page_loads_the_stand_in_and_the_url_carries_signed_initdata():
    mini = MiniApp(TOKEN, 1)  # no bot behind it: its API answers 502
    app = web.Application()
    mini.add_routes(app)
    client = TestClient(TestServer(app))
    await client.start_server()
    try:
        html = await (await client.get("/webapp/")).text()
        assert STUB_SCRIPT in html and TELEGRAM_SCRIPT not in html
        assert "Telegram.WebApp" in await (await client.get("/webapp/static/telegram-stub.js")).text()
        assert (await client.get("/webapp/api/table/1")).status == 502
    finally:
        await client.close()
    url = mini.url_for(_user(), 7)
    path, _sep, fragment = url.partition("#")
    assert path == "/webapp/?table=7"
    fields = dict(urllib.parse.parse_qsl(fragment))
    assert check_init_data(fields["tgWebAppData"], TOKEN, max_age=60).start_param == "t7"
    assert json.loads(fields["tgWebAppThemeParams"])["bg_color"]


def test_a_replay_link_opens_the_page_with_its_start_parameter_signed():
    """A ``startapp=r7_2`` link (``/replay 2`` in the group): the Main Mini App's address, no query,
    the start parameter in the signed initData, as Telegram opens it (the page reads it there)."""
    mini = MiniApp(TOKEN, 1)
    answer = mini.api(_user(), None, "r7_2")
    path, _sep, fragment = json.loads(answer.text or "")["url"].partition("#")
    assert path == "/webapp/"
    fields = dict(urllib.parse.parse_qsl(fragment))
    assert check_init_data(fields["tgWebAppData"], TOKEN, max_age=60).start_param == "r7_2"
    for bad in ("r7", "t7", "r7_2x", "r_2", "7_2"):
        with pytest.raises(web.HTTPBadRequest):
            mini.api(_user(), None, bad)
    with pytest.raises(web.HTTPBadRequest):
        mini.api(_user(), "seven")


async def test_a_page_that_leaves_ends_the_bots_stream_at_once():
    """The playground passes a quiet events stream on; when the page goes, the bot's side ends within
    a second (not at the next ping): the bot must see the page close to bring the hand message up to
    date (its presence grace starts then).  The playground runs as ``kwx-bot playground`` runs it:
    aiohttp does not cancel a handler whose client left (a test server would)."""
    gone = asyncio.Event()

    async def events(request: web.Request) -> web.StreamResponse:  # the bot's stream: one event, then quiet
        out = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await out.prepare(request)
        await out.write(b"event: screen\ndata: {}\n\n")
        try:
            while request.transport is not None and not request.transport.is_closing():
                await asyncio.sleep(0.05)
        finally:
            gone.set()
        return out

    bot = web.Application()
    bot.router.add_get("/webapp/api/table/1/events", events)
    async with TestServer(bot) as upstream:
        playground = web.Application()
        MiniApp(TOKEN, upstream.port).add_routes(playground)
        runner = web.AppRunner(playground)  # as the playground's server: no handler cancellation
        await runner.setup()
        port = free_port()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        try:
            async with ClientSession() as session:
                response = await session.get(f"http://127.0.0.1:{port}/webapp/api/table/1/events")
                assert (await response.content.readline()) == b"event: screen\n"
                response.close()  # the page goes
                await asyncio.wait_for(gone.wait(), 3)  # the bot's pings would come only after 15 s
        finally:
            await runner.cleanup()
