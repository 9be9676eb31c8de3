"""Turn and claim deadlines firing (docs/rules.md §E#33): time-outs, 托管 after repeated
time-outs, 漏胡 by time-out told privately, and no time charged while the bot was rate-limited.

The deadline itself is stored with each move (:meth:`~.play.Play.commit`) and armed in the timers;
:meth:`Deadlines.on_deadline` re-checks it when it fires, so a late, duplicate or outdated wake-up
does nothing.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from ..store import Tx
from ..words.texts import name, tile_label
from . import game
from .game import ActionKind, Event, State, Tile
from .live import LiveSeat, LiveTable
from .play import AUTO_AFTER_TIMEOUTS, Play

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
        A seat that times out plays the time-out action (docs/rules.md §E#33); if that passed a legal win
        (漏胡) the player is told privately.  Only time-outs of the seat's own turn count toward 托管:
        a seat that went on auto-play in a claim window would tell the group (its notice, the
        "(auto)" mark) that the seat could claim the tile (docs/security.md §4).  Returns True if the
        table changed (caller presents).
        Lobby and idle expiry are handled by the lobby service.
        """
        live = await self.play.tables.get(table_id)
        if live is None:
            return False
        louhu: list[tuple[LiveSeat, Tile | None]] = []
        async with live.lock:
            row = live.row
            now = self.play.tables.clock()
            if row.deadline_at is None or row.deadline_kind not in ("turn", "claim"):
                return False
            if now + 0.05 < row.deadline_at:
                self.play.timers.arm(table_id, row.deadline_at)
                return False
            state = live.state
            if state is None or state.result is not None or row.deadline_seq != row.seq:
                return False
            if await self._extend_for_throttling(live):
                return False
            pairs: list[tuple[Event, int | None]] = []
            changed: list[LiveSeat] = []
            due = [s for s in game.to_act(state) if (seat := live.seat(s)) is not None and not seat.automatic]
            for index in due:  # only the seats the deadline was for (a claim window may wait on two)
                seat = live.seat(index)
                if seat is None or state.result is not None or index not in game.to_act(state):
                    continue
                if row.deadline_kind == "claim" and state.window is None:
                    break  # the window closed; whoever acts next gets a fresh deadline
                action = game.timeout_action(state, index)
                could_win = any(a.kind is ActionKind.WIN for a in game.legal(state, index))
                if could_win and action.kind is not ActionKind.WIN:
                    louhu.append((seat, _win_tile(state, index)))
                state, events = game.apply(state, action)
                pairs += [(e, None) for e in events]
                if row.deadline_kind == "turn":
                    seat.timeouts += 1
                    if seat.timeouts >= AUTO_AFTER_TIMEOUTS:
                        seat.on_auto = True
                    changed.append(seat)
            state, pairs = self.play.drive(live, state, pairs)

            async def extra(tx: Tx) -> None:
                for seat in changed:
                    await tx.set_seat_auto(live.table_id, seat.seat, on_auto=seat.on_auto, timeouts=seat.timeouts)

            await self.play.commit(live, state, pairs, extra)
            went_auto = [s for s in changed if s.on_auto and s.timeouts == AUTO_AFTER_TIMEOUTS]
        for seat, tile in louhu:
            await self._tell_louhu(live, seat, tile)
        for seat in went_auto:
            tr = self.play.tables.tr(live.group_lang)
            text = tr.gettext("{name} timed out twice: the AI plays for them until they come back.")
            await self.play.present.notice(live, text.format(name=name(seat.name)))
        return True

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
        async with self.play.store.transaction() as tx:
            await tx.set_deadline(live.table_id, at, row.deadline_seq, row.deadline_kind)
        live.row = replace(row, deadline_at=at)
        live.deadline_credit = blocked
        if arm:
            self.play.timers.arm(live.table_id, at)
        log.info("table %s: deadline extended by %.1f s (the bot was rate-limited)", live.table_id, extra)
        return True

    async def _tell_louhu(self, live: LiveTable, seat: LiveSeat, tile: Tile | None) -> None:
        """Tell a player privately that their time-out passed a legal win (漏胡, docs/rules.md §A8.3)."""
        if seat.user_id is None or not seat.can_pm:
            return
        tr = self.play.tables.tr(seat.lang)
        if tile is None:
            text = tr.gettext("Time ran out: your seat passed a winning hand (漏胡).")
        else:
            text = tr.gettext("Time ran out: your seat passed a win on {tile} (漏胡).")
            text = text.format(tile=tile_label(tile, tr))
        await self.play.present.sender.send_text(seat.user_id, text, reply_to=seat.hand_msg_id)


def _win_tile(state: State, seat: int) -> Tile | None:
    """The tile a seat could have won on: the discard being claimed, else its drawn tile."""
    view = game.view_for(state, seat)
    if view.public.phase == "claim" and view.public.last_discard is not None:
        return view.public.last_discard[1]
    return view.drawn
