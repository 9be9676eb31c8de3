"""The bot as its own process (``python -m kwx_bot run``) against the fake Bot API over HTTP: SIGTERM
in the middle of a flood stops it within 5 s, and after the next start the hand finishes with
nothing lost."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time
from pathlib import Path

import pytest

from fakebot import MESSAGE_WRITE_METHODS, FakeBotAPI, FakeBotServer
from kwx_bot.edge.codec import decode
from tests.pgserver import drop_database, fresh_database

from .process import TOKEN, game_buttons, hand_message, open_table, play_to_the_end, press, start_bot, stop_bot

FAST_PICTURES = {"KWX_PICTURE_FORMAT": "jpeg"}
"""A whole hand drawn for real: JPEG encodes in a quarter of the palette PNG's time (the pictures'
format is no part of what a stop and a restart are tested for)."""


@pytest.mark.slow
@pytest.mark.fakebot(token=TOKEN)
async def test_sigterm_in_a_flood_stops_within_5_seconds_and_the_hand_finishes_after_a_restart(
    fakebot: FakeBotAPI, fakebot_server: FakeBotServer, tmp_path
):
    fake = fakebot
    users = [fake.create_user(n, language_code="en") for n in ("Ann", "Ben", "Cat")]
    ann = users[0]
    group = fake.create_group("Mahjong night", members=users)
    db = str(tmp_path / "kwx.sqlite3")
    proc = await start_bot(fake, fakebot_server, db, **FAST_PICTURES)
    try:
        for u in users:
            fake.start_bot(u)
        fake.user_command(ann, group, "new")
        await fake.wait_for(lambda: any("Join" in m.button_texts for m in fake.bot_messages(group)), 20)
        lobby = fake.bot_messages(group)[-1]
        for u in users[1:]:
            await press(fake, u, fake.message(group, lobby.message_id), "Join")
        await press(fake, ann, fake.message(group, lobby.message_id), "Start")
        await fake.wait_for(lambda: all(hand_message(fake, u) is not None for u in users), 20)
        mover = next(u for u in users if game_buttons(fake, u))
        # Telegram floods every write for a long time; the mover discards (committed to the database)
        # and the bot waits out the flood while showing it
        fake.faults.flood(methods=MESSAGE_WRITE_METHODS, retry_after=60, times=None)
        discard = next(d for d in game_buttons(fake, mover) if decode(d).op.value == "d")
        query = fake.press(mover, hand_message(fake, mover), data=discard)
        # answered (the discard is committed) before the stop, not merely a flooded write seen: the
        # deal's own live-table edit may be the first write the flood refuses
        await fake.wait_for_answer(query, timeout=15)
        await fake.wait_for(lambda: fake.count_calls(MESSAGE_WRITE_METHODS, ok=False) > 0, 20)
        started = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        await asyncio.wait_for(proc.wait(), 10)
        stopped_in = time.monotonic() - started
        stderr = (await proc.stderr.read()).decode()
        assert stopped_in < 5.0, (stopped_in, stderr[-2000:])
        assert proc.returncode == 0, stderr[-2000:]
        assert "Traceback" not in stderr and " ERROR " not in stderr, stderr[-2000:]
        assert query.answered  # the press was answered before the flood began (answers are never flooded)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    fake.faults.clear()
    proc = await start_bot(fake, fakebot_server, db, **FAST_PICTURES)
    try:
        # the discard made before the stop is shown after the start, and the hand plays to its end
        # (waited for, not read after a quiet spell: a loaded machine can draw for longer than one)
        await fake.wait_for(
            lambda: not game_buttons(fake, mover) or decode(game_buttons(fake, mover)[0]).op.value != "d", 30
        )
        await fake.wait_idle(quiet=0.5, timeout=20)
        assert not game_buttons(fake, mover) or decode(game_buttons(fake, mover)[0]).op.value != "d"
        await play_to_the_end(fake, users, group, random.Random(7))
        result = [m for m in fake.bot_messages(group) if "Points:" in m.content]
        assert len(result) == 1
    finally:
        proc.send_signal(signal.SIGTERM)
        await asyncio.wait_for(proc.wait(), 10)
    assert proc.returncode == 0


def _children(pid: int) -> list[int]:
    """The pids of ``pid``'s child processes (Linux ``/proc``)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone meanwhile
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


@pytest.mark.fakebot(token=TOKEN)
async def test_sigterm_to_the_process_group_stops_the_render_worker_quietly(
    fakebot: FakeBotAPI, fakebot_server: FakeBotServer, tmp_path
):
    """Ctrl-C and systemd signal the whole process group: the render worker gets SIGTERM too, while
    pictures are being drawn; the stop is clean (status 0, no ERROR, no traceback, no worker left)."""
    fake = fakebot
    users = [fake.create_user(n, language_code="en") for n in ("Ann", "Ben", "Cat")]
    group = fake.create_group("Mahjong night", members=users)
    proc = await start_bot(
        fake, fakebot_server, str(tmp_path / "kwx.sqlite3"), own_group=True, KWX_RENDER_PROCESSES="1"
    )
    try:
        await open_table(fake, users, group)  # the worker has drawn the hands and the table
        workers = [p for p in _children(proc.pid) if "spawn" in Path(f"/proc/{p}/cmdline").read_text()]
        assert workers, "no render worker process"
        mover = next(u for u in users if game_buttons(fake, u))
        discard = next(d for d in game_buttons(fake, mover) if decode(d).op.value == "d")
        query = fake.press(mover, hand_message(fake, mover), data=discard)
        await fake.wait_for_answer(query, timeout=15)  # the discard's pictures are being drawn now
        os.killpg(proc.pid, signal.SIGTERM)
        await asyncio.wait_for(proc.wait(), 10)
        stderr = (await proc.stderr.read()).decode() if proc.stderr else ""
    finally:
        if proc.returncode is None:
            os.killpg(proc.pid, signal.SIGKILL)
            await proc.wait()
    assert proc.returncode == 0, stderr[-2000:]
    assert " ERROR " not in stderr and "Traceback" not in stderr, stderr[-2000:]
    await fake.wait_for(lambda: not any(Path(f"/proc/{p}").exists() for p in workers), 10)


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
@pytest.mark.fakebot(token=TOKEN)
async def test_a_second_process_of_the_bot_refuses_to_start_and_a_killed_one_blocks_nothing(
    fakebot: FakeBotAPI, fakebot_server: FakeBotServer, tmp_path, request: pytest.FixtureRequest, backend: str
):
    """One process per bot and database (docs/security.md §6): a second ``kwx-bot run`` of the same
    token on the same database exits with status 1 and one line before it polls or touches a
    table, the first runs on undisturbed; after the first is killed with SIGKILL the bot starts."""
    fake = fakebot
    db = str(tmp_path / "kwx.sqlite3")
    env: dict[str, str] = {}
    if backend == "postgres":
        server = request.getfixturevalue("postgres_server")
        name, env["KWX_DATABASE_URL"] = await fresh_database(server)
        request.addfinalizer(lambda: asyncio.run(drop_database(server, name)))
    first = await start_bot(fake, fakebot_server, db, **env)
    try:
        mark = fake.mark()
        with pytest.raises(AssertionError, match="the bot exited with 1: ") as exited:
            await start_bot(fake, fakebot_server, db, **env)
        [line] = str(exited.value).split(": ", 1)[1].strip().splitlines()
        where = "the PostgreSQL database at postgresql://" if backend == "postgres" else db
        assert line.startswith(f"kwx-bot: bot 4242 is already running on {where}"), line
        assert "stop it first" in line
        assert [c.method for c in fake.calls if c.seq >= mark and c.method != "getMe"] == []  # it never polled
    finally:
        first.kill()
        await first.wait()
    stderr = (await first.stderr.read()).decode() if first.stderr else ""
    assert "Conflict" not in stderr and " ERROR " not in stderr, stderr[-2000:]
    again = await start_bot(fake, fakebot_server, db, **env)  # the killed process's lock is gone
    try:
        ann = fake.create_user("Ann", language_code="en")
        fake.start_bot(ann)
        await fake.wait_for(lambda: bool(fake.bot_messages(fake.private_chat(ann))), 20)  # it serves
    finally:
        stderr = await stop_bot(again)
    assert again.returncode == 0, stderr[-2000:]
