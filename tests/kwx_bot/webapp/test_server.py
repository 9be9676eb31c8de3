"""The Mini App's server over the service (kwx_bot/webapp/server.py, docs/security.md §9): who may
see what, presses judged as the chat's, the live stream, presence, and the request checks."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from kwx_bot.service import UserInfo
from kwx_bot.service.buttons import Op
from kwx_bot.service.game import hand_moments
from kwx_bot.service.pages import Pages, PageScreen
from kwx_bot.webapp import server
from kwx_bot.webapp.auth import sign_init_data
from kwx_bot.webapp.server import WebApp
from tests.e2e.leaks import web_leaks
from tests.kwx_bot.service.conftest import ANN, BEN, CAT, World
from tests.kwx_bot.service.test_play import SCENARIO, deal, perform

URL = "https://kwx.example/webapp/"
HOST = "kwx.example"
DAN = UserInfo(4, "Dan")
"""A member of the group who does not sit at the table."""
EVE = UserInfo(5, "Eve")
"""Not a member of the group."""


def init_data(user: UserInfo, token: str, *, age: float = 5, start: str | None = None) -> str:
    fields = {
        "auth_date": str(int(time.time() - age)), "query_id": "AAE",
        "user": json.dumps({"id": user.user_id, "first_name": user.first_name, "language_code": "en"}),
    }  # fmt: skip
    if start is not None:
        fields["start_param"] = start
    return sign_init_data(fields, token)


@dataclass
class Web:
    """The server under test, on the world's service."""

    world: World
    app: WebApp
    client: TestClient[Any, Any]

    def headers(self, user: UserInfo, **extra: str) -> dict[str, str]:
        return {"Host": HOST, "Authorization": f"tma {init_data(user, self.app.settings.token)}", **extra}

    async def get(self, user: UserInfo, path: str, **extra: str) -> tuple[int, Any]:
        async with self.client.get(path, headers=self.headers(user, **extra)) as r:
            return r.status, await r.json()

    async def screen(self, user: UserInfo, table_id: int) -> dict[str, Any]:
        status, body = await self.get(user, f"/webapp/api/table/{table_id}")
        assert status == 200, body
        assert web_leaks(body, await self.events()) == []
        return dict(body)

    async def events(self) -> list[dict[str, Any]]:
        """The events of the hand in play, as stored."""
        live = self.world.service.tables.cached()[0]
        if live.hand is None:
            return []
        return [e.data for e in await self.world.store.hand_events(live.hand.hand_id)]

    async def press(self, user: UserInfo, table_id: int, data: Any) -> tuple[int, Any]:
        async with self.client.post(
            f"/webapp/api/table/{table_id}/press", json={"data": data}, headers=self.headers(user)
        ) as r:
            body = await r.json()
        await self.world.service.idle()
        if r.status == 200:
            assert web_leaks(body, await self.events()) == []
        return r.status, body


@pytest.fixture
async def web(world: World) -> AsyncIterator[Web]:
    world.chat.outsiders.add(EVE.user_id)
    settings = replace(world.service.settings, token="123:" + "t" * 35, webapp_url=URL)
    app = WebApp(world.service, settings)
    async with TestClient(TestServer(app.app())) as client:
        yield Web(world, app, client)
        await app.close_streams()


def button(screen: dict[str, Any], op: Op, tile: str | None = None) -> dict[str, Any]:
    keys = [k["data"] for row in screen["screen"]["buttons"] for k in row if "data" in k]
    found = [d for d in keys if d["op"] == op.value and (tile is None or d.get("tile") == tile)]
    assert found, (op, tile, screen["screen"]["buttons"])
    return dict(found[0])


async def test_a_player_sees_his_seat_a_member_the_groups_view_a_stranger_nothing(web: Web) -> None:
    table_id = await deal(web.world)
    ann = await web.screen(ANN, table_id)
    assert (ann["role"], ann["seat"], ann["lang"], ann["screen"]["kind"]) == ("seat", 0, "en", "seat")
    live = web.world.service.tables.cached()[0]
    assert ann["seq"] == live.row.seq == ann["screen"]["seq"]
    dan = await web.screen(DAN, table_id)
    assert (dan["role"], dan["seat"], dan["screen"]["kind"]) == ("spectator", None, "table")
    assert await web.get(EVE, f"/webapp/api/table/{table_id}") == (403, {"error": "not_member"})
    assert await web.get(ANN, f"/webapp/api/table/{table_id + 99}") == (404, {"error": "no_table"})


async def test_a_claim_window_is_hidden_from_spectators(web: Web) -> None:
    table_id = await deal(web.world)
    for action in SCENARIO["actions"][:2]:  # Ann discards 3p, Ben discards 2p: Cat may 碰
        await perform(web.world, action)
    cat = await web.screen(CAT, table_id)
    assert {k["data"]["op"] for row in cat["screen"]["buttons"] for k in row} >= {Op.PONG.value, Op.PASS.value}
    dan = await web.screen(DAN, table_id)  # web.screen ran the leak check: no window in his view
    assert dan["screen"]["picture"]["view"]["phase"] == "turn"
    assert web_leaks({**dan, "screen": cat["screen"]}, await web.events()) != []  # the check sees one


async def test_requests_without_a_good_signature_or_from_elsewhere_are_refused(web: Web) -> None:
    table_id = await deal(web.world)
    path = f"/webapp/api/table/{table_id}"
    token = web.app.settings.token
    cases = {
        "missing": {"Host": HOST},
        "bad_signature": {"Host": HOST, "Authorization": f"tma {init_data(ANN, '9:' + 'x' * 35)}"},
        "stale": {"Host": HOST, "Authorization": f"tma {init_data(ANN, token, age=86401)}"},
    }
    for error, headers in cases.items():
        async with web.client.get(path, headers=headers) as r:
            assert (r.status, await r.json()) == (401, {"error": error})
    assert await web.get(ANN, path, Host="evil.example") == (403, {"error": "host"})
    assert await web.get(ANN, path, Origin="https://evil.example") == (403, {"error": "origin"})
    assert (await web.get(ANN, path, Origin="https://kwx.example"))[0] == 200


async def test_a_press_from_the_page_is_judged_as_the_chats(web: Web) -> None:
    table_id = await deal(web.world)
    ann = await web.screen(ANN, table_id)
    discard = button(ann, Op.DISCARD, "3p")
    status, body = await web.press(ANN, table_id, discard)
    assert status == 200 and body["ok"] is True
    assert body["screen"]["seq"] > ann["seq"] and body["screen"]["screen"]["buttons"] == []
    live = web.world.service.tables.cached()[0]
    assert live.state is not None and [str(d.tile) for d in live.state.seats[0].discards] == ["3p"]
    # the same press again (a double tap): the move's own answer, nothing changes
    again = await web.press(ANN, table_id, discard)
    assert again[0] == 200 and again[1]["ok"] is False and again[1]["screen"]["seq"] == body["screen"]["seq"]
    # an old button of another kind: outdated, exactly as the chat says it
    other_tile = next(k["data"] for row in ann["screen"]["buttons"] for k in row
                      if k["data"]["op"] == "d" and k["data"]["tile"] != "3p")  # fmt: skip
    status, stale = await web.press(ANN, table_id, other_tile)
    assert (stale["ok"], stale["text"]) == (False, "This button is outdated: the table has moved on.")
    # another player's button, pressed by Ann
    ben = await web.screen(BEN, table_id)
    _, other = await web.press(ANN, table_id, button(ben, Op.DISCARD))
    assert other["ok"] is False and other["text"] is not None
    assert live.row.seq == body["screen"]["seq"]
    # a spectator's press changes nothing; a stranger's is refused before the service sees it
    assert (await web.press(DAN, table_id, button(ben, Op.DISCARD)))[1]["ok"] is False
    assert await web.press(EVE, table_id, button(ben, Op.DISCARD)) == (403, {"error": "not_member"})


@pytest.mark.parametrize(
    "body",
    [
        b"not json",
        b"[]",
        b'{"data": 1}',
        b'{"data": {"type": "table"}}',
        b'{"other": {}}',
        b'{"data": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",  # nested past the JSON parser's depth
    ],
)
async def test_a_bad_press_body_is_a_400(web: Web, body: bytes) -> None:
    table_id = await deal(web.world)
    async with web.client.post(f"/webapp/api/table/{table_id}/press", data=body, headers=web.headers(ANN)) as r:
        assert r.status == 400


async def test_a_press_of_another_table_and_a_huge_body_are_refused(web: Web) -> None:
    table_id = await deal(web.world)
    data = button(await web.screen(ANN, table_id), Op.DISCARD)
    assert (await web.press(ANN, table_id, {**data, "table": table_id + 1}))[0] == 400
    big = b'{"data": "' + b"x" * (1024 * 1024) + b'"}'
    async with web.client.post(f"/webapp/api/table/{table_id}/press", data=big, headers=web.headers(ANN)) as r:
        assert r.status == 413


async def test_each_user_is_rate_limited(web: Web) -> None:
    # a limit that refills too slowly for a loaded machine's slow requests to matter
    web.app.rate, web.app.burst = 0.01, 5
    table_id = await deal(web.world)
    path = f"/webapp/api/table/{table_id}"
    statuses = [(await web.get(ANN, path))[0] for _ in range(web.app.burst)]
    assert statuses == [200] * web.app.burst
    async with web.client.get(path, headers=web.headers(ANN)) as r:
        assert r.status == 429 and r.headers["Retry-After"] == "1"
    assert (await web.get(BEN, path))[0] == 200  # another user is not held back


async def read_event(stream: Any) -> tuple[str, dict[str, Any]]:
    """The next ``event:`` of a server-sent events stream (pings skipped): its name and data."""
    lines: list[str] = []
    while True:
        line = (await asyncio.wait_for(stream.readline(), 5)).decode().rstrip("\n")
        if line == "":
            if any(x.startswith("event:") for x in lines):
                break
            lines = []
            continue
        lines.append(line)
    fields = dict(x.split(": ", 1) for x in lines if not x.startswith(":"))
    return fields["event"], json.loads(fields["data"])


async def test_the_stream_sends_each_change_and_the_hand_message_waits_for_the_page(web: Web) -> None:
    """With the page open, a hand played through it costs no hand-message write for that seat;
    when it closes, after the grace, the message is brought up to date once."""
    web.world.service.open_pages.grace = 0.2
    table_id = await deal(web.world)
    chat = web.world.chat
    async with web.client.get(f"/webapp/api/table/{table_id}/events", headers=web.headers(ANN)) as r:
        assert r.headers["Content-Type"] == "text/event-stream"
        event, first = await read_event(r.content)
        assert web_leaks(first, await web.events()) == []
        assert event == "screen" and first == await web.screen(ANN, table_id)
        mark = len(chat.calls)
        _, body = await web.press(ANN, table_id, button(first, Op.DISCARD, "3p"))
        assert body["ok"] is True
        _, second = await read_event(r.content)
        assert second == body["screen"]  # the stream shows what the press answered
        await perform(web.world, SCENARIO["actions"][1])  # Ben discards 2p in the chat
        _, third = await read_event(r.content)
        assert third["seq"] > second["seq"] and web_leaks(third, await web.events()) == []
        assert [c for c in chat.calls[mark:] if c[1] == ANN.user_id] == []  # nothing for Ann's message
        assert ANN.user_id in web.world.service.open_pages.viewers(table_id)
    for _ in range(100):  # the stream closed; after the grace, one write brings the message up to date
        await asyncio.sleep(0.02)
        await web.world.service.idle()
        if [c for c in chat.calls[mark:] if c[1] == ANN.user_id]:
            break
    assert [m for m, c in chat.calls[mark:] if c == ANN.user_id] == ["edit_media"]
    assert ANN.user_id not in web.world.service.open_pages.viewers(table_id)


async def test_the_stream_sends_a_screen_only_when_it_changed(web: Web) -> None:
    """A wake-up that changed nothing on the user's screen (another seat's menu, a write elsewhere at
    the table) sends nothing: the next event is the next different screen."""
    table_id = await deal(web.world)
    changes = web.world.service.open_pages
    async with web.client.get(f"/webapp/api/table/{table_id}/events", headers=web.headers(ANN)) as r:
        _, first = await read_event(r.content)
        for _ in range(5):
            changes.changed(table_id)  # the table was touched; Ann's screen is the same
            await asyncio.sleep(0.02)
        _, body = await web.press(ANN, table_id, button(first, Op.DISCARD, "3p"))
        _, second = await read_event(r.content)
        assert second != first and second == body["screen"]


async def test_open_pages_of_one_view_make_and_serialize_the_screen_once_per_change(
    web: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Four spectators' streams of one table (and the seated player's one) after a move: the
    spectators' screen is made and turned into JSON once per change of the table, not once per
    stream, and every stream sends the same screen (docs/architecture.md §4 "The Mini App")."""
    table_id = await deal(web.world)
    pages = web.world.service.pages
    made: list[int | None] = []
    serialized: list[str] = []
    now, to_json = Pages.now, PageScreen.to_json

    async def counted_now(self: Pages, live: Any, user_id: int) -> PageScreen:
        screen = await now(self, live, user_id)
        made.append(screen.seat)
        return screen

    def counted_to_json(self: PageScreen) -> dict[str, Any]:
        serialized.append(self.role.value)
        return to_json(self)

    monkeypatch.setattr(Pages, "now", counted_now)
    monkeypatch.setattr(PageScreen, "to_json", counted_to_json)
    changes = web.world.service.open_pages
    told: list[int] = []
    changed = changes.changed
    monkeypatch.setattr(changes, "changed", lambda t: told.append(t) or changed(t))
    async with contextlib.AsyncExitStack() as stack:
        streams = [
            await stack.enter_async_context(web.client.get(f"/webapp/api/table/{table_id}/events",
                                                           headers=web.headers(DAN)))
            for _ in range(4)
        ]  # fmt: skip
        firsts = [(await read_event(r.content))[1] for r in streams]
        assert all(f == firsts[0] for f in firsts) and firsts[0]["role"] == "spectator"
        assert made.count(None) == 1 and serialized.count("spectator") == 1  # one for the four
        made.clear(), serialized.clear(), told.clear()
        await perform(web.world, SCENARIO["actions"][0])  # Ann discards in the chat
        nexts = [(await read_event(r.content))[1] for r in streams]
        await asyncio.sleep(0.05)  # every stream has looked at every change by now
        assert all(n == nexts[0] for n in nexts) and nexts[0]["seq"] > firsts[0]["seq"]
        assert 1 <= made.count(None) <= len(told) and serialized.count("spectator") == made.count(None)
    assert pages is web.world.service.pages


async def test_a_stranger_gets_no_stream(web: Web) -> None:
    table_id = await deal(web.world)
    async with web.client.get(f"/webapp/api/table/{table_id}/events", headers=web.headers(EVE)) as r:
        assert r.status == 403


async def test_the_result_is_the_groups_and_next_hand_is_pressed_on_the_page(web: Web) -> None:
    """Once the hand is over every payload carries the group's result announcement (every hand
    face up): with Next hand / End the table for a seated player, with no keys for a spectator."""
    table_id = await deal(web.world)
    assert "result" not in await web.screen(ANN, table_id)
    for action in SCENARIO["actions"]:  # the hand, to its double 胡 (the leak check on each screen)
        await perform(web.world, action)
        assert "result" not in await web.screen(DAN, table_id) or action is SCENARIO["actions"][-1]
    ann, dan = await web.screen(ANN, table_id), await web.screen(DAN, table_id)
    result = ann["result"]
    assert result["kind"] == "result" and ann["screen"]["situation"] == "over"
    assert [len(hand[0]) for hand in result["picture"]["hands"]] and "Points" in result["caption"]
    assert [[k["label"] for k in row] for row in result["buttons"]] == [["Next hand", "End the table"]]
    assert dan["result"]["buttons"] == [] and dan["result"]["caption"] == result["caption"]
    assert "deadline_ms" not in ann
    # End the table asks first: the page is given the chat's confirmation keys
    end = next(k["data"] for k in result["buttons"][0] if k["label"] == "End the table")
    _, asked = await web.press(ANN, table_id, end)
    assert asked["text"] == "Press “Yes, end the table” to confirm."
    assert [k["label"] for k in asked["buttons"][0]] == ["Yes, end the table", "Back"]
    before = ann["seq"]
    next_hand = {"data": next(k["data"] for k in result["buttons"][0])}
    async with web.client.post(f"/webapp/api/table/{table_id}/press", json=next_hand, headers=web.headers(BEN)) as r:
        dealt = await r.json()  # (its screen: the result still, the deal follows in the background)
    assert dealt["ok"] is True and dealt["text"] == "Dealing…"
    await web.world.service.idle()
    after = await web.screen(BEN, table_id)
    assert "result" not in after and after["screen"]["situation"] != "over" and after["seq"] > before


async def test_the_deadline_is_the_time_controls_and_only_for_the_seat_it_waits_on(world: World) -> None:
    """``deadline_ms`` / ``bank_ms``: the seat's due time and the end of its move's own time, as the
    table's time control answers them (docs/rules.md §E#33); none for the seats not waited on."""
    settings = replace(world.service.settings, token="123:" + "t" * 35, webapp_url=URL)
    for part in (world.service.tables, world.service):
        part.settings = replace(part.settings, discard_seconds=30, claim_seconds=10, bank_seconds=20)
    app = WebApp(world.service, settings)
    async with TestClient(TestServer(app.app())) as client:
        web = Web(world, app, client)
        table_id = await deal(world)
        ann, ben = await web.screen(ANN, table_id), await web.screen(BEN, table_id)
        live = world.service.tables.cached()[0]
        seat = live.seat_of(ANN.user_id)
        assert seat is not None and ann["screen"]["must_act"] is True
        assert ann["deadline_ms"] == round(world.service.tables.due_at(live, seat) * 1000)
        assert live.row.deadline_start is not None
        assert ann["bank_ms"] == round((live.row.deadline_start + 30) * 1000)
        assert ann["deadline_ms"] - ann["bank_ms"] == 40_000  # the first hand's bank: twice 20 s
        assert "deadline_ms" not in ben and "deadline_ms" not in await web.screen(DAN, table_id)


async def test_a_finished_hand_is_replayed_face_up_for_members_of_its_group(web: Web) -> None:
    """``GET /webapp/api/replay/{table}/{hand}``: ``/replay``'s moments with every hand face up, for
    a finished hand and a member of the table's group; the result links to it; ``/replay`` offers it
    beside the animation (a link to the bot's Main Mini App: no ``web_app`` key in a group)."""
    table_id = await deal(web.world)
    path = f"/webapp/api/replay/{table_id}/1"
    assert await web.get(ANN, path) == (404, {"error": "no_table"})  # in play: its tiles are private
    for action in SCENARIO["actions"]:
        await perform(web.world, action)
    assert (await web.screen(ANN, table_id))["replay"] == f"r{table_id}_1"
    status, replay = await web.get(DAN, path)  # a member of the group who did not play
    assert status == 200 and replay["kind"] == "replay" and replay["names"] == ["Ann", "Ben", "Cat"]
    frames = replay["frames"]
    events = await web.events()
    assert len(frames) == len(hand_moments(events))  # the animation's moments, one by one
    assert [len(hand[0]) for hand in frames[0]["hands"]] == [14, 13, 13]  # the deal, face up
    assert frames[-1]["view"]["result"]["outcome"] == "win" and all(f["view"]["result"] is None for f in frames[:-1])
    # what each moment added, in the group's words: nothing for the deal and the result, a line for the rest
    assert frames[0]["said"] == frames[-1]["said"] == [] and all(f["said"] for f in frames[1:-1])
    assert frames[1]["said"][-1].startswith("Last discard: ")  # the dealer's first discard
    assert await web.get(EVE, path) == (403, {"error": "not_member"})
    assert (await web.get(ANN, f"/webapp/api/replay/{table_id}/2"))[0] == 404
    assert (await web.get(ANN, f"/webapp/api/replay/{table_id + 9}/1"))[0] == 404
    # /replay 1 in the group: the animation, and the link to step through it on the Mini App
    tables = web.world.service.tables
    tables.settings = replace(tables.settings, webapp_url=URL)
    response = await web.world.service.records.replay(web.world.command(ANN, "replay", "1"))
    (out,) = response.outs
    assert out.animation is not None and out.markup is not None
    (key,) = out.markup[0]
    assert key.text == "Step through the hand" and key.url is not None and key.url.endswith(f"?startapp=r{table_id}_1")


async def test_every_quiet_stream_looks_on_one_timer(monkeypatch: pytest.MonkeyPatch) -> None:
    """The quiet streams' looks at their connection share one timer (kwx_bot/webapp/server.py
    ``Looks``): of a hundred waiting streams only those whose page went away, or whose ping is due,
    are woken; a stream woken otherwise is not woken again."""
    monkeypatch.setattr(server, "LOOK_SECONDS", 0.02)
    loop = asyncio.get_running_loop()
    looks = server.Looks()
    timers = []
    call_later = loop.call_later
    monkeypatch.setattr(loop, "call_later", lambda d, f, *a: timers.append(f) or call_later(d, f, *a))

    @dataclass
    class Transport:
        closing: bool = False

        def is_closing(self) -> bool:
            return self.closing

    @dataclass
    class Request:
        transport: Transport | None

    requests = [Request(Transport()) for _ in range(100)]
    futures = [loop.create_future() for _ in requests]
    for future, request in zip(futures, requests, strict=True):
        looks.wake(future, request, loop.time() + 60)
    assert timers == [looks._look]
    changed = futures[0]
    changed.set_result(None)  # its table changed first
    looks.forget(changed)
    requests[1].transport.closing = True
    requests[2].transport = None
    ping = loop.create_future()
    looks.wake(ping, Request(Transport()), loop.time())
    await asyncio.wait_for(asyncio.gather(futures[1], futures[2], ping), 1)
    await asyncio.sleep(0.05)
    assert not any(f.done() for f in futures[3:])  # the other pages are there: not woken
    assert 2 <= timers.count(looks._look) < 10  # a timer per look for all of them, not per stream
    looks.close()
