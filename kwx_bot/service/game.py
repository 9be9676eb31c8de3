"""The bot's one door into the engine: deal, replay, decide, views, and the AI seam (docs/architecture.md).

Everything the service and the edge need from :mod:`engine` goes through here (its value types
included), so they never touch engine internals and an engine API change touches one file; the
words format engine values (tiles, views, 番) on their own floor.

A hand's :class:`State` is an opaque value outside this module: the service holds it, passes it
back here and asks it typed questions — :func:`rules_of`, :func:`seq_of`, :func:`seed_of`,
:func:`phase`, :func:`to_act`, :func:`is_over`, :func:`hand_result`, :func:`legal` — or for a view
(:func:`seat_view`, :func:`group_view`), never reading its fields (``tests/test_architecture.py``
checks the service's and the edge's source for them).

Deals: a table's next hand is dealt from a :class:`Deal` — a shuffle ``seed`` (a fresh random one in
production; tests pass a fixed one) or prepared ``hands`` + ``wall`` (scripted test deals, in the
``python -m engine play`` scenario form).  The deal is stored with the hand, and the ``hand_started``
event carries the whole dealt wall, so a hand replays exactly from its events.

AI seam: :func:`choose_action` ``(seat_view, legal_actions, level, rng) -> Action`` is used for AI
seats and for 托管 (:func:`engine.ai.choose_action`); it only ever sees a
:class:`~engine.views.SeatView`.  Its randomness comes from
:func:`ai_rng`, seeded by the hand and the event seq, so replaying a hand after a restart makes the
same AI choices.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.ai import Level
from engine.ai import choose_action as engine_choose
from engine.analysis import shanten, waits
from engine.fans import Fan
from engine.game import (
    Action,
    ActionKind,
    Discarded,
    Event,
    HandEnded,
    HandStarted,
    IllegalAction,
    Reason,
    RevealFault,
    State,
    check_rules,
    commitment,
    events_from_json,
    fewest_reveal,
    first_dealer,
    legal_actions,
    protected_tiles,
    replay,
    reveal_preview,
    spectator_view,
    start,
    step,
    view_for,
)
from engine.game.record import OpenMoment, RecordError, open_moments, public_moments, record
from engine.numerals import whole_number
from engine.question import COMMAND, Problem, QuestionError, WinQuestion, parse_question, under_rules
from engine.review import (
    DEFAULT_BUDGET_MS,
    REVIEW_PLAYOUTS,
    Decision,
    Evaluator,
    Review,
    normal_ranking,
    review_scenario,
)
from engine.rules import KNOWN_OPTIONS, PRESETS, FourPlayers, RuleError, RuleSet, Ruleset
from engine.scoring import ScoringError, WinBy, WinScore, score_win
from engine.seating import Lineup, next_lineup
from engine.tiles import NotationError, Tile, counts_of, parse_tile, parse_tiles
from engine.views import HandResultView, MeldView, Phase, PublicView, SeatView

from ..words.ui import RevealChoice

__all__ = [
    "AI_LEVELS",
    "COMMAND",
    "DECLARATION_FAN",
    "KNOWN_OPTIONS",
    "PRESETS",
    "REVIEW_PLAYOUTS",
    "SLOW_AI_LEVELS",
    "Action",
    "ActionKind",
    "Deal",
    "Decision",
    "Discarded",
    "Evaluator",
    "Event",
    "FourPlayers",
    "HandEnded",
    "HandResultView",
    "HandStarted",
    "HandTiles",
    "IllegalAction",
    "Lineup",
    "NotationError",
    "OpenMoment",
    "Phase",
    "PublicView",
    "QuestionError",
    "Reason",
    "RecordError",
    "RevealChoice",
    "RevealFault",
    "Review",
    "RuleError",
    "RuleSet",
    "Ruleset",
    "SeatView",
    "State",
    "Tile",
    "WinBy",
    "WinQuestion",
    "WinScore",
    "ai_rng",
    "all_hands",
    "apply",
    "check_reveal",
    "check_rules",
    "check_table_rules",
    "choose_action",
    "commitment",
    "deal_events",
    "event_json",
    "first_dealer",
    "group_view",
    "group_view_at",
    "hand_moments",
    "hand_open_moments",
    "hand_record",
    "hand_result",
    "held_after",
    "is_over",
    "legal",
    "load_events",
    "members",
    "next_lineup",
    "normal_ranking",
    "parse_question",
    "parse_tile",
    "phase",
    "pressed_seqs",
    "protected",
    "review_record",
    "rules_from_json",
    "rules_of",
    "score_question",
    "seat_view",
    "seed_of",
    "seq_of",
    "timeout_action",
    "to_act",
    "under_rules",
    "view_for",
    "waits_before_win",
    "whole_number",
]


DECLARATION_FAN: str = Fan.LIANGDAO.zh
"""The 番 a win lists for a 亮倒 / 廊起 doubling (docs/rules.md §A9.6) — a declaration, not a pattern
of the hand."""


@dataclass(frozen=True, slots=True)
class Deal:
    """How to deal a hand: ``seed`` (shuffle, docs/rules.md §A3) or ``hands`` + ``wall`` in notation.

    ``dealer`` overrides the table's dealer (scripted deals; None = the table's next dealer).
    JSON form: ``{"seed": "..."}`` or ``{"hands": ["<14>", "<13>", "<13>"], "wall": "...", "dealer": 0}``.
    """

    seed: str | None = None
    hands: tuple[str, ...] | None = None
    wall: str | None = None
    dealer: int | None = None

    @classmethod
    def random(cls) -> Deal:
        """A fresh unpredictable seed: 128 random bits as 32 hex digits, so that its published
        commitment (SHA-256) cannot be searched for the seed while the hand is played; the seed itself
        is revealed after the hand, so anyone can re-derive the wall (``/verify``)."""
        return cls(seed=secrets.token_hex(16))

    @classmethod
    def from_json(cls, value: dict[str, Any]) -> Deal:
        """Inverse of :meth:`to_json`; raises ValueError on a malformed object."""
        if not isinstance(value, dict):
            raise ValueError("a deal must be an object")
        hands = value.get("hands")
        return cls(
            seed=value.get("seed"),
            hands=None if hands is None else tuple(hands),
            wall=value.get("wall"),
            dealer=value.get("dealer"),
        )

    def to_json(self) -> dict[str, Any]:
        """JSON form (keys with None values omitted)."""
        out: dict[str, Any] = {}
        if self.seed is not None:
            out["seed"] = self.seed
        if self.hands is not None:
            out["hands"] = list(self.hands)
            out["wall"] = self.wall or ""
        if self.dealer is not None:
            out["dealer"] = self.dealer
        return out


def rules_from_json(value: Any) -> RuleSet:
    """A table's stored rules (a preset name or an options object) -> RuleSet (RuleError if bad or
    not playable by the state machine)."""
    rules = RuleSet.from_json(value)
    check_table_rules(rules)
    return rules


def check_table_rules(rules: RuleSet) -> None:
    """Raise RuleError unless the bot's tables can play ``rules``: the engine's
    :func:`~engine.game.check_rules` at the rules' own table size (``rules.players``).  Every reveal is
    offered: the whole hand, 暗铺 (``liangdao_reveal = kou``) and 廊起 (``minimal``, the 卡心五 preset
    ``kaxinwu``), whose shown tiles the player chooses in the hand message (docs/rules.md §A9.2, §B,
    §E#48)."""
    check_rules(rules, seats=rules.players)


def deal_events(rules: RuleSet, dealer: int, deal: Deal) -> tuple[State, list[Event]]:
    """Deal a new hand: the state after the deal and its events (``hand_started`` + automatic steps).

    Raises ValueError (NotationError/RuleError) for a deal that does not make a legal wall.
    """
    if deal.hands is not None:
        events = start(rules, dealer, hands=[parse_tiles(h) for h in deal.hands], wall=parse_tiles(deal.wall or ""))
    else:
        events = start(rules, dealer, seed=deal.seed or Deal.random().seed)
    return replay(events), events


def load_events(data: Sequence[dict[str, Any]]) -> tuple[State, list[Event]]:
    """Rebuild a hand from its stored event JSON (in seq order), a log written by an older engine
    upgraded first (:func:`engine.game.events_from_json`)."""
    events = events_from_json(data)
    return replay(events), events


def apply(state: State, action: Action) -> tuple[State, list[Event]]:
    """Validate and apply one action: the new state and the events (with every automatic step).

    Raises :class:`IllegalAction` (reason code + message) and leaves ``state`` as it was.
    """
    return step(state, action)


def event_json(event: Event) -> dict[str, Any]:
    """An event's stable JSON object (what the store keeps)."""
    return event.to_json()


def legal(state: State, seat: int) -> list[Action]:
    """Exactly the actions the engine accepts from ``seat`` now (empty: nothing to decide)."""
    return legal_actions(state, seat)


def to_act(state: State) -> tuple[int, ...]:
    """Seats the hand waits for (none once it is over)."""
    return state.to_act()


def rules_of(state: State) -> RuleSet:
    """The rules the hand is played under (its table's when it was dealt, docs/rules.md §C)."""
    return state.rules


def seq_of(state: State) -> int:
    """Events of the hand applied so far: its version within the hand (the table's seq counts every
    hand's events)."""
    return state.seq


def seed_of(state: State) -> str | None:
    """The shuffle seed the hand was dealt from, None for a prepared deal (docs/architecture.md §5
    "Deal": secret while the hand is played)."""
    return state.seed


def phase(state: State) -> Phase:
    """Where the hand is: :attr:`Phase.TURN` (the turn's seat decides), ``CLAIM`` / ``ROB`` (a window
    asks the seats it names, docs/rules.md §A5.2) or ``OVER``."""
    return state.phase


def is_over(state: State) -> bool:
    """The hand has ended (:func:`hand_result` says how)."""
    return state.result is not None


def hand_result(state: State) -> HandResultView | None:
    """How the hand ended — winners, payments, the next dealer (docs/rules.md §A12, §A15) — once it
    is over, else None."""
    return state.result


def group_view(state: State) -> PublicView:
    """The table as the group sees it: the same whether or not a claim or rob window is open
    (:func:`engine.game.spectator_view`, docs/security.md §4): the live table, its caption and every
    group picture are drawn from this, never from the view of the seats a window asks."""
    return spectator_view(state)


def group_view_at(events: Sequence[Event], index: int) -> PublicView:
    """The group's view (:func:`group_view`) right after the hand's event ``events[index]``: the
    events replayed up to it, so an announcement shows its moment whenever it is sent."""
    return spectator_view(replay(events[: index + 1]))


def seat_view(state: State, seat: int) -> SeatView:
    """What ``seat``'s hand message shows (docs/security.md §4): its own tiles, and the table as the
    seat may know it — a seat the open window asks sees the window with only itself marked to act
    (not who else may claim); every other seat sees the table as the group does
    (:func:`group_view`)."""
    view = view_for(state, seat)
    if state.window is None:
        return view
    if seat in state.to_act():
        return replace(view, public=replace(view.public, to_act=(seat,)))
    return replace(view, public=spectator_view(state))


def ai_rng(hand_key: str, seq: int, seat: int) -> random.Random:
    """Deterministic randomness for an AI decision at ``seq`` (same after a restart)."""
    return random.Random(f"{hand_key}:{seq}:{seat}")


AI_LEVELS: dict[str, Level] = {"easy": Level.EASY, "normal": Level.NORMAL, "strong": Level.STRONG}
"""A table's AI level (the group's ``/settings`` choice, docs/architecture.md §5) -> the engine's
:class:`~engine.ai.Level` (any other: ``normal``)."""
SLOW_AI_LEVELS = frozenset({"strong"})
"""The levels whose decisions search (up to about 100 ms each, docs/architecture.md §5): made in a
worker process, never on the event loop (:mod:`.thinking`); ``easy`` and ``normal`` take well
under a millisecond and are made in place."""


def choose_action(
    view: SeatView,
    legal_now: Sequence[Action],
    level: str = "normal",
    rng: random.Random | None = None,
    rules: RuleSet | None = None,
) -> Action:
    """The AI's choice among ``legal_now`` for the seat of ``view`` (托管 and AI seats) under the
    table's ``rules`` (its 番 values and cap guide the AI): :func:`engine.ai.choose_action` at the
    seat's level (:data:`AI_LEVELS`); ``rng`` None is a fixed seed."""
    engine_level = AI_LEVELS.get(level, Level.NORMAL)
    return engine_choose(view, legal_now, engine_level, rng or random.Random(0), rules=rules)


def held_after(state: State, seat: int, discard: Tile) -> tuple[Tile, ...]:
    """The seat's concealed tiles (its drawn tile included) left after discarding ``discard``, in
    tile order: the tiles a 亮倒 / 廊起 with that discard shows or hides.  Raises ValueError when the
    seat does not hold ``discard``."""
    view = view_for(state, seat)
    tiles = sorted(view.concealed + ((view.drawn,) if view.drawn is not None else ()))
    tiles.remove(discard)
    return tuple(tiles)


def check_reveal(state: State, seat: int, discard: Tile, shown: Sequence[Tile]) -> RevealChoice:
    """Judge a 亮倒 / 廊起 with ``discard`` showing ``shown`` (a sub-multiset of :func:`held_after`)
    by the engine: whether :func:`legal` lists it, the reveal's fault and its waits, and the engine's
    fewest reveal with ``discard`` (:func:`engine.game.fewest_reveal`: the "Show the fewest" choice,
    docs/rules.md §A9.2)."""
    held = list(held_after(state, seat, discard))
    shown_sorted = tuple(sorted(shown))
    for t in shown_sorted:
        held.remove(t)
    check = RevealChoice(discard, shown_sorted, tuple(held), False, None, ())
    fault, waits = reveal_preview(state, seat, discard, shown_sorted)
    legal_now = legal_actions(state, seat)
    fewest = fewest_reveal(legal_now, discard)
    return replace(
        check, legal=check.action(seat) in legal_now and fault is None, fault=fault,
        waits=waits if fault is None else (), fewest=None if fewest is None else fewest.reveal,
    )  # fmt: skip


def protected(state: State, seat: int) -> tuple[Tile, ...]:
    """Tiles ``seat`` holds but may not discard: another 亮倒 / 廊起 player waits on them
    (docs/rules.md §A9.8, §B protection), from the engine."""
    return protected_tiles(state, seat)


def timeout_action(state: State, seat: int) -> Action:
    """What a time-out does (docs/rules.md §E#33): discard the drawn tile (else the last tile of the hand),
    pass a claim window."""
    acts = legal(state, seat)
    for a in acts:
        if a.kind is ActionKind.PASS:
            return a
    drawn = view_for(state, seat).drawn
    discards = [a for a in acts if a.kind is ActionKind.DISCARD]
    for a in discards:
        if a.tile == drawn:
            return a
    if discards:
        return discards[-1]
    return acts[0]


def members(rules: RuleSet) -> int:
    """How many members a table of ``rules`` takes: ``rules.players``, and one more at a 3-seat
    table whose option ``four_players`` is not ``off`` (each hand one of the four sits out,
    docs/rules.md §A2.1)."""
    if rules.players == 3 and rules.four_players is not FourPlayers.OFF:
        return 4
    return rules.players


HandTiles = tuple[tuple[Tile, ...], tuple[MeldView, ...]]
"""One seat's whole hand: concealed tiles (sorted) and melds with every tile (as
:data:`render.HandTiles`)."""


def all_hands(state: State) -> tuple[HandTiles, ...]:
    """Every seat's whole hand once the hand is over -- public then, shown face up on the result
    picture (docs/architecture.md §5 "Result").  Raises ValueError while the hand is being played:
    concealed tiles never leave a seat's own view before the end."""
    if state.result is None:
        raise ValueError("the hand is not over: its concealed tiles are private")
    out = []
    for seat in range(len(state.seats)):
        v = view_for(state, seat)
        tiles = v.concealed + ((v.drawn,) if v.drawn is not None else ())
        out.append((tiles, v.melds))
    return tuple(out)


def score_question(question: WinQuestion, rules: RuleSet) -> WinScore:
    """The engine's score of a ``/calc`` question (:func:`engine.scoring.score_win` of its context)
    under ``rules``; :class:`QuestionError` if the scorer refuses the context."""
    try:
        return score_win(question.context(), rules)
    except ScoringError as exc:  # pragma: no cover - parse_question checks what WinContext checks
        raise QuestionError(Problem.CANNOT_SCORE, detail=str(exc)) from None


def waits_before_win(question: WinQuestion) -> tuple[tuple[Tile, ...], int]:
    """The waits of the question's tiles before its winning tile (its melds counted held), and when
    there are none its shanten number (0 when there are)."""
    counts = counts_of(question.concealed)
    held = counts_of([*question.concealed, *(t for m in question.melds for t in m.tiles)])
    ready = tuple(waits(counts, len(question.melds), held))
    return ready, (0 if ready else shanten(counts, len(question.melds)))


def hand_record(data: Sequence[dict[str, Any]], description: str | None = None) -> dict[str, Any]:
    """A hand's stored event JSON (in seq order) as one ``python -m engine play`` scenario object that
    replays it: the actions, and the events and result under ``expect`` (:func:`engine.game.record.record`).
    Raises :class:`RecordError` for events the engine cannot reach."""
    return record(events_from_json(data), description=description)


def review_record(
    doc: dict[str, Any],
    seats: Sequence[int],
    *,
    deadline: float | None = None,
    budget_ms: float = DEFAULT_BUDGET_MS,
    playouts: int = REVIEW_PLAYOUTS,
    evaluator: tuple[str, Evaluator] | None = None,
    pressed: Collection[int] | None = None,
) -> Review:
    """The review of a hand's record (:func:`hand_record`'s scenario object) for ``seats``: every
    decision of theirs where the engine's reviewer would have played otherwise, judged from the
    seat's view at that moment (:func:`engine.review.review_scenario`, docs/architecture.md §2
    "Review"); ``deadline``: ``time.monotonic()`` after which no more decisions are evaluated;
    ``playouts``: the ``strong`` evaluator's playouts per decision; ``evaluator``: ``(name,
    evaluator)``, default the engine's (tests pass their own); ``pressed``: the hand ``seq`` of each
    event a person's own press made (:func:`pressed_seqs`) — only those actions are judged (None:
    every action).  CPU-bound
    (seconds): run it off the event loop.  Raises ``ValueError`` for a record the engine refuses."""
    return review_scenario(
        doc, seats=tuple(seats), budget_ms=budget_ms, playouts=playouts, deadline=deadline, evaluator=evaluator,
        judged=pressed,
    )  # fmt: skip


def pressed_seqs(rows: Sequence[tuple[dict[str, Any], int | None]]) -> frozenset[int]:
    """The hand ``seq`` of each stored event a person's press made (``rows``: each event's JSON and
    the user whose press made it, None for what the bot did: the AI, a time-out, 托管)."""
    return frozenset(int(data["seq"]) for data, actor in rows if actor is not None and "seq" in data)


def hand_moments(data: Sequence[dict[str, Any]]) -> list[PublicView]:
    """The public views of a hand from its stored event JSON, moment by moment (each discard, 碰,
    kong, 亮倒 reveal and the end: :func:`engine.game.record.public_moments`); no concealed tile of a
    seat without 亮倒 before the end.  Raises :class:`RecordError` like :func:`hand_record`."""
    return public_moments(events_from_json(data))


def hand_open_moments(data: Sequence[dict[str, Any]]) -> list[OpenMoment]:
    """The moments of :func:`hand_moments` with every seat's hand face up (:func:`engine.game.record.open_moments`):
    a finished hand only.  Raises :class:`RecordError` for a hand that is not over."""
    return open_moments(events_from_json(data))
