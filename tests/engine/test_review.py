"""engine.review: every decision judged from the acting seat's view at that moment, and only those
where the evaluator would have played otherwise reported, with the loss it estimates."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Sequence
from dataclasses import replace

import pytest

from engine.game import Action, ActionKind, ClaimOption, legal_actions, replay, start, step, view_for
from engine.game.events import Event
from engine.game.record import record
from engine.game.scenario import parse_scenario
from engine.review import (
    MIN_LOSS,
    ActionRefused,
    InputError,
    decision_view,
    default_evaluator,
    normal_ranking,
    review,
    review_scenario,
)
from engine.rules import RuleSet
from engine.views import SeatView


def _random_hand(rules: RuleSet, seed: int) -> list[Event]:
    rng = random.Random(seed)
    events = start(rules, seed % rules.players, seed=f"review {seed}")
    state = replay(events)
    while not state.over:
        seat = rng.choice(state.to_act())
        state, new = step(state, rng.choice(legal_actions(state, seat)))
        events.extend(new)
    return events


def _lowest_tile(
    view: SeatView, legal: Sequence[Action], rng: random.Random, *, budget_ms: float = 80.0
) -> dict[Action, float]:
    """A small deterministic evaluator: an action is worth minus its tile's number (过 -0.5, the other
    tile-less acts -0.25), so the lowest tile is always suggested and a claim is preferred to 过."""
    return {a: -(int(a.tile) if a.tile is not None else 0.5 if a.kind is ActionKind.PASS else 0.25) for a in legal}


def test_reports_exactly_the_decisions_the_evaluator_would_have_played_otherwise() -> None:
    rules = RuleSet()
    events = _random_hand(rules, 1)
    doc = record(events)
    start_events, actions = parse_scenario(doc)
    result = review(start_events, actions, _lowest_tile, name="lowest")
    state = replay(start_events)
    expected = []
    made = [0] * rules.players
    for i, a in enumerate(actions):
        legal = legal_actions(state, a.seat)
        if len(legal) > 1:
            made[a.seat] += 1
            values = _lowest_tile(decision_view(state, a.seat), legal, random.Random(0))
            best = max(values.values())
            if values[a] != best:
                expected.append((i, a.seat, best - values[a]))
        state, _ = step(state, a)
    assert expected, "a random hand has decisions the lowest-tile evaluator differs on"
    assert [(d.index, d.seat, d.loss) for d in result.decisions] == expected
    for d in result.decisions:
        assert d.played == actions[d.index] and d.suggested in d.legal and d.suggested != d.played
    assert [s.decisions for s in result.seats] == made
    for s in result.seats:
        mine = [d for d in result.decisions if d.seat == s.seat]
        assert s.differed == len(mine) and s.lost == pytest.approx(sum(d.loss or 0 for d in mine))
    assert result.evaluator == "lowest" and result.complete


class _Spy:
    """The lowest-tile evaluator that keeps every view it is given."""

    def __init__(self, seen: list[SeatView]) -> None:
        self.seen = seen

    def __call__(
        self, view: SeatView, legal: Sequence[Action], rng: random.Random, *, budget_ms: float = 80.0
    ) -> dict[Action, float]:
        self.seen.append(view)
        return _lowest_tile(view, legal, rng)


@pytest.mark.parametrize("preset", ["standard", "kaxinwu", "four_seats", "two_seats"])
def test_the_evaluator_sees_only_the_acting_seats_view_at_that_moment(preset: str) -> None:
    rules = RuleSet.preset(preset)
    for seed in range(6):
        events = _random_hand(rules, seed)
        start_events, actions = parse_scenario(record(events))
        seen: list[SeatView] = []
        review(start_events, actions, _Spy(seen))
        state = replay(start_events)
        expected = []
        for a in actions:
            if len(legal_actions(state, a.seat)) > 1:
                view = decision_view(state, a.seat)
                assert view.seat == a.seat
                assert view.public.to_act == ((a.seat,) if state.window is not None else state.to_act())
                expected.append(view)
            state, _ = step(state, a)
        once = [v for k, v in enumerate(seen) if k == 0 or v != seen[k - 1]]  # a differing one is asked again
        assert once == expected
        for view in seen:  # another seat's concealed tiles never appear: only counts and reveals
            assert all(s.revealed == () or s.liangdao for s in view.public.seats)


def test_in_a_window_asking_several_seats_each_sees_only_itself_asked() -> None:
    rules = RuleSet()
    events = start(rules, 0, seed="review window")
    state = replay(events)
    while state.window is None:
        seat = state.to_act()[0]
        state, _ = step(state, legal_actions(state, seat)[-1])
    window = state.window
    asked = window.options[0].seat
    other = next(s for s in range(rules.players) if s not in (asked, window.from_seat))
    two = replace(state, window=replace(window, options=(*window.options, ClaimOption(other, 0, False, True))))
    assert set(two.to_act()) == {asked, other}
    assert decision_view(two, asked).public.to_act == (asked,)
    assert decision_view(two, other).public.to_act == (other,)
    assert view_for(two, asked).public.to_act == two.to_act()  # what the plain view would have told


def test_seats_filter_and_the_same_input_gives_the_same_review() -> None:
    doc = record(_random_hand(RuleSet(), 2))
    name_eval = ("lowest", _lowest_tile)
    whole = review_scenario(doc, evaluator=name_eval)
    one = review_scenario(doc, seats=(1,), evaluator=name_eval)
    assert [d.to_json() for d in one.decisions] == [d.to_json() for d in whole.decisions if d.seat == 1]
    assert [s.seat for s in one.seats] == [1]
    assert review_scenario(doc, evaluator=name_eval).to_json() == whole.to_json()
    assert json.loads(json.dumps(whole.to_json())) == whole.to_json()


def test_worst_picks_the_costliest_in_hand_order() -> None:
    doc = record(_random_hand(RuleSet(), 3))
    result = review_scenario(doc, evaluator=("lowest", _lowest_tile))
    seat = max(result.seats, key=lambda s: s.differed).seat
    mine = [d for d in result.decisions if d.seat == seat]
    worst = result.worst(seat, 3)
    assert len(worst) == min(3, len(mine))
    assert [d.index for d in worst] == sorted(d.index for d in worst)
    cut = sorted((d.loss or 0 for d in mine), reverse=True)[: len(worst)]
    assert sorted((d.loss or 0 for d in worst), reverse=True) == cut


def test_a_deadline_passed_stops_evaluating_and_says_so() -> None:
    doc = record(_random_hand(RuleSet(), 4))
    result = review_scenario(doc, evaluator=("lowest", _lowest_tile), deadline=time.monotonic() - 1)
    assert not result.complete and result.decisions == ()
    assert sum(s.decisions for s in result.seats) > 0


def test_the_normal_ranking_fallback_estimates_no_loss() -> None:
    rules = RuleSet()
    doc = record(_random_hand(rules, 5))
    result = review_scenario(doc, evaluator=("normal", normal_ranking(rules)))
    assert result.decisions and all(d.loss is None for d in result.decisions)
    name, _evaluate = default_evaluator(rules)
    assert name == "strong"  # this build has the strong AI


def test_the_strong_review_depends_on_its_input_only() -> None:
    """Bounded by playouts, not by time: the same hand gives the same review, loaded machine or not,
    and every reported loss is above the noise floor."""
    doc = record(_random_hand(RuleSet(), 7))
    first = review_scenario(doc, seats=(0,), playouts=6)
    assert first.evaluator == "strong" and first.to_json() == review_scenario(doc, seats=(0,), playouts=6).to_json()
    assert all(d.loss is not None and d.loss >= MIN_LOSS for d in first.decisions)


def test_refused_actions_and_foreign_seats() -> None:
    doc = record(_random_hand(RuleSet(), 6))
    doc["actions"][3] = {"seat": doc["actions"][3]["seat"], "act": "pong"}
    with pytest.raises(ActionRefused) as info:
        review_scenario(doc, evaluator=("lowest", _lowest_tile))
    assert info.value.index == 3
    with pytest.raises(InputError):
        review_scenario(record(_random_hand(RuleSet(), 6)), seats=(3,), evaluator=("lowest", _lowest_tile))


def test_a_claim_left_is_judged_like_any_other_decision() -> None:
    rules = RuleSet()
    for seed in range(20):
        start_events, actions = parse_scenario(record(_random_hand(rules, seed)))
        result = review(start_events, actions, _lowest_tile)
        if any(d.played.kind is ActionKind.PASS for d in result.decisions):
            return
    pytest.fail("no pass was ever reported")  # pragma: no cover


def test_only_the_judged_actions_are_reviewed_and_counted() -> None:
    """A move made for a seat (a time-out, 托管) is not its player's decision: given the seqs of the
    first events of the actions a person chose, only those are judged."""
    events = _random_hand(RuleSet(), 8)
    start_events, actions = parse_scenario(record(events))
    whole = review(start_events, actions, _lowest_tile)
    state, firsts = replay(start_events), []
    for a in actions:
        firsts.append(state.seq + 1)
        state, _ = step(state, a)
    judged = set(firsts[::2])  # every other action was the person's
    part = review(start_events, actions, _lowest_tile, judged=judged)
    assert [d.index for d in part.decisions] == [d.index for d in whole.decisions if d.index % 2 == 0]
    assert sum(s.decisions for s in part.seats) < sum(s.decisions for s in whole.seats)
    assert review(start_events, actions, _lowest_tile, judged=set()).seats[0].decisions == 0


def test_a_difference_is_measured_again_for_the_two_alone() -> None:
    """The best of many noisy values is biased upwards: a differing decision's loss is the fresh
    comparison of the played and the suggested action alone, and no difference there is no loss."""

    def noisy(view: SeatView, legal: Sequence[Action], rng: random.Random, *, budget_ms: float = 80.0) -> dict:
        values = _lowest_tile(view, legal, rng)
        return values if len(legal) > 2 else dict.fromkeys(legal, 0.0)  # alone, the two are worth the same

    def halved(view: SeatView, legal: Sequence[Action], rng: random.Random, *, budget_ms: float = 80.0) -> dict:
        values = _lowest_tile(view, legal, rng)
        return values if len(legal) > 2 else {a: v / 2 for a, v in values.items()}

    start_events, actions = parse_scenario(record(_random_hand(RuleSet(), 9)))
    assert review(start_events, actions, noisy).decisions == ()
    first = review(start_events, actions, _lowest_tile)
    again = review(start_events, actions, halved)
    wide = {d.index: d.loss or 0.0 for d in first.decisions if len(d.legal) > 2}
    halves = {d.index: d.loss for d in again.decisions if d.index in wide}
    assert wide and halves == {i: pytest.approx(v / 2) for i, v in wide.items() if v / 2 >= 0.1}
