"""engine.question: ``/calc``'s notation read into a WinQuestion (the answers in words are
tests/kwx_bot/service/test_calc.py's)."""

from __future__ import annotations

import pytest

from engine.question import Problem, QuestionError, parse_question
from engine.scoring import WinBy
from engine.tiles import MeldKind, Tile, parse_tiles

D01 = "123p456p234s78s99p 9s"
D08 = "123p789p234s46s88s 5s"


def test_self_draw_is_assumed() -> None:
    q = parse_question(D08)
    assert q.win_by is WinBy.SELF_DRAW and not q.how_given
    assert parse_question(D08 + " self").how_given


@pytest.mark.parametrize(
    ("text", "concealed", "win"),
    [
        ("123p789p234s46s88s 5s", "123p789p234s46s88s", Tile.S5),
        ("123p789p234s46s88s5s", "123p789p234s46s88s", Tile.S5),
        ("123p 789p 234s 46s 88s 5s", "123p789p234s46s88s", Tile.S5),
        ("win:5s 123p789p234s46s88s", "123p789p234s46s88s", Tile.S5),
        ("胡：5s 123p789p234s46s88s", "123p789p234s46s88s", Tile.S5),
        ("/calc@kwx_bot 123P789P234S46S88S 5S", "123p789p234s46s88s", Tile.S5),
        ("123p789p234s46s88s + 5s", "123p789p234s46s88s", Tile.S5),
    ],
)
def test_tile_forms(text: str, concealed: str, win: Tile) -> None:
    q = parse_question(text)
    assert sorted(q.concealed) == sorted(parse_tiles(concealed)) and q.win_tile is win


@pytest.mark.parametrize(
    ("word", "kind"),
    [
        ("pong:111p", MeldKind.PONG),
        ("碰:1p", MeldKind.PONG),
        ("[碰 111p]", MeldKind.PONG),
        ("[pong111p]", MeldKind.PONG),
        ("kong:1111p", MeldKind.KONG),
        ("直杠:1p", MeldKind.KONG),
        ("ankong:1111p", MeldKind.CONCEALED_KONG),
        ("[暗杠 1111p]", MeldKind.CONCEALED_KONG),
        ("bukong:1111p", MeldKind.ADDED_KONG),
        ("concealed:1111p", MeldKind.CONCEALED_KONG),
        ("added:1p", MeldKind.ADDED_KONG),
        ("【补杠 1111p】", MeldKind.ADDED_KONG),
    ],
)
def test_meld_forms(word: str, kind: MeldKind) -> None:
    q = parse_question(f"789p234s46s88s {word} 5s")
    assert [(m.kind, m.tile) for m in q.melds] == [(kind, Tile.P1)]


def test_liangdao_roles() -> None:
    assert parse_question(f"{D01} discard liangdao").liangdao == {"W"}
    assert parse_question(f"{D01} discard liangdao:d").liangdao == {"D"}
    assert parse_question(f"{D01} discard liangdao:both").liangdao == {"W", "D"}
    assert parse_question(f"{D01} discard liangdao:w,x").liangdao == {"W", "X"}
    assert parse_question(f"{D01} discard 亮倒:点炮").liangdao == {"D"}
    assert parse_question(f"{D01} liangdao:y").liangdao == {"Y"}
    assert parse_question(f"{D01} discard liangdao:").liangdao == {"W"}
    for english, pinyin in (("laid", "liangdao"), ("laid:d", "liangdao:d"), ("LAID_DOWN:both", "liangdao:both")):
        assert parse_question(f"{D01} discard {english}").liangdao == parse_question(f"{D01} discard {pinyin}").liangdao


@pytest.mark.parametrize(
    ("text", "problem", "params"),
    [
        ("12x3p", Problem.NOT_A_SUIT, {"token": "12x3p", "letter": "x"}),
        ("123p 5s", Problem.TILE_COUNT, {"n": 4, "k": 0, "want": 13, "total": 14}),
        ("123p789p234s46s88s 5s foo:bar", Problem.NOT_UNDERSTOOD, {"word": "foo:bar"}),
        ("123p789p234s46s88s 5s base:²", Problem.BASE, {"token": "base:²"}),
        ("123p789p234s46s88s 5s cap:7", Problem.CAP, {}),
    ],
)
def test_a_malformed_question_names_its_problem(text: str, problem: Problem, params: dict[str, object]) -> None:
    with pytest.raises(QuestionError) as caught:
        parse_question(text)
    assert (caught.value.problem, caught.value.params) == (problem, params)
