"""Shared helpers of the handlers: the service from ``bot_data``, updates as plain values, replies out.

One reply convention: a service call returns one :class:`~kwx_bot.service.Response` that answers the
update and the edge delivers it (:func:`deliver`); handlers never build Telegram messages themselves.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from telegram import Update, User

from ...service import Command, Edit, Out, Response, Sent, TableService, UserInfo
from ...words.texts import visible
from ..context import Context
from ..sender import Sender

Service = Callable[[Command], Awaitable[Response]]
"""A service entry point for a command: the command in, its :class:`Response` out."""
Seen = Callable[[Sent], Awaitable[object]]
"""Where a reply's result goes (the service's ``seen``)."""

__all__ = ["command_of", "deliver", "is_private", "reply", "run_command", "user_info"]


def user_info(user: User) -> UserInfo:
    """A Telegram user as plain values."""
    return UserInfo(user.id, user.first_name or "", user.last_name, user.username, user.language_code)


def is_private(update: Update) -> bool:
    """The update comes from a private chat."""
    chat = update.effective_chat
    return chat is not None and chat.type == "private"


def command_of(update: Update, context: Context) -> Command | None:
    """A command message as a plain :class:`~kwx_bot.service.Command` (None if it has no sender).

    The text and the arguments are read as they look: bidi controls and invisible characters are
    dropped (:func:`~kwx_bot.words.texts.visible`, docs/security.md §7.2), so ``/settings cap 16``
    with a hidden U+202E before the 16 means what it shows, and an argument made only of them is no
    argument."""
    message, chat, user = update.effective_message, update.effective_chat, update.effective_user
    if message is None or chat is None or user is None:
        return None
    replied = message.reply_to_message
    reply_user = replied.from_user if replied is not None and replied.from_user is not None else None
    return Command(
        chat_id=chat.id,
        title=chat.title or "",
        private=chat.type == "private",
        user=user_info(user),
        args=tuple(arg for arg in map(visible, context.args or ()) if arg),
        text=visible(message.text or ""),
        message_id=message.message_id,
        sender_chat_id=message.sender_chat.id if message.sender_chat is not None else None,
        reply_to=user_info(reply_user) if reply_user is not None and not reply_user.is_bot else None,
    )


async def deliver(
    sender: Sender,
    chat_id: int | None,
    outs: Sequence[Out | Edit],
    *,
    reply_to: int | None = None,
    seen: Seen | None = None,
) -> None:
    """Send a service call's replies (texts, menus, documents, animations, photos) to ``chat_id`` and make its
    :class:`Edit` changes; an :class:`Out` with ``reply`` set answers the message ``reply_to``
    (nothing is sent without a chat).  Each result is handed to ``seen`` (the service's
    :meth:`~kwx_bot.service.TableService.seen`), so a 403 or a group migration met by a reply
    reaches the service as a value, as it does for the service's own sends."""
    for out in outs:
        if isinstance(out, Edit):
            if out.text is None:
                sent = await sender.edit_markup(out.chat_id, out.message_id, out.markup)
            else:
                sent = await sender.edit_text(out.chat_id, out.message_id, out.text, out.markup)
        elif chat_id is None:
            continue
        elif out.document is not None:
            filename, data = out.document
            sent = await sender.send_document(chat_id, data, filename, out.text)
        elif out.animation is not None:
            filename, data = out.animation
            sent = await sender.send_animation(chat_id, data, filename, out.text, out.markup)
        elif out.photo is not None:
            sent = await sender.send_photo(chat_id, out.photo, out.text, reply_to=reply_to if out.reply else None)
        else:
            sent = await sender.send_text(chat_id, out.text, out.markup, reply_to=reply_to if out.reply else None)
        if seen is not None:
            await seen(sent)


async def reply(context: Context, chat_id: int, text: str | None, *, reply_to: int | None = None) -> None:
    """Send one plain text reply (nothing for None or ``""``)."""
    if text:
        await deliver(context.bot_data.sender, chat_id, [Out(text, reply=reply_to is not None)], reply_to=reply_to)


async def run_command(update: Update, context: Context, pick: Callable[[TableService], Service]) -> None:
    """Parse the command, make one service call (``pick(service)(command)``), send its replies
    (then hand a follow-up, if any, back to the service to run in the background)."""
    cmd = command_of(update, context)
    if cmd is None:
        return
    service = context.bot_data.service
    response = await pick(service)(cmd)
    await deliver(context.bot_data.sender, cmd.chat_id, response.outs, reply_to=cmd.message_id, seen=service.seen)
    if response.then is not None:
        service.follow_soon(response.then)
