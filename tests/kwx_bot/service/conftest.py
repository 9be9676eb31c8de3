"""A table service over the real store on ``:memory:`` SQLite, a recording messenger and tiny
pictures: the service's own unit tests, without Telegram (the end-to-end tests go through the fake
Bot API)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from kwx_bot.service import Command, Edit, Reply, TableService, UserInfo
from kwx_bot.service.buttons import Button
from kwx_bot.service.live import LiveTable
from kwx_bot.settings import Settings
from kwx_bot.store import Store

from .fakes import Message, RecordingMessenger, TinyPictures

GROUP = -1001
"""The group chat of the tests."""
ANN, BEN, CAT = UserInfo(1, "Ann"), UserInfo(2, "Ben"), UserInfo(3, "Cat")


@dataclass
class World:
    """The service under test and what it talks to."""

    service: TableService
    chat: RecordingMessenger
    store: Store

    def command(self, user: UserInfo, name: str, *args: str, chat_id: int = GROUP) -> Command:
        """``/name args`` from ``user`` in ``chat_id`` (the group unless it is the user's own chat)."""
        private = chat_id == user.user_id
        text = " ".join([f"/{name}", *args])
        return Command(chat_id, "" if private else "Friends", private, user, tuple(args), text, message_id=1)

    async def start(self, *users: UserInfo) -> None:
        """Each user opens the private chat with the bot (``/start``)."""
        for user in users:
            await self.service.start(self.command(user, "start", chat_id=user.user_id))

    async def press(self, user: UserInfo, message: Message, button: Button) -> Reply:
        """``user`` presses ``button`` on ``message``; returns the one answer, after presentation.

        Does what the edge does with the service's :class:`~kwx_bot.service.Response`: answer,
        send and edit its messages in the chat, then hand its follow-up back to the service."""
        response = await self.service.press(user, message.chat_id, message.message_id, button)
        assert response.reply is not None, response
        for out in response.outs:
            if isinstance(out, Edit):
                if out.text is None:
                    await self.chat.edit_markup(out.chat_id, out.message_id, out.markup)
                else:
                    await self.chat.edit_text(out.chat_id, out.message_id, out.text, out.markup)
            else:
                assert out.document is None, out
                await self.chat.send_text(message.chat_id, out.text, out.markup)
        if response.then is not None:
            await self.service.follow(response.then)
        await self.service.idle()
        return response.reply

    async def table(self) -> LiveTable:
        """The group's open table."""
        gid = await self.store.group_id_for_chat(GROUP)
        assert gid is not None
        row = await self.store.open_table_of_group(gid, bot_id=self.service.tables.bot_id)
        assert row is not None
        live = await self.service.tables.get(row.table_id)
        assert live is not None
        return live

    async def hand_message(self, user: UserInfo) -> Message:
        """The user's current hand message."""
        live = await self.table()
        seat = live.seat_of(user.user_id)
        assert seat is not None and seat.hand_msg_id is not None
        return self.chat.messages[(user.user_id, seat.hand_msg_id)]


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    """A running service (no deadlines, no edit delay, English)."""
    store = await Store.open(":memory:")
    chat = RecordingMessenger()
    settings = Settings(
        token=":".join(["1", "unit"]), db_path=tmp_path / "unused.db", default_language="en",
        discard_seconds=0, claim_seconds=0, table_edit_seconds=0, remind_seconds=0, rate_limit=False,
        ai_level="normal",
    )  # fmt: skip
    service = TableService(store, chat, TinyPictures(), settings)
    await service.startup()
    try:
        yield World(service, chat, store)
    finally:
        await service.shutdown()
        await store.close()
