"""The handlers' wiring: PTB's own ``pattern=`` routes each kind of callback data to its handler
(settings menu, /void confirmation, table buttons), every command has a handler, and the typed
``bot_data`` refuses to hand out a service that is not running."""

from __future__ import annotations

import pytest
from telegram import CallbackQuery, Update, User
from telegram.ext import ApplicationBuilder, CallbackQueryHandler, CommandHandler

from kwx_bot.edge.codec import encode, encode_config, encode_void
from kwx_bot.edge.context import CONTEXT_TYPES, BotData, NotRunning
from kwx_bot.edge.handlers import COMMANDS, register
from kwx_bot.edge.handlers.callbacks import on_button, on_config_button, on_void_button
from kwx_bot.service.buttons import Button, ConfigButton, Op, VoidButton


def _app():
    app = ApplicationBuilder().token(":".join(["1", "wiring"])).context_types(CONTEXT_TYPES).build()
    register(app)
    return app


def _query(data: str) -> Update:
    return Update(1, callback_query=CallbackQuery("q1", User(7, "Ann", False), "chat-instance", data=data))


def _routed(app, data: str):
    """The callback handler PTB picks for ``data`` (the first whose check passes)."""
    update = _query(data)
    handlers = [h for h in app.handlers[0] if isinstance(h, CallbackQueryHandler)]
    return next(h.callback for h in handlers if h.check_update(update))


@pytest.mark.parametrize(
    ("data", "handler"),
    [
        (encode_config(ConfigButton(12, "c", 1)), on_config_button),
        ("G:garbage", on_config_button),  # decoded there, refused politely
        (encode_void(VoidButton(12, 34, True)), on_void_button),
        (encode(Button(5, 9, Op.JOIN)), on_button),
        ("not ours", on_button),
    ],
)
def test_callback_data_is_routed_by_pattern(data: str, handler) -> None:
    assert _routed(_app(), data) is handler


def test_every_command_has_its_handler() -> None:
    app = _app()
    commands = {c for h in app.handlers[0] if isinstance(h, CommandHandler) for c in h.commands}
    assert commands == set(COMMANDS)


def test_bot_data_is_typed_and_refuses_a_stopped_service() -> None:
    app = _app()
    assert isinstance(app.bot_data, BotData) and not app.bot_data.running
    with pytest.raises(NotRunning):
        _ = app.bot_data.service
    with pytest.raises(NotRunning):
        _ = app.bot_data.sender
    assert app.bot_data.stop() is None
