"""The lobby and table life: /new, the lobby's buttons (AI seats, game and size, language, start),
the deal, next hand, close, and expiry of idle lobbies and tables (docs/architecture.md §5 step 1).
Who may sit down — the Join button, join links, membership — is :mod:`.joins`.

One open table per group (whichever bot runs it, docs/architecture.md §8), enforced here and by the
store's unique indexes.  A non-seated user's lobby buttons (the creator's AI, game, size and
next-hand buttons) need membership of the group (:meth:`.joins.Joins.creator_member`, asked before
the table is locked; docs/security.md §1).

Language: a group that has no language setting yet takes the Telegram language of whoever opens its
first table (:meth:`Lobby.new_table`; a Telegram language that is neither Chinese nor English decides
nothing, so the operator's default applies and the next opener may decide); ``/settings`` changes it
like any setting, and an explicit setting is never overwritten by an opener's language.  The lobby's
one-tap switch (中文 / English, :data:`~kwx_bot.service.keyboards.LANGUAGE_SWITCH`) stores the
group's language setting too.  Who may press it: the players seated at the table and its creator
(while a member of the group) — the people who are about to read the table — the same people who
may add AI seats; an onlooker may not.  It exists only while the lobby is open, so it never changes
the language of a hand in play.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from ..settings import normalize_language
from ..store import Conflict, TableStatus
from ..words.i18n import N_, Translator, translator
from ..words.texts import game_name, name, sentences
from . import game
from .buttons import Button, Op
from .game import Ruleset
from .group_settings import TableChoice
from .joins import Joins
from .keyboards import close_confirm_keyboard, next_hand_keyboard
from .live import LiveTable
from .play import Play
from .present import Presenter
from .tables import Tables
from .timers import Timers
from .values import CloseTable, DealHand, Edit, Reply, Response, ShowLobby

__all__ = ["LANGUAGE_OPS", "LOBBY_OPS", "OTHER_BOTS_TABLE", "Lobby"]

log = logging.getLogger("kwx.table")

BETWEEN_OPS = frozenset({Op.NEXT_HAND, Op.CLOSE, Op.CLOSE_CONFIRM, Op.CLOSE_CANCEL})
LANGUAGE_OPS = {Op.LANG_ZH: "zh_CN", Op.LANG_EN: "en"}
"""The lobby's language switch: op -> the group language it sets."""
OTHER_BOTS_TABLE = N_(
    "Another bot runs this group's table: play it there, or end it with /kill sent to that bot "
    "(/kill@its_username). Nothing was changed here."
)
"""The answer of ``/new`` and ``/kill`` when another bot runs the group's open table (one open table
per group, whichever bot runs it; only its own bot ends it: docs/architecture.md §8)."""
GAME_CHOICE_OPS = {Op.GAME_KAWUXING: Ruleset.KAWUXING, Op.GAME_KAXINWU: Ruleset.KAXINWU}
"""The lobby's choice of game: op -> :attr:`TableChoice.game`."""
SIZE_CHOICE_OPS = {Op.SEATS_2: 2, Op.SEATS_3: 3, Op.SEATS_4: 4}
"""The lobby's choice of table size: op -> :attr:`TableChoice.seats`."""
LOBBY_OPS = (
    frozenset({Op.JOIN, Op.LEAVE, Op.ADD_AI, Op.REMOVE_AI, Op.START, *LANGUAGE_OPS, *GAME_CHOICE_OPS, *SIZE_CHOICE_OPS})
    | BETWEEN_OPS
)
CREATOR_OPS = frozenset({Op.ADD_AI, Op.REMOVE_AI, *LANGUAGE_OPS, *GAME_CHOICE_OPS, *SIZE_CHOICE_OPS})
"""Lobby buttons the table's creator may press from outside a seat, while a member of the group."""


_SEATS_TAKEN = {
    2: N_("Two seats must be taken (add an AI player for an empty seat)."),
    3: N_("Three seats must be taken (add AI players for empty seats)."),
    4: N_("Four seats must be taken (add AI players for empty seats)."),
}


class Lobby:
    """See module docstring."""

    def __init__(self, tables: Tables, play: Play, presenter: Presenter, timers: Timers, joins: Joins) -> None:
        self.tables = tables
        self.store = tables.store
        self.play = play
        self.present = presenter
        self.timers = timers
        self.joins = joins
        self.settings = tables.settings

    # -- /new ------------------------------------------------------------------------------------

    async def new_table(
        self, chat_id: int, title: str, user_id: int, tr: Translator, choice: TableChoice | None = None
    ) -> str | None:
        """Open a table in a group.  Returns a reply for the group if refused, else None.

        ``choice``: the game and table size asked for (``/new 4``; None = the group's own, see
        :meth:`TableChoice.default`); while the group's lobby is open, ``/new`` with a choice
        changes that lobby's game and size (its opener only).  A group without a language setting
        first takes the opener's Telegram language (module docstring), so the lobby, the table and
        every later group message are in it."""
        async with self.store.transaction() as tx:
            group_id = await tx.ensure_group(chat_id, title)
        existing = await self.store.open_table_of_group(group_id, bot_id=self.tables.bot_id)
        if existing is None:
            await self._adopt_opener_language(group_id, user_id)
        if existing is not None:
            live = await self.tables.get(existing.table_id)
            if live is not None and live.row.status == TableStatus.LOBBY:
                refusal = None
                if choice is not None:
                    async with live.lock:
                        refusal = await self._choose(live, user_id, choice, tr)
                live.lobby.forget()
                await self._relocate_lobby(live)
                return refusal
            if live is not None and live.row.status == TableStatus.BETWEEN:  # the result may have scrolled away
                await self.offer_between(live)
                return None
            return self._already_open(tr)
        rules, options = self.tables.table_config(await self.tables.config(group_id), choice)
        if choice is not None:
            refusal = self._unplayable(rules, choice, tr)
            if refusal:
                return refusal
        try:
            async with self.store.transaction() as tx:
                table_id = await tx.create_table(group_id, rules, options, user_id, bot_id=self.tables.bot_id)
        except Conflict as e:
            if e.what == "other_bot":  # one open table per group, whichever bot runs it
                return tr.gettext(OTHER_BOTS_TABLE)
            return self._already_open(tr)
        live = await self.tables.get(table_id)
        assert live is not None
        log.info("table %s: opened in group %s by user %s", table_id, group_id, user_id)
        user = await self.store.get_user(user_id, bot_id=self.tables.bot_id)
        if (
            user is not None
            and user.can_pm
            and await self.store.open_seat_of_user(user_id, bot_id=self.tables.bot_id) is None
        ):
            await self.joins.sit(live, user_id)
        await self.present.lobby(live)
        self.joins.arm_lobby(live)
        return None

    async def offer_between(self, live: LiveTable) -> None:
        """A table between hands offers Next hand / End the table again in the group (``/new``; a
        start whose chats lost the result's buttons, ``Settings.forget_messages``)."""
        gtr = translator(live.group_lang)
        text = gtr.gettext("This table is between hands: deal the next one or end it.")
        await self.present.offer_next_hand(live, text, next_hand_keyboard(gtr, live.table_id, live.row.seq))

    @staticmethod
    def _already_open(tr: Translator) -> str:
        """``/new`` while the group's table plays (or two ``/new`` at once): say how it ends."""
        return tr.gettext(
            "A table is already open in this group: finish it first. "
            "A group administrator can end it at once with /kill (an unfinished hand is not scored)."
        )

    async def _adopt_opener_language(self, group_id: int, user_id: int) -> None:
        """Store the opener's Telegram language as the group's, unless the group has one already or
        the opener's language is neither Chinese nor English."""
        if "language" in await self.store.group_settings(group_id):
            return
        user = await self.store.get_user(user_id, bot_id=self.tables.bot_id)
        lang = normalize_language(user.language_code if user else None, default="")
        if lang:
            async with self.store.transaction() as tx:
                await tx.set_setting(group_id, "language", lang)
            log.info("group %s: language %s, from the first table's opener", group_id, lang)

    async def _relocate_lobby(self, live: LiveTable) -> None:
        """/new while a lobby is open: post the lobby again at the bottom of the chat."""
        old = live.row.lobby_msg_id
        async with self.store.transaction() as tx:
            await tx.set_messages(live.table_id, lobby_msg_id=None)
            await tx.touch(live.table_id)
        await self.tables.refresh(live)
        await self.present.lobby(live)
        if old is not None:
            await self.present.sender.delete(live.row.chat_id, old, can_wait=True)
        self.joins.arm_lobby(live)

    # -- joining ---------------------------------------------------------------------------------

    async def press(
        self, live: LiveTable, user_id: int, button: Button, tr: Translator, message_id: int | None = None
    ) -> Response:
        """A lobby / between-hands button: the answer, and what follows it (the lobby message
        shown, a deal presented); ``message_id``: the group message the button is on."""
        _ = tr.gettext
        op = button.op
        if op in BETWEEN_OPS:
            return await self._between(live, user_id, button, tr, message_id)
        if op is Op.JOIN:
            return await self.joins.press(live, user_id, tr)
        creator = op in CREATOR_OPS and await self.joins.creator_member(live, user_id)  # asked before the lock
        async with live.lock:
            if live.row.status != TableStatus.LOBBY:
                return Response(Reply(_("This table has already started.")))
            seated = live.seat_of(user_id) is not None
            if op in CREATOR_OPS and not seated and not creator:  # docs/security.md §1
                return Response(Reply(_("Only players at the table can do that."), alert=True))
            if op is Op.LEAVE:
                seat = live.seat_of(user_id)
                if seat is None:
                    return Response(Reply(_("You are not at this table.")))
                async with self.store.transaction() as tx:
                    await tx.unseat(live.table_id, seat.seat)
                    await tx.touch(live.table_id)
                await self.tables.refresh(live)
                return Response(Reply(_("You left the table.")), then=ShowLobby(live.table_id))
            if op in LANGUAGE_OPS:
                lang = LANGUAGE_OPS[op]
                async with self.store.transaction() as tx:
                    await tx.set_setting(live.row.group_id, "language", lang)
                    await tx.touch(live.table_id)
                log.info("group %s: language %s, from the lobby", live.row.group_id, lang)
                await self.tables.adopt_settings(live)
                reply = Reply(translator(lang).gettext("The group's language is now English."))
                return Response(reply, then=ShowLobby(live.table_id))
            if op in GAME_CHOICE_OPS or op in SIZE_CHOICE_OPS:
                now = TableChoice.of(live.row.options)
                choice = TableChoice(GAME_CHOICE_OPS.get(op, now.game), SIZE_CHOICE_OPS.get(op, now.seats))
                refusal = await self._choose(live, user_id, choice, tr)
                if refusal:
                    return Response(Reply(refusal, alert=True))
                return Response(Reply(), then=ShowLobby(live.table_id))
            if op in (Op.ADD_AI, Op.REMOVE_AI):
                if button.seq != len(live.seats):  # drawn for another seating: a double tap, an old lobby
                    return Response(
                        Reply(_("The seats have changed meanwhile: nothing done.")), then=ShowLobby(live.table_id)
                    )
                await self._ai_seat(live, add=op is Op.ADD_AI)
                return Response(Reply(), then=ShowLobby(live.table_id))
            if op is Op.START:
                if not seated:
                    return Response(Reply(_("Only players at the table can start it."), alert=True))
                refusal = self._cannot_start(live, tr)
                if refusal:
                    return Response(Reply(refusal, alert=True))
                return Response(Reply(_("Dealing…")), then=DealHand(live.table_id, user_id, live.row.seq, first=True))
            return Response(Reply(_("This button does nothing here.")))

    async def show(self, live: LiveTable, shown: ShowLobby) -> None:
        """After a lobby press was answered: confirm a new seat privately (a player the bot cannot
        message is unseated again, and the lobby says why), show the lobby message and re-arm the
        lobby's idle deadline."""
        if shown.confirm is not None:
            async with live.lock:
                seated = live.seat_of(shown.confirm) is not None
                if seated and not await self.joins.confirm_privately(live, shown.confirm):
                    _ = translator(await self.tables.user_lang(shown.confirm)).gettext  # the presser's
                    live.notes = [_("Someone must open a private chat with me first (button below), then join.")]
        await self.present.lobby(live, "open")
        self.joins.arm_lobby(live)

    async def deal(self, live: LiveTable, dealt: DealHand) -> None:
        """After Start or Next hand was answered: deal (unless the table moved on meanwhile), then
        show the hand — the players' messages first, the group's after them (the hand's start, the
        started lobby): a group message waiting on Telegram holds up no player's hand."""
        async with live.lock:
            status = TableStatus.LOBBY if dealt.first else TableStatus.BETWEEN
            if live.row.status != status or live.row.seq != dealt.seq:
                return
            if dealt.first:
                live.notes = []
            await self.play.deal(live, dealt.user_id)
        await self.present.sitting_out_notice(live)
        await self.present.sync(live)
        if dealt.first:
            await self.present.lobby(live, "started")

    async def _choose(self, live: LiveTable, user_id: int, choice: TableChoice, tr: Translator) -> str | None:
        """Give the lobby the game and size of ``choice`` (caller holds ``live.lock``); returns a
        refusal: only the table's opener chooses, the engine must deal those rules, and the members
        already seated must fit (seated members keep their order, gaps closed)."""
        _ = tr.gettext
        if user_id != live.row.created_by:
            return _("Only the player who opened the table can choose the game and the number of seats.")
        rules, options = self.tables.table_config(await self.tables.config(live.row.group_id), choice)
        refusal = self._unplayable(rules, choice, tr)
        if refusal:
            return refusal
        new = game.rules_from_json(rules)
        capacity = new.players if any(s.is_ai for s in live.seats) else game.members(new)
        if len(live.seats) > capacity:
            return _("{n} players sit at this table: someone must leave (or an AI be removed) first.").format(
                n=len(live.seats)
            )
        async with self.store.transaction() as tx:
            await tx.set_rules(live.table_id, rules)
            await tx.set_options(live.table_id, options)
            await tx.reseat(live.table_id, sorted(s.seat for s in live.seats))
            await tx.touch(live.table_id)
        await self.tables.refresh(live)
        log.info("table %s: %s at %s seats", live.table_id, choice.game, choice.seats)
        return None

    @staticmethod
    def _unplayable(rules: object, choice: TableChoice, tr: Translator) -> str | None:
        """A polite refusal when the bot cannot deal the chosen game at that size (yet)."""
        try:
            game.rules_from_json(rules)
        except game.RuleError as e:
            log.info("table rules %r refused: %s", rules, e)
            text = tr.gettext(
                "Sorry, I cannot deal {game} at {n} seats yet. Send /new for Ka Wu Xing (卡五星) with 3 seats."
            )
            return text.format(game=game_name(choice.game, tr), n=choice.seats)
        return None

    def _cannot_start(self, live: LiveTable, tr: Translator) -> str | None:
        _ = tr.gettext
        if len(live.seats) < live.players:
            return _(_SEATS_TAKEN[live.players])
        if not live.humans():
            return _("At least one human player is needed.")
        return None

    async def _ai_seat(self, live: LiveTable, *, add: bool) -> None:
        async with self.store.transaction() as tx:
            if add:
                taken = {s.seat for s in live.seats}
                free = [i for i in range(live.players) if i not in taken]
                if free and len(live.seats) < live.players:
                    await tx.sit(live.table_id, free[0], ai_level="normal")
            else:
                ais = [s.seat for s in live.seats if s.is_ai]
                if ais:
                    await tx.unseat(live.table_id, ais[-1])
            await tx.touch(live.table_id)
        await self.tables.refresh(live)

    async def _between(
        self, live: LiveTable, user_id: int, button: Button, tr: Translator, message_id: int | None
    ) -> Response:
        """Next hand (a player or the table's creator), or End the table in two steps — End asks,
        "Yes, end the table" ends, Back returns to the choice — for seated players only."""
        _ = tr.gettext
        op = button.op
        creator = op is Op.NEXT_HAND and await self.joins.creator_member(live, user_id)  # asked before the lock
        async with live.lock:
            seat = live.seat_of(user_id)
            if seat is None and op is Op.NEXT_HAND and live.sitting_out is not None:
                seat = live.sitting_out if live.sitting_out.user_id == user_id else None  # a member too
            if seat is None and not creator:
                return Response(Reply(_("Only players at the table can do that."), alert=True))
            if live.row.status != TableStatus.BETWEEN or button.seq != live.row.seq:
                return Response(Reply(_("This button is outdated: the table has moved on.")))
            self.present.note_offer(live, message_id)
            gtr = translator(live.group_lang)
            if op in (Op.CLOSE, Op.CLOSE_CANCEL):
                markup = (close_confirm_keyboard if op is Op.CLOSE else next_hand_keyboard)(
                    gtr, live.table_id, live.row.seq)  # fmt: skip
                targets = [message_id] if message_id is not None else self.present.offers(live)
                edits = tuple(Edit(live.row.chat_id, msg_id, None, markup) for msg_id in targets)
                return Response(Reply(_("Press “Yes, end the table” to confirm.") if op is Op.CLOSE else None), edits)
            if op is Op.CLOSE_CONFIRM:
                return Response(Reply(_("The table is closed.")), then=CloseTable(live.table_id, live.row.seq, user_id))
            if seat is not None and (seat.on_auto or seat.timeouts):
                async with self.store.transaction() as tx:  # whoever deals is back at the table
                    await tx.set_seat_auto(live.table_id, seat.seat, on_auto=False, timeouts=0)
                seat.on_auto, seat.timeouts = False, 0
            return Response(Reply(_("Dealing…")), then=DealHand(live.table_id, user_id, live.row.seq, first=False))

    async def close_between(self, live: LiveTable, seq: int, user_id: int | None = None) -> None:
        """End the table its player ``user_id`` confirmed ending (:meth:`_between`), if it is still
        between hands at ``seq``; the group reads who ended it, as after ``/kill`` (one message)."""
        async with live.lock:
            if live.row.status != TableStatus.BETWEEN or live.row.seq != seq:
                return
            seat = next((s for s in live.members() if s.user_id is not None and s.user_id == user_id), None)
            await self.close(live, "closed")
        _ = translator(live.group_lang).gettext
        who = _("{name} ended the table.").format(name=name(seat.name)) if seat else _("The table was ended.")
        await self.present.notice(live, sentences(translator(live.group_lang), who, _("Send /new to play again.")))

    # -- closing and expiry ----------------------------------------------------------------------

    async def close(self, live: LiveTable, state: str, reason: str | None = None) -> None:
        """Close a table (caller holds ``live.lock``); the lobby message says so.  Between hands, the
        hand messages a player's open page kept at a turn first end as in the chat (the hand over, no
        buttons): once closed, nothing brings them up to date (docs/architecture.md §4 "The Mini App")."""
        if live.row.status == TableStatus.BETWEEN:
            try:
                await self.present.sync(live, asked=True)
            except Exception:  # the table closes all the same
                log.exception("table %s: the hand messages before closing", live.table_id)
        async with self.store.transaction() as tx:
            await tx.set_status(live.table_id, TableStatus.CLOSED, reason or state)
        self.timers.cancel(live.table_id)
        await self.tables.refresh(live)
        self.tables.forget(live.table_id)
        await self.present.lobby(live, state)
        log.info("table %s: closed (%s)", live.table_id, reason or state)

    async def end(self, live: LiveTable, reason: str) -> None:
        """End a table at once (``/kill``, the bot removed from the group; caller holds
        ``live.lock``): a hand in play is aborted unscored (the ledger is untouched), the players are
        free to sit elsewhere, the timers stop."""
        async with self.store.transaction() as tx:
            if live.hand is not None and live.hand.status == "playing":
                await tx.finish_hand(live.hand.hand_id, "aborted", None)
            await tx.set_status(live.table_id, TableStatus.CLOSED, reason)
        self.timers.cancel(live.table_id)
        self.present.detach(live)
        await self.tables.refresh(live)
        self.tables.forget(live.table_id)
        log.info("table %s: ended (%s)", live.table_id, reason)

    async def on_expire(self, live: LiveTable, clock: Callable[[], float]) -> None:
        """The table's ``lobby`` / ``idle`` deadline fired."""
        async with live.lock:
            row = live.row
            now = clock()
            if row.status == TableStatus.LOBBY:
                due = row.updated_at + self.settings.lobby_idle_seconds
                if now + 0.05 < due:
                    self.timers.arm(live.table_id, due)
                    return
                await self.close(live, "expired")
            elif row.status == TableStatus.BETWEEN and row.deadline_kind == "idle":
                if row.deadline_at is not None and now + 0.05 < row.deadline_at:
                    self.timers.arm(live.table_id, row.deadline_at)
                    return
                await self.close(live, "closed", "idle")
                tr = translator(live.group_lang)
                await self.present.notice(
                    live, tr.gettext("The table was closed after a long pause. Send /new to play again.")
                )
