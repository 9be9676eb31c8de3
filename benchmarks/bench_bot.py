"""What players see at the load where Telegram's limits bind (docs/architecture.md §7, §8).

Three processes, as in production: this one runs the fake Bot API (``fakebot``) as an HTTP server
**with Telegram's limits enforced as real 429s** (about 30 writes a second for the token, 20 a minute
per group) and the simulated players; the bot runs as ``python -m kwx_bot run`` in its own process
with the production settings — the pacing rate limiter and the group budget on, deadlines (30 s
discard, 15 s claim), reminders after 10 s, the live table edited at most every 3 s, pictures in
the default encoding drawn in a render worker process (its third process).

Each table has three human players.  A player whose hand message shows game buttons thinks for
``uniform(0.5, 1.5) x --think`` seconds (with probability ``--slow``, 10-20 s instead: past the
reminder), presses, and waits for the bot: the callback answer (press -> answer) and the edit of
their own hand message (press -> hand update, as the player's phone shows it).  What they press
(``--players``): ``realistic`` (the default) is what the engine's AI (``engine.ai``, level
``normal``) chooses from the player's own view, replayed from the bot's database as the player's
hand message shows it — 胡 whenever possible, 碰 / 杠 / 过 as a plausible player, a sensible
discard, and the 亮倒 menu (menu, discard, confirmation: three presses) only to declare; ``random``
is any game button of the hand message at random (no menu), which rarely wins and so plays long
hands.  A finished hand's "Next hand" button is pressed after the same thinking time, so the
tables keep playing.  After ``--warmup`` seconds the run measures for ``--seconds``: turns
(discards, counted in the bot's database), message writes (sends and edits, as the §7 bar counts
them) per turn, also broken down by kind (:func:`kind`: hand pictures, captions, keyboards,
reminders, live-table edits, announcements), every call Telegram's token limit counts, 429
answers (all, and those of the token's limit), presses and both latencies (median, p95, p99), and
bytes uploaded.  Several table counts are
run one after the other (``--tables 10,20,40``) to find where the limits bind: turns per second
stop growing with tables, 429s and latency appear.

``--web-share S`` puts that share of the players on the Mini App's page instead (the bot runs with
``KWX_WEBAPP_URL`` and its Mini App server, docs/architecture.md §4 "The Mini App"): such a player
keeps the table's events stream open, reads his screen from it, presses through the page's API
(``POST …/press``, the same choice as a chat player makes, the 亮倒 menu step by step) and measures
press -> answer (the HTTP answer) and press -> own screen (the first streamed screen past the
press's seq).  With every player on the page the hand messages get no writes at all: the writes
per turn left are the group's.

    python benchmarks/bench_bot.py [--tables 10,20,40] [--seconds 60] [--warmup 20] [--think 3]
        [--players realistic|random] [--slow 0.1] [--table-edit-seconds 3] [--web-share 1.0]
        [--bot-cpus 0 --client-cpus 1]

``--bot-cpus`` / ``--client-cpus`` pin the bot's process (with its render worker) and this one (the
fake Telegram and every simulated player) to separate CPUs (``os.sched_setaffinity``), a stand-in
for players and Telegram on other machines: unpinned, the load generator competes with the bot for
the same cores, and the bot's latency then measures the harness as much as the bot.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import sqlite3
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiohttp

from engine.ai import Level, choose_action
from engine.game import ActionKind, State, legal_actions, view_for
from fakebot import MESSAGE_WRITE_METHODS, FakeBotAPI, FakeBotServer, FakeChat, FakeMessage, FakeUser, WaitTimeout
from fakebot.faults import WRITE_METHODS
from fakebot.model import ApiCall
from kwx_bot.edge.codec import decode
from kwx_bot.service.game import load_events
from kwx_bot.webapp.auth import sign_init_data
from tests.e2e.harness import GAME_OPS
from tests.e2e.process import TOKEN, free_port

ACCEPTED = ("You discarded", "Liangdao!", "Win!", "Pong.", "Kong.", "Concealed kong.", "Added kong.", "Passed.")
"""The toasts of an accepted game press (English); a menu press answers with no text."""

PRODUCTION = {
    "KWX_DISCARD_SECONDS": "30", "KWX_CLAIM_SECONDS": "15", "KWX_REMIND_SECONDS": "10",
    "KWX_TABLE_EDIT_SECONDS": "3", "KWX_RENDER_PROCESSES": "1",
    "KWX_DEFAULT_LANGUAGE": "en", "KWX_LOG_LEVEL": "ERROR",
}  # fmt: skip
"""The bot's settings in the run: the production defaults, written out (English answers for the players)."""


def pct(values: list[float], p: float) -> float:
    """The ``p`` quantile (0..1) of ``values`` (nearest rank); NaN for none."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


@dataclass
class Stats:
    """What the players measured (milliseconds)."""

    answer_ms: list[float] = field(default_factory=list)
    update_ms: list[float] = field(default_factory=list)
    presses: int = 0
    refused: int = 0
    no_update: int = 0
    decide_cpu: float = 0.0
    """CPU seconds the simulated players spent choosing (replaying their hand from the database and
    asking the engine's AI), while measuring: the bench's own client side, apart from the fake
    Telegram that shares its process."""
    measuring: bool = False
    stopped: bool = False
    """Set at the end of a run: the players' loops end (a cancellation alone can be lost: in Python
    3.11 ``asyncio.wait_for`` may swallow one that arrives as its future completes)."""


def hand_message(fake: FakeBotAPI, user: FakeUser) -> FakeMessage | None:
    """The player's newest hand picture."""
    for message in reversed(fake.bot_messages(fake.private_chat(user))):
        if message.photo is not None:
            return message
    return None


def game_buttons(message: FakeMessage | None) -> list[str]:
    """Callback data of the game buttons on a hand message."""
    if message is None:
        return []
    data = [b.callback_data for b in message.iter_buttons() if b.callback_data]
    return [d for d in data if decode(d).op.value in GAME_OPS]


OPS = {
    ActionKind.DISCARD: "d", ActionKind.WIN: "w", ActionKind.PONG: "p", ActionKind.KONG: "k",
    ActionKind.CONCEALED_KONG: "c", ActionKind.ADDED_KONG: "b", ActionKind.PASS: "x",
}  # fmt: skip
"""The button op of each engine action a hand keyboard offers directly (亮倒 goes through its menu)."""


def seat_state(db: Path, user: FakeUser) -> tuple[State, int] | None:
    """The hand the player sits at and their seat, replayed from the bot's database (read-only).

    The player only uses what they see (their own view), as a person reads their hand picture."""
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)) as conn:
        row = conn.execute("SELECT table_id, seat FROM seats WHERE user_id = ?", (user.id,)).fetchone()
        if row is None:
            return None
        data = conn.execute(
            "SELECT data FROM events WHERE table_id = ? AND hand_id = "
            "(SELECT MAX(hand_id) FROM events WHERE table_id = ?) ORDER BY seq",
            (row[0], row[0]),
        ).fetchall()
    if not data:
        return None
    state, _events = load_events([json.loads(d) for (d,) in data])
    return state, int(row[1])


def decide(stats: Stats, db: Path, user: FakeUser, rng: random.Random) -> list[tuple[str, int | None]]:
    """:func:`realistic_presses`, its CPU time (this thread's) added to ``stats.decide_cpu``."""
    started = time.thread_time()
    try:
        return realistic_presses(db, user, rng)
    finally:
        if stats.measuring:
            stats.decide_cpu += time.thread_time() - started


def realistic_presses(db: Path, user: FakeUser, rng: random.Random) -> list[tuple[str, int | None]]:
    """What a plausible player presses now: the engine's AI (``normal``) picks the action from the
    player's own view; returns ``(op, tile)`` steps — one button, or for a 亮倒 the menu, the discard
    in it and the confirmation (``l``, or the first reveal choice ``r``).  Empty when the seat has
    nothing to decide (the hand moved on); a step whose button the message lacks is not pressed."""
    found = seat_state(db, user)
    if found is None:
        return []
    state, seat = found
    legal = legal_actions(state, seat)
    if not legal:
        return []
    action = choose_action(view_for(state, seat), legal, Level.NORMAL, rng, rules=state.rules)
    if action.kind is ActionKind.LIANGDAO:
        return [("L", None), ("P", action.tile), ("l|r", action.tile)]
    return [(OPS[action.kind], action.tile)]


def button_for(message: FakeMessage, op: str, tile: int | None) -> str | None:
    """Callback data of the button of ``message`` with ``op`` (``a|b``: either) and ``tile``."""
    for b in message.iter_buttons():
        if b.callback_data:
            button = decode(b.callback_data)
            if button.op.value in op.split("|") and (tile is None or button.tile == tile):
                return b.callback_data
    return None


async def player(
    fake: FakeBotAPI,
    user: FakeUser,
    rng: random.Random,
    think: float,
    stats: Stats,
    db: Path,
    model: str,
    slow: float = 0.0,
) -> None:
    """Press what the hand message offers, after thinking, until the run stops: with ``model``
    ``realistic`` what the engine's AI would choose (menus only to declare 亮倒), with ``random`` any
    game button at random."""
    while not stats.stopped:
        try:
            await fake.wait_for(lambda: game_buttons(hand_message(fake, user)), 5, interval=0.2)
        except WaitTimeout:
            continue
        await asyncio.sleep(rng.uniform(10, 20) if rng.random() < slow else rng.uniform(0.5, 1.5) * think)
        message = hand_message(fake, user)
        buttons = game_buttons(message)
        if message is None or not buttons:
            continue
        data = rng.choice(buttons)
        if model == "realistic":
            steps = await asyncio.to_thread(decide, stats, db, user, rng)
            for op, tile in steps[:-1]:  # the 亮倒 menu: each step edits the keyboard
                step = button_for(message, op, tile)
                if step is None:
                    break
                before = len(message.history)
                await fake.wait_for_answer(fake.press(user, message, data=step), timeout=60)
                with contextlib.suppress(WaitTimeout):
                    await fake.wait_for(lambda m=message, e=before: len(m.history) > e, 10, interval=0.1)
            last = button_for(message, *steps[-1]) if steps else None
            if last is None:
                continue
            data = last
        edits = len(message.history)
        started = time.monotonic()
        query = fake.press(user, message, data=data)
        try:
            await fake.wait_for_answer(query, timeout=60)
        except WaitTimeout:
            continue
        answered = time.monotonic()
        text = query.answer.text if query.answer is not None else None
        accepted = text is None or text.startswith(ACCEPTED)
        if stats.measuring:
            stats.presses += 1
            stats.answer_ms.append((answered - started) * 1000)
            stats.refused += not accepted
        if not accepted:
            continue

        def changed(m: FakeMessage = message, e: int = edits) -> bool:
            return len(m.history) > e or m.deleted or hand_message(fake, user) is not m

        try:
            await fake.wait_for(changed, 60, interval=0.2)
        except WaitTimeout:
            if stats.measuring:
                stats.no_update += 1
            continue
        if stats.measuring:
            stats.update_ms.append((time.monotonic() - started) * 1000)


async def next_hands(
    fake: FakeBotAPI, users: list[FakeUser], group: FakeChat, rng: random.Random, think: float, stats: Stats
) -> None:
    """Press a finished hand's "Next hand" button after thinking, until the run stops."""
    pressed: set[int] = set()

    def waiting() -> FakeMessage | None:
        for message in reversed(fake.bot_messages(group)):
            if message.message_id not in pressed and "Next hand" in message.button_texts:
                return message
        return None

    while not stats.stopped:
        try:
            message = await fake.wait_for(waiting, 5, interval=0.2)
        except WaitTimeout:
            continue
        await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
        pressed.add(message.message_id)
        fake.press(rng.choice(users), message, "Next hand")


SETUP_AT_ONCE = 20
"""Tables opened at once during the setup (hundreds of lobbies in the same second would queue each
group's next update behind its lobby edits, all waiting for the one token)."""


async def open_table(fake: FakeBotAPI, users: list[FakeUser], group: FakeChat) -> None:
    """The first player opens a lobby, the others join, the first starts; returns at the deal."""
    fake.user_command(users[0], group, "new")
    lobby = await fake.wait_for(
        lambda: next((m for m in fake.bot_messages(group) if "Join" in m.button_texts), None), 120, interval=0.2
    )
    for u in users[1:]:
        await fake.wait_for_answer(fake.press(u, fake.message(group, lobby.message_id), "Join"), timeout=120)
    await fake.wait_for(lambda: "Start" in fake.message(group, lobby.message_id).button_texts, 120, interval=0.2)
    await fake.wait_for_answer(fake.press(users[0], fake.message(group, lobby.message_id), "Start"), timeout=120)
    await fake.wait_for(lambda: all(hand_message(fake, u) is not None for u in users), 180, interval=0.2)


def parse_cpus(text: str | None) -> set[int] | None:
    """``--bot-cpus`` / ``--client-cpus``: ``"0"``, ``"0,1"`` or ``"0-3"`` -> CPU numbers; None or
    ``""`` -> None (not pinned).  Raises ``ValueError`` for anything else."""
    if not text:
        return None
    cpus: set[int] = set()
    for part in text.split(","):
        low, _, high = part.partition("-")
        cpus.update(range(int(low), int(high or low) + 1))
    return cpus


BOT_CPUS: set[int] | None = None
"""The CPUs the bot's process (and its render worker, which inherits them) may run on; None: any."""


async def start_bot(
    fake: FakeBotAPI, server: FakeBotServer, db: Path, log: Path, metrics_port: int, webapp_port: int | None = None
) -> asyncio.subprocess.Process:
    """``python -m kwx_bot run`` against the fake with the production settings and its Prometheus
    endpoint on ``metrics_port`` (and its Mini App server on ``webapp_port``), pinned to
    :data:`BOT_CPUS` when set (``os.sched_setaffinity`` before it starts: its render worker inherits
    it); returns once it polls."""
    env = dict(os.environ)
    if webapp_port is not None:
        env.update(KWX_WEBAPP_URL=f"https://{WEB_HOST}/webapp/", KWX_WEBAPP_PORT=str(webapp_port))
    env.update(TELEGRAM_BOT_TOKEN=fake.token, TELEGRAM_API_BASE_URL=server.url, KWX_DB_PATH=str(db),
               NO_PROXY="127.0.0.1,localhost", no_proxy="127.0.0.1,localhost", KWX_METRICS_PORT=str(metrics_port),
               **PRODUCTION)  # fmt: skip
    with log.open("wb") as err:
        cpus = BOT_CPUS
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "kwx_bot",
            "run",
            env=env,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=err,
            preexec_fn=None if cpus is None else lambda: os.sched_setaffinity(0, cpus),
        )
    await fake.wait_for(lambda: fake.count_calls("deleteWebhook") > 0 or proc.returncode is not None, 60)
    if proc.returncode is not None:
        raise SystemExit(f"the bot exited with {proc.returncode}: {log.read_text()[-2000:]}")
    return proc


WEB_HOST = "kwx.bench"
"""The host of the page's URL in the run (``https://kwx.bench/webapp/``); requests name it in ``Host``."""


def table_of(db: Path, user: FakeUser) -> int | None:
    """The table the player sits at (read-only)."""
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)) as conn:
        row = conn.execute("SELECT table_id FROM seats WHERE user_id = ?", (user.id,)).fetchone()
    return None if row is None else int(row[0])


def web_moves(screen: dict[str, Any]) -> list[dict[str, Any]]:
    """The game buttons' ``data`` on a seat's screen JSON (what the page offers to press)."""
    inner = screen.get("screen")
    rows = inner.get("buttons", []) if isinstance(inner, dict) else []
    keys = [k for row in rows for k in row if isinstance(k, dict) and "data" in k]
    return [k["data"] for k in keys if k["data"].get("op") in GAME_OPS]


def web_button(screen: dict[str, Any], op: str, tile: object) -> dict[str, Any] | None:
    """The ``data`` of the screen's button with ``op`` (``a|b``: either) and ``tile`` (None: any)."""
    inner = screen.get("screen")
    rows = inner.get("buttons", []) if isinstance(inner, dict) else []
    for key in (k for row in rows for k in row if isinstance(k, dict) and "data" in k):
        data = key["data"]
        if data.get("op") in op.split("|") and (tile is None or data.get("tile") == str(tile)):
            return dict(data)
    return None


@dataclass
class Page:
    """One web player's view: the newest streamed screen and when each arrived."""

    latest: dict[str, Any] = field(default_factory=dict)
    arrived: asyncio.Event = field(default_factory=asyncio.Event)
    seen: list[tuple[float, int]] = field(default_factory=list)
    """(monotonic time, seq) of every streamed screen."""


async def follow(response: aiohttp.ClientResponse, page: Page) -> None:
    """Read the events stream into ``page`` until it ends."""
    with contextlib.suppress(aiohttp.ClientError, asyncio.CancelledError):
        event: dict[str, str] = {}
        async for raw in response.content:
            line = raw.decode().rstrip("\n")
            if line:
                if not line.startswith(":") and ": " in line:
                    key, value = line.split(": ", 1)
                    event[key] = value
                continue
            if event.get("event") == "screen":
                page.latest = json.loads(event["data"])
                page.seen.append((time.monotonic(), int(page.latest.get("seq", 0))))
                page.arrived.set()
            event = {}


async def web_player(
    fake: FakeBotAPI, session: aiohttp.ClientSession, base: str, user: FakeUser, rng: random.Random,
    think: float, stats: Stats, db: Path, model: str, slow: float = 0.0,
) -> None:  # fmt: skip
    """A player on the Mini App's page (module docstring): the same choices as :func:`player`,
    made on the streamed screen and pressed through the page's API."""
    who = json.dumps({"id": user.id, "first_name": user.first_name, "language_code": "en"})
    headers = {"Host": WEB_HOST, "Authorization": "tma " + sign_init_data({"auth_date": str(int(time.time())),
                                                                          "user": who}, fake.token)}  # fmt: skip
    table = await asyncio.to_thread(table_of, db, user)
    api = f"{base}/webapp/api/table/{table}"
    page = Page()
    response = await session.get(f"{api}/events", headers=headers, timeout=aiohttp.ClientTimeout(total=None))
    reader = asyncio.create_task(follow(response, page))

    async def press(data: dict[str, Any]) -> dict[str, Any]:
        async with session.post(f"{api}/press", json={"data": data}, headers=headers) as r:
            return dict(await r.json()) if r.status == 200 else {"ok": False}

    try:
        while not stats.stopped:
            if not web_moves(page.latest):
                page.arrived.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(page.arrived.wait(), 5)
                continue
            await asyncio.sleep(rng.uniform(10, 20) if rng.random() < slow else rng.uniform(0.5, 1.5) * think)
            screen = page.latest
            options = web_moves(screen)
            if not options:
                continue
            data: dict[str, Any] | None = rng.choice(options)
            if model == "realistic":
                steps = await asyncio.to_thread(decide, stats, db, user, rng)
                for op, tile in steps[:-1]:  # the 亮倒 menu: each step answers with the next screen
                    step = web_button(screen, op, tile)
                    if step is None:
                        break
                    answer = await press(step)
                    screen = answer.get("screen", screen)
                data = web_button(screen, *steps[-1]) if steps else None
            if data is None:
                continue
            seq = int(data.get("seq", 0))
            started = time.monotonic()
            answer = await press(data)
            answered = time.monotonic()
            if stats.measuring:
                stats.presses += 1
                stats.answer_ms.append((answered - started) * 1000)
                stats.refused += not answer.get("ok")
            if not answer.get("ok"):
                continue
            deadline = started + 60
            while not stats.stopped and time.monotonic() < deadline:
                shown = next((t for t, s in page.seen if t >= started and s > seq), None)
                if shown is not None:
                    if stats.measuring:
                        stats.update_ms.append((shown - started) * 1000)
                    break
                page.arrived.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(page.arrived.wait(), 1)
            else:
                if stats.measuring:
                    stats.no_update += 1
            del page.seen[:-4]
    finally:
        reader.cancel()
        response.close()


def bot_metrics(port: int) -> dict[str, float]:
    """The bot's counters of presses handled, SQL statements by kind and its pacer's waits (the
    cumulative buckets of ``kwx_pacing_wait_seconds`` by priority), from its ``/metrics``."""
    from prometheus_client.parser import text_string_to_metric_families

    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as response:
        text = response.read().decode()
    out: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == "kwx_presses_total":
                out["presses"] = sample.value
            elif sample.name == "kwx_sql_statements_total":
                out[f"sql:{sample.labels['kind']}"] = sample.value
            elif sample.name == "kwx_pacing_wait_seconds_bucket":
                out[f"pace:{sample.labels['priority']}:{sample.labels['le']}"] = sample.value
    return out


def paced_p95(before: dict[str, float], after: dict[str, float], priority: str) -> float:
    """The upper bound (seconds) of the histogram bucket holding the 95th percentile of the pacer's
    waits of ``priority`` between two :func:`bot_metrics` readings; NaN for none."""
    buckets = sorted(
        (float(key.rsplit(":", 1)[1]), value - before.get(key, 0))
        for key, value in after.items()
        if key.startswith(f"pace:{priority}:")
    )
    total = buckets[-1][1] if buckets else 0
    return next((le for le, count in buckets if total and count >= 0.95 * total), float("nan"))


def cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system) used so far by process ``pid`` and its live children (the render
    worker), from ``/proc`` (Linux); 0 where it cannot be read."""
    total = 0.0
    pids, seen = [pid], set()
    tick = os.sysconf("SC_CLK_TCK")
    while pids:
        p = pids.pop()
        if p in seen:
            continue
        seen.add(p)
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
            pids += [int(c) for c in Path(f"/proc/{p}/task/{p}/children").read_text().split()]
        except (OSError, ValueError, IndexError):
            continue
    return total


def discards(db: Path) -> int:
    """Discards committed so far (read-only; the bot keeps writing in WAL mode)."""
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM events WHERE kind = 'discarded'").fetchone()[0])


def kind(call: ApiCall) -> str:
    """What a successful message write was for (the breakdown of the writes per turn).

    Private chat: ``hand sent`` (a new hand picture), ``hand picture`` (``editMessageMedia``: the
    seat's tiles changed), ``hand caption, buttons`` (a claim window came: caption and buttons),
    ``hand caption, no buttons`` (a claim window went), ``hand keyboard`` (buttons only: a menu
    step, or stale buttons removed), ``reminder`` (a notifying text message), ``private text``
    (anything else).  Group: ``table picture`` / ``table caption`` (the coalesced live-table
    edits), ``announce picture`` (hand start, 亮倒 reveal, result), ``announce text`` (result
    breakdown, notices), ``group keyboard`` (stale Next hand buttons removed), ``group text edit``
    (the lobby).
    """
    group = (call.chat_id or 0) < 0
    method = call.method
    if group:
        return {
            "sendPhoto": "announce picture", "sendMessage": "announce text", "editMessageMedia": "table picture",
            "editMessageCaption": "table caption", "editMessageReplyMarkup": "group keyboard",
        }.get(method, "group text edit")  # fmt: skip
    if method == "sendMessage":
        return "reminder" if "⏰" in str(call.params.get("text", "")) else "private text"
    if method == "editMessageCaption":
        buttons = bool((call.param("reply_markup") or {}).get("inline_keyboard"))
        return "hand caption, buttons" if buttons else "hand caption, no buttons"
    return {
        "sendPhoto": "hand sent", "editMessageMedia": "hand picture",
        "editMessageReplyMarkup": "hand keyboard",
    }.get(method, "private text")  # fmt: skip


def window(fake: FakeBotAPI, since: int, until: int) -> dict[str, float]:
    """Counts over the API calls with ``since <= seq < until``."""
    calls = [c for c in fake.calls if since <= c.seq < until]
    token_methods = {m.lower() for m in WRITE_METHODS}
    return {
        "writes": sum(1 for c in calls if c.method in MESSAGE_WRITE_METHODS and c.ok),
        "group writes": sum(1 for c in calls if c.method in MESSAGE_WRITE_METHODS and c.ok and (c.chat_id or 0) < 0),
        "limited": sum(1 for c in calls if c.method.lower() in token_methods and c.ok),
        "429": sum(1 for c in calls if c.status == 429),
        "bytes": sum(size for c in calls if c.ok for _name, size in c.files.values()),
        "answers": sum(1 for c in calls if c.method == "answerCallbackQuery" and c.ok),
        **Counter(f"w:{kind(c)}" for c in calls if c.method in MESSAGE_WRITE_METHODS and c.ok),
    }


async def run(
    tables: int,
    seconds: float,
    warmup: float,
    think: float,
    seed: int,
    model: str,
    slow: float = 0.0,
    web_share: float = 0.0,
) -> dict[str, float]:
    """One load: ``tables`` tables playing for ``warmup + seconds`` (``web_share`` of the players on
    the Mini App's page); returns the measured figures."""
    fake = FakeBotAPI(token=TOKEN, callback_query_ttl=60)
    fake.faults.token_rate_limit(30, 1.0)
    fake.faults.group_rate_limit(20, 60.0)
    workdir = Path(tempfile.mkdtemp(prefix="kwx-bench-"))
    db = workdir / "kwx.sqlite3"
    server = await FakeBotServer(fake).start()
    metrics_port = free_port()
    webapp_port = free_port() if web_share > 0 else None
    proc = await start_bot(fake, server, db, workdir / "bot.log", metrics_port, webapp_port)
    stats = Stats()
    tasks: list[asyncio.Task[None]] = []
    session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))
    try:
        seats = []
        for t in range(tables):
            users = [fake.create_user(f"{n}{t}", language_code="en") for n in ("Ann", "Ben", "Cat")]
            group = fake.create_group(f"Table {t}", members=users)
            for u in users:
                fake.start_bot(u)
            seats.append((users, group))
        setup = time.monotonic()
        opening = asyncio.Semaphore(SETUP_AT_ONCE)

        async def opened(users: list[FakeUser], group: FakeChat) -> None:
            async with opening:
                await open_table(fake, users, group)

        await asyncio.gather(*(opened(users, group) for users, group in seats))
        setup = time.monotonic() - setup
        print(f"  {tables} tables dealt in {setup:.0f} s", file=sys.stderr, flush=True)
        rng = random.Random(seed)
        for users, group in seats:
            for u in users:
                own = random.Random(rng.random())
                if webapp_port is not None and rng.random() < web_share:
                    base = f"http://127.0.0.1:{webapp_port}"
                    made = web_player(fake, session, base, u, own, think, stats, db, model, slow)
                else:
                    made = player(fake, u, own, think, stats, db, model, slow)
                tasks.append(asyncio.create_task(made))
            tasks.append(asyncio.create_task(next_hands(fake, users, group, random.Random(rng.random()), think, stats)))
        await asyncio.sleep(warmup)
        token_limit = fake.faults.token_limit
        assert token_limit is not None
        first, turns0, t0, token0 = fake.mark(), discards(db), time.monotonic(), token_limit.refused
        cpu0, own0 = cpu_seconds(proc.pid), time.process_time()
        sql0 = await asyncio.to_thread(bot_metrics, metrics_port)
        stats.measuring = True
        await asyncio.sleep(seconds)
        stats.measuring = False
        last, turns1, elapsed = fake.mark(), discards(db), time.monotonic() - t0
        bot_cpu, world_cpu = cpu_seconds(proc.pid) - cpu0, time.process_time() - own0
        sql1 = await asyncio.to_thread(bot_metrics, metrics_port)
        token_429 = token_limit.refused - token0
    finally:
        stats.stopped = True
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=90)
        if proc.returncode is None:
            proc.terminate()
            try:
                await asyncio.wait_for(proc.wait(), 20)
            except TimeoutError:
                proc.kill()
                await proc.wait()
        await server.close()
        await session.close()
        shutil.rmtree(workdir, ignore_errors=True)
    counts = window(fake, first, last)
    turns = turns1 - turns0
    handled = max(1.0, sql1.get("presses", 0) - sql0.get("presses", 0))
    per_press = {f"{k}/press": (v - sql0.get(k, 0)) / handled for k, v in sql1.items() if k.startswith("sql:")}
    return {
        "tables": tables, "web share": web_share, "seconds": elapsed, "setup": setup, "turns": turns,
        "turns/s": turns / elapsed,
        "writes/turn": counts["writes"] / turns if turns else float("nan"), "writes/s": counts["writes"] / elapsed,
        "group writes/turn": counts["group writes"] / turns if turns else float("nan"),
        "limited/s": counts["limited"] / elapsed, "429": counts["429"], "429 token": token_429,
        "KiB/turn": counts["bytes"] / 1024 / max(1, turns), "bot cpu": bot_cpu / elapsed,
        "bot ms/turn": bot_cpu * 1000 / max(1, turns), "world cpu": world_cpu / elapsed,
        "decide cpu": stats.decide_cpu / elapsed,
        **{f"{k}/turn": (v - sql0.get(k, 0)) / max(1, turns) for k, v in sql1.items() if k.startswith("sql:")},
        "presses": stats.presses, "refused": stats.refused, "no update": stats.no_update,
        "answer p50": pct(stats.answer_ms, 0.5), "answer p95": pct(stats.answer_ms, 0.95),
        "answer p99": pct(stats.answer_ms, 0.99),
        "update p50": pct(stats.update_ms, 0.5), "update p95": pct(stats.update_ms, 0.95),
        "update p99": pct(stats.update_ms, 0.99),
        **{f"paced {p} p95": paced_p95(sql0, sql1, p) for p in ("own", "announce", "background")},
        **{k: v / max(1, turns) for k, v in counts.items() if k.startswith("w:")},
        **per_press,
    }  # fmt: skip


def report(row: dict[str, float]) -> str:
    """One load's figures on one line."""
    return (
        f"{row['tables']:>3.0f} tables ({row['web share']:.0%} on the page): {row['turns/s']:5.2f} turns/s "
        f"({row['turns']:.0f} in {row['seconds']:.0f} s), "
        f"{row['writes/turn']:.2f} writes/turn ({row['group writes/turn']:.2f} in groups), "
        f"{row['writes/s']:5.1f} writes/s, {row['limited/s']:5.1f} token-limited "
        f"calls/s, {row['429']:.0f}x429 ({row['429 token']:.0f} token, the rest group), "
        f"{row['KiB/turn']:.0f} KiB/turn; press->answer p50 {row['answer p50']:.0f} "
        f"p95 {row['answer p95']:.0f} p99 {row['answer p99']:.0f} ms; press->own hand or screen p50 "
        f"{row['update p50']:.0f} p95 {row['update p95']:.0f} p99 {row['update p99']:.0f} ms "
        f"({row['presses']:.0f} presses, {row['refused']:.0f} refused, {row['no update']:.0f} without update; "
        f"setup {row['setup']:.0f} s); bot CPU {row['bot cpu']:.2f} cores ({row['bot ms/turn']:.1f} ms/turn), "
        f"fake+players {row['world cpu']:.2f} cores (the players' choices {row['decide cpu']:.2f}); "
        f"load average {os.getloadavg()[0]:.1f}\n"
        "      waits in the bot's pacer, p95 (histogram bucket): "
        + ", ".join(f"{p} ≤ {row[f'paced {p} p95']:g} s" for p in ("own", "announce", "background"))
        + "\n"
        f"      SQL statements per press handled (all the bot's statements: presses, deadlines, deals): "
        f"{row.get('sql:select/press', float('nan')):.2f} SELECT, {row.get('sql:write/press', float('nan')):.2f} "
        f"INSERT/UPDATE/DELETE, {row.get('sql:other/press', float('nan')):.2f} other (BEGIN, COMMIT); per turn "
        f"{row.get('sql:select/turn', float('nan')):.1f} / {row.get('sql:write/turn', float('nan')):.1f} / "
        f"{row.get('sql:other/turn', float('nan')):.1f} (a press on the page is no chat press: see per turn)\n"
        "      writes/turn by kind: "
        + ", ".join(f"{k[2:]} {v:.2f}" for k, v in sorted(row.items(), key=lambda kv: -kv[1]) if k.startswith("w:"))
    )


async def main(
    loads: list[int],
    seconds: float,
    warmup: float,
    think: float,
    seed: int,
    model: str,
    slow: float,
    web_share: float = 0.0,
) -> None:
    """Run each load in turn and print its line."""
    print(f"{model} players, think {think} s per decision ({slow:.0%} take 10-20 s), warmup {warmup:.0f} s, "
          f"measured {seconds:.0f} s per load, {web_share:.0%} of the players on the page; "
          f"the bot on CPUs {sorted(BOT_CPUS) if BOT_CPUS else 'any'}, the fake Telegram and the players on "
          f"CPUs {sorted(os.sched_getaffinity(0))}", flush=True)  # fmt: skip
    for tables in loads:
        print(report(await run(tables, seconds, warmup, think, seed, model, slow, web_share)), flush=True)


if __name__ == "__main__":
    os.environ.setdefault("NO_PROXY", "127.0.0.1,localhost")
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", default="10,20,40", help="table counts to run, comma-separated")
    parser.add_argument("--seconds", type=float, default=60.0, help="measured seconds per load")
    parser.add_argument("--warmup", type=float, default=20.0, help="seconds of play before measuring")
    parser.add_argument("--think", type=float, default=3.0, help="mean seconds a player thinks before pressing")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--slow", type=float, default=0.0, help="share of decisions taking 10-20 s")
    parser.add_argument("--table-edit-seconds", default=PRODUCTION["KWX_TABLE_EDIT_SECONDS"],
                        help="KWX_TABLE_EDIT_SECONDS of the bot (the live table's edit interval)")  # fmt: skip
    parser.add_argument("--players", choices=("realistic", "random"), default="realistic",
                        help="what players press: the AI's choice, or any game button at random")  # fmt: skip
    parser.add_argument("--web-share", type=float, default=0.0,
                        help="share of the players on the Mini App's page (0..1; the rest in the chat)")  # fmt: skip
    parser.add_argument("--bot-cpus", default="",
                        help="pin the bot (with its render worker) to these CPUs, e.g. 0 (default: any)")  # fmt: skip
    parser.add_argument("--client-cpus", default="",
                        help="pin this process (the fake Telegram and the players) to these CPUs, e.g. 1")  # fmt: skip
    args = parser.parse_args()
    BOT_CPUS = parse_cpus(args.bot_cpus)
    client_cpus = parse_cpus(args.client_cpus)
    if client_cpus is not None:
        os.sched_setaffinity(0, client_cpus)  # before any thread: asyncio.to_thread's workers inherit it
    PRODUCTION["KWX_TABLE_EDIT_SECONDS"] = str(args.table_edit_seconds)
    loads = [int(t) for t in args.tables.split(",")]
    asyncio.run(main(loads, args.seconds, args.warmup, args.think, args.seed, args.players, args.slow, args.web_share))
