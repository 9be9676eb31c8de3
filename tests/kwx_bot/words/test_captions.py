"""Captions: escaping, limits, no concealed tile in the group, plural forms, no waits after the hand,
亮倒 captions safe on forged or odd input."""

from __future__ import annotations

import dataclasses
import random

import pytest

from engine.game import ActionKind, legal_actions, public_view, replay, start, view_for
from engine.rules import RuleSet
from engine.tiles import Tile
from kwx_bot.words.captions import hand_caption, liangdao_waits, lobby_text, result_caption, table_caption
from kwx_bot.words.i18n import translator
from kwx_bot.words.texts import clean, esc
from kwx_bot.words.ui import Ui

HOSTILE = ["<b>&", "*_[`", "</i><script>", "A" * 80, "😀🀄 ‮RTL"]


def _state(seed: str = "t1"):
    return replay(start(RuleSet(), 0, seed=seed))


@pytest.mark.parametrize("raw", HOSTILE)
def test_captions_escape_names_and_fit(raw):
    state = _state("t2")
    names = [raw, raw + "2", raw + "3"]
    for lang in ("zh_CN", "en"):
        tr = translator(lang)
        view = view_for(state, 0)
        cap = hand_caption(tr, title=raw, hand_no=3, view=view, legal=legal_actions(state, 0), names=names,
                           on_auto=False, ui=Ui.NORMAL, ui_tile=None, danger=set())  # fmt: skip
        assert raw not in cap or esc(raw) == raw
        assert len(cap) <= 1024
        tcap = table_caption(tr, hand_no=1, view=public_view(state), names=names)
        assert "<b>" in tcap and len(tcap) <= 1024 and (raw not in tcap or esc(raw) == raw)
        text = lobby_text(tr, title=raw, seats=[raw, None, None], rules="standard", base=1, state="open")
        assert esc(clean(raw)[:10]) in text or len(raw) > 24  # as typed, bidi controls dropped


def test_no_concealed_tile_in_group_captions():
    state = _state("t3")
    tr = translator("zh_CN")
    text = table_caption(tr, hand_no=1, view=public_view(state), names=["a", "b", "c"])
    assert not any(t.chinese in text for t in Tile)


def test_result_caption_of_random_hands_fits():
    rng = random.Random(5)
    tr = translator("zh_CN")
    for seed in range(10):
        state = _state(f"r{seed}")
        while state.result is None:
            seat = state.to_act()[0]
            from engine.game import step

            state, _ = step(state, rng.choice(legal_actions(state, seat)))
        cap = result_caption(tr, hand_no=12, result=state.result, names=["甲" * 30, "<b>", "c"], totals=[1, 2, -3])
        assert len(cap) <= 1024 and "&lt;b&gt;" in cap


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
