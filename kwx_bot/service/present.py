"""Presentation: make every message show the table's committed state, with as few calls as possible.

The presenter never decides anything: after a commit the table service calls :meth:`Presenter.sync`,
which compares what each message *should* show (computed from the live state) with what it last
showed (:class:`~kwx_bot.service.live.Shown`) and makes only the calls that differ:

* a player's hand message: a new photo (``editMessageMedia``) only when the seat's own tiles
  changed or a claim window opens for it (the edit its buttons need anyway carries the picture),
  else ``editMessageCaption`` (caption and buttons) or ``editMessageReplyMarkup``; a new message
  (``sendPhoto``) at each deal, after ``/hand``, or when the old one is gone.  The picture shows
  the table (every pond, meld and 亮倒 hand) as it is when drawn: the other seats' moves alone
  never edit it (:mod:`.pictures`);
* the group's live table message: edited at most once per ``table_edit_seconds`` — changes in
  between are coalesced into one trailing edit (Telegram allows ~20 group messages a minute);
* turn reminders: edits never notify, and a notifying message for every turn would double the
  calls, so a player who has not acted ``remind_seconds`` after their turn (or claim window) began
  gets one short notifying message replying to the hand message; it is deleted once they act;
* group announcements (new messages): hand start (which becomes the live table message), each 亮倒
  reveal picture, the result picture with its text breakdown and the next-hand button.  They are
  tracked by ``tables.announced_seq``, so an announcement lost to a crash is sent after the restart.

Sends happen after the commit and outside the table's decision lock; a failed send never affects
the game.  A table's messages are updated in order under two locks of their own: the players' hand
messages under its presentation lock (which a deal also takes to swap the hand), the group's — the
lobby, the announcements, the live table — under its group lock, which nothing else waits for.  A
group message waiting on Telegram (its pace, a 429) therefore never holds up a player's hand
message or a deal; a live-table edit that a deal overtook is simply not bookkept (the new hand has
its own table message).  Only the previous hand's announcements still pending make a deal wait
(:meth:`Presenter.finish_announcements`), so the group reads a result before the next hand.

Presentation heals itself: a send or edit that fails (flood control outlasting the sender's own
retries, a network error) leaves the message's *shown* state as it was, so the next sync repeats
exactly the missing calls; and every failed sync schedules a retry of the whole table (after
``retry_seconds``, doubling up to ``retry_max_seconds``, at most ``retry_limit`` times in a row), so a
table never waits for a press that cannot come.  An announcement counts as announced only once sent
(a failed hand start, 亮倒 reveal or result is sent by the retry, in order); a hand message whose
edits keep failing is replaced by a fresh one.  An exception while presenting one seat never skips
the other seats or the announcements: :meth:`Presenter.sync` finishes every step, schedules the
retry, then re-raises the first exception for its caller to log (and tell the group).

Buttons that went stale are removed (one edit each): the Next hand / End the table keyboards of
result messages and between-hands offers once the next hand is dealt or the table is closed, and the
"Resume in private chat" button of an unreachable player's group notice once they are back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from ..store import HandRow, TableStatus
from ..words.captions import hand_caption, lobby_text, result_caption, reveal_caption, table_caption
from ..words.i18n import Translator
from ..words.texts import clean, name, rules_label, table_size
from ..words.ui import RevealChoice
from ..words.verify_text import add_line, commitment_line, seed_line
from . import game
from .buttons import Keyboard, StartKind, encode_start
from .game import Discarded, HandEnded, HandStarted, Tile
from .group_settings import TableChoice
from .keyboards import hand_keyboard, lobby_keyboard, next_hand_keyboard, take_back_keyboard
from .live import LiveSeat, LiveTable, Shown, Ui, shown_digest
from .pictures import Pictures, claim_key, hand_key, hand_table_key, needs_photo, table_key
from .ports import Messenger, Outcome
from .reveal import shown_tiles
from .tables import Tables

__all__ = ["Presenter"]

log = logging.getLogger("kwx.present")

CHAT_PAYLOAD = "hello"
"""The ``/start`` payload of the lobby's "Open a private chat with me" button (not a codec payload)."""


TABLE_RESERVE = 6
"""Writes of every minute's group budget that live-table edits leave to announcements (a hand's
start, up to three 亮倒 reveals, the result, a notice): edits use at most 20 - 6 = 14 a minute."""


TABLE_STALE_SECONDS = 60.0
"""While the bot token is busy (:meth:`.ports.Messenger.token_busy`) the live table's edit waits, for
at most this long after its last edit: the token's writes go to the players' hand messages first."""

TOKEN_RECHECK_SECONDS = 0.5
"""How often a held-back live table edit asks again whether the token is still busy."""


def _game_of(live: LiveTable) -> str:
    """The game of the table's hand for its pictures (``rules.ruleset``: 卡五星 or 卡心五)."""
    return live.state.rules.ruleset.value if live.state is not None else "kawuxing"


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
    ) -> None:
        self.tables = tables
        self.store = tables.store
        self.sender = sender
        self.pictures = pictures
        self.table_edit_seconds = table_edit_seconds
        self.remind_seconds = remind_seconds
        self.retry_seconds = retry_seconds
        self.retry_max_seconds = retry_max_seconds
        self.retry_limit = retry_limit
        self.clock = clock
        self._tasks: set[asyncio.Task[None]] = set()
        self._reminder_tasks: set[asyncio.Task[None]] = set()
        self._retry_tasks: dict[int, asyncio.Task[None]] = {}
        self._retrying: dict[int, int] = {}
        """table id -> presentation retries whose sync is under way (no longer in ``_retry_tasks``)"""
        self._offers: dict[int, list[int]] = {}
        """table id -> group messages with Next hand / End the table buttons"""
        self._resume_notices: dict[tuple[int, int], int] = {}
        """(table id, user id) -> group notice with a "Resume in private chat" button"""

    # -- helpers ---------------------------------------------------------------------------------

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

    async def remember_shown(self) -> None:
        """A clean stop: store what every hand and live table message shows, so the next start
        does not edit messages that already show the same (:func:`~.live.shown_digest`)."""
        for live in self.tables.cached():
            seats = {s.seat: shown_digest(s.shown) for s in live.seats if s.shown is not None}
            table = shown_digest(live.table_shown) if live.table_shown is not None else None
            if seats or table:
                async with self.store.transaction() as tx:
                    await tx.set_shown_digests(live.table_id, seats, table)

    async def aclose(self) -> None:
        """Cancel pending coalesced table edits, reminders and retries (shutdown)."""
        tasks = list(self._tasks) + list(self._reminder_tasks) + list(self._retry_tasks.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def detach(self, live: LiveTable) -> None:
        """A table was ended: drop its pending live-table edit and presentation retry."""
        for task in (live.table_task, self._retry_tasks.pop(live.table_id, None)):
            if task is not None and not task.done():
                task.cancel()
        live.table_task = None

    async def idle(self) -> None:
        """Wait until no coalesced table edit is pending (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    # -- lobby -----------------------------------------------------------------------------------

    def lobby_shown(self, live: LiveTable, state: str, notes: list[str] | None = None) -> tuple[str, Keyboard | None]:
        """Text and keyboard of the lobby message in ``state`` (open / started / expired / closed)."""
        tr = self.tables.tr(live.group_lang)
        players = live.players
        seats: list[str | None] = [None] * max(live.chairs, max((s.seat + 1 for s in live.seats), default=0))
        for s in live.seats:
            seats[s.seat] = s.name + (" 🤖" if s.is_ai else "")
        out = live.sitting_out
        if out is not None and out.seat < len(seats):  # a member of the table sitting a hand out: not a free chair
            seats[out.seat] = out.name
        rules = rules_label(live.row.rules, tr)
        base = live.rules.base
        choice = TableChoice.of(live.row.options)
        size = table_size("kaxinwu" if game.is_kaxinwu(live.rules) else "kawuxing", players, live.chairs, tr)
        text = lobby_text(
            tr, title=live.title, seats=seats, rules=rules, base=base, state=state, notes=notes or live.notes,
            table=size, players=players, kaxinwu=game.is_kaxinwu(live.rules),
        )  # fmt: skip
        markup = None
        if state == "open":
            markup = lobby_keyboard(
                tr, live.table_id, live.row.seq, deep_link=self.chat_link(),
                full=len(live.seats) >= players, has_ai=any(s.is_ai for s in live.seats),
                game=choice.game, seats=players, taken=len(live.seats),
            )  # fmt: skip
        return text, markup

    async def lobby(self, live: LiveTable, state: str = "open") -> None:
        """Send or edit the group's lobby message; a closed or expired table's other group buttons
        (Next hand / End the table, Resume in private chat) are removed too."""
        if state in ("closed", "expired"):
            await self.clear_offers(live, closing=True)
        text, markup = self.lobby_shown(live, state)
        desired = Shown(None, text, markup or ())
        async with live.group_lock:
            if live.row.lobby_msg_id is not None and live.lobby_shown != desired:
                sent = await self.sender.edit_text(live.row.chat_id, live.row.lobby_msg_id, text, markup)
                if sent.ok:
                    live.lobby_shown = desired
                if sent.outcome is not Outcome.GONE:
                    return
                live.lobby_shown = None  # gone (deleted, or left behind in a migrated group): post anew
                async with self.store.transaction() as tx:
                    await tx.set_messages(live.table_id, lobby_msg_id=None)
                await self.tables.refresh(live)
            if live.row.lobby_msg_id is None:
                sent = await self.sender.send_text(live.row.chat_id, text, markup)
                if sent.ok and sent.message_id is not None:
                    async with self.store.transaction() as tx:
                        await tx.set_messages(live.table_id, lobby_msg_id=sent.message_id)
                    await self.tables.refresh(live)
                    live.lobby_shown = desired

    # -- the whole table -------------------------------------------------------------------------

    async def sync(self, live: LiveTable, *, seats: list[int] | None = None, attempt: int = 0) -> None:
        """Bring hand messages, announcements and (coalesced) the live table up to date; if anything
        failed, retry later (``attempt``: how many retries in a row led here).  A closed table's
        messages stay as its closing left them (:meth:`ended`)."""
        if live.state is None or live.row.status == TableStatus.CLOSED:
            return
        ok = True
        errors: list[Exception] = []
        async with live.present_lock:  # the players' own messages first
            for seat in live.humans():
                if seats is None or seat.seat in seats:
                    step = self._sync_hand(live, seat, fresh=attempt >= 3)
                    ok = await self._guard(live, f"hand message of seat {seat.seat}", step, errors) and ok
        async with live.group_lock:  # then the group's (module docstring)
            for seat in live.humans():
                if seats is None or seat.seat in seats:
                    await self._guard(live, "resume notice", self._resume_notice_done(live, seat), errors)
            ok = await self._guard(live, "announcements", self._announce(live), errors) and ok
            if live.row.status == TableStatus.BETWEEN:  # the final table edit, after the result
                ok = await self._guard(live, "live table", self._sync_table(live, can_wait=False), errors) and ok
        if live.row.status == TableStatus.PLAYING:
            self.schedule_table(live)
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

    def _danger(self, live: LiveTable, seat: int) -> set[Tile]:
        """Tiles another 亮倒 seat waits on, marked ⚠ because discarding one is 包胡 (docs/rules.md
        §E#13); none when the rules have no 包胡 (卡心五, docs/rules.md §B: its protection forbids
        those discards instead, shown 🔒)."""
        assert live.state is not None
        if not live.state.rules.baohu:
            return set()
        view = game.group_view(live.state)
        out: set[Tile] = set()
        for s in view.seats:
            if s.seat != seat and s.liangdao:
                out.update(s.waits)
        return out

    def hand_desired(self, live: LiveTable, seat: LiveSeat) -> tuple[Shown, game.SeatView, Keyboard | None]:
        """What the seat's hand message should show now."""
        state = live.state
        assert state is not None and live.hand is not None
        tr = self.tables.tr(seat.lang)
        view = game.seat_view(state, seat.seat)
        over = state.result is not None
        legal = [] if over or seat.automatic else game.legal(state, seat.seat)
        ui_valid = seat.ui_seq == live.row.seq
        ui = seat.ui if ui_valid else Ui.NORMAL
        danger = self._danger(live, seat.seat)
        langqi = game.is_kaxinwu(state.rules)
        choice, kept = self._reveal_choice(live, seat, legal) if ui is Ui.REVEAL else (None, ())
        protected = game.protected(state, seat.seat) if not over else ()
        kind = state.rules.ruleset.value
        caption = hand_caption(
            tr, title=live.title, hand_no=live.hand.hand_no, view=view, legal=legal, names=live.names(),
            on_auto=seat.automatic and not over, ui=ui, ui_tile=seat.ui_tile if ui_valid else None, danger=danger,
            result_delta=state.result.deltas[seat.seat] if state.result is not None else None,
            events=live.events, reveal=choice, langqi=langqi, protected=protected,
        )  # fmt: skip
        if seat.automatic and not over:
            markup: Keyboard | None = take_back_keyboard(tr, live.table_id, 0) if seat.can_pm else None
            key = (
                seat.shown.photo_key
                if seat.shown is not None and seat.shown.photo_key
                else hand_key(view, seat.lang, protected, kind)
            )
        else:
            markup = hand_keyboard(tr, live.table_id, live.row.seq, legal, drawn=view.drawn, danger=danger,
                                   ui=ui, ui_tile=seat.ui_tile, protected=protected,
                                   reveal=choice, kept=kept, langqi=langqi)  # fmt: skip
            key = hand_key(view, seat.lang, protected, kind)
            if any(a.kind is game.ActionKind.PASS for a in legal):  # a claim window: a fresh table
                key = claim_key(key, view.public.seq)
        return Shown(key, caption, markup or ()), view, markup

    @staticmethod
    def _reveal_choice(
        live: LiveTable, seat: LiveSeat, legal: list[game.Action]
    ) -> tuple[RevealChoice | None, tuple[Tile, ...]]:
        """The seat's reveal choice in progress as the engine judges it, and the kept tiles it
        splits; (None, ()) when the choice no longer fits the hand (it then shows the 亮倒 menu)."""
        state, tile = live.state, seat.ui_tile
        assert state is not None
        offered = {a.tile for a in legal if a.kind is game.ActionKind.LIANGDAO and a.reveal is not None}
        if tile is None or tile not in offered:
            return None, ()
        kept = game.held_after(state, seat.seat, tile)
        try:
            shown = shown_tiles(kept, seat.ui_mask)
        except ValueError:
            return None, ()
        return game.check_reveal(state, seat.seat, tile, shown), kept

    async def _sync_hand(self, live: LiveTable, seat: LiveSeat, *, retry: bool = True, fresh: bool = False) -> bool:
        """Make the seat's hand message show :meth:`hand_desired`; False if a call failed (the
        caller retries).  ``fresh``: replace a message whose edit fails by a new one."""
        if seat.user_id is None or not seat.can_pm:
            return True
        desired, view, markup = self.hand_desired(live, seat)
        shown = seat.shown
        await self._reminders(live, seat)
        msg_id, hand = seat.hand_msg_id, live.hand  # read together with ``desired``; see _moved_on
        if msg_id is not None and shown is None and seat.shown_digest == shown_digest(desired):
            shown = seat.shown = desired  # it already shows this (the bot stopped cleanly since)
        seat.shown_digest = None
        if msg_id is not None and shown == desired:
            return True
        if msg_id is not None and self._buttons_can_wait(live, shown, desired):
            return True  # shown stays as it was: a later sync makes the edit
        user = seat.user_id
        drawn: str | None = None  # what the picture sent now shows (photo key and table), if one is
        if msg_id is None:
            photo, drawn = await self._hand_photo(live, seat, desired, view)
            if self._moved_on(live, seat, msg_id, hand):
                return False
            sent = await self.sender.send_photo(user, photo, desired.caption, markup)
            if sent.ok and sent.message_id is not None:
                await self._set_hand_msg(live, seat, sent.message_id)
        elif shown is None or needs_photo(shown.photo_key, desired.photo_key or ""):
            photo, drawn = await self._hand_photo(live, seat, desired, view)
            if self._moved_on(live, seat, msg_id, hand):
                return False
            sent = await self.sender.edit_media(user, msg_id, photo, desired.caption, markup)
        elif shown.caption != desired.caption:
            sent = await self.sender.edit_caption(user, msg_id, desired.caption, markup)
        else:
            sent = await self.sender.edit_markup(user, msg_id, markup)
        if sent.outcome is Outcome.GONE and retry:
            await self._set_hand_msg(live, seat, None)
            seat.shown = None
            return await self._sync_hand(live, seat, retry=False)
        if sent.ok:
            seat.shown = desired
            if sent.file_id is not None and drawn is not None:
                seat.file_id, seat.file_key = sent.file_id, drawn
            return True
        if sent.outcome is Outcome.FAILED and fresh and retry and seat.hand_msg_id is not None:
            old = seat.hand_msg_id  # edits keep failing: a new message (the old one's buttons go stale)
            await self._set_hand_msg(live, seat, None)
            seat.shown = None
            if await self._sync_hand(live, seat, retry=False):
                await self.sender.edit_markup(user, old, None, can_wait=True)  # stale buttons
                return True
            if seat.hand_msg_id is None:
                await self._set_hand_msg(live, seat, old)
            return False
        return sent.outcome is not Outcome.FAILED  # refused (403): the seat is played for; no retry

    def _buttons_can_wait(self, live: LiveTable, shown: Shown | None, desired: Shown) -> bool:
        """Only buttons would go (a claim window closed, or the player just answered it) while the
        picture stays, in a hand still going on, and the bot token is busy: that edit is a write that
        can wait (docs/architecture.md §4 "Presentation") — it is made with the seat's next change or
        once the token is less busy; a press on a button left over meanwhile is answered as stale
        and changes nothing."""
        return (
            shown is not None
            and bool(shown.markup)
            and not desired.markup
            and not needs_photo(shown.photo_key, desired.photo_key or "")  # the picture stays
            and live.state is not None
            and live.state.result is None
            and self.sender.token_busy()
        )

    @staticmethod
    def _moved_on(live: LiveTable, seat: LiveSeat, msg_id: int | None, hand: object) -> bool:
        """While a picture was drawn, the seat's hand message or the hand itself changed (a new
        deal, ``/hand``): what was drawn belongs to neither, so the step is dropped (False to the
        caller, which presents the current state next).  Holding the presentation lock, as every
        such change does, makes this a safety net rather than the rule."""
        return seat.hand_msg_id != msg_id or live.hand is not hand

    async def _reminders(self, live: LiveTable, seat: LiveSeat) -> None:
        """Delete an answered reminder; schedule one for a seat that must act now."""
        state = live.state
        must_act = (
            state is not None and state.result is None and not seat.automatic and seat.user_id is not None
            and seat.seat in state.to_act()
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
                live.row.seq != seq or state is None or state.result is not None or seat.automatic
                or live.row.status != TableStatus.PLAYING
                or seat.seat not in state.to_act() or seat.reminder_msg_id is not None or seat.user_id is None
            ):  # fmt: skip
                return
            tr = self.tables.tr(seat.lang)
            text = tr.gettext("⏰ Your move at the table in {title}.").format(title=name(live.title or "?", 40))
            due = self.tables.due_at(live, seat)
            if due is not None:  # how long the seat may still think, its time bank included
                left = max(0, round(due - self.tables.clock()))
                text += " " + tr.gettext("{n} s left (your time bank included).").format(n=left)
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
        async with live.present_lock:
            await self._drop_reminder(live, seat)
            msg_id, shown = seat.hand_msg_id, seat.shown
            if msg_id is None:
                return
            if caption is not None:
                sent = await self.sender.edit_caption(seat.user_id, msg_id, caption, None)
                if sent.ok:
                    seat.shown = Shown(shown.photo_key if shown is not None else None, caption, ())
            elif shown is None or shown.markup:
                await self.sender.edit_markup(seat.user_id, msg_id, None)

    async def _hand_photo(
        self, live: LiveTable, seat: LiveSeat, desired: Shown, view: game.SeatView
    ) -> tuple[bytes | str, str]:
        """The hand picture ``desired`` names, with the table as it is now, and what it shows (its
        photo key and :func:`~.pictures.hand_table_key`).  The picture uploaded last is sent again
        by its ``file_id`` only when it shows exactly that: the same tiles *and* the same table, so
        a new message never shows an old table."""
        names = self.display_names(live, seat.lang)
        drawn = f"{desired.photo_key}|{hand_table_key(view.public, names)}"
        if seat.file_id is not None and seat.file_key == drawn:
            return seat.file_id, drawn
        state = live.state
        assert state is not None
        protected = game.protected(state, seat.seat) if state.result is None else ()
        kind = state.rules.ruleset.value
        photo = await self.pictures.hand(view, lang=seat.lang, protected=protected, game=kind, names=names)
        return photo, drawn

    async def _set_hand_msg(self, live: LiveTable, seat: LiveSeat, msg_id: int | None) -> None:
        seat.hand_msg_id = msg_id
        async with self.store.transaction() as tx:
            await tx.set_hand_msg(live.table_id, seat.seat, msg_id)

    async def forget_hand_message(self, live: LiveTable, seat: LiveSeat) -> int | None:
        """Detach the seat's hand message (``/hand``): the next sync sends a new one.  Returns the
        old message id if it may still have buttons (which the caller then removes); None if there
        was none or it is known to show no buttons (an edit would only be "not modified")."""
        old = seat.hand_msg_id
        if seat.shown is not None and not seat.shown.markup:
            old = None
        async with live.present_lock:
            await self._set_hand_msg(live, seat, None)
            seat.shown = None
        return old

    # -- group: live table -----------------------------------------------------------------------

    def schedule_table(self, live: LiveTable) -> None:
        """Edit the live table message soon, as a write that can wait (docs/architecture.md §4
        "Presentation"): at most once per ``table_edit_seconds``; only while the group's budget keeps
        :data:`TABLE_RESERVE` writes of the minute free for announcements
        (:meth:`.ports.Messenger.group_wait`) — the group stays within Telegram's 20 messages a
        minute; and, while the bot token is busy (:meth:`.ports.Messenger.token_busy`), only once the
        picture is :data:`TABLE_STALE_SECONDS` old — the players' own hand messages go first.  Changes
        made meanwhile are coalesced into the one edit."""
        if live.table_task is not None and not live.table_task.done():
            return
        delay = max(0.0, live.table_last_edit + self.table_edit_seconds - self.clock())
        task = asyncio.get_running_loop().create_task(self._table_later(live, delay))
        live.table_task = task
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _table_wait(self, live: LiveTable) -> float:
        """Seconds the live table's edit should wait still (0: now): the group's budget, then the
        token's load."""
        wait = self.sender.group_wait(live.row.chat_id, TABLE_RESERVE)
        if wait <= 0 and self.sender.token_busy():
            wait = min(TOKEN_RECHECK_SECONDS, live.table_last_edit + TABLE_STALE_SECONDS - self.clock())
        return max(0.0, wait)

    async def _table_later(self, live: LiveTable, delay: float) -> None:
        delay = max(delay, self._table_wait(live))
        while delay > 0:  # announcements or hand messages may have taken the budget meanwhile: wait
            await asyncio.sleep(delay)
            delay = self._table_wait(live)
        live.table_task = None
        try:
            async with live.group_lock:
                ok = await self._sync_table(live)
        except Exception:
            log.exception("table %s: live table edit failed", live.table_id)
            ok = False
        if not ok:
            self._retry(live, 0)

    async def _sync_table(self, live: LiveTable, *, can_wait: bool = True) -> bool:
        """Edit the live table message to the current state; False if that failed.  No message yet
        (its hand-start announcement is pending): nothing to do.  Runs under the group lock only: a
        deal that overtakes it (:meth:`_overtaken`) leaves its outcome unrecorded.  ``can_wait``: the
        edit is a write that can wait (:meth:`.ports.Messenger.edit_caption`); the final one, with
        the result, is not."""
        hand = live.hand
        if hand is None or live.state is None or live.row.table_msg_id is None or live.row.status == TableStatus.CLOSED:
            return True
        totals = await self._totals(live)
        state, msg_id = live.state, live.row.table_msg_id  # what follows reads one hand, up to the next await
        if state is None or msg_id is None or self._overtaken(live, hand, msg_id):
            return True
        tr = self.tables.tr(live.group_lang)
        view = game.group_view(state)
        names = self.display_names(live)
        key = table_key(view, names, live.group_lang, totals, _game_of(live))
        caption = self._table_caption(live, tr, view, names)
        desired = Shown(key, caption, ())
        if live.table_shown is None and live.table_digest == shown_digest(desired):
            live.table_shown = desired  # it already shows this (the bot stopped cleanly since)
        live.table_digest = None
        if live.table_shown == desired:
            return True
        if live.table_shown is None or live.table_shown.photo_key != key:
            photo: bytes | str
            if live.table_file is not None and live.table_file[0] == key:
                photo = live.table_file[1]
            else:
                photo = await self.pictures.table(view, names, lang=live.group_lang, totals=totals, game=_game_of(live))
            if self._overtaken(live, hand, msg_id):
                return True
            sent = await self.sender.edit_media(live.row.chat_id, msg_id, photo, caption, can_wait=can_wait)
        else:
            sent = await self.sender.edit_caption(live.row.chat_id, msg_id, caption, can_wait=can_wait)
        live.table_last_edit = self.clock()
        if self._overtaken(live, hand, msg_id):
            return True  # it showed a hand that is over now; the new hand has its own table message
        if sent.ok:
            live.table_shown = desired
            if sent.file_id is not None:
                live.table_file = (key, sent.file_id)
            return True
        if sent.outcome is Outcome.GONE:
            return await self._send_table(live, started=False)
        return sent.outcome is not Outcome.FAILED  # refused (403: the bot left the group): no retry

    @staticmethod
    def _overtaken(live: LiveTable, hand: HandRow, msg_id: int | None) -> bool:
        """Since ``hand`` and its live table message ``msg_id`` were read, a deal (or a new table
        message) overtook a group step that does not hold the presentation lock: it must not be
        bookkept (nor go on with the old hand's values)."""
        now = live.hand
        return now is None or now.hand_id != hand.hand_id or live.row.table_msg_id != msg_id

    @staticmethod
    def _table_caption(
        live: LiveTable, tr: Translator, view: game.PublicView, names: list[str], *, started: bool = False
    ) -> str:
        """The live table's caption plus the deal's commitment (SHA-256 of its seed, published at the
        deal while the seed stays secret: a prefix, whole in ``/verify``; a prepared deal says it has
        none)."""
        assert live.hand is not None and live.state is not None
        rules = live.state.rules
        size = table_size("kaxinwu" if game.is_kaxinwu(rules) else "kawuxing", rules.players, rules.players, tr)
        caption = table_caption(
            tr, hand_no=live.hand.hand_no, view=view, names=names, started=started, table=size,
            sitting_out=live.sitting_out.name if live.sitting_out is not None else None,
        )  # fmt: skip
        seed = live.state.seed
        commitment = None if seed is None else game.commitment(seed)
        return add_line(caption, commitment_line(tr, commitment, live.hand.hand_no))

    def display_names(self, live: LiveTable, lang: str | None = None) -> list[str]:
        """Names as pictures show them (托管 seats marked in ``lang``, default the group's; bidi
        controls dropped, :func:`clean`)."""
        names = [clean(n) if n else n for n in live.names()]
        auto = self.tables.tr(lang or live.group_lang).gettext("{name} (auto)")
        for s in live.seats:
            if s.user_id is not None and s.automatic:
                names[s.seat] = auto.format(name=names[s.seat])
        return names

    async def _send_table(self, live: LiveTable, *, started: bool) -> bool:
        """Send a new live table message (at a hand's start, or when the old one is gone); False if
        the send failed."""
        hand, msg_id = live.hand, live.row.table_msg_id
        assert hand is not None
        totals = await self._totals(live)
        state = live.state
        if state is None or self._overtaken(live, hand, msg_id):  # a deal meanwhile (module docstring)
            return True
        tr = self.tables.tr(live.group_lang)
        view = game.group_view(state)
        names = self.display_names(live)
        key = table_key(view, names, live.group_lang, totals, _game_of(live))
        caption = self._table_caption(live, tr, view, names, started=started)
        photo = await self.pictures.table(view, names, lang=live.group_lang, totals=totals, game=_game_of(live))
        sent = await self.sender.send_photo(live.row.chat_id, photo, caption)
        live.table_last_edit = self.clock()
        if self._overtaken(live, hand, msg_id):
            return True
        if sent.ok and sent.message_id is not None:
            async with self.store.transaction() as tx:
                await tx.set_messages(live.table_id, table_msg_id=sent.message_id)
            live.row = replace(live.row, table_msg_id=sent.message_id)
            live.table_shown = Shown(key, caption, ())
            if sent.file_id is not None:
                live.table_file = (key, sent.file_id)
            return True
        return sent.outcome is not Outcome.FAILED

    # -- group: announcements --------------------------------------------------------------------

    async def _announce(self, live: LiveTable) -> bool:
        """Send the group announcements of events after ``announced_seq``, in order; returns False
        at the first one that fails (bookkept up to the event before it; the retry resumes there)."""
        hand, state = live.hand, live.state
        if hand is None or state is None:
            return True
        done = live.row.announced_seq
        last = hand.first_seq + len(live.events) - 1
        if last <= done:
            return True
        tr = self.tables.tr(live.group_lang)
        announced = False
        ok = True
        upto = done
        for event in live.events:
            seq = hand.first_seq + event.seq - 1
            if seq <= done:
                continue
            if isinstance(event, HandStarted):
                announced = True
                # the hand's table message may exist already (sent before a crash, not bookkept)
                if live.row.table_msg_id is None:
                    ok = await self._send_table(live, started=True)
                if ok:
                    await self.clear_offers(live)
            elif isinstance(event, Discarded) and event.liangdao:
                announced = True
                names = self.display_names(live)
                view = game.group_view(state)
                photo = await self.pictures.reveal(
                    view, event.seat, names, lang=live.group_lang, game=state.rules.ruleset.value
                )
                langqi = game.is_kaxinwu(state.rules)
                caption = reveal_caption(tr, view=view, seat=event.seat, names=names, langqi=langqi)
                ok = (await self.sender.send_photo(live.row.chat_id, photo, caption)).outcome is not Outcome.FAILED
            elif isinstance(event, HandEnded):  # (the final table edit follows it: Presenter.sync)
                announced = True
                names = self.display_names(live)
                view = game.group_view(state)
                totals = await self._totals(live)
                liangdao = [s.seat for s in view.seats if s.liangdao]
                view, names, out = self._next_hand(live, view, names)
                assert view.result is not None
                caption = result_caption(
                    tr, hand_no=hand.hand_no, result=view.result, names=names, totals=totals, liangdao=liangdao
                )
                if out is not None:
                    caption = add_line(caption, tr.gettext("Sitting out next hand: {name}").format(name=name(out)))
                caption = add_line(caption, seed_line(tr, state.seed, hand.hand_no))  # the hand is over
                photo = await self.pictures.result(
                    view, names, lang=live.group_lang, hands=game.all_hands(state), game=state.rules.ruleset.value
                )
                markup = next_hand_keyboard(tr, live.table_id, live.row.seq)
                sent = await self.sender.send_photo(live.row.chat_id, photo, caption, markup)
                if sent.ok and sent.message_id is not None:
                    self._offers.setdefault(live.table_id, []).append(sent.message_id)
                ok = sent.outcome is not Outcome.FAILED
            if not ok:
                log.warning("table %s: announcement of event %s failed; retrying later", live.table_id, seq)
                break
            upto = seq
        if announced and upto > done:  # (events that announce nothing need no bookkeeping: a restart rescans them)
            async with self.store.transaction() as tx:
                await tx.set_announced(live.table_id, upto)
            live.row = replace(live.row, announced_seq=max(live.row.announced_seq, upto))
        return ok

    def announced(self, live: LiveTable) -> bool:
        """Every announcement of the table's hand is in the group (or it has no hand)."""
        hand = live.hand
        return hand is None or live.row.announced_seq >= hand.first_seq + len(live.events) - 1

    async def finish_announcements(self, live: LiveTable) -> None:
        """Before a deal (the caller holds ``live.lock``): the hand's announcements not in the group
        yet — its result still waiting out flood control, say — are made now, so the group reads
        the result before the next hand starts.  Usually there are none (Next hand is pressed on the
        result) and nothing waits: a deal never waits for a lobby or live table edit.  A failure is
        logged; the deal goes on."""
        if self.announced(live):
            return
        async with live.group_lock:
            try:
                await self._announce(live)
            except Exception:
                log.exception("table %s: announcing the last hand before the next deal failed", live.table_id)

    @staticmethod
    def _next_hand(
        live: LiveTable, view: game.PublicView, names: list[str]
    ) -> tuple[game.PublicView, list[str], str | None]:
        """At a table of four members (docs/rules.md §A2.1) the result names the next hand's dealer
        and who sits it out as :func:`engine.seating.next_lineup` says (a winner who would deal
        rests; the member sitting out may deal): the view's next dealer becomes a member index,
        ``names`` gains the name of the member sitting this hand out (index ``players``), and the
        raw name of the next one to sit out is returned (None once a member left: the three left
        play on).  Elsewhere all three are as given."""
        result, bench = view.result, live.sitting_out
        planned = live.next_lineup(view.dealer, result) if result is not None else None
        if result is None or planned is None:
            return view, names, None
        lineup = planned[0]  # after a member left: nobody sits out (docs/rules.md §A2.1)
        members = [*names, clean(bench.name) if bench is not None else ""]
        nxt = replace(result, next_dealer=lineup.seats[lineup.dealer])
        out = None if lineup.sitting_out is None else members[lineup.sitting_out]
        return replace(view, result=nxt), members, out

    async def _totals(self, live: LiveTable) -> list[int]:
        """Each seat's running match total at this table: the sum of its player's ledger deltas
        (points of 底金, every hand so far, /void corrections included), one entry per seat of the
        rules (``rules.players``).  A person's total is keyed by the person, so a member who sat a
        hand out or moved seat (four members at a 3-seat table, docs/rules.md §A2.1) keeps it; an
        AI seat's by its seat.  Read from the store once per hand and once more when the hand is
        over (the ledger changes only then, or by a /void, which shows from the next picture of
        a new hand on)."""
        state, hand = live.state, live.hand
        n = state.rules.players if state is not None else len(live.names())
        key = (hand.hand_no if hand is not None else 0, state is not None and state.result is not None, n)
        if live.totals is not None and live.totals[0] == key:
            return list(live.totals[1])
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
        return totals

    # -- group: notices --------------------------------------------------------------------------

    async def notice(
        self, live: LiveTable, text: str, markup: Keyboard | None = None, *, resume_for: int | None = None
    ) -> None:
        """A short group message (e.g. a player went on auto-play).  ``resume_for``: the user whose
        "Resume in private chat" button ``markup`` is; it is removed once they are back."""
        sent = await self.sender.send_text(live.row.chat_id, text, markup, notify=False)
        if resume_for is not None and markup is not None and sent.ok and sent.message_id is not None:
            old = self._resume_notices.get((live.table_id, resume_for))
            self._resume_notices[(live.table_id, resume_for)] = sent.message_id
            if old is not None:
                await self.sender.edit_markup(live.row.chat_id, old, None, can_wait=True)

    async def sitting_out_notice(self, live: LiveTable) -> None:
        """Tell the member who sits this hand out, privately, that he does (four members at a
        3-seat table, docs/rules.md §A2.1): he gets no hand message, the group shows the table."""
        out = live.sitting_out
        if out is None or out.user_id is None or not out.can_pm or live.hand is None:
            return
        _ = self.tables.tr(out.lang).gettext
        text = _("You sit out hand {n} at {title}: watch it on the group's table. You play again next hand.")
        text = text.format(n=live.hand.hand_no, title=name(live.title, 40))
        await self.sender.send_text(out.user_id, text, notify=False)

    async def _resume_notice_done(self, live: LiveTable, seat: LiveSeat) -> None:
        """The player can be messaged again: their notice's "Resume" button is stale."""
        if seat.user_id is None or not seat.can_pm:
            return
        msg_id = self._resume_notices.pop((live.table_id, seat.user_id), None)
        if msg_id is not None:
            await self.sender.edit_markup(live.row.chat_id, msg_id, None, can_wait=True)

    async def offer_next_hand(self, live: LiveTable, text: str, markup: Keyboard) -> None:
        """A between-hands message with the Next hand / End the table buttons (``/new`` between
        hands); its buttons are removed like the result's once stale."""
        sent = await self.sender.send_text(live.row.chat_id, text, markup)
        if sent.ok and sent.message_id is not None:
            self._offers.setdefault(live.table_id, []).append(sent.message_id)

    def note_offer(self, live: LiveTable, message_id: int | None) -> None:
        """Remember a group message with Next hand / End the table buttons (e.g. the one just
        pressed, when the bot restarted since sending it)."""
        offers = self._offers.setdefault(live.table_id, [])
        if message_id is not None and message_id not in offers:
            offers.append(message_id)

    def offers(self, live: LiveTable) -> list[int]:
        """Group messages of the table known to carry Next hand / End the table buttons."""
        return list(self._offers.get(live.table_id, []))

    async def clear_offers(self, live: LiveTable, *, closing: bool = False) -> None:
        """Remove the Next hand / End the table buttons (a hand was dealt, or the table closed);
        ``closing`` also removes "Resume in private chat" buttons of the table's notices."""
        for msg_id in self._offers.pop(live.table_id, []):
            await self.sender.edit_markup(live.row.chat_id, msg_id, None, can_wait=True)
        if closing:
            for key in [k for k in self._resume_notices if k[0] == live.table_id]:
                await self.sender.edit_markup(live.row.chat_id, self._resume_notices.pop(key), None, can_wait=True)
