"""The 自摸 look-ahead (engine.ai.lookahead) and the prior that uses it at 1-shanten
(engine.ai.players ``Tuning.lookahead``)."""

from __future__ import annotations

import random

from engine.ai import Level, choose_action
from engine.ai.hand import pattern_value
from engine.ai.lookahead import HAZARD, RON_SHARE, discard_values
from engine.ai.players import Tuning
from engine.analysis import keys_of, shanten_keys
from engine.game import ActionKind, legal_actions, view_for
from engine.rules import RuleSet
from engine.tiles import counts_of, parse_tiles
from tests.engine.test_ai_strong import _positions

STANDARD = RuleSet.preset("standard")


def _hand(text: str) -> tuple[tuple[int, int, int, int], list[int], int]:
    counts = counts_of(int(t) for t in parse_tiles(text))
    keys = keys_of(counts)
    return keys, counts, shanten_keys(keys, 0)


def _only(tiles: str) -> list[int]:
    """Unseen counts holding just ``tiles``."""
    return counts_of(int(t) for t in parse_tiles(tiles))


def test_a_ready_hand_that_draws_its_wait_wins_its_fan_from_every_other_seat_if_nobody_won_first() -> None:
    hand = _hand("123p456p789p11s23s")  # ready on 1s / 4s: a 屁胡, which wins by 自摸 only
    counts = list(hand[1])
    counts[12] += 1
    fan = pattern_value(counts, keys_of(counts), (), 12, STANDARD)
    values = discard_values({0: hand}, (), STANDARD, _only("4s4s"), 5, 2, False, random.Random(1), 3)
    assert values == {0: fan * 2 * (1 - HAZARD) ** 2}  # the first draw wins, after one round of the others


def test_a_wait_of_two_fan_also_wins_on_the_others_discards() -> None:
    hand = _hand("123p789p1s1s4s6s5z5z5z")  # ready on 5s only: 卡五星, a win on a discard too
    counts = list(hand[1])
    counts[13] += 1
    fan = pattern_value(counts, keys_of(counts), (), 13, STANDARD)
    assert fan >= 2
    unseen = _only("5s5s1p1p")  # the wait is half of what the seat cannot see
    values = discard_values({0: hand}, (), STANDARD, unseen, 1, 2, False, random.Random(0), 400)
    # before its one draw each of the two others discards the wait with chance RON_SHARE * 1/2 (the
    # discarder pays the 番); then, if the hand is still on, its draw is the wait half the time
    ron = RON_SHARE * (fan / 2) * 2
    alive = (1 - RON_SHARE * 0.5 * 2) * (1 - HAZARD) ** 2
    assert abs(values[0] - (ron + alive * 0.5 * fan * 2)) < 0.1 * fan


def test_dead_waits_win_nothing_and_more_live_tiles_are_worth_more() -> None:
    ready = _hand("123p456p789p11s23s")
    assert discard_values({0: ready}, (), STANDARD, _only("5p5p6s6s"), 8, 2, False, random.Random(2), 16) == {0: 0.0}
    narrow = _hand("123p456p789p1s1s5z6z")  # 1-shanten: 1s, 5z and 6z help (8 tiles)
    wide = _hand("123p456p789p3s4s6s7s")  # 1-shanten: 2s to 8s help (24 tiles)
    assert narrow[2] == wide[2] == 1
    unseen = [4] * 18 + [0] * 9 + [4, 4, 4]
    for t in range(9):
        unseen[t] = 3  # the 筒 both hold
    values = discard_values({0: narrow, 1: wide}, (), STANDARD, unseen, 12, 2, False, random.Random(3), 200)
    assert values[1] > values[0] > 0.0


def test_the_same_arguments_give_the_same_values() -> None:
    hand = _hand("123p456p789p1s1s3s4s")
    unseen = [3] * 18 + [0] * 9 + [4, 4, 4]

    def run() -> dict[int, float]:
        return discard_values({0: hand}, (), STANDARD, unseen, 10, 2, False, random.Random(7), 32)

    assert run() == run()


def test_the_prior_with_the_lookahead_answers_legally_and_as_a_function_of_the_view() -> None:
    """Every turn of a hand: a legal action, the same on the same view; at 1-shanten it may differ
    from ``normal``'s choice, elsewhere it is ``normal``'s."""
    tuning = Tuning(lookahead=16)
    differed = 0
    states = [s for seed in ("lookahead-1", "lookahead-2", "lookahead-3") for s in _positions(STANDARD, seed, every=1)]
    for state in states:
        seat = state.to_act()[0]
        legal = legal_actions(state, seat)
        view = view_for(state, seat)
        chosen = choose_action(view, legal, Level.NORMAL, rules=STANDARD, tuning=tuning)
        assert chosen in legal
        assert choose_action(view, legal, Level.NORMAL, rules=STANDARD, tuning=tuning) == chosen
        normal = choose_action(view, legal, Level.NORMAL, rules=STANDARD)
        if chosen != normal:
            assert chosen.kind is ActionKind.DISCARD and view.shanten == 1
            differed += 1
    assert differed  # it does choose otherwise, one step from ready
