"""Commands: /new (groups), /start [payload] and /hand (private), /back, /help, /rules, /calc."""

from __future__ import annotations

from typing import Any

from telegram import Update

from .common import command_of, is_private, run_command, service_of, user_info

__all__ = ["on_back", "on_calc", "on_hand", "on_help", "on_new", "on_rules", "on_start"]


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
        cmd = command_of(update, context)
        if cmd is not None:
            await service.deliver(chat.id, await service.info.help(cmd))
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
    """``/help [calc]``."""
    await run_command(update, context, lambda s: s.info.help)


async def on_rules(update: Update, context: Any) -> None:
    """``/rules``: the rules in plain words."""
    await run_command(update, context, lambda s: s.info.rules)


async def on_calc(update: Update, context: Any) -> None:
    """``/calc ...``: score a hand from a real table."""
    await run_command(update, context, lambda s: s.info.calc)


async def on_back(update: Update, context: Any) -> None:
    """/back: end 托管 and play the seat again."""
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None:
        return
    service = service_of(context)
    await service.sender.send_text(chat.id, await service.take_back(user_info(user)))
