"""Button presses: answered exactly once (first, before slow work), then routed to the service."""

from __future__ import annotations

from typing import Any

from telegram import Update

from ..service import Reply
from .common import service_of, user_info

__all__ = ["on_button"]


async def on_button(update: Update, context: Any) -> None:
    """Route a callback query; whatever happens, the query gets exactly one answer."""
    query = update.callback_query
    if query is None:
        return
    service = service_of(context)
    answered = False

    async def answer(reply: Reply) -> None:
        nonlocal answered
        if answered:
            return
        answered = True
        await service.sender.answer(query, reply.text, alert=reply.alert, url=reply.url)

    message_id = query.message.message_id if query.message is not None else None
    chat_id = query.message.chat.id if query.message is not None else None
    try:
        await service.button(user_info(query.from_user), chat_id, message_id, query.data, answer)
    finally:
        if not answered:
            tr = service.user_tr(user_info(query.from_user))
            await answer(Reply(tr.gettext("Sorry, something went wrong. Nothing was changed.")))
