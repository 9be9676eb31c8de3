"""The service's adapter into the engine (kwx_bot.service.game): the whole hands shown at the end."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine.game import legal_actions, replay, start, step
from engine.game.scenario import run
from engine.rules import RuleSet
from kwx_bot.service.game import all_hands, hand_moments, hand_record, load_events


def test_all_hands_only_once_the_hand_is_over_and_every_tile_face_up():
    state = replay(start(RuleSet(), 0, seed="all-hands"))
    with pytest.raises(ValueError, match="not over"):
        all_hands(state)
    rng = random.Random(4)
    while state.result is None:
        state, _ = step(state, rng.choice(legal_actions(state, state.to_act()[0])))
    hands = all_hands(state)
    assert len(hands) == state.rules.players
    for seat, (tiles, melds) in enumerate(hands):
        assert sorted(tiles) == sorted(state.seats[seat].tiles())
        assert all(m.tile is not None for m in melds), "a 暗杠 too: the hand is over"
        assert len(tiles) + 3 * len(melds) in (13, 14)


def test_a_stored_log_from_before_declined_was_stored_still_loads_exports_and_replays():
    """A hand stored before ``discarded.declined`` existed (the store keeps event JSON): it is upgraded
    at load, so the table resumes with the declined win counted, ``/export`` finds its actions and
    ``/replay`` its moments (docs/architecture.md §2 "decide / evolve")."""
    path = Path(__file__).resolve().parents[3] / "tests" / "scenarios" / "guohu_declined_self_draw.json"
    scenario = json.loads(path.read_text(encoding="utf-8"))
    _, out = run(scenario)
    stored = [{k: v for k, v in d.items() if k != "declined"} for d in out["events"]]
    assert stored != out["events"]
    before_win = stored[: next(i for i, d in enumerate(stored) if d["type"] == "hand_ended") - 1]
    state, _ = load_events(before_win)
    assert state.seats[0].declined == 1
    final, events = load_events(stored)
    assert final.result is not None and final.result.hand_deltas == (16, 0, -16)
    assert [e.to_json() for e in events] == out["events"]
    assert hand_record(stored)["actions"] == scenario["actions"]
    assert hand_moments(stored)[-1].result == final.result
