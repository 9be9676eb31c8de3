"""Render requests and their keys: a message gets a new picture only when what it shows changes
(docs/architecture.md §4 "The screen model")."""

from __future__ import annotations

import pytest

from engine.game import ActionKind, legal_actions, public_view, replay, start, step, view_for
from engine.rules import RuleSet
from kwx_bot.service.screen.pictures import claim_key, hand_key, hand_table_key, table_key


@pytest.fixture(scope="module")
def state():
    return replay(start(RuleSet(), 0, seed="pictures"))


def test_photo_keys_follow_what_the_picture_shows(state):
    a = view_for(state, 0)
    assert hand_key(a) == hand_key(view_for(state, 0))
    assert hand_key(a) != hand_key(view_for(state, 1))
    assert table_key(public_view(state), ["A", "B", "C"]) != table_key(public_view(state), ["A", "B", "D"])


def test_the_hand_key_ignores_the_others_moves_and_the_table_key_follows_them(state):
    """Seat 1's discard leaves seat 2's tiles (so its photo key) alone, but not the table its
    picture would draw; the claim window's key stands apart from the tiles' key."""
    discard = next(a for a in legal_actions(state, state.turn) if a.kind is ActionKind.DISCARD)
    after, _ = step(state, discard)
    other = (state.turn + 2) % 3  # the seat that plays last after the discarder: its tiles stay
    before_view, after_view = view_for(state, other), view_for(after, other)
    assert hand_key(before_view) == hand_key(after_view)
    names = ["A", "B", "C"]
    assert hand_table_key(before_view.public, names) != hand_table_key(after_view.public, names)
    assert hand_table_key(after_view.public, names) == hand_table_key(view_for(after, other).public, names)
    assert hand_table_key(after_view.public, names) != hand_table_key(after_view.public, ["A", "B", "D"])
    key = hand_key(after_view)
    assert claim_key(key, 5) != key != claim_key(key, 6)


def test_photo_keys_include_the_language(state):
    view = view_for(state, 0)
    assert hand_key(view) == hand_key(view, "zh_CN") != hand_key(view, "en")
    assert table_key(public_view(state), ["A"], "en") != table_key(public_view(state), ["A"], "zh_CN")
