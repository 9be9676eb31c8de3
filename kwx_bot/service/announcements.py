"""The group's announcements and notices (docs/architecture.md §4 "Delivery").

Announcements are new messages for events of the hand: its start (which becomes the live table
message, :class:`.group_table.GroupTable`), each 亮倒 / 廊起 reveal picture, the result picture with
its text breakdown and the Next hand / End the table buttons.  Each is drawn from the moment it
describes (:mod:`.screen.announce`).  They are tracked by ``tables.announced_seq``: an announcement
counts once sent, so one lost to a crash or a failed send is sent after the restart or by the
presentation's retry, in order.

Notices are short group messages (a player went on auto-play, a between-hands offer).  Buttons that
went stale are removed (one edit each): the Next hand / End the table buttons of results and offers
once the next hand is dealt or the table closed, and the "Resume in private chat" button of an
unreachable player's notice once they are back.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from dataclasses import replace

from ..words.i18n import translator
from ..words.texts import name
from .buttons import Keyboard
from .delivery import Delivered, Delivery, Shown, Target
from .game import Discarded, Event, HandEnded, HandStarted
from .group_table import GroupTable
from .live import LiveSeat, LiveTable
from .ports import Outcome, Sent
from .screen import ResultAnnouncement, RevealAnnouncement, result_announcement, reveal_announcement
from .screens import display_names, result_facts, reveal_view
from .tables import Tables

__all__ = ["Announcer"]

log = logging.getLogger("kwx.present")


class Announcer:
    """Announcements, notices and their stale buttons (module docstring)."""

    def __init__(self, tables: Tables, delivery: Delivery, group: GroupTable) -> None:
        self.tables = tables
        self.store = tables.store
        self.delivery = delivery
        self.sender = delivery.sender
        self.group = group
        self._offers: dict[int, list[int]] = {}
        """table id -> group messages with Next hand / End the table buttons"""
        self._resume_notices: dict[tuple[int, int], int] = {}
        """(table id, user id) -> group notice with a "Resume in private chat" button"""

    # -- announcements ---------------------------------------------------------------------------

    async def announce(self, live: LiveTable) -> bool:
        """Send the group announcements of events after ``announced_seq``, in order; returns False
        at the first one that fails (bookkept up to the event before it; the retry resumes there)."""
        hand = live.hand
        if hand is None or live.state is None or self.announced(live):
            return True
        done = upto = live.row.announced_seq
        announced, ok = False, True
        for index, event in enumerate(live.events):
            seq = hand.first_seq + event.seq - 1
            if seq <= done:
                continue
            step = self._step(live, index, event)
            if step is not None:
                announced = True
                ok = await step
            if not ok:
                log.warning("table %s: announcement of event %s failed; retrying later", live.table_id, seq)
                break
            upto = seq
        if announced and upto > done:  # (events that announce nothing need no bookkeeping: a restart rescans them)
            async with self.store.transaction() as tx:
                await tx.set_announced(live.table_id, upto)
            live.row = replace(live.row, announced_seq=max(live.row.announced_seq, upto))
        return ok

    def _step(self, live: LiveTable, index: int, event: Event) -> Awaitable[bool] | None:
        """What announces the hand's event ``index``, or None."""
        if isinstance(event, HandStarted):
            return self._start(live)
        if isinstance(event, Discarded) and event.liangdao:
            names = display_names(live, translator(live.group_lang))
            view = reveal_view(live, index)
            return self._send(live, reveal_announcement(translator(live.group_lang), view, event.seat, names,
                                                        live.rules.ruleset))  # fmt: skip
        if isinstance(event, HandEnded):  # (the final table edit follows it: Presenter.sync)
            return self._result(live)
        return None

    async def _start(self, live: LiveTable) -> bool:
        """The hand's table message (it may exist already: sent before a crash, not bookkept); the
        last hand's offers lose their buttons."""
        ok = live.row.table_msg_id is not None or await self.group.send(live, started=True)
        if ok:
            await self.clear_offers(live)
        return ok

    async def _result(self, live: LiveTable) -> bool:
        totals = await self.group.totals(live)
        return await self._send(live, result_announcement(translator(live.group_lang), result_facts(live, totals)))

    async def _send(self, live: LiveTable, made: RevealAnnouncement | ResultAnnouncement) -> bool:
        """Send one announcement (a new message); a result's buttons are remembered as an offer."""
        buttons = made.buttons if isinstance(made, ResultAnnouncement) else ()
        target = Target(Shown(made.picture.key, made.caption, buttons), made.picture)
        sent = await self.delivery.deliver(live.row.chat_id, None, Delivered(), target)
        assert sent is not None
        if buttons and sent.ok and sent.message_id is not None:
            self._offers.setdefault(live.table_id, []).append(sent.message_id)
        return sent.outcome is not Outcome.FAILED

    def announced(self, live: LiveTable) -> bool:
        """Every announcement of the table's hand is in the group (or it has no hand)."""
        hand = live.hand
        return hand is None or live.row.announced_seq >= hand.first_seq + len(live.events) - 1

    async def finish(self, live: LiveTable) -> None:
        """Before a deal (the caller holds ``live.lock``): the hand's announcements not in the group
        yet — its result still waiting out flood control, say — are made now, so the group reads
        the result before the next hand starts.  Usually there are none (Next hand is pressed on the
        result) and nothing waits: a deal never waits for a lobby or live table edit.  A failure is
        logged; the deal goes on."""
        if self.announced(live):
            return
        async with live.group_lock:
            try:
                await self.announce(live)
            except Exception:
                log.exception("table %s: announcing the last hand before the next deal failed", live.table_id)

    # -- notices and offers ----------------------------------------------------------------------

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

    async def resume_notice_done(self, live: LiveTable, seat: LiveSeat) -> None:
        """The player can be messaged again: their notice's "Resume" button is stale."""
        if seat.user_id is None or not seat.can_pm:
            return
        msg_id = self._resume_notices.pop((live.table_id, seat.user_id), None)
        if msg_id is not None:
            await self.sender.edit_markup(live.row.chat_id, msg_id, None, can_wait=True)

    async def sitting_out_notice(self, live: LiveTable) -> None:
        """Tell the member who sits this hand out, privately, that he does (four members at a
        3-seat table, docs/rules.md §A2.1): he gets no hand message, the group shows the table."""
        out = live.sitting_out
        if out is None or out.user_id is None or not out.can_pm or live.hand is None:
            return
        _ = translator(out.lang).gettext
        text = _("You sit out hand {n} at {title}: watch it on the group's table. You play again next hand.")
        text = text.format(n=live.hand.hand_no, title=name(live.title, 40))
        await self.sender.send_text(out.user_id, text, notify=False)

    async def offer_next_hand(self, live: LiveTable, text: str, markup: Keyboard) -> None:
        """A between-hands message with the Next hand / End the table buttons (``/new`` between
        hands); its buttons are removed like the result's once stale."""
        sent = await self.sender.send_text(live.row.chat_id, text, markup)
        self._offered(live, sent)

    def _offered(self, live: LiveTable, sent: Sent) -> None:
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
