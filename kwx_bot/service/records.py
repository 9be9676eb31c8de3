"""Hand records: ``/export N`` (a finished hand's event log as a JSON document that ``python -m engine
play`` replays) and ``/replay N`` (an animated picture of the hand, public information only).

Both answer in the group where the hand was played, in the group's language, and only for hands that
are over: a hand in play has concealed tiles and a secret seed, and its record would show both
(docs/security.md §3).  Whoever can send a command in the group is a member of it, and a hand is
looked up among that group's hands only, so no other group's hand can be asked for.  ``N`` is the
hand number as ``/history`` shows it (``N T`` for table ``T`` when the group has several tables with
that number); without it the group's newest hand.  ``/export`` with no argument stays the ledger's
CSV (:meth:`~.score_commands.Reports.export`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..store import HandRow, TableStore
from ..words.i18n import Translator
from ..words.record_text import (
    export_caption,
    record_description,
    record_filename,
    replay_caption,
    replay_filename,
)
from . import game
from .keyboards import replay_row
from .pictures import Pictures
from .score_commands import Reports
from .screen.json import plain
from .tables import Tables
from .values import Command, Out, Response

__all__ = ["FoundHand", "HandReplay", "Records", "find_hand", "hand_args", "replay_param"]

_MAX_ID = 36**10 - 1


def replay_param(table_id: int, hand_no: int) -> str:
    """The Mini App's start parameter for hand ``hand_no`` of table ``table_id``'s replay:
    ``r<table>_<hand>`` (a ``startapp`` value: letters, digits and ``_``)."""
    return f"r{table_id}_{hand_no}"


@dataclass(frozen=True, slots=True)
class HandReplay:
    """A finished hand moment by moment with every hand face up, for the Mini App's replay: the
    moments of ``/replay``'s animation (:func:`.game.hand_open_moments`), the seats' ``names`` and the
    group's ``lang``."""

    table_id: int
    hand_no: int
    ruleset: game.Ruleset
    lang: str
    names: tuple[str, ...]
    moments: tuple[game.OpenMoment, ...]

    def to_json(self) -> dict[str, Any]:
        """``{"kind": "replay", "table", "hand", "ruleset", "lang": "en"|"zh", "names", "frames":
        [{"view": <public view>, "hands": [[tiles, melds], …]}, …]}`` (screen/json.py ``plain``);
        the last frame's view carries the result."""
        return {
            "kind": "replay", "table": self.table_id, "hand": self.hand_no, "ruleset": self.ruleset.value,
            "lang": "zh" if self.lang.startswith("zh") else "en", "names": list(self.names),
            "frames": [{"view": plain(view), "hands": plain(hands)} for view, hands in self.moments],
        }  # fmt: skip


@dataclass(frozen=True, slots=True)
class FoundHand:
    """The answer of :func:`find_hand`: the hand (None: none matched) and whether the group has
    several tables' hands with that number (the answer then names the table)."""

    hand: HandRow | None
    several: bool


def hand_args(args: tuple[str, ...]) -> tuple[int | None, int | None] | None:
    """``N [T]`` as ``(hand_no, table_id)`` (None for what is not given), or None when malformed."""
    numbers = [game.whole_number(a, minimum=1, maximum=_MAX_ID) for a in args]
    if len(args) > 2 or None in numbers:
        return None
    return (numbers[0] if numbers else None), (numbers[1] if len(numbers) == 2 else None)


async def find_hand(store: TableStore, group_id: int | None, hand_no: int | None, table_id: int | None) -> FoundHand:
    """The group's newest hand numbered ``hand_no`` (any status; the newest hand when None), of table
    ``table_id`` when given (docs/architecture.md §5 "Ledger": hands are numbered per table)."""
    hands = [] if group_id is None else await store.hands_numbered(group_id, hand_no)
    several = len({h.table_id for h in hands}) > 1
    hands = [h for h in hands if table_id is None or h.table_id == table_id]
    return FoundHand(hands[0] if hands else None, several)


class Records:
    """See the module docstring."""

    def __init__(
        self, tables: Tables, reports: Reports, pictures: Pictures, bot: Callable[[], str] = lambda: ""
    ) -> None:
        self.tables = tables
        self.store = tables.store
        self.reports = reports
        self.pictures = pictures
        self.bot = bot
        """The bot's @username (for the Mini App's links)."""

    async def _group_tr(self, cmd: Command) -> tuple[int | None, Translator]:
        """The group's id (None before its first table) and the group's translator."""
        gid = await self.store.group_id_for_chat(cmd.chat_id)
        lang = await self.tables.group_lang(gid) if gid is not None else self.tables.settings.default_language
        return gid, self.tables.tr(lang)

    async def _finished_hand(
        self, cmd: Command, command: str
    ) -> tuple[int | None, Translator, HandRow | None, Response]:
        """The group's id, its translator, and the finished hand that ``/command [N [T]]`` names or the
        refusal to send instead."""
        gid, tr = await self._group_tr(cmd)
        parsed = hand_args(cmd.args)
        if parsed is None:
            text = tr.gettext(
                "Use /{command} N with the hand's number as /history shows it (/{command} N T for table T)."
            ).format(command=command)
            return gid, tr, None, Response.of(Out(text, reply=True))
        hand_no, table_id = parsed
        found = await find_hand(self.store, gid, hand_no, table_id)
        hand = found.hand
        if hand is None:
            if hand_no is None:
                text = tr.gettext("No hand has been dealt in this group yet.")
            else:
                text = tr.gettext("There is no hand {n} in this group (see /history).").format(n=hand_no)
            return gid, tr, None, Response.of(Out(text, reply=True))
        if hand.status == "playing":
            text = tr.gettext(
                "Hand {n} is still being played: its record would show hidden tiles. Ask again when it is over."
            ).format(n=hand.hand_no)
            return gid, tr, None, Response.of(Out(text, reply=True))
        if hand.status != "over":
            text = tr.gettext("Hand {n} was stopped before its end: it has no result to replay.").format(n=hand.hand_no)
            return gid, tr, None, Response.of(Out(text, reply=True))
        return gid, tr, hand, Response()

    async def _hand_data(self, gid: int, hand: HandRow, tr: Translator) -> tuple[list[dict[str, Any]], list[str]]:
        """The hand's stored events (JSON, in order) and its seats' display names (from its ledger
        rows; an AI seat as ``AI n``), one per seat of the deal."""
        events = [e.data for e in await self.store.hand_events(hand.hand_id)]
        records = await self.store.recent_hands(gid, 1, hand_id=hand.hand_id)
        names = {s.seat: s.name for s in (records[0].seats if records else ())}
        count = len(events[0].get("hands") or ()) if events else 0
        return events, [names.get(i) or tr.gettext("AI {n}").format(n=i + 1) for i in range(count)]

    async def export(self, cmd: Command) -> Response:
        """``/export``: the ledger (:meth:`Reports.export`); ``/export N [T]``: hand N's record as a
        JSON document (``python -m engine play`` input, :func:`engine.game.record.record`)."""
        if cmd.private or not cmd.args:
            return await self.reports.export(cmd)
        if any(game.whole_number(a) is None for a in cmd.args):
            _gid, tr = await self._group_tr(cmd)
            text = tr.gettext(
                "Use /export for the group's ledger (CSV), or /export N for hand N's record (as /history numbers it)."
            )
            return Response.of(Out(text, reply=True))
        gid, tr, hand, refusal = await self._finished_hand(cmd, "export")
        if hand is None or gid is None:
            return refusal
        events, names = await self._hand_data(gid, hand, tr)
        doc = game.hand_record(events, description=record_description(hand, names))
        data = json.dumps(doc, ensure_ascii=False, indent=1).encode("utf-8") + b"\n"
        filename = record_filename(hand)
        return Response.of(Out(export_caption(tr, hand, filename), document=(filename, data)))

    async def replay(self, cmd: Command) -> Response:
        """``/replay [N [T]]``: hand N's animated replay (every discard, 碰, kong and 亮倒 reveal in
        order, public information only; the last frame shows the result)."""
        if cmd.private:
            tr = self.tables.user_tr(cmd.user.language_code)
            return Response.of(Out(tr.gettext("Send /replay N in the group where hand N was played.")))
        gid, tr, hand, refusal = await self._finished_hand(cmd, "replay")
        if hand is None or gid is None:
            return refusal
        events, names = await self._hand_data(gid, hand, tr)
        views = game.hand_moments(events)
        ruleset = game.rules_from_json(events[0].get("rules")).ruleset
        gif = await self.pictures.replay(views, names, tr.lang, game=ruleset)
        row = replay_row(tr, replay_param(hand.table_id, hand.hand_no), self.tables.settings.webapp_url, self.bot())
        caption = replay_caption(tr, hand, len(views))
        return Response.of(Out(caption, markup=row or None, animation=(replay_filename(hand), gif)))

    async def open_replay(self, table_id: int, hand_no: int) -> HandReplay | None:
        """Hand ``hand_no`` of this bot's table ``table_id`` face up, moment by moment, in its group's
        language; None when there is no such hand or it is not over (a hand in play, or one stopped
        before its end, keeps its concealed tiles: docs/security.md §3).  Who may see it is the
        caller's question (a member of the table's group, as for ``/replay``)."""
        table = await self.store.get_table(table_id)
        if table is None or table.bot_id not in (0, self.tables.bot_id):
            return None
        hand = (await find_hand(self.store, table.group_id, hand_no, table_id)).hand
        if hand is None or hand.status != "over":
            return None
        tr = self.tables.tr(await self.tables.group_lang(table.group_id))
        events, names = await self._hand_data(table.group_id, hand, tr)
        ruleset = game.rules_from_json(events[0].get("rules")).ruleset
        moments = tuple(game.hand_open_moments(events))
        return HandReplay(table_id, hand_no, ruleset, tr.lang, tuple(names), moments)
