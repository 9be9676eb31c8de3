"""Run the real kwx Application against the fake Bot API and act as players.

:class:`Kwx` starts/stops the bot on one database — an SQLite file, or PostgreSQL with
``database_url`` — (so a test can restart it), creates the world (users who started the bot, a
group), and offers player actions that mirror what a person does in Telegram: find their hand
message, press a labelled button, read the group.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import random
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from telegram.ext import Application, ApplicationBuilder

from fakebot import CallbackQueryRecord, FakeBotAPI, FakeChat, FakeMessage, FakeUser, run_application
from kwx_bot.edge.app import build_application
from kwx_bot.edge.codec import Op, decode
from kwx_bot.edge.sender import Sender
from kwx_bot.service import TableService
from kwx_bot.settings import Settings
from tests.kwx_bot.service.fakes import TinyPictures

GAME_OPS = {"d", "l", "w", "p", "k", "c", "b", "x"}


@functools.cache
@dataclass
class Kwx:
    """The bot under test plus its fake world."""

    fake: FakeBotAPI
    builder: Callable[[], ApplicationBuilder]  # type: ignore[type-arg]
    db_path: Path
    pictures: Any = field(default_factory=TinyPictures)
    database_url: str | None = None
    """A ``postgresql://`` URL: the bot keeps its tables in PostgreSQL instead of ``db_path``."""
    table_edit_seconds: float = 0.0
    discard_seconds: float = 0.0
    claim_seconds: float = 0.0
    bank_seconds: float = 0.0
    """Each seat's time bank per hand (production: 60 s; none here, so a silent seat times out at
    ``discard_seconds`` / ``claim_seconds`` as before)."""
    lobby_idle_seconds: float = 600.0
    default_language: str = "en"
    remind_seconds: float = 0.0
    ai_level: str = "normal"
    """The operator's default AI level: ``normal`` keeps these tests quick (``strong`` searches about
    0.1 s a decision); tests of the level choose it."""
    admin_chat_id: int | None = None
    rate_limit: bool = False
    """Use the production rate limiter (pacing per group and overall)."""
    group_messages: int = 0
    group_window_seconds: float = 60.0
    """The group budget: ``group_messages`` writes per ``group_window_seconds`` (production: 20 per
    60 s).  Off (0) by default, like the rate limiter: tests play far faster than people do."""
    webapp_url: str | None = None
    """The Mini App's page URL (None: no Mini App); its server listens on 127.0.0.1:``webapp_port``."""
    webapp_port: int = 8444
    flood_sleep: Callable[[float], Any] | None = None
    """How the bot waits out a 429 (None: real time); see :meth:`wait_floods_on_fake_clock`."""
    app: Application | None = None  # type: ignore[type-arg]

    def wait_floods_on_fake_clock(self) -> None:
        """The bot's own flood retries wait on the fake's clock (instant): a ``retry_after`` penalty
        elapses because the clock jumps, and the bot still retries every refused call."""

        async def sleep(seconds: float) -> None:
            self.fake.clock.advance(seconds)
            await asyncio.sleep(0)

        self.flood_sleep = sleep

    @property
    def settings(self) -> Settings:
        return Settings(
            token=self.fake.token, db_path=self.db_path, database_url=self.database_url, rate_limit=self.rate_limit,
            table_edit_seconds=self.table_edit_seconds,
            discard_seconds=self.discard_seconds, claim_seconds=self.claim_seconds, bank_seconds=self.bank_seconds,
            lobby_idle_seconds=self.lobby_idle_seconds, default_language=self.default_language,
            remind_seconds=self.remind_seconds, admin_chat_id=self.admin_chat_id,
            group_messages=self.group_messages, group_window_seconds=self.group_window_seconds,
            webapp_url=self.webapp_url, webapp_port=self.webapp_port, ai_level=self.ai_level,
        )  # fmt: skip

    @property
    def service(self) -> TableService:
        assert self.app is not None
        return self.app.bot_data.service

    @property
    def sender(self) -> Sender:
        """The edge's sender (the service talks to it through its outbox)."""
        assert self.app is not None
        return self.app.bot_data.sender

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[TableService]:
        """The bot polling the fake for the duration of the block (restartable)."""
        self.fake.reopen() if self.fake.closed else None
        app = build_application(
            self.settings, builder=self.builder(), pictures=self.pictures, flood_sleep=self.flood_sleep
        )
        async with run_application(app):
            self.app = app
            try:
                yield self.service
            finally:
                await self.service.idle()
        self.app = None

    def busy(self) -> bool:
        """Updates queued, fetched but not yet confirmed (in flight over HTTP) or being handled, or
        background presentation pending."""
        if self.fake.updates:
            return True
        if self.app is None:
            return False
        if self.app.update_queue.qsize() or self.app.update_processor.current_concurrent_updates:
            return True
        service = self.service
        # coalesced live-table edits wait out table_edit_seconds: only wait for them when that is 0
        return bool(service._bg or (service.present.group.tasks and not self.table_edit_seconds))

    async def settle(self) -> None:
        """Wait until the bot processed everything (updates, background edits) and is quiet."""
        for _ in range(3):
            await self.fake.wait_for(lambda: not self.busy(), 20, message="the bot to finish its work")
            await self.fake.wait_idle(quiet=0.02, timeout=20)
            if not self.busy():
                return

    # -- world -----------------------------------------------------------------------------------

    def players(self, *names: str, language_code: str = "en") -> list[FakeUser]:
        return [self.fake.create_user(n, language_code=language_code) for n in names]

    async def start_bot(self, *users: FakeUser) -> None:
        for u in users:
            self.fake.start_bot(u)
        await self.settle()

    def group(self, users: Sequence[FakeUser], title: str = "Mahjong night") -> FakeChat:
        return self.fake.create_group(title, members=list(users))

    # -- reading ---------------------------------------------------------------------------------

    def hand_message(self, user: FakeUser) -> FakeMessage | None:
        """The user's current hand message: the newest photo the bot sent privately."""
        photos = [m for m in self.fake.bot_messages(self.fake.private_chat(user)) if m.photo is not None]
        return photos[-1] if photos else None

    def game_buttons(self, user: FakeUser) -> list[tuple[str, str]]:
        """(label, data) of the engine-action buttons on the user's hand message."""
        msg = self.hand_message(user)
        if msg is None:
            return []
        out = []
        for b in msg.iter_buttons():
            if b.callback_data and decode(b.callback_data).op.value in GAME_OPS:
                out.append((b.text, b.callback_data))
        return out

    def group_texts(self, group: FakeChat) -> list[str]:
        return self.fake.seen_texts(group)

    # -- acting ----------------------------------------------------------------------------------

    async def press(self, user: FakeUser, message: FakeMessage, label: str | None = None, *, data: str | None = None
                    ) -> CallbackQueryRecord:  # fmt: skip
        query = self.fake.press(user, message, label, data=data)
        await self.fake.wait_for_answer(query, timeout=10)
        await self.settle()
        return query

    async def act(self, user: FakeUser, op: str, tile: str | None = None) -> CallbackQueryRecord:
        """Press the hand-message button for ``op`` (a codec op letter) and ``tile`` (notation)."""
        msg = self.hand_message(user)
        assert msg is not None, f"{user.first_name} has no hand message"
        for b in msg.iter_buttons():
            if b.callback_data is None:
                continue
            button = decode(b.callback_data)
            if button.op.value == op and (tile is None or str(button.tile) == tile):
                return await self.press(user, msg, data=b.callback_data)
        raise AssertionError(f"{user.first_name} has no {op}{tile or ''} button: {msg.button_texts}")

    def retry_pending(self) -> bool:
        """A table's presentation retry is scheduled (a send that failed, to be made again)."""
        service = self.service
        return any(service.present.retry_pending(live.table_id) for live in service.tables.cached())

    async def play_randomly(self, users: Sequence[FakeUser], group: FakeChat, rng: random.Random, max_presses: int = 400
                            ) -> int:  # fmt: skip
        """Press random legal game buttons until the hand's result appears; returns the presses."""
        start = len(self.fake.bot_messages(group))
        presses = 0
        while presses < max_presses:
            if any("Points:" in m.content for m in self.fake.bot_messages(group)[start:]):
                return presses
            movers = [(u, self.game_buttons(u)) for u in users]
            movers = [(u, bs) for u, bs in movers if bs]
            if not movers:  # the hand messages may still be on their way (paced, or waiting out a 429)
                await self.settle()
                movers = [(u, bs) for u, bs in ((u, self.game_buttons(u)) for u in users) if bs]
            if not movers and self.retry_pending():  # a refused edit (429 after its retries) heals soon
                await self.fake.wait_for(lambda: not self.retry_pending(), 30, message="the presentation retry")
                await self.settle()
                continue
            assert movers, "nobody can act but the hand is not over"
            user, buttons = rng.choice(movers)
            _label, data = rng.choice(buttons)
            msg = self.hand_message(user)
            assert msg is not None
            query = await self.press(user, msg, data=data)
            assert query.answered
            presses += 1
        raise AssertionError("the hand did not end")


def op_of(data: str) -> Op:
    return decode(data).op
