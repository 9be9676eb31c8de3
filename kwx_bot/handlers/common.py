"""Shared helpers of the handlers: the service from ``bot_data``, users as plain values."""

from __future__ import annotations

from typing import Any

from telegram import Update, User

from ..service import TableService, UserInfo

__all__ = ["SERVICE_KEY", "service_of", "user_info"]

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


__all__ += ["is_private"]
