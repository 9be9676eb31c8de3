"""Score commands and hand records: ``/score [me]``, ``/history [n]``, ``/settle``, ``/export [N]``,
``/replay [N]``, ``/review N``, ``/stats [me] [all]``."""

from __future__ import annotations

from telegram import Update

from ..context import Context
from .common import run_command

__all__ = ["on_export", "on_history", "on_replay", "on_review", "on_score", "on_settle", "on_stats"]


async def on_score(update: Update, context: Context) -> None:
    """``/score`` (the group's season) and ``/score me`` (your standing; also in private)."""
    await run_command(update, context, lambda s: s.reports.score)


async def on_history(update: Update, context: Context) -> None:
    """``/history [n]``: the group's last hands, paged."""
    await run_command(update, context, lambda s: s.reports.history)


async def on_settle(update: Update, context: Context) -> None:
    """``/settle``: the fewest transfers that square the season."""
    await run_command(update, context, lambda s: s.reports.settle)


async def on_export(update: Update, context: Context) -> None:
    """``/export``: the group's ledger as a CSV document; ``/export N``: hand N's record (JSON)."""
    await run_command(update, context, lambda s: s.records.export)


async def on_replay(update: Update, context: Context) -> None:
    """``/replay [N [T]]``: a finished hand as an animation (public information only)."""
    await run_command(update, context, lambda s: s.records.replay)


async def on_review(update: Update, context: Context) -> None:
    """``/review N [T]``: each player of a finished hand gets his own decisions against the AI's,
    privately."""
    await run_command(update, context, lambda s: s.records.review)


async def on_stats(update: Update, context: Context) -> None:
    """``/stats [me] [all]``: the group's (or the sender's) record as a picture."""
    await run_command(update, context, lambda s: s.stats.stats)
