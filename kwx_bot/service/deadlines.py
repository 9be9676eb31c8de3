"""Turn and claim deadlines firing (docs/rules.md §E#33): time-outs of the seats out of time
(their move's own time and their time bank gone, :mod:`.time_control`), a private warning, 托管 after
repeated time-outs of a player who is away, 漏胡 by time-out told privately, and no time charged
while the bot was rate-limited.

The deadline itself is stored with each move (:meth:`~.play.Play.commit`) and armed in the timers;
:meth:`Deadlines.on_deadline` re-checks it when it fires, so a late, duplicate or outdated wake-up
does nothing.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace

from ..store import Tx
from ..words.i18n import translator
from ..words.texts import name, sentences, tile_label
from . import game
from .game import ActionKind, Event, Phase, State, Tile
from .live import LiveSeat, LiveTable
from .play import Play
from .time_control import goes_on_auto

__all__ = ["Deadlines"]

log = logging.getLogger("kwx.table")


class Deadlines:
    """See the module docstring."""

    def __init__(self, play: Play) -> None:
        self.play = play

    async def on_deadline(self, table_id: int) -> bool:
        """A table's timer fired: act on the stored deadline if it is due and still current.

        Time the bot spent rate-limited on the table's chats since the deadline started does not
        count: the deadline is first moved back by that much (:class:`~kwx_bot.edge.throttle.ThrottleLog`).
        Only the seats out of time (:meth:`Tables.due_at`: the move's own time and the seat's time
        bank) time out; the others are waited for.  A seat that times out plays the time-out action
        (docs/rules.md §E#33) and its bank is gone for the hand; its player is told privately (漏胡
        if that passed a legal win, and at a turn's time-out what happened and what comes next).
        Only time-outs of the seat's own turn count toward 托管 (:func:`~.time_control.goes_on_auto`:
        repeated, of a player who is away): a seat that went on auto-play in a claim window would
        tell the group (its notice, the "(auto)" mark) that the seat could claim the tile
        (docs/security.md §4).  Returns True if the table changed (caller presents).  Lobby and idle
        expiry are handled by the lobby service.
        """
        live = await self.play.tables.get(table_id)
        if live is None:
            return False
        async with live.lock:
            now = self.play.tables.clock()
            due = await self._due_seats(live, now)
            if due is None:
                return False
            out = self._time_out(live, due, now)
            state, pairs = await self.play.drive(live, out.state, out.pairs)
            changed = out.changed

            async def extra(tx: Tx) -> None:
                for seat in changed:
                    await tx.set_seat_auto(live.table_id, seat.seat, on_auto=seat.on_auto, timeouts=seat.timeouts)
                    await tx.set_bank_used(live.table_id, seat.seat, seat.bank_used)

            await self.play.commit(live, state, pairs, extra)
        for seat, louhu, tile in out.told:
            await self._tell_timed_out(live, seat, louhu=louhu, tile=tile, auto=seat in out.went_auto)
        for seat in out.went_auto:
            tr = translator(live.group_lang)
            text = tr.gettext("{name} keeps timing out: the AI plays for them until they come back.")
            await self.play.present.notice(live, text.format(name=name(seat.name)))
        return True

    async def _due_seats(self, live: LiveTable, now: float) -> list[LiveSeat] | None:
        """Who times out now (caller holds ``live.lock``): the seats out of time, or None when the
        wake-up is late, early, outdated or moved back (then re-armed as needed) — who may be timed
        out, not yet what changes."""
        row = live.row
        if row.deadline_at is None or row.deadline_kind not in ("turn", "claim"):
            return None
        if now + 0.05 < row.deadline_at:
            self.play.timers.arm(live.table_id, row.deadline_at)
            return None
        state = live.state
        if state is None or game.is_over(state) or row.deadline_seq != row.seq:
            return None
        if await self._extend_for_throttling(live):
            return None
        waiting = [seat for s in game.to_act(state) if (seat := live.seat(s)) is not None and not seat.automatic]
        dues = {seat.seat: self.play.tables.due_at(live, seat) or now for seat in waiting}
        due = [seat for seat in waiting if dues[seat.seat] <= now + 0.05]
        if waiting and not due:  # the seats it waits on still have time in their banks
            await self._rearm(live, min(dues.values()))
            return None
        return due

    def _time_out(self, live: LiveTable, due: list[LiveSeat], now: float) -> _TimedOut:
        """Play the time-out action of each seat in ``due`` (docs/rules.md §E#33) on the table's
        state, its bank gone for the hand, and count a turn's time-out toward 托管 — what changes,
        nothing stored or sent yet (caller holds ``live.lock`` and commits)."""
        row = live.row
        state = live.state
        assert state is not None
        out = _TimedOut(state)
        for seat in due:  # only the seats out of time (a claim window may wait on two)
            index = seat.seat
            if game.is_over(out.state) or index not in game.to_act(out.state):
                continue
            if row.deadline_kind == "claim" and game.phase(out.state) not in (Phase.CLAIM, Phase.ROB):
                break  # the window closed; whoever acts next gets a fresh deadline
            action = game.timeout_action(out.state, index)
            could_win = any(a.kind is ActionKind.WIN for a in game.legal(out.state, index))
            louhu = could_win and action.kind is not ActionKind.WIN
            tile = _win_tile(out.state, index) if louhu else None
            out.state, events = game.apply(out.state, action)
            out.pairs += [(e, None) for e in events]
            seat.bank_used += self.play.tables.bank_left(live, seat)  # the bank is gone for this hand
            if row.deadline_kind == "turn":
                out.told.append((seat, louhu, tile))
                seat.timeouts += 1
                if goes_on_auto(seat.timeouts, now - seat.last_active):
                    seat.on_auto = True
                    out.went_auto.append(seat)
            elif louhu:  # a claim passed by its time-out: nothing to tell (nothing counts) unless 漏胡
                out.told.append((seat, louhu, tile))
            out.changed.append(seat)
        return out

    async def keep_throttled_time(self) -> None:
        """A clean stop: store every pending turn or claim deadline moved back by the time its
        table was held back by Telegram so far — that time lives in memory only, and the next start
        re-arms the stored deadlines."""
        for live in self.play.tables.cached():
            if live.row.deadline_at is not None and live.row.deadline_kind in ("turn", "claim"):
                await self._extend_for_throttling(live, arm=False)

    async def _extend_for_throttling(self, live: LiveTable, *, arm: bool = True) -> bool:
        """Move the due deadline back by the time the table's sends were held back by Telegram's
        rate limits since it started (caller holds ``live.lock``); True if it was moved.
        ``arm``: re-arm the timer too (not while stopping)."""
        row = live.row
        assert row.deadline_at is not None
        chats = [row.chat_id] + [s.user_id for s in live.humans() if s.user_id is not None]
        blocked = self.play.present.sender.throttled(chats, since=live.deadline_from)
        extra = blocked - live.deadline_credit
        if extra < 0.05:
            return False
        at = row.deadline_at + extra
        start = None if row.deadline_start is None else row.deadline_start + extra
        async with self.play.store.transaction() as tx:
            await tx.set_deadline(live.table_id, at, row.deadline_seq, row.deadline_kind, start)
        live.row = replace(row, deadline_at=at, deadline_start=start)
        live.deadline_credit = blocked
        if arm:
            self.play.timers.arm(live.table_id, at)
        log.info("table %s: deadline extended by %.1f s (the bot was rate-limited)", live.table_id, extra)
        return True

    async def _rearm(self, live: LiveTable, at: float) -> None:
        """Keep the table's deadline for the seats still thinking: it fires next at ``at``."""
        row = live.row
        async with self.play.store.transaction() as tx:
            await tx.set_deadline(live.table_id, at, row.deadline_seq, row.deadline_kind, row.deadline_start)
        live.row = replace(row, deadline_at=at)
        self.play.timers.arm(live.table_id, at)

    async def _tell_timed_out(
        self, live: LiveTable, seat: LiveSeat, *, louhu: bool, tile: Tile | None, auto: bool
    ) -> None:
        """Tell a player privately that time ran out and their move was made for them — with 漏胡
        if that passed a legal win (docs/rules.md §A8.3) — and, unless the seat went on 托管 now
        (the group is told that), that the AI plays for them if it happens again while they are
        away (docs/rules.md §E#33)."""
        if seat.user_id is None or not seat.can_pm:
            return
        tr = translator(seat.lang)
        if not louhu:
            text = tr.gettext("⏰ Time ran out, so your move was made for you.")
        elif tile is None:
            text = tr.gettext("Time ran out: your seat passed a winning hand (漏胡).")
        else:
            text = tr.gettext("Time ran out: your seat passed a win on {tile} (漏胡).").format(
                tile=tile_label(tile, tr)
            )
        if auto:
            more = tr.gettext("The AI plays your seat now: press “I'm back: let me play” or send /back to play again.")
        else:
            more = tr.gettext(
                "If time runs out again while you are away, the AI will play your seat until you press "
                "“I'm back: let me play”."
            )
        text = sentences(tr, text, more)
        await self.play.present.sender.send_text(seat.user_id, text, reply_to=seat.hand_msg_id)


@dataclass
class _TimedOut:
    """What the time-outs of one deadline change: the new state and its events, the seats whose
    timeouts/托管/bank changed, who to tell (seat, 漏胡, the tile it could have won on), and who
    went on 托管 now."""

    state: State
    pairs: list[tuple[Event, int | None]] = field(default_factory=list)
    changed: list[LiveSeat] = field(default_factory=list)
    told: list[tuple[LiveSeat, bool, Tile | None]] = field(default_factory=list)
    went_auto: list[LiveSeat] = field(default_factory=list)


def _win_tile(state: State, seat: int) -> Tile | None:
    """The tile a seat could have won on: the discard being claimed, else its drawn tile."""
    view = game.view_for(state, seat)
    if view.public.phase == "claim" and view.public.last_discard is not None:
        return view.public.last_discard[1]
    return view.drawn
