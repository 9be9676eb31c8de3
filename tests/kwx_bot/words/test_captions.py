"""Captions: escaping, limits, no concealed tile in the group, plural forms, no waits after the hand,
亮倒 captions safe on forged or odd input."""

from __future__ import annotations

import dataclasses
import itertools
import random

import pytest

from engine.game import legal_actions, public_view, replay, start, step
from engine.rules import RuleSet
from engine.tiles import Tile
from kwx_bot.words.captions import (
    lobby_text,
    moment_lines,
    result_caption,
    since_last_turn,
    table_caption,
    turn_line,
)
from kwx_bot.words.i18n import translator
from kwx_bot.words.texts import clean, esc, tile_label

HOSTILE = ["<b>&", "*_[`", "</i><script>", "A" * 80, "😀🀄 ‮RTL"]


def _state(seed: str = "t1"):
    return replay(start(RuleSet(), 0, seed=seed))


@pytest.mark.parametrize("raw", HOSTILE)
def test_captions_escape_names_and_fit(raw):
    state = _state("t2")
    names = [raw, raw + "2", raw + "3"]
    for lang in ("zh_CN", "en"):
        tr = translator(lang)
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

            state, _ = step(state, rng.choice(legal_actions(state, seat)))
        cap = result_caption(tr, hand_no=12, result=state.result, names=["甲" * 30, "<b>", "c"], totals=[1, 2, -3])
        assert len(cap) <= 1024 and "&lt;b&gt;" in cap


@pytest.mark.parametrize(
    ("lang", "one", "two"), [("en", "1 tile left", "2 tiles left"), ("zh_CN", "余牌 1 张", "余牌 2 张")]
)
def test_tiles_left_use_plural_forms(lang, one, two):
    tr = translator(lang)
    state = _state()
    for n, want in ((1, one), (2, two)):
        assert want in turn_line(tr, n) and "1 tiles" not in turn_line(tr, n)
        pub = dataclasses.replace(public_view(state), wall_remaining=n)
        assert want in table_caption(tr, hand_no=1, view=pub, names=["a", "b", "c"])


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
    assert "Bob pays for all (包胡)." in en and "Ann: +4 (payments 0, kongs +4) · Match:\u00a0+1" in en
    # a phone wraps the long line before "Match", never between the word and its number
    assert "total" not in en.lower()  # the match's running total is "Match", the picture's hand sum "This hand"
    assert "Multiplier per payer: Ann ×8, Bob ×8" in en
    assert _depth(en) <= 1, en
    zh = result_caption(translator("zh_CN"), hand_no=4, result=result, names=names, liangdao=[2])
    assert "Cy亮倒" in zh and "各家倍数：Ann ×8、Bob ×8" in zh
    # a payer's 亮倒 (the winner's own is not declared): the chip names the payer
    payer = result_caption(translator("en"), hand_no=4, result=result, names=names, liangdao=[1])
    assert "Laid down by Bob" in payer


def test_a_draws_payments_are_not_called_a_win_in_chinese():
    # a 荒庄 / 查叫 where nobody won read "（胡牌 +2，杠钱 0）": the payments' word covers both (牌钱)
    from render.demo import demo_views
    from render.pictures import result_canvas
    from tests.render.words import W

    demo = demo_views(7)
    assert demo.draw.result is not None and demo.draw.result.outcome == "draw"
    zh = result_caption(translator("zh_CN"), hand_no=4, result=demo.draw.result, names=["Ann", "Bob", "Cy"])
    assert "（牌钱 " in zh and "（胡牌 " not in zh
    picture = result_canvas(demo.draw, ["Ann", "Bob", "Cy"], W("zh_CN"))
    assert [p.text for p in picture.find("pay_header")] == ["牌钱", "杠钱", "合计"]
    win = result_caption(translator("zh_CN"), hand_no=4, result=demo.result.result, names=["Ann", "Bob", "Cy"])
    assert "（牌钱 " in win  # the same word for a win's payments: one column, one word


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


def _played_moments(seed: str) -> list:
    """The replay moments of a hand the normal AI plays (every seat), face up at its end."""
    from engine.ai import Level
    from engine.ai.selfplay import ai_agent, play_hand
    from engine.game.record import open_moments

    rules = RuleSet()
    events = play_hand(rules, [ai_agent(Level.NORMAL, rules)] * 3, seed, random.Random(1))[1]
    return open_moments(events)


def test_each_replay_moment_says_what_it_added_to_the_table():
    """The deal and the result add no line; every other moment at least one, in the live captions'
    words: the discard as "Last discard: … by …", a 碰 as "… ponged … from …" naming the discarder."""
    tr = translator("en")
    names = ["Ann", "Ben", "Cat"]
    pongs = 0
    for seed in ("m1", "m2", "m3", "m4", "m5", "m6"):
        moments = _played_moments(seed)
        views = [view for view, _hands in moments]
        assert moment_lines(tr, None, views[0], names) == []
        assert moment_lines(tr, views[-2], views[-1], names) == []  # the result says it
        for before, after in itertools.pairwise(views[:-1]):
            said = moment_lines(tr, before, after, names)
            assert said, (before, after)
            for seat, (old, new) in enumerate(zip(before.seats, after.seats, strict=True)):
                if len(new.discards) > len(old.discards):
                    tile = tile_label(new.discards[-1].tile, tr)
                    assert f"Last discard: {tile} by {names[seat]}." in said
                if len(new.melds) > len(old.melds) and new.melds[-1].kind.value == "pong":
                    meld = new.melds[-1]
                    line = f"{names[seat]} ponged {tile_label(meld.tile, tr)} from {names[meld.source]}."
                    assert line in said, said
                    pongs += 1
    assert pongs  # the hands played had a 碰 to say
    zh = moment_lines(translator("zh_CN"), views[0], views[1], names)
    assert zh and all("Last discard" not in line for line in zh)  # in the reader's language
