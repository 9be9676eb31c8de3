"""The playground's endpoints: each answers only about the chats the viewing user can see, the bot
really runs behind them (a child process against the fake), and the operator's flood and restart work."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from kwx_bot.playground import Playground
from kwx_bot.playground.server import USERS, entities_html, make_token
from kwx_bot.settings import load_settings


def test_the_fake_token_has_botfathers_shape_and_is_new_each_run() -> None:
    token = make_token()
    settings = load_settings({"TELEGRAM_BOT_TOKEN": token})
    assert settings.token == token and make_token() != token


def test_entities_become_escaped_html_counting_utf16_units() -> None:
    # 🀄 is two UTF-16 code units: the bold entity after it starts at offset 3, not 2
    text = "🀄 <b> & Ann"
    entities = [{"type": "bold", "offset": 3, "length": 3}, {"type": "italic", "offset": 9, "length": 3}]
    assert entities_html(text, entities) == "🀄 <b>&lt;b&gt;</b> &amp; <i>Ann</i>"
    link = [{"type": "text_link", "offset": 0, "length": 4, "url": "https://t.me/x?start=a"}]
    assert entities_html("Open", link).startswith('<a href="https://t.me/x?start=a"')
    assert entities_html("x", [{"type": "mention", "offset": 0, "length": 1}]) == "x"


@pytest.fixture
async def playground(tmp_path) -> AsyncIterator[Playground]:
    pg = Playground(db=tmp_path / "kwx.sqlite3", lang="en", port=0)
    await pg.start()
    try:
        yield pg
    finally:
        await pg.close()


async def _get(session: aiohttp.ClientSession, url: str) -> tuple[int, Any]:
    async with session.get(url) as r:
        return r.status, (await r.json() if r.content_type == "application/json" else await r.text())


async def _post(session: aiohttp.ClientSession, url: str, body: dict[str, Any]) -> tuple[int, Any]:
    async with session.post(url, json=body) as r:
        return r.status, (await r.json() if r.content_type == "application/json" else await r.text())


async def test_a_user_sees_the_group_and_their_own_private_chat_only(playground: Playground) -> None:
    fake, base = playground.fake, playground.url
    ann, ben = playground.users["Ann"], playground.users["Ben"]
    async with aiohttp.ClientSession() as s:
        assert (await _post(s, base + "api/start", {"user": "Ann"}))[0] == 200
        await fake.wait_for(lambda: fake.bot_messages(ann), 20)  # the bot's welcome, in Ann's private chat
        status, state = await _get(s, base + "api/state?user=Ann")
        assert status == 200 and state["me"] == "Ann" and state["users"] == list(USERS)
        assert [(c["kind"], c["id"]) for c in state["chats"]] == [("group", playground.group.id), ("private", ann.id)]
        welcome = state["chats"][1]["messages"][-1]
        assert welcome["bot"] and welcome["html"]

        status, state = await _get(s, base + "api/state?user=Ben")
        assert [c["id"] for c in state["chats"]] == [playground.group.id, ben.id]
        assert state["chats"][1]["messages"] == [] and not state["chats"][1]["started"]
        assert str(ann.id) not in str(state)
        # asking for Ann's chat as Ben is refused at every endpoint
        assert (await _get(s, base + f"api/photo?user=Ben&chat={ann.id}&message=1"))[0] == 403
        denied = {"user": "Ben", "chat": ann.id, "message": welcome["id"], "data": "x", "text": "hello"}
        assert (await _post(s, base + "api/send", denied))[0] == 403
        assert (await _post(s, base + "api/press", denied))[0] == 403
        assert [m.text for m in fake.messages(ann, from_bot=False)] == ["/start"]  # nothing reached Ann's chat
        assert (await _get(s, base + "api/state?user=Mallory"))[0] == 400


async def test_flood_and_restart_for_the_operator(playground: Playground) -> None:
    fake, base = playground.fake, playground.url
    cat = playground.users["Cat"]
    async with aiohttp.ClientSession() as s:
        status, body = await _post(s, base + "api/flood", {"on": True})
        assert status == 200 and body == {"flood": True} and fake.faults.rules
        assert (await _get(s, base + "api/state?user=Cat"))[1]["flood"] is True
        assert (await _post(s, base + "api/flood", {"on": False}))[1] == {"flood": False} and not fake.faults.rules

        status, body = await _post(s, base + "api/restart", {})
        assert status == 200 and body == {"bot": "running"}
        assert fake.count_calls("deleteWebhook") == 2  # two starts of `python -m kwx_bot run`
        # the restarted bot answers: a /start typed in the private chat's box gets the welcome
        assert (await _post(s, base + "api/send", {"user": "Cat", "chat": cat.id, "text": "/start"}))[0] == 200
        await fake.wait_for(lambda: fake.bot_messages(cat), 20)


async def test_the_page_and_its_script_are_served(playground: Playground) -> None:
    async with aiohttp.ClientSession() as s:
        status, page = await _get(s, playground.url + "?user=Ben")
        assert status == 200 and '<script src="/static/app.js">' in page
        status, script = await _get(s, playground.url + "static/app.js")
        assert status == 200 and "/api/state?user=" in script and "zh_CN" in script


async def test_a_bot_killed_from_outside_shows_as_exited_until_restarted(playground: Playground) -> None:
    base = playground.url
    async with aiohttp.ClientSession() as s:
        assert (await _get(s, base + "api/state?user=Ann"))[1]["bot"] == "running"
        proc = playground._proc
        assert proc is not None
        proc.kill()  # kill -9 from a shell
        await proc.wait()
        assert (await _get(s, base + "api/state?user=Ann"))[1]["bot"] == "exited"
        assert (await _post(s, base + "api/restart", {}))[1] == {"bot": "running"}
        assert (await _get(s, base + "api/state?user=Ann"))[1]["bot"] == "running"


async def _raw(s: aiohttp.ClientSession, method: str, url: str, **kwargs: Any) -> tuple[int, Any]:
    async with s.request(method, url, **kwargs) as r:
        return r.status, (await r.json() if r.content_type == "application/json" else await r.text())


async def test_only_the_page_itself_may_use_the_endpoints(playground: Playground) -> None:
    """docs/security.md §8: a page of another site (a form, a no-cors fetch, a DNS-rebinding page)
    can neither act for a player nor read their private chats."""
    fake, base, port = playground.fake, playground.url, playground.port
    ann = playground.users["Ann"]
    own = f"http://127.0.0.1:{port}"
    send = {"user": "Ann", "chat": playground.group.id, "text": "/help"}
    async with aiohttp.ClientSession() as s:
        # a cross-site form post: text/plain, a foreign Origin
        evil = {"Origin": "http://evil.example", "Content-Type": "text/plain"}
        assert (await _raw(s, "POST", base + "api/send", data=json.dumps(send), headers=evil))[0] == 403
        # a foreign Origin with a JSON body, and the "null" origin of a sandboxed frame
        for origin in ("http://evil.example", "null", f"http://127.0.0.1:{port + 1}", f"https://127.0.0.1:{port}"):
            assert (await _raw(s, "POST", base + "api/send", json=send, headers={"Origin": origin}))[0] == 403
        # a DNS-rebinding page: the request reaches 127.0.0.1 but names the attacker's host
        for host in ("evil.example", f"evil.example:{port}", "127.0.0.1", f"127.0.0.2:{port}"):
            assert (await _raw(s, "GET", base + "api/state?user=Ann", headers={"Host": host}))[0] == 403
            assert (await _raw(s, "GET", base, headers={"Host": host}))[0] == 403
        # another site's page as the browser labels it, even without an Origin
        for site in ("cross-site", "same-site"):
            status, _ = await _raw(s, "GET", base + "api/state?user=Ann", headers={"Sec-Fetch-Site": site})
            assert status == 403
        # the right headers with a body that is not JSON, or not a JSON object, or of wrong types
        assert (await _raw(s, "POST", base + "api/send", data="user=Ann", headers={"Origin": own}))[0] == 400
        for body in ("[1, 2]", '"hello"', "3", "null", "{", ""):
            headers = {"Origin": own, "Content-Type": "application/json"}
            assert (await _raw(s, "POST", base + "api/send", data=body, headers=headers))[0] == 400, body
        for message in ([1], {"a": 1}, "²", "1.5", True):
            press = {"user": "Ann", "chat": playground.group.id, "message": message, "data": "x"}
            assert (await _raw(s, "POST", base + "api/press", json=press))[0] == 400, message
        assert (await _raw(s, "GET", base + f"api/photo?user=Ann&chat={ann.id}&message=²"))[0] == 400
        assert fake.messages(playground.group, from_bot=False) == []  # nothing was sent by anyone
        # the page's own requests, by either name of the address
        for name in ("127.0.0.1", "localhost"):
            page = f"http://{name}:{port}"
            headers = {"Origin": page, "Host": f"{name}:{port}", "Sec-Fetch-Site": "same-origin"}
            assert (await _raw(s, "POST", base + "api/send", json=send, headers=headers))[0] == 200
            assert (await _raw(s, "GET", base + "api/state?user=Ann", headers=headers))[0] == 200
        status, page_html = await _raw(s, "GET", base, headers={"Sec-Fetch-Site": "none"})
        assert status == 200 and "app.js" in page_html
    assert len(fake.messages(playground.group, from_bot=False)) == 2
