"""Group administrators' commands: ``/settings``, ``/season``, ``/kill``, ``/kick``.

Who may use them is decided by the service (anonymous administrators included)."""

from __future__ import annotations

from telegram import Update

from ..context import Context
from .common import run_command

__all__ = ["on_kick", "on_kill", "on_season", "on_settings", "on_void"]


async def on_settings(update: Update, context: Context) -> None:
    """``/settings`` (menu) or ``/settings <option> <value>``."""
    await run_command(update, context, lambda s: s.admin.settings)


async def on_season(update: Update, context: Context) -> None:
    """``/season`` / ``/season new``."""
    await run_command(update, context, lambda s: s.admin.season)


async def on_kill(update: Update, context: Context) -> None:
    """``/kill``: end the group's table (an unfinished hand is not scored)."""
    await run_command(update, context, lambda s: s.admin.kill)


async def on_kick(update: Update, context: Context) -> None:
    """``/kick`` by reply or name: an AI takes the player's seat."""
    await run_command(update, context, lambda s: s.admin.kick)


async def on_void(update: Update, context: Context) -> None:
    """``/void <hand> [table]``: confirm, then cancel a scored hand's points with correction rows."""
    await run_command(update, context, lambda s: s.voids.void)
