"""Playing hands: every change of a hand goes load -> decide -> commit -> evolve -> present.

Under the table's ``asyncio.Lock``:

1. check the press (seat of the user, current hand message, current seq);
2. ``game.apply`` the action (the engine validates it and adds its automatic steps), then let the AI
   play every seat that is automatic (AI seats, 托管, unreachable players) until a human must act
   or the hand is over (:meth:`Play.drive`), at the table's AI level (its options' ``ai_level``, the
   group's ``/settings`` choice when the hand was dealt); a press stops before a ``strong`` seat's
   search, which the press's follow-up makes (:meth:`Play.kick_auto`) once the press is answered;
3. append all events in **one** ``BEGIN IMMEDIATE`` transaction, with the new deadline, and at the
   end of a hand its result, ledger rows and next dealer;
4. only then swap the live state, arm the timer and return the answer to the press.

Presentation follows outside the decision lock (:class:`~kwx_bot.service.present.Presenter`).
A failed send can never undo a committed move.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace

from ..store import LedgerRow, TableStatus, Tx
from ..words.i18n import Translator, translator
from ..words.texts import reason_text, reveal_fault_text, tile_label
from ..words.ui import RevealChoice
from . import game, reveal
from .buttons import Button, Op
from .delivery import Delivered
from .game import Action, ActionKind, Deal, Event, IllegalAction, Phase, Reason, Ruleset, State
from .live import LiveSeat, LiveTable
from .present import Presenter
from .screen import Menu, Ui
from .tables import Tables
from .thinking import Thinker
from .timers import Timers
from .values import Reply

__all__ = ["Play"]

log = logging.getLogger("kwx.table")


_OP_KIND = {
    Op.DISCARD: ActionKind.DISCARD,
    Op.LIANGDAO: ActionKind.LIANGDAO,
    Op.WIN: ActionKind.WIN,
    Op.PONG: ActionKind.PONG,
    Op.KONG: ActionKind.KONG,
    Op.CONCEALED_KONG: ActionKind.CONCEALED_KONG,
    Op.ADDED_KONG: ActionKind.ADDED_KONG,
    Op.PASS: ActionKind.PASS,
}
MENU_OPS = frozenset({Op.LIANGDAO_MENU, Op.LIANGDAO_PICK, Op.BACK, Op.REVEAL})
"""The hand message's 亮倒 / 廊起 menu steps: they change the menu, never the hand."""
GAME_OPS = frozenset(_OP_KIND) | MENU_OPS | {Op.TAKE_BACK, Op.PROTECTED}


class Play:
    """Hands of open tables (see module docstring)."""

    def __init__(self, tables: Tables, presenter: Presenter, timers: Timers, thinker: Thinker | None = None) -> None:
        self.tables = tables
        self.store = tables.store
        self.present = presenter
        self.timers = timers
        self.settings = tables.settings
        self.thinker = thinker or Thinker()

    # -- dealing ---------------------------------------------------------------------------------

    async def deal(self, live: LiveTable, actor: int | None) -> None:
        """Deal the table's next hand (caller holds ``live.lock``; the table is lobby/between) under
        the group's current settings (rules, timers, language)."""
        await self.present.before_deal(live)  # the last hand's result before this one
        await self.tables.adopt_settings(live)
        row = live.row
        rules = game.rules_from_json(row.rules)
        sitting_out, lined_up, order, drop = self._line_up(live, rules)
        deal = Deal.from_json(row.next_deal) if row.next_deal else Deal.random()
        dealer = deal.dealer
        if dealer is None:
            dealer = lined_up if lined_up is not None else row.next_dealer
        if dealer is None:
            host = live.seat_of(row.created_by) if row.created_by is not None else None
            chair = None if host is None else order.index(host.seat)
            dealer = game.first_dealer(rules, chair, deal.seed or repr(deal.hands))
        state, events = game.deal_events(rules, dealer, deal)
        record = deal if deal.hands is not None else Deal(seed=game.seed_of(state))
        hand_no = row.hand_no + 1
        # The message ids and the state change together under the presentation lock: a presenter
        # that read the old hand's state and message id (and is still drawing its picture) finishes
        # with both before they change, and never edits the old hand's picture onto the new hand's
        # message or sends an edit without a message id.  The group's messages are not waited for
        # (they hold the group lock, never this one): a live-table edit still waiting on Telegram
        # finds the hand changed and records nothing (Presenter, module docstring).  The chairs
        # move (and an AI seat that only finished a removed member's hand leaves) in the
        # transaction that starts the hand, so a restart finds either the old hand with the old
        # chairs or the new hand with the new ones.
        async with live.present_lock:
            live.hand, live.state, live.events = None, None, []
            live.table = Delivered()
            async with self.store.transaction() as tx:
                if drop or order != list(range(len(order))):
                    for chair in drop:
                        await tx.unseat(live.table_id, chair)
                    await tx.reseat(live.table_id, order)
                await tx.start_hand(
                    live.table_id, hand_no, dealer, record.to_json() | {"dealer": dealer}, sitting_out=sitting_out
                )
                await tx.set_messages(live.table_id, table_msg_id=None)  # the hand-start announcement sends one
                for chair in range(min(len(order), rules.players)):
                    await tx.set_hand_msg(live.table_id, chair, None)
                await tx.reset_banks(live.table_id)
            if drop:
                log.info("table %s: AI seat(s) at %s left; %s play on", live.table_id, list(drop), len(order))
            live.hand = await self.store.current_hand(live.table_id)
            await self.tables.refresh(live)
            for s in live.seats:
                s.hand_msg_id, s.hand, s.menu = None, Delivered(), Menu()
                s.last_press, s.bank_used = None, 0.0
            state, pairs = await self.drive(live, state, [(e, actor) for e in events])
            await self.commit(live, state, pairs)
        log.info("table %s: hand %s dealt, dealer seat %s", live.table_id, hand_no, dealer)  # no seed: it is the wall

    def _line_up(
        self, live: LiveTable, rules: game.RuleSet
    ) -> tuple[int | None, int | None, list[int], tuple[int, ...]]:
        """Where the next hand's players sit (caller holds ``live.lock``, before a deal): the member
        (user id) who sits the hand out, the dealer it sets (a chair after the move, or None), the
        chairs' new order (the occupant of chair ``order[i]`` moves to chair ``i``) and the chairs
        of AI seats that leave first; :meth:`deal` writes the move with the new hand.

        Members keep their order round the table.  With one member more than seats (four at a
        3-seat table, docs/rules.md §A2.1) the first hand is sat out by the last to sit down (chair
        3) and every later one by :func:`engine.seating.next_lineup` of the hand before; the member
        who sits out moves to the chair past the seats.  After a hand a member sat out, an AI seat
        that finished the hand of a member removed from it leaves (:meth:`LiveTable.next_lineup`),
        so the three left play on without a rotation."""
        members = live.members()
        order = [s.seat for s in members]
        dealer, out = None, None
        drop: tuple[int, ...] = ()
        previous = game.hand_result(live.state) if live.state is not None else None
        planned = live.next_lineup(live.hand.dealer, previous) if live.hand and previous else None
        if planned is not None:
            lineup, drop = planned
            order = [*lineup.seats, *([] if lineup.sitting_out is None else [lineup.sitting_out])]
            dealer = lineup.dealer
            out = next((s for s in members if s.seat == lineup.sitting_out), None)
        elif len(members) > rules.players:  # the first hand: the last to sit down sits out
            out = max(members, key=lambda s: s.seat)
        return (out.user_id if out is not None else None), dealer, order, drop

    # -- the decision loop -----------------------------------------------------------------------

    async def drive(
        self, live: LiveTable, state: State, pairs: list[tuple[Event, int | None]], *, think: bool = True
    ) -> tuple[State, list[tuple[Event, int | None]]]:
        """Let automatic seats act until a human must decide or the hand is over.  A 亮倒 / 廊起
        seat whose only legal action is forced (卡心五's 有杠必杠 kong after 廊起, docs/rules.md §B)
        takes it at once: its play is automatic and there is nothing to choose.

        The AI decides at the table's level (:meth:`~.tables.Tables.ai_level`) from what the seat's
        own hand message would show (:func:`.game.seat_view`: in a claim window only itself asked),
        by :class:`~.thinking.Thinker` — a ``strong`` decision in a worker process.  Without
        ``think`` (a press, whose answer must not wait for a search) it stops before such a decision
        and leaves it to :meth:`kick_auto`."""
        hand_key = str(live.hand.hand_id if live.hand else 0)
        level = self.tables.ai_level(live)
        for _ in range(1000):
            if game.is_over(state):
                break
            waiting = game.to_act(state)
            auto = [s for s in waiting if (seat := live.seat(s)) is None or seat.automatic]
            forced = [s for s in waiting if _forced(state, s)]
            if not auto and not forced:
                break
            s = (auto or forced)[0]
            legal = game.legal(state, s)
            if not auto:
                state, events = game.apply(state, legal[0])
                pairs = pairs + [(e, None) for e in events]
                continue
            if not think and self.thinker.slow(level) and len(legal) > 1:
                break
            view = game.seat_view(state, s)
            rng = game.ai_rng(hand_key, game.seq_of(state), s)
            action = await self.thinker.choose(view, legal, level, rng, game.rules_of(state))
            state, events = game.apply(state, action)
            pairs = pairs + [(e, None) for e in events]
        else:  # pragma: no cover - the engine guarantees progress
            raise RuntimeError(f"table {live.table_id}: automatic play does not end")
        return state, pairs

    def _deadline(self, live: LiveTable, state: State) -> tuple[float, str, float | None] | None:
        """The table's next deadline: (unix time, kind, start).  A turn or claim deadline is the
        earliest due of the people it waits on (docs/rules.md §E#33); after a hand, the idle one."""
        now = self.tables.clock()
        if game.is_over(state):
            return now + self.settings.lobby_idle_seconds, "idle", None
        humans = [seat for s in game.to_act(state) if (seat := live.seat(s)) is not None and not seat.automatic]
        if not humans:
            return None
        kind = "turn" if game.phase(state) is Phase.TURN else "claim"
        control = self.tables.time_control(live)
        if control.own_time(kind) <= 0:
            return None
        return min(control.due(kind, now, self.tables.bank_left(live, seat)) for seat in humans), kind, now

    def spend_bank(self, live: LiveTable, seat: LiveSeat) -> bool:
        """The seat acts now on the move the table's deadline times: charge its bank for the time it
        took past the move's own time (caller holds ``live.lock``, before the commit that stores
        ``seat.bank_used``).  Returns True if the bank changed."""
        row = live.row
        due = self.tables.due_at(live, seat)
        if due is None or row.deadline_seq != row.seq or row.deadline_start is None or row.deadline_kind is None:
            return False
        spent = self.tables.time_control(live).spent(row.deadline_kind, row.deadline_start, self.tables.clock(),
                                              self.tables.bank_left(live, seat))  # fmt: skip
        if spent <= 0:
            return False
        seat.bank_used += spent
        return True

    async def commit(
        self,
        live: LiveTable,
        state: State,
        pairs: list[tuple[Event, int | None]],
        extra: Callable[[Tx], Awaitable[None]] | None = None,
        *,
        reread: bool | None = None,
    ) -> None:
        """Append the events (one transaction, with deadline / result / ledger, and ``extra``), then
        swap the state.  ``reread``: the table row and seats are read back afterwards (default: when
        there is an ``extra`` step — pass False when it changed nothing kept in memory)."""
        hand = live.hand
        assert hand is not None
        finishing = game.is_over(state) and (live.state is None or not game.is_over(live.state))
        deadline = self._deadline(live, state)
        new_seq = live.row.seq + len(pairs)
        async with self.store.transaction() as tx:
            await tx.append_events(live.table_id, hand.hand_id, live.row.seq,
                                   [(e.type, game.event_json(e), actor) for e, actor in pairs])  # fmt: skip
            if deadline is None:
                await tx.set_deadline(live.table_id, None)
            else:
                await tx.set_deadline(live.table_id, deadline[0], new_seq, deadline[1], deadline[2])
            if finishing:
                await self._finish(tx, live, state, pairs)
            if extra is not None:
                await extra(tx)
        reread = extra is not None if reread is None else reread
        if finishing or reread:
            fresh = await self.store.get_table(live.table_id)  # status, next dealer, seats changed too
            assert fresh is not None
            row = fresh
            hand_row = await self.store.current_hand(live.table_id) if finishing else live.hand
        else:  # only seq and deadline changed: no need to read back what we just wrote
            at, kind, start = deadline if deadline is not None else (None, None, None)
            row = replace(
                live.row, seq=new_seq, updated_at=self.tables.clock(), deadline_at=at,
                deadline_seq=new_seq if at is not None else None, deadline_kind=kind, deadline_start=start,
            )  # fmt: skip
            hand_row = live.hand
        # one synchronous swap: presenters never see the new state with the old seq (or vice versa)
        live.row, live.state, live.hand = row, state, hand_row
        live.events = live.events + [e for e, _ in pairs]
        if finishing or reread:
            await self.tables.refresh(live)
        if deadline is None:
            self.timers.cancel(live.table_id)
        else:
            live.deadline_from, live.deadline_credit = self.tables.clock(), 0.0
            self.timers.arm(live.table_id, deadline[0])
        names = live.names()
        for e, actor in pairs:
            by = "" if actor is None else f" (from a press by user {actor})"  # who acted, not whose seat
            log.info("table %s: %s%s", live.table_id, _describe(e, names), by)

    async def _finish(self, tx: Tx, live: LiveTable, state: State, pairs: list[tuple[Event, int | None]]) -> None:
        result = game.hand_result(state)
        hand = live.hand
        assert result is not None and hand is not None
        dealt_in = {w.from_seat for w in result.winners if w.by != "self_draw"}
        rows = []
        for seat in range(game.rules_of(state).players):
            wins = [w for w in result.winners if w.seat == seat]
            s = live.seat(seat)
            rows.append(LedgerRow(
                hand.hand_id, seat, s.user_id if s else None, result.hand_deltas[seat], result.kong_deltas[seat],
                result.deltas[seat], won=bool(wins), dealt_in=seat in dealt_in,
                multiplier=max((m for w in wins for m in w.multiplier.values()), default=0),
                fans=" ".join(f for w in wins for f in w.fans),
            ))  # fmt: skip
        settings = await self.store.group_settings(live.row.group_id)
        season = settings.get("season", 1)
        if not isinstance(season, int) or isinstance(season, bool) or season < 1:
            season = 1  # a malformed setting must never stop a hand from being recorded
        await tx.record_ledger(live.row.group_id, season, live.table_id, rows)
        ended = [game.event_json(e) for e, _ in pairs if e.type == "hand_ended"]
        await tx.finish_hand(hand.hand_id, "over", ended[-1] if ended else None)
        await tx.set_status(live.table_id, TableStatus.BETWEEN)
        await tx.set_next_dealer(live.table_id, result.next_dealer)

    # -- button presses --------------------------------------------------------------------------

    async def press(self, live: LiveTable, user_id: int, message_id: int | None, button: Button) -> tuple[Reply, bool]:
        """Handle a hand-message button: the answer to the press, and True if something changed
        (the caller then has the messages presented, after answering).  In turn: who may press it
        (the seat's player), whether it still applies (:meth:`_refusal`), then either a step of the
        亮倒 / 廊起 menu (:func:`menu_after`: nothing is committed) or a move (:meth:`_move`)."""
        async with live.lock:
            seat = live.seat_of(user_id)
            tr = translator(seat.lang if seat is not None else await self.tables.user_lang(user_id))
            if seat is None:
                return Reply(tr.gettext("These buttons belong to another player."), alert=True), False
            seat.last_active = self.tables.clock()  # any press: the player is there (no 托管 now)
            if button.op is Op.TAKE_BACK:
                changed = await self.take_back(live, seat)
                _ = tr.gettext
                text = _("Welcome back: you play this seat again.") if changed else _("You are playing this seat.")
                return Reply(text), changed
            refusal = self._refusal(live, seat, message_id, button, tr)
            if refusal is not None:
                return refusal, False
            assert live.state is not None
            choice = None
            if button.shown is not None:  # a reveal choice (docs/rules.md §A9.2, §E#48)
                choice = _reveal_choice(live.state, seat.seat, button)
                if choice is None:  # forged: not a 亮倒 discard with a reveal choice, or a mask beyond the hand
                    return Reply(_liangdao_refusal(live.state, seat.seat, button, tr) or _forged(tr), alert=True), False
            if button.op in MENU_OPS:
                menu = menu_after(live.state, seat.seat, button, choice, live.row.seq)
                if button.op is Op.REVEAL and menu == seat.menu:
                    return Reply(tr.gettext("Already chosen: nothing changed.")), False  # a double tap
                seat.menu = menu
                return Reply(), True
            return await self._move(live, seat, user_id, button, choice, tr)

    def _refusal(
        self, live: LiveTable, seat: LiveSeat, message_id: int | None, button: Button, tr: Translator
    ) -> Reply | None:
        """Why a press of the seat's player changes nothing, or None: the hand is over, the message is
        an old one, the button is a disabled one, the table moved on since it was made (a double tap
        of the move that moved it gets that move's answer again), the AI plays the seat, or a 亮倒
        menu the hand does not offer (a forged button)."""
        _ = tr.gettext
        state = live.state
        if state is None or live.row.status != TableStatus.PLAYING or game.is_over(state):
            return Reply(_("This hand is over."))
        if message_id is not None and message_id != seat.hand_msg_id:
            return Reply(_("This is an old hand message: use the newest one (or send /hand)."), alert=True)
        if button.op is Op.PROTECTED:  # a disabled button: it only says why (docs/rules.md §A9.8, §B)
            return Reply(
                reason_text(Reason.PROTECTED_TILE, tr, kaxinwu=game.rules_of(state).ruleset is Ruleset.KAXINWU)
            )
        if button.seq != live.row.seq:
            kind = _OP_KIND.get(button.op)
            if kind is not None and _press_key(button) == seat.last_press:  # a double tap, or re-delivered
                return Reply(_toast(Action(seat.seat, kind, button.tile), tr, game.rules_of(state)))
            return Reply(_("This button is outdated: the table has moved on."))
        if seat.automatic:
            return Reply(_("You are on auto-play: press “I'm back” first."))
        if button.op in (Op.LIANGDAO_MENU, Op.LIANGDAO_PICK):
            refusal = _liangdao_refusal(state, seat.seat, button, tr)
            if refusal is not None:  # forged: only discards that keep the hand ready are offered
                return Reply(refusal, alert=True)
        return None

    async def _move(
        self, live: LiveTable, seat: LiveSeat, user_id: int, button: Button, choice: RevealChoice | None,
        tr: Translator,
    ) -> tuple[Reply, bool]:  # fmt: skip
        """Make the move the button says (the engine judges it), drive the automatic seats, commit."""
        state = live.state
        assert state is not None
        kind = _OP_KIND.get(button.op)
        rules = game.rules_of(state)
        langqi = rules.ruleset is Ruleset.KAXINWU
        if kind is None:
            return Reply(tr.gettext("This button does nothing here.")), False
        if choice is not None and not choice.legal:
            return Reply(reveal_fault_text(choice.fault, tr, kaxinwu=langqi), alert=True), False
        action = choice.action(seat.seat) if choice is not None else Action(seat.seat, kind, button.tile)
        try:
            new_state, events = game.apply(state, action)
        except IllegalAction as e:
            return Reply(reason_text(e.reason, tr, kaxinwu=langqi), alert=True), False
        seat.menu = Menu()
        reset = seat.timeouts > 0
        spent = self.spend_bank(live, seat)
        press = _press_key(button)

        async def extra(tx: Tx) -> None:
            await tx.set_last_press(live.table_id, seat.seat, press)
            if reset:
                await tx.set_seat_auto(live.table_id, seat.seat, on_auto=False, timeouts=0)
            if spent:
                await tx.set_bank_used(live.table_id, seat.seat, seat.bank_used)

        new_state, pairs = await self.drive(live, new_state, [(e, user_id) for e in events], think=False)
        await self.commit(live, new_state, pairs, extra, reread=reset)
        seat.last_press = press  # kept in memory too: no need to read the seats back for it
        return Reply(_toast(action, tr, rules)), True

    async def take_back(self, live: LiveTable, seat: LiveSeat) -> bool:
        """End 托管 for a seat whose player is back (caller holds ``live.lock``); False if the
        player was playing it already."""
        if not seat.on_auto and seat.can_pm and not seat.timeouts:
            return False
        async with self.store.transaction() as tx:
            await tx.set_can_pm(seat.user_id or 0, True, bot_id=self.tables.bot_id)
            await tx.set_seat_auto(live.table_id, seat.seat, on_auto=False, timeouts=0)
        seat.on_auto, seat.timeouts, seat.can_pm = False, 0, True
        seat.hand.forget()
        self._rearm(live)
        return True

    def _rearm(self, live: LiveTable) -> None:
        if live.row.deadline_at is not None:
            self.timers.arm(live.table_id, live.row.deadline_at)

    # -- players who cannot be reached -----------------------------------------------------------

    async def mark_unreachable(self, user_id: int) -> list[LiveTable]:
        """A private send to ``user_id`` was refused (403): the seat goes on auto-play.  Returns the
        tables that must be driven and presented again."""
        async with self.store.transaction() as tx:
            await tx.set_can_pm(user_id, False, bot_id=self.tables.bot_id)
        out = []
        for live in self.tables.cached():
            seat = live.seat_of(user_id)
            if seat is not None and seat.can_pm:
                seat.can_pm = False
                out.append(live)
        return out

    async def kick_auto(self, live: LiveTable) -> bool:
        """Let the AI act for automatic seats the table is waiting on: after a seat became
        automatic, and after a press that left a ``strong`` seat's search for later (:meth:`drive`);
        False when nothing was due."""
        async with live.lock:
            state = live.state
            if state is None or game.is_over(state) or live.row.status != TableStatus.PLAYING:
                return False
            new_state, pairs = await self.drive(live, state, [])
            if not pairs:
                return False
            await self.commit(live, new_state, pairs)
            return True

    async def resume(self, live: LiveTable) -> None:
        """After a restart: re-arm the stored deadline (never earlier than a short grace period)."""
        row = live.row
        if row.deadline_at is not None:
            self.timers.arm(live.table_id, max(row.deadline_at, self.tables.clock() + 2.0))


def _press_key(button: Button) -> str:
    """A press as the seat's last press is stored (``<seq>:<op><tile>``): a double tap matches it."""
    return f"{button.seq}:{button.op.value}{'' if button.tile is None else button.tile}"


def menu_after(state: State, seat: int, button: Button, choice: RevealChoice | None, seq: int) -> Menu:
    """The hand message's 亮倒 / 廊起 menu after a menu button (made at the table's ``seq``): the
    menu of discards, a discard picked — its confirmation, or, where the player chooses the tiles to
    show, the reveal choice starting from the whole hand (docs/rules.md §A9.2, §E#48) —, a reveal
    choice (``choice``, judged by the engine), or Back to the normal buttons."""
    if button.op is Op.REVEAL:
        assert choice is not None and button.tile is not None
        kept = game.held_after(state, seat, button.tile)
        return Menu(Ui.REVEAL, button.tile, reveal.canonical(kept, choice.shown), seq)
    if button.op is Op.LIANGDAO_PICK and button.tile in _reveal_discards(state, seat):
        assert button.tile is not None
        return Menu(Ui.REVEAL, button.tile, reveal.all_shown(game.held_after(state, seat, button.tile)), seq)
    mode = {Op.LIANGDAO_MENU: Ui.LIANGDAO, Op.LIANGDAO_PICK: Ui.CONFIRM}.get(button.op, Ui.NORMAL)
    return Menu(mode, button.tile, 0, seq)


def _liangdao_refusal(state: State, seat: int, button: Button, tr: Translator) -> str | None:
    """Why a 亮倒 menu / pick press must be refused, or None if the hand message offers it: the
    menu needs a legal 亮倒, a pick one of the legal 亮倒 discards (docs/rules.md §A9.2)."""
    offered = {a.tile for a in game.legal(state, seat) if a.kind is ActionKind.LIANGDAO}
    if not offered:
        return tr.gettext("This button does nothing here.")
    if button.op is not Op.LIANGDAO_PICK or button.tile in offered:
        return None
    view = game.view_for(state, seat)
    held = button.tile is not None and (button.tile in view.concealed or button.tile == view.drawn)
    return reason_text(Reason.NOT_READY_FOR_LIANGDAO if held else Reason.TILE_NOT_IN_HAND, tr)


def _forced(state: State, seat: int) -> bool:
    """A 亮倒 / 廊起 seat with exactly one legal action: it plays automatically, so it takes it."""
    if not game.view_for(state, seat).public.seats[seat].liangdao:
        return False
    return len(game.legal(state, seat)) == 1


def _reveal_discards(state: State, seat: int) -> set[game.Tile]:
    """The 亮倒 discards whose reveal the player chooses (``liangdao_reveal`` kou / minimal offers a
    partial reveal with them, docs/rules.md §A9.2)."""
    return {
        a.tile
        for a in game.legal(state, seat)
        if a.kind is ActionKind.LIANGDAO and a.reveal is not None and a.tile is not None
    }


def _reveal_choice(state: State, seat: int, button: Button) -> RevealChoice | None:
    """The engine's verdict on a reveal-choice press, or None if the press cannot come from a hand
    message of this hand: the discard offers no reveal choice, or the mask names tiles beyond the
    kept hand."""
    if button.tile is None or button.shown is None or button.tile not in _reveal_discards(state, seat):
        return None
    kept = game.held_after(state, seat, button.tile)
    try:
        shown = reveal.shown_tiles(kept, button.shown)
    except ValueError:
        return None
    return game.check_reveal(state, seat, button.tile, shown)


def _forged(tr: Translator) -> str:
    return tr.gettext("This button does not belong to this hand.")


def _toast(action: Action, tr: Translator, rules: game.RuleSet) -> str | None:
    _ = tr.gettext
    if action.kind is ActionKind.DISCARD and action.tile is not None:
        return _("You discarded {tile}.").format(tile=tile_label(action.tile, tr))
    if action.kind is ActionKind.LIANGDAO and action.tile is not None:
        text = tr.gettext_for(rules.ruleset is Ruleset.KAXINWU, "You laid down and discarded {tile}.")
        return text.format(tile=tile_label(action.tile, tr))
    return {
        ActionKind.WIN: _("Win!"),
        ActionKind.PONG: _("Pong."),
        ActionKind.KONG: _("Kong."),
        ActionKind.CONCEALED_KONG: _("Concealed kong."),
        ActionKind.ADDED_KONG: _("Added kong."),
        ActionKind.PASS: _("Passed."),
    }.get(action.kind)


def _describe(e: Event, names: Sequence[str]) -> str:
    """One log line per event: seat numbers and public facts only (never a concealed tile)."""
    kind = e.type
    seat = getattr(e, "seat", None)
    who = f"seat {seat}" if seat is not None else ""
    if kind == "hand_started":
        return f"hand_started dealer seat {getattr(e, 'dealer', '?')}"
    if kind == "drew":
        return f"{who} drew{' (replacement)' if getattr(e, 'replacement', False) else ''}"
    if kind == "konged" and getattr(getattr(e, "kind", None), "value", "") == "concealed_kong":
        return f"{who} konged (concealed)"  # a 暗杠's tile is hidden from the other players
    if kind in ("discarded", "ponged", "konged"):
        return f"{who} {kind} {getattr(e, 'tile', '')}"
    if kind == "answered":
        return f"{who} answered {getattr(e, 'answer', '')}"
    if kind == "window_opened":
        return f"window_opened on seat {getattr(e, 'from_seat', '?')}'s {getattr(e, 'tile', '')}"
    if kind == "hand_ended":
        result = getattr(e, "result", None)
        return f"hand_ended {getattr(result, 'outcome', '')} deltas {list(getattr(result, 'deltas', []))}"
    return kind
