"""The ``/stats`` aggregation (:func:`kwx_bot.service.stats.aggregate`): hand-made ledgers in, each
person's record out, every number exact."""

from __future__ import annotations

from fractions import Fraction

from kwx_bot.service.stats import aggregate, games_of
from kwx_bot.store import SeatHand

ANN, BEN, CAT = 1, 2, 3


def seat(hand: int, seat: int, user: int | None, points: int, **facts: object) -> SeatHand:
    names = {ANN: "Ann", BEN: "Ben", CAT: "Cat"}
    hand_points = facts.pop("hand_points", points)
    return SeatHand(hand, 7, 1, seat, user, names.get(user, "") if user else "", points, hand_points, **facts)  # type: ignore[arg-type]


LEDGER = (
    # hand 10: Ann self-draws after declaring (her win lists 亮倒 too), ×8 碰碰胡
    seat(10, 0, ANN, 16, won=True, self_draw=True, declared=True, multiplier=8, fans=("碰碰胡", "亮倒")),
    seat(10, 1, BEN, -8),
    seat(10, 2, None, -8),
    # hand 11: Ben wins on Ann's discard ×4 卡五星 (and 2 of kong money); Ann had declared
    seat(11, 0, ANN, -4, dealt_in=True, declared=True),
    seat(11, 1, BEN, 6, hand_points=4, won=True, multiplier=4, fans=("卡五星",)),
    seat(11, 2, None, -2, hand_points=0),
    # hand 12: voided — counts for nobody, not even as a hand
    seat(12, 0, ANN, 0, won=True, multiplier=64, fans=("清一色",), voided=True),
    seat(12, 1, BEN, 0, voided=True),
    seat(12, 2, None, 0, voided=True),
    # hand 13: Cat takes the AI's chair; Ann wins on Cat's discard ×8 碰碰胡 (hand payment 8, less than hand 10's)
    seat(13, 0, ANN, 8, won=True, multiplier=8, fans=("碰碰胡",)),
    seat(13, 1, BEN, 0),
    seat(13, 2, CAT, -8, dealt_in=True),
    # hand 14: a draw (荒庄); a correction gave Ben 1 from Ann
    seat(14, 0, ANN, -1),
    seat(14, 1, BEN, 1),
    seat(14, 2, CAT, 0),
)


def test_each_persons_record_is_exact() -> None:
    players, hands = aggregate(LEDGER)
    assert hands == 4  # the voided hand is not on the axis
    assert [p.name for p in players] == ["Ann", "Ben", "Cat"]  # by points: 19, -1, -8
    ann, ben, cat = players
    assert (ann.hands, ann.wins, ann.self_draws, ann.dealt_in, ann.declared, ann.declared_won, ann.points) == (
        4, 2, 1, 1, 2, 1, 19,
    )  # fmt: skip
    assert ann.win_rate == Fraction(1, 2) and ann.self_draw_share == Fraction(1, 2)
    assert ann.deal_in_rate == Fraction(1, 4) and ann.declare_rate == Fraction(1, 2)
    assert ann.declare_win_rate == Fraction(1, 2) and ann.average == Fraction(19, 4)
    # the largest: ×8 twice, hand 10 paid more (16 > 8); 亮倒 is a declaration, not the top 番
    assert (ann.best_multiplier, ann.best_fans) == (8, ("碰碰胡", "亮倒"))
    assert (ann.top_fan, ann.top_fan_count) == ("碰碰胡", 2)
    assert ann.running == ((1, 16), (2, 12), (3, 20), (4, 19))
    assert (ben.hands, ben.wins, ben.points, ben.average) == (4, 1, -1, Fraction(-1, 4))
    assert ben.self_draw_share == 0 and ben.declare_rate == 0 and ben.declare_win_rate is None
    assert (ben.best_multiplier, ben.top_fan, ben.top_fan_count) == (4, "卡五星", 1)
    assert ben.running == ((1, -8), (2, -2), (3, -2), (4, -1))
    # Cat joined at the axis's third hand; no win: no self-draw share, no 番
    assert cat.running == ((3, -8), (4, -8)) and cat.hands == 2 and cat.deal_in_rate == Fraction(1, 2)
    assert cat.self_draw_share is None and cat.top_fan is None and cat.best_multiplier == 0


def test_a_persons_own_rows_make_their_own_axis() -> None:
    mine = [s for s in LEDGER if s.user_id == CAT]
    (cat,), hands = aggregate(mine)
    assert hands == 2 and cat.running == ((1, -8), (2, -8))


def test_ties_order_as_score_does() -> None:
    rows = (
        seat(1, 0, BEN, 2, won=True, multiplier=2, fans=("屁胡",)),
        seat(1, 1, ANN, -2, dealt_in=True),
        seat(2, 0, ANN, 2, won=True, multiplier=2, fans=("屁胡",)),
        seat(2, 1, BEN, -2, dealt_in=True),
        seat(3, 0, CAT, 0),
    )
    players, _ = aggregate(rows)
    # Ann and Ben: 0 points, 1 win, 1 deal-in each: the lower user id first; Cat (0 points, no win) last
    assert [p.name for p in players] == ["Ann", "Ben", "Cat"]


def test_a_tie_between_fans_goes_to_the_one_seen_first_and_a_win_counts_a_fan_once() -> None:
    rows = (
        seat(1, 0, ANN, 4, won=True, multiplier=4, fans=("七对", "七对")),
        seat(2, 0, ANN, 4, won=True, multiplier=4, fans=("清一色",)),
    )
    ((ann,), _) = aggregate(rows)
    assert (ann.top_fan, ann.top_fan_count) == ("七对", 1)


def test_nothing_to_count() -> None:
    assert aggregate(()) == ((), 0)
    players, hands = aggregate([seat(1, 0, None, 0), seat(1, 1, None, 0)])
    assert players == () and hands == 1  # AI seats only


def test_the_games_played_name_the_declaration() -> None:
    assert games_of([]) == ("kawuxing",)
    assert games_of([{"game": "kaxinwu"}, {"game": "kaxinwu", "seats": 2}]) == ("kaxinwu",)
    assert games_of([{"game": "kaxinwu"}, {}]) == ("kawuxing", "kaxinwu")
