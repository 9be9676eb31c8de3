"""The aiohttp transport: wire formats, tokens, big uploads, downloads, proxies and shutdown."""

from __future__ import annotations

import asyncio
import io
import os

import aiohttp
import pytest
from PIL import Image
from telegram import Bot
from telegram.error import InvalidToken

from fakebot import FakeBotAPI, FakeBotServer, fake_bot, http_request, run_application


async def post(server: FakeBotServer, method: str, *, token: str | None = None, **kwargs):
    async with aiohttp.ClientSession(trust_env=False) as session:
        url = f"{server.url}/bot{token or server.fake.token}/{method}"
        async with session.post(url, **kwargs) as response:
            return response.status, await response.json()


async def test_json_query_and_form_bodies(fakebot: FakeBotAPI, fakebot_server: FakeBotServer):
    alice = fakebot.create_user("Alice", started=True)
    status, body = await post(
        fakebot_server,
        "sendMessage",
        json={"chat_id": alice.id, "text": "json body", "reply_markup": {"inline_keyboard": []}},
    )
    assert status == 200 and body["result"]["text"] == "json body"
    status, body = await post(fakebot_server, "sendMessage", params={"chat_id": alice.id, "text": "query"})
    assert status == 200 and body["result"]["text"] == "query"
    status, body = await post(fakebot_server, "sendMessage", data={"chat_id": str(alice.id), "text": ""})
    assert status == 400
    assert body == {"ok": False, "error_code": 400, "description": "Bad Request: message text is empty"}


async def test_wrong_token_is_unauthorized(fakebot: FakeBotAPI, fakebot_server: FakeBotServer):
    status, body = await post(fakebot_server, "getMe", token="1:wrong")
    assert (status, body["description"]) == (401, "Unauthorized")
    bot = Bot("1:wrong", base_url=fakebot_server.base_url, request=http_request())
    with pytest.raises(InvalidToken):
        await bot.initialize()
    assert fakebot.calls == []


async def test_uploads_bigger_than_aiohttp_default_limit(fakebot: FakeBotAPI, fakebot_bot: Bot):
    alice = fakebot.create_user("Alice", started=True)
    noise = Image.frombytes("RGB", (900, 900), os.urandom(900 * 900 * 3))
    buffer = io.BytesIO()
    noise.save(buffer, "PNG", compress_level=0)
    data = buffer.getvalue()
    assert len(data) > 2 * 2**20
    message = await fakebot_bot.send_photo(alice.id, data)
    assert message.photo[-1].file_size == len(data)
    assert fakebot.last_message(alice).photo.data == data


async def test_file_downloads(fakebot: FakeBotAPI, fakebot_server: FakeBotServer, fakebot_bot: Bot):
    alice = fakebot.create_user("Alice", started=True)
    sent = await fakebot_bot.send_document(alice.id, b"\x00binary\xff", filename="blob.bin")
    file = await fakebot_bot.get_file(sent.document.file_id)
    assert file.file_path.startswith(fakebot_server.base_file_url)
    assert bytes(await file.download_as_bytearray()) == b"\x00binary\xff"
    async with aiohttp.ClientSession(trust_env=False) as session:
        base = f"{fakebot_server.url}/file/bot{fakebot.token}"
        async with session.get(f"{base}/documents/missing.bin") as response:
            assert response.status == 404
        path = fakebot.files[sent.document.file_id].file_path
        async with session.get(f"{base}/{path}") as response:
            assert response.status == 200
        async with session.get(f"{fakebot_server.url}/file/bot1:x/{path}") as response:
            assert response.status == 401


async def test_proxy_environment_is_ignored(fakebot: FakeBotAPI, fakebot_builder, monkeypatch):
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "all_proxy"):
        monkeypatch.setenv(name, "http://127.0.0.1:9")  # nothing listens there
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    app = fakebot_builder().build()
    async with run_application(app):
        assert app.bot.username == fakebot.bot.username


async def test_closing_the_server_wakes_a_pending_long_poll(fakebot: FakeBotAPI):
    server = await FakeBotServer(fakebot).start()
    poll = asyncio.create_task(post(server, "getUpdates", data={"timeout": "30"}))
    await fakebot.wait_for(lambda: fakebot._poll_generation == 1, 2)
    await asyncio.wait_for(server.close(), 3)
    status, body = await asyncio.wait_for(poll, 3)
    assert (status, body["result"]) == (200, [])


async def test_an_abandoned_long_poll_does_not_block_shutdown(fakebot: FakeBotAPI, fakebot_server: FakeBotServer):
    alice = fakebot.create_user("Alice")
    async with fake_bot(fakebot, fakebot_server) as bot:
        task = asyncio.create_task(bot.get_updates(timeout=30))
        await fakebot.wait_for(lambda: fakebot._poll_generation == 1, 2)
        task.cancel()  # PTB's Updater.stop() does this
        with pytest.raises(asyncio.CancelledError):
            await task
    fakebot.user_sends(alice, alice, "/start")
    await asyncio.sleep(0.05)  # give a (wrongly) surviving server-side poll the chance to grab it
    assert fakebot.pending_updates  # the abandoned poll did not swallow it


async def test_a_set_webhook_receives_every_update_with_the_secret_and_get_updates_conflicts(
    fakebot: FakeBotAPI, fakebot_server: FakeBotServer
):
    from aiohttp import web

    received: list[tuple[str, str | None, dict]] = []
    refuse = {"first": True}

    async def hook(request: web.Request) -> web.Response:
        if refuse.pop("first", False):  # the first attempt fails: the update is posted again
            return web.Response(status=502)
        received.append((request.path, request.headers.get("X-Telegram-Bot-Api-Secret-Token"), await request.json()))
        return web.Response()

    app = web.Application()
    app.router.add_post("/kwx/hook", hook)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        fakebot.webhook_routes["https://kwx.example"] = f"http://127.0.0.1:{port}"
        alice = fakebot.create_user("Alice")
        fakebot.start_bot(alice)
        status, body = await post(fakebot_server, "setWebhook", data={"url": "http://kwx.example/kwx/hook"})
        assert (status, body["description"]) == (
            400,
            "Bad Request: bad webhook: An HTTPS URL must be provided for webhook",
        )
        status, _ = await post(
            fakebot_server, "setWebhook", data={"url": "https://kwx.example/kwx/hook", "secret_token": "s3cret_-x"}
        )
        assert status == 200
        fakebot.user_sends(alice, alice, "hello")
        await fakebot.wait_for(lambda: len(received) == 2, 5)
        assert [(path, secret) for path, secret, _ in received] == [("/kwx/hook", "s3cret_-x")] * 2
        assert [u["message"]["text"] for _, _, u in received] == ["/start", "hello"]
        assert fakebot.pending_updates == [] and fakebot.updates == []
        status, body = await post(fakebot_server, "getWebhookInfo")
        assert body["result"]["url"] == "https://kwx.example/kwx/hook" and body["result"]["pending_update_count"] == 0
        assert "502" in body["result"]["last_error_message"]
        status, body = await post(fakebot_server, "getUpdates")
        assert status == 409 and body["description"].startswith("Conflict: can't use getUpdates method while webhook")
        status, _ = await post(fakebot_server, "deleteWebhook")
        assert status == 200 and fakebot.webhook is None
        fakebot.user_sends(alice, alice, "polled")
        status, body = await post(fakebot_server, "getUpdates")
        assert status == 200 and [u["message"]["text"] for u in body["result"]] == ["polled"]
        assert len(received) == 2
    finally:
        await runner.cleanup()
