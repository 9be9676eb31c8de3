"""The bot as its own process (``python -m kwx_bot run``) against the fake Bot API over HTTP: starting
it with the test environment, acting as players, reading its ops endpoints.  Used by
``test_process.py`` (polling, signals) and ``test_ops.py`` (webhook mode, health, metrics)."""

from __future__ import annotations

import asyncio
import os
import random
import socket
import sys
from collections.abc import Callable, Sequence

import aiohttp

from fakebot import FakeBotAPI, FakeBotServer, FakeChat, FakeMessage, FakeUser, WaitTimeout
from fakebot.model import CallbackQueryRecord
from kwx_bot.edge.codec import decode

from .harness import GAME_OPS

TOKEN = ":".join(["4242", "kwx-process-test-" + "t" * 20])
"""``kwx-bot run`` checks the token's shape as @BotFather prints it (built here, not a literal)."""


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def start_bot(
    fake: FakeBotAPI,
    server: FakeBotServer,
    db: str,
    *,
    started: Callable[[], bool] | None = None,
    own_group: bool = False,
    **extra_env: str,
) -> asyncio.subprocess.Process:
    """Start ``python -m kwx_bot run`` on ``db`` (deadlines and reminders off, English) with
    ``extra_env``; wait until ``started()`` (default: it called ``deleteWebhook``, run_polling's first
    call once it is up).  ``own_group``: in a process group of its own (its id is the bot's pid), so
    a test can signal the bot and its render workers together as Ctrl-C and systemd do."""
    env = dict(os.environ)
    env.update(
        TELEGRAM_BOT_TOKEN=fake.token, TELEGRAM_API_BASE_URL=server.url, KWX_DB_PATH=db, KWX_RENDER_PROCESSES="0",
        KWX_DISCARD_SECONDS="0", KWX_CLAIM_SECONDS="0", KWX_BANK_SECONDS="0", KWX_REMIND_SECONDS="0",
        KWX_TABLE_EDIT_SECONDS="1",
        KWX_DEFAULT_LANGUAGE="en", NO_PROXY="127.0.0.1,localhost", no_proxy="127.0.0.1,localhost",
    )  # fmt: skip
    env.update(extra_env)
    if started is None:
        starts = fake.count_calls("deleteWebhook")

        def started() -> bool:
            return fake.count_calls("deleteWebhook") > starts

    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "kwx_bot", "run", env=env, stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE, start_new_session=own_group,
    )  # fmt: skip
    await fake.wait_for(lambda: started() or proc.returncode is not None, 30)
    if proc.returncode is not None:
        stderr = (await proc.stderr.read()).decode() if proc.stderr else ""
        raise AssertionError(f"the bot exited with {proc.returncode}: {stderr[-2000:]}")
    return proc


async def stop_bot(proc: asyncio.subprocess.Process) -> str:
    """SIGTERM (or kill, if it already hangs) and wait; returns what it wrote on stderr."""
    if proc.returncode is None:
        proc.terminate()
        try:
            await asyncio.wait_for(proc.wait(), 10)
        except TimeoutError:
            proc.kill()
            await proc.wait()
    return (await proc.stderr.read()).decode() if proc.stderr else ""


async def http_get(url: str) -> tuple[int, str]:
    """``GET url``: status and body text."""
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, await response.text()


def hand_message(fake: FakeBotAPI, user: FakeUser) -> FakeMessage | None:
    """The player's newest hand picture (None before the first deal)."""
    photos = [m for m in fake.bot_messages(fake.private_chat(user)) if m.photo is not None]
    return photos[-1] if photos else None


def game_buttons(fake: FakeBotAPI, user: FakeUser) -> list[str]:
    """Callback data of the game buttons under the player's hand."""
    msg = hand_message(fake, user)
    if msg is None:
        return []
    data = [b.callback_data for b in msg.iter_buttons() if b.callback_data]
    return [d for d in data if decode(d).op.value in GAME_OPS]


async def press(
    fake: FakeBotAPI, user: FakeUser, message: FakeMessage | None, label: str | None = None, *, data: str | None = None
) -> CallbackQueryRecord:
    """Press a button and wait for its answer and for the bot to go quiet."""
    assert message is not None
    query = fake.press(user, message, label, data=data)
    await fake.wait_for_answer(query, timeout=15)
    await fake.wait_idle(quiet=0.3, timeout=20)
    return query


async def open_table(fake: FakeBotAPI, users: Sequence[FakeUser], group: FakeChat) -> None:
    """Everyone starts the bot, the first player opens a lobby, the others join, the first starts;
    returns once every player has a hand."""
    for u in users:
        fake.start_bot(u)
    fake.user_command(users[0], group, "new")
    await fake.wait_for(lambda: any("Join" in m.button_texts for m in fake.bot_messages(group)), 20)
    lobby = fake.bot_messages(group)[-1]
    for u in users[1:]:
        await press(fake, u, fake.message(group, lobby.message_id), "Join")
    await press(fake, users[0], fake.message(group, lobby.message_id), "Start")
    await fake.wait_for(lambda: all(hand_message(fake, u) is not None for u in users), 20)


def _shown(fake: FakeBotAPI, users: Sequence[FakeUser], group: FakeChat) -> tuple[object, ...]:
    """What the players can act on now: each one's newest hand message and its game buttons, and
    whether the group shows the hand's result."""
    hands = [(m.message_id, tuple(game_buttons(fake, u))) if (m := hand_message(fake, u)) else None for u in users]
    return (*hands, any("Points:" in m.content for m in fake.bot_messages(group)))


def _one_position(fake: FakeBotAPI, users: Sequence[FakeUser], group: FakeChat) -> bool:
    """The hand messages show one moment of the hand: the result is out, or someone has game buttons
    and all of them carry the same seq (the bot made every one for the table's newest seq)."""
    if any("Points:" in m.content for m in fake.bot_messages(group)):
        return True
    seqs = {decode(d).seq for u in users for d in game_buttons(fake, u)}
    return len(seqs) == 1


def _newest(fake: FakeBotAPI, users: Sequence[FakeUser]) -> int:
    """The newest seq any game button shows (-1: none)."""
    return max((decode(d).seq for u in users for d in game_buttons(fake, u)), default=-1)


async def play_to_the_end(fake: FakeBotAPI, users: Sequence[FakeUser], group: FakeChat, rng: random.Random) -> None:
    """Random legal presses until the group shows the hand's result.  After each press's answer it
    waits for what the press changed to show — the hand messages changed and show one moment of the
    hand again (:func:`_one_position`), or buttons of a newer move came (a seat whose buttons only go
    may keep them while the token is busy, docs/architecture.md §4 "Delivery": only the newest move's
    buttons are pressed) — not for a quiet spell."""
    answers: list[str] = []
    for _ in range(400):
        if any("Points:" in m.content for m in fake.bot_messages(group)):
            return
        newest = _newest(fake, users)
        movers = [(u, bs) for u in users if (bs := [d for d in game_buttons(fake, u) if decode(d).seq == newest])]
        if not movers:
            answers.append("(no buttons)")
            await fake.wait_idle(quiet=0.5, timeout=20)
            continue
        user, buttons = rng.choice(movers)
        before = _shown(fake, users, group)
        query = fake.press(user, hand_message(fake, user), data=rng.choice(buttons))
        await fake.wait_for_answer(query, timeout=15)
        answers.append(f"{user.first_name} {query.data}: {query.answer.text if query.answer else None}")

        def shown(before: tuple[object, ...] = before, newest: int = newest) -> bool:
            if _shown(fake, users, group) == before:
                return False
            return _one_position(fake, users, group) or _newest(fake, users) > newest

        try:
            await fake.wait_for(shown, 15, message="the press to show")
        except WaitTimeout:  # the press changed nothing (it was answered as stale): look again
            await fake.wait_idle(quiet=0.3, timeout=20)
    raise AssertionError("the hand did not end; the last presses and answers:\n" + "\n".join(answers[-15:]))
