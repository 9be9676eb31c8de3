"""A hand's record (engine.game.record): the actions recovered from the events alone replay through
``python -m engine play`` to the same events and result."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest

from engine.game import event_from_json, legal_actions, replay, start, step
from engine.game.events import Event
from engine.game.record import RecordError, actions_of, open_moments, public_moments, record
from engine.rules import RuleSet
from tests.engine.test_scenarios import run_play

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
GOLDEN = sorted(SCENARIOS.glob("*.out.json"))


def _random_hand(rules: RuleSet, seed: int) -> list[Event]:
    rng = random.Random(seed)
    events = start(rules, seed % rules.players, seed=f"record {seed}")
    state = replay(events)
    while not state.over:
        seat = rng.choice(state.to_act())
        state, new = step(state, rng.choice(legal_actions(state, seat)))
        events.extend(new)
    return events


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.name.removesuffix(".out.json"))
def test_golden_hands_replay_from_their_record(path: Path) -> None:
    out = json.loads(path.read_text(encoding="utf-8"))
    if out["exit"] != 0:
        return
    events = [event_from_json(e) for e in out["events"]]
    doc = record(events, description=path.name)
    code, again = run_play(doc)
    assert code == 0 and again["events"] == out["events"]
    assert again.get("result") == out.get("result") == doc["expect"].get("result")
    assert doc["expect"]["events"] == out["events"]


@pytest.mark.parametrize("preset", ["standard", "kaxinwu", "four_seats", "two_seats"])
def test_random_finished_hands_replay_to_the_same_payments(preset: str) -> None:
    rules = RuleSet.preset(preset)
    for seed in range(8):
        events = _random_hand(rules, seed)
        doc = record(events)
        assert "seed" in doc and "hands" not in doc
        code, again = run_play(json.loads(json.dumps(doc)))
        assert code == 0
        assert again["events"] == [e.to_json() for e in events]
        assert again["result"] == doc["expect"]["result"]
        assert again["result"]["deltas"] == list(events[-1].to_json()["deltas"])


def test_a_prepared_deal_is_written_with_its_hands_and_wall() -> None:
    events = [event_from_json(e) for e in json.loads((SCENARIOS / "g1_concealed_kong.out.json").read_text())["events"]]
    doc = record(events)
    assert "seed" not in doc and len(doc["hands"]) == 3 and doc["wall"]


def test_a_log_the_engine_cannot_reach_is_refused() -> None:
    events = _random_hand(RuleSet(), 3)
    with pytest.raises(RecordError, match="hand_started"):
        actions_of(events[1:])
    forged = events[:1] + events[2:]  # a choice dropped: the next events no longer follow
    with pytest.raises(RecordError, match="no legal action"):
        actions_of(forged)


@pytest.mark.parametrize("seed", range(6))
def test_public_moments_follow_every_visible_change_in_order(seed: int) -> None:
    events = _random_hand(RuleSet(), seed)
    views = public_moments(events)
    kinds = [e.type for e in events]
    visible = kinds.count("discarded") + kinds.count("ponged") + kinds.count("konged")
    assert kinds.count("discarded") <= len(views) - 1 <= visible + 1
    assert all(v.result is None for v in views[:-1]) and views[-1].result is not None
    for before, after in itertools.pairwise(views):
        assert before.seq < after.seq
        for a, b in zip(before.seats, after.seats, strict=True):
            tiles = [d.tile for d in b.discards]
            assert tiles[: len(a.discards)] == [d.tile for d in a.discards]  # ponds only grow (a claim dims)
            if not b.liangdao:
                assert b.revealed == ()  # nothing concealed is public before 亮倒


@pytest.mark.parametrize("seed", range(3))
def test_open_moments_are_the_public_moments_with_every_hand(seed: int) -> None:
    events = _random_hand(RuleSet(), seed)
    moments = open_moments(events)
    assert [view for view, _ in moments] == public_moments(events)
    for view, hands in moments:
        assert len(hands) == len(view.seats)
        for seat, (tiles, melds) in zip(view.seats, hands, strict=True):
            assert len(tiles) + 3 * len(melds) in (13, 14)
            assert [m.kind for m in melds] == [m.kind for m in seat.melds]
            assert all(m.tile is not None for m in melds)  # a concealed kong face up too
    with pytest.raises(RecordError, match="finished"):
        open_moments(events[:-1])  # a hand not over keeps its concealed tiles
