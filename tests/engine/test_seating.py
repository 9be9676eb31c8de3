"""Four members at a 3-seat table: who sits out and who deals next (docs/rules.md §A2.1, §E#34)."""

from __future__ import annotations

import pytest

from engine.rules import RuleSet
from engine.seating import Lineup, next_lineup
from engine.tiles import parse_tile
from engine.views import HandResultView, WinView

SITS_OUT = RuleSet()
BAWANG = RuleSet.from_json({"four_players": "bawangzhuang"})


def _win(seat: int, from_seat: int | None) -> WinView:
    return WinView(
        seat=seat, concealed=(), melds=(), win_tile=parse_tile("5s"),
        by="self_draw" if from_seat is None else "discard", from_seat=from_seat,
        fans=(), multiplier={}, baohu=False, reading="",
    )  # fmt: skip


def _result(next_dealer: int, *winners: WinView) -> HandResultView:
    zero = (0, 0, 0)
    return HandResultView("win" if winners else "draw", winners, zero, zero, zero, next_dealer)


def test_the_winner_sits_out_and_the_next_member_after_him_deals() -> None:
    # members round the table: seats 0, 1, 2 of the hand, then 3 who sat it out
    lineup = next_lineup(SITS_OUT, 0, _result(1, _win(1, None)))  # seat 1 self-drew: he would deal (A15.1)
    assert lineup == Lineup(seats=(2, 3, 0), sitting_out=1, dealer=0)
    lineup = next_lineup(SITS_OUT, 1, _result(2, _win(2, 0)))  # seat 2 won on seat 0's discard
    assert lineup == Lineup(seats=(3, 0, 1), sitting_out=2, dealer=0)  # the member back in deals


def test_two_winners_the_first_after_the_discarder_sits_out_and_the_discarder_deals() -> None:
    lineup = next_lineup(SITS_OUT, 0, _result(1, _win(0, 1), _win(2, 1)))  # 一炮双响 off seat 1: 2 comes first
    assert lineup.sitting_out == 2 and lineup.seats == (3, 0, 1) and lineup.seats[lineup.dealer] == 1
    lineup = next_lineup(SITS_OUT, 0, _result(0, _win(1, 0), _win(2, 0)))  # off seat 0: 1 comes first
    assert lineup.sitting_out == 1 and lineup.seats[lineup.dealer] == 0


def test_after_a_draw_the_member_back_in_is_followed_out_by_the_next_who_does_not_deal() -> None:
    assert next_lineup(SITS_OUT, 1, _result(1)) == Lineup(seats=(1, 2, 3), sitting_out=0, dealer=0)
    lineup = next_lineup(SITS_OUT, 0, _result(0))  # seat 0 keeps the deal: seat 1 sits out instead
    assert lineup == Lineup(seats=(2, 3, 0), sitting_out=1, dealer=2)


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_bawangzhuang_a_dealer_who_wins_stays_and_one_who_loses_sits_out(dealer: int) -> None:
    kept = next_lineup(BAWANG, dealer, _result(dealer, _win(dealer, None)))
    assert kept.seats[kept.dealer] == dealer and kept.sitting_out != dealer and 3 in kept.seats
    winner = (dealer + 1) % 3
    lost = next_lineup(BAWANG, dealer, _result(winner, _win(winner, dealer)))
    assert lost.sitting_out == dealer and lost.seats[lost.dealer] == winner and 3 in lost.seats


def test_nobody_sits_out_twice_running_over_many_hands() -> None:
    # whatever happens, the member who sat out plays the next hand and the dealer is at the table
    for rules in (SITS_OUT, BAWANG):
        for dealer in range(3):
            for result in [_result(dealer)] + [_result(w, _win(w, None)) for w in range(3)]:
                lineup = next_lineup(rules, dealer, result)
                assert 3 in lineup.seats and lineup.sitting_out not in lineup.seats
                assert sorted((*lineup.seats, lineup.sitting_out)) == [0, 1, 2, 3]


def test_off_takes_no_fourth_member() -> None:
    with pytest.raises(ValueError, match="off"):
        next_lineup(RuleSet.from_json({"four_players": "off"}), 0, _result(0))


def test_a_member_who_leaves_leaves_the_other_three_in_their_order_and_nobody_sits_out() -> None:
    # seat 1 leaves after a draw that seat 0 deals on: the three left keep their order, 0 deals
    lineup = next_lineup(SITS_OUT, 0, _result(0), leaving={1})
    assert lineup == Lineup(seats=(0, 2, 3), sitting_out=None, dealer=0)
    # the member who sat the hand out leaves: the three who played stay in their seats
    assert next_lineup(SITS_OUT, 2, _result(1, _win(1, 2)), leaving={3}) == Lineup((0, 1, 2), None, 1)
    # the winner would sit out, but a member left: he plays and deals (A15.1), nobody sits out
    assert next_lineup(SITS_OUT, 0, _result(2, _win(2, None)), leaving={0}) == Lineup((1, 2, 3), None, 1)


@pytest.mark.parametrize("rules", [SITS_OUT, BAWANG])
def test_when_the_next_dealer_leaves_the_next_member_after_him_who_stays_deals(rules: RuleSet) -> None:
    # seat 1 won on seat 0's discard and would deal; he leaves: the next member round the table deals
    assert next_lineup(rules, 0, _result(1, _win(1, 0)), leaving={1}).seats == (0, 2, 3)
    assert next_lineup(rules, 0, _result(1, _win(1, 0)), leaving={1}).dealer == 1  # member 2
    # seat 2 would deal and leaves: member 3 (who sat out) deals; from 3 round to 0 when 3 is gone too
    assert next_lineup(rules, 0, _result(2, _win(2, None)), leaving={2}) == Lineup((0, 1, 3), None, 2)
    for dealer in range(3):
        for result in [_result(dealer)] + [_result(w, _win(w, None)) for w in range(3)]:
            for gone in range(4):
                lineup = next_lineup(rules, dealer, result, leaving={gone})
                assert sorted(lineup.seats) == sorted({0, 1, 2, 3} - {gone}) and lineup.sitting_out is None
                assert lineup.seats[lineup.dealer] == (result.next_dealer if result.next_dealer != gone
                                                       else (gone + 1) % 4)  # fmt: skip


def test_leaving_must_leave_exactly_the_seats_of_a_hand() -> None:
    with pytest.raises(ValueError, match="must stay"):
        next_lineup(SITS_OUT, 0, _result(0), leaving={0, 1})
    with pytest.raises(ValueError, match="must stay"):
        next_lineup(SITS_OUT, 0, _result(0), leaving={4})
