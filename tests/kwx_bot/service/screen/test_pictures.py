"""Render requests and their keys: a message gets a new picture only when what it shows changes
(docs/architecture.md §4 "The screen model")."""

from __future__ import annotations

import pytest

from engine.game import ActionKind, legal_actions, public_view, replay, start, step, view_for
from engine.rules import RuleSet, Ruleset
from kwx_bot.service.screen.pictures import HandPicture, claim_key, hand_key, hand_table_key, table_key
from kwx_bot.webapp.static_routes import words_json
from kwx_bot.words.pictures import picture_words
from render.hand import hand_canvas


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


@pytest.mark.parametrize("preset", ["two_seats", None, "four_seats"], ids=["two", "three", "four"])
def test_a_hand_pictures_json_says_where_each_seat_sits_in_the_pictures_words(preset: str | None) -> None:
    """Per seat, the word the hand picture draws beside its name (下家 / 对家 / 上家, docs/rules.md
    §A2.3), as the field of the labels the page is given (``/webapp/words``): the page draws exactly
    the picture's words, from the picture's own rule."""
    rules = RuleSet.preset(preset) if preset else RuleSet()
    names = ("Ann", "Ben", "Cat", "Dan")[: rules.players]
    state = replay(start(rules, 1, seed="relative"))
    for seat in range(rules.players):
        view = view_for(state, seat)
        relative = HandPicture(view, names, "zh_CN", Ruleset.KAWUXING).to_json()["relative"]
        assert len(relative) == rules.players and relative[seat] == ""
        for lang in ("zh_CN", "en"):
            labels = words_json(lang)["labels"]
            drawn = {p.seat: p.text for p in hand_canvas(view, picture_words(lang), names=names).find("relative_text")}
            assert {s: labels[w] for s, w in enumerate(relative) if w} == drawn
    assert (
        HandPicture(view_for(state, 0), names, "en", Ruleset.KAWUXING).to_json()["relative"][1:]
        == ({2: ["across"], 3: ["next_seat", "previous"], 4: ["next_seat", "across", "previous"]}[rules.players])
    )
