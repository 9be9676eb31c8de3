"""The ``strong`` AI: a search over sampled worlds with playouts under the game's real rules
(docs/architecture.md §2 "AI").

:func:`evaluate` ``(view, legal, rng, *, budget_ms=80.0, playouts=None, rules=None) ->
dict[Action, float]`` — the expected points of 底金 (for the seat, over the rest of the hand, kong
money included) of each legal action, estimated from the seat's view only:

1. *Determinization* — worlds (full game states) are drawn at random among those consistent with the
   view (:func:`engine.ai.sampling.sample_world`): the other seats' hidden tiles, played in to a
   realistic readiness, and the wall order.
2. *Playouts* — in each world every candidate action is applied with :func:`engine.game.step` and
   the hand is played to its end by the ``easy`` level's moves for every seat
   (:func:`engine.ai.rollout.easy_move`), so the real rules and scoring decide: 番, 亮倒 factors,
   包胡, kong money, the wall, 卡心五's protection, 关死 and 查叫 (docs/rules.md §A, §B).  The
   searching seat never declares 亮倒 later in a playout; the others only in 卡心五 and at 2 seats
   (:func:`_others_declare`).  The value of a playout is the seat's points at the end of
   the hand minus the kong money it had already collected.
3. *Common random numbers* — every candidate is played out in the same worlds (the playout policy
   is deterministic), so the differences between candidates are much less noisy than their values.
4. *Successive halving* — after 4, 8, 16, ... worlds the worse half of the candidates is dropped
   (their estimate is kept); the search stops when its budget is spent: wall time for
   :func:`evaluate`, playout moves for :func:`choose`.

:func:`choose` (the ``strong`` level of :func:`engine.ai.choose_action`) searches only the actions
worth comparing (:func:`candidates`) — its prior, every kong, every claim answer
(胡 / 杠 / 碰 / 过: passing a win is weighed too) and, as the table's :class:`Plan` says
(:func:`plan_for`), other discards keeping the lowest shanten and the 亮倒 / 廊起 twins (showing the
fewest tiles that publish the same waits as the whole hand) — skips the search when the choice is
forced or a 自摸, and keeps its prior (:func:`prior_choice`: the ``normal`` choice under the plan)
unless another candidate beats it by more than the plan's number of standard errors of their
paired difference.  At 4 seats of 卡心五 the plan's prior is ``normal`` taking a 廊起 whenever one
is legal; at 3 and 4 seats of 卡五星 it is ``normal`` defending less, with a 暗杠 whenever legal.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from ..analysis import keys_of, shanten_after_discards
from ..game import Action, ActionKind, IllegalAction, State, fewest_reveal, legal_actions, step, view_for
from ..rules import RuleSet, Ruleset
from ..views import Phase, SeatView
from .hand import hand_counts
from .players import Level, Tuning, choose_action
from .rollout import easy_move
from .sampling import sample_world

__all__ = [
    "MOVES",
    "Plan",
    "candidates",
    "choose",
    "evaluate",
    "move_budget",
    "plan_for",
    "playout",
    "prior_choice",
    "search",
]

_STANDARD_RULES = RuleSet()
_NORMAL_TUNING = Tuning()
_MAX_PLAYOUT_ACTIONS = 600
_FIRST_CUT = 4
_TILE_CHOICES = (ActionKind.DISCARD, ActionKind.LIANGDAO)
_WORLD_COST = 8
_MAX_WORLDS = 400
MOVES = 1600
"""Playout moves (every seat's moves, in all the playouts) per decision of :func:`choose`: the
search's budget, sized for at most 100 ms at p95 on one core (README "AI levels")."""


@dataclass(frozen=True, slots=True)
class Plan:
    """What :func:`choose` starts from (its prior, :func:`prior_choice`), what it searches at a
    table, and when it leaves the prior (docs/architecture.md §2 "AI"; the values per table are
    :func:`plan_for`'s).

    * ``discards``: how many discard tiles are compared (the prior's first, then the others
      keeping the lowest shanten); 1 = the prior's tile only.
    * ``z``: a candidate replaces the prior when it is better by more than ``z`` standard errors
      of their paired difference.
    * ``declare``: whether a plain discard of the prior may be replaced by a 亮倒 / 廊起 (the
      playouts' opponents play the ``easy`` level, slower to win than the real ones, so they make a
      frozen hand look cheap: the search's own 亮倒 over a ``normal`` discard lost points in 卡五星).
    * ``langqi``: take a 廊起 whenever one is legal (卡心五, docs/rules.md §B: a 廊起 hand collects
      at 查叫 even on dead waits, and nobody may feed it), choosing among the ready discards as
      ``normal`` would.
    * ``ankong``: declare a 暗杠 whenever one is legal (its money, 2 from every other seat, is paid
      at once and kept even when the hand is drawn, docs/rules.md §A13), even where it raises the
      shanten — which ``normal`` never does.
    * ``tuning``: the knobs of the ``normal`` choice that is the prior (:class:`Tuning`): the
      prior defends less than ``normal`` where self-play measured that it pays.
    """

    discards: int = 1
    z: float = 2.0
    declare: bool = True
    langqi: bool = False
    ankong: bool = False
    tuning: Tuning = _NORMAL_TUNING


_DEFENCE_BY_SEATS = {3: 0.3, 4: 0.15}
"""The prior's danger weight (:attr:`Tuning.defence`, 1.0 in ``normal``) at 3 and 4 seats of
卡五星: ``normal`` folds more than pays there (README "AI levels": self-play of ``normal`` with
each weight against ``normal``)."""


def plan_for(rules: RuleSet) -> Plan:
    """The :class:`Plan` of a table: in 卡五星, at every table, no 亮倒 over a plain discard of
    ``normal`` (its own 亮倒 is still weighed against the plain discard); at 3 and 4 seats of
    卡五星 also a 暗杠 whenever legal and less defence (:data:`_DEFENCE_BY_SEATS`); at 4 seats of
    卡心五, a 廊起 whenever legal; the ``normal`` tile and two standard errors everywhere.  Three
    discard tiles with one standard error were measured at 3 seats of 卡五星 and not kept: no
    better, and a search at most decisions (README "AI levels")."""
    if rules.ruleset is Ruleset.KAXINWU and rules.players >= 4:
        return Plan(langqi=True)
    if rules.ruleset is Ruleset.KAWUXING:
        defence = _DEFENCE_BY_SEATS.get(rules.players)
        if defence is None:
            return Plan(declare=False)
        return Plan(declare=False, ankong=True, tuning=Tuning(defence=defence))
    return Plan()


def _others_declare(rules: RuleSet) -> bool:
    """Whether the other seats declare 亮倒 in playouts: in 卡心五 (廊起 always pays, docs/rules.md
    §B) and at 2 seats, where the ``normal`` level declared most hands when this search was tuned
    (it now declares in about 7% of 2-seat hands: a mismatch kept because the measured strength is
    this rule's; see docs/architecture.md §2); at 3 and 4 seats of 卡五星 the playouts do not."""
    return rules.ruleset is Ruleset.KAXINWU or rules.players == 2


def _rollout_policy(view: SeatView, legal: Sequence[Action], rules: RuleSet, declare: bool) -> Action:
    """The ``easy`` level, without 亮倒 / 廊起 unless ``declare``."""
    if not declare and any(a.kind is ActionKind.LIANGDAO for a in legal):
        legal = [a for a in legal if a.kind is not ActionKind.LIANGDAO]
    return choose_action(view, legal, Level.EASY, rules=rules)


def playout(state: State, seat: int, rules: RuleSet) -> tuple[int, int]:
    """Play ``state`` to the end of the hand: (the final points of ``seat`` — deltas, kong money
    included —, the moves played).  Every seat plays the ``easy`` level; ``seat`` never declares 亮倒 later (so a
    searched discard is compared with its 亮倒 version, not with a 亮倒 one turn later), the others
    only where ``normal`` declares most hands (:func:`_others_declare`).  A hand that does not end
    within a bound counts as the seat's current kong money (no change)."""
    others = _others_declare(rules)
    for moves in range(_MAX_PLAYOUT_ACTIONS):
        if state.result is not None:
            return state.result.deltas[seat], moves
        acting = state.to_act()
        if not acting:  # pragma: no cover - a live stable state always waits for a seat
            break
        s = acting[0]
        declare = others and s != seat
        a = easy_move(state, s, declare)
        if a is not None:
            try:
                state, _ = step(state, a)
                continue
            except IllegalAction:  # pragma: no cover - the fast reading missed a rule: ask the level
                pass
        a = _rollout_policy(view_for(state, s), legal_actions(state, s), rules, declare)
        state, _ = step(state, a)
    if state.result is not None:
        return state.result.deltas[seat], _MAX_PLAYOUT_ACTIONS
    return state.seats[seat].kong_money, _MAX_PLAYOUT_ACTIONS  # pragma: no cover


class _Stats:
    """Per-candidate values, one per world (``None`` for a world the candidate was not played in)."""

    __slots__ = ("values",)

    def __init__(self) -> None:
        self.values: list[float | None] = []

    def mean(self) -> float:
        xs = [v for v in self.values if v is not None]
        return sum(xs) / len(xs) if xs else 0.0


def _paired(a: _Stats, b: _Stats) -> tuple[float, float, int]:
    """(mean of a - b, its standard error, worlds) over the worlds both were played in."""
    diffs = [x - y for x, y in zip(a.values, b.values, strict=False) if x is not None and y is not None]
    n = len(diffs)
    if n == 0:
        return 0.0, math.inf, 0
    mean = sum(diffs) / n
    if n < 2:
        return mean, math.inf, n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(var / n), n


def _play_world(
    view: SeatView, rules: RuleSet, rng: random.Random, active: Sequence[Action], base: int
) -> dict[Action, tuple[float, int]] | None:
    """One sampled world: (points over the rest of the hand, playout moves) of each active candidate
    the world accepts; None when no world could be drawn or the engine refused the made-up state
    (a ValueError such as a scoring error: a world that could not have happened) — the world is
    then dropped for every candidate, so the candidates keep sharing their worlds."""
    try:
        world = sample_world(view, rules, rng)
        out: dict[Action, tuple[float, int]] = {}
        for a in active:
            try:
                after, _ = step(world, a)
            except IllegalAction:
                continue
            points, n = playout(after, view.seat, rules)
            out[a] = (float(points - base), n)
    except ValueError:  # WorldError, ScoringError: drop this world
        return None
    return out


def search(
    view: SeatView,
    candidates: Sequence[Action],
    rng: random.Random,
    *,
    budget_ms: float | None = 80.0,
    playouts: int | None = None,
    moves: int | None = None,
    rules: RuleSet | None = None,
    min_worlds: int = 2,
) -> dict[Action, _Stats]:
    """Playout statistics of each of ``candidates`` (legal actions of ``view``'s seat), over worlds
    sampled from ``view`` with ``rng`` (module docstring), within about ``budget_ms`` of wall time
    and at most ``playouts`` playouts and ``moves`` playout moves in all (None: no such limit; at
    least ``min_worlds`` worlds either way; a world is played for every active candidate or not at
    all, the next world's cost estimated from the mean so far).  With ``budget_ms=None`` the
    result depends on the arguments only (not on the machine's speed).  A candidate the sampled
    world refuses (it depended on a fact the view does not carry, such as the seat's own 漏胡) is
    not played in that world."""
    rules = rules or _STANDARD_RULES
    stats = {a: _Stats() for a in dict.fromkeys(candidates)}
    active = list(stats)
    me = view.seat
    base = view.public.seats[me].kong_money
    t0 = time.perf_counter()
    deadline = t0 + budget_ms / 1000.0 if budget_ms is not None else math.inf
    # sampling a world costs about 8 playout moves, plus one per turn of play it simulates for a
    # hidden hand (engine.ai.sampling)
    world_cost = _WORLD_COST + sum(len(p.discards) for p in view.public.seats if p.seat != me and not p.liangdao)
    worlds = attempts = played = used = 0
    cut = _FIRST_CUT
    while attempts < _MAX_WORLDS:
        if worlds >= min_worlds:
            if playouts is not None and played + len(active) > playouts:
                break
            if moves is not None and used + used / worlds > moves:
                break
            if budget_ms is not None:
                now = time.perf_counter()
                if now + (now - t0) / max(played, 1) * len(active) > deadline:
                    break
        attempts += 1
        used += world_cost
        results = _play_world(view, rules, rng, active, base)
        if results is None:
            continue
        worlds += 1
        for a, st in stats.items():
            r = results.get(a)
            st.values.append(r[0] if r is not None else None)
        played += len(results)
        used += sum(n + 1 for _, n in results.values())
        if worlds >= cut and len(active) > 2:
            active.sort(key=lambda a: -stats[a].mean())
            active = active[: max(2, (len(active) + 1) // 2)]
            cut *= 2
        if len(active) == 1 and worlds >= min_worlds:
            break
    return stats


def evaluate(
    view: SeatView,
    legal: Sequence[Action],
    rng: random.Random,
    *,
    budget_ms: float | None = 80.0,
    playouts: int | None = None,
    rules: RuleSet | None = None,
) -> dict[Action, float]:
    """The expected points of 底金 of each of ``legal`` for ``view``'s seat, over the rest of the
    hand, kong money included (docs/rules.md §A12, §A13), estimated by :func:`search` over every
    legal action within ``budget_ms`` of wall time and at most ``playouts`` playouts (either may be
    None; the better actions get more worlds).  ``rules``: the table's
    rules (public; default standard).  Depends only on its arguments and ``rng``'s state: never on
    anything the seat cannot see.  Raises ``ValueError`` when ``legal`` is empty."""
    if not legal:
        raise ValueError("no legal action to evaluate")
    stats = search(view, legal, rng, budget_ms=budget_ms, playouts=playouts, rules=rules)
    return {a: stats[a].mean() for a in legal}


# ============================================================================ the strong level


def move_budget(rules: RuleSet) -> int:
    """:data:`MOVES`, halved in 卡心五 — every discard that completes some hand is scored there (a
    屁胡 may win on a discard, docs/rules.md §B), which makes a move about twice as costly — and
    three quarters of it at 4 seats of 卡五星 (120 tiles, three hands to ask about every discard:
    the full budget measured 109 ms at p95 there)."""
    if rules.ruleset is Ruleset.KAXINWU:
        return MOVES // 2
    return MOVES * 3 // 4 if rules.players >= 4 else MOVES


def candidates(
    view: SeatView, legal: Sequence[Action], prior: Action, rules: RuleSet, plan: Plan | None = None
) -> list[Action]:
    """The actions :func:`choose` compares: ``prior`` first; every claim answer; on a turn every
    kong and 自摸, the discards keeping the lowest shanten (``plan.discards`` of them, the prior's
    tile first; ``plan`` default :func:`plan_for` ``(rules)``) and, when ``prior`` is a 亮倒 or
    ``plan.declare``, their 亮倒 versions (:func:`engine.game.fewest_reveal`)."""
    plan = plan or plan_for(rules)
    out: list[Action] = [prior]
    if view.public.phase is not Phase.TURN:
        out += [a for a in legal if a != prior]
        return out
    discards = [a for a in legal if a.kind is ActionKind.DISCARD]
    out += [a for a in legal if a.kind in (ActionKind.WIN, ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG)]
    if discards:
        declare = plan.declare or prior.kind is ActionKind.LIANGDAO
        for t in _discard_tiles(view, discards, prior, rules, plan):
            out += [a for a in discards if a.tile == t]
            ld = fewest_reveal(legal, t) if declare else None
            if ld is not None:
                out.append(ld)
    return list(dict.fromkeys(out))


def _discard_tiles(view: SeatView, discards: Sequence[Action], prior: Action, rules: RuleSet, plan: Plan) -> list[int]:
    """The discard tiles :func:`candidates` compares: the prior's tile, then (up to
    ``plan.discards`` in all) the others keeping the lowest shanten, the drawn tile first."""
    tiles = [int(prior.tile)] if prior.tile is not None and prior.kind in _TILE_CHOICES else []
    if plan.discards <= len(tiles):
        return tiles
    kinds = list(dict.fromkeys(int(a.tile or 0) for a in discards))
    sh = shanten_after_discards(keys_of(hand_counts(view)), len(view.melds), kinds)
    best = min(sh.values())
    for t in sorted((t for t in kinds if sh[t] == best), key=lambda t: t != view.drawn):
        if len(tiles) >= plan.discards:
            break
        if t not in tiles:
            tiles.append(t)
    return tiles


def choose(
    view: SeatView,
    legal: Sequence[Action],
    rng: random.Random,
    *,
    rules: RuleSet | None = None,
    playouts: int | None = None,
    moves: int | None = None,
    plan: Plan | None = None,
) -> Action:
    """The ``strong`` choice among ``legal`` (module docstring); ``rng`` draws the worlds.  The
    search is bounded by playout ``moves`` (default :func:`move_budget`; and ``playouts``, when
    given), not by time, so the choice is a function of the view, the legal actions, the rules and
    ``rng``'s state only — the same on any machine.  ``plan``: default :func:`plan_for` ``(rules)``."""
    rules = rules or _STANDARD_RULES
    if len(legal) == 1:
        return legal[0]
    plan = plan or plan_for(rules)
    prior = prior_choice(view, legal, rules, plan)
    if prior.kind is ActionKind.WIN and view.public.phase is Phase.TURN:
        return prior  # a 自摸 is never worth more later
    cands = candidates(view, legal, prior, rules, plan)
    if len(cands) == 1:
        return prior
    if moves is None:
        moves = move_budget(rules)
    stats = search(view, cands, rng, budget_ms=None, playouts=playouts, moves=moves, rules=rules)
    best = max(cands, key=lambda a: (sum(v is not None for v in stats[a].values), stats[a].mean()))
    if best == prior:
        return prior
    diff, se, n = _paired(stats[best], stats[prior])
    if n >= 2 and diff > plan.z * se:
        return best
    return prior


def prior_choice(view: SeatView, legal: Sequence[Action], rules: RuleSet, plan: Plan) -> Action:
    """The choice :func:`choose` starts from and keeps unless its search finds better (one of
    ``legal``, non-empty): the ``normal`` level's choice with ``plan.tuning``; with ``plan.ankong``, a 暗杠 instead of
    a discard whenever one is legal; with ``plan.langqi``, a plain discard becomes the 廊起 that
    ``normal`` picks among the ready discards when a 廊起 is legal (docs/rules.md §B)."""
    prior = choose_action(view, legal, Level.NORMAL, rules=rules, tuning=plan.tuning)
    if plan.ankong and prior.kind in _TILE_CHOICES:
        for a in legal:
            if a.kind is ActionKind.CONCEALED_KONG:
                return a
    if not plan.langqi or prior.kind is not ActionKind.DISCARD:
        return prior
    ready = {a.tile for a in legal if a.kind is ActionKind.LIANGDAO}
    if not ready:
        return prior
    sub = [a for a in legal if a.tile in ready and a.kind in _TILE_CHOICES]
    return choose_action(view, sub, Level.NORMAL, rules=rules, tuning=plan.tuning)
