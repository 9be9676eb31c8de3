"""A fake Telegram Bot API for end-to-end tests of the kwx bot.

Quick start (fixtures from :mod:`tests.fakebot.fixtures`)::

    async def test_lobby(fakebot, fakebot_builder):
        app = fakebot_builder().build()
        app.add_handler(...)                              # or build kwx_bot's application
        alice = fakebot.create_user("Alice")
        group = fakebot.create_group("Table", members=[alice])
        async with run_application(app):
            fakebot.user_command(alice, group, "new")
            lobby = await fakebot.wait_for_message(group, contains="Join")
            query = fakebot.press(alice, lobby, "Join")
            await fakebot.wait_for_answer(query)

Modules: :mod:`.core` (world + dispatch + waiting/reading), :mod:`.methods` (Bot API methods),
:mod:`.actors` (simulated users), :mod:`.limits` (Telegram limits), :mod:`.entities`
(HTML/MarkdownV2 parsing), :mod:`.faults` (429 injection), :mod:`.http` / :mod:`.inprocess`
(transports), :mod:`.ptb` (PTB builder and lifecycle), :mod:`.fixtures` (pytest).
"""

from .clock import FakeClock
from .core import MESSAGE_WRITE_METHODS, ChatRef, FakeBotAPI, WaitTimeout
from .entities import ParsedText, parse_html, parse_markdown, parse_markdown_v2
from .errors import ApiError
from .faults import FaultInjector, FloodRule
from .http import FakeBotServer
from .inprocess import FakeRequest
from .model import (
    ApiCall,
    CallbackAnswer,
    CallbackQueryRecord,
    ChatType,
    FakeChat,
    FakeMessage,
    FakeUser,
    InlineButton,
    MemberStatus,
    MessageVersion,
    StoredFile,
)
from .ptb import application_builder, clocked_limiter, fake_bot, http_request, run_application

__all__ = [
    "MESSAGE_WRITE_METHODS",
    "ApiCall",
    "ApiError",
    "CallbackAnswer",
    "CallbackQueryRecord",
    "ChatRef",
    "ChatType",
    "FakeBotAPI",
    "FakeBotServer",
    "FakeChat",
    "FakeClock",
    "FakeMessage",
    "FakeRequest",
    "FakeUser",
    "FaultInjector",
    "FloodRule",
    "InlineButton",
    "MemberStatus",
    "MessageVersion",
    "ParsedText",
    "StoredFile",
    "WaitTimeout",
    "application_builder",
    "clocked_limiter",
    "fake_bot",
    "http_request",
    "parse_html",
    "parse_markdown",
    "parse_markdown_v2",
    "run_application",
]
