"""RuleSet: defaults, presets, JSON round trip and rejection of unknown options (docs/rules.md §C, Appendix 1)."""

from __future__ import annotations

import json

import pytest

from engine.rules import (
    KNOWN_OPTIONS,
    PRESETS,
    Cap,
    KwxRule,
    Louhu,
    RuleError,
    RuleSet,
    SiguiScope,
)


def test_defaults_match_appendix_1() -> None:
    r = RuleSet()
    assert r.cap == "8_sl16" and r.cap is Cap.EIGHT_SL16
    assert r.base == 1 and r.players == 3 and r.suits == ("p", "s")
    assert (r.pihu_ron, r.qihu_2fan, r.situational_for_qihu) == (False, False, True)
    assert r.louhu is Louhu.BIGGER_EXCEPTION
    assert (r.liangdao_payer_double, r.dui_liang_fanfan) == (True, False)
    assert (r.baohu, r.liangdao_protect) == (True, False)
    assert r.kwx_rule is KwxRule.GENEROUS and r.sigui_scope is SiguiScope.BAN_QYS_QUAN
    assert not (r.szy_with_pph or r.ansigui_requires_pung or r.sigui_multi or r.sanyuan_qidui)
    assert r.haidi_pihu is True and r.qianggang is True
    v = r.values
    assert (v.pengpeng, v.mingsigui, v.ansigui, v.qidui) == (2, 2, 4, 4)
    assert (v.longqidui, v.shuanglong, v.sanlong) == (8, 16, 32)
    assert (v.dasanyuan, v.xiaosanyuan, v.gangkai, v.gangpao, v.qianggang, v.qingyise) == (8, 4, 2, 2, 2, 4)
    assert (v.shouzhuayi, v.haidilao, v.haidipao, v.liangdao, v.kawuxing) == (4, 2, 0, 2, 2)
    assert (r.gang_values.an, r.gang_values.bu, r.gang_values.zhi) == (2, 1, 2)
    assert r.gang_chain == "double" and r.gang_chain_self == "replacement_only"
    assert r.gangshang_chain_hu == "x2_only"
    assert (r.bugang_immediate, r.kong_after_peng, r.guoshou_peng) == (True, False, False)


@pytest.mark.parametrize(
    ("name", "cap", "caps"),
    [
        ("standard", "8_sl16", (8, 16)),
        ("xiangyang", "8_sl16", (8, 16)),
        ("suizhou", "8_sl16", (8, 16)),
        ("zaoyang", "8_sl16", (8, 16)),
        ("shiyan", "8", (8, 8)),
        ("nocap", "none", (None, None)),
    ],
)
def test_presets(name: str, cap: str, caps: tuple[int | None, int | None]) -> None:
    r = RuleSet.preset(name)
    assert r == RuleSet.from_json(name) == RuleSet.from_json({"preset": name})
    assert r.cap == cap
    assert (r.cap_for(0), r.cap_for(2)) == caps
    assert r.cap_for(3) == caps[1]


def test_issue_example_merges_values_over_preset() -> None:
    r = RuleSet.from_json({"preset": "standard", "cap": "none", "values": {"kawuxing": 4}})
    assert r.cap is Cap.NONE and r.cap_for(0) is None
    assert r.values.kawuxing == 4
    assert r.values.pengpeng == 2  # untouched keys keep the preset's values
    assert PRESETS["standard"].values.kawuxing == 2  # the preset itself is unchanged


def test_hashable_and_round_trip() -> None:
    r = RuleSet.from_json(
        {
            "preset": "shiyan",
            "gang_values": {"zhi": 3},
            "sigui_scope": "quan",
            "haidi_pihu": "off",
            "sanyuan_qidui": True,
            "suits": ["s", "m"],
            "louhu": "strict",
        }
    )
    assert len({r, RuleSet(), r}) == 2
    data = json.loads(json.dumps(r.to_json()))
    assert data["haidi_pihu"] == "off" and data["cap"] == "8" and data["values"]["kawuxing"] == 2
    assert RuleSet.from_json(data) == r
    assert r.gang_values.zhi == 3 and r.gang_values.an == 2
    assert r.suits == ("s", "m") and r.preset_name() is None
    assert RuleSet.from_json(RuleSet().to_json()).preset_name() == "standard"


def test_shorthand_keys_map_onto_values() -> None:
    r = RuleSet.from_json(
        {
            "kwx_value": 4,
            "pph_value": 4,
            "gangshang_value": 4,
            "qianggang_value": 4,
            "msgy_value": 4,
            "szy_value": 8,
            "sanlong_value": 128,
            "haidi_pao": 2,
        }
    )
    v = r.values
    assert (v.kawuxing, v.pengpeng, v.gangkai, v.gangpao, v.qianggang, v.mingsigui) == (4, 4, 4, 4, 4, 4)
    assert (v.shouzhuayi, v.sanlong, v.haidipao) == (8, 128, 2)
    # shorthand keys override a values object given alongside
    assert RuleSet.from_json({"values": {"kawuxing": 8}, "kwx_value": 4}).values.kawuxing == 4


def test_alternate_spellings() -> None:
    assert RuleSet.from_json({"cap": 16}).cap is Cap.SIXTEEN
    assert RuleSet.from_json({"sigui_scope": "ban"}).sigui_scope is SiguiScope.BAN_QYS_QUAN
    assert RuleSet.from_json({"haidi_pihu": 2}).haidi_pihu is True
    assert RuleSet.from_json({"sanyuan_qidui": "on"}).sanyuan_qidui is True
    assert RuleSet.from_json({"extras": {"piao": "off", "shukan": False}}) == RuleSet()
    assert RuleSet.from_json(None) == RuleSet()


@pytest.mark.parametrize(
    ("value", "fragment"),
    [
        ({"foo": 1}, "unknown rule option 'foo'"),
        ({"cap": "9"}, "'cap'"),
        ({"cap": True}, "'cap'"),
        ({"louhu": "sometimes"}, "'bigger_exception', 'strict', 'same_tile'"),
        ({"pihu_ron": "yes"}, "'pihu_ron'; allowed: true, false"),
        ({"base": 0}, "'base'"),
        ({"values": {"kawuxing": 0}}, "values.kawuxing"),
        ({"values": {"tianhu": 2}}, "unknown 番 'tianhu'"),
        ({"values": 3}, "'values' must be an object"),
        ({"gang_values": {"ming": 1}}, "unknown kong kind 'ming'"),
        ({"kwx_value": 3}, "'kwx_value'; allowed: 2, 4"),
        ({"szy_value": 4.0}, "'szy_value'"),
        ({"piao": "dingpiao"}, "not supported"),
        ({"extras": {"maima": "zimo"}}, "not supported"),
        ({"shukan": True}, "not supported"),
        ({"players": 5}, "'players'; allowed: an integer from 2 to 4"),
        ({"players": 1}, "'players'"),
        ({"suits": "psmp"}, "'suits'"),
        ({"ruleset": "kawuxing2"}, "bad value"),
        ({"four_players": "rotate"}, "bad value"),
        ({"suits": ["p", "p"]}, "'suits'"),
        ({"preset": "beijing"}, "unknown rules preset 'beijing'"),
        ({"preset": 3}, "'preset'"),
        ("standardx", "unknown rules preset"),
        (42, "rules must be a preset name or an object"),
    ],
)
def test_rejections(value: object, fragment: str) -> None:
    with pytest.raises(RuleError) as info:
        RuleSet.from_json(value)
    assert fragment in str(info.value)
    assert isinstance(info.value, ValueError)


def test_every_appendix_1_key_is_known() -> None:
    appendix = {
        "ruleset", "players", "suits", "dragons", "base", "cap", "pihu_ron", "qihu_2fan",
        "situational_for_qihu", "louhu", "liangdao_reveal", "liangdao_min_wall", "liangdao_kong",
        "liangdao_auto_win", "liangdao_payer_double", "dui_liang_fanfan", "baohu", "liangdao_protect",
        "guohu_fanfan", "huangzhuang_liangdao", "dealer_on_draw", "first_dealer", "four_players",
        "kwx_rule", "values", "szy_with_pph", "sigui_scope", "ansigui_requires_pung", "sigui_multi",
        "sanyuan_qidui", "qianggang", "gang_values", "gang_chain", "gang_chain_self",
        "gangshang_chain_hu", "bugang_immediate", "kong_after_peng", "guoshou_peng", "extras",
    }  # fmt: skip
    section_c = {"kwx_value", "pph_value", "gangshang_value", "qianggang_value", "msgy_value", "szy_value",
                 "sanlong_value", "haidi_pao", "haidi_pihu", "piao", "maima", "shukan", "chuzi"}  # fmt: skip
    assert appendix | section_c <= KNOWN_OPTIONS
    # every documented value of every enumerated option is accepted
    for key, values in {
        "louhu": ["bigger_exception", "strict", "same_tile"],
        "liangdao_reveal": ["full", "kou", "minimal"],
        "liangdao_kong": ["waits_unchanged", "none", "anpu_and_bugang_only"],
        "huangzhuang_liangdao": ["s000", "s004_first", "chajiao", "none"],
        "dealer_on_draw": ["stay", "last_drawer", "chajiao"],
        "first_dealer": ["random", "host"],
        "kwx_rule": ["generous", "strict_single_wait"],
        "gang_chain": ["double", "flat2", "linear"],
        "gang_chain_self": ["replacement_only", "any_kong_same_turn"],
        "gangshang_chain_hu": ["x2_only", "compound"],
        "cap": ["none", "8", "8_sl16", "16", "32"],
        "liangdao_min_wall": [0, 12],
    }.items():
        for value in values:
            assert RuleSet.from_json({key: value}).to_json()[key] == value
