"""The Mini App's static routes (docs/webapp.md): the page, its scripts and style, the tile faces
and the words the page draws; nothing here is private (no hidden tile, no user data), so none of it
asks for ``initData``.

* ``GET /webapp/`` — ``static/index.html``;
* ``GET /webapp/static/{name}`` — a file of ``static/`` (``telegram-stub.js`` only with ``stub``);
* ``GET /webapp/tiles/{face}.png`` — a tile face drawn by :mod:`render.faces` (``5s``, ``back``,
  ``9s-dim`` …), long-cached;
* ``GET /webapp/font.otf`` — the pictures' CJK font (:data:`render.text.FONT_PATH`), which the page
  names last in its fonts for Chinese (a browser fetches it only where no font of its own has hanzi);
* ``GET /webapp/emoji.ttf`` — the pictures' emoji font (:data:`render.text.EMOJI_PATH`), the page's
  font for 🔒 / 🔓 / 🤖 after the devices' own colour emoji fonts (a device without one still draws them);
* ``GET /webapp/words/{lang}.json?game=kaxinwu`` — ``{"labels": …, "ui": …}``: the pictures' labels of
  ``lang`` for the game (:func:`kwx_bot.words.pictures.picture_words`) and the page's own words
  (:func:`kwx_bot.words.webapp_text.page_words`).

With ``stub`` (the playground's and the tests' page) the page loads ``static/telegram-stub.js`` in
place of Telegram's ``telegram-web-app.js``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from aiohttp import web

from render.faces import FACE_WIDTH, parse_face_name, tile_face_png
from render.text import EMOJI_PATH, FONT_PATH

from ..settings import LANGUAGES, normalize_language
from ..words.i18n import translator
from ..words.pictures import picture_words
from ..words.webapp_text import page_words

__all__ = ["STATIC_DIR", "STUB_SCRIPT", "TELEGRAM_SCRIPT", "add_static_routes", "page_html", "words_json"]

STATIC_DIR = Path(__file__).resolve().parent / "static"
"""The page's files."""
TELEGRAM_SCRIPT = '<script src="https://telegram.org/js/telegram-web-app.js"></script>'
"""How ``index.html`` loads Telegram's Mini App script (production)."""
STUB_SCRIPT = '<script src="static/telegram-stub.js"></script>'
"""What the playground and the tests load in its place."""
STUB_FILE = "telegram-stub.js"
_TYPES = {".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".png": "image/png"}
_YEAR = "public, max-age=31536000, immutable"
_SHORT = "public, max-age=300"


def page_html(*, stub: bool = False) -> str:
    """``index.html``, with the stand-in Telegram script when ``stub``."""
    html = (STATIC_DIR / "index.html").read_text(encoding="utf-8")
    return html.replace(TELEGRAM_SCRIPT, STUB_SCRIPT) if stub else html


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name.rstrip("_"): _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def words_json(lang: str, game: str = "kawuxing") -> dict[str, Any]:
    """The words the page draws in ``lang`` (a catalog name, ``zh_CN`` or ``en``, or a Telegram
    ``language_code`` mapped as the bot maps it: :func:`kwx_bot.settings.normalize_language`) for
    ``game`` (a ruleset value): ``labels`` (every field of :class:`render.labels.Labels`, ``from_`` as
    ``from``) and ``ui`` (the page's own words)."""
    lang = lang if lang in LANGUAGES else normalize_language(lang)
    return {"lang": lang, "labels": _plain(picture_words(lang).labels(game)), "ui": page_words(translator(lang))}


def add_static_routes(app: web.Application, *, stub: bool = False) -> None:
    """Add the page's routes (module docstring) to ``app``; ``stub``: the playground's and the
    tests' page, with the stand-in Telegram script."""
    html = page_html(stub=stub)

    async def index(_request: web.Request) -> web.Response:
        return web.Response(text=html, content_type="text/html", headers={"Cache-Control": "no-cache"})

    async def static(request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        path = STATIC_DIR / name
        if "/" in name or name.startswith(".") or not path.is_file() or (name == STUB_FILE and not stub):
            raise web.HTTPNotFound()
        if name == "index.html":
            return await index(request)
        kind = _TYPES.get(path.suffix, "application/octet-stream")
        return web.Response(body=path.read_bytes(), content_type=kind, headers={"Cache-Control": "no-cache"})

    async def tile(request: web.Request) -> web.Response:
        try:
            face, state = parse_face_name(request.match_info["face"])
        except ValueError:
            raise web.HTTPNotFound() from None
        body = tile_face_png(face, FACE_WIDTH, state)
        return web.Response(body=body, content_type="image/png", headers={"Cache-Control": _YEAR})

    async def words(request: web.Request) -> web.Response:
        game = request.query.get("game", "kawuxing")
        if game not in ("kawuxing", "kaxinwu"):
            raise web.HTTPNotFound()
        body = words_json(request.match_info["lang"], game)
        return web.json_response(body, headers={"Cache-Control": _SHORT})

    async def font(_request: web.Request) -> web.FileResponse:
        return web.FileResponse(FONT_PATH, headers={"Cache-Control": _YEAR, "Content-Type": "font/otf"})

    async def emoji(_request: web.Request) -> web.FileResponse:
        return web.FileResponse(EMOJI_PATH, headers={"Cache-Control": _YEAR, "Content-Type": "font/ttf"})

    app.router.add_get("/webapp/", index)
    app.router.add_get("/webapp/font.otf", font)
    app.router.add_get("/webapp/emoji.ttf", emoji)
    app.router.add_get("/webapp/static/{name}", static)
    app.router.add_get("/webapp/tiles/{face}.png", tile)
    app.router.add_get("/webapp/words/{lang}.json", words)
