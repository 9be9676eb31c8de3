"""Telegram handlers: thin adapters from updates to :class:`~kwx_bot.service.TableService` calls.

A handler turns an update into plain values (user, chat, a decoded button press), calls one service
method and sends what it returns; no rules and no SQL here (docs/architecture.md §4).
"""

from __future__ import annotations

from telegram import Update
from telegram.ext import CallbackQueryHandler, ChatMemberHandler, CommandHandler, MessageHandler, filters

from ..codec import CONFIG_PATTERN, VOID_PATTERN
from ..context import KwxApplication
from .admin import on_kick, on_kill, on_season, on_settings, on_void
from .callbacks import on_button, on_config_button, on_void_button
from .commands import on_back, on_calc, on_hand, on_help, on_new, on_private_other, on_rules, on_start, on_verify
from .errors import on_error
from .members import on_migration, on_my_chat_member
from .scores import on_export, on_history, on_replay, on_review, on_score, on_settle, on_stats

COMMANDS = {
    "start": on_start, "new": on_new, "hand": on_hand, "back": on_back, "help": on_help, "rules": on_rules,
    "calc": on_calc, "score": on_score, "history": on_history, "settle": on_settle, "export": on_export,
    "settings": on_settings, "season": on_season, "kill": on_kill, "kick": on_kick,
    "void": on_void, "verify": on_verify, "replay": on_replay, "review": on_review,
    "stats": on_stats,
}  # fmt: skip
"""Every command the bot answers (the menus of :mod:`kwx_bot.words.help_text` list a subset per scope)."""

__all__ = ["COMMANDS", "Update", "register"]


def register(app: KwxApplication) -> None:
    """Add kwx's handlers and error handler to ``app``."""
    for command, handler in COMMANDS.items():
        app.add_handler(CommandHandler(command, handler))
    app.add_handler(CallbackQueryHandler(on_config_button, pattern=CONFIG_PATTERN))
    app.add_handler(CallbackQueryHandler(on_void_button, pattern=VOID_PATTERN))
    app.add_handler(CallbackQueryHandler(on_button))
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, on_migration))
    # after every CommandHandler (first match wins): private text that no command took
    app.add_handler(MessageHandler(filters.ChatType.PRIVATE & filters.TEXT, on_private_other))
    app.add_handler(ChatMemberHandler(on_my_chat_member, ChatMemberHandler.MY_CHAT_MEMBER))
    app.add_error_handler(on_error)
