"""Chat membership: group -> supergroup migration, users blocking / unblocking the bot."""

from __future__ import annotations

from telegram import Update

from ..context import Context
from .common import user_info

__all__ = ["on_group_member", "on_migration", "on_my_chat_member", "on_private_member"]


async def on_migration(update: Update, context: Context) -> None:
    """The service message of a group -> supergroup upgrade: follow the new chat id."""
    message = update.effective_message
    if message is None:
        return
    service = context.bot_data.service
    if message.migrate_to_chat_id:
        await service.on_migrated(message.chat.id, message.migrate_to_chat_id)
    elif message.migrate_from_chat_id:
        await service.on_migrated(message.migrate_from_chat_id, message.chat.id)


async def on_private_member(update: Update, context: Context) -> None:
    """A user blocked (or unblocked) the bot in their private chat."""
    member = update.my_chat_member
    if member is None or member.chat.type != "private":
        return
    service = context.bot_data.service
    status = member.new_chat_member.status
    if status in ("kicked", "left"):
        await service.touch_user(user_info(member.from_user), can_pm=False)
        await service.on_forbidden(member.chat.id)
    elif status == "member":
        await service.touch_user(user_info(member.from_user), can_pm=True)


async def on_group_member(update: Update, context: Context) -> None:
    """The bot's own membership in a group changed: removed (left / kicked) ends its table unscored."""
    member = update.my_chat_member
    if member is None or member.chat.type == "private":
        return
    if member.new_chat_member.status in ("left", "kicked"):
        await context.bot_data.service.on_removed(member.chat.id)


async def on_my_chat_member(update: Update, context: Context) -> None:
    """The bot's membership changed in a private chat (blocked / unblocked) or in a group."""
    member = update.my_chat_member
    if member is None:
        return
    if member.chat.type == "private":
        await on_private_member(update, context)
    else:
        await on_group_member(update, context)
