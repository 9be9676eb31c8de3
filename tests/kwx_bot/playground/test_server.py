"""The playground's endpoints: each answers only about the chats the viewing user can see, the bot
really runs behind them (a child process against the fake), and the operator's flood and restart work."""

from __future__ import annotations

import io
import json
import sqlite3
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from PIL import Image

from kwx_bot.edge.codec import b36
from kwx_bot.playground import Playground
from kwx_bot.playground.server import STRANGERS, USERS, entities_html, load_world, make_token, world_file
from kwx_bot.settings import load_settings


def test_the_fake_token_has_botfathers_shape_and_is_new_each_run() -> None:
    token = make_token()
    settings = load_settings({"TELEGRAM_BOT_TOKEN": token})
    assert settings.token == token and make_token() != token


def test_the_world_file_keeps_the_token_per_database_for_its_owner_alone(tmp_path) -> None:
    token, started, known = load_world(tmp_path / "a.sqlite3")
    assert load_settings({"TELEGRAM_BOT_TOKEN": token}).token == token and not started and not known
    assert world_file(tmp_path / "a.sqlite3").stat().st_mode & 0o777 == 0o600
    assert load_world(tmp_path / "a.sqlite3") == (token, frozenset(), True)  # the same bot, run after run
    assert load_world(tmp_path / "b.sqlite3")[0] != token  # another database, another bot
    world_file(tmp_path / "c.sqlite3").write_text("not a world")
    assert load_world(tmp_path / "c.sqlite3")[2] is False


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
        assert status == 200 and state["me"] == "Ann" and state["users"] == [*USERS, *STRANGERS]
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


async def test_an_unknown_user_is_explained_and_a_preset_name_matches_in_any_case(playground: Playground) -> None:
    base = playground.url
    async with aiohttp.ClientSession() as s:
        status, body = await _get(s, base + "api/state?user=Mallory")
        assert status == 400 and body["unknown_user"] == "Mallory" and body["users"] == [*USERS, *STRANGERS]
        assert body["lang"] == "en"  # the playground's language: the page explains in it
        assert "unknown user 'Mallory'" in body["error"]
        for asked in ("ann", "ANN", "aNn"):
            status, state = await _get(s, base + f"api/state?user={asked}")
            assert status == 200 and state["me"] == "Ann", asked
        assert (await _post(s, base + "api/start", {"user": "ben"}))[0] == 200
        await playground.fake.wait_for(lambda: playground.fake.bot_messages(playground.users["Ben"]), 20)


async def test_the_stranger_sees_only_the_bots_chat_and_a_join_link_refuses_him(playground: Playground) -> None:
    """Eve is no member of the group: she can open the bot's private chat, never sees the group, and
    the members-only rule refuses her a seat even with the table's true join link."""
    fake, base = playground.fake, playground.url
    eve, group = playground.users["Eve"], playground.group
    async with aiohttp.ClientSession() as s:
        status, state = await _get(s, base + "api/state?user=Eve")
        assert status == 200 and state["strangers"] == ["Eve"] and state["group"] == group.title
        assert [(c["kind"], c["id"]) for c in state["chats"]] == [("private", eve.id)]
        assert (await _post(s, base + "api/send", {"user": "Eve", "chat": group.id, "text": "/new"}))[0] == 403
        assert (await _post(s, base + "api/send", {"user": "Ann", "chat": group.id, "text": "/new"}))[0] == 200
        await fake.wait_for(lambda: any("Join" in m.button_texts for m in fake.bot_messages(group)), 20)
        with sqlite3.connect(playground.db) as db:  # the join link a member might pass on
            table_id, token = db.execute("SELECT table_id, join_token FROM tables").fetchone()
        mark = fake.mark()
        start = {"user": "Eve", "chat": eve.id, "text": f"/start j{b36(table_id)}_{token}"}
        assert (await _post(s, base + "api/send", start))[0] == 200
        refusal = await fake.wait_for_message(eve, contains="does not work for you", since=mark, timeout=20)
        assert "only for members" in refusal.content
        with sqlite3.connect(playground.db) as db:
            assert db.execute("SELECT user_id FROM seats").fetchall() == []  # nobody sits: Ann has no private chat


async def _bot_sends(playground: Playground, method: str, field: str, chat: int, name: str, data: bytes) -> None:
    """A call of the Bot API as the bot makes it (multipart upload)."""
    form = aiohttp.FormData()
    form.add_field("chat_id", str(chat))
    form.add_field("caption", f"{name}, as sent")
    form.add_field(field, data, filename=name)
    url = f"{playground.server.base_url}{playground.fake.token}/{method}"
    async with aiohttp.ClientSession() as s, s.post(url, data=form) as r:
        assert r.status == 200, await r.text()


async def test_documents_download_under_their_name_and_animations_show_inline(playground: Playground) -> None:
    """What /export and /replay send, shown as Telegram shows it: a document with its name and size
    that downloads under its name, and an animation (the GIF itself) with its size in pixels."""
    base, ann = playground.url, playground.users["Ann"]
    buf = io.BytesIO()
    frames = [Image.new("RGB", (40, 30), colour) for colour in ("red", "green")]
    frames[0].save(buf, "GIF", save_all=True, append_images=frames[1:], duration=200, loop=0)
    gif, doc = buf.getvalue(), b'{"hand": 1}\n' * 50
    async with aiohttp.ClientSession() as s:
        assert (await _post(s, base + "api/start", {"user": "Ann"}))[0] == 200
        await playground.fake.wait_for(lambda: playground.fake.bot_messages(ann), 20)
        await _bot_sends(playground, "sendDocument", "document", ann.id, "kwx-hand-1.json", doc)
        await _bot_sends(playground, "sendAnimation", "animation", ann.id, "kwx-replay-1.gif", gif)
        status, state = await _get(s, base + "api/state?user=Ann")
        assert status == 200
        *_, sent_doc, sent_gif = state["chats"][-1]["messages"]
        assert sent_doc["document"]["name"] == "kwx-hand-1.json" and sent_doc["document"]["bytes"] == len(doc)
        assert sent_doc["animation"] is None and sent_doc["photo"] is None and "as sent" in sent_doc["html"]
        assert sent_gif["animation"]["size"] == [40, 30] and sent_gif["document"] is None
        async with s.get(base + sent_doc["document"]["url"].lstrip("/")) as r:
            assert r.status == 200 and await r.read() == doc
            assert r.headers["Content-Disposition"].startswith('attachment; filename="kwx-hand-1.json"')
        async with s.get(base + sent_gif["animation"]["url"].lstrip("/")) as r:
            assert r.status == 200 and r.content_type == "image/gif" and await r.read() == gif
        # another user cannot fetch Ann's file
        other = sent_doc["document"]["url"].replace("user=Ann", "user=Ben").lstrip("/")
        assert (await _get(s, base + other))[0] == 403


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


async def test_a_press_on_a_keyboard_the_page_had_not_redrawn_reaches_the_bot(playground: Playground) -> None:
    # as in Telegram: the bot answers it, where the fake alone would refuse with its own error
    fake, base, group = playground.fake, playground.url, playground.group
    async with aiohttp.ClientSession() as s:
        assert (await _post(s, base + "api/start", {"user": "Ann"}))[0] == 200
        assert (await _post(s, base + "api/send", {"user": "Ann", "chat": group.id, "text": "/new"}))[0] == 200
        await fake.wait_for(lambda: any(m.buttons for m in fake.bot_messages(group)), 20)
        lobby = next(m for m in fake.bot_messages(group) if m.buttons)
        join = next(b.callback_data for row in lobby.buttons for b in row if b.text == "Join")
        await fake.wait_for(lambda: "Ann" in (lobby.text or ""), 20)  # Ann, who opened it, has a seat
        assert (await _post(s, base + "api/send", {"user": "Ann", "chat": group.id, "text": "/kill"}))[0] == 200
        await fake.wait_for(lambda: not lobby.buttons, 20)  # the lobby lost its keyboard
        press = {"user": "Ben", "chat": group.id, "message": lobby.message_id}
        status, answer = await _post(s, base + "api/press", {**press, "data": join})
        assert status == 200 and answer["text"], answer  # the bot's own words, not the fake's "no button"
        status, answer = await _post(s, base + "api/press", {**press, "data": "j:forged"})
        assert status == 400 and "no button" in answer["error"]  # never a button of this message


async def test_the_page_brings_the_pictures_cjk_and_emoji_fonts_for_a_machine_without(
    playground: Playground,
) -> None:
    # a bare Debian has no CJK or emoji font: the page falls back to the fonts the pictures ship
    async with aiohttp.ClientSession() as s:
        status, css = await _get(s, playground.url + "static/style.css")
        assert status == 200
        for family, url in (("Kwx CJK", "/fonts/cjk.otf"), ("Kwx Emoji", "/fonts/emoji.ttf")):
            assert f'font-family: "{family}"; src: url({url})' in css
            assert f'"{family}"' in css.split("\nbody {", 1)[1].split("}", 1)[0]  # in the page's font list
        for name, magic, kind in (("cjk.otf", b"OTTO", "font/otf"), ("emoji.ttf", b"\x00\x01\x00\x00", "font/ttf")):
            async with s.get(playground.url + "fonts/" + name) as r:
                body = await r.read()
                assert r.status == 200 and r.content_type == kind and body[:4] == magic, (name, r.status)
                assert len(body) > 100_000
        async with s.get(playground.url + "fonts/..%2Fserver.py") as r:
            assert r.status == 404
        # Chromium keeps a □ for text laid out before the font came: the page fetches it first thing,
        # and the script draws nothing (not even the page's Chinese name) before it is loaded
        status, page = await _get(s, playground.url)
        assert '<link rel="preload" href="/fonts/cjk.otf" as="font"' in page and "卡五星" not in page
        status, script = await _get(s, playground.url + "static/app.js")
        start = script.index("document.fonts.load('600 15px \"Kwx CJK\"'")
        assert script.index('$(".brand").textContent = "卡五星 kwx"', start) < script.index("refresh();", start)


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


async def test_a_playground_restarted_on_its_database_resumes_the_hand(tmp_path) -> None:
    # README "Restarts": the same bot (its token kept beside the database) resumes the table; the new
    # fake Telegram has none of the old messages, so the bot sends the hand and the table anew (the
    # same port: what the messages show is the same as at the clean stop, yet they are gone)
    db, first = tmp_path / "kwx.sqlite3", Playground(db=tmp_path / "kwx.sqlite3", lang="en", port=0)
    await first.start()
    try:
        fake, group, base = first.fake, first.group, first.url
        ann = first.users["Ann"]
        async with aiohttp.ClientSession() as s:
            assert (await _post(s, base + "api/start", {"user": "Ann"}))[0] == 200
            assert (await _post(s, base + "api/send", {"user": "Ann", "chat": group.id, "text": "/new"}))[0] == 200
            await fake.wait_for(lambda: any(m.buttons for m in fake.bot_messages(group)), 20)
            lobby = next(m for m in fake.bot_messages(group) if m.buttons)
            await fake.wait_for(lambda: "Ann" in (lobby.text or ""), 20)
            for text, then in (("Add AI", "AI 2"), ("Add AI", "AI 3"), ("Start", None)):
                data = next(b.callback_data for row in lobby.buttons for b in row if b.text == text)
                press = {"user": "Ann", "chat": group.id, "message": lobby.message_id, "data": data}
                assert (await _post(s, base + "api/press", press))[0] == 200
                if then is not None:
                    await fake.wait_for(lambda then=then: then in (lobby.text or ""), 20)
        await fake.wait_for(lambda: any(m.photo and m.buttons for m in fake.bot_messages(ann)), 30)
        before = next(m for m in fake.bot_messages(ann) if m.photo)
    finally:
        await first.close()
    again = Playground(db=db, lang="en", port=first.port)
    await again.start()
    try:
        fake, ann = again.fake, again.users["Ann"]
        assert fake.token == first.fake.token and ann.started  # the same bot; Ann had started it
        await fake.wait_for(lambda: any(m.photo and m.buttons for m in fake.bot_messages(ann)), 30)
        await fake.wait_for(lambda: any(m.photo for m in fake.bot_messages(again.group)), 30)
        hand = next(m for m in fake.bot_messages(ann) if m.photo)
        assert hand.caption == before.caption and hand.buttons == before.buttons  # the same turn, resumed
        assert not fake.bot_messages(again.group)[0].text  # no "cannot message Ann": she was not put on auto
    finally:
        await again.close()
