"""Seats are a rule (``rules.players``: 2, 3 or 4; docs/rules.md §A2.1): deal, presets, the command-line
contracts at other table sizes, kong money, seating blocks and small self-play runs with checks.

The scenario files ``tests/scenarios/p2_*`` and ``p4_*`` cover whole hands (一炮多响, 荒庄, dealer).
"""

from __future__ import annotations

import io
import json
import random
from math import factorial
from pathlib import Path

import pytest

from engine.ai import Level
from engine.ai.selfplay import PERMUTATIONS, play_hand, seatings, simulate
from engine.cli_score import main as score_main
from engine.cli_simulate import main as simulate_main
from engine.game import check_rules, kinds_for, replay, start
from engine.game.actions import action_from_json
from engine.game.basics import kong_money
from engine.game.scenario import main as play_main
from engine.game.shuffle import deal, shuffled
from engine.rules import RuleError, RuleSet
from engine.tiles import MeldKind, Tile, parse_tile, parse_tiles

TWO = RuleSet.preset("two_seats")
FOUR = RuleSet.preset("four_seats")
SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
W1_KWX = "123p789p234s46s88s"  # 卡五星 wait on 5s (docs/rules.md §D D08)


def run_play(obj: object) -> tuple[int, dict[str, object]]:
    out = io.StringIO()
    code = play_main([], io.StringIO(json.dumps(obj)), out)
    return code, json.loads(out.getvalue())


def run_score(obj: object) -> tuple[int, dict[str, object]]:
    out = io.StringIO()
    code = score_main([], io.StringIO(json.dumps(obj)), out)
    return code, json.loads(out.getvalue())


def run_simulate(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = simulate_main(list(argv), io.StringIO(), out)
    return code, out.getvalue()


# ---------------------------------------------------------------------- rules


def test_presets_and_tile_sets() -> None:
    assert (TWO.players, len(kinds_for(TWO)) * 4) == (2, 84)
    assert (FOUR.players, FOUR.suits, len(kinds_for(FOUR)) * 4) == (4, ("p", "s", "m"), 120)
    assert RuleSet().players == 3
    assert RuleSet.from_json({"players": 2}) == TWO
    assert RuleSet.from_json({"preset": "standard", "players": 4, "suits": "msp"}) == FOUR
    assert FOUR.preset_name() == "four_seats" and TWO.preset_name() == "two_seats"
    assert parse_tile("9m") in kinds_for(FOUR) and parse_tile("9m") not in kinds_for(TWO)


@pytest.mark.parametrize("raw", [["p", "s", "m", "p"], ["p"], "pp", ["s", "z"], 3])
def test_suits_are_two_or_three_different_numbered_suits(raw: object) -> None:
    with pytest.raises(RuleError, match="'suits'"):
        RuleSet.from_json({"suits": raw})


def test_check_rules_refuses_another_table_size() -> None:
    check_rules(FOUR)
    check_rules(FOUR, seats=4)
    with pytest.raises(RuleError, match="'players' = 4 is not supported here: this table has 3 seats"):
        check_rules(FOUR, seats=3)


# ---------------------------------------------------------------------- deal


@pytest.mark.parametrize(("rules", "wall"), [(TWO, 84 - 27), (RuleSet(), 84 - 40), (FOUR, 120 - 53)])
def test_seeded_deal_gives_13_each_and_the_dealer_14(rules: RuleSet, wall: int) -> None:
    n = rules.players
    for dealer in range(n):
        state = replay(start(rules, dealer, seed=f"seats {n}"))
        assert len(state.seats) == n
        assert [s.concealed_count for s in state.seats] == [14 if i == dealer else 13 for i in range(n)]
        assert state.wall_remaining == wall
        assert state.tile_counts() == [4 if Tile(t) in state.kinds else 0 for t in range(30)]


def test_four_seat_deal_follows_the_documented_algorithm() -> None:
    kinds = kinds_for(FOUR)
    t = shuffled("seed 004", kinds)
    hands, wall = deal("seed 004", 3, kinds, 4)
    assert sorted(hands[3][:13]) == sorted(t[0:13]) and hands[3][13] == t[52]
    assert sorted(hands[0]) == sorted(t[13:26])
    assert sorted(hands[1]) == sorted(t[26:39])
    assert sorted(hands[2]) == sorted(t[39:52])
    assert wall == tuple(t[53:]) and len(wall) == 67


def test_a_three_seat_seed_deals_what_it_always_dealt() -> None:
    golden = json.loads((SCENARIOS / "seeded_hand.out.json").read_text(encoding="utf-8"))["events"][0]
    dealt = start(RuleSet(), 0, seed="kwx golden 1")[0].to_json()
    assert (dealt["hands"], dealt["wall"]) == (golden["hands"], golden["wall"])
    # the same shuffle at two seats: seat 1 is dealt the same 13 tiles, the wall keeps the same tail
    state = replay(start(RuleSet(), 0, seed="kwx golden 1"))
    two = replay(start(TWO, 0, seed="kwx golden 1"))
    assert two.seats[1].tiles() == state.seats[1].tiles()
    assert two.wall[-len(state.wall) :] == state.wall


def test_start_checks_seats_against_the_rules() -> None:
    with pytest.raises(ValueError, match=r"dealer must be a seat 0, 1, 2 or 3, got 4"):
        start(FOUR, 4, seed="x")
    with pytest.raises(ValueError, match=r"dealer must be a seat 0 or 1, got 2"):
        start(TWO, 2, seed="x")
    hands = [parse_tiles("1111222233335p"), parse_tiles("5555666677778p")]
    with pytest.raises(ValueError, match="hands must list 4 seats, got 2"):
        start(FOUR, 0, hands=hands, wall=[])


def test_kong_money_is_paid_by_every_other_seat() -> None:
    assert kong_money(FOUR, MeldKind.ADDED_KONG, 1, None, 1) == (-1, 3, -1, -1)
    assert kong_money(FOUR, MeldKind.CONCEALED_KONG, 3, None, 2) == (-4, -4, -4, 12)
    assert kong_money(FOUR, MeldKind.KONG, 2, 0, 1) == (-2, 0, 2, 0)
    assert kong_money(TWO, MeldKind.CONCEALED_KONG, 0, None, 1) == (2, -2)


# ---------------------------------------------------------------------- play


def test_play_keeps_the_three_seat_messages() -> None:
    assert run_play({"seed": "x", "dealer": 3}) == (2, {"error": "dealer must be 0, 1 or 2, got 3"})
    code, out = run_play({"hands": ["", ""], "wall": ""})
    assert (code, out) == (2, {"error": "'hands' must be a list of 3 tile strings (seat order), or give a 'seed'"})
    code, out = run_play({"seed": "x", "actions": [{"seat": 3, "act": "pass"}]})
    assert (code, out) == (2, {"error": "action 0: action seat must be 0, 1 or 2, got 3"})


def test_play_at_four_seats() -> None:
    assert run_play({"rules": "four_seats", "seed": "x", "dealer": 4})[1] == {
        "error": "dealer must be 0, 1, 2 or 3, got 4"
    }
    code, out = run_play({"rules": "four_seats", "hands": ["", "", ""], "wall": ""})
    assert (code, out) == (2, {"error": "'hands' must be a list of 4 tile strings (seat order), or give a 'seed'"})
    code, out = run_play({"rules": "four_seats", "seed": "x", "dealer": 3, "actions": [{"seat": 3, "act": "pass"}]})
    assert code == 2 and out["error"] == {
        "index": 0,
        "reason": "no_claim_pending",
        "message": "there is no discard to pass: seat 3 is playing its turn",
    }
    assert action_from_json({"seat": 3, "act": "pass"}, 4).seat == 3
    with pytest.raises(ValueError, match="action seat must be 0 or 1, got 2"):
        action_from_json({"seat": 2, "act": "pass"}, 2)


# ---------------------------------------------------------------------- score


def test_score_answers_one_delta_per_seat() -> None:
    q = {"concealed": W1_KWX, "win_tile": "5s", "win_by": "self_draw", "winner": 3}
    code, out = run_score({**q, "rules": {"players": 4}})
    assert code == 0 and out["deltas"] == [-2, -2, -2, 6] and out["fans"] == ["卡五星"]
    code, out = run_score({**q, "winner": 1, "rules": "two_seats"})
    assert code == 0 and out["deltas"] == [-2, 2]
    code, out = run_score({**q, "winner": 3})
    assert code == 2 and "winner must be a seat 0..2" in str(out["error"])
    code, out = run_score({**q, "rules": "two_seats", "winner": 0, "liangdao": [False, False, True]})
    assert (code, out) == (2, {"error": "'liangdao' has 3 entries; there are 2 seats"})


def test_baohu_at_four_seats_pays_every_other_share() -> None:
    # docs/rules.md §A9.7: the winner has 亮倒, the discarder has not — the discarder pays the share of
    # each of the three other seats: 卡五星 ×2 × 亮倒 ×2 = 4 each, 12 in all
    q = {
        "rules": {"players": 4},
        "concealed": W1_KWX,
        "win_tile": "5s",
        "win_by": "discard",
        "winner": 0,
        "discarder": 2,
        "liangdao": [True, False, False, False],
    }
    code, out = run_score(q)
    assert code == 0 and out["deltas"] == [12, 0, -12, 0]


# ---------------------------------------------------------------------- simulate and self-play


def test_seatings_rotate_every_cyclic_order() -> None:
    assert seatings(3) == PERMUTATIONS == ((0, 1, 2), (1, 2, 0), (2, 0, 1), (0, 2, 1), (2, 1, 0), (1, 0, 2))
    assert seatings(2) == ((0, 1), (1, 0))
    four = seatings(4)
    assert len(four) == len(set(four)) == factorial(4)
    for seat in range(4):
        assert sorted(p[seat] for p in four) == sorted(list(range(4)) * 6)


def test_simulate_players_must_match_the_rules() -> None:
    code, text = run_simulate("--hands", "2", "--seed", "s", "--players", "easy,easy", "--rules", "two_seats")
    assert code == 0 and "players easy,easy (seating rotated: 2 seat orders per deal)" in text
    code, text = run_simulate("--hands", "2", "--seed", "s", "--players", "easy,easy")
    assert code == 2 and text.count("\n") == 1 and "needs three levels" in text and "players = 3" in text
    code, text = run_simulate("--hands", "2", "--seed", "s", "--rules", "four_seats", "--players", "easy,easy,easy")
    assert code == 2 and text.count("\n") == 1 and "needs four levels" in text
    code, text = run_simulate("--hands", "2", "--seed", "s", "--players", "easy")
    assert code == 2 and "--players takes 2, 3 or 4 levels" in text
    with pytest.raises(ValueError, match="a table of these rules has 4 players, got 3"):
        simulate((Level.EASY,) * 3, 1, "s", FOUR)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("rules", "levels", "hands"),
    [
        (TWO, (Level.NORMAL, Level.EASY), 200),
        (RuleSet(), (Level.NORMAL, Level.EASY, Level.GREEDY), 120),
        (FOUR, (Level.NORMAL, Level.EASY, Level.GREEDY, Level.RANDOM), 48),
    ],
    ids=["2", "3", "4"],
)
def test_self_play_with_checks(rules: RuleSet, levels: tuple[Level, ...], hands: int) -> None:
    """Whole AI hands with every invariant checked after every event (tile conservation, decide ==
    step, replay == state, kong money) and payments that sum to zero."""
    sim = simulate(levels, hands, f"seats-{rules.players}", rules, check=True)
    summary = sim.summary()
    assert summary.errors == ()
    assert summary.hands == hands and len(summary.players) == rules.players
    assert sum(p.total_points for p in summary.players) == 0
    assert sum(p.wins for p in summary.players) >= hands - summary.draws


def test_a_four_seat_hand_ends_with_four_deltas() -> None:
    agents = [lambda view, legal, rng: legal[0]] * 4
    state, events, counters = play_hand(FOUR, agents, "four", random.Random(0), dealer=2, check=True)
    assert state.over and state.result is not None and events[0].dealer == 2  # type: ignore[union-attr]
    assert len(state.result.deltas) == 4 and sum(state.result.deltas) == 0
    assert len(counters["feeds"]) == 4  # type: ignore[arg-type]
