"""Typed PTB wiring: the application's own state on ``bot_data``, and the context type of handlers.

``Application.bot_data`` is a :class:`BotData` (``ContextTypes(bot_data=BotData)``): the table
service and the sender, set in ``post_init`` and cleared in ``post_shutdown``.  Handlers are
``async def on_x(update: Update, context: Context) -> None``.
"""

from __future__ import annotations

from typing import Any, TypeAlias

from telegram.ext import Application, CallbackContext, ContextTypes, ExtBot, JobQueue

from ..service import TableService
from .sender import Sender

__all__ = ["CONTEXT_TYPES", "BotData", "Context", "KwxApplication", "NotRunning"]


class NotRunning(RuntimeError):
    """The table service is not running (before ``post_init`` or after ``post_shutdown``)."""


class BotData:
    """What the application holds for kwx: the running :class:`TableService` and its :class:`Sender`."""

    def __init__(self) -> None:
        self._service: TableService | None = None
        self._sender: Sender | None = None

    def start(self, service: TableService, sender: Sender) -> None:
        """The service is up (``post_init``)."""
        self._service, self._sender = service, sender

    def stop(self) -> TableService | None:
        """The service goes down (``post_shutdown``); returns it, if it was running."""
        service, self._service, self._sender = self._service, None, None
        return service

    @property
    def running(self) -> bool:
        """The service is up."""
        return self._service is not None

    @property
    def service(self) -> TableService:
        """The table service; :class:`NotRunning` if it is not up."""
        if self._service is None:
            raise NotRunning("the table service is not running")
        return self._service

    @property
    def sender(self) -> Sender:
        """The sender of every outgoing Telegram call; :class:`NotRunning` if the service is not up."""
        if self._sender is None:
            raise NotRunning("the table service is not running")
        return self._sender


Context: TypeAlias = CallbackContext[ExtBot[None], dict[Any, Any], dict[Any, Any], BotData]
"""The context every kwx handler receives."""
KwxApplication: TypeAlias = Application[
    ExtBot[None], Context, dict[Any, Any], dict[Any, Any], BotData, JobQueue[Context]
]
"""The kwx ``Application`` type."""
CONTEXT_TYPES = ContextTypes(context=CallbackContext, bot_data=BotData)
"""Passed to the builder: ``bot_data`` is a :class:`BotData`."""
