"""The Mini App's static routes: the page, its files, the tile faces and the words, none private."""

from __future__ import annotations

import io

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from PIL import Image

from kwx_bot.webapp.static_routes import STUB_SCRIPT, TELEGRAM_SCRIPT, add_static_routes, words_json
from kwx_bot.words.i18n import translator
from kwx_bot.words.webapp_text import page_words


async def _client(stub: bool) -> TestClient:
    app = web.Application()
    add_static_routes(app, stub=stub)
    client = TestClient(TestServer(app))
    await client.start_server()
    return client


@pytest.mark.parametrize("stub", [False, True])
async def test_the_page_loads_telegrams_script_or_the_stand_in(stub):
    client = await _client(stub)
    try:
        html = await (await client.get("/webapp/")).text()
        assert (TELEGRAM_SCRIPT in html) is not stub and (STUB_SCRIPT in html) is stub
        stand_in = await client.get("/webapp/static/telegram-stub.js")
        assert stand_in.status == (200 if stub else 404)
        for name in ("app.js", "style.css"):
            r = await client.get(f"/webapp/static/{name}")
            assert r.status == 200 and len(await r.read()) > 100
        for bad in ("nothing.js", "..%2Fstatic_routes.py", ".hidden"):
            assert (await client.get(f"/webapp/static/{bad}")).status == 404
    finally:
        await client.close()


async def test_tile_faces_are_pngs_cached_for_long_and_unknown_faces_404():
    client = await _client(False)
    try:
        r = await client.get("/webapp/tiles/5s.png")
        assert r.status == 200 and r.content_type == "image/png" and "immutable" in r.headers["Cache-Control"]
        assert Image.open(io.BytesIO(await r.read())).width == 96
        assert (await client.get("/webapp/tiles/back-dim.png")).status == 200
        for bad in ("5x", "5s-glow", "05s"):
            assert (await client.get(f"/webapp/tiles/{bad}.png")).status == 404
    finally:
        await client.close()


async def test_words_come_from_the_catalogs_and_the_pictures_labels():
    client = await _client(False)
    try:
        zh = await (await client.get("/webapp/words/zh_CN.json?game=kaxinwu")).json()
        assert zh["labels"]["liangdao"] == "廊起" and zh["ui"] == page_words(translator("zh_CN"))
        en = await (await client.get("/webapp/words/en.json")).json()
        assert en["labels"]["wall"] == "Wall: {n}" and en["ui"]["reconnecting"] == "Reconnecting…"
        assert (await client.get("/webapp/words/en.json?game=chess")).status == 404
    finally:
        await client.close()


def test_every_page_word_is_translated_and_an_unknown_language_reads_chinese():
    zh, en = page_words(translator("zh_CN")), page_words(translator("en"))
    assert zh.keys() == en.keys() and all(zh[k] != en[k] for k in zh)
    assert words_json("fr")["lang"] == "zh_CN"


async def test_the_pictures_font_is_served_for_chinese_where_a_device_has_none():
    client = await _client(False)
    try:
        r = await client.get("/webapp/font.otf")
        assert r.status == 200 and (await r.read())[:4] == b"OTTO"
        css = await (await client.get("/webapp/static/style.css")).text()
        assert 'url("../font.otf")' in css and "unicode-range" in css
    finally:
        await client.close()


async def test_the_pictures_emoji_font_is_served_for_the_lock_where_a_device_has_none():
    """🔒 (a protected tile) is drawn from the pictures' emoji font on a device without an emoji font
    of its own; a device's colour emoji font comes first."""
    client = await _client(False)
    try:
        r = await client.get("/webapp/emoji.ttf")
        assert r.status == 200 and (await r.read())[:4] == b"\x00\x01\x00\x00"  # a TrueType font
        css = await (await client.get("/webapp/static/style.css")).text()
        assert 'url("../emoji.ttf")' in css and "U+1F000-1FAFF" in css  # 🔒 is U+1F512
        stack = css[css.index("font: 15px") :].split(";")[0]
        assert stack.index("Noto Color Emoji") < stack.index("KwxEmoji")
    finally:
        await client.close()
