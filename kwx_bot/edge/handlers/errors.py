"""The error handler: log with context, tell the operator's admin chat, never crash a table.

Telegram failures of sends are handled by :class:`~kwx_bot.edge.sender.Sender`; what reaches this
handler is a bug or an unexpected failure inside a handler or a job.  The table stays consistent
because every change is one transaction; the user sees a short apology instead of silence.
"""

from __future__ import annotations

import logging

from telegram import Update

from ..context import Context
from .common import reply

__all__ = ["on_error"]

log = logging.getLogger("kwx.errors")


async def on_error(update: object, context: Context) -> None:
    """Log the error with the update's chat/user; report to ``KWX_ADMIN_CHAT_ID`` at most once a minute."""
    error = context.error
    chat = update.effective_chat if isinstance(update, Update) else None
    user = update.effective_user if isinstance(update, Update) else None
    log.error(
        "error while handling an update (chat %s, user %s): %s",
        chat.id if chat else None, user.id if user else None, error, exc_info=error,
    )  # fmt: skip
    if not context.bot_data.running:
        return
    service = context.bot_data.service
    await service.report(f"kwx error: {type(error).__name__}: {str(error)[:300]} (chat {chat.id if chat else '-'})")
    if isinstance(update, Update) and update.effective_message is not None and update.callback_query is None and chat:
        try:  # in the chat's language: the user's in private, the group's setting in a group
            if chat.type == "private":
                tr = service.tables.user_tr(user.language_code if user else None)
            else:
                tr = service.tr(await service.group_lang_of_chat(chat.id, chat.title or ""))
        except Exception:
            tr = service.tr(service.settings.default_language)
        await reply(context, chat.id, tr.gettext("Sorry, something went wrong. Nothing was changed."))
