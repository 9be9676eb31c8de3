"""/rules in plain words (every option that differs from the standard game has its own sentence,
in both languages) and 番 values."""

from __future__ import annotations

import enum
import re
from dataclasses import fields

import pytest

from engine.fans import Fan
from engine.rules import PRESETS, FanValues, RuleSet
from kwx_bot.service.calc import calc
from kwx_bot.words import rules_text
from kwx_bot.words.i18n import translator
from kwx_bot.words.rules_text import _NOT_OPTIONS, describe_rules, option_lines, preset_label

EN = translator("en")


ZH = translator("zh_CN")


STANDARD = RuleSet()


def _variants() -> list[tuple[str, object]]:
    """(option, a non-standard value) for every RuleSet option /rules describes."""
    out: list[tuple[str, object]] = []
    for f in fields(RuleSet):
        if f.name in _NOT_OPTIONS:
            continue
        value = getattr(STANDARD, f.name)
        if isinstance(value, bool):
            out.append((f.name, not value))
        elif isinstance(value, enum.Enum):
            out.extend((f.name, m.value) for m in type(value) if m is not value)
        elif f.name == "liangdao_min_wall":
            out.append((f.name, 12))
        elif f.name == "suits":
            out.append((f.name, ["p", "m"]))
        else:  # pragma: no cover - a new kind of option: make this test name it
            out.append((f.name, "?"))
    return out


VARIANTS = _variants()


def test_standard_rules_in_english() -> None:
    text = describe_rules(STANDARD, EN)
    lines = text.splitlines()
    assert lines[0] == "<b>Rules: Standard (随州 / 襄阳 / 枣阳)</b>"
    assert "Base stake (底金): 1 point(s)" in text and "×8 per share; ×16 for double and triple dragon seven" in text
    assert "concealed kong 2 from each other player, added kong 1 from each, direct kong 2 from the discarder" in text
    assert lines[2] == "Lay down (亮倒): a ready player may show their hand; then they play automatically."
    assert "Ka Wu Xing (closed 5) ×2" in text and "Dragon seven pairs ×8" in text and "<b>" not in lines[5]
    assert text.count("亮倒") == 1 and "not doubled by laying down" in text
    assert "Different from the standard game" not in text and "Standard play" in text
    assert "Last discard win" not in text  # 海底炮 is not a 番 by default
    assert len(text) < 4096


def test_standard_rules_in_chinese() -> None:
    text = describe_rules(STANDARD, ZH)
    assert "规则" in text and "底金" in text and "封顶" in text and "卡五星 ×2" in text
    assert not re.search(r"\b(the|and|with|per)\b", text)


def test_presets_and_custom() -> None:
    assert preset_label(PRESETS["shiyan"], EN) == "Shiyan (十堰, flat cap ×8)"
    assert "×8 per share, also for double dragon seven pairs" in describe_rules(PRESETS["shiyan"], EN)
    assert "no cap" in describe_rules(PRESETS["nocap"], EN)
    custom = RuleSet.from_json({"preset": "shiyan", "pihu_ron": True, "kwx_value": 4, "base": 2})
    text = describe_rules(custom, EN)
    assert text.splitlines()[0] == "<b>Rules: Custom, based on Shiyan (十堰, flat cap ×8)</b>"
    assert "<b>Ka Wu Xing (closed 5) ×4</b>" in text and "All pongs ×2 ·" in text
    assert "• A plain hand (屁胡) may also win on a discard." in text
    assert "Base stake (底金): 2 point(s)" in text and "concealed kong 4 from each" in text
    assert "Standard play" not in text


@pytest.mark.parametrize(("option", "value"), VARIANTS, ids=[f"{o}={v}" for o, v in VARIANTS])
def test_every_option_has_its_own_sentence(option: str, value: object) -> None:
    rules = STANDARD.with_options({option: value})
    en = option_lines(rules, EN)
    zh = option_lines(rules, ZH)
    assert len(en) == len(zh) >= 1
    for e, z in zip(en, zh, strict=True):
        assert "=" not in e  # not the generic fallback
        assert e != z
    text = describe_rules(rules, ZH)
    assert all(z in text for z in zh)


def test_gang_values_and_timers() -> None:
    rules = RuleSet.from_json({"gang_values": {"zhi": 3}})
    assert "direct kong 3 from the discarder" in describe_rules(rules, EN)
    text = describe_rules(STANDARD, EN, discard_seconds=30, claim_seconds=0)
    assert text.splitlines()[-1] == "Timers: 30 s to discard, no limit to claim."
    assert "30" in describe_rules(STANDARD, ZH, discard_seconds=30, claim_seconds=15).splitlines()[-1]


def test_option_without_a_sentence_still_shows(monkeypatch) -> None:
    monkeypatch.delitem(rules_text._SENTENCES, "louhu")
    assert option_lines(STANDARD.with_options({"louhu": "strict"}), ZH) == ["louhu = strict"]
    assert option_lines(STANDARD.with_options({"players": 3}), EN) == []


def test_many_options_stay_under_the_limit() -> None:
    options = {}
    for option, value in VARIANTS:
        options.setdefault(option, value)
    rules = STANDARD.with_options(options)
    for tr in (EN, ZH):
        text = describe_rules(rules, tr, discard_seconds=30, claim_seconds=15)
        assert len(text) < 4096
        assert text.count("• ") == len(options)


def test_fan_values() -> None:
    """The values /rules and /calc show are the engine's: its one 番 table (engine.fans.Fan) and, for
    one win, WinScore.fan_values (FAN_KEYS and fan_value of this module are gone)."""
    assert {f.values_key for f in Fan} - {None} <= {f.name for f in fields(FanValues)}
    assert Fan.KAWUXING.base_value(STANDARD.values) == 2
    assert Fan.KAWUXING.base_value(RuleSet.from_json({"kwx_value": 4}).values) == 4
    assert Fan.PIHU.base_value(STANDARD.values) == 1 and Fan.GUOHU_FANFAN.base_value(STANDARD.values) == 1
    assert Fan.LIANGDAO.base_value(STANDARD.values) == 2
    dui = RuleSet.from_json({"dui_liang_fanfan": True})
    assert (Fan.LIANGDAO, 4) in calc("123p456p234s78s99p 9s discard liangdao:both", dui).score.fan_values
    sanyuan = RuleSet.from_json({"sanyuan_qidui": True})
    assert calc("5z5z6z6z7z11p33p55p77p 7z self", sanyuan).score.fan_values == ((Fan.XIAOSANYUAN_QIDUI, 8),)
    assert (Fan.DASANYUAN_QIDUI, 4) in calc("5555z6666z7777z1p 1p", sanyuan).score.fan_values


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ("Ka Xin Wu", "Lay down (廊起)", "Shut in (关死)", "Ready check (查叫)")),
    ("zh_CN", ("卡心五", "廊起（代替亮倒）", "关死", "查叫")),
])  # fmt: skip
def test_rules_describe_kaxinwu_against_its_own_preset(lang, words):
    """/rules names 卡心五 and its rules (docs/rules.md §B); options are told against the 卡心五 preset
    at the table's size, so the preset itself lists no difference."""
    tr = translator(lang)
    rules = RuleSet.from_json({"preset": "kaxinwu", "players": 3})
    text = describe_rules(rules, tr)
    assert all(w in text for w in words), text
    assert "3" in text.splitlines()[1] and "3 players, 84 tiles" not in text
    kong = next(line for line in text.splitlines() if line.startswith(("Kong money", "杠钱")))
    assert "亮倒" not in text.replace("廊起（代替亮倒）", "") and ("廊起" in kong or "laying down" in kong)
    assert option_lines(rules, tr) == []
    assert preset_label(rules, tr) == tr.gettext("Ka Xin Wu (卡心五)")
    changed = RuleSet.from_json({"preset": "kaxinwu", "players": 3, "kong_mandatory": False})
    assert len(option_lines(changed, tr)) == 1


def test_kaxinwu_rules_list_only_its_own_fan_and_kong_money_from_every_other_player():
    """卡心五's /rules lists the 番 a 卡心五 hand can score (docs/rules.md §B), none bold against its own
    preset; the kong money sentence holds at every table size."""
    rules = RuleSet.from_json({"preset": "kaxinwu", "players": 4})
    fans = next(line for line in describe_rules(rules, translator("zh_CN")).splitlines() if line.startswith("番"))
    assert all(f in fans for f in ("卡心五", "七对", "龙七对", "清一色", "杠上开花", "杠上炮"))
    assert not any(f in fans for f in ("碰碰胡", "卡五星", "明四归", "抢杠胡", "海底捞月", "手抓一"))
    assert "<b>" not in fans
    assert "其他每家各付" in describe_rules(rules, translator("zh_CN")) and "另外两家" not in describe_rules(
        RuleSet.preset("four_seats"), translator("zh_CN")
    )
