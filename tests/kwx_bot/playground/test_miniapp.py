"""The playground's Mini App: initData signed as Telegram signs it (the bot's own check accepts it,
for the chosen user, and refuses it under another token), the page with the stand-in script."""

from __future__ import annotations

import json
import urllib.parse

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from fakebot import FakeBotAPI
from kwx_bot.playground.miniapp import MiniApp, sign_init_data
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
