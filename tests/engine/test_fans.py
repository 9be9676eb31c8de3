"""engine.fans.Fan: the one table of 番 names and values, and the (番, value) pairs of a scored win."""

from __future__ import annotations

import dataclasses

import pytest

from engine.fans import Fan
from engine.rules import FanValues, RuleSet
from engine.scoring import WinBy, WinContext, WinScore, score_win
from engine.tiles import parse_tile, parse_tiles


def test_every_fan_has_a_unique_chinese_name_english_name_and_id() -> None:
    for attr in ("zh", "en", "id"):
        values = [getattr(f, attr) for f in Fan]
        assert len(set(values)) == len(values), attr
    assert all(f.en.isascii() and f.id.isascii() and f.id.isidentifier() for f in Fan)
    assert Fan.KAWUXING.zh == "卡五星" and Fan.KAWUXING.en == "Ka Wu Xing (closed 5)" and Fan.KAWUXING.id == "kawuxing"


def test_a_fan_is_its_chinese_name_on_the_wire() -> None:
    assert Fan.of("卡五星") is Fan.KAWUXING is Fan("卡五星")
    assert Fan.KAWUXING == "卡五星" and str(Fan.KAWUXING) == "卡五星" and f"{Fan.QIDUI}" == "七对"
    assert Fan.of(Fan.QIDUI) is Fan.QIDUI
    with pytest.raises(ValueError, match="unknown 番"):
        Fan.of("买马")


def test_values_come_from_the_rules_fan_values() -> None:
    keys = {f.name for f in dataclasses.fields(FanValues)}
    assert {f.values_key for f in Fan} - {None} == keys
    values = FanValues(kawuxing=4, qidui=3)
    assert Fan.KAWUXING.base_value(values) == 4 and Fan.KAXINWU.base_value(values) == 4
    assert Fan.QIDUI.base_value(values) == 3
    assert Fan.PIHU.base_value(values) == 1 and Fan.GUOHU_FANFAN.base_value(values) == 1


def _score(concealed: str, win: str, how: WinBy, rules: RuleSet | None = None, **kw: object) -> WinScore:
    ctx = WinContext(
        concealed=tuple(parse_tiles(concealed)),
        melds=(),
        win_tile=parse_tile(win),
        win_by=how,
        winner=0,
        discarder=None if how is WinBy.SELF_DRAW else 1,
        **kw,  # type: ignore[arg-type]
    )
    return score_win(ctx, rules)


def test_win_score_lists_fan_value_pairs_whose_product_is_the_multiplier() -> None:
    s = _score("123p789p234s46s88s", "5s", WinBy.DISCARD, liangdao=(False, True, False))
    assert s.fan_values == ((Fan.KAWUXING, 2), (Fan.LIANGDAO, 2))
    assert s.fans == ("卡五星", "亮倒") and s.multiplier == {1: 4}


def test_liangdao_value_is_four_under_dui_liang_fanfan_with_both_sides() -> None:
    rules = RuleSet.from_json({"dui_liang_fanfan": True})
    s = _score("123p789p234s46s88s", "5s", WinBy.DISCARD, rules, liangdao=(True, True, False))
    assert s.fan_values == ((Fan.KAWUXING, 2), (Fan.LIANGDAO, 4))
    assert s.multiplier == {1: 8}


def test_plain_win_and_relative_sanyuan_qidui_values() -> None:
    assert _score("123p456p234s78s99p", "9s", WinBy.SELF_DRAW).fan_values == ((Fan.PIHU, 1),)
    rules = RuleSet.from_json({"sanyuan_qidui": True})
    s = _score("5555z6666z7777z1p", "1p", WinBy.SELF_DRAW, rules)
    product = 1
    for _, value in s.fan_values:
        product *= value
    assert product == s.patterns
    assert (Fan.DASANYUAN_QIDUI, 16 // 4) in s.fan_values


def test_kaxinwu_lists_its_own_fan_with_the_kawuxing_value() -> None:
    rules = RuleSet.preset("kaxinwu")
    s = _score("123p789p234s46s88s", "5s", WinBy.SELF_DRAW, rules, num_players=rules.players)
    assert (Fan.KAXINWU, rules.values.kawuxing) in s.fan_values
