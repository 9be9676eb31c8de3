"""Joining a table: who may sit at a lobby, by the Join button, a join link or a remembered join
(docs/architecture.md §4 "Who may act", §5 step 1).

Rules enforced here and by the store's unique indexes: a player sits at one open table at a time
(whichever bot runs the table, docs/architecture.md §8); joining needs a private chat with the bot —
without one, the join is remembered (``bot_users.pending_table_id``) and the player gets a deep
link; ``/start <payload>`` or a bare ``/start`` completes it.  A join link of another bot's table
(with its true secret) gets :meth:`Joins.other_bot` and changes nothing; any other link that does
not work gets the one refusal below.

Only members of a group sit at its table.  Every way to a seat — the Join button, a join link, a
bare ``/start`` completing a remembered join — goes through :meth:`Joins.join`, which asks Telegram
(``getChatMember``) whether the user is a member of the table's group right now (never trusting a
remembered "member", :mod:`.membership`).  A join link
carries the table's random secret (``TableRow.join_token``), is checked in constant time and works
only while the lobby is open; an outsider's, a guessed, a forged or an expired link all get one
refusal that names no group, so a stranger learns nothing (not even whether the table exists).  A
non-seated user's other lobby buttons (the creator's AI, game, size and next-hand buttons) need
membership too (docs/security.md §1); for those a "member" answer up to a minute old will do
(:meth:`Joins.creator_member`).
Telegram is always asked before the table is locked (then the table is checked again under the
lock): a question to Telegram never holds up the table's other presses or its deal.
"""

from __future__ import annotations

import enum
import logging
import secrets

from ..store import Conflict, TableStatus
from ..words.i18n import Translator, translator
from ..words.rules_text import option_sentence
from ..words.texts import name, sentences
from .buttons import StartKind, StartPayload
from .game import Ruleset
from .live import LiveTable
from .membership import Membership
from .ports import Outcome
from .present import Presenter
from .tables import Tables
from .timers import Timers
from .values import Reply, Response, ShowLobby

__all__ = ["JoinResult", "Joins"]

log = logging.getLogger("kwx.table")


class JoinResult(enum.Enum):
    """Outcome of a join attempt."""

    JOINED = "joined"
    ALREADY_HERE = "already_here"
    ELSEWHERE = "elsewhere"
    FULL = "full"
    NOT_LOBBY = "not_lobby"
    NEED_PM = "need_pm"
    NOT_MEMBER = "not_member"
    """Telegram says the user is not a member of the table's group (left, banned, never there)."""
    UNCHECKED = "unchecked"
    """Telegram could not be asked about the membership right now (try again)."""


class Joins:
    """See module docstring.  ``timers``: an open lobby's idle deadline is re-armed when someone
    sits down (:meth:`arm_lobby`)."""

    def __init__(self, tables: Tables, presenter: Presenter, timers: Timers) -> None:
        self.tables = tables
        self.store = tables.store
        self.present = presenter
        self.timers = timers
        self.settings = tables.settings
        self.members = Membership(presenter.sender)
        """Membership of users in the tables' groups, remembered briefly (:mod:`.membership`)."""

    def arm_lobby(self, live: LiveTable) -> None:
        """The open lobby's idle deadline: ``KWX_LOBBY_IDLE_SECONDS`` after its last change."""
        self.timers.arm(live.table_id, live.row.updated_at + self.settings.lobby_idle_seconds)

    async def press(self, live: LiveTable, user_id: int, tr: Translator) -> Response:
        """The lobby's Join button: the answer (a deep link when the bot needs a private chat first,
        a refusal, or "you took a seat") and the lobby to show, which confirms a new seat privately."""
        result = await self.join(live, user_id)
        if result is JoinResult.NEED_PM:
            link = self.present.deep_link(StartKind.JOIN, live.table_id, live.row.join_token)
            return Response(Reply(url=link))
        if result is JoinResult.NOT_LOBBY:
            return Response(Reply(tr.gettext("This table has already started.")))
        reply = Reply(self.refusal(result, tr), alert=result is not JoinResult.JOINED)
        if result is JoinResult.JOINED and len(live.seats) > live.players:  # docs/rules.md §A2.1
            reply = Reply(
                tr.gettext("You took a seat. You are four at a three-seat table: each hand one of you sits out.")
            )
        confirm = user_id if result is JoinResult.JOINED else None
        return Response(reply, then=ShowLobby(live.table_id, confirm=confirm))

    @staticmethod
    def _capacity(live: LiveTable) -> int:
        """Members the lobby seats now: the rules' seats, and a fourth member at a 3-seat table
        (docs/rules.md §A2.1) only when no AI sits there (the members who take turns sitting out are
        people)."""
        return live.players if any(s.is_ai for s in live.seats) else live.chairs

    async def sit(self, live: LiveTable, user_id: int) -> JoinResult:
        taken = {s.seat for s in live.seats}
        free = [i for i in range(self._capacity(live)) if i not in taken]
        if not free:
            return JoinResult.FULL
        try:
            async with self.store.transaction() as tx:
                await tx.sit(live.table_id, free[0], user_id=user_id)
                await tx.set_pending_join(user_id, None, bot_id=self.tables.bot_id)
                await tx.touch(live.table_id)
        except Conflict as e:
            return JoinResult.ELSEWHERE if e.what == "seated" else JoinResult.FULL
        await self.tables.refresh(live)
        return JoinResult.JOINED

    async def join(self, live: LiveTable, user_id: int) -> JoinResult:
        """Seat ``user_id`` if they are a member of the table's group; remembers the join if a PM is
        needed.  The caller does not hold ``live.lock``: Telegram (``getChatMember``) is asked with
        no lock held — afresh when the answer would seat them, else a remembered answer will do
        (:class:`~.membership.Membership`) — then the table is locked and checked again."""
        refused = await self._cannot_join(live, user_id)
        if refused is not None:
            return refused
        user = await self.store.get_user(user_id, bot_id=self.tables.bot_id)
        seating = user is not None and user.can_pm and len(live.seats) < self._capacity(live)
        member = await self.members.check(live.row.chat_id, user_id, fresh=seating)
        if member is None:
            return JoinResult.UNCHECKED
        if not member:
            log.info("table %s: user %s is not a member of the group; not seated", live.table_id, user_id)
            return JoinResult.NOT_MEMBER
        async with live.lock:
            refused = await self._cannot_join(live, user_id)  # the table may have moved on meanwhile
            if refused is None and len(live.seats) >= self._capacity(live):
                refused = JoinResult.FULL
            if refused is not None:
                return refused
            if not seating:  # no private chat yet (or the check was not fresh): the link seats them
                async with self.store.transaction() as tx:
                    if user is not None:
                        await tx.set_pending_join(user_id, live.table_id, bot_id=self.tables.bot_id)
                return JoinResult.NEED_PM
            return await self.sit(live, user_id)

    async def _cannot_join(self, live: LiveTable, user_id: int) -> JoinResult | None:
        """Why ``user_id`` cannot join whether or not they are a member (about the lobby and the
        user only, so a stranger learns nothing of the table), or None."""
        if live.row.status != TableStatus.LOBBY:
            return JoinResult.NOT_LOBBY
        if live.seat_of(user_id) is not None:
            return JoinResult.ALREADY_HERE
        if await self.store.open_seat_of_user(user_id, bot_id=self.tables.bot_id) is not None:
            return JoinResult.ELSEWHERE
        return None

    @staticmethod
    def _seated_text(live: LiveTable, tr: Translator) -> str:
        """The private confirmation of a seat, naming the table's game (卡五星 or 卡心五); when the
        table now has a member more than it seats (four at a 3-seat table, docs/rules.md §A2.1) it
        says that one sits each hand out, and who."""
        if live.rules.ruleset is Ruleset.KAXINWU:  # the table's game, as the lobby names it
            text = tr.gettext("You took a seat at the Ka Xin Wu table in {title}. Your hand will appear here.")
        else:
            text = tr.gettext("You took a seat at the Ka Wu Xing table in {title}. Your hand will appear here.")
        text = text.format(title=name(live.title or "?", 40))
        if len(live.seats) > live.players:
            more = tr.gettext(
                "You are four at a three-seat table, so one of you sits out each hand and watches it in the group."
            )
            text = sentences(tr, text, more, option_sentence("four_players", live.rules, tr))
        return text

    async def confirm_privately(self, live: LiveTable, user_id: int) -> bool:
        """Tell a new player privately where they sit (:meth:`_seated_text`); False (and unseated)
        if the bot cannot."""
        tr = translator(await self.tables.user_lang(user_id))
        sent = await self.present.sender.send_text(user_id, self._seated_text(live, tr))
        if sent.outcome is not Outcome.FORBIDDEN:
            return True
        seat = live.seat_of(user_id)
        if seat is not None:
            async with self.store.transaction() as tx:
                await tx.unseat(live.table_id, seat.seat)
                await tx.set_pending_join(user_id, live.table_id, bot_id=self.tables.bot_id)
            await self.tables.refresh(live)
        return False

    async def start_payload(self, user_id: int, start: StartPayload, tr: Translator) -> str:
        """``/start <payload>`` in a private chat (the user can be messaged now).  A join link is
        honoured only with the table's secret while its lobby is open; anything else gets
        :meth:`bad_link` (no group named).  A join that cannot happen (the table closed, started or
        filled up) also drops a pending join of that table, so a later bare ``/start`` does not
        refuse it again."""
        if start.kind is StartKind.HAND:
            return await self.pending_or_welcome(user_id, tr)
        live = await self.tables.get(start.table_id)
        foreign = None if live is not None else await self.tables.foreign(start.table_id)
        if (
            foreign is not None
            and foreign.join_token
            and start.token is not None
            and secrets.compare_digest(start.token, foreign.join_token)  # a true link, sent to the wrong bot
        ):
            log.info("user %s: join link of another bot's table %s", user_id, start.table_id)
            return self.other_bot(tr)
        secret = None if live is None else live.row.join_token
        if (
            live is None
            or secret is None
            or start.token is None
            or not secrets.compare_digest(start.token, secret)
            or live.row.status != TableStatus.LOBBY
        ):
            log.info("user %s: join link refused (unknown, forged or expired)", user_id)
            await self._drop_pending(user_id, start.table_id)
            return self.bad_link(tr)
        return await self._join_by_link(user_id, start.table_id, tr)

    @staticmethod
    def other_bot(tr: Translator) -> str:
        """The refusal of a join link or a button that reached this bot about a table another bot
        runs (docs/architecture.md §8); nothing was changed."""
        return tr.gettext(
            "This table belongs to another bot: use the buttons and links of that bot's messages. Nothing was changed."
        )

    @staticmethod
    def bad_link(tr: Translator) -> str:
        """The one refusal of a join link that is forged, guessed, expired or not the user's group's."""
        return tr.gettext(
            "Sorry, this join link does not work for you: it works only for members of the table's group, "
            "and only while its lobby is open. Ask in your group for a new one."
        )

    async def _join_by_link(self, user_id: int, table_id: int, tr: Translator) -> str:
        """Seat the user at ``table_id`` (the user can be messaged); returns the reply.  Any outcome
        but "must open a private chat" clears a pending join of that table."""
        live = await self.tables.get(table_id)
        if live is None:
            await self._drop_pending(user_id, table_id)
            return tr.gettext("That table is closed. Send /new in your group to open one.")
        result = await self.join(live, user_id)
        if result not in (JoinResult.NEED_PM, JoinResult.UNCHECKED):
            await self._drop_pending(user_id, table_id)
        if result is JoinResult.NOT_MEMBER:
            return self.bad_link(tr)
        if result is JoinResult.JOINED:
            await self.present.lobby(live)
            self.arm_lobby(live)
            return self._seated_text(live, tr)
        return self.refusal(result, tr)

    async def _drop_pending(self, user_id: int, table_id: int) -> None:
        user = await self.store.get_user(user_id, bot_id=self.tables.bot_id)
        if user is not None and user.pending_table_id == table_id:
            async with self.store.transaction() as tx:
                await tx.set_pending_join(user_id, None, bot_id=self.tables.bot_id)

    async def pending_or_welcome(self, user_id: int, tr: Translator) -> str:
        """A bare ``/start``: complete a pending join; else (or if that join can no longer happen:
        the pending join is then dropped) greet."""
        user = await self.store.get_user(user_id, bot_id=self.tables.bot_id)
        if user is not None and user.pending_table_id is not None:
            live = await self.tables.get(user.pending_table_id)
            if live is not None and live.row.status == TableStatus.LOBBY:
                return await self._join_by_link(user_id, user.pending_table_id, tr)
            await self._drop_pending(user_id, user.pending_table_id)
        return tr.gettext(
            "Hello! I host Ka Wu Xing mahjong tables in group chats. Add me to a group and send /new there; "
            "your hand will be shown here, privately."
        )

    @staticmethod
    def refusal(result: JoinResult, tr: Translator) -> str:
        _ = tr.gettext
        return {
            JoinResult.ALREADY_HERE: _("You already sit at this table."),
            JoinResult.ELSEWHERE: _("You already sit at another open table. Leave it first."),
            JoinResult.FULL: _("This table is full."),
            JoinResult.NOT_LOBBY: _("This table has already started."),
            JoinResult.NEED_PM: _("Open a private chat with me first."),
            JoinResult.NOT_MEMBER: _("Only members of this group can sit at its table."),
            JoinResult.UNCHECKED: _("I could not check that you are a member of this group. Please try again."),
            JoinResult.JOINED: _("You took a seat."),
        }[result]

    # -- lobby buttons ---------------------------------------------------------------------------

    async def creator_member(self, live: LiveTable, user_id: int) -> bool:
        """``user_id`` is the table's creator, sits at none of its seats, and is a member of its group
        (a remembered answer will do, :class:`~.membership.Membership`; False when Telegram cannot
        say).  Asked before the table is locked; the caller checks the seat again under the lock."""
        members = [*live.seats, *([live.sitting_out] if live.sitting_out is not None else [])]
        if user_id != live.row.created_by or any(s.user_id == user_id for s in members):
            return False
        return bool(await self.members.check(live.row.chat_id, user_id))
