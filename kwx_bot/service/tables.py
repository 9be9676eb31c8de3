"""The registry of open tables: load from the store, cache, rebuild after a restart.

:class:`Tables` owns the :class:`~kwx_bot.service.live.LiveTable` cache.  A table is loaded on first
use (or by :meth:`Tables.resume_all` at start-up): its row, seats and users from SQLite, and its
current hand by replaying the stored events through the engine — so after a restart every open
table continues exactly where its last committed event left it, and a button pressed before the
restart still matches the table's seq.

Tables belong to one bot (docs/architecture.md §8): this registry holds only the tables of the bot
whose token the process runs (``Settings.bot_id``).  Another bot's table is never loaded, armed or
presented here — :meth:`Tables.get` answers None for it, as for a closed one, and
:meth:`Tables.foreign` tells the two apart for a polite refusal.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

from ..settings import Settings, normalize_language
from ..store import TableRow, TableStatus, TableStore
from ..words.i18n import Translator, translator
from .game import AI_LEVELS, RuleError, RuleSet, load_events
from .group_settings import GroupConfig, TableChoice
from .live import LiveSeat, LiveTable
from .time_control import TIMER_KEYS, TimeControl

__all__ = ["Tables"]

log = logging.getLogger("kwx.table")


class Tables:
    """Open tables by id, loaded lazily from the store (see module docstring)."""

    def __init__(self, store: TableStore, settings: Settings, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.settings = settings
        self.bot_id = settings.bot_id
        """The bot whose tables these are (the number before ``:`` in its token)."""
        self.clock = clock
        self._live: dict[int, LiveTable] = {}
        self._loading = asyncio.Lock()

    def cached(self) -> list[LiveTable]:
        """Loaded tables."""
        return list(self._live.values())

    def forget(self, table_id: int) -> None:
        """Drop a (closed) table from the cache."""
        self._live.pop(table_id, None)

    async def get(self, table_id: int) -> LiveTable | None:
        """The open table ``table_id`` of this bot (loading it if needed), or None if unknown,
        closed or another bot's."""
        live = self._live.get(table_id)
        if live is not None:
            return live
        async with self._loading:
            live = self._live.get(table_id)
            if live is not None:
                return live
            row = await self.store.get_table(table_id)
            if row is None or not row.is_open or row.bot_id != self.bot_id:
                return None
            live = await self._load(row)
            self._live[table_id] = live
            return live

    async def foreign(self, table_id: int) -> TableRow | None:
        """The row of ``table_id`` if it is open and another bot runs it (for a polite refusal of a
        press or a join link that reached the wrong bot), else None."""
        if table_id in self._live:
            return None
        row = await self.store.get_table(table_id)
        return row if row is not None and row.is_open and row.bot_id != self.bot_id else None

    async def resume_all(self) -> list[LiveTable]:
        """Adopt the tables made before ownership (:meth:`~kwx_bot.store.Tx.adopt`: only the first
        bot to start on an upgraded database finds any), then load every open table of this bot
        (start-up); a table that cannot be rebuilt is logged and skipped.  What each message showed
        at the last clean stop is read once, and not at all with ``Settings.forget_messages`` (the
        chats lost the messages: every one is then edited, found gone and sent anew)."""
        async with self.store.transaction() as tx:
            adopted = await tx.adopt(self.bot_id)
        if adopted:
            log.info("bot %s: adopted %d table(s) made before tables had an owning bot", self.bot_id, adopted)
        out = []
        for row in await self.store.open_tables(bot_id=self.bot_id):
            try:
                live = await self.get(row.table_id)
            except Exception:
                log.exception("table %s: cannot be resumed", row.table_id)
                continue
            if live is not None:
                live.table.digest = row.table_digest
                if row.table_digest is not None or any(s.hand.digest for s in live.seats):
                    async with self.store.transaction() as tx:  # read once: a crash later must not reuse them
                        await tx.set_shown_digests(live.table_id, {s.seat: None for s in live.seats}, None)
                if self.settings.forget_messages:
                    live.table.digest = None
                    for seat in live.seats:
                        seat.hand.digest = None
                out.append(live)
        return out

    async def group_lang(self, group_id: int) -> str:
        """The group's language setting, else the default language."""
        settings = await self.store.group_settings(group_id)
        lang = settings.get("language")
        return lang if isinstance(lang, str) and lang else self.settings.default_language

    def user_tr(self, language_code: str | None) -> Translator:
        """The translator for a user's private messages (from their Telegram ``language_code``)."""
        return translator(normalize_language(language_code, self.settings.default_language))

    async def config(self, group_id: int) -> GroupConfig:
        """The group's settings (rules, timers, language, AI level) with the operator's defaults filled in."""
        return GroupConfig.of(
            await self.store.group_settings(group_id), discard=self.settings.discard_seconds,
            claim=self.settings.claim_seconds, language=self.settings.default_language,
            bank=self.settings.bank_seconds, ai_level=self.settings.ai_level,
        )  # fmt: skip

    @staticmethod
    def table_config(config: GroupConfig, choice: TableChoice | None = None) -> tuple[Any, dict[str, Any]]:
        """A table's ``rules`` and ``options`` (timers, AI level, game and seats) from its group's settings and
        the opener's ``choice`` (None: the group's own game and size, :meth:`TableChoice.default`);
        stored rules the engine no longer accepts give the standard game rather than a table that
        cannot deal."""
        rules = config.rules
        if config.ruleset() == RuleSet() and rules != "standard":
            try:
                RuleSet.from_json(rules)
            except RuleError:
                log.warning("group rules %r are not valid any more: playing the standard game", rules)
                rules = "standard"
        choice = choice if choice is not None else TableChoice.default(rules)
        options: dict[str, Any] = {key: getattr(config, key) for key in TIMER_KEYS}
        options["ai_level"] = config.ai_level
        return choice.rules(rules), options | choice.options()

    def ai_level(self, live: LiveTable) -> str:
        """The level the AI plays the table's automatic seats at (AI seats and 托管): the group's
        ``/settings`` choice when the table last took its settings (before each deal, never during a
        hand, :meth:`adopt_settings`), kept in its options; the operator's ``KWX_AI_LEVEL`` for a
        table made before the setting existed."""
        level = live.row.options.get("ai_level")
        return level if isinstance(level, str) and level in AI_LEVELS else self.settings.ai_level

    def time_control(self, live: LiveTable) -> TimeControl:
        """The table's time control (docs/rules.md §E#33): its options, the operator's defaults."""
        s = self.settings
        return TimeControl.of(live.row.options, discard=s.discard_seconds, claim=s.claim_seconds, bank=s.bank_seconds)

    def bank_left(self, live: LiveTable, seat: LiveSeat) -> float:
        """Seconds left in the seat's time bank of the current hand."""
        hand_no = live.hand.hand_no if live.hand is not None else live.row.hand_no
        return self.time_control(live).bank_left(hand_no, seat.bank_used)

    def due_at(self, live: LiveTable, seat: LiveSeat) -> float | None:
        """When the seat runs out of time for the move the table waits on (unix s), or None if the
        table has no turn or claim deadline now."""
        row = live.row
        if row.deadline_kind not in ("turn", "claim") or row.deadline_start is None:
            return None
        return self.time_control(live).due(row.deadline_kind, row.deadline_start, self.bank_left(live, seat))

    async def adopt_settings(self, live: LiveTable) -> None:
        """Give a table its group's current settings (caller holds ``live.lock``; never during a
        hand: called before a deal and for lobbies); the table keeps its game and size."""
        config = await self.config(live.row.group_id)
        rules, options = self.table_config(config, TableChoice.of(live.row.options))
        if rules != live.row.rules or options != live.row.options:
            async with self.store.transaction() as tx:
                await tx.set_rules(live.table_id, rules)
                await tx.set_options(live.table_id, options)
            await self.refresh(live)
        if config.language != live.group_lang:
            live.group_lang = config.language
            for seat in live.seats:
                if seat.is_ai:
                    seat.name = self.ai_name(live, seat.seat)

    async def user_lang(self, user_id: int) -> str:
        """The language of a user's private messages (from their Telegram language)."""
        user = await self.store.get_user(user_id, bot_id=self.bot_id)
        return normalize_language(user.language_code if user else None, self.settings.default_language)

    async def _load(self, row: TableRow) -> LiveTable:
        title = ""
        live = LiveTable(row=row, seats=[], group_lang=await self.group_lang(row.group_id), title=title)
        await self.refresh(live)
        if row.status in (TableStatus.PLAYING, TableStatus.BETWEEN):
            hand = await self.store.current_hand(row.table_id)
            live.hand = hand
            if hand is not None:
                stored = await self.store.hand_events(hand.hand_id)
                state, events = load_events([e.data for e in stored])
                live.state, live.events = state, events
        return live

    async def refresh(self, live: LiveTable) -> None:
        """Re-read the table row, seats and users (after a lobby change or a seat change)."""
        row = await self.store.get_table(live.table_id)
        if row is None:
            return
        live.row = row
        live.title = await self._title(row.group_id)
        seats = []
        old = {s.seat: s for s in live.seats}
        for srow in await self.store.seats(row.table_id):
            if srow.user_id is None:
                name, lang, can_pm = self.ai_name(live, srow.seat), live.group_lang, True
            else:
                user = await self.store.get_user(srow.user_id, bot_id=self.bot_id)
                name = user.display_name if user else str(srow.user_id)
                lang = normalize_language(user.language_code if user else None, self.settings.default_language)
                can_pm = bool(user and user.can_pm)
            seat = old.get(srow.seat)
            if seat is None or seat.user_id != srow.user_id:  # a new occupant: fresh presentation state
                seat = LiveSeat(srow.seat, srow.user_id, srow.ai_level)
            seat.ai_level = None if srow.user_id is not None else (srow.ai_level or "normal")
            seat.name, seat.lang, seat.can_pm = name, lang, can_pm
            seat.on_auto, seat.timeouts, seat.hand_msg_id = srow.on_auto, srow.timeouts, srow.hand_msg_id
            seat.last_press, seat.bank_used = srow.last_press, srow.bank_used
            seat.reminder_msg_id, seat.reminder_seq = srow.reminder_msg_id, srow.reminder_seq
            if seat.hand.shown is None and srow.shown_digest is not None:
                seat.hand.digest = srow.shown_digest
            seats.append(seat)
        live.seats, live.sitting_out = seats, None
        if row.status != TableStatus.LOBBY:  # a member past the hand's seats sits it out (docs/rules.md §A2.1)
            players = live.players
            live.sitting_out = next((s for s in seats if s.seat >= players), None)
            live.seats = [s for s in seats if s.seat < players]

    def ai_name(self, live: LiveTable, seat: int) -> str:
        """The display name of an AI seat, in the group's language."""
        return translator(live.group_lang).gettext("AI {n}").format(n=seat + 1)

    async def _title(self, group_id: int) -> str:
        return await self.store.group_title(group_id)
