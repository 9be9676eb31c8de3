"""In-memory companions of open tables: the engine state, seats, and what each message shows.

A :class:`LiveTable` is a cache over the store: everything in it can be rebuilt from SQLite (the
hand's state by replaying its events), which is exactly what happens after a restart.  Only
presentation details (what a message currently shows, a player's half-finished 亮倒 menu) live only
here; losing them costs at most one redundant edit.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from ..store import HandRow, TableRow
from .delivery import Delivered, Shown
from .game import Event, HandResultView, Lineup, RuleError, RuleSet, State, members, next_lineup, rules_of
from .screen.seat import Menu, Ui

__all__ = ["LiveSeat", "LiveTable", "Menu", "Shown", "Ui"]


@dataclass(slots=True)
class LiveSeat:
    """A seat of an open table.  ``name`` is raw (escape before HTML); ``lang`` the catalog for
    the player's private messages; ``can_pm`` False once a private send was refused (403)."""

    seat: int
    user_id: int | None
    ai_level: str | None
    name: str = ""
    lang: str = "zh_CN"
    can_pm: bool = True
    on_auto: bool = False
    timeouts: int = 0
    hand_msg_id: int | None = None
    hand: Delivered = field(default_factory=Delivered)
    """What the hand message shows."""
    menu: Menu = field(default_factory=Menu)
    """The hand message's 亮倒 / 廊起 menu (held at the seq it was made at)."""
    reminder_msg_id: int | None = None
    reminder_seq: int = -1
    last_press: str | None = None
    """The last press that changed the hand (``<seq>:<op><tile>``; stored with it)."""
    bank_used: float = 0.0
    """Seconds of the seat's time bank spent this hand (:mod:`.time_control`; stored)."""
    last_active: float = 0.0
    """When the player last pressed anything at the table (unix s; in memory only: after a restart
    the player counts as idle until the next press)."""

    @property
    def shown(self) -> Shown | None:
        """What the hand message shows (:attr:`hand`)."""
        return self.hand.shown

    @property
    def is_ai(self) -> bool:
        """An AI seat."""
        return self.user_id is None

    @property
    def automatic(self) -> bool:
        """Played by the AI: an AI seat, or a human on 托管 / unreachable."""
        return self.user_id is None or self.on_auto or not self.can_pm


@dataclass(slots=True)
class LiveTable:
    """An open table with its current hand (``state`` None in the lobby)."""

    row: TableRow
    seats: list[LiveSeat]
    group_lang: str
    title: str = ""
    hand: HandRow | None = None
    state: State | None = None
    events: list[Event] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """The decision lock: one press, deadline or deal at a time (:mod:`.play`)."""
    present_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """The players' own messages and a deal's swap of the hand (:mod:`.present`)."""
    group_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """The group's messages, in order: lobby, announcements, live table (:mod:`.present`); never
    taken by a deal, so a group message waiting on Telegram holds up no player and no deal."""
    table: Delivered = field(default_factory=Delivered)
    """What the live table message shows."""
    table_last_edit: float = 0.0
    table_task: asyncio.Task[Any] | None = None
    lobby: Delivered = field(default_factory=Delivered)
    """What the lobby message shows."""
    notes: list[str] = field(default_factory=list)
    deadline_from: float = 0.0
    """When the pending turn/claim deadline started (unix s; 0 after a restart)."""
    deadline_credit: float = 0.0
    """Seconds already added to that deadline for time the bot was rate-limited."""
    sitting_out: LiveSeat | None = None
    """The member who sits the current hand out (four members at a 3-seat table, docs/rules.md
    §A2.1): not among ``seats`` while a hand is dealt, gets no hand message, sees the group's table."""
    totals: tuple[tuple[int, bool, int], tuple[int, ...]] | None = None
    """The seats' running match totals as last read from the ledger, keyed by (hand number, hand
    over, seats) (see :meth:`.group_table.GroupTable.totals`)."""
    table_id: int = field(init=False)
    """The table id (its row's, which never changes; kept here, as every step asks for it)."""

    def __post_init__(self) -> None:
        self.table_id = self.row.table_id

    @property
    def table_shown(self) -> Shown | None:
        """What the live table message shows (:attr:`table`)."""
        return self.table.shown

    def seat_of(self, user_id: int) -> LiveSeat | None:
        """The user's seat here, or None."""
        for s in self.seats:
            if s.user_id == user_id:
                return s
        return None

    def seat(self, index: int) -> LiveSeat | None:
        """The seat with this index, or None if empty."""
        for s in self.seats:
            if s.seat == index:
                return s
        return None

    @property
    def rules(self) -> RuleSet:
        """The rules of the hand in play, else the table's stored rules (the standard game if the
        engine refuses them: a deal then says why)."""
        if self.state is not None:
            return rules_of(self.state)
        try:
            return RuleSet.from_json(self.row.rules)
        except RuleError:
            return RuleSet()

    @property
    def players(self) -> int:
        """Seats of a hand at this table: ``rules.players`` (docs/rules.md §A2.1)."""
        return self.rules.players

    @property
    def chairs(self) -> int:
        """Members the table takes: :func:`~.game.members` of its rules (a fourth member at a
        3-seat table sits out in turn)."""
        return members(self.rules)

    def names(self) -> list[str]:
        """Raw display names by seat index (one per seat of the rules, ``rules.players``; empty
        seats are "")."""
        out = [""] * self.players
        for s in self.seats:
            if s.seat < len(out):
                out[s.seat] = s.name
        return out

    def humans(self) -> list[LiveSeat]:
        """Seats with a human player."""
        return [s for s in self.seats if s.user_id is not None]

    def members(self) -> list[LiveSeat]:
        """Everyone at the table: the seats of the hand and the member who sits it out (by chair)."""
        return sorted([*self.seats, *([self.sitting_out] if self.sitting_out else [])], key=lambda s: s.seat)

    def next_lineup(self, dealer: int, result: HandResultView) -> tuple[Lineup, tuple[int, ...]] | None:
        """The lineup of the hand after ``result`` (dealt by seat ``dealer``) at a table where a
        member sat the current hand out (four members at a 3-seat table, docs/rules.md §A2.1), and
        the chairs of the AI seats that leave before it; None at any other table.

        Members are numbered by chair, as :func:`engine.seating.next_lineup` numbers them (chairs
        ``0 .. players-1`` are the hand's seats, chair ``players`` the member who sat it out).  An
        AI seat here only finishes the hand of a member removed from it (the lobby seats no AI
        beside a fourth member): it leaves at the next deal while more than ``players`` remain, and
        an empty chair is a member who left (removed while sitting out or between hands).  Fewer
        than ``players`` people keep one AI seat, as at any table losing a player."""
        if self.hand is None or self.hand.sitting_out is None or self.state is None:
            return None
        rules = rules_of(self.state)
        present = {s.seat: s for s in self.members()}
        surplus = len(present) - rules.players
        drop = tuple(c for c in sorted(present) if present[c].is_ai)[: max(surplus, 0)]
        leaving = set(range(rules.players + 1)) - (set(present) - set(drop))
        return next_lineup(rules, dealer, result, leaving), drop
