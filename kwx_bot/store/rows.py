"""Row values returned by the store (frozen; times are unix seconds as floats)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, NamedTuple

__all__ = [
    "EventRow",
    "GroupStanding",
    "HandRecord",
    "HandRow",
    "LedgerEntry",
    "LedgerRow",
    "SeasonReport",
    "SeatHand",
    "SeatResult",
    "SeatRow",
    "Standing",
    "StatsRows",
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
    """A Telegram user as last seen, as one bot knows them (``get_user``'s ``bot_id``): ``can_pm``:
    that bot may send them private messages; ``pending_table_id``: a join of that bot's table
    waiting for the user's ``/start``."""

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
    table_digest: str | None = None
    """What the live table message showed when the bot last stopped cleanly (a digest)."""
    bot_id: int = 0
    """The Telegram user id of the bot that runs the table (0: made before ownership, not yet
    adopted; docs/architecture.md §8)."""
    deadline_start: float | None = None
    """When the pending turn or claim deadline started (unix s; moved back with ``deadline_at``
    for time Telegram held the table back): each waiting seat is due its move's own time plus what
    is left of its time bank after it (docs/rules.md §E#33)."""

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
    last_press: str | None = None
    """The seat's last accepted press (``<seq>:<op><tile>``): the same press again is answered the same."""
    shown_digest: str | None = None
    """What the hand message showed when the bot last stopped cleanly (a digest; None otherwise)."""
    bank_used: float = 0.0
    """Seconds of the seat's time bank spent in the current hand (docs/rules.md §E#33)."""
    reminder_msg_id: int | None = None
    """The turn reminder in the player's private chat not yet deleted (docs/architecture.md §4
    "Presentation"), or None."""
    reminder_seq: int = -1
    """The table's seq the seat was last reminded of (-1: none)."""

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
    sitting_out: int | None = None
    """The member (user id) who sat out this hand at a table of four members and three seats
    (docs/rules.md §A2.1); None when nobody did."""


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
    """JSON text -> value (None stays None); the writes' side is :func:`.tx.dumps`."""
    return None if text is None else json.loads(text)


# ------------------------------------------------------------------------------ ledger reports


@dataclass(frozen=True, slots=True)
class Standing:
    """One party's season in a group.

    ``user_id`` None = all AI seats together (``name`` is then "").  ``name`` is the display name as
    last seen (unescaped).  ``points``: sum of every ledger row (hands, kong money, corrections).
    ``hands``: hands with a row for this party; ``wins``; ``dealt_in``: hands in which this party
    was the 点炮者 / robbed player; ``best_multiplier``: the largest uncapped M of a win (0 = no win)
    with that win's 番 names ``best_fans`` (Chinese, as the engine spells them), its hand
    ``best_hand`` (every seat, as ``/history`` reads it: whose 亮倒 its 亮倒 番 stands for) and the
    winner's seat in it ``best_seat`` (None when unknown).
    """

    user_id: int | None
    name: str
    points: int
    hands: int
    wins: int
    dealt_in: int
    best_multiplier: int = 0
    best_fans: tuple[str, ...] = ()
    best_hand: HandRecord | None = None
    best_seat: int | None = None


@dataclass(frozen=True, slots=True)
class GroupStanding:
    """A user's standing in one group's current season: ``rank`` of ``players`` (1 + how many have more points)."""

    group_id: int
    title: str
    season: int
    rank: int
    players: int
    standing: Standing


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat of a finished hand (ledger row ``kind = 'hand'``, plus any correction rows).

    ``by``: for a winner, ``self_draw`` / ``discard`` / ``rob_kong`` (from the hand's result; None if
    unknown); ``baohu``: this winner was paid by 包胡; ``correction``: the sum of correction rows;
    ``declared``: the seat declared 亮倒 / 廊起 in the hand (its stored ``discarded`` event says so).
    """

    seat: int
    user_id: int | None
    name: str
    delta: int
    hand_delta: int
    kong_delta: int
    won: bool = False
    dealt_in: bool = False
    multiplier: int = 0
    fans: tuple[str, ...] = ()
    by: str | None = None
    baohu: bool = False
    correction: int = 0
    declared: bool = False


@dataclass(frozen=True, slots=True)
class HandRecord:
    """A finished hand of a group: ``hand_no`` within table ``table_id``; ``ended_at`` unix seconds."""

    hand_id: int
    table_id: int
    hand_no: int
    season: int
    ended_at: float | None
    seats: tuple[SeatResult, ...]

    @property
    def winners(self) -> tuple[SeatResult, ...]:
        """The winning seats (two on 一炮双响; none on 荒庄)."""
        return tuple(s for s in self.seats if s.won)


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One ledger row as exported (``created_at`` unix seconds; ``fans`` space-separated names)."""

    entry_id: int
    created_at: float
    season: int
    table_id: int
    hand_id: int
    hand_no: int | None
    seat: int
    user_id: int | None
    name: str
    kind: str
    hand_delta: int
    kong_delta: int
    delta: int
    won: bool
    dealt_in: bool
    multiplier: int
    fans: str
    corrects: int | None


@dataclass(frozen=True, slots=True)
class SeasonReport:
    """A group's current ``season``, its :class:`Standing` rows and the number of ``hands`` scored in it."""

    season: int
    standings: list[Standing]
    hands: int


class SeatHand(NamedTuple):
    """One seat of one scored hand, as ``/stats`` counts it (the ``hand`` ledger row and what the
    hand's stored record says of the seat); a named tuple, as a group's season may have tens of
    thousands of them.

    ``points``: the seat's points in the hand — hand payments, kong money and any corrections;
    ``hand_points``: the hand payments alone (the ledger's ``hand_delta``); ``won``, ``dealt_in``
    (点炮 or robbed of a kong), ``multiplier`` (uncapped, 0 without a win) and ``fans`` (Chinese
    names) as the ledger row has them; ``self_draw``: the seat won by self-draw (the hand's stored
    result); ``declared``: the seat declared 亮倒 / 廊起 in the hand (its stored ``discarded`` event
    with ``liangdao``); ``voided``: ``/void`` cancelled the hand (corrections bring every seat of it
    to zero).  ``user_id`` None = an AI seat (``name`` then "").
    """

    hand_id: int
    group_id: int
    season: int
    seat: int
    user_id: int | None
    name: str
    points: int
    hand_points: int = 0
    won: bool = False
    dealt_in: bool = False
    multiplier: int = 0
    fans: tuple[str, ...] = ()
    self_draw: bool = False
    declared: bool = False
    voided: bool = False


@dataclass(frozen=True, slots=True)
class StatsRows:
    """What ``/stats`` reads: ``seats`` in the order the hands were scored (ledger order), the
    ``options`` of each table they were played at (``{table_id: options}``, which keep the table's
    game) and the ``seasons`` read (``{group_id: season}``; a group missing from it: every season)."""

    seats: tuple[SeatHand, ...]
    options: dict[int, dict[str, Any]]
    seasons: dict[int, int]
