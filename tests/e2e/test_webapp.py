"""The Mini App end to end: the real bot (PTB against the fake Bot API) with its Mini App server,
driven over HTTP with initData signed as Telegram signs it (docs/architecture.md §4 "The Mini
App", docs/security.md §9).  Every web message — GET answers, server-sent events, press answers —
goes through the hidden-tile leak check (tests/e2e/leaks.py)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import pytest

from fakebot import MESSAGE_WRITE_METHODS, FakeUser
from kwx_bot.edge.codec import decode
from kwx_bot.service import group_table
from kwx_bot.webapp.auth import sign_init_data

from .harness import Kwx
from .leaks import web_leaks

URL = "https://kwx.example/webapp/"
HOST = "kwx.example"
MOVES = {"d", "w", "p", "k", "c", "b", "x"}
"""The ops of a move (no menu step)."""


def init_data(user: FakeUser, token: str, *, age: float = 5, claims: FakeUser | None = None) -> str:
    """``user``'s initData signed with ``token``; ``claims``: the user field says this other user
    (the signature stays ``user``'s: a forgery)."""

    def fields(u: FakeUser) -> dict[str, str]:
        who = {"id": u.id, "first_name": u.first_name, "language_code": "en"}
        return {"auth_date": str(int(time.time() - age)), "user": json.dumps(who)}

    signed = sign_init_data(fields(user), token)
    if claims is None:
        return signed
    from urllib.parse import parse_qsl, urlencode

    parts = dict(parse_qsl(signed))
    parts["user"] = fields(claims)["user"]
    return urlencode(parts)


@dataclass
class Stream:
    """An open events stream, read in the background."""

    response: aiohttp.ClientResponse
    events: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    arrived: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None
    read: int = 0

    async def pump(self) -> None:
        with contextlib.suppress(aiohttp.ClientError):  # the server went away (a restart)
            await self._pump()

    async def _pump(self) -> None:
        lines: list[str] = []
        async for raw in self.response.content:
            line = raw.decode().rstrip("\n")
            if line:
                lines.append(line)
                continue
            fields = dict(x.split(": ", 1) for x in lines if not x.startswith(":") and ": " in x)
            lines = []
            if "event" in fields:
                self.events.append((fields["event"], json.loads(fields["data"])))
                self.arrived.set()

    async def next(self, timeout: float = 10) -> dict[str, Any]:
        """The next event's data (waiting for it)."""
        deadline = asyncio.get_running_loop().time() + timeout
        while self.read >= len(self.events):
            self.arrived.clear()
            left = deadline - asyncio.get_running_loop().time()
            assert left > 0, "no event came"
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.arrived.wait(), left)
        self.read += 1
        return self.events[self.read - 1][1]

    def latest(self) -> dict[str, Any]:
        self.read = len(self.events)
        return self.events[-1][1]


@dataclass
class Page:
    """The Mini App's API as the page uses it, for any user."""

    kwx: Kwx
    session: aiohttp.ClientSession
    base: str
    checked: int = 0
    """Web messages put through the leak check."""

    def headers(self, user: FakeUser, **kw: Any) -> dict[str, str]:
        return {"Host": HOST, "Authorization": f"tma {init_data(user, self.kwx.fake.token, **kw)}"}

    async def check(self, message: dict[str, Any]) -> None:
        """The leak check, against the hand's events up to the message's seq."""
        live = self.kwx.service.tables.cached()[0]
        events = []
        if live.hand is not None:
            inner = message.get("screen") if "role" not in message else message
            seq = inner["seq"] if isinstance(inner, dict) else 10**9
            rows = await self.kwx.service.store.hand_events(live.hand.hand_id)
            events = [e.data for e in rows if e.seq <= seq]
        assert web_leaks(message, events) == [], message
        self.checked += 1

    async def get(self, user: FakeUser, table: int, **kw: Any) -> tuple[int, Any]:
        async with self.session.get(f"{self.base}/webapp/api/table/{table}", headers=self.headers(user, **kw)) as r:
            body = await r.json()
        if r.status == 200:
            await self.check(body)
        return r.status, body

    async def press(self, user: FakeUser, table: int, data: dict[str, Any]) -> dict[str, Any]:
        async with self.session.post(
            f"{self.base}/webapp/api/table/{table}/press", json={"data": data}, headers=self.headers(user)
        ) as r:
            assert r.status == 200, await r.text()
            body = await r.json()
        await self.check(body)
        return dict(body)

    async def open(self, user: FakeUser, table: int) -> Stream:
        response = await self.session.get(
            f"{self.base}/webapp/api/table/{table}/events", headers=self.headers(user),
            timeout=aiohttp.ClientTimeout(total=None, sock_read=None),
        )  # fmt: skip
        assert response.status == 200, await response.text()
        stream = Stream(response)
        stream.task = asyncio.get_running_loop().create_task(stream.pump())
        return stream


@pytest.fixture
async def page(kwx: Kwx, unused_tcp_port: int) -> AsyncIterator[Page]:
    kwx.webapp_url, kwx.webapp_port = URL, unused_tcp_port
    async with aiohttp.ClientSession() as session:
        yield Page(kwx, session, f"http://127.0.0.1:{unused_tcp_port}")


async def seat_three(kwx: Kwx, seed: str) -> tuple[list[FakeUser], FakeUser, FakeUser, Any]:
    """Ann, Ben and Cat at a table dealt from ``seed`` (the bot running); Dan a member of the group
    who does not play, Eve a stranger."""
    ann, ben, cat, dan, eve = kwx.players("Ann", "Ben", "Cat", "Dan", "Eve")
    group = kwx.group([ann, ben, cat, dan])
    await kwx.start_bot(ann, ben, cat)
    kwx.fake.user_command(ann, group, "new")
    await kwx.settle()
    lobby = kwx.fake.last_message(group)
    await kwx.press(ben, lobby, "Join")
    await kwx.press(cat, lobby, "Join")
    await kwx.service.prepare_deal(1, {"seed": seed})
    await kwx.press(ann, lobby, "Start")
    return [ann, ben, cat], dan, eve, group


def moves(message: dict[str, Any]) -> list[dict[str, Any]]:
    """The move buttons' data on a seat's screen."""
    keys = [k for row in message["screen"].get("buttons", []) for k in row if "data" in k]
    return [k["data"] for k in keys if k["data"].get("op") in MOVES]


def writes_to(kwx: Kwx, users: list[FakeUser], since: int) -> int:
    return sum(kwx.fake.count_calls(MESSAGE_WRITE_METHODS, chat=kwx.fake.private_chat(u), since=since) for u in users)


async def test_a_whole_hand_on_the_page_costs_no_hand_message_writes(
    kwx: Kwx, page: Page, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the group's live table follows every PAGE_EDIT_SECONDS while all three have the page open: the
    # test waits for the bot's pending work, so that wait is made short here
    monkeypatch.setattr(group_table, "PAGE_EDIT_SECONDS", 0.5)
    async with kwx.running() as service:
        service.open_pages.grace = 0.3
        players, dan, _, group = await seat_three(kwx, "web-1")
        streams = [await page.open(u, 1) for u in players]
        spectator = await page.open(dan, 1)
        for s in [*streams, spectator]:
            await page.check(await s.next())
        first = {u.id: kwx.hand_message(u) for u in players}  # hand 1's messages, as the deal sent them
        mark = kwx.fake.mark()
        rng = random.Random(3)
        for _ in range(300):
            screens = [(u, (await page.get(u, 1))[1]) for u in players]
            if all(s["screen"]["situation"] == "over" for _, s in screens):
                break
            movers = [(u, m) for u, s in screens if (m := moves(s))]
            assert movers, screens
            user, options = rng.choice(movers)
            answer = await page.press(user, 1, rng.choice(options))
            assert answer["ok"] is True, answer
            await kwx.settle()
        else:
            raise AssertionError("the hand did not end")
        assert writes_to(kwx, players, mark) == 0  # every hand message waited for the page
        assert kwx.fake.count_calls(MESSAGE_WRITE_METHODS, chat=group, since=mark) > 0  # the group saw it all
        await asyncio.sleep(0.2)
        for s in [*streams, spectator]:  # every event of every stream passes the leak check
            while s.read < len(s.events):
                await page.check(await s.next())
        for u, s in zip(players, streams, strict=True):
            assert s.latest() == (await page.get(u, 1))[1]  # the stream ends where the table is
        assert spectator.latest()["screen"]["kind"] == "table"
        assert page.checked > 50
        # the result, the group's own: every hand face up; Next hand / End for a player, no keys to watch
        group_result = kwx.fake.last_message(group)
        assert group_result is not None and group_result.caption
        for s in streams:
            result = s.latest()["result"]
            assert result["kind"] == "result" and len(result["picture"]["hands"]) == 3
            assert [k["label"] for k in result["buttons"][0]] == ["Next hand", "End the table"]
        assert spectator.latest()["result"]["buttons"] == []
        over = streams[1].latest()
        async with page.session.post(
            f"{page.base}/webapp/api/table/1/press",
            json={"data": over["result"]["buttons"][0][0]["data"]},
            headers=page.headers(players[1]),
        ) as r:  # Ben deals the next hand from his page
            assert (await r.json())["text"] == "Dealing…"
        while "result" in (dealt := await streams[1].next()):
            pass
        assert dealt["seq"] > over["seq"] and dealt["screen"]["situation"] != "over"
        await page.check(dealt)
        for s in [*streams, spectator]:
            s.response.close()
        await kwx.fake.wait_for(lambda: writes_to(kwx, players, mark) >= 6, 10, message="the catch-up")
        await kwx.settle()
        # the page closed: one write per hand message — hand 1's ends as played in the chat, hand 2's is sent
        assert writes_to(kwx, players, mark) == 6
        for u in players:
            message = kwx.hand_message(u)
            assert message is not None and "Hand 2" in message.content  # up to date: the hand dealt meanwhile
            old = first[u.id]
            assert old is not None and old.message_id != message.message_id
            ended = kwx.fake.message(kwx.fake.private_chat(u), old.message_id)
            assert "The hand is over" in ended.content and not [b for b in ended.iter_buttons() if b.callback_data]


async def test_who_may_see_the_table_and_with_what_signature(kwx: Kwx, page: Page) -> None:
    async with kwx.running():
        (ann, ben, _), dan, eve, _ = await seat_three(kwx, "web-2")
        status, seen = await page.get(dan, 1)
        assert (status, seen["role"], seen["screen"]["kind"]) == (200, "spectator", "table")
        assert await page.get(eve, 1) == (403, {"error": "not_member"})
        async with page.session.get(f"{page.base}/webapp/api/table/1/events", headers=page.headers(eve)) as r:
            assert r.status == 403
        token = kwx.fake.token
        forged = {"Host": HOST, "Authorization": f"tma {init_data(ann, '9:' + 'x' * 35)}"}
        stale = {"Host": HOST, "Authorization": f"tma {init_data(ann, token, age=86401)}"}
        other = {"Host": HOST, "Authorization": f"tma {init_data(ann, token, claims=ben)}"}
        for headers, error in ((forged, "bad_signature"), (stale, "stale"), (other, "bad_signature")):
            async with page.session.get(f"{page.base}/webapp/api/table/1", headers=headers) as r:
                assert (r.status, await r.json()) == (401, {"error": error})


async def test_a_stale_press_is_refused_exactly_as_a_stale_chat_button(kwx: Kwx, page: Page) -> None:
    async with kwx.running():
        (ann, _, _), _, _, _ = await seat_three(kwx, "web-3")
        before = (await page.get(ann, 1))[1]
        old_chat_message = kwx.hand_message(ann)
        assert old_chat_message is not None
        first, second = moves(before)[:2]
        stale = next(b.callback_data for b in old_chat_message.iter_buttons()
                     if b.callback_data and b.callback_data.endswith(f":{second['op']}{second['tile']}"))  # fmt: skip
        assert (await page.press(ann, 1, first))["ok"] is True
        await kwx.settle()
        refused = await page.press(ann, 1, second)  # made at the old seq
        assert refused["ok"] is False
        query = kwx.fake.forge_press(ann, old_chat_message, stale)  # the same button, left on a chat screen
        await kwx.fake.wait_for_answer(query, timeout=10)
        assert query.answer is not None and query.answer.text == refused["text"]
        assert refused["text"] == "This button is outdated: the table has moved on."


async def test_the_stream_resumes_after_a_restart_with_no_move_lost_or_repeated(kwx: Kwx, page: Page) -> None:
    async with kwx.running():
        players, _, _, _ = await seat_three(kwx, "web-4")
        firsts = [(u, (await page.get(u, 1))[1]) for u in players]
        dealer = next(u for u, screen in firsts if moves(screen))
        stream = await page.open(dealer, 1)
        first = await stream.next()
        answer = await page.press(dealer, 1, moves(first)[0])
        moved = await stream.next()
        assert moved == answer["screen"] and moved["seq"] > first["seq"]
    assert stream.task is not None
    with contextlib.suppress(aiohttp.ClientError):
        await asyncio.wait_for(stream.task, 5)  # the bot stopped: the stream ended
    async with kwx.running():
        again = await page.open(dealer, 1)
        resumed = await again.next()
        await page.check(resumed)
        assert resumed == moved  # the same table: the move is there, once
        screens = [(u, (await page.get(u, 1))[1]) for u in players]
        mover, options = next((u, m) for u, s in screens if (m := moves(s)))
        await page.press(mover, 1, options[0])
        after = await again.next()
        assert after["seq"] > resumed["seq"]
        again.response.close()


async def test_the_page_and_the_chat_stay_in_step(kwx: Kwx, page: Page) -> None:
    """Moves made in the chat show on Ann's open page at once; her moves on the page are in her chat
    hand message once the page closes; an old button — on her chat message left behind while the
    page was open, or on the page — is refused alike (the same seq)."""
    async with kwx.running() as service:
        service.open_pages.grace = 0.2
        players, _, _, _ = await seat_three(kwx, "web-5")
        await kwx.settle()
        screens = {u.id: (await page.get(u, 1))[1] for u in players}
        ann = next(u for u in players if moves(screens[u.id]))  # the dealer ("Ann" here)
        stream = await page.open(ann, 1)
        first = await stream.next()
        old_message = kwx.hand_message(ann)
        assert old_message is not None
        old_chat = next(b.callback_data for b in old_message.iter_buttons() if b.callback_data)  # (its seq: first's)
        on_page = in_chat = 0
        while on_page < 2 or in_chat < 2 or not moves(stream.latest()):
            screens = [(u, (await page.get(u, 1))[1]) for u in players]
            user, options = next((u, m) for u, s in screens if (m := moves(s)))
            if user is ann:
                if on_page >= 2 and in_chat >= 2:
                    break
                assert (await page.press(ann, 1, options[0]))["ok"] is True
                await kwx.settle()
                on_page += 1
            else:  # Ben or Cat moves in his chat: the open page shows it within the stream
                await kwx.act(user, options[0]["op"], options[0].get("tile"))
                in_chat += 1
                seq = service.tables.cached()[0].row.seq
                while (shown := await stream.next(timeout=5))["seq"] < seq:
                    pass
                assert shown["seq"] == seq
                await page.check(shown)
        await kwx.settle()
        now = service.tables.cached()[0].row.seq
        assert stream.latest()["seq"] == now and moves(stream.latest())  # Ann's turn (or claim), on her page
        assert kwx.hand_message(ann) is old_message  # no write for her hand message meanwhile
        # old buttons, on the page and in the chat: refused alike
        refused = await page.press(ann, 1, moves(first)[0])
        assert (refused["ok"], refused["text"]) == (False, "This button is outdated: the table has moved on.")
        query = await kwx.press(ann, old_message, data=old_chat)
        assert query.answer is not None and query.answer.text == refused["text"]
        # the page closes: after the grace her hand message is where the page was, and plays on
        stream.response.close()

        def caught_up() -> bool:
            message = kwx.hand_message(ann)
            return message is not None and any(
                decode(b.callback_data).seq == now for b in message.iter_buttons() if b.callback_data
            )

        await kwx.fake.wait_for(caught_up, 10, message="the hand message caught up")
        options = moves((await page.get(ann, 1))[1])
        await kwx.act(ann, options[0]["op"], options[0].get("tile"))
        assert service.tables.cached()[0].row.seq > now
