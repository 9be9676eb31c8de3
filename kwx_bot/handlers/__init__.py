"""Telegram handlers: thin adapters from updates to :class:`~kwx_bot.service.TableService` calls.

A handler turns an update into plain values (user, chat, callback data), calls one service method
and sends what it returns; no rules and no SQL here (DESIGN.md §4).
"""

from __future__ import annotations

from telegram import Update
from telegram.ext import Application, CallbackQueryHandler, ChatMemberHandler, CommandHandler, MessageHandler, filters

from .callbacks import on_button
from .commands import on_back, on_hand, on_help, on_new, on_start
from .errors import on_error
from .members import on_migration, on_private_member

__all__ = ["register"]


def register(app: Application) -> None:  # type: ignore[type-arg]
    """Add kwx's handlers and error handler to ``app``."""
    app.add_handler(CommandHandler("start", on_start))
    app.add_handler(CommandHandler("new", on_new))
    app.add_handler(CommandHandler("hand", on_hand))
    app.add_handler(CommandHandler("back", on_back))
    app.add_handler(CommandHandler("help", on_help))
    app.add_handler(CallbackQueryHandler(on_button))
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, on_migration))
    app.add_handler(ChatMemberHandler(on_private_member, ChatMemberHandler.MY_CHAT_MEMBER))
    app.add_error_handler(on_error)


__all__ += ["Update"]
