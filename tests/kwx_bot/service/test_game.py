"""The service's adapter into the engine (kwx_bot.service.game): the whole hands shown at the end."""

from __future__ import annotations

import random

import pytest

from engine.game import legal_actions, replay, start, step
from engine.rules import RuleSet
from kwx_bot.service.game import all_hands


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
