"""The ``strong`` AI (engine.ai.strong, engine.ai.sampling): worlds consistent with the view, a
decision that depends on the view only, legal answers for every decision kind, the evaluator."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from engine.ai import Level, choose_action
from engine.ai import strong as strong_ai
from engine.ai.players import Tuning
from engine.ai.rollout import easy_move
from engine.ai.sampling import sample_world
from engine.ai.selfplay import ai_agent, play_hand
from engine.game import Action, ActionKind, State, legal_actions, replay, start, step, view_for
from engine.rules import RuleSet
from engine.views import Phase, SeatView

PRESETS = ("standard", "two_seats", "four_seats", "kaxinwu")
FEW = 6  # playouts per test decision: enough to exercise the search, fast enough for a unit test


def _positions(rules: RuleSet, seed: str, every: int = 3) -> list[State]:
    """Stable states of one normal-vs-normal hand, every ``every``-th decision (phase TURN, CLAIM or ROB)."""
    agent = ai_agent(Level.NORMAL, rules)
    state = replay(start(rules, 0, seed=seed))
    out = []
    k = 0
    while not state.over:
        seat = state.to_act()[0]
        legal = legal_actions(state, seat)
        if k % every == 0 or state.phase is not Phase.TURN:
            out.append(state)
        k += 1
        state, _ = step(state, agent(view_for(state, seat), legal, random.Random(k)))
    return out


@pytest.mark.parametrize("preset", PRESETS)
def test_sampled_worlds_show_the_seat_exactly_its_view(preset: str) -> None:
    """A sampled world gives the seat the same view and the same legal actions, holds four of every
    tile, and differs in the hidden tiles from world to world."""
    rules = RuleSet.preset(preset)
    rng = random.Random(3)
    differ = 0
    checked = 0
    for h in range(8):
        for state in _positions(rules, f"world-{preset}-{h}"):
            seat = state.to_act()[0]
            view = view_for(state, seat)
            world = sample_world(view, rules, rng)
            assert view_for(world, seat) == view
            assert legal_actions(world, seat) == legal_actions(state, seat)
            counts = world.tile_counts()
            assert all(counts[t] == 4 for t in world.kinds) and sum(counts) == 4 * len(world.kinds)
            differ += world.wall[world.front : world.back] != state.wall[state.front : state.back]
            checked += 1
    assert checked > 20 and differ > checked // 2


def _decide(view: SeatView, legal: Sequence[Action], rules: RuleSet, seed: int) -> Action:
    return strong_ai.choose(view, legal, random.Random(seed), rules=rules, playouts=FEW)


@pytest.mark.parametrize("preset", ["standard", "kaxinwu"])
def test_decision_depends_on_the_view_only(preset: str) -> None:
    """Two states that differ only in tiles the seat cannot see (the other hands, the wall) give
    the same action and the same evaluation with the same random seed."""
    rules = RuleSet.preset(preset)
    rng = random.Random(5)
    searched = 0
    for h in range(2):
        for state in _positions(rules, f"view-only-{preset}-{h}", every=4):
            seat = state.to_act()[0]
            view = view_for(state, seat)
            other = sample_world(view, rules, rng)
            assert other.seats != state.seats or other.wall != state.wall
            legal = legal_actions(state, seat)
            assert legal_actions(other, seat) == legal
            a1 = _decide(view, legal, rules, 17)
            a2 = _decide(view_for(other, seat), legal, rules, 17)
            assert a1 == a2 and a1 in legal
            if len(legal) > 1:
                e1 = strong_ai.evaluate(view, legal, random.Random(9), budget_ms=None, playouts=FEW, rules=rules)
                e2 = strong_ai.evaluate(
                    view_for(other, seat), legal, random.Random(9), budget_ms=None, playouts=FEW, rules=rules
                )
                assert e1 == e2
                searched += 1
    assert searched >= 5


@pytest.mark.parametrize("preset", PRESETS)
def test_strong_answers_every_decision_kind_legally(preset: str) -> None:
    """Whole hands with a strong seat at every seat count and in 卡心五: every answer is one of the
    legal actions, and every kind of decision came up."""
    rules = RuleSet.preset(preset)
    normal = ai_agent(Level.NORMAL, rules)
    seen: set[str] = set()

    def agent(view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action:
        a = strong_ai.choose(view, legal, rng, rules=rules, playouts=FEW)
        assert a in legal
        seen.update(_kind_of_view(view, legal))
        return a

    for h in range(6 if preset != "two_seats" else 10):
        agents = [agent, agent] + [normal] * (rules.players - 2)
        state, _events, _counters = play_hand(rules, agents, f"kinds-{preset}-{h}", random.Random(h), check=True)
        assert state.over
    assert {"discard", "claim", "pong"} <= seen, seen
    assert "liangdao" in seen or preset == "four_seats", seen


def _kind_of_view(view: SeatView, legal: Sequence[Action]) -> set[str]:
    kinds = {a.kind for a in legal}
    out = {"discard"} if view.public.phase is Phase.TURN else {"claim"}
    for kind, name in (
        (ActionKind.LIANGDAO, "liangdao"),
        (ActionKind.CONCEALED_KONG, "own kong"),
        (ActionKind.ADDED_KONG, "own kong"),
        (ActionKind.PONG, "pong"),
        (ActionKind.KONG, "kong"),
        (ActionKind.WIN, "win"),
    ):
        if kind in kinds:
            out.add(name)
    return out


def test_choose_action_dispatches_to_strong() -> None:
    rules = RuleSet()
    state = _positions(rules, "dispatch")[2]
    seat = state.to_act()[0]
    legal = legal_actions(state, seat)
    a = choose_action(view_for(state, seat), legal, Level.STRONG, random.Random(1), rules=rules)
    assert a in legal
    assert Level("strong") is Level.STRONG


def test_evaluate_values_every_legal_action() -> None:
    """The evaluator answers a float for each legal action (a dict keyed by the actions), ranks a
    winning 胡 above passing it, and refuses an empty list."""
    rules = RuleSet()
    for h in range(40):
        for state in _positions(rules, f"eval-{h}", every=100):
            if state.phase is not Phase.CLAIM:
                continue
            seat = state.to_act()[0]
            legal = legal_actions(state, seat)
            if legal[0].kind is not ActionKind.WIN:
                continue
            values = strong_ai.evaluate(view_for(state, seat), legal, random.Random(2), budget_ms=None, playouts=24)
            assert set(values) == set(legal) and all(isinstance(v, float) for v in values.values())
            win = values[legal[0]]
            assert win >= 2.0  # a legal 胡 on a discard is worth at least 2 (docs/rules.md §A8.2)
            if any(a.kind is ActionKind.PASS for a in legal):
                assert win > values[next(a for a in legal if a.kind is ActionKind.PASS)]
            with pytest.raises(ValueError):
                strong_ai.evaluate(view_for(state, seat), [], random.Random(2))
            return
    pytest.fail("no claim window with a win found")  # pragma: no cover


def test_a_forced_choice_is_not_searched() -> None:
    """One legal action: answered at once (no world sampled)."""
    rules = RuleSet()
    state = _positions(rules, "forced")[0]
    seat = state.to_act()[0]
    legal = legal_actions(state, seat)[:1]
    rng = random.Random(4)
    before = rng.getstate()
    assert strong_ai.choose(view_for(state, seat), legal, rng, rules=rules) == legal[0]
    assert rng.getstate() == before


@pytest.mark.parametrize("preset", PRESETS)
def test_playout_policy_is_the_easy_level(preset: str) -> None:
    """The playouts' fast reading of a state (engine.ai.rollout) makes exactly the easy level's
    move, seen through the seat's view and its legal actions, at every decision of easy hands."""
    rules = RuleSet.preset(preset)
    checked = 0
    for h in range(8):
        state = replay(start(rules, h % rules.players, seed=f"rollout-{preset}-{h}"))
        while not state.over:
            seat = state.to_act()[0]
            legal = legal_actions(state, seat)
            want = choose_action(view_for(state, seat), legal, Level.EASY, rules=rules)
            assert easy_move(state, seat, True) == want
            without = [a for a in legal if a.kind is not ActionKind.LIANGDAO]
            assert easy_move(state, seat, False) == choose_action(
                view_for(state, seat), without, Level.EASY, rules=rules
            )
            checked += 1
            state, _ = step(state, want)
    assert checked > 100


def test_a_face_down_kong_of_a_liangdao_seat_is_never_one_of_its_waits() -> None:
    """A 廊起 seat never waits on a tile it holds four of (docs/rules.md §E#48), so the kind drawn for
    its face-down 暗杠 is never one of its published waits (else the world's 查叫 would score a fifth
    copy).  Seed ak-18 (卡心五, normal play): seat 0 has 廊起 and a 暗杠 from the 20th decision on."""
    rules = RuleSet.from_json({"preset": "kaxinwu", "players": 4})
    agent = ai_agent(Level.NORMAL, rules)
    state = replay(start(rules, 0, seed="ak-18"))
    for k in range(20):
        seat = state.to_act()[0]
        state, _ = step(state, agent(view_for(state, seat), legal_actions(state, seat), random.Random(k)))
    ld = state.seats[0]
    assert ld.liangdao and any(m.tile is not None and m.kind.name == "CONCEALED_KONG" for m in ld.melds)
    seat = state.to_act()[0]
    assert seat != 0
    view = view_for(state, seat)
    rng = random.Random(0)
    for _ in range(200):
        world = sample_world(view, rules, rng)
        held = world.seats[0]
        for w in held.waits:
            assert held.hand[w] + held.meld_count(w) < 4


def test_the_plan_per_table() -> None:
    """卡五星, every table: no 亮倒 over a plain discard, and at 3 and 4 seats a 暗杠 whenever legal
    and less defence (0.3, 0.15); 卡心五: a 廊起 whenever legal at 4 seats, the first plan (亮倒 /
    廊起 twins weighed) at 2 and 3; the normal tile and two standard errors everywhere."""
    assert strong_ai.plan_for(RuleSet.preset("two_seats")) == strong_ai.Plan(declare=False)
    for preset, defence in (("standard", 0.3), ("four_seats", 0.15)):
        plan = strong_ai.plan_for(RuleSet.preset(preset))
        assert plan == strong_ai.Plan(declare=False, ankong=True, tuning=Tuning(defence=defence))
    assert strong_ai.plan_for(RuleSet.preset("kaxinwu")) == strong_ai.Plan(langqi=True)
    first = strong_ai.Plan()
    assert (first.discards, first.z, first.declare, first.langqi, first.ankong) == (1, 2.0, True, False, False)
    assert first.tuning == Tuning()
    for players in (2, 3):
        assert strong_ai.plan_for(RuleSet.from_json({"preset": "kaxinwu", "players": players})) == first


def test_the_prior_declares_a_concealed_kong_whenever_the_plan_says_so() -> None:
    """With ``ankong`` the prior is a legal 暗杠 wherever one is offered on a turn — also where
    ``normal`` (which never raises its shanten for a kong) discards instead, unless it may win (a
    自摸 first); without it, normal's choice with the plan's tuning."""
    rules = RuleSet()
    on, off = strong_ai.plan_for(rules), strong_ai.Plan(declare=False, tuning=Tuning(defence=0.3))
    agent = ai_agent(Level.NORMAL, rules)
    offered = overruled = 0
    for h in range(60):
        state = replay(start(rules, h % 3, seed=f"ankong-{h}"))
        while not state.over:
            seat = state.to_act()[0]
            view, legal = view_for(state, seat), legal_actions(state, seat)
            kongs = [a for a in legal if a.kind is ActionKind.CONCEALED_KONG]
            if kongs and not state.seats[seat].liangdao:
                prior = strong_ai.prior_choice(view, legal, rules, on)
                normal = choose_action(view, legal, Level.NORMAL, rules=rules, tuning=off.tuning)
                assert strong_ai.prior_choice(view, legal, rules, off) == normal
                if any(a.kind is ActionKind.WIN for a in legal):  # a 自摸 comes first
                    assert prior.kind is ActionKind.WIN
                else:
                    offered += 1
                    assert prior in kongs
                    overruled += normal.kind is not ActionKind.CONCEALED_KONG
            state, _ = step(state, agent(view, legal, random.Random(h)))
    assert offered >= 1 and overruled >= 1


def _ready_decisions(rules: RuleSet, seeds: int) -> list[tuple[SeatView, list[Action], Action]]:
    """(view, legal, normal's choice) of the turns of normal hands where a 亮倒 / 廊起 is legal."""
    agent = ai_agent(Level.NORMAL, rules)
    out = []
    for h in range(seeds):
        state = replay(start(rules, h % rules.players, seed=f"ready-{h}"))
        while not state.over:
            seat = state.to_act()[0]
            view, legal = view_for(state, seat), legal_actions(state, seat)
            a = agent(view, legal, random.Random(h))
            if any(x.kind is ActionKind.LIANGDAO for x in legal) and not state.seats[seat].liangdao:
                out.append((view, legal, a))
            state, _ = step(state, a)
    return out


def test_candidates_leave_out_the_liangdao_of_a_plain_discard_when_the_plan_says_so() -> None:
    """With ``declare`` off, a plain discard of normal is compared with other discards only; a 亮倒
    of normal is still compared with its plain discard; with ``declare`` on, the 亮倒 twin is in."""
    rules = RuleSet()
    off, on = strong_ai.Plan(discards=3, declare=False), strong_ai.Plan(discards=3, declare=True)
    plain = declared = 0
    for view, legal, prior in _ready_decisions(rules, 30):
        without = strong_ai.candidates(view, legal, prior, rules, off)
        with_twins = strong_ai.candidates(view, legal, prior, rules, on)
        assert without[0] == prior and set(without) <= set(with_twins) <= set(legal)
        if prior.kind is ActionKind.DISCARD:
            assert all(a.kind is not ActionKind.LIANGDAO for a in without)
            plain += any(a.kind is ActionKind.LIANGDAO for a in with_twins)
        elif prior.kind is ActionKind.LIANGDAO:
            assert any(a.kind is ActionKind.DISCARD and a.tile == prior.tile for a in without)
            declared += 1
    assert plain >= 1 and declared >= 1


def test_at_four_seats_of_kaxinwu_strong_takes_a_langqi_whenever_one_is_legal() -> None:
    """卡心五, 4 seats: where a 廊起 is legal the strong level's prior is a 廊起 — normal's own when
    it declares, else the one normal picks among the ready discards."""
    rules = RuleSet.preset("kaxinwu")
    plan = strong_ai.plan_for(rules)
    missed = 0
    for view, legal, normal in _ready_decisions(rules, 12):
        prior = strong_ai.prior_choice(view, legal, rules, plan)
        assert prior.kind is ActionKind.LIANGDAO and prior in legal
        if normal.kind is ActionKind.DISCARD:
            missed += 1
        else:
            assert prior == normal
    assert missed >= 1
