"""The table service's one entry: :class:`TableService` (docs/architecture.md §4).

:class:`TableService` wires :class:`~.tables.Tables` (open tables, loaded from the store),
:class:`~.play.Play` (decisions and commits), :class:`~.deadlines.Deadlines` (time-outs),
:class:`~.lobby.Lobby` (table life), :class:`~.joins.Joins` (who sits down),
:class:`~.present.Presenter` (messages), the timers, and the
command services :class:`~.score_commands.Reports` (``/score`` ...), :class:`~.admin.Admin`
(``/settings``, ``/season``, ``/kill``, ``/kick``), :class:`~.voids.Voids` (``/void``) and
:class:`~.info.Info` (``/help``, ``/rules``, ``/calc``), :class:`~.records.Records` (``/export N``, ``/review N``,
``/replay N``) and :class:`~.stats.Stats` (``/stats``).

Each entry point takes plain values (a :class:`~.values.Command`, a user, a decoded button
:data:`~.buttons.Press`) — never Telegram objects.  One reply convention (docs/architecture.md §4):
whatever answers an update is returned as one :class:`~.values.Response` — for a button press the
answer, messages to send or edit, and a follow-up such as "present table T" that the edge hands back
to :meth:`TableService.follow` after answering, so the answer comes before slow work; for a command
the messages to send.  Everything not triggered by a reply —
the table's live messages, private hands, deadlines, notices — goes out through a
:class:`~.ports.Messenger` (the edge's sender) wrapped in an :class:`~.outbox.Outbox`, which tells
the service about refused (403) and migrated chats.  The
service reaches the engine only through :mod:`.game`, the store only through
:class:`~kwx_bot.store.TableStore`, and finds its words in :mod:`kwx_bot.words`.  Failures inside a
table's work are logged with the table and chat, and the group gets a short notice
(:meth:`TableService.trouble`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

from ..settings import Settings, normalize_language
from ..store import TableStatus, TableStore
from ..words.i18n import Translator, translator
from ..words.texts import name
from .admin import Admin
from .buttons import Button, CodecError, ConfigButton, Key, Op, Press, StartKind, VoidButton, decode_start, keyboard
from .deadlines import Deadlines
from .game import Deal
from .group_settings import ConfigError, parse_new
from .info import Info
from .joins import Joins
from .live import LiveTable
from .lobby import LOBBY_OPS, Lobby
from .open_pages import OpenPages
from .outbox import Outbox
from .pages import Pages
from .pictures import Pictures
from .play import GAME_OPS, Play
from .ports import Messenger, Sent
from .present import Presenter
from .records import Records
from .reviews import ProcessReviewer, Reviewer
from .score_commands import Reports
from .stats import Stats
from .tables import Tables
from .thinking import Thinker
from .timers import AsyncioTimers, Fire, Timers
from .troubles import REPORT_INTERVAL, TROUBLE_INTERVAL, Troubles
from .values import Command, DealHand, FollowUp, Out, Present, Reply, Response, ShowLobby, UserInfo
from .voids import Voids

__all__ = ["REPORT_INTERVAL", "TROUBLE_INTERVAL", "TableService", "TimersFactory"]

log = logging.getLogger("kwx.service")


TimersFactory = Callable[[Fire], Timers]
"""Makes the service's :class:`~.timers.Timers` from the callback they wake (:meth:`TableService.on_timer`)."""


class TableService:
    """See module docstring.  ``timers`` makes the tables' timers from the service's wake-up call
    (:meth:`on_timer`): production passes JobQueue timers (:class:`~.timers.JobQueueTimers`), the
    default is asyncio tasks (:class:`~.timers.AsyncioTimers` on ``clock``); every part that arms a
    deadline is given these timers when it is made."""

    def __init__(
        self,
        store: TableStore,
        messenger: Messenger,
        pictures: Pictures,
        settings: Settings,
        *,
        clock: Callable[[], float] = time.time,
        timers: TimersFactory | None = None,
        reviewer: Reviewer | None = None,
    ) -> None:
        self.store = store
        self.outbox = Outbox(messenger, self.on_forbidden, self.on_migrated)
        self.sender: Messenger = self.outbox
        """The chat as the service sees it: ``messenger`` (the edge's sender), whose refusals and
        migrations are told to :meth:`on_forbidden` and :meth:`on_migrated`."""
        self.settings = settings
        troubles = Troubles(self.sender, settings)
        self.report = troubles.report
        """A short error report to the operator (:meth:`.troubles.Troubles.report`)."""
        self.trouble = troubles.trouble
        """Something failed at a table: tell its group and the operator (:meth:`.troubles.Troubles.trouble`)."""
        self.tables = Tables(store, settings, clock)
        self.open_pages = OpenPages(lambda table_id, user_id: self.pages.left(table_id, user_id))
        """Who has a table open on the Mini App's page (its server reports it) and the signal its
        streams wait on: the presenter's :class:`~.ports.Page`."""
        self.present = Presenter(
            self.tables, self.sender, pictures, table_edit_seconds=settings.table_edit_seconds,
            remind_seconds=settings.remind_seconds, page=self.open_pages,
        )  # fmt: skip
        self.timers: Timers = AsyncioTimers(self.on_timer, clock) if timers is None else timers(self.on_timer)
        self.thinker = Thinker(settings.render_processes)
        self.play = Play(self.tables, self.present, self.timers, self.thinker)
        self.joins = Joins(self.tables, self.present, self.timers)
        self.lobby = Lobby(self.tables, self.play, self.present, self.timers, self.joins)
        self.deadlines = Deadlines(self.play)
        self.reports = Reports(self.tables)
        self.admin = Admin(self.tables, self.play, self.lobby, self.present, self.sender)
        self.voids = Voids(self.tables, self.admin)
        self.info = Info(self.tables)
        self.reviewer: Reviewer = reviewer or ProcessReviewer(settings.render_processes, fmt=settings.picture_format)
        self.records = Records(
            self.tables, self.reports, pictures, self.sender, self.reviewer, self._spawn, self.present.bot_username
        )
        self.stats = Stats(self.tables, pictures)
        self.pages = Pages(
            self.tables, self.present, self.joins.members, self.press, self.follow_soon, self.records,
            self.open_pages.signal,
        )  # fmt: skip
        """The tables as the Mini App's page shows them (the same screens; presses through :meth:`press`)."""
        self._users: dict[int, UserInfo] = {}
        self._bg: set[asyncio.Task[Any]] = set()

    def tr(self, lang: str) -> Translator:
        """A catalog by name."""
        return translator(lang)

    def user_tr(self, user: UserInfo) -> Translator:
        """The catalog for a user's private messages."""
        return translator(normalize_language(user.language_code, self.settings.default_language))

    # -- lifecycle -------------------------------------------------------------------------------

    async def startup(self) -> list[LiveTable]:
        """Reload every open table from its events, re-arm deadlines, refresh their messages (a
        lobby's only when the chats lost it, ``Settings.forget_messages``)."""
        tables, forget = await self.tables.resume_all(), self.settings.forget_messages
        for live in tables:
            await self.play.resume(live)
            if live.row.status == TableStatus.LOBBY:
                self.timers.arm(live.table_id, live.row.updated_at + self.settings.lobby_idle_seconds)
                if forget:
                    self._spawn(self.present.lobby(live))
            else:  # a table between hands whose result the chats lost offers the next hand again
                self._spawn(self._present(live, offer=forget and live.row.status == TableStatus.BETWEEN))
        log.info("resumed %d open table(s)", len(tables))
        return tables

    async def shutdown(self) -> None:
        """Stop background work (pending edits, timers) and remember what the messages show."""
        self.open_pages.close()
        for task in list(self._bg):
            task.cancel()
        await asyncio.gather(*self._bg, return_exceptions=True)
        await self.present.aclose()
        try:
            await self.deadlines.keep_throttled_time()
            await self.present.remember_shown()
        except Exception:  # never stop a shutdown: the next start then edits the messages once
            log.exception("could not store the deadlines' throttled time or what the messages show")
        if isinstance(self.timers, AsyncioTimers):
            await self.timers.aclose()
        close = getattr(self.reviewer, "close", None)
        if callable(close):
            close()
        self.thinker.close()

    async def idle(self) -> None:
        """Wait for background presentation work (tests)."""
        while self._bg:
            await asyncio.gather(*list(self._bg), return_exceptions=True)
        await self.present.idle()

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._bg.add(task)
        task.add_done_callback(self._bg.discard)

    async def _present(self, live: LiveTable, *, offer: bool = False) -> None:
        try:
            await self.play.kick_auto(live)  # an AI seat's move a press left and a restart overtook
            await self.present.sync(live)
            if offer:
                await self.lobby.offer_between(live)
        except Exception as error:
            log.exception("table %s (chat %s): presentation failed", live.table_id, live.row.chat_id)
            await self.trouble(live, error)

    # -- users -----------------------------------------------------------------------------------

    async def touch_user(self, user: UserInfo, *, can_pm: bool | None = None) -> None:
        """Record a user's names and language (written only when changed) and PM reachability."""
        if self._users.get(user.user_id) != user or can_pm is not None:
            async with self.store.transaction() as tx:
                await tx.upsert_user(user.user_id, user.first_name, user.last_name, user.username, user.language_code)
                if can_pm is not None:
                    await tx.set_can_pm(user.user_id, can_pm, bot_id=self.tables.bot_id)
            self._users[user.user_id] = user

    # -- commands --------------------------------------------------------------------------------

    async def new(self, cmd: Command) -> Response:
        """``/new``: in a group, open a table (a refusal replies to the command); in private, say where."""
        if cmd.private:
            return Response.of(Out(self.user_tr(cmd.user).gettext("Send /new in a group chat to open a table there.")))
        refusal = await self.new_table(cmd.chat_id, cmd.title, cmd.user, cmd.args)
        return Response.of(Out(refusal, reply=True)) if refusal else Response()

    async def start(self, cmd: Command) -> Response:
        """``/start [payload]``: in private see :meth:`private_start`; in a group, the help."""
        if not cmd.private:
            return await self.info.help(cmd)
        text = await self.private_start(cmd.user, cmd.args[0] if cmd.args else None)
        return Response.of(Out(text)) if text else Response()

    async def hand(self, cmd: Command) -> Response:
        """``/hand`` in private: :meth:`resend_hand` (or say there is none); in a group, where to send it."""
        tr = self.user_tr(cmd.user)
        if not cmd.private:
            return Response.of(Out(tr.gettext("Send /hand to me in a private chat.")))
        await self.touch_user(cmd.user, can_pm=True)
        if not await self.resend_hand(cmd.user.user_id):
            return Response.of(Out(tr.gettext("You have no hand in play right now.")))
        return Response()

    async def back(self, cmd: Command) -> Response:
        """``/back``: :meth:`take_back`."""
        return Response.of(Out(await self.take_back(cmd.user)))

    async def new_table(self, chat_id: int, title: str, user: UserInfo, args: Sequence[str] = ()) -> str | None:
        """``/new [game] [seats]`` in a group (:func:`~.group_settings.parse_new`); returns a refusal
        text for the group, or None."""
        await self.touch_user(user)
        group_id = await self._group_id(chat_id, title)
        tr = self.tr(await self.tables.group_lang(group_id))
        try:
            choice = parse_new(args, (await self.tables.config(group_id)).rules)
        except ConfigError as e:
            return e.text(tr)
        return await self.lobby.new_table(chat_id, title, user.user_id, tr, choice)

    async def _group_id(self, chat_id: int, title: str) -> int:
        async with self.store.transaction() as tx:
            return await tx.ensure_group(chat_id, title)

    async def private_start(self, user: UserInfo, payload: str | None) -> str | None:
        """``/start [payload]`` in a private chat: the user can be messaged from now on.

        Completes a join (payload or pending intent); during a hand re-sends the hand message (and
        returns None); otherwise returns a greeting.
        """
        await self.touch_user(user, can_pm=True)
        tr = self.user_tr(user)
        await self._reachable_again(user.user_id)
        if payload:
            try:
                start = decode_start(payload)
            except CodecError:
                start = None
            if start is not None and start.kind is StartKind.JOIN:
                return await self.joins.start_payload(user.user_id, start, tr)
        if await self.resend_hand(user.user_id):
            return None
        return await self.joins.pending_or_welcome(user.user_id, tr)

    async def resend_hand(self, user_id: int) -> bool:
        """``/hand``: send the player's hand message afresh; the old one's buttons stop working.
        False if the user has no hand in play."""
        seat_row = await self.store.open_seat_of_user(user_id, bot_id=self.tables.bot_id)
        if seat_row is None:
            return False
        live = await self.tables.get(seat_row.table_id)
        if live is None or live.state is None or live.row.status != TableStatus.PLAYING:
            return False
        seat = live.seat_of(user_id)
        if seat is None:
            return False
        seat.can_pm, seat.last_active = True, self.tables.clock()  # /hand: the player is there
        old = await self.present.forget_hand_message(live, seat)
        await self.present.sync(live, seats=[seat.seat], asked=True)
        if old is not None and old != seat.hand_msg_id:
            await self.sender.edit_markup(user_id, old, None, can_wait=True)  # stale buttons
        return True

    async def take_back(self, user: UserInfo) -> str:
        """``/back``: the player plays their seat again (ends 托管); returns the reply."""
        await self.touch_user(user, can_pm=True)
        tr = self.user_tr(user)
        seat_row = await self.store.open_seat_of_user(user.user_id, bot_id=self.tables.bot_id)
        live = None if seat_row is None else await self.tables.get(seat_row.table_id)
        seat = None if live is None else live.seat_of(user.user_id)
        if live is None or seat is None:
            return tr.gettext("You are not at a table.")
        async with live.lock:
            changed = await self.play.take_back(live, seat)
        if not changed:
            return tr.gettext("You are playing this seat.")
        if live.state is not None and live.row.status == TableStatus.PLAYING:
            await self.present.sync(live, seats=[seat.seat])
        return tr.gettext("Welcome back: you play this seat again.")

    async def group_lang_of_chat(self, chat_id: int, title: str) -> str:
        """The language of a group's messages (the group is recorded on first sight)."""
        return await self.tables.group_lang(await self._group_id(chat_id, title))

    async def _reachable_again(self, user_id: int) -> None:
        """The user opened the private chat again.  What their hand message shows is still known
        (refused edits never changed it), so nothing is re-sent or re-edited needlessly."""
        for live in self.tables.cached():
            seat = live.seat_of(user_id)
            if seat is not None and not seat.can_pm:
                seat.can_pm = True

    # -- buttons ---------------------------------------------------------------------------------

    async def press(
        self, user: UserInfo, chat_id: int | None, message_id: int | None, button: Press | None
    ) -> Response:
        """A button press (decoded by the edge; None: data that is not one of ours), routed: the
        answer, anything to send or edit in the chat, and the follow-up (:meth:`follow`) that the
        edge asks for once it has answered.  A failure is logged and answered with an apology."""
        await self.touch_user(user)
        if isinstance(button, ConfigButton):
            return await self.admin.settings_press(user, chat_id, message_id, button)
        if isinstance(button, VoidButton):
            return await self.voids.press(user, chat_id, message_id, button)
        if button is None:
            return Response(Reply(self.user_tr(user).gettext("This button is not one of mine (or it is too old).")))
        live = await self.tables.get(button.table_id)
        if live is None:
            if await self.tables.foreign(button.table_id) is not None:  # docs/architecture.md §8
                return Response(Reply(self.joins.other_bot(self.user_tr(user)), alert=True))
            return Response(Reply(self.user_tr(user).gettext("This table is closed.")))
        try:
            if button.op in LOBBY_OPS:
                return await self.lobby.press(live, user.user_id, button, self.user_tr(user), message_id)
            if button.op in GAME_OPS:
                reply, changed = await self.play.press(live, user.user_id, message_id, button)
                return Response(reply, then=self._after_change(live, user.user_id, button) if changed else None)
            return Response(Reply())  # pragma: no cover - every Op is routed
        except Exception as error:  # the press's transaction rolled back or committed whole
            log.exception("table %s (chat %s): user %s's press %r failed", live.table_id, live.row.chat_id,
                          user.user_id, button)  # fmt: skip
            await self.trouble(live, error)
            return Response(self.sorry(user))

    def sorry(self, user: UserInfo) -> Reply:
        """The answer to a press that failed on our side."""
        return Reply(self.user_tr(user).gettext("Sorry, something went wrong. Nothing was changed."))

    @staticmethod
    def _after_change(live: LiveTable, user_id: int, button: Button) -> Present:
        ui_only = button.op in (Op.LIANGDAO_MENU, Op.LIANGDAO_PICK, Op.BACK)
        seat = live.seat_of(user_id)
        return Present(live.table_id, (seat.seat,) if ui_only and seat is not None else None)

    def follow_soon(self, then: FollowUp) -> None:
        """Run :meth:`follow` in the background, so the update that returned ``then`` ends at once:
        the edge runs a chat's updates one after another, and a follow-up's sends — to other
        chats too — may wait out Telegram's 429s; the chat's next press must not wait for them
        (docs/architecture.md §4).  A table's presentation keeps its order under its own locks;
        :meth:`idle` waits for the task, :meth:`shutdown` cancels it."""
        self._spawn(self.follow(then))

    async def follow(self, then: FollowUp) -> None:
        """Do what a :class:`Response` left for after the answer: present a table
        (:class:`~.values.Present`), show a lobby (:class:`~.values.ShowLobby`), deal a hand
        (:class:`~.values.DealHand`) or end a table between hands (:class:`~.values.CloseTable`).
        A table closed meanwhile is left alone; a failure is logged and the group told
        (:meth:`trouble`)."""
        live = await self.tables.get(then.table_id)
        if live is None:
            return
        try:
            if isinstance(then, Present):
                await self.play.kick_auto(live)  # a strong AI seat's move, left by the press (Play.drive)
                await self.present.sync(live, seats=list(then.seats) if then.seats is not None else None)
            elif isinstance(then, ShowLobby):
                await self.lobby.show(live, then)
            elif isinstance(then, DealHand):
                await self.lobby.deal(live, then)
            else:
                await self.lobby.close_between(live, then.seq, then.user_id)
        except Exception as error:
            log.exception("table %s (chat %s): %r failed", live.table_id, live.row.chat_id, then)
            await self.trouble(live, error)

    # -- timers and Telegram events --------------------------------------------------------------

    async def on_timer(self, table_id: int) -> None:
        """A table deadline fired (lobby expiry, idle table, discard or claim time-out)."""
        live = await self.tables.get(table_id)
        if live is None:
            return
        try:
            if live.row.deadline_kind in ("turn", "claim"):
                if await self.deadlines.on_deadline(table_id):
                    await self.present.sync(live)
            else:
                await self.lobby.on_expire(live, self.tables.clock)
        except Exception as error:
            log.exception("table %s (chat %s): deadline handling failed", table_id, live.row.chat_id)
            await self.trouble(live, error)

    async def seen(self, sent: Sent) -> None:
        """The result of a reply the edge delivered (docs/architecture.md §4): a 403 or a group ->
        supergroup migration is handled as for the service's own sends (:class:`.outbox.Outbox`)."""
        await self.outbox.seen(sent)

    async def on_forbidden(self, chat_id: int) -> None:
        """A send was refused with 403: a private chat means the player cannot be reached; their
        seats are played by the AI and the group is told how to come back."""
        if chat_id < 0:  # the bot is no longer in that group
            self._spawn(self.admin.removed_from_group(chat_id))
            return
        for live in await self.play.mark_unreachable(chat_id):
            self._spawn(self._unreachable(live, chat_id))

    async def _unreachable(self, live: LiveTable, user_id: int) -> None:
        seat = live.seat_of(user_id)
        if seat is None:
            return
        tr = self.tr(live.group_lang)
        link = self.present.deep_link(StartKind.HAND, live.table_id)
        markup = keyboard([Key(tr.gettext("Resume in private chat"), url=link)])
        text = tr.gettext(
            "I cannot message {name} privately: the AI plays for them. Open the private chat to come back."
        )
        await self.present.notice(live, text.format(name=name(seat.name)), markup, resume_for=user_id)
        if await self.play.kick_auto(live):
            await self.present.sync(live)

    async def on_removed(self, chat_id: int) -> None:
        """The bot left or was removed from a group (``my_chat_member``): its table ends unscored."""
        await self.admin.removed_from_group(chat_id)

    async def on_migrated(self, old_chat_id: int, new_chat_id: int) -> None:
        """Group -> supergroup: keep our group id, follow the new chat id."""
        async with self.store.transaction() as tx:
            await tx.migrate_chat(old_chat_id, new_chat_id)
        for live in self.tables.cached():
            if live.row.chat_id == old_chat_id:
                await self.tables.refresh(live)

    # -- tests and tools -------------------------------------------------------------------------

    async def prepare_deal(self, table_id: int, deal: Deal | dict[str, Any]) -> None:
        """Make the table's next hand deal from ``deal`` (a seed or scripted hands + wall)."""
        value = deal.to_json() if isinstance(deal, Deal) else dict(deal)
        async with self.store.transaction() as tx:
            await tx.set_next_deal(table_id, value)
        live = await self.tables.get(table_id)
        if live is not None:
            await self.tables.refresh(live)
