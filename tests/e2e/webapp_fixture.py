"""A tiny stand-in for the Mini App's server, for the page's tests: the page's static routes (with the
stand-in Telegram script) and the API of the contract (docs/webapp.md) over ONE table played by the
engine, whose screens are the service's own screen values (``SeatScreen`` / ``TableScreen`` /
``ResultAnnouncement`` ``to_json()``), and its finished hand's replay (``HandReplay``, §9).  The
other seats play by the engine's AI at once.

It checks only that a request carries ``Authorization: tma …`` (the real server checks the
signature); the user ``spectator`` gets the table's public view.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from typing import Any

from aiohttp import web

from engine.game import Action, ActionKind, Event, replay, start
from engine.rules import RuleSet, Ruleset
from engine.tiles import parse_tiles
from kwx_bot.playground.miniapp import BOT_DOWN
from kwx_bot.service import game, reveal
from kwx_bot.service.buttons import Button, Op
from kwx_bot.service.play import menu_after
from kwx_bot.service.records import HandReplay, replay_lines, replay_param
from kwx_bot.service.screen import (
    GroupFacts,
    Menu,
    Player,
    ResultFacts,
    SeatFacts,
    TableFacts,
    Ui,
    result_announcement,
    seat_screen,
    table_screen,
)
from kwx_bot.webapp.static_routes import add_static_routes
from kwx_bot.words.i18n import translator

NAMES = ("Ann", "Ben", "Cat")
_KIND = {Op.DISCARD: ActionKind.DISCARD, Op.LIANGDAO: ActionKind.LIANGDAO, Op.WIN: ActionKind.WIN,
         Op.PONG: ActionKind.PONG, Op.KONG: ActionKind.KONG, Op.CONCEALED_KONG: ActionKind.CONCEALED_KONG,
         Op.ADDED_KONG: ActionKind.ADDED_KONG, Op.PASS: ActionKind.PASS}  # fmt: skip


def kaxinwu_deal() -> list[Event]:
    """卡心五 at 3 seats: seat 0 (dealer) can 廊起 with 9条 and choose the tiles it shows."""
    rules = RuleSet.from_json({"preset": "kaxinwu", "players": 3})
    hands = ["123p456p789p22s68s9s", "111p333p777s999s1s", "333s444s888p5s6s7s1s"]
    pool = list((*parse_tiles("123456789p" * 4), *parse_tiles("123456789s" * 4)))
    for h in hands:
        for t in parse_tiles(h):
            pool.remove(t)
    random.Random(1).shuffle(pool)
    return start(rules, 0, hands=[parse_tiles(h) for h in hands], wall=pool)


def pair_win_deal() -> list[Event]:
    """卡五星 at 3 seats, seat 1 (an AI) the dealer: he discards 8筒 at once (his hand waits on 6z / 7z
    without it), and seat 0 (the page's user, ``111p444p222s55s88p``) may win on it (碰碰胡): a
    discard win on a tile the winner already holds (the win's 13 tiles keep both his 8筒)."""
    hands = ["111p444p222s55s88p", "123s456s789s66z77z8p", "999p555z999s777s5s"]
    pool = [*parse_tiles("123456789p" * 4), *parse_tiles("123456789s" * 4), *parse_tiles("567z" * 4)]
    for h in hands:
        for t in parse_tiles(h):
            pool.remove(t)
    random.Random(1).shuffle(pool)
    return start(RuleSet(), 1, hands=[parse_tiles(h) for h in hands], wall=pool)


class FixtureTable:
    """Table 7: seat 0 is the page's user (``lang``), seats 1 and 2 the AI."""

    def __init__(
        self,
        lang: str = "en",
        *,
        kaxinwu: bool = False,
        seed: str = "web1",
        dealt: Callable[[], list[Event]] | None = None,
    ) -> None:
        """``dealt``: the events of each hand's deal (default: 卡心五's :func:`kaxinwu_deal` with
        ``kaxinwu``, else a 卡五星 deal of ``seed`` and the hand's number, seat 0 dealing)."""
        self.lang, self.kaxinwu, self.seed, self.dealt = lang, kaxinwu, seed, dealt
        self.hand_no = 0
        self.presses: list[dict[str, Any]] = []
        self.changed = asyncio.Event()
        self.down = False
        """True: a press is answered as the playground's proxy answers while the bot restarts."""
        self.deal()

    def deal(self) -> None:
        self.hand_no += 1
        seed = f"{self.seed}{self.hand_no}"
        if self.dealt is not None:
            self.events = self.dealt()
        else:
            self.events = kaxinwu_deal() if self.kaxinwu else start(RuleSet(), 0, seed=seed)
        self.state = replay(self.events)
        self.menu = Menu()
        self.closed = False
        self.others_play()

    @property
    def ruleset(self) -> Ruleset:
        return Ruleset.KAXINWU if self.kaxinwu else Ruleset.KAWUXING

    @property
    def seq(self) -> int:
        return game.seq_of(self.state)

    def others_play(self) -> None:
        while not game.is_over(self.state):
            others = [s for s in game.to_act(self.state) if s != 0]
            if not others or (0 in game.to_act(self.state) and self.state.window is None):
                return
            s = others[0]
            act = game.choose_action(game.view_for(self.state, s), game.legal(self.state, s), rng=random.Random(s))
            self.apply(act)

    def apply(self, action: Action) -> None:
        """Play ``action``, its events kept (the hand's replay is made of them)."""
        self.state, events = game.apply(self.state, action)
        self.events.extend(events)

    def payload(self, user: str) -> dict[str, Any]:
        spectator = user == "spectator"
        out: dict[str, Any] = {
            "table": 7, "seq": self.seq, "role": "spectator" if spectator else "seat",
            "seat": None if spectator else 0, "lang": "zh" if self.lang == "zh_CN" else "en",
        }  # fmt: skip
        tr = translator(self.lang)
        view = game.group_view(self.state)
        if spectator:
            facts = GroupFacts(
                7, self.seq, self.hand_no, self.ruleset, 3, view, NAMES, self.lang, (0, 0, 0), title="Fixture"
            )
            out["screen"] = table_screen(tr, facts).to_json()
        else:
            out["screen"] = self.seat_screen(tr).to_json()
        result = game.hand_result(self.state)
        if result is not None:
            facts2 = ResultFacts(7, self.seq, self.hand_no, self.ruleset, None, view, NAMES,
                                 game.all_hands(self.state), result.deltas, ())  # fmt: skip
            out["result"] = result_announcement(tr, facts2).to_json()
            out["replay"] = replay_param(7, self.hand_no)
            if self.closed or spectator:
                out["result"]["buttons"] = []
        return out

    def seat_screen(self, tr):
        state, menu = self.state, self.menu.at(self.seq)
        result = game.hand_result(state)
        choice, kept = None, ()
        if menu.mode is Ui.REVEAL and menu.tile is not None:
            kept = game.held_after(state, 0, menu.tile)
            choice = game.check_reveal(state, 0, menu.tile, reveal.shown_tiles(kept, menu.mask))
        legal = () if result is not None else tuple(game.legal(state, 0))
        facts = SeatFacts(game.seat_view(state, 0), legal, game.protected(state, 0),
                          None if result is None else result.deltas[0], choice, kept)  # fmt: skip
        table = TableFacts(7, self.seq, self.hand_no, "Fixture", self.ruleset, NAMES, NAMES)
        return seat_screen(tr, table, facts, Player(self.lang, menu=menu))

    def press(self, data: dict[str, Any]) -> tuple[bool, str]:
        self.presses.append(data)
        if data.get("type") != "table" or data.get("table") != 7:
            return False, "bad"
        if data.get("seq") != self.seq:
            return False, "This button is out of date."
        op = Op(data["op"])
        button = Button(7, data["seq"], op, _tile(data.get("tile")),
                        data.get("shown"))  # fmt: skip
        if op is Op.NEXT_HAND:
            self.deal()
        elif op is Op.CLOSE:
            self.closed = True
        elif op in (Op.LIANGDAO_MENU, Op.LIANGDAO_PICK, Op.BACK, Op.REVEAL):
            choice = None
            if op is Op.REVEAL and button.tile is not None and button.shown is not None:
                kept = game.held_after(self.state, 0, button.tile)
                choice = game.check_reveal(self.state, 0, button.tile, reveal.shown_tiles(kept, button.shown))
            self.menu = menu_after(self.state, 0, button, choice, self.seq)
        elif op in _KIND:
            action = self.action(button)
            if action is None:
                return False, "Not now."
            self.apply(action)
            self.menu = Menu()
            self.others_play()
        else:
            return True, "🔒"
        self.changed.set()
        self.changed = asyncio.Event()
        return True, ""

    def action(self, button: Button) -> Action | None:
        kind = _KIND[button.op]
        if kind is ActionKind.LIANGDAO and button.shown is not None and button.tile is not None:
            kept = game.held_after(self.state, 0, button.tile)
            choice = game.check_reveal(self.state, 0, button.tile, reveal.shown_tiles(kept, button.shown))
            return choice.action(0) if choice.legal else None
        for a in game.legal(self.state, 0):
            if a.kind is kind and (button.tile is None or a.tile == button.tile) and a.reveal is None:
                return a
        return None


def _tile(text: str | None):
    return None if text is None else parse_tiles(text)[0]


def _user(request: web.Request) -> str:
    auth = request.headers.get("Authorization", "")
    if not auth.startswith("tma "):
        raise web.HTTPUnauthorized(text=json.dumps({"error": "no initData"}), content_type="application/json")
    for part in auth[4:].split("&"):
        key, _sep, value = part.partition("=")
        if key == "kwx_user":
            return value
    return "ann"


def fixture_app(table: FixtureTable) -> web.Application:
    """The fixture server's application (module docstring)."""
    app = web.Application()
    add_static_routes(app, stub=True)

    async def get_table(request: web.Request) -> web.Response:
        if request.match_info["table_id"] != "7":  # the one table; any other is not open
            raise web.HTTPNotFound()
        return web.json_response(table.payload(_user(request)))

    async def events(request: web.Request) -> web.StreamResponse:
        user = _user(request)
        resp = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"})
        await resp.prepare(request)
        while True:
            body = table.payload(user)
            await resp.write(f"id: {body['seq']}\nevent: screen\ndata: {json.dumps(body)}\n\n".encode())
            try:
                await asyncio.wait_for(table.changed.wait(), 15)
            except TimeoutError:
                await resp.write(b": ping\n\n")

    async def press(request: web.Request) -> web.Response:
        if table.down:  # the bot restarting behind the playground's proxy: its answer
            return web.json_response(BOT_DOWN, status=502)
        user = _user(request)
        body = await request.json()
        ok, text = table.press(body["data"]) if user != "spectator" else (False, "no")
        # the answer's screen: the whole payload, as the bot's server answers
        return web.json_response({"ok": ok, "text": text, "screen": table.payload(user)})

    async def get_replay(request: web.Request) -> web.Response:
        _user(request)
        if request.match_info["hand"] != str(table.hand_no) or not game.is_over(table.state):
            raise web.HTTPNotFound()
        moments = game.hand_open_moments([game.event_json(e) for e in table.events])
        said = replay_lines(translator(table.lang), moments, NAMES, table.ruleset)
        hand = HandReplay(7, table.hand_no, table.ruleset, table.lang, NAMES, tuple(moments), said)
        return web.json_response(hand.to_json())

    app.router.add_get("/webapp/api/table/{table_id}", get_table)
    app.router.add_get("/webapp/api/replay/{table_id}/{hand}", get_replay)
    app.router.add_get("/webapp/api/table/{table_id}/events", events)
    app.router.add_post("/webapp/api/table/{table_id}/press", press)
    return app


class FixtureServer:
    """:func:`fixture_app` served on 127.0.0.1 from a thread of its own (for a browser test)."""

    def __init__(self, table: FixtureTable) -> None:
        self.table = table
        self.loop = asyncio.new_event_loop()
        self.port = 0
        self._runner: web.AppRunner | None = None
        self._thread: Any = None

    def start(self) -> str:
        import threading

        ready = threading.Event()

        async def up() -> None:
            self.table.changed = asyncio.Event()
            self._runner = web.AppRunner(fixture_app(self.table), shutdown_timeout=0.2)
            await self._runner.setup()
            site = web.TCPSite(self._runner, "127.0.0.1", self.port)
            await site.start()
            self.port = self._runner.addresses[0][1]
            ready.set()

        def run() -> None:
            asyncio.set_event_loop(self.loop)
            self.loop.run_until_complete(up())
            self.loop.run_forever()

        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()
        ready.wait(10)
        return f"http://127.0.0.1:{self.port}/webapp/"

    def call(self, fn: Any) -> Any:
        """Run ``fn()`` in the server's loop (the table is the loop's)."""
        return asyncio.run_coroutine_threadsafe(_call(fn), self.loop).result(10)

    def stop(self) -> None:
        """Stop serving (open streams are cut); a second call does nothing."""
        if self._runner is None:
            return
        asyncio.run_coroutine_threadsafe(self._runner.cleanup(), self.loop).result(10)
        self._runner = None
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)


async def _call(fn: Any) -> Any:
    return fn()


def page_url(base: str, user: str = "ann", lang: str = "en", table: int = 7) -> str:
    """The page's address as Telegram opens it, with a (fixture-only, unsigned) ``initData`` for
    ``user`` whose Telegram language is ``lang``."""
    from urllib.parse import quote, urlencode

    user_json = json.dumps({"id": 1, "first_name": user.title(), "language_code": lang})
    init = urlencode({"kwx_user": user, "user": user_json, "auth_date": "1", "hash": "0"})
    return f"{base}?table={table}#tgWebAppData={quote(init)}"
