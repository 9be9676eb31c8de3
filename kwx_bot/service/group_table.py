"""The group's own messages that stay: the lobby and the live table (docs/architecture.md §4
"Delivery").

The live table is one picture message per hand (its first showing is the hand-start announcement),
edited as the hand goes on — as a write that can wait: at most once per ``table_edit_seconds``
(:data:`PAGE_EDIT_SECONDS` while every player at the table has it open on the Mini App's page),
changes in between coalesced into one trailing edit; only while the group's budget keeps
:data:`TABLE_RESERVE` writes of the minute free for announcements (Telegram allows about 20 group
messages a minute); and, while the bot token is busy, only once the picture is
:data:`TABLE_STALE_SECONDS` old, so the players' own hand messages go first.  What it should show is
:func:`.screen.table_screen`; :class:`.delivery.Delivery` makes the write.

Both run under the table's group lock, which a deal does not take: a live-table edit that a deal
overtook (:meth:`GroupTable.overtaken`) is not bookkept — the new hand has its own table message.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ..store import HandRow, TableStatus
from ..words.i18n import translator
from . import game
from .buttons import Keyboard
from .delivery import Delivery, Shown, Target
from .keyboards import open_table_row
from .live import LiveTable
from .ports import Outcome, Page
from .screen import LobbyScreen, TableScreen, table_screen
from .screens import group_facts
from .tables import Tables

__all__ = ["PAGE_EDIT_SECONDS", "TABLE_RESERVE", "TABLE_STALE_SECONDS", "TOKEN_RECHECK_SECONDS", "GroupTable"]

log = logging.getLogger("kwx.present")

PAGE_EDIT_SECONDS = 30.0
"""The live table's edit interval while every player at the table has it open on the Mini App's page:
the group's picture is then the spectators' view only (the page's public view of the table is live
for them), so it follows slowly and a table costs about 0.3 Telegram writes a turn
(docs/architecture.md §4 "The Mini App"); announcements (the hand's start, a 亮倒, the result) are
not held back."""

TABLE_RESERVE = 6
"""Writes of every minute's group budget that live-table edits leave to announcements (a hand's
start, up to three 亮倒 reveals, the result, a notice): edits use at most 20 - 6 = 14 a minute."""

TABLE_STALE_SECONDS = 60.0
"""While the bot token is busy (:meth:`.ports.Messenger.token_busy`) the live table's edit waits, for
at most this long after its last edit: the token's writes go to the players' hand messages first."""

TOKEN_RECHECK_SECONDS = 0.5
"""How often a held-back live table edit asks again whether the token is still busy."""


def table_target(screen: TableScreen, buttons: Keyboard = ()) -> Target:
    """The live table message as delivery sees it: the picture and its caption, and ``buttons``
    (the Mini App's "Open the table" link, when there is a Mini App)."""
    return Target(Shown(screen.picture.key, screen.caption, buttons), screen.picture)


class GroupTable:
    """The lobby and live table messages of the tables (module docstring); ``retry(live)`` is told
    when a scheduled edit failed."""

    def __init__(
        self, tables: Tables, delivery: Delivery, *, edit_seconds: float, clock: Callable[[], float],
        retry: Callable[[LiveTable], None], page: Page,
    ) -> None:  # fmt: skip
        self.tables = tables
        self.store = tables.store
        self.delivery = delivery
        self.sender = delivery.sender
        self.edit_seconds = edit_seconds
        self.clock = clock
        self.retry = retry
        self.page = page
        """The Mini App's page: who has a table open there."""
        self.tasks: set[asyncio.Task[None]] = set()
        """Pending coalesced live-table edits."""

    # -- the lobby -------------------------------------------------------------------------------

    async def lobby(self, live: LiveTable, screen: LobbyScreen) -> None:
        """Send or edit the group's lobby message to show ``screen``; a message gone (deleted, or
        left behind in a migrated group) is posted anew."""
        target = Target(Shown(None, screen.text, screen.buttons), None)
        async with live.group_lock:
            msg_id = live.row.lobby_msg_id
            sent = await self.delivery.deliver(live.row.chat_id, msg_id, live.lobby, target)
            if msg_id is not None and sent is not None and sent.outcome is Outcome.GONE:
                live.lobby.forget()
                await self._set_lobby_msg(live, None)
                msg_id = None
                sent = await self.delivery.deliver(live.row.chat_id, None, live.lobby, target)
            if msg_id is None and sent is not None and sent.ok and sent.message_id is not None:
                await self._set_lobby_msg(live, sent.message_id)

    async def _set_lobby_msg(self, live: LiveTable, msg_id: int | None) -> None:
        async with self.store.transaction() as tx:
            await tx.set_messages(live.table_id, lobby_msg_id=msg_id)
        await self.tables.refresh(live)

    # -- the live table --------------------------------------------------------------------------

    def schedule(self, live: LiveTable) -> None:
        """Edit the live table message soon, as a write that can wait (module docstring)."""
        if live.table_task is not None and not live.table_task.done():
            return
        delay = max(0.0, live.table_last_edit + self.interval(live) - self.clock())
        task = asyncio.get_running_loop().create_task(self._later(live, delay))
        live.table_task = task
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def interval(self, live: LiveTable) -> float:
        """Seconds between two edits of the live table: ``edit_seconds``, or :data:`PAGE_EDIT_SECONDS`
        while every player at the table has it open on the Mini App's page."""
        humans, viewers = live.humans(), self.page.viewers(live.table_id)
        if humans and all(s.user_id in viewers for s in humans):
            return max(self.edit_seconds, PAGE_EDIT_SECONDS)
        return self.edit_seconds

    def detach(self, live: LiveTable) -> None:
        """A table was ended: drop its pending live-table edit."""
        if live.table_task is not None and not live.table_task.done():
            live.table_task.cancel()
        live.table_task = None

    def _wait(self, live: LiveTable) -> float:
        """Seconds the live table's edit should wait still (0: now): the group's budget, then the
        token's load."""
        wait = self.sender.group_wait(live.row.chat_id, TABLE_RESERVE)
        if wait <= 0 and self.sender.token_busy():
            wait = min(TOKEN_RECHECK_SECONDS, live.table_last_edit + TABLE_STALE_SECONDS - self.clock())
        return max(0.0, wait)

    async def _later(self, live: LiveTable, delay: float) -> None:
        delay = max(delay, self._wait(live))
        while delay > 0:  # announcements or hand messages may have taken the budget meanwhile: wait
            await asyncio.sleep(delay)
            delay = self._wait(live)
        live.table_task = None
        try:
            async with live.group_lock:
                ok = await self.sync(live)
        except Exception:
            log.exception("table %s: live table edit failed", live.table_id)
            ok = False
        if not ok:
            self.retry(live)

    def opener(self, live: LiveTable) -> Keyboard:
        """The live table's "Open the table" link to the bot's Main Mini App (none without one)."""
        url = self.tables.settings.webapp_url
        if url is None:
            return ()
        return open_table_row(translator(live.group_lang), live.table_id, url, private=False, bot=self.sender.username)

    async def _screen(self, live: LiveTable, *, started: bool = False) -> tuple[TableScreen, HandRow, Any] | None:
        """The live table's screen, with the hand and message it is for; None when a deal overtook
        the step while the totals were read."""
        hand, msg_id = live.hand, live.row.table_msg_id
        assert hand is not None
        totals = await self.totals(live)
        if live.state is None or self.overtaken(live, hand, msg_id):
            return None
        return table_screen(translator(live.group_lang), group_facts(live, totals), started=started), hand, msg_id

    async def sync(self, live: LiveTable, *, can_wait: bool = True) -> bool:
        """Edit the live table message to the current state; False if that failed.  No message yet
        (its hand-start announcement is pending): nothing to do.  ``can_wait``: the edit is a write
        that can wait (:meth:`.ports.Messenger.edit_caption`); the final one, with the result, is not."""
        if live.hand is None or live.state is None or live.row.table_msg_id is None:
            return True
        if live.row.status == TableStatus.CLOSED:
            return True
        made = await self._screen(live)
        if made is None:
            return True
        screen, hand, msg_id = made

        def still() -> bool:
            return not self.overtaken(live, hand, msg_id)

        target = table_target(screen, self.opener(live))
        sent = await self.delivery.deliver(live.row.chat_id, msg_id, live.table, target, still=still, can_wait=can_wait)
        if sent is None:
            return True  # nothing to do, or it showed a hand that is over now (the new hand has its own message)
        live.table_last_edit = self.clock()
        if sent.outcome is Outcome.GONE:
            return await self.send(live, started=False)
        return sent.outcome is not Outcome.FAILED  # refused (403: the bot left the group): no retry

    async def send(self, live: LiveTable, *, started: bool) -> bool:
        """Send a new live table message (at a hand's start, or when the old one is gone); False if
        the send failed."""
        made = await self._screen(live, started=started)
        if made is None:
            return True
        screen, hand, msg_id = made
        live.table.forget()

        def still() -> bool:
            return not self.overtaken(live, hand, msg_id)

        target = table_target(screen, self.opener(live))
        sent = await self.delivery.deliver(live.row.chat_id, None, live.table, target, still=still)
        live.table_last_edit = self.clock()
        if sent is None:
            return True
        if sent.ok and sent.message_id is not None:
            async with self.store.transaction() as tx:
                await tx.set_messages(live.table_id, table_msg_id=sent.message_id)
            live.row = replace(live.row, table_msg_id=sent.message_id)
            return True
        return sent.outcome is not Outcome.FAILED

    @staticmethod
    def overtaken(live: LiveTable, hand: HandRow, msg_id: int | None) -> bool:
        """Since ``hand`` and its live table message ``msg_id`` were read, a deal (or a new table
        message) overtook a group step that does not hold the presentation lock: it must not be
        bookkept (nor go on with the old hand's values)."""
        now = live.hand
        return now is None or now.hand_id != hand.hand_id or live.row.table_msg_id != msg_id

    async def totals(self, live: LiveTable) -> tuple[int, ...]:
        """Each seat's running match total at this table: the sum of its player's ledger deltas
        (points of 底金, every hand so far, /void corrections included), one entry per seat of the
        rules (``rules.players``).  A person's total is keyed by the person, so a member who sat a
        hand out or moved seat (four members at a 3-seat table, docs/rules.md §A2.1) keeps it; an
        AI seat's by its seat.  Read from the store once per hand and once more when the hand is
        over (the ledger changes only then, or by a /void, which shows from the next picture of
        a new hand on)."""
        state, hand = live.state, live.hand
        n = game.rules_of(state).players if state is not None else len(live.names())
        key = (hand.hand_no if hand is not None else 0, state is not None and game.is_over(state), n)
        if live.totals is not None and live.totals[0] == key:
            return live.totals[1]
        by_user: dict[int, int] = {}
        by_ai_seat: dict[int, int] = {}
        for r in await self.store.ledger_of_table(live.table_id):
            if r.user_id is not None:
                by_user[r.user_id] = by_user.get(r.user_id, 0) + r.delta
            else:
                by_ai_seat[r.seat] = by_ai_seat.get(r.seat, 0) + r.delta
        totals = [0] * n
        for i in range(n):
            seat = live.seat(i)
            if seat is not None and seat.user_id is not None:
                totals[i] = by_user.get(seat.user_id, 0)
            else:
                totals[i] = by_ai_seat.get(i, 0)
        live.totals = (key, tuple(totals))
        return live.totals[1]
