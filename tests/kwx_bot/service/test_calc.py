"""``/calc``: every docs/rules.md §D hand vector as a chat command, and malformed input (the
question read by engine.question, scored by kwx_bot.service.calc, worded by kwx_bot.words.calc).

The expected 番 and payments are the docs/rules.md §D values (底金 1, standard rules unless the row says
otherwise).  Deltas are in role order: (W, D, X) with a discarder, (W, X, Y) on a self-draw.
"""

from __future__ import annotations

import collections
import re
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.fans import Fan
from engine.question import Problem, QuestionError
from engine.rules import RuleSet
from engine.scoring import ScoringError, WinBy, WinContext, score_win
from engine.tiles import STANDARD_KINDS, Meld, MeldKind, Tile, format_tiles
from kwx_bot.service.calc import calc, calc_reply
from kwx_bot.words.calc import PROBLEMS, calc_usage, problem_text
from kwx_bot.words.i18n import translator
from tests.engine.handgen import WALL, winning_hand

EN = translator("en")
ZH = translator("zh_CN")
NO = None  # not a legal win: nobody pays


@dataclass(frozen=True)
class C:
    """One vector: the /calc text, the expected 番 and deltas (None = not legal), rules options."""

    id: str
    text: str
    fans: tuple[str, ...]
    deltas: tuple[int, int, int] | None
    rules: Any = None
    complete: bool = True


D01 = "123p456p234s78s99p 9s"
D08 = "123p789p234s46s88s 5s"
D33 = "2222s4444s88p6z6z7z 7z"

VECTORS = [
    # D.1 plain hands and 亮倒 factors
    C("D01", f"{D01} 自摸", ("屁胡",), (2, -1, -1)),
    C("D02", f"{D01} discard", ("屁胡",), NO),
    C("D02/pihu_ron", f"{D01} dianpao", ("屁胡",), (1, -1, 0), {"pihu_ron": True}),
    C("D03", f"{D01} 点炮 liangdao:d", ("亮倒",), (2, -2, 0)),
    C("D04", f"{D01} self liangdao", ("亮倒",), (4, -2, -2)),
    C("D05", f"{D01} discard 亮倒", ("亮倒",), (4, -4, 0)),
    C("D06", f"{D01} discard liangdao:both", ("亮倒",), (2, -2, 0)),
    C("D06/dui_liang_fanfan", f"{D01} discard 亮倒:双方", ("亮倒",), (4, -4, 0), {"dui_liang_fanfan": True}),
    # D.2 卡五星
    C("D08", f"{D08} discard", ("卡五星",), (2, -2, 0)),
    C("D09", f"{D08} zimo", ("卡五星",), (4, -2, -2)),
    C("D10", f"{D08} 自摸 亮倒", ("卡五星", "亮倒"), (8, -4, -4)),
    C("D11", f"{D08} 点炮 亮倒", ("卡五星", "亮倒"), (8, -8, 0)),
    C("D12", "123p789p5z5z5z4556s 5s discard", ("卡五星",), (2, -2, 0)),
    C("D13", "123p789p2245667s 5s discard", ("卡五星",), (2, -2, 0)),
    C("D13/strict", "123p789p2245667s 5s discard", ("屁胡",), NO, {"kwx_rule": "strict_single_wait"}),
    C("D14/discard", "123p789p2245667s 8s discard", ("屁胡",), NO),
    C("D14/self", "123p789p2245667s 8s self", ("屁胡",), (2, -1, -1)),
    C("D17", "123p789p234s678s5s 5s self", ("屁胡",), (2, -1, -1)),
    C("D17/discard", "123p789p234s678s5s 5s discard", ("屁胡",), NO),
    C("D19", "123p789p234s55s99s 5s", ("屁胡",), (2, -1, -1)),
    C("D20", "123p789p234s67s99s 5s self", ("屁胡",), (2, -1, -1)),
    C("D21", "123p46s777s5z5z ankong:9999p 5s discard", ("卡五星",), (2, -2, 0)),
    # D.3 碰碰胡, 手抓一, 四归一
    C("D22", "333p777s5z [碰 111p] [碰 999s] 5z 点炮", ("碰碰胡",), (2, -2, 0)),
    C("D23", "444p777s6z [直杠 8888p] [暗杠 2222s] 6z 自摸", ("碰碰胡",), (4, -2, -2)),
    C("D25", "5p pong:111p pong:333p pong:777p kong:9999p 5p self", ("手抓一", "清一色"), (16, -8, -8)),
    C("D25/nocap", "5p pong:1p pong:3p pong:7p kong:9p 5p self cap:none", ("手抓一", "清一色"), (32, -16, -16)),
    C("D26", "123p456p99p7s9s pong:888s 8s discard", ("明四归一",), (2, -2, 0)),
    C("D27", "123p456p777s89s99p 7s discard", ("暗四归一",), (4, -4, 0)),
    # D.4 七对 family, caps, which reading wins
    C("D31", "1111p33p77p22s88s6z 6z self", ("龙七对",), (16, -8, -8)),
    C("D32", "111p33p77p22s88s6z6z 1p discard", ("龙七对",), (8, -8, 0)),
    C("D33", f"{D33} self", ("双龙七对",), (32, -16, -16)),
    C("D33/cap8", f"{D33} self cap:8", ("双龙七对",), (16, -8, -8)),
    C("D33/shiyan", f"{D33} self", ("双龙七对",), (16, -8, -8), "shiyan"),
    C("D34", f"{D33} self liangdao", ("双龙七对", "亮倒"), (32, -16, -16)),
    C("D34/nocap", f"{D33} self liangdao 封顶:无", ("双龙七对", "亮倒"), (64, -32, -32)),
    C("D35", "11s22s33s44s5s66s77s 5s discard", ("七对", "清一色"), (8, -8, 0)),
    C("D37", "44s66s5s11p22p33p99p 5s discard", ("七对",), (4, -4, 0)),
    C("D38", "11p33p44p66p77p99p2p 2p discard", ("七对", "清一色"), (8, -8, 0)),
    C("D41", "5z5z6z6z7z11p33p55p77p 7z self", ("七对",), (8, -4, -4)),
    C("D41/sanyuan_qidui", "5z5z6z6z7z11p33p55p77p 7z self", ("小三元七对",), (16, -8, -8), {"sanyuan_qidui": True}),
    # D.5 三元, 清一色
    C("D42", "7z7z123p88s pong:555z pong:666z 7z discard", ("大三元",), (8, -8, 0)),
    C("D43", "7z7z123p88s pong:5z pong:6z 8s discard", ("小三元",), (4, -4, 0)),
    C("D44", "7z7z222p99s pong:555z kong:6666z 9s self", ("小三元", "碰碰胡"), (16, -8, -8)),
    C("D46", "111p234p46p789p99p 5p discard", ("清一色", "卡五星"), (8, -8, 0)),
    # D.6 kong-related and last-tile wins (the discarder is D here; docs/rules.md calls him Y)
    C("D48", "123s456s789s9p ankong:3333p 9p self after_kong", ("杠上开花",), (4, -2, -2)),
    C("D48/word", "123s456s789s9p 【暗杠 3333p】 9p 杠上开花", ("杠上开花",), (4, -2, -2)),
    C("D49", "123p456p789p67s99p 8s discard 杠上", ("杠上炮",), (2, -2, 0)),
    C("D49/word", "123p456p789p67s99p 8s 杠上炮", ("杠上炮",), (2, -2, 0)),
    C("D49/no_situational", "123p456p789p67s99p 8s 杠上炮", ("杠上炮",), NO, {"situational_for_qihu": False}),
    C("D50", "123p456p789p68s5z5z 7s rob", ("抢杠胡",), (2, -2, 0)),
    C("D50/zh", "123p456p789p68s5z5z 7s 抢杠", ("抢杠胡",), (2, -2, 0)),
    C("D50/no_qianggang", "123p456p789p68s5z5z 7s qianggang", ("抢杠胡",), NO, {"qianggang": False}),
    C("D52", "123p456p789p23s99s 4s self last_tile", ("海底捞月",), (4, -2, -2)),
    C("D52/word", "123p456p789p23s99s 4s 海底捞月", ("海底捞月",), (4, -2, -2)),
    C("D54", "123p456p789p23s99s 4s discard 海底", ("屁胡",), NO),
    C("D54/haidi_pao", "123p456p789p23s99s 4s 海底炮", ("海底炮",), (2, -2, 0), {"haidi_pao": 2}),
    C("D55", "333p777s5z pong:111p pong:999s 5z discard last_tile", ("碰碰胡",), (2, -2, 0)),
    C(
        "D55/haidi_pao",
        "333p777s5z pong:111p pong:999s 5z discard haidi",
        ("碰碰胡", "海底炮"),
        (4, -4, 0),
        {"haidi_pao": 2},
    ),
    # D.7 一炮双响: each winner is one /calc question against the same discarder
    C("D57/W1", f"{D08} discard", ("卡五星",), (2, -2, 0)),
    C("D57/W2", "777s55s99p pong:222p pong:888p 5s discard", ("碰碰胡",), (2, -2, 0)),
    # D.8 not wins
    C("D60", "123p456p789p123s5s 7s", (), NO, complete=False),
    C("D61", "22p44p66p88p11s pong:999s 1s", (), NO, complete=False),
    C("D63", "123p456p789p22s5z5z 2s discard", ("屁胡",), NO),
]


def _rules(v: C) -> RuleSet:
    return RuleSet.from_json(v.rules)


@pytest.mark.parametrize("v", VECTORS, ids=[v.id for v in VECTORS])
def test_vector(v: C) -> None:
    result = calc(v.text, _rules(v))
    assert result.score.complete is v.complete
    assert result.score.legal is (v.deltas is not None)
    assert collections.Counter(result.score.fans) == collections.Counter(v.fans)
    got = tuple(result.deltas_by_role.values())
    assert got == (v.deltas or (0, 0, 0))
    for tr in (EN, ZH):
        reply = calc_reply("/calc " + v.text, _rules(v), tr)
        assert 0 < len(reply) <= 4096
        if v.deltas is not None:
            for role_delta in v.deltas:
                assert (f"+{role_delta}" if role_delta > 0 else f"{role_delta}") in reply


def test_reply_in_words_english() -> None:
    reply = calc_reply(f"{D08} discard", RuleSet(), EN)
    assert reply.splitlines() == [
        "<b>123p789p234s46s88s + 5s</b>",
        "won on a discard (点炮)",
        "Patterns: Ka Wu Xing (closed 5) ×2",
        "Multiplier: ×2",
        "The discarder pays 2; the third player pays nothing.",
        "Result: winner +2 · discarder -2 · third player 0 (base 1)",
        "Reading: 123p 789p 234s 456s 88s",
    ]


def test_reply_in_words_chinese() -> None:
    reply = calc_reply(f"{D08} 点炮", RuleSet(), ZH)
    assert "卡五星 ×2" in reply
    assert "点炮者付 2" in reply
    assert "赢家 +2" in reply and "点炮者 -2" in reply
    assert "won" not in reply and "pays" not in reply


def test_baohu_is_explained() -> None:
    reply = calc_reply(f"{D08} discard liangdao", RuleSet(), EN)
    assert "The discarder had not laid down, so pays for all (包胡): 4 + 4 = 8." in reply and "2 + 2" not in reply
    assert "winner +8 · discarder -8 · third player 0" in reply


def test_cap_and_uneven_self_draw_payers() -> None:
    reply = calc_reply(f"{D33} self", RuleSet(), EN)
    assert "Multiplier: ×16" in reply and "capped" not in reply
    reply = calc_reply("5p pong:1p pong:3p pong:7p kong:9p 5p", RuleSet(), EN)
    assert "Multiplier: ×16 (capped at ×8)" in reply
    reply = calc_reply(f"{D01} self liangdao:x", RuleSet(), EN)
    assert "Multiplier: next player (下家) ×2, previous player (上家) ×1" in reply
    assert "The next player (下家) pays 2, the previous player (上家) pays 1." in reply
    assert "player X" not in reply and "player Y" not in reply  # no placeholder-like names
    assert calc_reply(f"{D01} self liangdao:下家", RuleSet(), EN) == reply
    zh = calc_reply(f"{D01} self liangdao:x", RuleSet(), translator("zh_CN"))
    assert "下家付 2，上家付 1。" in zh and "X 家" not in zh


def test_base_override_and_group_base() -> None:
    assert tuple(calc(f"{D08} discard base:5", RuleSet()).deltas_by_role.values()) == (10, -10, 0)
    assert tuple(calc(f"{D08} discard", RuleSet.from_json({"base": 3})).deltas_by_role.values()) == (6, -6, 0)
    assert "(base 5)" in calc_reply(f"{D08} discard 底金:5", RuleSet(), EN)


def test_self_draw_is_assumed_and_said() -> None:
    assert calc(D08, RuleSet()).query.win_by is WinBy.SELF_DRAW
    assert "assumed" in calc_reply(D08, RuleSet(), EN)
    assert "assumed" not in calc_reply(D08 + " self", RuleSet(), EN)


def test_illegal_discard_explains_and_offers_self_draw() -> None:
    reply = calc_reply(f"{D01} discard", RuleSet(), EN)
    assert "Not a legal win" in reply and "屁胡" in reply
    assert "As a self-draw it would win 2: 1 from each other player." in reply
    zh = calc_reply(f"{D01} 点炮", RuleSet(), ZH)
    assert "不能捉炮" in zh and "自摸" in zh


def test_situational_rule_is_named() -> None:
    reply = calc_reply("123p456p789p67s99p 8s 杠上炮", RuleSet.from_json({"situational_for_qihu": False}), EN)
    assert "do not count a win on a discard after a kong (杠上炮)" in reply


def test_qihu_2fan_and_qianggang_off() -> None:
    reply = calc_reply(f"{D01} self", RuleSet.from_json({"qihu_2fan": True}), EN)
    assert "两番起胡" in reply
    reply = calc_reply("123p456p789p68s5z5z 7s rob", RuleSet.from_json({"qianggang": False}), EN)
    assert "switched off" in reply


def test_not_complete_shows_waits_or_distance() -> None:
    reply = calc_reply("123p456p789p123s5s 7s", RuleSet(), EN)
    assert "Not a winning hand" in reply and "waits on: 5s" in reply
    reply = calc_reply("19p19s5z6z7z2468p24s 3p", RuleSet(), EN)
    assert "not ready" in reply and "tiles away" in reply


MALFORMED = [
    ("12x3p", "is not a suit"),
    ("123 5s", "have no suit letter"),
    ("103p", "no tile 0"),
    ("1z", "only 5z"),
    ("123p 5s", "You wrote 4 tiles"),
    ("123p789p234s46s88s 5s 6s", "You wrote 15 tiles"),
    ("win:5s 123p789p234s46s88s 6s", "besides win:5s"),
    ("win:5s5p 123p789p234s46s88s", "exactly one winning tile"),
    ("11111p2p456s789s5s 5s", "5 copies of 1p"),
    ("123p789p46s55s pong:555s 5s", "6 copies of 5s"),
    ("pong:1p pong:2p pong:3p pong:4p pong:5p 6p 6p", "at most 4 melds"),
    ("123p789p234s46s88s pong:123p 5s", "no runs"),
    ("123p789p234s46s88s chow:123p 5s", "unknown meld kind"),
    ("123p789p234s46s88s [碰] 5s", "write a meld like"),
    ("123p789p234s46s88s 5s self discard", "contradicts"),
    ("123p789p234s46s88s 5s self 杠上炮", "contradicts"),
    ("123p789p234s46s88s 5s hello", "do not understand “hello”"),
    ("123p789p234s46s88s 5s foo:bar", "do not understand “foo:bar”"),
    ("123p789p234s46s88s 5s self liangdao:d", "self-draw has no discarder"),
    ("123p789p234s46s88s 5s discard liangdao:y", "on a discard the seats"),
    ("123p789p234s46s88s 5s liangdao:z", "say who laid down"),
    ("123p789p234s456s8s 5s rob", "robbed kong"),
    ("123p789p234s46s88s 5s base:0", "base stake"),
    ("123p789p234s46s88s 5s cap:7", "cap is not known"),
    ("123m789p234s46s88s 5s", "1m is not used"),
    ("liangdao", "Give the tiles in hand"),
]


@pytest.mark.parametrize(("text", "expected"), MALFORMED, ids=[t for t, _ in MALFORMED])
def test_malformed_input(text: str, expected: str) -> None:
    with pytest.raises(QuestionError):
        calc(text, RuleSet())
    reply = calc_reply(text, RuleSet(), EN)
    assert expected in reply
    assert "Send /calc without anything else for the usage." in reply
    zh = calc_reply(text, RuleSet(), ZH)
    assert zh != reply and "/calc" in zh
    assert not any(w in zh for w in ("You wrote", "unknown", "is not", "Send "))


def test_error_messages_escape_user_text() -> None:
    reply = calc_reply("123p789p234s46s88s 5s <b>&", RuleSet(), EN)
    assert "&lt;b&gt;&amp;" in reply and "<b>&" not in reply


def test_tiles_of_a_third_suit_with_rules_that_use_it() -> None:
    rules = RuleSet.from_json({"suits": ["p", "m"]})
    assert calc("123m789p234m46m88m 5m discard", rules).score.fans == ("卡五星",)
    reply = calc_reply("123p789p5z5z5z4556s 5s", RuleSet.from_json({"dragons": False}), EN)
    assert "no dragons" in reply


def test_empty_gives_usage() -> None:
    for text in ("", "   ", "/calc", "/calc@kwx_bot  "):
        assert calc_reply(text, RuleSet(), EN) == calc_usage(EN)
    assert "自摸" in calc_usage(ZH) and "score a hand" not in calc_usage(ZH)


_VOCAB = [
    "123p",
    "789p",
    "234s",
    "46s",
    "88s",
    "5s",
    "5z",
    "7z7z",
    "1111p",
    "0p",
    "9z",
    "x",
    "[碰 111p]",
    "pong:2p",
    "kong:8888p",
    "ankong:",
    "bukong:7s",
    "discard",
    "self",
    "rob",
    "亮倒",
    "liangdao:d",
    "liangdao:both",
    "杠上",
    "海底",
    "base:2",
    "cap:none",
    "win:5s",
    "[",
    "]",
    "：",
    "【暗杠",
    "<",
    "&",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_VOCAB), max_size=12), st.sampled_from([EN, ZH]))
def test_any_input_gets_a_message_not_an_exception(words: list[str], tr: Any) -> None:
    reply = calc_reply(" ".join(words), RuleSet(), tr)
    assert isinstance(reply, str) and 0 < len(reply) <= 4096


# ------------------------------------------------------------ the text form agrees with the engine


@st.composite
def _questions(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    """A random question written as /calc text, and the WinContext fields it must mean (W 0, D 1)."""
    rng = draw(st.randoms(use_true_random=False))
    k = draw(st.integers(0, 2))
    sets = winning_hand(rng, 4 - k) if draw(st.booleans()) else None
    counts = collections.Counter(sets or [])
    melds = []
    for tile in rng.sample(list(STANDARD_KINDS), 4):
        if len(melds) == k:
            break
        kind = rng.choice(list(MeldKind))
        if counts[tile] + kind.size <= 4:
            melds.append(Meld(kind, tile))
            counts[tile] += kind.size
    k = len(melds)
    if sets is None or len(sets) != 14 - 3 * k:
        pool = list(WALL)
        for t, n in counts.items():
            for _ in range(n):
                pool.remove(t)
        hand = [Tile(t) for t in rng.sample(pool, 14 - 3 * k)]
    else:
        hand = [Tile(t) for t in sets]
        rng.shuffle(hand)
    concealed, win = hand[:-1], hand[-1]
    how = draw(st.sampled_from(list(WinBy)))
    roles = ("W", "X", "Y") if how is WinBy.SELF_DRAW else ("W", "D", "X")
    declared = draw(st.lists(st.sampled_from(roles), unique=True, max_size=2))
    after_kong, last_tile = draw(st.booleans()), draw(st.booleans())
    words = {WinBy.SELF_DRAW: "自摸", WinBy.DISCARD: "discard", WinBy.ROB_KONG: "抢杠"}
    parts = [format_tiles(concealed, sort=False), str(win), words[how]]
    parts += [f"{m.kind.value}:{format_tiles(m.tiles)}" for m in melds]
    parts += [f"liangdao:{r.lower()}" for r in declared]
    parts += ["after_kong"] * after_kong + ["海底"] * last_tile
    rng.shuffle(parts)
    # Words go anywhere; the tile groups keep their order (the last tile written is the winning tile).
    text = " ".join([p for p in parts if not p[0].isdigit()] + [format_tiles(concealed, sort=False), str(win)])
    context = {
        "concealed": tuple(concealed), "melds": tuple(melds), "win_tile": win, "win_by": how, "winner": 0,
        "discarder": None if how is WinBy.SELF_DRAW else 1, "liangdao": tuple(r in declared for r in roles),
        "after_kong": after_kong, "last_tile": last_tile,
    }  # fmt: skip
    return text, context


@settings(max_examples=300, deadline=None)
@given(_questions())
def test_calc_text_means_the_same_as_the_engine_context(question: tuple[str, dict[str, Any]]) -> None:
    text, context = question
    rules = RuleSet()
    try:
        ctx = WinContext(**context)
    except ScoringError:  # e.g. five copies, or a robbed tile also in hand: /calc refuses it too
        with pytest.raises(QuestionError):
            calc(text, rules)
        return
    got = calc(text, rules).score
    want = score_win(ctx, rules)
    assert (got.complete, got.legal, got.fans, got.deltas, got.multiplier) == (
        want.complete, want.legal, want.fans, want.deltas, want.multiplier,
    )  # fmt: skip


_HIDDEN = "\u202e\u2066\u200f\u200b\u2060\u00ad\ufeff\u3164\x07"
"""Bidi controls and invisible characters a user may slip into a question."""


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(_VOCAB), st.sampled_from(_HIDDEN), st.integers(0, 8)), min_size=1, max_size=8),
    st.sampled_from([EN, ZH]),
)
def test_no_answer_echoes_a_bidi_or_invisible_control(words: list[tuple[str, str, int]], tr: Any) -> None:
    """docs/security.md §7.2: each word gets a hidden character somewhere inside it."""
    text = " ".join(word[:at] + hidden + word[at:] for word, hidden, at in words)
    reply = calc_reply(text, RuleSet(), tr)
    assert not set(reply) & set(_HIDDEN)


def test_a_quoted_token_loses_its_bidi_override() -> None:
    reply = calc_reply("123p789p234s46s88s 5s \u202ediscard", RuleSet(), EN)
    assert "“discard”" in reply and "\u202e" not in reply


def test_an_error_quotes_at_most_a_short_piece_of_the_input() -> None:
    from kwx_bot.words.texts import QUOTE_CHARS

    error = QuestionError(Problem.NOT_UNDERSTOOD, word="1p" * 2000)
    text = problem_text(error, translator("en"))
    assert len(text) < 100 and text.endswith("…”.") and len("1p" * 2000) > QUOTE_CHARS


# ----------------------------------------------------------------------------- 卡心五 (docs/rules.md §B)

KAXINWU = RuleSet.preset("kaxinwu")


def test_a_kaxinwu_group_scores_kaxinwu_at_its_four_seats() -> None:
    result = calc(f"{D08} discard", KAXINWU)
    assert result.rules.ruleset is KAXINWU.ruleset and result.query.seats == 4
    assert result.score.fan_values == ((Fan.KAXINWU, 2),)
    assert result.deltas_by_role == {"W": 2, "D": -2, "X": 0, "Y": 0}
    reply = calc_reply(f"{D08} discard", KAXINWU, EN)
    assert "Patterns: Ka Xin Wu (closed 5) ×2" in reply and "Only the discarder pays: 2." in reply
    assert "番型：卡心五 ×2" in calc_reply(f"{D08} 点炮", KAXINWU, ZH)
    selfdraw = calc(D08, KAXINWU)
    assert selfdraw.deltas_by_role == {"W": 6, "X": -2, "O": -2, "Y": -2}
    reply = calc_reply(D08, KAXINWU, EN)
    assert "Each of the other 3 players pays 2." in reply and "opposite player (对家) -2" in reply


def test_the_kaxinwu_word_scores_kaxinwu_in_a_kawuxing_group_and_back() -> None:
    group = RuleSet.from_json({"base": 3})
    result = calc(f"kaxinwu {D08}", group)
    assert result.rules.ruleset is KAXINWU.ruleset and result.rules.base == 3
    assert result.score.fans == (Fan.KAXINWU,) and result.deltas_by_role["W"] == 3 * 3 * 2
    assert calc(f"卡心五 players:2 {D08}", group).deltas_by_role == {"W": 6, "X": -6}
    assert "Only the other player pays: 6." in calc_reply(f"kxw players:2 {D08}", group, EN)
    assert calc(f"kaxinwu players:3 {D08}", group).deltas_by_role == {"W": 12, "X": -6, "Y": -6}
    back = calc(f"kawuxing {D08} discard", KAXINWU)
    assert back.rules.ruleset is RuleSet().ruleset and back.score.fans == (Fan.KAWUXING,)
    assert back.deltas_by_role == {"W": 2, "D": -2, "X": 0}


def test_kaxinwu_patterns_and_langqi_without_doubling() -> None:
    # 廊起 does not double (docs/rules.md §B, E#27): no 亮倒 factor, no 包胡
    result = calc(f"{D08} discard liangdao 廊起", KAXINWU)
    assert result.score.fan_values == ((Fan.KAXINWU, 2),) and not result.score.baohu
    pairs = calc("11p22p33p44p55p66p7p 7p self", KAXINWU)
    assert pairs.score.fan_values == ((Fan.QIDUI, 4), (Fan.QINGYISE, 4))
    assert pairs.deltas_by_role == {"W": 24, "X": -8, "O": -8, "Y": -8}  # ×16 capped at ×8
    long = calc("1111p22p33p44p55p6p 6p", KAXINWU)
    assert long.score.fan_values == ((Fan.LONGQIDUI, 8), (Fan.QINGYISE, 4))
    plain = calc("123p456p234s78s99p 9s discard", KAXINWU)  # 平胡 wins on a discard: no 屁胡 restriction
    assert plain.score.legal and plain.score.fan_values == ((Fan.PIHU, 1),)
    assert "switched off" in calc_reply("123p456p234s78s99p 9s rob", KAXINWU, EN)  # no 抢杠胡
    assert "no dragons" in calc_reply("123p789p5z5z5z4556s 5s", KAXINWU, EN)


@pytest.mark.parametrize(
    ("text", "rules", "expected"),
    [
        (f"kaxinwu kawuxing {D08}", RuleSet(), "name only one game"),
        (f"players:5 {D08}", RuleSet(), "a table has 2, 3 or 4 players"),
        (f"{D08} liangdao:o", RuleSet(), "at this table the seats are w, x, y"),
        (f"{D08} discard liangdao:y", RuleSet(), "on a discard the seats are w (winner), d (discarder) and x"),
        (f"players:2 {D08} discard liangdao:x", KAXINWU, "at this table the seats are w, d"),
    ],
)
def test_kaxinwu_and_seat_errors(text: str, rules: RuleSet, expected: str) -> None:
    with pytest.raises(QuestionError):
        calc(text, rules)
    assert expected in calc_reply(text, rules, EN)
    zh = calc_reply(text, rules, ZH)
    assert "/calc" in zh and not any(w in zh for w in ("name only", "a table has", "at this table"))


def test_a_four_seat_discard_names_the_fourth_player_and_liangdao_y() -> None:
    result = calc(f"{D08} discard liangdao:y", KAXINWU)
    assert result.query.liangdao == frozenset({"Y"})
    assert "laid down: fourth player" in calc_reply(f"{D08} discard liangdao:y", KAXINWU, EN)


def test_every_problem_has_its_sentence() -> None:
    assert set(PROBLEMS) == set(Problem)
    for problem in Problem:
        names = set(re.findall(r"{(\w+)}", PROBLEMS[problem]))
        text = problem_text(QuestionError(problem, **dict.fromkeys(names, "x")), ZH)
        assert "{" not in text and text != PROBLEMS[problem]  # translated, every parameter filled


def test_the_english_words_of_the_usage_are_accepted_as_the_pinyin_ones() -> None:
    """The usage and the answers say "laid" / "laid down", "concealed", "added" (docs/glossary.md);
    ``liangdao``, ``ankong``, ``bukong`` stay accepted and mean the same."""
    usage = calc_usage(EN)
    assert "laid:d (the discarder)" in usage and "concealed:2222s" in usage and "added:7777s" in usage
    assert "liangdao" not in usage.split("(Also accepted:")[0]
    reply = calc_reply(f"{D08} discard laid:both", RuleSet(), EN)
    assert "laid down: winner, discarder" in reply and "Laid down ×2" in reply
    assert calc_reply(f"{D08} discard liangdao:both", RuleSet(), EN) == reply
