"""The bot as its own process (``python -m kwx_bot run``) against the fake Bot API over HTTP: SIGTERM
in the middle of a flood stops it within 5 s, and after the next start the hand finishes with
nothing lost."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys
import time
from collections.abc import Sequence

import pytest

from fakebot import MESSAGE_WRITE_METHODS, FakeBotAPI, FakeBotServer, FakeChat, FakeUser
from kwx_bot.edge.codec import decode

from .harness import GAME_OPS

TOKEN = ":".join(["4242", "kwx-process-test-" + "t" * 20])
"""``kwx-bot run`` checks the token's shape as @BotFather prints it (built here, not a literal)."""


async def _start(fake: FakeBotAPI, server: FakeBotServer, db: str) -> asyncio.subprocess.Process:
    env = dict(os.environ)
    env.update(
        TELEGRAM_BOT_TOKEN=fake.token, TELEGRAM_API_BASE_URL=server.url, KWX_DB_PATH=db, KWX_RENDER_PROCESSES="0",
        KWX_DISCARD_SECONDS="0", KWX_CLAIM_SECONDS="0", KWX_REMIND_SECONDS="0", KWX_TABLE_EDIT_SECONDS="1",
        KWX_DEFAULT_LANGUAGE="en", NO_PROXY="127.0.0.1,localhost", no_proxy="127.0.0.1,localhost",
    )  # fmt: skip
    starts = fake.count_calls("deleteWebhook")  # run_polling's first call once it is up
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "kwx_bot", "run", env=env, stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    await fake.wait_for(lambda: fake.count_calls("deleteWebhook") > starts or proc.returncode is not None, 30)
    assert proc.returncode is None
    return proc


def _hand_message(fake: FakeBotAPI, user: FakeUser):
    photos = [m for m in fake.bot_messages(fake.private_chat(user)) if m.photo is not None]
    return photos[-1] if photos else None


def _buttons(fake: FakeBotAPI, user: FakeUser) -> list[str]:
    msg = _hand_message(fake, user)
    if msg is None:
        return []
    data = [b.callback_data for b in msg.iter_buttons() if b.callback_data]
    return [d for d in data if decode(d).op.value in GAME_OPS]


async def _press(fake: FakeBotAPI, user: FakeUser, message, label=None, *, data=None):
    query = fake.press(user, message, label, data=data)
    await fake.wait_for_answer(query, timeout=15)
    await fake.wait_idle(quiet=0.3, timeout=20)
    return query


async def _play_to_the_end(fake: FakeBotAPI, users: Sequence[FakeUser], group: FakeChat, rng: random.Random) -> None:
    for _ in range(400):
        if any("Points:" in m.content for m in fake.bot_messages(group)):
            return
        movers = [(u, bs) for u in users if (bs := _buttons(fake, u))]
        if not movers:
            await fake.wait_idle(quiet=0.5, timeout=20)
            continue
        user, buttons = rng.choice(movers)
        await _press(fake, user, _hand_message(fake, user), data=rng.choice(buttons))
    raise AssertionError("the hand did not end")


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
    proc = await _start(fake, fakebot_server, db)
    try:
        for u in users:
            fake.start_bot(u)
        fake.user_command(ann, group, "new")
        await fake.wait_for(lambda: any("Join" in m.button_texts for m in fake.bot_messages(group)), 20)
        lobby = fake.bot_messages(group)[-1]
        for u in users[1:]:
            await _press(fake, u, fake.message(group, lobby.message_id), "Join")
        await _press(fake, ann, fake.message(group, lobby.message_id), "Start")
        await fake.wait_for(lambda: all(_hand_message(fake, u) is not None for u in users), 20)
        mover = next(u for u in users if _buttons(fake, u))
        # Telegram floods every write for a long time; the mover discards (committed to the database)
        # and the bot waits out the flood while showing it
        fake.faults.flood(methods=MESSAGE_WRITE_METHODS, retry_after=60, times=None)
        discard = next(d for d in _buttons(fake, mover) if decode(d).op.value == "d")
        query = fake.press(mover, _hand_message(fake, mover), data=discard)
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
    proc = await _start(fake, fakebot_server, db)
    try:
        # the discard made before the stop is shown after the start, and the hand plays to its end
        await fake.wait_idle(quiet=0.5, timeout=20)
        assert not _buttons(fake, mover) or decode(_buttons(fake, mover)[0]).op.value != "d"
        await _play_to_the_end(fake, users, group, random.Random(7))
        result = [m for m in fake.bot_messages(group) if "Points:" in m.content]
        assert len(result) == 1
    finally:
        proc.send_signal(signal.SIGTERM)
        await asyncio.wait_for(proc.wait(), 10)
    assert proc.returncode == 0
