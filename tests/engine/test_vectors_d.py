"""Every hand vector of docs/rules.md §D (D-series), run through the ``score`` command's code path.

Seats: the winner W is 0; on a discard the discarder D is 1 (X = 2) unless the vector says the
discarder is "Y" (then 2).  On a self-draw X = 1, Y = 2.  底金 B = 1.  ``deltas`` are the hand
payments only (kong money is settled by the game, not by ``score``).  ⚠ alternatives are listed
under their options with the vector id suffixed (``D02/pihu_ron``).
"""

from __future__ import annotations

import collections
from dataclasses import dataclass, field
from typing import Any

import pytest

from engine.cli_score import answer


@dataclass(frozen=True)
class V:
    """One vector: the question and the expected answer."""

    id: str
    concealed: str
    melds: tuple[str, ...]
    win: str
    how: str  # self_draw / discard / rob_kong
    fans: tuple[str, ...]
    multiplier: dict[int, int]
    deltas: tuple[int, int, int]
    discarder: int | None = None
    liangdao: tuple[int, ...] = ()  # seats that have 亮倒
    rules: Any = None
    after_kong: bool = False
    last_tile: bool = False
    legal: bool = True
    complete: bool = True
    winner: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    def question(self) -> dict[str, Any]:
        q: dict[str, Any] = {
            "concealed": self.concealed,
            "melds": list(self.melds),
            "win_tile": self.win,
            "win_by": self.how,
            "winner": self.winner,
            "liangdao": [seat in self.liangdao for seat in range(3)],
            "after_kong": self.after_kong,
            "last_tile": self.last_tile,
        }
        if self.how != "self_draw":
            q["discarder"] = 1 if self.discarder is None else self.discarder
        if self.rules is not None:
            q["rules"] = self.rules
        q.update(self.extra)
        return q


SELF, DISC, ROB = "self_draw", "discard", "rob_kong"
NO = (0, 0, 0)
D01 = "123p456p234s78s99p"
D08 = "123p789p234s46s88s"
D13 = "123p789p2245667s"
D25_MELDS = ("pong 111p", "pong 333p", "pong 777p", "kong 9999p")
D33 = "2222s4444s88p6z6z7z"
D52 = "123p456p789p23s99s"
D55_MELDS = ("pong 111p", "pong 999s")

VECTORS: list[V] = [
    # D.1 plain hands and 亮倒 factors
    V("D01", D01, (), "9s", SELF, ("屁胡",), {1: 1, 2: 1}, (2, -1, -1)),
    V("D02", D01, (), "9s", DISC, ("屁胡",), {1: 1}, NO, legal=False),
    V("D02/pihu_ron", D01, (), "9s", DISC, ("屁胡",), {1: 1}, (1, -1, 0), rules={"pihu_ron": True}),
    V("D03", D01, (), "9s", DISC, ("亮倒",), {1: 2}, (2, -2, 0), liangdao=(1,)),
    V("D03/no_payer_double", D01, (), "9s", DISC, ("屁胡",), {1: 1}, NO, liangdao=(1,),
      rules={"liangdao_payer_double": False}, legal=False),  # E#47
    V("D04", D01, (), "9s", SELF, ("亮倒",), {1: 2, 2: 2}, (4, -2, -2), liangdao=(0,)),
    V("D05", D01, (), "9s", DISC, ("亮倒",), {1: 2, 2: 2}, (4, -4, 0), liangdao=(0,)),
    V("D05/no_baohu", D01, (), "9s", DISC, ("亮倒",), {1: 2}, (2, -2, 0), liangdao=(0,),
      rules={"baohu": False}),
    V("D06", D01, (), "9s", DISC, ("亮倒",), {1: 2}, (2, -2, 0), liangdao=(0, 1)),
    V("D06/dui_liang_fanfan", D01, (), "9s", DISC, ("亮倒",), {1: 4}, (4, -4, 0), liangdao=(0, 1),
      rules={"dui_liang_fanfan": True}),
    # D.2 卡五星
    V("D08", D08, (), "5s", DISC, ("卡五星",), {1: 2}, (2, -2, 0)),
    V("D09", D08, (), "5s", SELF, ("卡五星",), {1: 2, 2: 2}, (4, -2, -2)),
    V("D10", D08, (), "5s", SELF, ("卡五星", "亮倒"), {1: 4, 2: 4}, (8, -4, -4), liangdao=(0,)),
    V("D11", D08, (), "5s", DISC, ("卡五星", "亮倒"), {1: 4, 2: 4}, (8, -8, 0), liangdao=(0,)),
    V("D12", "123p789p5z5z5z4556s", (), "5s", DISC, ("卡五星",), {1: 2}, (2, -2, 0)),
    V("D12/strict", "123p789p5z5z5z4556s", (), "5s", DISC, ("卡五星",), {1: 2}, (2, -2, 0),
      rules={"kwx_rule": "strict_single_wait"}),
    V("D13", D13, (), "5s", DISC, ("卡五星",), {1: 2}, (2, -2, 0)),
    V("D13/strict", D13, (), "5s", DISC, ("屁胡",), {1: 1}, NO, rules={"kwx_rule": "strict_single_wait"},
      legal=False),
    V("D14/discard", D13, (), "8s", DISC, ("屁胡",), {1: 1}, NO, legal=False),
    V("D14/self", D13, (), "8s", SELF, ("屁胡",), {1: 1, 2: 1}, (2, -1, -1)),
    V("D17", "123p789p234s678s5s", (), "5s", SELF, ("屁胡",), {1: 1, 2: 1}, (2, -1, -1)),
    V("D17/discard", "123p789p234s678s5s", (), "5s", DISC, ("屁胡",), {1: 1}, NO, legal=False),
    V("D19", "123p789p234s55s99s", (), "5s", SELF, ("屁胡",), {1: 1, 2: 1}, (2, -1, -1)),
    V("D20", "123p789p234s67s99s", (), "5s", SELF, ("屁胡",), {1: 1, 2: 1}, (2, -1, -1)),
    V("D21", "123p46s777s5z5z", ("concealed_kong 9999p",), "5s", DISC, ("卡五星",), {1: 2}, (2, -2, 0)),
    # D.3 碰碰胡, 手抓一, 四归一
    V("D22", "333p777s5z", D55_MELDS, "5z", DISC, ("碰碰胡",), {1: 2}, (2, -2, 0)),
    V("D23", "444p777s6z", ("kong 8888p", "concealed_kong 2222s"), "6z", SELF, ("碰碰胡",), {1: 2, 2: 2},
      (4, -2, -2)),
    V("D25", "5p", D25_MELDS, "5p", SELF, ("手抓一", "清一色"), {1: 16, 2: 16}, (16, -8, -8)),
    V("D25/nocap", "5p", D25_MELDS, "5p", SELF, ("手抓一", "清一色"), {1: 16, 2: 16}, (32, -16, -16),
      rules="nocap"),
    V("D25/szy_with_pph", "5p", D25_MELDS, "5p", SELF, ("碰碰胡", "手抓一", "清一色"), {1: 32, 2: 32},
      (64, -32, -32), rules={"preset": "nocap", "szy_with_pph": True}),
    V("D26", "123p456p99p7s9s", ("pong 888s",), "8s", DISC, ("明四归一",), {1: 2}, (2, -2, 0)),
    V("D26/msgy_value", "123p456p99p7s9s", ("pong 888s",), "8s", DISC, ("明四归一",), {1: 4}, (4, -4, 0),
      rules={"msgy_value": 4}),
    V("D27", "123p456p777s89s99p", (), "7s", DISC, ("暗四归一",), {1: 4}, (4, -4, 0)),
    # D.4 七对 family, caps, which reading wins
    V("D31", "1111p33p77p22s88s6z", (), "6z", SELF, ("龙七对",), {1: 8, 2: 8}, (16, -8, -8)),
    V("D32", "111p33p77p22s88s6z6z", (), "1p", DISC, ("龙七对",), {1: 8}, (8, -8, 0)),
    V("D33", D33, (), "7z", SELF, ("双龙七对",), {1: 16, 2: 16}, (32, -16, -16)),
    V("D33/cap8", D33, (), "7z", SELF, ("双龙七对",), {1: 16, 2: 16}, (16, -8, -8), rules={"cap": "8"}),
    V("D33/shiyan", D33, (), "7z", SELF, ("双龙七对",), {1: 16, 2: 16}, (16, -8, -8), rules="shiyan"),
    V("D33/nocap", D33, (), "7z", SELF, ("双龙七对",), {1: 16, 2: 16}, (32, -16, -16), rules={"cap": "none"}),
    V("D34", D33, (), "7z", SELF, ("双龙七对", "亮倒"), {1: 32, 2: 32}, (32, -16, -16), liangdao=(0,)),
    V("D34/nocap", D33, (), "7z", SELF, ("双龙七对", "亮倒"), {1: 32, 2: 32}, (64, -32, -32), liangdao=(0,),
      rules="nocap"),
    V("D35", "11s22s33s44s5s66s77s", (), "5s", DISC, ("七对", "清一色"), {1: 16}, (8, -8, 0)),
    V("D35/nocap", "11s22s33s44s5s66s77s", (), "5s", DISC, ("七对", "清一色"), {1: 16}, (16, -16, 0),
      rules="nocap"),
    V("D37", "44s66s5s11p22p33p99p", (), "5s", DISC, ("七对",), {1: 4}, (4, -4, 0)),
    V("D38", "11p33p44p66p77p99p2p", (), "2p", DISC, ("七对", "清一色"), {1: 16}, (8, -8, 0)),
    V("D41", "5z5z6z6z7z11p33p55p77p", (), "7z", SELF, ("七对",), {1: 4, 2: 4}, (8, -4, -4)),
    V("D41/sanyuan_qidui", "5z5z6z6z7z11p33p55p77p", (), "7z", SELF, ("小三元七对",), {1: 8, 2: 8},
      (16, -8, -8), rules={"sanyuan_qidui": True}),
    # D.5 三元, 清一色 combinations
    V("D42", "7z7z123p88s", ("pong 555z", "pong 666z"), "7z", DISC, ("大三元",), {1: 8}, (8, -8, 0)),
    V("D43", "7z7z123p88s", ("pong 555z", "pong 666z"), "8s", DISC, ("小三元",), {1: 4}, (4, -4, 0)),
    V("D44", "7z7z222p99s", ("pong 555z", "kong 6666z"), "9s", SELF, ("小三元", "碰碰胡"), {1: 8, 2: 8},
      (16, -8, -8)),
    V("D46", "111p234p46p789p99p", (), "5p", DISC, ("清一色", "卡五星"), {1: 8}, (8, -8, 0)),
    # D.6 kong-related and last-tile wins (Y = seat 2)
    V("D48", "123s456s789s9p", ("concealed_kong 3333p",), "9p", SELF, ("杠上开花",), {1: 2, 2: 2}, (4, -2, -2),
      after_kong=True),
    V("D49", "123p456p789p67s99p", (), "8s", DISC, ("杠上炮",), {2: 2}, (2, 0, -2), discarder=2, after_kong=True),
    V("D49/no_situational", "123p456p789p67s99p", (), "8s", DISC, ("杠上炮",), {2: 2}, NO, discarder=2,
      after_kong=True, rules={"situational_for_qihu": False}, legal=False),
    V("D50", "123p456p789p68s5z5z", (), "7s", ROB, ("抢杠胡",), {2: 2}, (2, 0, -2), discarder=2),
    V("D50/no_situational", "123p456p789p68s5z5z", (), "7s", ROB, ("抢杠胡",), {2: 2}, NO, discarder=2,
      rules={"situational_for_qihu": False}, legal=False),
    V("D50/no_qianggang", "123p456p789p68s5z5z", (), "7s", ROB, ("抢杠胡",), {2: 2}, NO, discarder=2,
      rules={"qianggang": False}, legal=False),
    V("D52", D52, (), "4s", SELF, ("海底捞月",), {1: 2, 2: 2}, (4, -2, -2), last_tile=True),
    V("D54", D52, (), "4s", DISC, ("屁胡",), {2: 1}, NO, discarder=2, last_tile=True, legal=False),
    V("D54/haidi_pao", D52, (), "4s", DISC, ("海底炮",), {2: 2}, (2, 0, -2), discarder=2, last_tile=True,
      rules={"haidi_pao": 2}),
    V("D55", "333p777s5z", D55_MELDS, "5z", DISC, ("碰碰胡",), {2: 2}, (2, 0, -2), discarder=2, last_tile=True),
    V("D55/haidi_pao", "333p777s5z", D55_MELDS, "5z", DISC, ("碰碰胡", "海底炮"), {2: 4}, (4, 0, -4),
      discarder=2, last_tile=True, rules={"haidi_pao": 2}),
    # D.7 一炮双响: D (seat 1) discards 5s, W1 = seat 0 and W2 = seat 2 each settled separately
    V("D57/W1", D08, (), "5s", DISC, ("卡五星",), {1: 2}, (2, -2, 0)),
    V("D57/W2", "777s55s99p", ("pong 222p", "pong 888p"), "5s", DISC, ("碰碰胡",), {1: 2}, (0, -2, 2), winner=2),
    # D.8 not wins
    V("D60", "123p456p789p123s5s", (), "7s", SELF, (), {}, NO, legal=False, complete=False),
    V("D61", "22p44p66p88p11s", ("pong 999s",), "1s", SELF, (), {}, NO, legal=False, complete=False),
    V("D63", "123p456p789p22s5z5z", (), "2s", DISC, ("屁胡",), {1: 1}, NO, legal=False),
]  # fmt: skip


@pytest.mark.parametrize("v", VECTORS, ids=[v.id for v in VECTORS])
def test_vector(v: V) -> None:
    out = answer(v.question())
    assert out["complete"] is v.complete
    assert out["legal"] is v.legal
    assert collections.Counter(out["fans"]) == collections.Counter(v.fans)
    assert out["multiplier"] == {str(k): m for k, m in v.multiplier.items()}
    assert tuple(out["deltas"]) == v.deltas
    assert sum(out["deltas"]) == 0
    assert isinstance(out["reading"], str) and (out["reading"] != "") is v.complete


def test_d57_double_ron_total() -> None:
    """D57: the discarder pays both winners; W1 +2, W2 +2, D −4."""
    by_id = {v.id: v for v in VECTORS}
    total = [a + b for a, b in zip(answer(by_id["D57/W1"].question())["deltas"],
                                   answer(by_id["D57/W2"].question())["deltas"], strict=True)]  # fmt: skip
    assert total == [2, -4, 2]


@pytest.mark.parametrize(
    ("vid", "reading"),
    [
        ("D08", "123p 789p 234s 456s 88s"),
        ("D13", "123p 789p 22s 456s 567s"),
        ("D14/self", "123p 789p 22s 456s 678s"),
        ("D17", "123p 789p 234s 55s 678s"),
        ("D19", "123p 789p 234s 555s 99s"),
        ("D22", "333p 777s 55z [碰 111p] [碰 999s]"),
        ("D31", "1111p 33p 77p 22s 88s 66z"),
        ("D35", "11s 22s 33s 44s 55s 66s 77s"),
        ("D37", "11p 22p 33p 99p 44s 55s 66s"),
        ("D42", "123p 88s 777z [碰 555z] [碰 666z]"),
    ],
)
def test_chosen_reading(vid: str, reading: str) -> None:
    """The reading shown is the one whose 番 were counted (A10.1)."""
    v = next(v for v in VECTORS if v.id == vid)
    assert answer(v.question())["reading"] == reading
