"""Row values returned by the store (frozen; times are unix seconds as floats)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

__all__ = [
    "EventRow",
    "HandRow",
    "LedgerRow",
    "SeatRow",
    "TableRow",
    "TableStatus",
    "UserRow",
]


class TableStatus:
    """The closed vocabulary of ``tables.status``."""

    LOBBY = "lobby"
    PLAYING = "playing"
    BETWEEN = "between"  # a hand is over, the next one not dealt yet
    CLOSED = "closed"
    OPEN = (LOBBY, PLAYING, BETWEEN)


@dataclass(frozen=True, slots=True)
class UserRow:
    """A Telegram user as last seen; ``can_pm``: the bot may send private messages."""

    user_id: int
    first_name: str
    last_name: str | None
    username: str | None
    language_code: str | None
    can_pm: bool
    pending_table_id: int | None

    @property
    def display_name(self) -> str:
        """First and last name as Telegram shows them (unescaped: escape before HTML)."""
        name = self.first_name if not self.last_name else f"{self.first_name} {self.last_name}"
        return name or (self.username or str(self.user_id))


@dataclass(frozen=True, slots=True)
class TableRow:
    """A table (``tables`` joined with its group's current ``chat_id``).

    ``options``: per-table settings snapshot (timers, language...) as a dict.
    ``next_deal``: a prepared deal for the next hand (tests, replays): ``{"seed": ...}`` or
    ``{"hands": [...], "wall": ..., "dealer": ...}``; consumed when the hand is dealt.
    """

    table_id: int
    group_id: int
    chat_id: int
    status: str
    rules: Any
    options: dict[str, Any]
    created_by: int | None
    created_at: float
    updated_at: float
    seq: int
    hand_no: int
    next_dealer: int | None
    next_deal: dict[str, Any] | None
    lobby_msg_id: int | None
    table_msg_id: int | None
    deadline_at: float | None
    deadline_seq: int | None
    deadline_kind: str | None
    announced_seq: int = 0
    join_token: str | None = None
    """The secret of the table's join links (``/start j<table36>_<token>``); None on closed tables
    of an old database."""

    @property
    def is_open(self) -> bool:
        """Not closed (lobby, playing or between hands)."""
        return self.status in TableStatus.OPEN


@dataclass(frozen=True, slots=True)
class SeatRow:
    """A seat: a human (``user_id``) or an AI (``ai_level``); ``hand_msg_id`` in the user's chat."""

    table_id: int
    seat: int
    user_id: int | None
    ai_level: str | None
    on_auto: bool
    timeouts: int
    hand_msg_id: int | None

    @property
    def is_ai(self) -> bool:
        """An AI seat (no human)."""
        return self.user_id is None


@dataclass(frozen=True, slots=True)
class HandRow:
    """A dealt hand; ``deal`` is the JSON the engine was dealt from; ``result`` once over."""

    hand_id: int
    table_id: int
    hand_no: int
    dealer: int
    deal: dict[str, Any]
    first_seq: int
    status: str
    result: dict[str, Any] | None


@dataclass(frozen=True, slots=True)
class EventRow:
    """One stored engine event: ``data`` is its JSON object (engine ``to_json``)."""

    table_id: int
    seq: int
    hand_id: int
    kind: str
    data: dict[str, Any]
    actor: int | None


@dataclass(frozen=True, slots=True)
class LedgerRow:
    """Points of one seat in one hand, in 底金 units times the table's base stake."""

    hand_id: int
    seat: int
    user_id: int | None
    hand_delta: int
    kong_delta: int
    delta: int
    won: bool = False
    dealt_in: bool = False
    multiplier: int = 0
    fans: str = ""


def loads(text: str | None) -> Any:
    """JSON text -> value (None stays None)."""
    return None if text is None else json.loads(text)


def dumps(value: Any) -> str:
    """Compact, key-sorted JSON (stable text, so equal values store equal strings)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
