"""A table as the Mini App's page shows it: the same screen values the chat is shown, for one user
(docs/architecture.md §4 "The Mini App", docs/security.md §9).

:meth:`Pages.screen` answers "what should user U see of table T now": a seated player his own
seat's :class:`~.screen.SeatScreen` (:func:`.screens.hand_screen`, exactly what his hand message
shows); anyone else the group's :class:`~.screen.TableScreen` — the spectator view, drawn from the
engine's spectator view, so a claim window never shows (docs/security.md §4) — and only if he is a
member of the table's group (asked of Telegram, a "member" answer remembered for a minute,
:class:`~.membership.Membership`); before the first deal, the lobby (:class:`~.screen.LobbyScreen`,
what the group is shown).  :meth:`Pages.press` judges a press from the page through the service's
own entry point for a chat button (``press``: :meth:`~.table_service.TableService.press`), as the
user, with no message id (the page is no message): who may act, staleness (the seq) and double taps
are judged exactly as in the chat.  Nothing here decides a rule or a word.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from ..words.i18n import translator
from . import game
from .buttons import Keyboard, Press
from .live import LiveSeat, LiveTable
from .membership import Membership
from .open_pages import Signal
from .present import Presenter
from .records import HandReplay, Records, replay_param
from .screen import LobbyScreen, ResultAnnouncement, SeatScreen, TableScreen, result_announcement, table_screen
from .screen.json import keyboard_json
from .screens import group_facts, hand_screen, lobby_of, result_facts
from .tables import Tables
from .values import Edit, FollowUp, Present, Response, UserInfo

__all__ = ["PageAnswer", "PageRefusal", "PageScreen", "Pages", "Role"]


class Role(enum.StrEnum):
    """How the user sees the table: from his seat, or as the group does."""

    SEAT = "seat"
    SPECTATOR = "spectator"


class PageRefusal(enum.StrEnum):
    """Why a user is shown nothing of a table (the HTTP status is the server's choice)."""

    NO_TABLE = "no_table"
    """No open table of this bot by that id (unknown, closed, another bot's)."""
    NOT_MEMBER = "not_member"
    """Not seated, and not a member of the table's group."""
    ASK_LATER = "ask_later"
    """Telegram could not say whether he is a member (flood control, network): try again."""


@dataclass(frozen=True, slots=True)
class PageScreen:
    """What ``user`` sees of table ``table_id`` at event ``seq``: his ``role``, his ``seat`` (None for
    a spectator), the ``lang`` of the screen's texts and the ``screen`` value itself."""

    table_id: int
    seq: int
    role: Role
    seat: int | None
    lang: str
    screen: SeatScreen | TableScreen | LobbyScreen
    result: ResultAnnouncement | None = None
    """Once the hand is over: the group's result announcement (every hand face up, the payments),
    in the page's language; its Next hand / End the table keys only for a seated player."""
    deadline_ms: int | None = None
    """When the player runs out of time for the move the hand waits on him for (epoch ms: his
    move's own time and his time bank, :meth:`~.tables.Tables.due_at`); None when he has nothing
    to do, the table has no deadline, or for a spectator."""
    bank_ms: int | None = None
    """When his move's own time ends and his time bank starts to go (epoch ms; with ``deadline_ms``)."""
    replay: str | None = None
    """With the result: the hand's replay, as the Mini App's start parameter
    (:func:`~.records.replay_param`, ``GET /webapp/api/replay/{table}/{hand}``)."""
    _text: list[str] = field(default_factory=list, init=False, repr=False, compare=False)
    """:meth:`json_text`, once made."""

    def to_json(self) -> dict[str, Any]:
        """``{"table", "seq", "role", "seat", "lang", "screen"}``, and ``"result"``,
        ``"replay"``, ``"deadline_ms"``, ``"bank_ms"`` when they are set: ``lang`` is ``"en"`` or ``"zh"``,
        ``screen`` the screen value's own JSON (its ``kind``: ``seat``, ``table`` or ``lobby``),
        ``result`` the announcement's own JSON (``kind`` ``result``)."""
        out = {
            "table": self.table_id, "seq": self.seq, "role": self.role.value, "seat": self.seat,
            "lang": "zh" if self.lang.startswith("zh") else "en", "screen": self.screen.to_json(),
        }  # fmt: skip
        if self.result is not None:
            out["result"] = self.result.to_json()
            out["replay"] = self.replay
        if self.deadline_ms is not None:
            out["deadline_ms"] = self.deadline_ms
            out["bank_ms"] = self.bank_ms
        return out

    def json_text(self) -> str:
        """:meth:`to_json` as compact JSON text (UTF-8 as is), made once per value: every open page
        of the view sends the same text (:meth:`Pages.shared`)."""
        if not self._text:
            self._text.append(json.dumps(self.to_json(), ensure_ascii=False, separators=(",", ":")))
        return self._text[0]


@dataclass(frozen=True, slots=True)
class PageAnswer:
    """The answer to a press from the page: ``changed`` (it moved the hand or the menu), ``text``
    (what the chat's answer to the same press says, None for none) and the user's ``screen`` after it."""

    changed: bool
    text: str | None
    alert: bool
    screen: PageScreen
    buttons: Keyboard | None = None
    """The keys the press put under the result in the chat (End the table → "Yes, end the table" /
    Back), for the page to show in place of the result's own; None when it changed none."""

    def to_json(self) -> dict[str, Any]:
        """``{"ok", "text", "alert", "screen"}`` (``screen``: :meth:`PageScreen.to_json`), and
        ``"buttons"`` (keyboard JSON) when set."""
        out: dict[str, Any] = {"ok": self.changed, "text": self.text, "alert": self.alert,
                               "screen": self.screen.to_json()}  # fmt: skip
        if self.buttons is not None:
            out["buttons"] = keyboard_json(self.buttons)
        return out


PressEntry = Callable[[UserInfo, int | None, int | None, Press | None], Awaitable[Response]]
"""The service's entry point for a button press: (user, chat id, message id, press) -> Response."""


class Pages:
    """See the module docstring.  ``press`` and ``follow`` are the service's own entry points for a
    button press and its follow-up (the page gets no other way in)."""

    def __init__(
        self,
        tables: Tables,
        present: Presenter,
        members: Membership,
        press: PressEntry,
        follow: Callable[[FollowUp], None],
        records: Records,
        signals: Callable[[int], Signal],
    ) -> None:
        self.signals = signals
        """A table's change signal (:meth:`.open_pages.OpenPages.signal`), which keeps its screens."""
        self.records = records
        self.tables = tables
        self.present = present
        self.members = members
        self._press = press
        self._follow = follow

    async def screen(self, table_id: int, user_id: int) -> PageScreen | PageRefusal:
        """What ``user_id`` sees of the table now (module docstring), or why nothing."""
        live = await self._open(table_id, user_id)
        return live if isinstance(live, PageRefusal) else await self.now(live, user_id)

    async def shared(self, table_id: int, user_id: int, *, keep: bool = True) -> PageScreen | PageRefusal:
        """:meth:`screen` for a live stream: the user's right to see the table judged anew, the
        screen itself the one already made for his view — his seat, or the group's — since the
        table last changed (:attr:`.open_pages.Signal.screens`), made now if none was.  So the open
        pages of one view make and serialize their screen once per change, not once each
        (docs/architecture.md §4 "The Mini App").  A move is committed a moment before its change
        is told (the presenter tells it): what is made in between can show the table before it,
        so a request that must see its own move (:meth:`press`) reads :meth:`screen`.  ``keep``
        False: a screen made here is not kept (the press's look before its move: kept, it would be
        what a stream woken between the move and its change reads)."""
        live = await self._open(table_id, user_id)
        if isinstance(live, PageRefusal):
            return live
        signal = self.signals(table_id)
        seat = live.seat_of(user_id)
        view = None if seat is None else seat.seat
        made = signal.screens.get(view)
        if made is None:
            made = await self.now(live, user_id)
            if keep and not signal.is_set():  # else the table changed meanwhile: not the new one's
                signal.screens[view] = made
        return made

    async def _open(self, table_id: int, user_id: int) -> LiveTable | PageRefusal:
        """The open table, if the user may see it (seated, or a member of its group)."""
        live = await self.tables.get(table_id)
        if live is None:
            return PageRefusal.NO_TABLE
        if live.seat_of(user_id) is None:
            member = await self.members.check(live.row.chat_id, user_id)
            if member is None:
                return PageRefusal.ASK_LATER
            if not member:
                return PageRefusal.NOT_MEMBER
        return live

    async def now(self, live: LiveTable, user_id: int) -> PageScreen:
        """The user's screen of ``live`` now (his right to see it already judged)."""
        seat = live.seat_of(user_id)
        role, index = (Role.SEAT, seat.seat) if seat is not None else (Role.SPECTATOR, None)
        if live.hand is None or live.state is None:
            lobby = lobby_of(live, "open", self.present.chat_link())
            return PageScreen(live.table_id, live.row.seq, role, index, live.group_lang, lobby)
        over = game.is_over(live.state)
        totals = await self.present.group.totals(live) if over or seat is None else ()
        replay = replay_param(live.table_id, live.hand.hand_no) if over else None
        if seat is not None:
            mine = hand_screen(live, seat)
            result = self._result(live, totals, seat.lang, seated=True) if over else None
            deadline, bank = (None, None) if over or not mine.must_act else self._deadline(live, seat)
            return PageScreen(live.table_id, mine.seq, role, index, seat.lang, mine, result, deadline, bank, replay)
        public = table_screen(translator(live.group_lang), group_facts(live, totals))
        result = self._result(live, totals, live.group_lang, seated=False) if over else None
        return PageScreen(live.table_id, public.seq, role, None, live.group_lang, public, result, replay=replay)

    async def replay(self, table_id: int, hand_no: int, user_id: int) -> HandReplay | PageRefusal:
        """Hand ``hand_no`` of table ``table_id`` face up, moment by moment (:meth:`.records.Records.open_replay`,
        ``/replay``'s moments), for a member of the table's group only (as ``/replay`` answers only
        in the group); NO_TABLE for no such finished hand of this bot (one in play, or stopped,
        included: its tiles are private)."""
        table = await self.tables.store.get_table(table_id)
        if table is None:
            return PageRefusal.NO_TABLE
        member = await self.members.check(table.chat_id, user_id)
        if member is None:
            return PageRefusal.ASK_LATER
        if not member:
            return PageRefusal.NOT_MEMBER
        found = await self.records.open_replay(table_id, hand_no)
        return PageRefusal.NO_TABLE if found is None else found

    @staticmethod
    def _result(live: LiveTable, totals: tuple[int, ...], lang: str, *, seated: bool) -> ResultAnnouncement:
        """The group's result announcement (:func:`.screens.result_facts`) in ``lang``; no keys for
        a spectator (Next hand and End the table are the players' — or the creator's, in the group)."""
        made = result_announcement(translator(lang), result_facts(live, totals))
        return made if seated else ResultAnnouncement(made.picture, made.caption, ())

    def _deadline(self, live: LiveTable, seat: LiveSeat) -> tuple[int | None, int | None]:
        """(out of time, bank starts) in epoch ms for ``seat`` now (:mod:`.time_control`), or Nones."""
        due = self.tables.due_at(live, seat)
        row = live.row
        if due is None or row.deadline_at is None or row.deadline_kind is None or row.deadline_start is None:
            return None, None
        own = row.deadline_start + self.tables.time_control(live).own_time(row.deadline_kind)
        return round(due * 1000), round(min(own, due) * 1000)

    async def press(self, table_id: int, user: UserInfo, press: Press) -> PageAnswer | PageRefusal:
        """A press from the page by ``user`` (first: may he see the table at all), judged by the
        service as a chat button's press with no message, its follow-up run as the edge runs it
        (in the background); then his screen."""
        before = await self.shared(table_id, user.user_id, keep=False)  # his open page's, as a rule: made already
        if isinstance(before, PageRefusal):
            return before
        response = await self._press(user, None, None, press)
        if response.then is not None:
            self._follow(response.then)
        after = await self.screen(table_id, user.user_id)
        if isinstance(after, PageRefusal):  # the table was closed by this press
            after = before
        reply = response.reply
        text = reply.text if reply is not None else None
        keys = next((o.markup for o in response.outs if isinstance(o, Edit) and o.markup), None)
        return PageAnswer(response.then is not None, text, bool(reply and reply.alert), after, keys)

    def left(self, table_id: int, user_id: int) -> None:
        """The user closed the table's page, his grace over (:class:`~.open_pages.OpenPages`): his
        hand message catches up, once, as any follow-up is run."""
        live = next((t for t in self.tables.cached() if t.table_id == table_id), None)
        seat = None if live is None else live.seat_of(user_id)
        if seat is not None:
            self._follow(Present(table_id, (seat.seat,)))
