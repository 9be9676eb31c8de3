"""Button presses: decoded here, routed to the service, its :class:`~kwx_bot.service.Response` delivered
(answered exactly once, first, before slow work).

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
from .common import deliver, user_info

__all__ = ["on_button", "on_config_button", "on_void_button"]

Decode = Callable[[str | None], Press]


async def _press(update: Update, context: Context, decode_press: Decode) -> None:
    """Decode the query's data, call the service once, then deliver its :class:`Response` in
    order: the answer first (Telegram shows a spinner until then, docs/telegram.md §3), the
    messages to send or edit, and last the follow-up handed back to the service to run in the
    background (the chat's next update does not wait for its sends).  A press that
    fails in the service is still answered, with an apology."""
    query = update.callback_query
    if query is None:
        return
    service = context.bot_data.service
    sender = context.bot_data.sender
    user = user_info(query.from_user)
    message_id = query.message.message_id if query.message is not None else None
    chat_id = query.message.chat.id if query.message is not None else None
    try:
        button: Press | None = decode_press(query.data if isinstance(query.data, str) else None)
    except CodecError:
        button = None
    try:
        response = await service.press(user, chat_id, message_id, button)
    except BaseException:
        reply = service.sorry(user)
        await sender.answer(query, reply.text, alert=reply.alert, url=reply.url)
        raise
    reply = response.reply or Reply()
    await sender.answer(query, reply.text, alert=reply.alert, url=reply.url)
    await deliver(sender, chat_id, response.outs, seen=service.seen)
    if response.then is not None:
        service.follow_soon(response.then)
    sender.metrics.press()  # counted once answered and its messages delivered


async def on_button(update: Update, context: Context) -> None:
    """A table button (lobby, hand, next hand)."""
    await _press(update, context, decode)


async def on_config_button(update: Update, context: Context) -> None:
    """A ``/settings`` menu button."""
    await _press(update, context, decode_config)


async def on_void_button(update: Update, context: Context) -> None:
    """A ``/void`` confirmation button."""
    await _press(update, context, decode_void)
