"""Hand records: ``/export N`` (a finished hand's event log as a JSON document that ``python -m engine
play`` replays), ``/replay N`` (an animated picture of the hand, public information only) and
``/review N`` (each person who played the hand gets, privately, his own decisions where the AI would
have played otherwise: :mod:`.reviews`).

All three answer in the group where the hand was played, in the group's language, and only for hands that
are over: a hand in play has concealed tiles and a secret seed, and its record would show both
(docs/security.md §3).  Whoever can send a command in the group is a member of it, and a hand is
looked up among that group's hands only, so no other group's hand can be asked for.  ``N`` is the
hand number as ``/history`` shows it (``N T`` for table ``T`` when the group has several tables with
that number); without it the group's newest hand.  ``/export`` with no argument stays the ledger's
CSV (:meth:`~.score_commands.Reports.export`).

``/review N`` answers in the group at once and reviews in the background (seconds, in a worker
process: :class:`.reviews.Reviewer`): each person seated in hand N then gets one private message in
his own language — a picture of his costliest decisions (at most three) with a one-line summary, or a
short kind word when the AI would have played every decision the same way.  Only what the person
chose is judged: a move the bot made for his seat (a time-out, 托管) is not his decision.  The review judges each
decision from the seat's view at that moment; all hands are public once the hand is over, and each
player sees only his own review.  One review of a hand runs at a time, and at most
:data:`MAX_REVIEWS` over all groups wait or run at once.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any

from ..store import HandRecord, HandRow, TableStore
from ..words.captions import moment_lines
from ..words.i18n import Translator, translator
from ..words.ledger_text import hand_outcome
from ..words.record_text import (
    export_caption,
    record_description,
    record_filename,
    replay_caption,
    replay_filename,
    review_caption,
    review_clean,
)
from . import game
from .keyboards import replay_row
from .pictures import Pictures
from .ports import Messenger
from .reviews import Reviewer, SeatReview
from .score_commands import Reports
from .screen.json import plain
from .tables import Tables
from .values import Command, Out, Response

__all__ = ["FoundHand", "HandReplay", "Records", "find_hand", "hand_args", "replay_lines", "replay_param"]

_MAX_ID = 36**10 - 1

log = logging.getLogger("kwx.records")

MAX_REVIEWS = 4
"""Reviews waiting or running at once, over all groups (each takes seconds of the one review
worker): a fifth request is asked to come back later."""

Spawn = Callable[[Coroutine[Any, Any, None]], None]
"""Runs a coroutine in the background (the service's task set: :meth:`TableService.idle` waits for
it, a shutdown cancels it)."""


def replay_param(table_id: int, hand_no: int) -> str:
    """The Mini App's start parameter for hand ``hand_no`` of table ``table_id``'s replay:
    ``r<table>_<hand>`` (a ``startapp`` value: letters, digits and ``_``)."""
    return f"r{table_id}_{hand_no}"


@dataclass(frozen=True, slots=True)
class HandReplay:
    """A finished hand moment by moment with every hand face up, for the Mini App's replay: the
    moments of ``/replay``'s animation (:func:`.game.hand_open_moments`), the seats' ``names``, the
    group's ``lang`` and what each moment added to the table in it (``said``, :func:`replay_lines`)."""

    table_id: int
    hand_no: int
    ruleset: game.Ruleset
    lang: str
    names: tuple[str, ...]
    moments: tuple[game.OpenMoment, ...]
    said: tuple[tuple[str, ...], ...]

    def to_json(self) -> dict[str, Any]:
        """``{"kind": "replay", "table", "hand", "ruleset", "lang": "en"|"zh", "names", "frames":
        [{"view": <public view>, "hands": [[tiles, melds], …], "said": [line, …]}, …]}``
        (screen/json.py ``plain``); the last frame's view carries the result; ``said`` is what the
        moment added to the table, in the group's language (:func:`replay_lines`)."""
        return {
            "kind": "replay", "table": self.table_id, "hand": self.hand_no, "ruleset": self.ruleset.value,
            "lang": "zh" if self.lang.startswith("zh") else "en", "names": list(self.names),
            "frames": [
                {"view": plain(view), "hands": plain(hands), "said": list(lines)}
                for (view, hands), lines in zip(self.moments, self.said, strict=True)
            ],
        }  # fmt: skip


def replay_lines(
    tr: Translator, moments: Sequence[game.OpenMoment], names: Sequence[str], ruleset: game.Ruleset
) -> tuple[tuple[str, ...], ...]:
    """What each moment of a replay added to the table, in ``tr``'s language
    (:func:`kwx_bot.words.captions.moment_lines`; 卡心五 says 廊起)."""
    langqi = ruleset is game.Ruleset.KAXINWU
    views = [view for view, _hands in moments]
    return tuple(
        tuple(moment_lines(tr, views[i - 1] if i else None, view, names, langqi=langqi)) for i, view in enumerate(views)
    )


@dataclass(frozen=True, slots=True)
class FoundHand:
    """The answer of :func:`find_hand`: the hand (None: none matched), whether the group has
    several tables' hands with that number (the answer then names the table), and the table asked
    for when the group has no such table (``no_table``)."""

    hand: HandRow | None
    several: bool
    no_table: int | None = None

    def missing(self, tr: Translator, hand_no: int | None) -> str:
        """Why no hand was found, in ``tr``'s words: the table named is not the group's, no hand
        ``hand_no`` was dealt (see /history), or none at all yet."""
        if self.no_table is not None:
            return tr.gettext("There is no table {t} in this group (see /history).").format(t=self.no_table)
        if hand_no is None:
            return tr.gettext("No hand has been dealt in this group yet.")
        return tr.gettext("There is no hand {n} in this group (see /history).").format(n=hand_no)


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
    if not hands and table_id is not None and group_id is not None:
        table = await store.get_table(table_id)
        if table is None or table.group_id != group_id:
            return FoundHand(None, several, no_table=table_id)
    return FoundHand(hands[0] if hands else None, several)


class Records:
    """See the module docstring."""

    def __init__(
        self,
        tables: Tables,
        reports: Reports,
        pictures: Pictures,
        sender: Messenger,
        reviewer: Reviewer,
        spawn: Spawn,
        bot: Callable[[], str] = lambda: "",
    ) -> None:
        self.tables = tables
        self.store = tables.store
        self.reports = reports
        self.pictures = pictures
        self.sender = sender
        self.reviewer = reviewer
        self.spawn = spawn
        self._reviewing: set[int] = set()
        self.bot = bot
        """The bot's @username (for the Mini App's links)."""

    async def _group_tr(self, cmd: Command) -> tuple[int | None, Translator]:
        """The group's id (None before its first table) and the group's translator."""
        gid = await self.store.group_id_for_chat(cmd.chat_id)
        lang = await self.tables.group_lang(gid) if gid is not None else self.tables.settings.default_language
        return gid, translator(lang)

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
            return gid, tr, None, Response.of(Out(found.missing(tr, hand_no), reply=True))
        if hand.status == "playing":
            text = tr.gettext(
                "Hand {n} is still being played: its record would show hidden tiles. Ask again when it is over."
            ).format(n=hand.hand_no)
            return gid, tr, None, Response.of(Out(text, reply=True))
        if hand.status != "over":
            text = tr.gettext("Hand {n} was stopped before its end: it has no result to replay.").format(n=hand.hand_no)
            return gid, tr, None, Response.of(Out(text, reply=True))
        return gid, tr, hand, Response()

    async def _hand_data(
        self, gid: int, hand: HandRow, tr: Translator
    ) -> tuple[list[dict[str, Any]], list[str], HandRecord | None]:
        """The hand's stored events (JSON, in order), its seats' display names (from its ledger
        rows; an AI seat as ``AI n``), one per seat of the deal, and its scored record (None if the
        ledger has none)."""
        events = [e.data for e in await self.store.hand_events(hand.hand_id)]
        records = await self.store.recent_hands(gid, 1, hand_id=hand.hand_id)
        names = {s.seat: s.name for s in (records[0].seats if records else ())}
        count = len(events[0].get("hands") or ()) if events else 0
        seats = [names.get(i) or tr.gettext("AI {n}").format(n=i + 1) for i in range(count)]
        return events, seats, records[0] if records else None

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
        events, names, _record = await self._hand_data(gid, hand, tr)
        doc = game.hand_record(events, description=record_description(hand, names))
        data = json.dumps(doc, ensure_ascii=False, indent=1).encode("utf-8") + b"\n"
        filename = record_filename(hand)
        return Response.of(Out(export_caption(tr, hand, filename), document=(filename, data)))

    async def replay(self, cmd: Command) -> Response:
        """``/replay [N [T]]``: hand N's animated replay (every discard, 碰, kong and 亮倒 reveal in
        order, public information only; then the result picture, every hand face up as the group
        was shown it)."""
        if cmd.private:
            tr = self.tables.user_tr(cmd.user.language_code)
            return Response.of(Out(tr.gettext("Send /replay N in the group where hand N was played.")))
        gid, tr, hand, refusal = await self._finished_hand(cmd, "replay")
        if hand is None or gid is None:
            return refusal
        events, names, record = await self._hand_data(gid, hand, tr)
        views = game.hand_moments(events)
        ruleset = game.rules_from_json(events[0].get("rules")).ruleset
        end, _events = game.load_events(events)
        hands = game.all_hands(end) if game.is_over(end) else None  # face up in the result frame, as shown
        gif = await self.pictures.replay(views, names, tr.lang, game=ruleset, hands=hands)
        row = replay_row(tr, replay_param(hand.table_id, hand.hand_no), self.tables.settings.webapp_url, self.bot())
        outcome = hand_outcome(record, tr) if record is not None else ""
        caption = replay_caption(tr, hand, len(views), outcome, langqi=ruleset is game.Ruleset.KAXINWU)
        return Response.of(Out(caption, markup=row or None, animation=(replay_filename(hand), gif)))

    async def review(self, cmd: Command) -> Response:
        """``/review N [T]``: review hand N for each person who played it, privately (module
        docstring); the group is told at once that the reviews are on their way."""
        if cmd.private:
            tr = self.tables.user_tr(cmd.user.language_code)
            return Response.of(Out(tr.gettext("Send /review N in the group where hand N was played.")))
        gid, tr, hand, refusal = await self._finished_hand(cmd, "review")
        if hand is None or gid is None:
            return refusal
        records = await self.store.recent_hands(gid, 1, hand_id=hand.hand_id)
        people = {s.seat: s.user_id for s in (records[0].seats if records else ()) if s.user_id is not None}
        if not people:
            text = tr.gettext("Hand {n} had nobody to review: AI players sat in every seat.").format(n=hand.hand_no)
            return Response.of(Out(text, reply=True))
        if len(self._reviewing) >= MAX_REVIEWS and hand.hand_id not in self._reviewing:
            text = tr.gettext("The reviewer is busy with other hands. Please ask again in a minute.")
            return Response.of(Out(text, reply=True))
        if hand.hand_id in self._reviewing:
            text = tr.gettext("Hand {n} is being reviewed already: its players get their reviews in a moment.")
            return Response.of(Out(text.format(n=hand.hand_no), reply=True))
        self._reviewing.add(hand.hand_id)
        stored = await self.store.hand_events(hand.hand_id)
        events = [e.data for e in stored]
        pressed = game.pressed_seqs([(e.data, e.actor) for e in stored])
        self.spawn(self._send_reviews(cmd.chat_id, cmd.title, tr, hand, events, people, pressed))
        text = tr.ngettext(
            "Reviewing hand {n}: its player gets a review privately in a moment.",
            "Reviewing hand {n}: each of its {k} players gets their own review privately in a moment.",
            len(people),
        ).format(n=hand.hand_no, k=len(people))
        return Response.of(Out(text, reply=True))

    async def _send_reviews(
        self, chat_id: int, title: str, tr: Translator, hand: HandRow, events: list[dict[str, Any]],
        people: dict[int, int], pressed: frozenset[int],
    ) -> None:  # fmt: skip
        """Review the hand off the event loop and send each person his own review (a failure or a
        review past its time limit is told to the group)."""
        try:
            record = game.hand_record(events)
            ruleset = str(game.rules_from_json(events[0].get("rules")).ruleset)
            langs = {seat: await self.tables.user_lang(user) for seat, user in people.items()}
            results = await self.reviewer.review(record, sorted(people), langs, ruleset, pressed)
            if results is None:
                text = tr.gettext("The review of hand {n} did not finish in time. Try again later.")
                await self.sender.send_text(chat_id, text.format(n=hand.hand_no), notify=False)
                return
            for result in results:
                await self._send_one(people[result.seat], translator(langs[result.seat]), title, hand, result)
        except Exception:
            log.exception("the review of hand %s (table %s) failed", hand.hand_no, hand.table_id)
        finally:
            self._reviewing.discard(hand.hand_id)

    async def _send_one(self, user: int, tr: Translator, title: str, hand: HandRow, result: SeatReview) -> None:
        """One player's private review: the picture with its caption, or the kind word."""
        if result.picture is None:
            await self.sender.send_text(user, review_clean(tr, hand, title, result.decisions))
            return
        caption = review_caption(tr, hand, title, result.differed, result.lost, result.shown, result.complete)
        await self.sender.send_photo(user, result.picture, caption)

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
        tr = translator(await self.tables.group_lang(table.group_id))
        events, names, _record = await self._hand_data(table.group_id, hand, tr)
        ruleset = game.rules_from_json(events[0].get("rules")).ruleset
        moments = tuple(game.hand_open_moments(events))
        said = replay_lines(tr, moments, names, ruleset)
        return HandReplay(table_id, hand_no, ruleset, tr.lang, tuple(names), moments, said)
