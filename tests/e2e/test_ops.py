"""Operations, with the bot as its own process against the fake Bot API over HTTP: webhook mode (the
fake delivers every update to the bot's webhook with the secret header; a request without the right
secret is refused with 403 and changes nothing; a hand is played to its end), the liveness endpoint
(200 while getUpdates succeed, 503 once they stop, 200 again after) and the Prometheus metrics."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from fakebot import FakeBotAPI, FakeBotServer

from .process import TOKEN, free_port, http_get, open_table, play_to_the_end, start_bot, stop_bot

PUBLIC = "https://kwx.example"
SECRET = "wh-secret_" + "s" * 22


def _forged_command(fake: FakeBotAPI, user_id: int, chat_id: int, update_id: int) -> dict:
    """A ``/new`` update as Telegram would post it (a forger knows the format, not the secret)."""
    text = f"/new@{fake.bot.username}"
    return {
        "update_id": update_id,
        "message": {
            "message_id": 9999, "date": int(time.time()), "text": text,
            "chat": {"id": chat_id, "type": "group", "title": "Mahjong night"},
            "from": {"id": user_id, "is_bot": False, "first_name": "Mallory"},
            "entities": [{"type": "bot_command", "offset": 0, "length": len(text)}],
        },
    }  # fmt: skip


async def _start_in_webhook_mode(
    fake: FakeBotAPI, server: FakeBotServer, tmp_path, port: int, **env: str
) -> asyncio.subprocess.Process:
    """``kwx-bot run`` with its webhook server on ``port`` behind the fake's stand-in reverse proxy;
    returns once Telegram (the fake) was told the webhook."""
    fake.webhook_routes[PUBLIC] = f"http://127.0.0.1:{port}"  # the reverse proxy: TLS ends there
    return await start_bot(
        fake, server, str(tmp_path / "kwx.sqlite3"), started=lambda: fake.webhook is not None,
        KWX_WEBHOOK_URL=f"{PUBLIC}/kwx/hook", KWX_WEBHOOK_PORT=str(port), KWX_WEBHOOK_SECRET=SECRET, **env,
    )  # fmt: skip


@pytest.mark.slow
@pytest.mark.fakebot(token=TOKEN)
async def test_webhook_mode_refuses_a_wrong_secret_and_plays_a_hand(
    fakebot: FakeBotAPI, fakebot_server: FakeBotServer, tmp_path
):
    fake = fakebot
    users = [fake.create_user(n, language_code="en") for n in ("Ann", "Ben", "Cat")]
    group = fake.create_group("Mahjong night", members=users)
    port, health = free_port(), free_port()
    proc = await _start_in_webhook_mode(fake, fakebot_server, tmp_path, port, KWX_HEALTH_PORT=str(health))
    try:
        [call] = fake.calls_to("setWebhook")
        assert call.param("url") == f"{PUBLIC}/kwx/hook" and call.param("secret_token") == SECRET
        assert fake.count_calls("deleteWebhook") == 0  # run_polling's start; the webhook stays set
        await fake.wait_idle(quiet=0.3, timeout=20)
        mark = fake.mark()
        hook = f"http://127.0.0.1:{port}/kwx/hook"
        async with aiohttp.ClientSession() as session:
            for n, headers in enumerate(({}, {"X-Telegram-Bot-Api-Secret-Token": "not-" + SECRET}), start=1):
                update = _forged_command(fake, users[0].id, group.id, 10_000 + n)
                async with session.post(hook, json=update, headers=headers) as response:
                    assert response.status == 403
        await fake.wait_idle(quiet=0.5, timeout=20)
        assert [c for c in fake.calls if c.seq >= mark] == []  # the bot did nothing about them
        assert fake.bot_messages(group) == []  # no lobby was opened
        # every real update arrives through the webhook (getUpdates would answer 409)
        await open_table(fake, users, group)
        await play_to_the_end(fake, users, group, random.Random(5))
        assert len([m for m in fake.bot_messages(group) if "Points:" in m.content]) == 1
        assert fake.webhook is not None and fake.webhook.delivered == len(fake.update_log)
        assert fake.poll_count == 0
        # nothing to poll in webhook mode: a quiet bot is alive
        assert await http_get(f"http://127.0.0.1:{health}/healthz") == (200, "ok\n")
        started = time.monotonic()
    finally:
        stderr = await stop_bot(proc)
    assert time.monotonic() - started < 5  # SIGTERM stops the webhook server as it stops polling
    assert proc.returncode == 0, stderr[-2000:]
    assert "Traceback" not in stderr and " ERROR " not in stderr, stderr[-2000:]
    assert SECRET not in stderr


def _samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def _counted_the_start(values: dict[tuple[str, tuple[tuple[str, str], ...]], float]) -> bool:
    """The metrics count the lobby's three presses, the deal's pictures (three hands and the table)
    and its commits."""
    return (
        values.get(("kwx_presses_total", ()), 0) >= 3
        and values.get(("kwx_render_seconds_count", ()), 0) >= 4
        and values.get(("kwx_commit_seconds_count", ()), 0) >= 3
    )


async def _metrics_when(
    url: str, ready: Callable[[dict[tuple[str, tuple[tuple[str, str], ...]], float]], bool], timeout: float
) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """The samples of the metrics page at ``url`` once ``ready`` holds for them (or, after
    ``timeout`` seconds, as they are then: the caller's assertions say what is missing)."""
    deadline = time.monotonic() + timeout
    while True:
        status, text = await http_get(url)
        assert status == 200
        values = _samples(text)
        if ready(values) or time.monotonic() > deadline:
            return values
        await asyncio.sleep(0.1)  # asking again: the bot counts in its own process


@pytest.mark.slow
@pytest.mark.fakebot(token=TOKEN)
async def test_health_flips_to_503_when_polls_stop_and_back_and_metrics_count_the_presses(
    fakebot: FakeBotAPI, fakebot_server: FakeBotServer, tmp_path
):
    fake = fakebot
    users = [fake.create_user(n, language_code="en") for n in ("Ann", "Ben", "Cat")]
    group = fake.create_group("Mahjong night", members=users)
    health, metrics = free_port(), free_port()
    proc = await start_bot(
        fake, fakebot_server, str(tmp_path / "kwx.sqlite3"),
        KWX_HEALTH_PORT=str(health), KWX_HEALTH_STALL_SECONDS="2", KWX_METRICS_PORT=str(metrics),
    )  # fmt: skip
    healthz = f"http://127.0.0.1:{health}/healthz"
    try:
        assert await http_get(healthz) == (200, "ok\n")
        await open_table(fake, users, group)  # 2 joins + start: 3 presses
        # a press is counted when its handler returns, after the answer; the pictures are drawn by
        # its follow-up in the background: wait until everything counted below has happened
        values = await _metrics_when(f"http://127.0.0.1:{metrics}/metrics", _counted_the_start, timeout=30)
        assert values[("kwx_presses_total", ())] == 3
        assert values[("kwx_updates_total", ())] >= 3 + 3 + 1  # presses, /start x3, /new
        assert values[("kwx_sends_total", (("outcome", "ok"),))] >= 5
        assert values[("kwx_sends_total", (("outcome", "429"),))] == 0
        assert values[("kwx_render_seconds_count", ())] >= 4  # three hands and the table
        assert values[("kwx_render_seconds_sum", ())] > 0
        assert values[("kwx_commit_seconds_count", ())] >= 3
        assert values[("kwx_live_tables", ())] == 1
        statements = {k: values[("kwx_sql_statements_total", (("kind", k),))] for k in ("select", "write", "other")}
        assert statements["write"] >= 3 and statements["select"] >= 3 and statements["other"] >= 6, statements
        # Telegram stops answering getUpdates (429 for every poll): the loop stalls, the health fails
        before = time.monotonic()  # the last successful poll ends after this
        fake.faults.flood(methods="getUpdates", retry_after=1, times=None)
        fake.start_bot(users[0])  # ends the long poll in flight; the next ones get 429
        await fake.wait_for(lambda: not fake.pending_updates, 10)
        polls = fake.poll_count
        status, body = await http_get(healthz)
        while status == 200 and time.monotonic() - before < 30:
            await asyncio.sleep(0.2)  # asking again: the condition is the bot's own clock passing 2 s
            status, body = await http_get(healthz)
        # never before 2 s of silence (a loaded machine may flip it later, never sooner)
        assert time.monotonic() - before >= 2
        assert status == 503 and body.startswith("stalled: no successful getUpdates for "), body
        assert int(body.removeprefix("stalled: no successful getUpdates for ").split()[0]) >= 2, body
        assert fake.poll_count == polls  # no poll got through
        # Telegram answers again: the next poll succeeds and the health is back
        fake.faults.clear()
        fake.start_bot(users[1])  # an update for the next poll: it succeeds at once, not when its long poll times out
        await fake.wait_for(lambda: fake.poll_count > polls, 15)
        assert await http_get(healthz) == (200, "ok\n")
    finally:
        stderr = await stop_bot(proc)
    assert proc.returncode == 0, stderr[-2000:]
    assert "Traceback" not in stderr, stderr[-2000:]


@pytest.mark.fakebot(token=TOKEN)
async def test_a_taken_health_port_is_one_line_and_exit_status_1(
    fakebot: FakeBotAPI, fakebot_server: FakeBotServer, tmp_path
):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {"KWX_HEALTH_PORT": str(port)}
        with pytest.raises(AssertionError, match="the bot exited with 1") as exited:
            await start_bot(fakebot, fakebot_server, str(tmp_path / "kwx.sqlite3"), **env)
    lines = [line for line in str(exited.value).split(": ", 1)[1].splitlines() if line.startswith("kwx-bot:")]
    assert len(lines) == 1 and lines[0].startswith("kwx-bot: cannot listen:"), str(exited.value)
    assert "Traceback" not in str(exited.value)


@pytest.mark.fakebot(token=TOKEN)
async def test_the_webhook_secret_never_reaches_the_debug_log(
    fakebot: FakeBotAPI, fakebot_server: FakeBotServer, tmp_path
):
    """At DEBUG PTB logs the parameters of ``setWebhook``, the secret among them: it is redacted."""
    fake = fakebot
    port = free_port()
    proc = await _start_in_webhook_mode(fake, fakebot_server, tmp_path, port, KWX_LOG_LEVEL="DEBUG")
    try:
        [call] = fake.calls_to("setWebhook")
        assert call.param("secret_token") == SECRET  # Telegram was told the secret
        await fake.wait_idle(quiet=0.3, timeout=20)
    finally:
        stderr = await stop_bot(proc)
    assert proc.returncode == 0, stderr[-2000:]
    [line] = [line for line in stderr.splitlines() if "setWebhook" in line and "secret_token" in line]
    assert "<webhook-secret>" in line and SECRET not in line
    assert SECRET not in stderr


def _rss(pid: int) -> int:
    """The resident memory of process ``pid`` in bytes (``VmRSS`` of ``/proc/<pid>/status``)."""
    with open(f"/proc/{pid}/status") as f:
        return int(next(line for line in f if line.startswith("VmRSS:")).split()[1]) * 1024


async def _post(port: int, headers: dict[str, str], body: bytes) -> int | None:
    """POST /kwx/hook sending ``body`` (nothing more, whatever ``Content-Length`` says); the answer's
    status, read as soon as it comes (None: the server closed the connection without one)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    head = "POST /kwx/hook HTTP/1.1\r\nHost: kwx\r\nContent-Type: application/json\r\n"
    writer.write((head + "".join(f"{k}: {v}\r\n" for k, v in headers.items()) + "\r\n").encode())
    try:
        writer.write(body)
        await writer.drain()
    except ConnectionError:
        pass  # answered and closed before the whole body was sent
    try:
        line = await asyncio.wait_for(reader.readline(), 10)
        return int(line.split()[1]) if line else None
    except ConnectionError:
        return None
    finally:
        writer.close()


@pytest.mark.fakebot(token=TOKEN)
async def test_the_webhook_refuses_a_wrong_secret_or_a_huge_body_without_reading_it(
    fakebot: FakeBotAPI, fakebot_server: FakeBotServer, tmp_path
):
    """The door in front of PTB's webhook handler answers from the headers: a wrong secret 403 and a
    ``Content-Length`` over 1 MiB 413 while the client has sent (almost) none of the body, and four
    32 MiB bodies posted at once with a wrong secret do not make the bot hold them."""
    fake = fakebot
    port = free_port()
    proc = await _start_in_webhook_mode(fake, fakebot_server, tmp_path, port)
    try:
        await fake.wait_idle(quiet=0.3, timeout=20)
        huge = str(99 * 1024 * 1024)
        wrong = {"X-Telegram-Bot-Api-Secret-Token": "not-" + SECRET}
        assert await _post(port, {**wrong, "Content-Length": huge}, b"{" * 1024) == 403
        assert await _post(port, {"Content-Length": huge}, b"") == 403
        right = {"X-Telegram-Bot-Api-Secret-Token": SECRET}
        assert await _post(port, {**right, "Content-Length": str((1 << 20) + 1)}, b"") == 413
        before = _rss(proc.pid)
        body = b" " * (32 << 20)
        statuses = await asyncio.gather(
            *(_post(port, {**wrong, "Content-Length": str(len(body))}, body) for _ in range(4))
        )
        assert set(statuses) <= {403, None}, statuses
        grown = _rss(proc.pid) - before
        assert grown < 16 << 20, f"the bot grew by {grown >> 20} MiB"
        mark = fake.mark()
        await fake.wait_idle(quiet=0.3, timeout=20)
        assert [c for c in fake.calls if c.seq >= mark] == []  # the bot did nothing about them
    finally:
        stderr = await stop_bot(proc)
    assert proc.returncode == 0, stderr[-2000:]
    assert "Traceback" not in stderr and " ERROR " not in stderr, stderr[-2000:]
