"""Texts never raise and never mislead: plural forms, no waits after the hand, 亮倒 captions safe on
forged or odd input."""

from __future__ import annotations

import dataclasses

import pytest

from engine.game import ActionKind, legal_actions, public_view, replay, start, view_for
from engine.rules import RuleSet
from engine.tiles import Tile
from kwx_bot.words.captions import hand_caption, liangdao_waits, table_caption
from kwx_bot.words.i18n import translator
from kwx_bot.words.ui import Ui


def _state(seed: str = "t1"):
    return replay(start(RuleSet(), 0, seed=seed))


def _with_wall(view, n):
    return dataclasses.replace(view, public=dataclasses.replace(view.public, wall_remaining=n))


@pytest.mark.parametrize(
    ("lang", "one", "two"), [("en", "1 tile left", "2 tiles left"), ("zh_CN", "余牌 1 张", "余牌 2 张")]
)
def test_tiles_left_use_plural_forms(lang, one, two):
    tr = translator(lang)
    state = _state()
    seat = state.to_act()[0]
    legal = legal_actions(state, seat)
    for n, want in ((1, one), (2, two)):
        view = _with_wall(view_for(state, seat), n)
        cap = hand_caption(tr, title="t", hand_no=1, view=view, legal=legal, names=["a", "b", "c"], on_auto=False,
                           ui=Ui.NORMAL, ui_tile=None, danger=set())  # fmt: skip
        assert want in cap and "1 tiles" not in cap
        pub = dataclasses.replace(public_view(state), wall_remaining=n)
        assert want in table_caption(tr, hand_no=1, view=pub, names=["a", "b", "c"])


def test_no_waits_in_a_caption_after_the_hand():
    state = _state()
    view = view_for(state, 0)
    view = dataclasses.replace(view, waits=(Tile.P1, Tile.P4))
    tr = translator("en")
    common = {"title": "t", "hand_no": 1, "names": ["a", "b", "c"], "on_auto": False, "ui": Ui.NORMAL,
              "ui_tile": None, "danger": set()}  # fmt: skip
    assert "Waiting on" in hand_caption(tr, view=view, legal=[], **common)
    assert "Waiting on" not in hand_caption(tr, view=view, legal=[], result_delta=4, **common)


def test_liangdao_waits_never_raise():
    state = _state()
    seat = state.to_act()[0]
    view = view_for(state, seat)
    held = set(view.concealed) | {view.drawn}
    for tile in Tile:
        waits = liangdao_waits(view, tile)  # any tile, held or not
        assert tile in held or waits == []
    short = dataclasses.replace(view, concealed=view.concealed[:5])
    assert liangdao_waits(short, view.concealed[0]) == []


def test_a_confirm_caption_for_a_tile_that_is_no_liangdao_discard_does_not_raise():
    state = _state()
    seat = state.to_act()[0]
    view = view_for(state, seat)
    legal = legal_actions(state, seat)
    offered = {a.tile for a in legal if a.kind is ActionKind.LIANGDAO}
    tr = translator("zh_CN")
    for tile in Tile:
        cap = hand_caption(tr, title="t", hand_no=1, view=view, legal=legal, names=["a", "b", "c"], on_auto=False,
                           ui=Ui.CONFIRM, ui_tile=tile, danger=set())  # fmt: skip
        assert tile in offered or "亮倒并打出" not in cap
