"""The hand picture's table part (render/hand.py): the other seats and the player's own pond."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from engine.game import view_for
from engine.game.state import Phase
from engine.rules import RuleSet
from engine.tiles import Tile
from engine.views import PublicSeatView, SeatView
from render.art import TileState
from render.canvas import Canvas
from render.demo import DEMO_NAMES, demo_views, play_states
from render.hand import hand_canvas
from render.phone import MAX_RATIO, PICTURE_WIDTH
from render.table import partial_backs

from .words import ZH_WORDS, W

POND_ROLES = ("pond", "last_discard", "win_discard")


def pond_of(c: Canvas, seat: int) -> list[Tile | None]:
    return [p.tile for p in c.placed if p.role in POND_ROLES and p.seat == seat]


def public_tiles(seat: PublicSeatView) -> Counter[Tile]:
    """Every face-up tile of ``seat`` anybody at the table may see: discards, meld tiles (a 暗杠 of
    another seat has none), the shown 亮倒 / 廊起 tiles and the published waits."""
    out: Counter[Tile] = Counter(d.tile for d in seat.discards)
    for m in seat.melds:
        if m.tile is not None:
            out[m.tile] += m.kind.size
    out.update(seat.revealed)
    out.update(seat.waits)
    return out


def test_the_hand_picture_shows_every_pond_in_order_with_names_and_dealer() -> None:
    d = demo_views()
    c = hand_canvas(d.hand, names=d.names, words=ZH_WORDS)
    for seat in d.hand.public.seats:
        assert pond_of(c, seat.seat) == [x.tile for x in seat.discards]
    # the other seats in turn order from the next one; the dealer (seat 0, the player) has no panel
    assert [p.seat for p in c.find("seat_panel")] == [1, 2]
    assert [p.seat for p in c.find("name")] == [1, 2]
    cut = c.find("name", seat=2)[0].text or ""  # a long name is cut to the panel's width
    assert cut.endswith("…") and d.names[2].startswith(cut[:-1]) and len(cut) > 12
    long = hand_canvas(d.hand, names=(d.names[0], "x" * 200, d.names[2]), words=ZH_WORDS)
    name = long.find("name", seat=1)[0]
    assert name.text is not None and name.text.endswith("…") and name.box[2] < long.find("hidden", seat=1)[0].box[0]
    # the player's own strip: his 庄 disc (he deals) and his name, left of his pond
    assert [p.seat for p in c.find("dealer")] == [0]
    (own,) = c.find("own_name")
    assert own.text == d.names[0] and own.seat == 0
    assert c.find("dealer")[0].box[2] < own.box[0] and own.box[2] < min(p.box[0] for p in c.find("pond", seat=0))
    # the claimed tiles dimmed, the 亮倒 discard lying sideways
    claimed = [p for p in c.find("pond", seat=2) if p.tile is Tile.RED]
    assert claimed[0].state is TileState.DIM
    sideways = c.find("pond", seat=2)[-1]
    assert sideways.box[2] - sideways.box[0] > sideways.box[3] - sideways.box[1]
    # the table part sits above the player's own tiles
    assert max(p.box[3] for p in c.find("pond")) < min(p.box[1] for p in c.find("hand"))


def test_the_discard_on_the_table_is_highlighted_and_the_seats_to_act_marked() -> None:
    d = demo_views()
    view = SeatView(1, d.table, (), None, (), (), 3)  # seat 1 in the claim window on seat 0's 9s
    c = hand_canvas(view, names=d.names, words=ZH_WORDS)
    last = c.find("last_discard")
    assert [(p.seat, p.tile, p.state) for p in last] == [(0, Tile.S9, TileState.HIGHLIGHT)]
    assert [p.seat for p in c.find("dealer")] == [0]
    assert not c.find("turn_marker"), "only the player acts: no other seat is marked"
    waiting = dataclasses.replace(view, public=dataclasses.replace(d.table, to_act=(2,)))
    assert [p.seat for p in hand_canvas(waiting, names=d.names, words=ZH_WORDS).find("turn_marker")] == [2]


def test_a_liangdao_seat_shows_its_hand_and_waits_the_others_backs_and_melds() -> None:
    d = demo_views()
    c = hand_canvas(d.hand, W("en"), names=d.names)
    s2 = d.hand.public.seats[2]
    assert [p.tile for p in c.find("revealed", seat=2)] == list(s2.revealed)
    assert [p.tile for p in c.find("seat_wait", seat=2)] == list(s2.waits)
    assert [p.text for p in c.find("badge_text", seat=2)] == ["Laid down"]
    s1 = d.hand.public.seats[1]
    # a hidden hand is one face-down tile and its count
    assert len(c.find("hidden", seat=1)) == 1 and not c.find("hidden", seat=2)
    assert [p.text for p in c.find("hidden_count", seat=1)] == [str(s1.concealed_count)]
    assert [p.tile for p in c.find("seat_meld", seat=1)] == [Tile.S3] * 3
    # the player's own hand part keeps its roles: the own waits and melds only
    assert [p.tile for p in c.find("wait")] == list(d.hand.waits)
    assert {p.seat for p in c.find("meld")} == {0}


@pytest.mark.parametrize(
    ("rules", "relatives"),
    [
        (RuleSet.preset("two_seats"), {1: ["对家"]}),
        (RuleSet(), {0: ["下家", "上家"], 2: ["下家", "上家"]}),
        (RuleSet.preset("four_seats"), {0: ["下家", "对家", "上家"], 3: ["下家", "对家", "上家"]}),
    ],
    ids=["two", "three", "four"],
)
def test_the_other_seats_say_where_they_sit_and_the_player_sees_his_name_and_dealer_disc(
    rules: RuleSet, relatives: dict[int, list[str]]
) -> None:
    """Beside each other seat's name: 下家 (plays after the player), 对家 (across: at four seats the
    middle one, at two the only one), 上家 (plays before him) — in English Next / Across / Previous;
    the player's own name and, when he deals, his 庄 disc are drawn at his pond (docs/rules.md §A2.3)."""
    names = ("Ann", "Ben", "Cat", "Dan")[: rules.players]
    state, _ = next(iter(play_states("relative-seats", rules, dealer=1)))
    english = {"下家": "Next", "对家": "Across", "上家": "Previous"}
    for seat, expected in relatives.items():
        view = view_for(state, seat)
        for lang, words in (("zh_CN", expected), ("en", [english[w] for w in expected])):
            c = hand_canvas(view, W(lang), names=names)
            others = [(view.seat + i) % rules.players for i in range(1, rules.players)]  # next first
            assert [(p.seat, p.text) for p in c.find("relative_text")] == list(zip(others, words, strict=True))
            for chip in c.find("relative"):  # each chip sits before the seat's name, in its name row
                (name,) = c.find("name", seat=chip.seat)
                assert chip.box[2] < name.box[0] and chip.box[1] < name.centre[1] < chip.box[3]
            (own,) = c.find("own_name")
            assert own.text == names[seat]
            assert [p.seat for p in c.find("dealer")] == [1]  # seat 1 deals: his disc, wherever he is drawn
            assert bool(c.find("dealer", seat=seat)) is (seat == 1)


CASES = [
    ("two", RuleSet.preset("two_seats"), ()),
    ("three", RuleSet(), ()),
    ("three-liangdao", RuleSet(), (1,)),
    ("four", RuleSet.preset("four_seats"), ()),
    ("kaxinwu-langqi", RuleSet.preset("kaxinwu"), (1, 2)),
    ("kaxinwu-three", dataclasses.replace(RuleSet.preset("kaxinwu"), players=3), (0, 2)),
]


@pytest.mark.parametrize(("seed", "rules", "declare"), CASES, ids=[c[0] for c in CASES])
def test_no_hidden_tile_of_another_seat_is_drawn_and_the_picture_fits_a_phone(
    seed: str, rules: RuleSet, declare: tuple[int, ...]
) -> None:
    """Every state of a played hand, every seat: each face-up tile drawn for another seat is one of
    its public tiles (as many copies at most); the picture keeps its width and stays at most
    :data:`render.phone.MAX_RATIO` times as tall as wide."""
    names = (*DEMO_NAMES, "Anna")[: rules.players]
    partial = False
    for state, _ in play_states(f"hand-table-{seed}", rules, declare=declare):
        if state.phase is Phase.OVER:
            continue
        for seat in range(rules.players):
            view = view_for(state, seat)
            c = hand_canvas(view, game=rules.ruleset.value, names=names, words=ZH_WORDS)
            assert c.width == PICTURE_WIDTH and c.height <= MAX_RATIO * c.width
            for other in view.public.seats:
                drawn = Counter(p.tile for p in c.placed if p.seat == other.seat and p.tile is not None)
                if other.seat != seat:
                    assert drawn <= public_tiles(other), (seat, other)
                    assert pond_of(c, other.seat) == [x.tile for x in other.discards]
                    kept = partial_backs(other)
                    assert len(c.find("kept_hidden", seat=other.seat)) == (1 if kept else 0)
                    assert [p.text for p in c.find("kept_count", seat=other.seat)] == ([str(kept)] if kept else [])
                    partial = partial or kept > 0
    if rules.ruleset.value == "kaxinwu":
        assert partial, "a partly shown 廊起 hand was drawn"
