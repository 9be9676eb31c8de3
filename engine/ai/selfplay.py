"""AI-only self-play: whole hands played by :func:`engine.ai.choose_action`, with rule checks and
statistics (the ``simulate`` command, the self-play benchmark and the strength runs).

Seating (so that no player gets a seat advantage): the table has one seat per player
(``rules.players``: 2, 3 or 4) and hands come in blocks that share one deal (seed
``"<seed>/<block>"``, dealer = seat 0).  Within a block, hand ``k`` seats the players by permutation
``seatings(n)[k]`` (``seat s`` is played by player ``perm[s]``): every rotation of every cyclic order
of the table (who sits after whom) — 2 hands at 2 seats, 6 at 3 (:data:`PERMUTATIONS`), 24 at 4 — so
every player plays every dealt hand from every seat.  This is duplicate play: the luck of the deal
cancels between players, and confidence intervals are computed over blocks (cluster-robust), since
the hands of a block are not independent.

A *rule error* is anything the engine must never do: an exception from ``step``/``decide`` for an
action ``legal_actions`` listed, a seat that must act but has no legal action (or the reverse), an
AI answer outside the legal list, payments that do not sum to zero, a hand that does not end.  With
``check=True`` every event is also checked against the engine's invariants: tile conservation (four
of every kind in hands, melds, ponds and wall), ``decide(state, a) == step(state, a)`` events,
``replay(events) == state`` at the end, kong money adding up to the result's kong deltas (void
after a 关死), a 亮倒/廊起 winner winning only on its published waits, and in 卡心五 (docs/rules.md §B)
no seat left 关死 while the hand goes on and no seat without 廊起 discarding a 廊起 seat's wait.

Feeding: a player who has not declared 亮倒 and discards (or 补杠s) a tile some 亮倒 player waits on
*feeds* it (docs/rules.md §A9.7 包胡).  ``feeds`` counts them; ``forced_feeds`` those made when every legal
discard was such a tile.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..game import (
    Action,
    ActionKind,
    Discarded,
    Event,
    HandEnded,
    Konged,
    State,
    decide,
    evolve,
    legal_actions,
    replay,
    start,
    step,
    view_for,
)
from ..game.endings import guansi_seat
from ..rules import STANDARD_PLAYERS, RuleSet
from ..scoring import WinBy
from ..views import Outcome, SeatView
from .players import Level, Tuning, choose_action

__all__ = [
    "PERMUTATIONS",
    "Agent",
    "HandRecord",
    "PlayerSummary",
    "SimSummary",
    "Simulation",
    "ai_agent",
    "play_hand",
    "seatings",
    "simulate",
]


def seatings(players: int) -> tuple[tuple[int, ...], ...]:
    """Player of each seat, per hand of a block at a table of ``players``: for each cyclic order of
    the table (player 0 first, the others in lexicographic order), its ``players`` rotations."""
    out: list[tuple[int, ...]] = []
    for rest in itertools.permutations(range(1, players)):
        order = (0, *rest)
        out.extend(order[k:] + order[:k] for k in range(players))
    return tuple(out)


PERMUTATIONS: tuple[tuple[int, ...], ...] = seatings(STANDARD_PLAYERS)
"""The block of the standard table: ``(0, 1, 2), (1, 2, 0), (2, 0, 1), (0, 2, 1), (2, 1, 0), (1, 0, 2)``."""

MAX_ACTIONS = 1000
"""A hand that needs more actions than this is reported as not ending (a standard hand needs < 200)."""

Agent = Callable[[SeatView, Sequence[Action], random.Random], Action]
"""A player: ``(seat view, legal actions, rng) -> action`` (see :func:`ai_agent`)."""


def ai_agent(level: Level, rules: RuleSet | None = None, tuning: Tuning | None = None) -> Agent:
    """The AI of ``level`` as an :class:`Agent` (``tuning`` for ``normal``)."""

    def agent(view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action:
        return choose_action(view, legal, level, rng, rules=rules, tuning=tuning)

    return agent


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One played hand, by *player* (index into the players list), not by seat.

    ``seats``: player of each seat.  ``deltas``: points of 底金 won (+) / paid (-) per player, kong
    money included.  ``outcome``: "win", "draw" (荒庄) or "error".  ``winners``/``self_draw``: winning
    players and whether the win was a 自摸.  ``dealt_in``: the player who discarded (or was robbed)
    into a win, if any.  ``liangdao``: players who declared 亮倒.  ``feeds``/``forced_feeds``: per
    player (module docstring).  ``baohu``: per player, wins paid as 包胡 (A9.7).  ``actions``: AI
    decisions taken.  ``error``: what went wrong, for outcome "error".
    """

    seed: str
    seats: tuple[int, ...]
    deltas: tuple[int, ...]
    outcome: str
    winners: tuple[int, ...] = ()
    self_draw: bool = False
    dealt_in: int | None = None
    liangdao: tuple[int, ...] = ()
    feeds: tuple[int, ...] = ()
    forced_feeds: tuple[int, ...] = ()
    baohu: tuple[int, ...] = ()
    actions: int = 0
    error: str | None = None


class RuleViolation(Exception):
    """The engine broke one of its own rules or invariants during self-play (a rule error)."""


def _check_events(before: State, action: Action, after: State, events: list[Event]) -> None:
    if decide(before, action) != events:
        raise RuleViolation(f"decide and step disagree on {action}")
    mirror = before
    for e in events:
        mirror = evolve(mirror, e)
        counts = mirror.tile_counts()
        bad = [t for t in mirror.kinds if counts[t] != 4]
        if bad or sum(counts) != 4 * len(mirror.kinds):
            raise RuleViolation(f"tile conservation broken after event {e.seq} ({type(e).__name__})")
        if isinstance(e, Konged) and sum(e.money) != 0:
            raise RuleViolation(f"kong money of event {e.seq} does not sum to 0: {e.money}")
    if mirror != after:
        raise RuleViolation("evolving the events of a step does not give the step's state")
    _check_protection(before, events)
    _check_outcome(after, events)


def _check_outcome(after: State, events: list[Event]) -> None:
    """No seat is left 关死 while the hand goes on (docs/rules.md §B), and a 亮倒 / 廊起 winner won on
    one of its published waits (§E#48)."""
    if not after.over and guansi_seat(after) is not None:
        raise RuleViolation(f"seat {guansi_seat(after)} is 关死 but the hand goes on")
    for e in events:
        if isinstance(e, HandEnded):
            for w in e.result.winners:
                seat = after.seats[w.seat]
                if seat.liangdao and w.win_tile not in seat.waits:
                    raise RuleViolation(f"seat {w.seat} won on {w.win_tile}, not one of its 亮倒 waits")


def _check_protection(before: State, events: list[Event]) -> None:
    """Under ``liangdao_protect`` in 卡心五 (docs/rules.md §B) a seat without 廊起 never discards a tile
    a 廊起 seat waits on (关死 ends the hand before he would have to)."""
    rules = before.rules
    if not (rules.liangdao_protect and rules.guansi):
        return
    state = before
    for e in events:
        if isinstance(e, Discarded) and not state.seats[e.seat].liangdao:
            for i, other in enumerate(state.seats):
                if i != e.seat and other.liangdao and e.tile in other.waits:
                    raise RuleViolation(f"seat {e.seat} discarded {e.tile}, which 廊起 seat {i} waits on")
        state = evolve(state, e)


def play_hand(
    rules: RuleSet,
    agents: Sequence[Agent],
    seed: str,
    rng: random.Random,
    *,
    dealer: int = 0,
    check: bool = False,
) -> tuple[State, list[Event], dict[str, object]]:
    """Play one hand with the :class:`Agent` of each *seat*; returns (final state, events, counters).

    ``counters``: ``actions`` (decisions), ``feeds`` / ``forced_feeds`` (per seat lists).  Raises
    :class:`RuleViolation` for a rule error (see the module docstring) and re-raises anything the
    engine raised.  ``check`` adds the per-event invariant checks.
    """
    events = start(rules, dealer, seed=seed)
    state = replay(events)
    feeds = [0] * rules.players
    forced = [0] * rules.players
    actions = 0
    while not state.over:
        to_act = state.to_act()
        if not to_act:
            raise RuleViolation(f"no seat to act in phase {state.phase.value} at seq {state.seq}")
        seat = to_act[0]
        legal = legal_actions(state, seat)
        if not legal:
            raise RuleViolation(f"seat {seat} must act at seq {state.seq} but has no legal action")
        action = agents[seat](view_for(state, seat), legal, rng)
        if action not in legal:
            raise RuleViolation(f"the AI answered {action}, which is not among the legal actions")
        if action.kind in (ActionKind.DISCARD, ActionKind.LIANGDAO, ActionKind.ADDED_KONG):
            _count_feed(state, seat, action, legal, feeds, forced)
        try:
            new_state, new_events = step(state, action)
        except Exception as exc:
            raise RuleViolation(f"step raised {type(exc).__name__} for listed action {action}: {exc}") from exc
        if check:
            for s in range(rules.players):
                if bool(legal_actions(state, s)) != (s in to_act):
                    raise RuleViolation(f"seat {s}: legal actions disagree with to_act {to_act}")
            _check_events(state, action, new_state, new_events)
        state = new_state
        events.extend(new_events)
        actions += 1
        if actions > MAX_ACTIONS:
            raise RuleViolation(f"the hand did not end after {MAX_ACTIONS} actions")
    _check_result(rules, state, events, check)
    return state, events, {"actions": actions, "feeds": feeds, "forced_feeds": forced}


def _count_feed(
    state: State, seat: int, action: Action, legal: Sequence[Action], feeds: list[int], forced: list[int]
) -> None:
    """Count ``action`` (a discard, 亮倒 or 补杠 of ``seat``) in ``feeds`` when it gives another 亮倒
    seat its winning tile (A9.7), and in ``forced`` when every discard listed would have."""
    if state.seats[seat].liangdao:
        return
    danger = 0
    for i, other in enumerate(state.seats):
        if i != seat and other.liangdao:
            for t in other.waits:
                danger |= 1 << t
    assert action.tile is not None
    if danger >> action.tile & 1:
        feeds[seat] += 1
        gives = [a for a in legal if a.kind in (ActionKind.DISCARD, ActionKind.LIANGDAO)]
        if action.kind is not ActionKind.ADDED_KONG and all(a.tile is not None and danger >> a.tile & 1 for a in gives):
            forced[seat] += 1


def _check_result(rules: RuleSet, state: State, events: list[Event], check: bool) -> None:
    """Raise :class:`RuleViolation` unless the finished hand has a zero-sum result (and, with
    ``check``, replays to ``state`` and pays the kong money its kong events carry)."""
    result = state.result
    if result is None:
        raise RuleViolation("the hand is over without a result")
    if sum(result.deltas) or sum(result.hand_deltas) or sum(result.kong_deltas):
        raise RuleViolation(f"payments do not sum to 0: {result.hand_deltas} + {result.kong_deltas}")
    if list(result.deltas) != [h + k for h, k in zip(result.hand_deltas, result.kong_deltas, strict=True)]:
        raise RuleViolation("deltas are not hand deltas + kong deltas")
    if check:
        if replay(events) != state:
            raise RuleViolation("replay(events) != final state")
        kong = [0] * rules.players
        for e in events:
            if isinstance(e, Konged):
                kong = [a + b for a, b in zip(kong, e.money, strict=True)]
        if result.outcome is Outcome.GUANSI:  # 关死 voids the hand's kong money (docs/rules.md §B)
            kong = [0] * rules.players
        if tuple(kong) != tuple(result.kong_deltas):
            raise RuleViolation(f"kong events pay {kong}, the result says {result.kong_deltas}")


def _record(seed: str, perm: tuple[int, ...], state: State, counters: dict[str, object]) -> HandRecord:
    result = state.result
    assert result is not None
    n = len(perm)
    deltas = [0] * n
    for seat, player in enumerate(perm):
        deltas[player] = result.deltas[seat]
    feeds = [0] * n
    forced = [0] * n
    f_seat = counters["feeds"]
    ff_seat = counters["forced_feeds"]
    assert isinstance(f_seat, list) and isinstance(ff_seat, list)
    baohu = [0] * n
    for seat, player in enumerate(perm):
        feeds[player] = f_seat[seat]
        forced[player] = ff_seat[seat]
    dealt_in = None
    for w in result.winners:
        if w.from_seat is not None:
            dealt_in = perm[w.from_seat]
            if w.baohu:
                baohu[perm[w.from_seat]] += 1
    actions = counters["actions"]
    assert isinstance(actions, int)
    return HandRecord(
        seed=seed,
        seats=perm,
        deltas=tuple(deltas),
        outcome=str(result.outcome),
        winners=tuple(perm[w.seat] for w in result.winners),
        self_draw=any(w.by is WinBy.SELF_DRAW for w in result.winners),
        dealt_in=dealt_in,
        liangdao=tuple(perm[i] for i, s in enumerate(state.seats) if s.liangdao),
        feeds=tuple(feeds),
        forced_feeds=tuple(forced),
        baohu=tuple(baohu),
        actions=actions,
    )


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """Per-player statistics of a simulation.  Points are 底金 per hand (kong money included);
    ``ci95`` is the half-width of the 95% confidence interval of ``mean_points``."""

    player: int
    level: str
    hands: int
    wins: int
    self_draws: int
    dealt_in: int
    liangdao: int
    feeds: int
    forced_feeds: int
    baohu: int
    total_points: int
    mean_points: float
    ci95: float

    def to_json(self) -> dict[str, object]:
        """A plain dict (the ``--json`` output of ``simulate``)."""
        return {
            "player": self.player,
            "level": self.level,
            "hands": self.hands,
            "wins": self.wins,
            "win_rate": self.wins / self.hands if self.hands else 0.0,
            "self_draws": self.self_draws,
            "dealt_in": self.dealt_in,
            "liangdao": self.liangdao,
            "feeds": self.feeds,
            "forced_feeds": self.forced_feeds,
            "baohu": self.baohu,
            "total_points": self.total_points,
            "mean_points": self.mean_points,
            "ci95": self.ci95,
        }


@dataclass(frozen=True, slots=True)
class SimSummary:
    """What a simulation measured: ``errors`` lists (seed, seats, message) of rule errors."""

    hands: int
    seconds: float
    draws: int
    actions: int
    players: tuple[PlayerSummary, ...]
    errors: tuple[tuple[str, tuple[int, ...], str], ...]

    @property
    def hands_per_second(self) -> float:
        """Whole hands per second of wall-clock time (one process)."""
        return self.hands / self.seconds if self.seconds > 0 else math.inf

    @property
    def draw_rate(self) -> float:
        """Share of hands that ended in 荒庄 (A14)."""
        return self.draws / self.hands if self.hands else 0.0

    def to_json(self) -> dict[str, object]:
        """A plain dict (the ``--json`` output of ``simulate``)."""
        return {
            "hands": self.hands,
            "seconds": self.seconds,
            "hands_per_second": self.hands_per_second,
            "draws": self.draws,
            "draw_rate": self.draw_rate,
            "actions": self.actions,
            "players": [p.to_json() for p in self.players],
            "rule_errors": [{"seed": s, "seats": list(p), "error": m} for s, p, m in self.errors],
        }


@dataclass
class Simulation:
    """Accumulates :class:`HandRecord` s into per-player statistics (block-wise for the CIs);
    ``labels`` name the players, one per seat of the table (the per-player lists have that length)."""

    labels: tuple[str, ...]
    records: int = 0
    draws: int = 0
    actions: int = 0
    seconds: float = 0.0
    totals: list[int] = field(default_factory=list)
    wins: list[int] = field(default_factory=list)
    self_draws: list[int] = field(default_factory=list)
    dealt_in: list[int] = field(default_factory=list)
    liangdao: list[int] = field(default_factory=list)
    feeds: list[int] = field(default_factory=list)
    forced_feeds: list[int] = field(default_factory=list)
    baohu: list[int] = field(default_factory=list)
    blocks: dict[int, list[int]] = field(default_factory=dict)
    block_sizes: dict[int, int] = field(default_factory=dict)
    errors: list[tuple[str, tuple[int, ...], str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        n = len(self.labels)
        for name in ("totals", "wins", "self_draws", "dealt_in", "liangdao", "feeds", "forced_feeds", "baohu"):
            if not getattr(self, name):
                setattr(self, name, [0] * n)

    def add(self, block: int, rec: HandRecord) -> None:
        """Count one hand (``block``: its deal block, for the confidence intervals)."""
        self.records += 1
        self.actions += rec.actions
        if rec.outcome == "error":
            assert rec.error is not None
            self.errors.append((rec.seed, rec.seats, rec.error))
            return
        self.block_sizes[block] = self.block_sizes.get(block, 0) + 1
        n = len(self.labels)
        sums = self.blocks.setdefault(block, [0] * n)
        for p in range(n):
            self.totals[p] += rec.deltas[p]
            sums[p] += rec.deltas[p]
            self.feeds[p] += rec.feeds[p]
            self.forced_feeds[p] += rec.forced_feeds[p]
            self.baohu[p] += rec.baohu[p]
        if rec.outcome == "draw":
            self.draws += 1
        for p in rec.winners:
            self.wins[p] += 1
            if rec.self_draw:
                self.self_draws[p] += 1
        if rec.dealt_in is not None:
            self.dealt_in[rec.dealt_in] += 1
        for p in rec.liangdao:
            self.liangdao[p] += 1

    def mean_ci(self, player: int) -> tuple[float, float]:
        """Mean points per hand of ``player`` and the half-width of its 95% CI (cluster-robust over
        deal blocks: SE = sqrt(B/(B-1) * sum_b (S_b - n_b * mean)^2) / N)."""
        n = sum(self.block_sizes.values())
        if n == 0:
            return 0.0, math.inf
        mean = self.totals[player] / n
        b = len(self.blocks)
        if b < 2:
            return mean, math.inf
        ss = sum((s[player] - self.block_sizes[k] * mean) ** 2 for k, s in self.blocks.items())
        se = math.sqrt(ss * b / (b - 1)) / n
        return mean, 1.96 * se

    def diff_ci(self, a: int, b: int) -> tuple[float, float]:
        """Mean of (points of ``a`` - points of ``b``) per hand and its 95% CI half-width."""
        n = sum(self.block_sizes.values())
        nb = len(self.blocks)
        if n == 0 or nb < 2:
            return 0.0, math.inf
        mean = (self.totals[a] - self.totals[b]) / n
        ss = sum((s[a] - s[b] - self.block_sizes[k] * mean) ** 2 for k, s in self.blocks.items())
        return mean, 1.96 * math.sqrt(ss * nb / (nb - 1)) / n

    def summary(self) -> SimSummary:
        """The statistics so far."""
        hands = sum(self.block_sizes.values())
        players = []
        for p in range(len(self.labels)):
            mean, ci = self.mean_ci(p)
            players.append(
                PlayerSummary(
                    player=p,
                    level=self.labels[p],
                    hands=hands,
                    wins=self.wins[p],
                    self_draws=self.self_draws[p],
                    dealt_in=self.dealt_in[p],
                    liangdao=self.liangdao[p],
                    feeds=self.feeds[p],
                    forced_feeds=self.forced_feeds[p],
                    baohu=self.baohu[p],
                    total_points=self.totals[p],
                    mean_points=mean,
                    ci95=ci,
                )
            )
        return SimSummary(
            hands=self.records,
            seconds=self.seconds,
            draws=self.draws,
            actions=self.actions,
            players=tuple(players),
            errors=tuple(self.errors),
        )


def hand_seed(seed: str, index: int, players: int = STANDARD_PLAYERS) -> tuple[str, tuple[int, ...], int]:
    """(deal seed, seating permutation, block) of hand ``index`` of a simulation seeded ``seed`` at a
    table of ``players``."""
    block_of = _seatings(players)
    block = index // len(block_of)
    return f"{seed}/{block}", block_of[index % len(block_of)], block


_SEATINGS: dict[int, tuple[tuple[int, ...], ...]] = {}


def _seatings(players: int) -> tuple[tuple[int, ...], ...]:
    if players not in _SEATINGS:
        _SEATINGS[players] = seatings(players)
    return _SEATINGS[players]


def simulate(
    players: Sequence[Level],
    hands: int,
    seed: str,
    rules: RuleSet | None = None,
    *,
    check: bool = False,
    start_index: int = 0,
    sim: Simulation | None = None,
    progress: Callable[[Simulation], None] | None = None,
    agents: Sequence[Agent] | None = None,
    labels: Sequence[str] | None = None,
) -> Simulation:
    """Play hands ``start_index .. start_index + hands - 1`` of the seeded series (module docstring)
    with ``players`` (one :class:`Level` per player) and return the accumulated :class:`Simulation`.

    Rule errors are recorded, never raised.  ``progress`` is called after every block of hands (:func:`seatings`).
    ``agents`` (one per player) replace the AI of ``players`` (tuning runs); ``labels`` name the
    players in the summary (default: the level names).
    """
    rules = rules if rules is not None else RuleSet()
    levels = tuple(players)
    if len(levels) != rules.players:
        raise ValueError(f"a table of these rules has {rules.players} players, got {len(levels)}")
    players_agents = list(agents) if agents is not None else [ai_agent(level, rules) for level in levels]
    names = tuple(labels) if labels is not None else tuple(level.value for level in levels)
    sim = sim if sim is not None else Simulation(names)
    t0 = time.perf_counter()
    for index in range(start_index, start_index + hands):
        deal_seed, perm, block = hand_seed(seed, index, rules.players)
        by_seat = [players_agents[p] for p in perm]
        rng = random.Random(f"{seed}/{index}")
        try:
            state, _events, counters = play_hand(rules, by_seat, deal_seed, rng, check=check)
            rec = _record(deal_seed, perm, state, counters)
        except Exception as exc:  # every failure is a rule error to report, never a crash
            message = str(exc) if isinstance(exc, RuleViolation) else f"{type(exc).__name__}: {exc}"
            rec = HandRecord(deal_seed, perm, (0,) * rules.players, "error", error=message)
        sim.add(block, rec)
        if progress is not None and (index + 1) % len(_seatings(rules.players)) == 0:
            sim.seconds += time.perf_counter() - t0
            t0 = time.perf_counter()
            progress(sim)
    sim.seconds += time.perf_counter() - t0
    return sim
