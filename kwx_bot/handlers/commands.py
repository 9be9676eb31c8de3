"""Commands: /new (groups), /start [payload] and /hand (private), /help."""

from __future__ import annotations

from typing import Any

from telegram import Update

from .common import is_private, service_of, user_info

__all__ = ["help_text", "on_back", "on_hand", "on_help", "on_new", "on_start"]


def help_text(tr: Any) -> str:
    """The /help text (HTML)."""
    _ = tr.gettext
    return "\n".join(
        [
            _("<b>Ka Wu Xing mahjong</b> (3 players, 84 tiles)"),
            _("/new: open a table in this group (then press Join; AI players can fill seats)"),
            _("/hand: in the private chat, send your hand message again"),
            _("/back: play your seat again after auto-play"),
            _("/help: this help"),
            _("Your hand is shown privately with buttons; the group sees the table."),
        ]
    )


async def on_new(update: Update, context: Any) -> None:
    """/new in a group opens a table (or points to the open one)."""
    message, chat, user = update.effective_message, update.effective_chat, update.effective_user
    if message is None or chat is None or user is None:
        return
    service = service_of(context)
    if is_private(update):
        tr = service.user_tr(user_info(user))
        await service.sender.send_text(chat.id, tr.gettext("Send /new in a group chat to open a table there."))
        return
    refusal = await service.new_table(chat.id, chat.title or "", user_info(user))
    if refusal:
        await service.sender.send_text(chat.id, refusal, reply_to=message.message_id)


async def on_start(update: Update, context: Any) -> None:
    """/start [payload] in private completes a join or re-sends the hand; in a group it helps."""
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None:
        return
    service = service_of(context)
    info = user_info(user)
    if not is_private(update):
        lang = await service.group_lang_of_chat(chat.id, chat.title or "")
        await service.sender.send_text(chat.id, help_text(service.tr(lang)))
        return
    payload = context.args[0] if getattr(context, "args", None) else None
    reply = await service.private_start(info, payload)
    if reply:
        await service.sender.send_text(chat.id, reply)


async def on_hand(update: Update, context: Any) -> None:
    """/hand in private re-sends the player's hand message (the old one's buttons stop working)."""
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None:
        return
    service = service_of(context)
    info = user_info(user)
    tr = service.user_tr(info)
    if not is_private(update):
        await service.sender.send_text(chat.id, tr.gettext("Send /hand to me in a private chat."))
        return
    await service.touch_user(info, can_pm=True)
    if not await service.resend_hand(user.id):
        await service.sender.send_text(chat.id, tr.gettext("You have no hand in play right now."))


async def on_help(update: Update, context: Any) -> None:
    """/help."""
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None:
        return
    service = service_of(context)
    if is_private(update):
        tr = service.user_tr(user_info(user))
    else:
        tr = service.tr(await service.group_lang_of_chat(chat.id, chat.title or ""))
    await service.sender.send_text(chat.id, help_text(tr))


async def on_back(update: Update, context: Any) -> None:
    """/back: end 托管 and play the seat again."""
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None:
        return
    service = service_of(context)
    await service.sender.send_text(chat.id, await service.take_back(user_info(user)))
