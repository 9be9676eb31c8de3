"""Button presses: decoded here, answered exactly once (first, before slow work), routed to the service.

PTB routes by prefix (``pattern=``, see :mod:`kwx_bot.edge.codec`): settings-menu buttons, ``/void``
confirmations, and every other query as a table button.  Data that does not decode reaches the
service as ``None`` (it answers "not one of mine" and changes nothing).
"""

from __future__ import annotations

from collections.abc import Callable

from telegram import Update

from ...service import Reply
from ...service.buttons import CodecError, Press
from ..codec import decode, decode_config, decode_void
from ..context import Context
from .common import service_of, user_info

__all__ = ["on_button", "on_config_button", "on_void_button"]

Decode = Callable[[str | None], Press]


async def _press(update: Update, context: Context, decode_press: Decode) -> None:
    """Decode the query's data, call the service once; whatever happens, the query gets one answer."""
    query = update.callback_query
    if query is None:
        return
    service = service_of(context)
    sender = context.bot_data.sender
    answered = False

    async def answer(reply: Reply) -> None:
        nonlocal answered
        if answered:
            return
        answered = True
        await sender.answer(query, reply.text, alert=reply.alert, url=reply.url)

    message_id = query.message.message_id if query.message is not None else None
    chat_id = query.message.chat.id if query.message is not None else None
    try:
        button: Press | None = decode_press(query.data if isinstance(query.data, str) else None)
    except CodecError:
        button = None
    try:
        await service.press(user_info(query.from_user), chat_id, message_id, button, answer)
        sender.metrics.press()
    finally:
        if not answered:
            tr = service.user_tr(user_info(query.from_user))
            await answer(Reply(tr.gettext("Sorry, something went wrong. Nothing was changed.")))


async def on_button(update: Update, context: Context) -> None:
    """A table button (lobby, hand, next hand)."""
    await _press(update, context, decode)


async def on_config_button(update: Update, context: Context) -> None:
    """A ``/settings`` menu button."""
    await _press(update, context, decode_config)


async def on_void_button(update: Update, context: Context) -> None:
    """A ``/void`` confirmation button."""
    await _press(update, context, decode_void)
