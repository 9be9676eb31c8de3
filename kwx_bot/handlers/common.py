"""Shared helpers of the handlers: the service from ``bot_data``, users as plain values."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from telegram import Update, User

from ..service import Command, Out, TableService, UserInfo

Service = Callable[[Command], Awaitable[list[Out]]]
"""A service entry point for a command: the command in, the replies out."""

__all__ = ["SERVICE_KEY", "command_of", "is_private", "run_command", "service_of", "user_info"]

SERVICE_KEY = "kwx.service"


def service_of(context: Any) -> TableService:
    """The application's table service (created in ``post_init``)."""
    service = context.application.bot_data.get(SERVICE_KEY)
    if not isinstance(service, TableService):
        raise RuntimeError("the table service is not running")
    return service


def user_info(user: User) -> UserInfo:
    """A Telegram user as plain values."""
    return UserInfo(user.id, user.first_name or "", user.last_name, user.username, user.language_code)


def is_private(update: Update) -> bool:
    """The update comes from a private chat."""
    chat = update.effective_chat
    return chat is not None and chat.type == "private"


def command_of(update: Update, context: Any) -> Command | None:
    """A command message as a plain :class:`~kwx_bot.service.Command` (None if it has no sender)."""
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
        args=tuple(getattr(context, "args", None) or ()),
        text=message.text or "",
        message_id=message.message_id,
        sender_chat_id=message.sender_chat.id if message.sender_chat is not None else None,
        reply_to=user_info(reply_user) if reply_user is not None and not reply_user.is_bot else None,
    )


async def run_command(update: Update, context: Any, pick: Callable[[TableService], Service]) -> None:
    """Parse the command, make one service call (``pick(service)(command)``), send its replies."""
    cmd = command_of(update, context)
    if cmd is None:
        return
    service = service_of(context)
    await service.deliver(cmd.chat_id, await pick(service)(cmd), reply_to=cmd.message_id)
