"""Pictures of real hands: every stable state of seeded AI hands renders inside the limits and its boxes."""

from __future__ import annotations

import itertools

import pytest

from engine.game import public_view, view_for
from engine.game.state import Phase
from engine.rules import RuleSet
from render.canvas import Canvas
from render.demo import DEMO_NAMES, engine_demo, play_states
from render.phone import PICTURE_WIDTH
from render.pictures import hand_canvas, result_canvas, reveal_canvas, table_canvas

from .words import ZH_WORDS

RULES = [RuleSet(), RuleSet.from_json({"suits": ["p", "m"], "cap": "none"})]


def check(c: Canvas) -> None:
    w, h = c.image.size
    assert w + h <= 10_000 and max(w, h) / min(w, h) <= 20
    for p in c.placed:
        assert 0 <= p.box[0] <= p.box[2] <= w and 0 <= p.box[1] <= p.box[3] <= h, p


def no_overlaps(c: Canvas, roles: tuple[str, ...]) -> None:
    tiles = [p for p in c.placed if p.role in roles]
    for a, b in itertools.combinations(tiles, 2):
        assert not (a.box[0] < b.box[2] and b.box[0] < a.box[2] and a.box[1] < b.box[3] and b.box[1] < a.box[3]), (
            a,
            b,
        )


@pytest.mark.parametrize(("seed", "rules"), [(f"render-{i}", RULES[i % 2]) for i in range(4)])
def test_every_state_of_a_played_hand_renders(seed: str, rules: RuleSet) -> None:
    states = list(play_states(seed, rules, dealer=int(seed[-1]) % 3))
    assert states[-1][0].phase is Phase.OVER
    for state, declared in states:
        view = public_view(state)
        table = table_canvas(view, DEMO_NAMES, words=ZH_WORDS)
        check(table)
        no_overlaps(table, ("pond", "last_discard", "revealed", "meld", "hidden"))
        for seat in view.to_act:
            hand = hand_canvas(view_for(state, seat), words=ZH_WORDS)
            check(hand)
            assert hand.image.width == PICTURE_WIDTH, "the hand picture keeps one width"
            no_overlaps(hand, ("hand", "drawn", "meld"))
        if declared:
            for seat in range(3):
                if view.seats[seat].liangdao:
                    check(reveal_canvas(view, seat, DEMO_NAMES, words=ZH_WORDS))
        if view.result is not None:
            result = result_canvas(view, DEMO_NAMES, words=ZH_WORDS)
            check(result)
            assert [p.text for p in result.find("title")] == ["胡牌" if view.result.outcome == "win" else "荒庄"]


def test_engine_demo_finds_every_picture() -> None:
    d = engine_demo(7)
    assert d.hand.drawn is not None and d.hand.melds
    assert d.reveal.seats[d.reveal_seat].liangdao
    assert d.result.result is not None and d.result.result.outcome == "win"
    assert d.draw.result is not None and d.draw.result.outcome == "draw"
