"""Commands: /new (groups), /start [payload] and /hand (private), /back, /help, /rules, /calc, /verify;
in a private chat, anything else (an unknown command, plain text) gets a short hint."""

from __future__ import annotations

from telegram import Update

from ..context import Context
from .common import run_command

__all__ = [
    "on_back", "on_calc", "on_hand", "on_help", "on_new", "on_private_other", "on_rules", "on_start", "on_verify",
]  # fmt: skip


async def on_new(update: Update, context: Context) -> None:
    """/new in a group opens a table (or points to the open one)."""
    await run_command(update, context, lambda s: s.new)


async def on_start(update: Update, context: Context) -> None:
    """/start [payload] in private completes a join or re-sends the hand; in a group it helps."""
    await run_command(update, context, lambda s: s.start)


async def on_hand(update: Update, context: Context) -> None:
    """/hand in private re-sends the player's hand message (the old one's buttons stop working)."""
    await run_command(update, context, lambda s: s.hand)


async def on_help(update: Update, context: Context) -> None:
    """``/help [calc]``."""
    await run_command(update, context, lambda s: s.info.help)


async def on_rules(update: Update, context: Context) -> None:
    """``/rules``: the rules in plain words."""
    await run_command(update, context, lambda s: s.info.rules)


async def on_calc(update: Update, context: Context) -> None:
    """``/calc ...``: score a hand from a real table."""
    await run_command(update, context, lambda s: s.info.calc)


async def on_back(update: Update, context: Context) -> None:
    """/back: end 托管 and play the seat again."""
    await run_command(update, context, lambda s: s.back)


async def on_verify(update: Update, context: Context) -> None:
    """``/verify [N [T]]``: a hand's commitment, and once it is over its seed and the command to check it."""
    await run_command(update, context, lambda s: s.info.verify)


async def on_private_other(update: Update, context: Context) -> None:
    """A private message no command handler took (an unknown command, plain text): a short hint."""
    await run_command(update, context, lambda s: s.info.private_other)
