"""Presentation: make every message show the table's committed state, with as few calls as possible.

The presenter decides nothing: after a commit the table service calls :meth:`Presenter.sync`, which
brings each message to what the screen model says it should show (docs/architecture.md §4 "The
screen model", "Delivery"):

* each player's hand message: the seat's screen (:func:`.screens.hand_screen`), delivered with the
  least writes (:mod:`.delivery`): a new photo only when the seat's own tiles changed or a claim
  window opens for it, else the caption and buttons, else the buttons alone; a new message at each
  deal, after ``/hand``, or when the old one is gone.  The picture shows the table as it is when
  drawn: the other seats' moves alone never edit it;
* turn reminders: edits never notify, and a notifying message for every turn would double the
  calls, so a player who has not acted ``remind_seconds`` after their turn (or claim window) began
  gets one short notifying message replying to the hand message; it is deleted once they act;
* the group's announcements (:class:`.announcements.Announcer`) and its lobby and live table
  (:class:`.group_table.GroupTable`: edited as a write that can wait).

Sends happen after the commit and outside the table's decision lock; a failed send never affects
the game.  A table's messages are updated in order under two locks of their own: the players' hand
messages under its presentation lock (which a deal also takes to swap the hand), the group's — the
lobby, the announcements, the live table — under its group lock, which nothing else waits for.  A
group message waiting on Telegram (its pace, a 429) therefore never holds up a player's hand
message or a deal.  Only the previous hand's announcements still pending make a deal wait
(:meth:`Presenter.before_deal`), so the group reads a result before the next hand.

Presentation heals itself: a write that fails (flood control outlasting the sender's own retries, a
network error) leaves the message's *shown* state as it was, so the next sync repeats exactly the
missing writes; and every failed sync schedules a retry of the whole table (after ``retry_seconds``,
doubling up to ``retry_max_seconds``, at most ``retry_limit`` times in a row), so a table never waits
for a press that cannot come.  A hand message whose edits keep failing is replaced by a fresh one.
An exception while presenting one seat never skips the other seats or the announcements:
:meth:`Presenter.sync` finishes every step, schedules the retry, then re-raises the first exception
for its caller to log (and tell the group).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from ..store import TableStatus
from ..words.i18n import translator
from ..words.texts import name, sentences
from . import game
from .announcements import Announcer
from .buttons import Keyboard, StartKind, encode_start
from .delivery import Delivery, Shown, Slack, Target, shown_digest
from .ended_hands import EndedHands
from .group_table import GroupTable
from .keyboards import open_table_row
from .live import LiveSeat, LiveTable
from .pictures import Pictures
from .ports import Messenger, Outcome, Page
from .screen import Situation
from .screens import display_names, hand_screen, lobby_of
from .tables import Tables

__all__ = ["CHAT_PAYLOAD", "Presenter", "hand_target"]

log = logging.getLogger("kwx.present")

CHAT_PAYLOAD = "hello"
"""The ``/start`` payload of the lobby's "Open a private chat with me" button (not a codec payload)."""


def hand_target(live: LiveTable, seat: LiveSeat, webapp_url: str | None = None) -> Target:
    """The seat's screen (:func:`.screens.hand_screen`) as its hand message's delivery target, with
    the Mini App's "Open the table" row under its buttons when there is one (``webapp_url``): while
    the AI plays the seat, a picture already shown stays; while the hand is on, buttons that only go
    away may wait for a busy token (docs/architecture.md §4 "Delivery")."""
    screen = hand_screen(live, seat)
    extra = () if webapp_url is None else open_table_row(translator(seat.lang), live.table_id, webapp_url, private=True)
    slack = Slack.PICTURE if screen.picture_stays else Slack.NONE
    if screen.situation is not Situation.OVER:
        slack |= Slack.BUTTONS
    return Target(Shown(screen.picture.key, screen.caption, screen.buttons + extra), screen.picture, slack)


class Presenter:
    """See the module docstring."""

    def __init__(
        self,
        tables: Tables,
        sender: Messenger,
        pictures: Pictures,
        *,
        table_edit_seconds: float = 3.0,
        remind_seconds: float = 0.0,
        retry_seconds: float = 1.0,
        retry_max_seconds: float = 60.0,
        retry_limit: int = 12,
        clock: Callable[[], float] = time.monotonic,
        page: Page,
    ) -> None:
        self.tables = tables
        self.page = page
        """The Mini App's page: told at every sync that a table's screens may have changed, it answers
        who has the table open there (no hand-message writes for them)."""
        self.store = tables.store
        self.sender = sender
        self.pictures = pictures
        self.remind_seconds = remind_seconds
        self.retry_seconds = retry_seconds
        self.retry_max_seconds = retry_max_seconds
        self.retry_limit = retry_limit
        self.clock = clock
        self.delivery = Delivery(sender, pictures)
        self.group = GroupTable(
            tables,
            self.delivery,
            edit_seconds=table_edit_seconds,
            clock=clock,
            retry=lambda live: self._retry(live, 0),
            page=page,
        )
        self.announcer = Announcer(tables, self.delivery, self.group)
        self.ended_hands = EndedHands(self.delivery)
        self._reminder_tasks: set[asyncio.Task[None]] = set()
        self._retry_tasks: dict[int, asyncio.Task[None]] = {}
        self._retrying: dict[int, int] = {}
        """table id -> presentation retries whose sync is under way (no longer in ``_retry_tasks``)"""

    # -- links -----------------------------------------------------------------------------------

    def bot_username(self) -> str:
        """The bot's @username (known after getMe)."""
        return self.sender.username

    def deep_link(self, kind: StartKind, table_id: int, token: str | None = None) -> str:
        """``https://t.me/<bot>?start=<payload>`` (``token``: the table's join secret, for a join)."""
        return f"https://t.me/{self.bot_username()}?start={encode_start(kind, table_id, token)}"

    def chat_link(self) -> str:
        """A link that only opens the private chat: its ``/start`` payload (:data:`CHAT_PAYLOAD`)
        is no join or hand request, so it acts like a bare ``/start`` (which completes a join the
        user asked for with the Join button, and nothing else)."""
        return f"https://t.me/{self.bot_username()}?start={CHAT_PAYLOAD}"

    # -- life ------------------------------------------------------------------------------------

    async def remember_shown(self) -> None:
        """A clean stop: store what every hand and live table message shows, so the next start
        does not edit messages that already show the same (:func:`~.delivery.shown_digest`)."""
        for live in self.tables.cached():
            seats = {s.seat: shown_digest(s.hand.shown) for s in live.seats if s.hand.shown is not None}
            table = shown_digest(live.table.shown) if live.table.shown is not None else None
            if seats or table:
                async with self.store.transaction() as tx:
                    await tx.set_shown_digests(live.table_id, seats, table)

    async def aclose(self) -> None:
        """Cancel pending coalesced table edits, reminders and retries (shutdown)."""
        tasks = list(self.group.tasks) + list(self._reminder_tasks) + list(self._retry_tasks.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def detach(self, live: LiveTable) -> None:
        """A table was ended: drop its pending live-table edit and presentation retry."""
        self.page.changed(live.table_id)
        self.group.detach(live)
        task = self._retry_tasks.pop(live.table_id, None)
        if task is not None and not task.done():
            task.cancel()

    async def idle(self) -> None:
        """Wait until no coalesced table edit is pending (tests, shutdown)."""
        while self.group.tasks:
            await asyncio.gather(*list(self.group.tasks), return_exceptions=True)

    # -- the group: lobby, live table, announcements, notices -------------------------------------

    async def lobby(self, live: LiveTable, state: str = "open") -> None:
        """Send or edit the group's lobby message; a closed or expired table's other group buttons
        (Next hand / End the table, Resume in private chat) are removed too."""
        self.page.changed(live.table_id)
        if state in ("closed", "expired"):
            await self.announcer.clear_offers(live, closing=True)
        await self.group.lobby(live, lobby_of(live, state, self.chat_link()))

    def schedule_table(self, live: LiveTable) -> None:
        """Edit the live table message soon, as a write that can wait (:meth:`.GroupTable.schedule`)."""
        self.group.schedule(live)

    def announced(self, live: LiveTable) -> bool:
        """Every announcement of the table's hand is in the group (or it has no hand)."""
        return self.announcer.announced(live)

    async def before_deal(self, live: LiveTable) -> None:
        """Before a deal (``live`` still holds the hand that ended): the last hand's announcements not
        yet made (:meth:`.Announcer.finish`), and the hand messages of players who have the page
        open, to end once they leave it (:mod:`.ended_hands`)."""
        await self.announcer.finish(live)
        if live.state is not None and game.is_over(live.state):
            viewers, url = self.page.viewers(live.table_id), self.tables.settings.webapp_url
            for s in live.humans():
                if s.user_id in viewers and s.user_id is not None and s.hand_msg_id is not None and s.can_pm:
                    self.ended_hands.keep(live.table_id, s.user_id, s.hand_msg_id, s.hand, hand_target(live, s, url))

    async def notice(
        self, live: LiveTable, text: str, markup: Keyboard | None = None, *, resume_for: int | None = None
    ) -> None:
        """A short group message (:meth:`.Announcer.notice`)."""
        await self.announcer.notice(live, text, markup, resume_for=resume_for)

    async def sitting_out_notice(self, live: LiveTable) -> None:
        """Tell the member who sits this hand out (:meth:`.Announcer.sitting_out_notice`)."""
        await self.announcer.sitting_out_notice(live)

    async def offer_next_hand(self, live: LiveTable, text: str, markup: Keyboard) -> None:
        """A between-hands offer with the Next hand / End the table buttons (:meth:`.Announcer.offer_next_hand`)."""
        await self.announcer.offer_next_hand(live, text, markup)

    def note_offer(self, live: LiveTable, message_id: int | None) -> None:
        """Remember a group message with Next hand / End the table buttons."""
        self.announcer.note_offer(live, message_id)

    def offers(self, live: LiveTable) -> list[int]:
        """Group messages of the table known to carry Next hand / End the table buttons."""
        return self.announcer.offers(live)

    def display_names(self, live: LiveTable, lang: str | None = None) -> list[str]:
        """Names as pictures show them in ``lang`` (default: the group's; :func:`.screens.display_names`)."""
        return list(display_names(live, translator(lang or live.group_lang)))

    # -- the whole table -------------------------------------------------------------------------

    async def sync(
        self, live: LiveTable, *, seats: list[int] | None = None, attempt: int = 0, asked: bool = False
    ) -> None:
        """Bring hand messages, announcements and (coalesced) the live table up to date; if anything
        failed, retry later (``attempt``: how many retries in a row led here).  A closed table's
        messages stay as its closing left them (:meth:`ended`).  The hand message of a player who
        has the table open on the page is left alone unless he ``asked`` for it in the chat."""
        viewers = self.page.changed(live.table_id)
        if live.state is None or live.row.status == TableStatus.CLOSED:
            return
        ok = True
        errors: list[Exception] = []
        chosen = [s for s in live.humans() if seats is None or s.seat in seats]
        async with live.present_lock:  # the players' own messages first
            for seat in chosen:
                if not asked and seat.user_id in viewers:
                    continue  # the page shows him this screen (module docstring)
                if (live.table_id, seat.user_id) in self.ended_hands.waiting:  # hands he ended on the page
                    step = self.ended_hands.deliver(live.table_id, seat.user_id or 0)
                    ok = await self._guard(live, "ended hand messages", step, errors) and ok
                step = self._sync_hand(live, seat, fresh=attempt >= 3)
                ok = await self._guard(live, f"hand message of seat {seat.seat}", step, errors) and ok
        async with live.group_lock:  # then the group's (module docstring)
            for seat in chosen:
                await self._guard(live, "resume notice", self.announcer.resume_notice_done(live, seat), errors)
            ok = await self._guard(live, "announcements", self.announcer.announce(live), errors) and ok
            if live.row.status == TableStatus.BETWEEN:  # the final table edit, after the result
                ok = await self._guard(live, "live table", self.group.sync(live, can_wait=False), errors) and ok
        if live.row.status == TableStatus.PLAYING:
            self.group.schedule(live)
        if not ok:
            self._retry(live, attempt)
        if errors:
            raise errors[0]  # the caller logs it and tells the group; the other steps went on

    @staticmethod
    async def _guard(live: LiveTable, what: str, step: Awaitable[bool | None], errors: list[Exception]) -> bool:
        """Run one presentation step; an exception counts as a failure and is kept in ``errors``
        (the first one for the caller to raise, later ones logged here)."""
        try:
            return await step is not False
        except Exception as e:
            if errors:
                log.exception("table %s: presenting the %s failed too", live.table_id, what)
            errors.append(e)
            return False

    def _retry(self, live: LiveTable, attempt: int) -> None:
        """Schedule a full sync of the table after a failure (one pending retry per table)."""
        pending = self._retry_tasks.get(live.table_id)
        if pending is not None and not pending.done():
            return
        if attempt >= self.retry_limit:
            log.warning("table %s: presentation still failing after %d retries; next try on the next change",
                        live.table_id, attempt)  # fmt: skip
            return
        delay = min(self.retry_seconds * 2**attempt, self.retry_max_seconds)
        task = asyncio.get_running_loop().create_task(self._retry_later(live, delay, attempt + 1))
        self._retry_tasks[live.table_id] = task

        def done(t: asyncio.Task[None], table_id: int = live.table_id) -> None:
            if self._retry_tasks.get(table_id) is t:
                del self._retry_tasks[table_id]

        task.add_done_callback(done)

    async def _retry_later(self, live: LiveTable, delay: float, attempt: int) -> None:
        await asyncio.sleep(delay)
        self._retry_tasks.pop(live.table_id, None)  # this run may schedule the next one
        if live.row.status == TableStatus.CLOSED or not any(t is live for t in self.tables.cached()):
            return
        log.info("table %s: presentation retry %d", live.table_id, attempt)
        table_id = live.table_id
        self._retrying[table_id] = self._retrying.get(table_id, 0) + 1
        try:
            await self.sync(live, attempt=attempt)
        except Exception:
            log.exception("table %s: presentation retry failed", live.table_id)
        finally:
            left = self._retrying.pop(table_id) - 1
            if left:
                self._retrying[table_id] = left

    def retry_pending(self, table_id: int) -> bool:
        """A presentation retry of the table is scheduled, or its sync is still under way (its
        edits paced or waiting out a 429): once False, what the retry made is shown (tests)."""
        task = self._retry_tasks.get(table_id)
        return (task is not None and not task.done()) or table_id in self._retrying

    # -- hand messages ---------------------------------------------------------------------------

    async def _sync_hand(self, live: LiveTable, seat: LiveSeat, *, retry: bool = True, fresh: bool = False) -> bool:
        """Make the seat's hand message show its screen (:func:`.screens.hand_screen`) as delivery's
        target (:func:`hand_target`, with the Mini App's "Open the table" row when there is a Mini
        App); False if a write failed (the caller retries).  ``fresh``:
        replace a message whose edit fails by a new one."""
        if seat.user_id is None or not seat.can_pm:
            return True
        target = hand_target(live, seat, self.tables.settings.webapp_url)
        await self._reminders(live, seat)
        user, msg_id, hand = seat.user_id, seat.hand_msg_id, live.hand
        sent = await self.delivery.deliver(
            user, msg_id, seat.hand, target, still=lambda: seat.hand_msg_id == msg_id and live.hand is hand
        )
        if sent is None:  # nothing to do, or the message or the hand moved on while the picture was drawn
            return seat.hand_msg_id == msg_id and live.hand is hand
        if msg_id is None and sent.ok and sent.message_id is not None:
            await self._set_hand_msg(live, seat, sent.message_id)
        if sent.outcome is Outcome.GONE and retry:
            await self._set_hand_msg(live, seat, None)
            return await self._sync_hand(live, seat, retry=False)
        if sent.outcome is Outcome.FAILED and fresh and retry and seat.hand_msg_id is not None:
            return await self._replace_hand(live, seat)
        return sent.outcome is not Outcome.FAILED  # refused (403): the seat is played for; no retry

    async def _replace_hand(self, live: LiveTable, seat: LiveSeat) -> bool:
        """Edits of the hand message keep failing: a new message (the old one's buttons go stale)."""
        old, user = seat.hand_msg_id, seat.user_id
        assert old is not None and user is not None
        await self._set_hand_msg(live, seat, None)
        if await self._sync_hand(live, seat, retry=False):
            await self.sender.edit_markup(user, old, None, can_wait=True)  # stale buttons
            return True
        if seat.hand_msg_id is None:
            await self._set_hand_msg(live, seat, old)
        return False

    async def _set_hand_msg(self, live: LiveTable, seat: LiveSeat, msg_id: int | None) -> None:
        if msg_id is None:
            seat.hand.forget()
        seat.hand_msg_id = msg_id
        async with self.store.transaction() as tx:
            await tx.set_hand_msg(live.table_id, seat.seat, msg_id)

    async def forget_hand_message(self, live: LiveTable, seat: LiveSeat) -> int | None:
        """Detach the seat's hand message (``/hand``): the next sync sends a new one.  Returns the
        old message id if it may still have buttons (which the caller then removes); None if there
        was none or it is known to show no buttons (an edit would only be "not modified")."""
        old = seat.hand_msg_id
        if seat.hand.shown is not None and not seat.hand.shown.markup:
            old = None
        async with live.present_lock:
            await self._set_hand_msg(live, seat, None)
        return old

    # -- reminders -------------------------------------------------------------------------------

    async def _reminders(self, live: LiveTable, seat: LiveSeat) -> None:
        """Delete an answered reminder; schedule one for a seat that must act now."""
        state = live.state
        must_act = (
            state is not None and not game.is_over(state) and not seat.automatic and seat.user_id is not None
            and seat.seat in game.to_act(state)
        )  # fmt: skip
        if seat.reminder_msg_id is not None and (not must_act or seat.reminder_seq != live.row.seq):
            await self._drop_reminder(live, seat)
        if must_act and self.remind_seconds > 0 and seat.reminder_seq != live.row.seq:
            seat.reminder_seq = live.row.seq
            self._spawn(self._remind_later(live, seat, live.row.seq))

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._reminder_tasks.add(task)
        task.add_done_callback(self._reminder_tasks.discard)

    async def _remind_later(self, live: LiveTable, seat: LiveSeat, seq: int) -> None:
        await asyncio.sleep(self.remind_seconds)
        async with live.present_lock:
            state = live.state
            if (
                live.row.seq != seq or state is None or game.is_over(state) or seat.automatic
                or live.row.status != TableStatus.PLAYING
                or seat.seat not in game.to_act(state) or seat.reminder_msg_id is not None or seat.user_id is None
                or seat.user_id in self.page.viewers(live.table_id)  # the page shows him his turn
            ):  # fmt: skip
                return
            tr = translator(seat.lang)
            text = tr.gettext("⏰ Your move at the table in {title}.").format(title=name(live.title or "?", 40))
            due = self.tables.due_at(live, seat)
            if due is not None:  # how long the seat may still think, its time bank included
                left = max(0, round(due - self.tables.clock()))
                text = sentences(tr, text, tr.gettext("{n} s left (your time bank included).").format(n=left))
            sent = await self.sender.send_text(seat.user_id, text, reply_to=seat.hand_msg_id)
            if sent.ok and sent.message_id is not None:
                await self._keep_reminder(live, seat, sent.message_id, seq)

    async def _keep_reminder(self, live: LiveTable, seat: LiveSeat, msg_id: int | None, seq: int) -> None:
        """Remember the seat's reminder (``msg_id``, None: deleted) and the seq it reminded of, in
        the store too: a restart deletes a reminder sent before it."""
        async with self.store.transaction() as tx:
            await tx.set_reminder(live.table_id, seat.seat, msg_id, seq)
        seat.reminder_msg_id, seat.reminder_seq = msg_id, seq

    async def _drop_reminder(self, live: LiveTable, seat: LiveSeat) -> None:
        """Delete the seat's reminder, if it has one (the player acted, the hand or the table ended)."""
        old = seat.reminder_msg_id
        if old is None:
            return
        await self._keep_reminder(live, seat, None, seat.reminder_seq)
        await self.sender.delete(seat.user_id or 0, old)

    async def ended(self, live: LiveTable, seat: LiveSeat, caption: str | None = None) -> None:
        """The table was ended or the seat's player removed from it (``/kill``, ``/kick``, the bot
        removed from the group): the seat's reminder is deleted and its hand message loses its
        buttons; with ``caption`` (a hand ended in play, :func:`~kwx_bot.words.captions.ended_caption`)
        the message says so instead of whose turn it was."""
        if seat.user_id is None:
            return
        self.page.changed(live.table_id)
        async with live.present_lock:
            await self._drop_reminder(live, seat)
            await self.ended_hands.deliver(live.table_id, seat.user_id)
            msg_id, shown = seat.hand_msg_id, seat.hand.shown
            if msg_id is None:
                return
            if caption is not None:
                sent = await self.sender.edit_caption(seat.user_id, msg_id, caption, None)
                if sent.ok:
                    seat.hand.shown = Shown(shown.photo_key if shown is not None else None, caption, ())
            elif shown is None or shown.markup:
                await self.sender.edit_markup(seat.user_id, msg_id, None)
