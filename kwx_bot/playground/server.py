"""The playground: the fake Bot API, the bot as a child process, and the page's JSON endpoints.

Every endpoint takes the viewing user (``user=<name>``, one of :data:`USERS` or :data:`STRANGERS`, in
any case: ``ann`` is Ann) and answers only about chats that user's Telegram client shows
(``FakeBotAPI.can_see``: their own private chat and the group, of which a stranger is no member);
asking for another user's private chat answers 403, so the page can never show it.  An unknown user
answers 400 with ``{"error", "unknown_user", "users", "lang"}``, which the page explains (in the
playground's language unless the address asks another).

Endpoints (all on 127.0.0.1)::

    GET  /                          the page (static/index.html); ?user=Ben&lang=zh_CN (zh, zh-CN …
                                    too), ?table=N opens that table's Mini App beside the chats
    GET  /fonts/cjk.otf, /fonts/emoji.ttf     the pictures' fonts, the page's fallback (:data:`FONTS`)
    GET  /api/state?user=U          {"me", "users", "strangers", "lang", "bot", "flood", "group",
                                     "chats": [chat...]}
    GET  /api/photo?user=U&chat=C&message=M   the photo's bytes (403 for a chat U cannot see)
    GET  /api/file?user=U&chat=C&message=M    a document's bytes as a download under its file name,
                                              or an animation's GIF to show inline
    POST /api/send    {"user", "chat", "text"}       U sends a message (commands get their entity)
    POST /api/press   {"user", "chat", "message", "data"}  U taps a callback button; waits for the
                                                     bot's answer: {"text", "alert", "opened"}; a
                                                     button of the message before its last edits
                                                     reaches the bot too (the page had not redrawn)
    POST /api/start   {"user", "payload"}            /start [payload] in U's private chat (Start
                                                     button, t.me/<bot>?start=... links)
    POST /api/lang    {"user", "lang"}               U's Telegram language_code (en / zh_CN)
    POST /api/flood   {"on": true|false}             429 on a share of the bot's writes (operator)
    POST /api/restart {}                             stop the bot (SIGTERM) and start it again
    GET  /api/webapp?user=U&table=N  {"url"}: the Mini App page for U at table N (:mod:`.miniapp`,
                                     which also serves /webapp/ and passes its API on to the bot);
                                     ``&replay=rT_H`` in place of ``table``: a hand's replay

A chat is ``{"id", "kind": "group"|"private", "title", "started", "messages": [...]}``; a message is
``{"id", "from", "bot", "mine", "html", "photo", "document", "animation", "buttons": [[{"text",
"data"|"url"}]], "edited"}`` with ``html`` built from the Bot API entities (offsets in UTF-16 code
units, docs/telegram.md §4); ``document`` is ``{"name", "bytes", "url"}`` (Telegram shows a file to
download, its name and size) and ``animation`` ``{"url", "size", "name"}`` (shown inline, playing).

Only the page itself may use the endpoints (docs/security.md §8): every request must name the
address the server bound (``Host: 127.0.0.1:<port>`` or ``localhost:<port>``: a DNS-rebinding page
names its own host), an ``Origin`` header, when sent, must be that address's origin, an ``/api/``
request a browser marks as coming from another site (``Sec-Fetch-Site: cross-site`` or
``same-site``) is refused — each 403 —, and a POST's body must be a JSON object sent as
``Content-Type: application/json`` (what no cross-site form or ``no-cors`` fetch can send without
asking first), with fields of the right types — else 400.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import importlib.util
import json
import os
import re
import secrets
import signal
import sys
import tempfile
import urllib.parse
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from aiohttp import web

from fakebot import FakeBotAPI, FakeBotServer, FakeChat, FakeMessage, FakeUser

from .miniapp import MiniApp, free_port

USERS = ("Ann", "Ben", "Cat", "Dan")
"""Preset users, all members of the one group; the page's user picker chooses among them."""
STRANGERS = ("Eve",)
"""Preset users who are not members of the group (selectable like the others): they can open the
bot's private chat, and the members-only rules refuse their joins (docs/security.md §1)."""
LANGS = {"en": "en", "zh_CN": "zh-hans"}
"""Page language -> the Telegram ``language_code`` the user's client sends."""
BOT_USERNAME = "kwx_playground_bot"
GROUP_TITLE = "Mahjong night"
FLOOD_SHARE = 0.3
"""Share of the bot's chat writes answered 429 while the operator's flood is on."""
FLOOD_RETRY_AFTER = 3
"""Seconds of ``retry_after`` in those 429s."""
MESSAGES_SHOWN = 80
"""Newest messages per chat sent to the page."""
STATIC = Path(__file__).resolve().parent / "static"
FONTS = {"cjk.otf": ("KwxSansCJK-Bold.otf", "font/otf"), "emoji.ttf": ("KwxEmoji-Bold.ttf", "font/ttf")}
"""The page's fallback fonts (``/fonts/<name>``): the CJK and emoji fonts that ship with the pictures
(``render/fonts/``), for a machine without its own (a bare Debian shows every 卡五星 and 🤖 as □);
the page's style sheet lists them after the system's fonts, so a system font still wins."""
_START_LINK = re.compile(r"^https?://t\.me/(?P<bot>[A-Za-z0-9_]+)\?start=(?P<payload>[A-Za-z0-9_-]{1,64})$")
_ID = re.compile(r"-?[0-9]{1,18}")
"""A chat or message id in a query string (ASCII digits only)."""
LOOPBACK_NAMES = ("127.0.0.1", "localhost")
"""The names of the address the page is served on (docs/security.md §8)."""
OTHER_SITES = frozenset({"cross-site", "same-site"})
"""``Sec-Fetch-Site`` values of a request that another page made (``same-site``: another port of
this machine)."""

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def _keyboard_data(markup: dict[str, Any] | None) -> set[str]:
    rows = (markup or {}).get("inline_keyboard") or []
    return {b["callback_data"] for row in rows for b in row if isinstance(b, dict) and "callback_data" in b}


def _on_message(message: FakeMessage, data: str) -> bool:
    """``data`` is a callback button of ``message`` as it is now."""
    return data in _keyboard_data(message.reply_markup)


def _once_on_message(message: FakeMessage, data: str) -> bool:
    """``data`` was a callback button of an earlier version of ``message`` (before an edit)."""
    return any(data in _keyboard_data(v.reply_markup) for v in message.history)


def make_token() -> str:
    """A new fake bot token of BotFather's shape ``<digits>:<35 url-safe chars>`` (the bot checks the
    shape; nothing but the fake ever sees it)."""
    return f"{secrets.randbelow(9 * 10**9) + 10**9}:{secrets.token_urlsafe(27)[:35]}"


TOKEN_SHAPE = re.compile(r"[1-9][0-9]{9}:[A-Za-z0-9_-]{35}")
"""What :func:`make_token` makes."""


def world_file(db: Path) -> Path:
    """``<db>.playground.json``: what the playground keeps of its fake Telegram beside the database
    (:func:`load_world`)."""
    return db.with_name(db.name + ".playground.json")


def load_world(db: Path) -> tuple[str, frozenset[str], bool]:
    """The fake Telegram of the database ``db``: its bot token, the preset users who had started
    the bot, and whether the database had a world before (False: a new token was made and saved).

    The token is kept (:func:`save_world`), so the bot keeps its id — a table belongs to the bot
    that opened it (docs/architecture.md §8) — and a playground restarted on the same file resumes
    its tables (README "Restarts"); the users who started the bot have, as in Telegram, still
    started it.  The messages are not kept: the bot sends them anew (``KWX_FORGET_MESSAGES``).  The
    token is a secret only against other users of this machine (it signs the Mini App's
    ``initData`` and opens the fake's Bot API, both on 127.0.0.1): the file is its owner's alone.
    A file that is missing or unreadable as such a world starts a new one.

    Raises:
        OSError: the file cannot be read or written (a read-only folder).
    """
    try:
        data = json.loads(world_file(db).read_text(encoding="utf-8"))
    except FileNotFoundError:
        data = None
    except ValueError:  # not JSON (or not UTF-8)
        data = None
    token = data.get("token") if isinstance(data, dict) else None
    if isinstance(token, str) and TOKEN_SHAPE.fullmatch(token):
        started = data.get("started") if isinstance(data, dict) else None
        names = frozenset(n for n in started if isinstance(n, str)) if isinstance(started, list) else frozenset()
        return token, names, True
    token = make_token()
    save_world(db, token, frozenset())
    return token, frozenset(), False


def save_world(db: Path, token: str, started: frozenset[str]) -> None:
    """Write :func:`world_file` (readable by its owner only; replaced whole, never half written).

    Raises:
        OSError: it cannot be written.
    """
    path = world_file(db)
    part = path.with_name(path.name + ".part")
    fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump({"token": token, "started": sorted(started)}, f)
    os.replace(part, path)


def entities_html(text: str, entities: tuple[dict[str, Any], ...] | list[dict[str, Any]]) -> str:
    """Escape ``text`` and wrap its Bot API ``entities`` (bold, italic, code, pre, ...) in HTML tags.

    Offsets and lengths count UTF-16 code units, as the Bot API does; unknown kinds are left plain.
    """
    tags = {
        "bold": ("<b>", "</b>"),
        "italic": ("<i>", "</i>"),
        "underline": ("<u>", "</u>"),
        "strikethrough": ("<s>", "</s>"),
        "spoiler": ('<span class="spoiler">', "</span>"),
        "code": ("<code>", "</code>"),
        "pre": ("<pre>", "</pre>"),
        "blockquote": ("<blockquote>", "</blockquote>"),
        "expandable_blockquote": ("<blockquote>", "</blockquote>"),
    }
    units = text.encode("utf-16-le")
    opens: dict[int, list[str]] = {}
    closes: dict[int, list[str]] = {}
    for entity in sorted(entities, key=lambda e: (e["offset"], -e["length"])):
        kind = entity["type"]
        if kind == "text_link":
            pair = (f'<a href="{html.escape(entity.get("url", ""))}" target="_blank" rel="noopener">', "</a>")
        elif kind in tags:
            pair = tags[kind]
        else:
            continue
        opens.setdefault(entity["offset"], []).append(pair[0])
        closes.setdefault(entity["offset"] + entity["length"], []).insert(0, pair[1])
    out: list[str] = []
    count = len(units) // 2
    for i in range(count + 1):
        out.extend(closes.get(i, []))
        out.extend(opens.get(i, []))
        if i < count:
            unit = units[2 * i : 2 * i + 2]
            code = int.from_bytes(unit, "little")
            if 0xD800 <= code < 0xDC00:  # the high half of a surrogate pair: emit with its low half
                continue
            if 0xDC00 <= code < 0xE000:
                out.append(html.escape(units[2 * i - 2 : 2 * i + 2].decode("utf-16-le")))
            else:
                out.append(html.escape(unit.decode("utf-16-le")))
    return "".join(out)


PLAYGROUND_TIMERS = {"KWX_DISCARD_SECONDS": "60", "KWX_CLAIM_SECONDS": "30", "KWX_BANK_SECONDS": "120"}
"""The playground's friendly table (docs/rules.md §E#33): someone trying kwx alone reads every
picture and button for the first time, so a move may take a minute (twice the production time) and
the bank is two minutes a hand (four in the first); the environment may set other values."""


class Playground:
    """The fake world, the bot process and the page (use :meth:`start` / :meth:`close`).

    Args:
        db: the bot's SQLite file; None = a throw-away file in a temporary directory.
        lang: ``en`` or ``zh_CN``: the users' Telegram language and the bot's default language.
        port: the page's port on 127.0.0.1 (0 = any free port).
    """

    def __init__(self, *, db: Path | None = None, lang: str = "en", port: int = 0) -> None:
        if lang not in LANGS:
            raise ValueError(f"lang must be one of {sorted(LANGS)}, got {lang!r}")
        self.lang = lang
        self.port = port
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        if db is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="kwx-playground-")
            db = Path(self._tmp.name) / "kwx.sqlite3"
        self.db = db
        token, started, self._forget = load_world(db)  # _forget: the db may hold tables this new fake never saw
        self.fake = FakeBotAPI(token=token, bot_username=BOT_USERNAME, bot_first_name="kwx")
        self.users = {
            n: self.fake.create_user(n, username=n.lower(), language_code=LANGS[lang], started=n in started)
            for n in (*USERS, *STRANGERS)
        }
        self.group = self.fake.create_group(GROUP_TITLE, members=[self.users[n] for n in USERS])
        self.flood = False
        self.bot_state = "stopped"
        self.server = FakeBotServer(self.fake)
        self._proc: asyncio.subprocess.Process | None = None
        self._runner: web.AppRunner | None = None
        self._restart_lock = asyncio.Lock()
        self.miniapp = MiniApp(self.fake.token, 0)
        """The Mini App: served at /webapp/, its API passed on to the bot's Mini App server."""

    @property
    def url(self) -> str:
        """The page's address, e.g. ``http://127.0.0.1:8765/``."""
        return f"http://127.0.0.1:{self.port}/"

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Serve the fake and the page, then start the bot (returns once it polls).

        Raises:
            RuntimeError: if the bot process exits instead of polling (its stderr tail attached).
            OSError: if the page's port is taken.
        """
        await self.server.start()
        app = web.Application(middlewares=[self._only_the_page, self._errors])
        app.router.add_get("/", self._index)
        app.router.add_static("/static/", STATIC)
        app.router.add_get("/fonts/{name}", self._font)
        app.router.add_get("/api/state", self._state)
        app.router.add_get("/api/photo", self._photo)
        app.router.add_get("/api/file", self._file)
        app.router.add_post("/api/send", self._send)
        app.router.add_post("/api/press", self._press)
        app.router.add_post("/api/start", self._start)
        app.router.add_post("/api/lang", self._lang)
        app.router.add_post("/api/flood", self._flood)
        app.router.add_post("/api/restart", self._restart)
        app.router.add_get("/api/webapp", self._webapp)
        self.miniapp.add_routes(app)
        runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", self.port)
        await site.start()
        self._runner = runner
        self.port = runner.addresses[0][1]
        self.miniapp.port = free_port()
        await self.start_bot()

    async def close(self) -> None:
        """Stop the page, the bot (SIGTERM, then kill after 10 s) and the fake; drop a throw-away db."""
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()
        await self.stop_bot()
        await self.server.close()
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    async def start_bot(self) -> None:
        """``python -m kwx_bot run`` against the fake; returns once it starts polling.

        Raises:
            RuntimeError: if the process exits first (with the tail of its stderr).
        """
        loopback = "127.0.0.1,localhost"
        env = dict(os.environ)
        env.update(
            TELEGRAM_BOT_TOKEN=self.fake.token, TELEGRAM_API_BASE_URL=self.server.url, KWX_DB_PATH=str(self.db),
            KWX_DEFAULT_LANGUAGE=self.lang, NO_PROXY=loopback, no_proxy=loopback,
            KWX_WEBAPP_URL=f"{self.url}webapp/", KWX_WEBAPP_LISTEN="127.0.0.1", KWX_WEBAPP_PORT=str(self.miniapp.port),
        )  # fmt: skip
        for key, value in PLAYGROUND_TIMERS.items():  # unless the environment sets them
            env.setdefault(key, value)
        env["KWX_FORGET_MESSAGES"] = "1" if self._forget else "0"
        self.fake.reopen()
        starts = self.fake.count_calls("deleteWebhook")  # run_polling's first call, once post_init is done
        self.bot_state = "starting"
        self._proc = proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "kwx_bot", "run", env=env, stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        assert proc.stderr is not None
        self._stderr_task = asyncio.ensure_future(self._relay(proc.stderr))
        await self.fake.wait_for(
            lambda: self.fake.count_calls("deleteWebhook") > starts or proc.returncode is not None, 60
        )
        if proc.returncode is not None:
            await self._stderr_task
            raise RuntimeError(f"the bot exited with status {proc.returncode}:\n{''.join(self._stderr_tail)}")
        self.bot_state = "running"
        self._forget = False  # the fake keeps what this bot sends from now on

    def bot_status(self) -> str:
        """``bot_state``, or ``"exited"`` when the bot process ended on its own (a crash, a
        ``kill -9``) while it was running."""
        proc = self._proc
        if self.bot_state == "running" and (proc is None or proc.returncode is not None):
            return "exited"
        return self.bot_state

    async def _relay(self, stream: asyncio.StreamReader) -> None:
        """Keep the bot's last stderr lines (for errors) and pass WARNING/ERROR lines on, with the
        whole traceback that follows one (its indented lines and the exception's line)."""
        self._stderr_tail: list[str] = []
        in_traceback = False
        while line := await stream.readline():
            text = line.decode(errors="replace")
            self._stderr_tail = [*self._stderr_tail[-30:], text]
            shown = in_traceback or " WARNING " in text or " ERROR " in text or "Traceback" in text
            if shown:
                print(f"bot: {text}", end="", file=sys.stderr)
            if "Traceback" in text:
                in_traceback = True
            elif in_traceback and not text.startswith((" ", "\t")):
                in_traceback = False  # the exception's own line ends it

    async def stop_bot(self) -> None:
        """SIGTERM the bot and wait (kill after 10 s); nothing if it is not running."""
        proc, self._proc = self._proc, None
        self.bot_state = "stopped"
        if proc is None or proc.returncode is not None:
            return
        proc.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(proc.wait(), 10)
        except TimeoutError:
            proc.kill()
            await proc.wait()
        with contextlib.suppress(Exception):
            await self._stderr_task

    # ------------------------------------------------------------------ helpers

    def _user(self, name: Any) -> FakeUser:
        user = self._preset(name)
        if user is None:
            raise _unknown_user(name, self.lang)
        return user

    def _preset(self, name: Any) -> FakeUser | None:
        """The preset user called ``name``: exactly, else the one whose name matches ignoring case
        (``ann`` is Ann); None for any other name."""
        text = str(name)
        if text in self.users:
            return self.users[text]
        return next((u for n, u in self.users.items() if n.casefold() == text.casefold()), None)

    def _chat(self, user: FakeUser, chat_id: Any) -> FakeChat:
        try:
            chat = self.fake.chat(_id(chat_id, "chat"))
        except LookupError:
            raise web.HTTPNotFound(text="no such chat") from None
        if not self.fake.can_see(user, chat):
            raise web.HTTPForbidden(text=f"{user.first_name} cannot see this chat")
        return chat

    def _message_json(self, user: FakeUser, message: FakeMessage) -> dict[str, Any]:
        text = message.text if message.text is not None else message.caption or ""
        entities = message.entities if message.text is not None else message.caption_entities
        if message.chat.is_private and not message.from_bot and text.startswith("/start "):
            text, entities = "/start", ()  # Telegram shows a deep link's /start without its payload
        photo = None
        if message.photo is not None:
            photo = (
                f"/api/photo?user={user.first_name}&chat={message.chat.id}&message={message.message_id}"
                f"&v={message.photo.file_unique_id}"
            )
        buttons = [[{"text": b.text, **_button_json(b)} for b in row] for row in message.buttons]
        return {
            "id": message.message_id,
            "from": message.from_user.first_name,
            "bot": message.from_bot,
            "mine": message.from_user is user,
            "html": entities_html(text, entities),
            "photo": photo,
            "size": list(message.photo_size) if message.photo_size else None,
            **self._file_json(user, message),
            "buttons": buttons,
            "edited": message.edit_count,
        }

    @staticmethod
    def _file_json(user: FakeUser, message: FakeMessage) -> dict[str, Any]:
        """A message's file as Telegram shows it: ``animation`` (sendAnimation: the GIF inline, with
        its size in pixels) or ``document`` (a file to download: its name and bytes); both None
        for a message without a file."""
        doc = message.document
        if doc is None:
            return {"document": None, "animation": None}
        url = f"/api/file?user={user.first_name}&chat={message.chat.id}&message={message.message_id}"
        url += f"&v={doc.file_unique_id}"
        name = doc.filename or "file"
        if doc.animation:
            size = [doc.width, doc.height] if doc.width and doc.height else None
            return {"document": None, "animation": {"url": url, "size": size, "name": name}}
        return {"document": {"url": url, "name": name, "bytes": doc.size}, "animation": None}

    def _chat_json(self, user: FakeUser, chat: FakeChat) -> dict[str, Any]:
        messages = [m for m in self.fake.messages(chat) if not m.service][-MESSAGES_SHOWN:]
        return {
            "id": chat.id,
            "kind": "private" if chat.is_private else "group",
            "title": chat.title or self.fake.bot.first_name,
            "started": user.started if chat.is_private else True,
            "messages": [self._message_json(user, m) for m in messages],
        }

    def _open_start_link(self, user: FakeUser, url: str | None) -> bool:
        """What Telegram does with a ``t.me/<bot>?start=<payload>`` link: /start payload in private."""
        found = _START_LINK.match(url or "")
        if found is None or found["bot"].lower() != BOT_USERNAME:
            return False
        self._starts(user, found["payload"])
        return True

    def _starts(self, user: FakeUser, payload: str | None) -> None:
        """``user`` presses Start (``/start [payload]``); the world file remembers it
        (:func:`save_world`), as Telegram does across a restart."""
        self.fake.start_bot(user, payload)
        started = frozenset(n for n, u in self.users.items() if u.started)
        save_world(self.db, self.fake.token, started)

    # ------------------------------------------------------------------ endpoints

    @web.middleware
    async def _errors(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            return await handler(request)
        except (ValueError, LookupError) as e:  # the fake refused a user's action, as a client would
            return web.json_response({"error": str(e)}, status=400)

    @web.middleware
    async def _only_the_page(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """403 unless the request names the bound address (``Host``), comes from its origin
        (``Origin``, when sent) and, for ``/api/``, was not made by another site's page; then 400
        for a POST that does not send JSON (module docstring)."""
        own = {f"{name}:{self.port}" for name in LOOPBACK_NAMES}
        if self.port == 80:
            own.update(LOOPBACK_NAMES)
        if request.host.lower() not in own:
            return web.json_response({"error": "this server answers only at its own address"}, status=403)
        origin = request.headers.get("Origin")
        if origin is not None and origin.lower() not in {f"http://{h}" for h in own}:
            return web.json_response({"error": "requests from other sites are refused"}, status=403)
        if request.path.startswith("/api/") and request.headers.get("Sec-Fetch-Site", "").lower() in OTHER_SITES:
            return web.json_response({"error": "requests from other sites are refused"}, status=403)
        if request.method == "POST" and request.content_type != "application/json":
            return web.json_response({"error": "send a JSON object (Content-Type: application/json)"}, status=400)
        return await handler(request)

    async def _index(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})

    async def _webapp(self, request: web.Request) -> web.Response:
        query = request.query
        return self.miniapp.api(self._user(query.get("user")), query.get("table"), query.get("replay"))

    async def _font(self, request: web.Request) -> web.StreamResponse:
        """One of :data:`FONTS`, read from the pictures' font folder (found without importing
        ``render``: the playground reaches the bot only through the fake); 404 for any other name."""
        found = FONTS.get(request.match_info["name"])
        spec = importlib.util.find_spec("render")
        if found is None or spec is None or not spec.submodule_search_locations:
            raise web.HTTPNotFound(text="no such font")
        path = Path(next(iter(spec.submodule_search_locations))) / "fonts" / found[0]
        return web.FileResponse(path, headers={"Content-Type": found[1], "Cache-Control": "max-age=86400"})

    async def _state(self, request: web.Request) -> web.Response:
        user = self._user(request.query.get("user", USERS[0]))
        chats = [self._chat_json(user, c) for c in self.fake.visible_chats(user)]
        lang = next((k for k, v in LANGS.items() if v == user.language_code), self.lang)
        return web.json_response(
            {"me": user.first_name, "users": [*USERS, *STRANGERS], "strangers": list(STRANGERS), "lang": lang,
             "bot": self.bot_status(), "flood": self.flood, "bot_name": self.fake.bot.first_name,
             "group": self.group.title, "chats": chats},
            headers={"Cache-Control": "no-store"},
        )  # fmt: skip

    async def _photo(self, request: web.Request) -> web.Response:
        user = self._user(request.query.get("user"))
        chat = self._chat(user, request.query.get("chat"))
        message = chat.messages.get(_id(request.query.get("message", "0"), "message"))
        if message is None or message.deleted or message.photo is None:
            raise web.HTTPNotFound(text="no such photo")
        kind = message.photo.image_format or "jpeg"
        return web.Response(body=message.photo.data, content_type=f"image/{kind.lower()}")

    async def _file(self, request: web.Request) -> web.Response:
        """A message's document (a download under its file name) or animation (a GIF shown inline)."""
        user = self._user(request.query.get("user"))
        chat = self._chat(user, request.query.get("chat"))
        message = chat.messages.get(_id(request.query.get("message", "0"), "message"))
        doc = None if message is None or message.deleted else message.document
        if doc is None:
            raise web.HTTPNotFound(text="no such file")
        if doc.animation:
            return web.Response(body=doc.data, content_type="image/gif" if doc.image_format == "GIF" else "video/mp4")
        name = doc.filename or "file"
        ascii_name = re.sub(r"[^A-Za-z0-9._-]", "_", name)
        disposition = f"attachment; filename=\"{ascii_name}\"; filename*=UTF-8''{urllib.parse.quote(name)}"
        return web.Response(
            body=doc.data, content_type=doc.mime_type or "application/octet-stream",
            headers={"Content-Disposition": disposition},
        )  # fmt: skip

    async def _send(self, request: web.Request) -> web.Response:
        body = await _body(request)
        user = self._user(body.get("user"))
        chat = self._chat(user, body.get("chat"))
        text = str(body.get("text", "")).strip()
        if not text:
            raise web.HTTPBadRequest(text="empty message")
        if chat.is_private and (text == "/start" or text.startswith("/start ")):
            self._starts(user, text.partition(" ")[2].strip() or None)
        else:
            self.fake.user_sends(user, chat, text[:4096])
        return web.json_response({"ok": True})

    async def _press(self, request: web.Request) -> web.Response:
        body = await _body(request)
        user = self._user(body.get("user"))
        chat = self._chat(user, body.get("chat"))
        message = chat.messages.get(_id(body.get("message", 0), "message"))
        if message is None:
            raise web.HTTPNotFound(text="no such message")
        data = str(body.get("data"))
        if not _on_message(message, data) and _once_on_message(message, data):
            # the page still showed the keyboard the bot has just replaced: Telegram delivers such a
            # press, and the bot answers it ("This button is outdated …")
            query = self.fake.forge_press(user, message, data)
        else:
            query = self.fake.press(user, message, data=data)
        with contextlib.suppress(AssertionError):  # WaitTimeout: the bot is down or busy; the spinner stops
            await self.fake.wait_for_answer(query, timeout=8)
        answer = query.answer
        if answer is None:
            return web.json_response({"text": None, "alert": False, "opened": False})
        opened = self._open_start_link(user, answer.url)
        return web.json_response({"text": answer.text, "alert": answer.show_alert, "opened": opened})

    async def _start(self, request: web.Request) -> web.Response:
        body = await _body(request)
        user = self._user(body.get("user"))
        payload = body.get("payload")
        if user.blocked:
            self.fake.unblock_bot(user)
        self._starts(user, str(payload) if payload else None)
        return web.json_response({"ok": True})

    async def _lang(self, request: web.Request) -> web.Response:
        body = await _body(request)
        user = self._user(body.get("user"))
        lang = str(body.get("lang"))
        if lang not in LANGS:
            raise web.HTTPBadRequest(text=f"lang must be one of {sorted(LANGS)}")
        user.language_code = LANGS[lang]
        return web.json_response({"ok": True})

    async def _flood(self, request: web.Request) -> web.Response:
        body = await _body(request)
        self.flood = bool(body.get("on"))
        self.fake.faults.clear()
        if self.flood:
            self.fake.faults.random_floods(FLOOD_SHARE, retry_after=FLOOD_RETRY_AFTER)
        return web.json_response({"flood": self.flood})

    async def _restart(self, request: web.Request) -> web.Response:
        async with self._restart_lock:
            self.bot_state = "restarting"
            await self.stop_bot()
            self.bot_state = "restarting"
            await self.start_bot()
        return web.json_response({"bot": self.bot_state})


def _button_json(button: Any) -> dict[str, Any]:
    """What the page needs of an inline button: its ``data``, ``url`` or ``web_app`` (the Mini
    App's address)."""
    if button.callback_data:
        return {"data": button.callback_data}
    web_app = button.raw.get("web_app")
    if isinstance(web_app, dict) and isinstance(web_app.get("url"), str):
        return {"web_app": web_app["url"]}
    return {"url": button.url}


async def _body(request: web.Request) -> dict[str, Any]:
    """The POST's JSON object; 400 for invalid JSON or JSON that is not an object."""
    try:
        body = await request.json()
    except ValueError:
        raise web.HTTPBadRequest(text="the body is not valid JSON") from None
    if not isinstance(body, dict):
        raise web.HTTPBadRequest(text="the body must be a JSON object")
    return body


def _id(value: Any, what: str) -> int:
    """A chat or message id: a JSON integer, or ASCII digits in a query string; 400 otherwise."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and _ID.fullmatch(value):
        return int(value)
    raise web.HTTPBadRequest(text=f"{what} must be a whole number")


def _unknown_user(name: Any, lang: str) -> web.HTTPBadRequest:
    """400 for a ``user`` that is no preset user, with what the page needs to explain it: the name
    asked for, the users there are and the playground's language (the page's, unless it asks another)."""
    users = [*USERS, *STRANGERS]
    body = {
        "error": f"unknown user {str(name)!r}; one of {', '.join(users)}",
        "unknown_user": str(name),
        "users": users,
        "lang": lang,
    }
    return web.HTTPBadRequest(text=json.dumps(body), content_type="application/json")


async def _serve(playground: Playground) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        await playground.start()
        print(f"kwx playground: {playground.url}  (Ctrl-C stops it)", flush=True)
        await stop.wait()
    finally:
        await playground.close()


def run_playground(*, port: int = 0, db: Path | None = None, lang: str = "en") -> int:
    """``kwx-bot playground``: serve until Ctrl-C / SIGTERM; prints the page's address, opens
    nothing. Returns the exit status (1 if the bot could not start)."""
    try:
        playground = Playground(db=db, lang=lang, port=port)
    except OSError as e:  # the world file beside the database
        print(f"kwx-bot playground: cannot keep {e.filename or 'the world file'} ({e.strerror or e})", file=sys.stderr)
        return 1
    try:
        asyncio.run(_serve(playground))
    except RuntimeError as e:
        print(f"kwx-bot playground: {e}", file=sys.stderr)
        return 1
    except OSError as e:  # the page's port is taken
        reason = os.strerror(e.errno) if e.errno else str(e)
        print(f"kwx-bot playground: cannot serve on 127.0.0.1:{port} ({reason}); try --port 0", file=sys.stderr)
        return 1
    return 0
