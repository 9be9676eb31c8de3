"""Captions: escaping, limits, no concealed tile in the group, plural forms, no waits after the hand,
亮倒 captions safe on forged or odd input."""

from __future__ import annotations

import dataclasses
import random

import pytest

from engine.game import Action, ActionKind, legal_actions, public_view, replay, start, step, view_for
from engine.rules import RuleSet
from engine.tiles import Tile
from kwx_bot.words.captions import (
    hand_caption,
    lobby_text,
    result_caption,
    since_last_turn,
    table_caption,
)
from kwx_bot.words.i18n import translator
from kwx_bot.words.texts import clean, esc, tile_label, tiles_label
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


def _liangdao_state():
    """A state of random legal play where the seat to act may declare 亮倒."""
    rng = random.Random(7)
    for hand in range(50):
        state = replay(start(RuleSet(), 0, seed=f"ld{hand}"))
        while state.result is None:
            seat = state.to_act()[0]
            legal = legal_actions(state, seat)
            if any(a.kind is ActionKind.LIANGDAO for a in legal):
                return state, seat, legal
            state = step(state, rng.choice(legal))[0]
    raise AssertionError("no 亮倒 in 50 hands")


def test_liangdao_captions_show_the_waits_the_engine_lists_with_each_action():
    state, seat, legal = _liangdao_state()
    view = view_for(state, seat)
    tr = translator("en")
    common = {"title": "t", "hand_no": 1, "names": ["a", "b", "c"], "on_auto": False, "danger": set()}
    cap = hand_caption(tr, view=view, legal=legal, ui=Ui.LIANGDAO, ui_tile=None, **common)
    offered = [a for a in legal if a.kind is ActionKind.LIANGDAO]
    for a in offered:
        assert f"Discard {tile_label(a.tile, tr)} → waiting on {tiles_label(a.waits, tr)}" in cap
    a = offered[0]
    confirm = hand_caption(tr, view=view, legal=legal, ui=Ui.CONFIRM, ui_tile=a.tile, **common)
    assert f"You will wait on {tiles_label(a.waits, tr)}." in confirm
    # the caption says what the engine answered, it does not work the waits out again
    forged = [dataclasses.replace(x, waits=(Tile.RED,)) if x is a else x for x in legal]
    confirm = hand_caption(tr, view=view, legal=forged, ui=Ui.CONFIRM, ui_tile=a.tile, **common)
    assert "You will wait on Red." in confirm


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


def _depth(text: str) -> int:
    """The deepest nesting of round brackets in ``text``."""
    depth = deepest = 0
    for ch in text:
        if ch in "(（":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in ")）":
            depth -= 1
    return deepest


def test_result_caption_names_whose_liangdao_and_labels_the_multipliers():
    from render.demo import demo_views

    result = demo_views(7).result.result  # seat 2 (亮倒) wins on seat 1's 4p: 清一色, 亮倒, ×8 each, 包胡
    assert result is not None
    names = ["Ann", "Bob", "Cy"]
    en = result_caption(translator("en"), hand_no=4, result=result, names=names, totals=[1, 2, -3], liangdao=[2])
    assert "Laid down by Cy" in en
    assert "Bob pays for all (包胡)." in en and "Ann: +4 (payments 0, kongs +4) · Match: +1" in en
    assert "total" not in en.lower()  # the match's running total is "Match", the picture's hand sum "This hand"
    assert "Multiplier per payer: Ann ×8, Bob ×8" in en
    assert _depth(en) <= 1, en
    zh = result_caption(translator("zh_CN"), hand_no=4, result=result, names=names, liangdao=[2])
    assert "Cy亮倒" in zh and "各家倍数：Ann ×8, Bob ×8" in zh
    # a payer's 亮倒 (the winner's own is not declared): the chip names the payer
    payer = result_caption(translator("en"), hand_no=4, result=result, names=names, liangdao=[1])
    assert "Laid down by Bob" in payer


def _play(seed: str, moves: int):
    """A hand after ``moves`` actions (the first legal discard, else pass), with its events."""
    from engine.game import step

    events = list(start(RuleSet(), 0, seed=seed))
    state = replay(events)
    for _ in range(moves):
        seat = state.to_act()[0]
        legal = legal_actions(state, seat)
        action = next((a for a in legal if a.kind is ActionKind.DISCARD), None) or next(
            a for a in legal if a.kind is ActionKind.PASS
        )
        state, new = step(state, action)
        events.extend(new)
    return state, events


@pytest.mark.parametrize(
    ("lang", "want"), [("en", "Last discard: {tile} by Ann."), ("zh_CN", "刚打出：Ann 的 {tile}。")]
)
def test_hand_caption_on_your_turn_names_the_last_discard_and_who_made_it(lang, want):
    from kwx_bot.words.texts import tile_label

    tr = translator(lang)
    state, events = _play("recent", 1)
    while state.phase.value != "turn":  # claims passed
        seat = state.to_act()[0]
        from engine.game import step

        pass_ = next(a for a in legal_actions(state, seat) if a.kind is ActionKind.PASS)
        state, new = step(state, pass_)
        events.extend(new)
    discard = next(e for e in events if e.type == "discarded")
    me = state.turn
    assert discard.seat == 0 and me == 1
    cap = hand_caption(tr, title="t", hand_no=1, view=view_for(state, me), legal=legal_actions(state, me),
                       names=["Ann", "Ben", "Cat"], on_auto=False, ui=Ui.NORMAL, ui_tile=None, danger=set(),
                       events=events)  # fmt: skip
    assert want.format(tile=tile_label(discard.tile, tr)) in cap
    # a waiting seat's caption does not change with the others' turns
    other = hand_caption(tr, title="t", hand_no=1, view=view_for(state, 2), legal=[], names=["Ann", "Ben", "Cat"],
                         on_auto=False, ui=Ui.NORMAL, ui_tile=None, danger=set(), events=events)  # fmt: skip
    assert "Ann" not in other


def test_since_last_turn_lists_claims_and_kongs_and_never_a_concealed_kong_tile():
    from engine.game import Discarded, Konged, Ponged
    from engine.tiles import MeldKind

    tr = translator("en")
    names = ["Ann", "Ben", "Cat"]
    events = [
        Discarded(2, 0, Tile.P5),  # my own previous discard: everything before it is old
        Discarded(3, 1, Tile.S3),
        Ponged(4, 2, Tile.S3, 1),
        Konged(5, 2, MeldKind.CONCEALED_KONG, Tile.RED, None, (4, -2, -2)),
        Konged(6, 1, MeldKind.ADDED_KONG, Tile.P9, None, (-1, 2, -1)),
        Discarded(7, 2, Tile.S7, liangdao=True, waits=(Tile.S8,)),
    ]
    lines = since_last_turn(tr, events, 0, names)
    assert lines == [
        "Cat ponged 3 Bam from Ben.",
        "Cat declared a concealed kong.",
        "Ben added a kong of 9 Dot.",
        "Cat laid down.",
        "Last discard: 7 Bam by Cat.",
    ]
    assert since_last_turn(tr, events, 0, names, last_discard=False)[-1] == "Cat laid down."
    zh = translator("zh_CN")
    assert since_last_turn(zh, events, 0, names)[-2] == "Cat 亮倒了。"
    assert since_last_turn(zh, events, 0, names, langqi=True)[-2] == "Cat 廊起了。"
    assert since_last_turn(tr, events[:1], 0, names) == []


def test_reveal_lines_say_the_waits_or_the_broken_rule():
    """The 廊起 choice in words (docs/rules.md §E#48): shown, hidden, then the waits or why not."""
    from engine.game import RevealFault
    from kwx_bot.words.ui import RevealChoice

    tr = translator("en")
    state = replay(start(RuleSet.from_json({"preset": "kaxinwu", "players": 3}), 0, seed="kx"))
    view = view_for(state, 0)
    ok = RevealChoice(Tile.S9, (Tile.S6, Tile.S8), (Tile.P1, Tile.P2, Tile.P3), True, None, (Tile.S7,))
    bad = RevealChoice(Tile.S9, (Tile.S6,), (Tile.S8,), False, RevealFault.HIDDEN_INCOMPLETE, ())
    legal = legal_actions(state, 0)
    for choice, want in ((ok, "→ waiting on 7 Bam"), (bad, "✗ Not allowed: The hidden tiles must split")):
        text = hand_caption(
            tr, title="t", hand_no=1, view=view, legal=[*legal, _langqi(choice)], names=["A", "B", "C"],
            on_auto=False, ui=Ui.REVEAL, ui_tile=Tile.S9, danger=set(), reveal=choice, langqi=True,
        )  # fmt: skip
        assert "Lay down with 9 Bam" in text and want in text
        assert ("Shown: 6 Bam" if choice.legal else "Hidden: 8 Bam") in text


def _langqi(choice):
    return Action(0, ActionKind.LIANGDAO, choice.discard, choice.shown)


def test_guansi_and_chajiao_results_have_their_own_words():
    from engine.views import HandResultView

    tr = translator("en")
    names = ["Ann", "Ben", "Cat"]
    guansi = HandResultView("guansi", (), (1, 1, -2), (0, 0, 0), (1, 1, -2), 2, guansi=2)
    text = result_caption(tr, hand_no=3, result=guansi, names=names)
    assert "Hand 3: shut in" in text and "Every tile Cat holds" in text and "kong money of the hand is void" in text
    chajiao = HandResultView("draw", (), (2, -1, -1), (0, -2, 2), (2, -3, 1), 0, chajiao=(1, 2))
    text = result_caption(tr, hand_no=4, result=chajiao, names=names)
    assert "Hand 4: draw" in text and "Ready check: Ben, Cat did not lay down and pay each player who did" in text
    plain = HandResultView("draw", (), (0, 0, 0), (0, 0, 0), (0, 0, 0), 0)
    assert "Ready check" not in result_caption(tr, hand_no=5, result=plain, names=names)
    zh = result_caption(translator("zh_CN"), hand_no=3, result=guansi, names=names)
    assert "关死" in zh and "作废" in zh


@pytest.mark.parametrize(("langqi", "lang", "want", "other"), [
    (True, "zh_CN", "廊起并打出", "亮倒"), (False, "zh_CN", "亮倒并打出", "廊起"),
    (True, "en", "Lay down and discard 9 Bam?", "angqi"), (False, "en", "Lay down and discard 9 Bam?", "iangdao"),
])  # fmt: skip
def test_the_confirm_step_names_the_games_declaration(langqi, lang, want, other):
    """卡心五 calls the declaration 廊起 on its confirm step too, 卡五星 亮倒; English says "lay down"
    in both games (docs/glossary.md)."""
    state = replay(start(RuleSet.from_json({"preset": "kaxinwu", "players": 3}), 0, seed="kx"))
    view = view_for(state, 0)
    declare = Action(0, ActionKind.LIANGDAO, Tile.S9, None)  # the whole hand shown
    text = hand_caption(
        translator(lang), title="t", hand_no=1, view=view, legal=[*legal_actions(state, 0), declare],
        names=["A", "B", "C"], on_auto=False, ui=Ui.CONFIRM, ui_tile=Tile.S9, danger=set(), langqi=langqi,
    )  # fmt: skip
    assert want in text and other not in text
