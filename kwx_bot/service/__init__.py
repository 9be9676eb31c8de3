"""The table service: plain values in, plain values out; no Telegram here (docs/architecture.md §4).

The edge sees one object, :class:`TableService` (:mod:`.table_service`, which composes the parts:
tables, play, deadlines, lobby and joins, presenter, the command services), and the plain values
it takes and returns (:mod:`.values`); both are re-exported here.  The service reaches the engine
only through :mod:`.game`, the store only through :class:`~kwx_bot.store.TableStore`, and finds its
words in :mod:`kwx_bot.words`.
"""

from __future__ import annotations

from .joins import JoinResult
from .ports import Sent
from .table_service import TableService, TimersFactory
from .values import CloseTable, Command, DealHand, Edit, FollowUp, Out, Present, Reply, Response, ShowLobby, UserInfo

__all__ = [
    "CloseTable",
    "Command",
    "DealHand",
    "Edit",
    "FollowUp",
    "JoinResult",
    "Out",
    "Present",
    "Reply",
    "Response",
    "Sent",
    "ShowLobby",
    "TableService",
    "TimersFactory",
    "UserInfo",
]
