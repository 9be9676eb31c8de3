"""Compact specs of the scenario files (see build.py).  Seats: 0 = A/W, 1 = B/X, 2 = C/Y.

Every ``expect`` is derived by hand from docs/rules.md (the vector or rule named in ``description``), not
from the engine's output.
"""

from __future__ import annotations

from build import Spec

W1_KWX = "123p789p234s46s88s"  # 卡五星 wait on 5s (D08)
PIHU_69 = "123p456p234s78s99p"  # 屁胡, waits 6s/9s (D01)
PIHU_14 = "123p456p789p23s99s"  # 屁胡, waits 1s/4s (D52)
DEAD_5Z = "777z123p456p789p5z"  # tanki 5z; 5z held by others in these deals

SPECS: list[Spec] = [
    # ------------------------------------------------------------------ G: kong money (A13)
    Spec(
        "g1_concealed_kong",
        "G1: A declares 暗杠 (no chain): B -2, C -2, A +4, paid at once; A draws a replacement from the back",
        hands=["1111p2345p678s99s5z", "", ""],
        tail="9p",
        actions=["0 concealed_kong 1p"],
        expect={
            "events_include": [
                {"type": "konged", "seat": 0, "kind": "concealed_kong", "tile": "1p", "money": [4, -2, -2], "chain": 1},
                {"type": "drew", "seat": 0, "tile": "9p", "replacement": True},
            ],
            "state": {"phase": "turn", "to_act": [0]},
        },
    ),
    Spec(
        "h1_kong_money_stands",
        "H1: no 亮倒, A's 暗杠 earlier; 荒庄: kong money stands (A +4, B -2, C -2), no hand payments, dealer stays",
        hands=["1111p2345p678s99s5z", "", ""],
        actions=["0 concealed_kong 1p"],
        finish=True,
        expect={
            "result": {
                "outcome": "draw",
                "winners": [],
                "hand_deltas": [0, 0, 0],
                "kong_deltas": [4, -2, -2],
                "deltas": [4, -2, -2],
                "next_dealer": 0,
            }
        },
    ),
    Spec(
        "g2_added_kong",
        "G2: A 碰s 6s, draws the 4th 6s and 补杠s it on that turn (not robbed): B -1, C -1, A +2",
        hands=["66s9p", "6s", ""],
        draws="? ? ? 6s",
        actions=["1 discard 6s", "0 pong", "0 discard 9p", "0 added_kong 6s"],
        expect={
            "events_include": [
                {"type": "ponged", "seat": 0, "tile": "6s", "from_seat": 1},
                {"type": "konged", "seat": 0, "kind": "added_kong", "tile": "6s", "money": [2, -1, -1]},
            ]
        },
    ),
    Spec(
        "g3_direct_kong",
        "G3: A 直杠s B's discard: B -2, A +2, C 0",
        hands=["777s", "7s", ""],
        actions=["1 discard 7s", "0 kong"],
        expect={
            "events_include": [
                {
                    "type": "window_opened",
                    "from_seat": 1,
                    "tile": "7s",
                    "options": [{"seat": 0, "win": 0, "kong": True, "pong": True}],
                },
                {"type": "konged", "seat": 0, "kind": "kong", "tile": "7s", "from_seat": 1, "money": [2, -2, 0]},
                {"type": "drew", "seat": 0, "replacement": True},
            ]
        },
    ),
    Spec(
        "g6_bugang_declined",
        "G6 / A6.2: A holds [碰 666s], draws the 4th 6s and discards another tile; on a later turn 补杠 6s is refused",
        hands=["66s9p9s", "6s", ""],
        draws="? ? ? 6s",
        actions=["1 discard 6s", "0 pong", "0 discard 9p", "0 discard 9s", "0 added_kong 6s"],
        expect={"error": {"index": -1, "reason": "bugang_not_immediate"}},
    ),
    Spec(
        "g6_bugang_declined_discard",
        "G6: after declining the 补杠, the kept 6s is no longer offered for 补杠; discarding it later is ordinary",
        hands=["66s9p9s", "6s", ""],
        draws="? ? ? 6s",
        actions=["1 discard 6s", "0 pong", "0 discard 9p", "0 discard 9s", "0 discard 6s"],
        expect={
            "events_include": [{"type": "discarded", "seat": 0, "tile": "6s", "liangdao": False}],
            "events_exclude": [{"type": "konged"}],
        },
    ),
    Spec(
        "chain_self_replacement",
        "A13.3(a) 杠上杠: A 暗杠s 1p, the replacement is the 4th 2p and A 暗杠s it: the 2nd kong pays ×2 "
        "(A +12, B -6, C -6 in all)",
        hands=["1111p222p", "", ""],
        tail="2p ?",
        actions=["0 concealed_kong 1p", "0 concealed_kong 2p", "0 discard *"],
        expect={
            "events_include": [
                {"type": "konged", "tile": "1p", "money": [4, -2, -2], "chain": 1},
                {"type": "konged", "tile": "2p", "money": [8, -4, -4], "chain": 2},
            ]
        },
    ),
    Spec(
        "chain_self_other_tile",
        "A13.3 / E#17: a second 暗杠 in the same turn that does not use the replacement tile starts a new chain",
        hands=["1111p2222p", "", ""],
        tail="9s ?",
        actions=["0 concealed_kong 1p", "0 concealed_kong 2p", "0 discard *"],
        expect={
            "events_include": [
                {"type": "konged", "tile": "1p", "money": [4, -2, -2], "chain": 1},
                {"type": "konged", "tile": "2p", "money": [4, -2, -2], "chain": 1},
            ]
        },
    ),
    Spec(
        "chain_self_any_kong",
        "gang_chain_self = any_kong_same_turn: the same second 暗杠 continues the chain (×2)",
        rules={"preset": "standard", "gang_chain_self": "any_kong_same_turn"},
        hands=["1111p2222p", "", ""],
        tail="9s ?",
        actions=["0 concealed_kong 1p", "0 concealed_kong 2p", "0 discard *"],
        expect={"events_include": [{"type": "konged", "tile": "2p", "money": [8, -4, -4], "chain": 2}]},
    ),
    Spec(
        "chain_direct_kong",
        "A13.3(b) 杠上杠: A 暗杠s, draws, discards 5z; B 直杠s that first discard after the kong: ×2 (A pays 4)",
        hands=["1111p5z", "555z", ""],
        tail="9s ?",
        actions=["0 concealed_kong 1p", "0 discard 5z", "1 kong", "1 discard *"],
        expect={
            "events_include": [
                {"type": "konged", "seat": 0, "tile": "1p", "money": [4, -2, -2], "chain": 1},
                {"type": "window_opened", "from_seat": 0, "tile": "5z", "gangpao": True},
                {"type": "konged", "seat": 1, "kind": "kong", "tile": "5z", "money": [-4, 4, 0], "chain": 2},
            ]
        },
    ),
    Spec(
        "chain_direct_kong_linear",
        "gang_chain = linear: the 2nd kong of a chain pays ×2 as well (×n)",
        rules={"preset": "standard", "gang_chain": "linear"},
        hands=["1111p5z", "555z", ""],
        tail="9s ?",
        actions=["0 concealed_kong 1p", "0 discard 5z", "1 kong", "1 discard *"],
        expect={"events_include": [{"type": "konged", "seat": 1, "money": [-4, 4, 0], "chain": 2}]},
    ),
    # ------------------------------------------------------------------ K: 亮倒 kongs (A9.5)
    Spec(
        "k2_liangdao_kong_choice",
        "K2 / E#41: 亮倒 hand 123p456p777s23s99s (waits 1s/4s) draws 7s: 暗杠 is offered beside the automatic discard",
        hands=["123p456p777s23s99s5z", "", ""],
        draws="7z 7z 7s",
        actions=["0 liangdao 5z"],
        stop_at=0,
        expect={
            "events_include": [{"type": "discarded", "seat": 0, "tile": "5z", "liangdao": True, "waits": "14s"}],
            "state": {
                "to_act": [0],
                "legal_actions": {"0": [{"act": "concealed_kong", "tile": "7s"}, {"act": "discard", "tile": "7s"}]},
            },
        },
    ),
    Spec(
        "k2_liangdao_concealed_kong",
        "K2: the 亮倒 player's 暗杠 7777s keeps the waits 1s/4s: allowed, pays 2 each, replacement drawn and "
        "discarded automatically",
        hands=["123p456p777s23s99s5z", "", ""],
        draws="7z 7z 7s",
        tail="9p",
        actions=["0 liangdao 5z", "0 concealed_kong 7s"],
        expect={
            "events_include": [
                {"type": "konged", "seat": 0, "kind": "concealed_kong", "tile": "7s", "money": [4, -2, -2]},
                {"type": "drew", "seat": 0, "tile": "9p", "replacement": True},
                {"type": "discarded", "seat": 0, "tile": "9p", "auto": True},
            ]
        },
    ),
    Spec(
        "k2_liangdao_kong_none",
        "K2 with liangdao_kong = none ([KY]): no kong; the drawn 7s is discarded automatically",
        rules={"preset": "standard", "liangdao_kong": "none"},
        hands=["123p456p777s23s99s5z", "", ""],
        draws="7z 7z 7s",
        actions=["0 liangdao 5z", "1 discard * @w40"],
        expect={
            "events_include": [{"type": "discarded", "seat": 0, "tile": "7s", "auto": True}],
            "events_exclude": [{"type": "konged"}],
        },
    ),
    Spec(
        "liangdao_direct_kong",
        "A9.5 / E#41: a 亮倒 player may 直杠 a discard when the waits stay the same (asked: kong or pass)",
        hands=["123p456p777s23s99s5z", "7s", ""],
        draws="7z",
        actions=["0 liangdao 5z", "1 discard 7s", "0 kong"],
        expect={
            "events_include": [
                {
                    "type": "window_opened",
                    "from_seat": 1,
                    "tile": "7s",
                    "options": [{"seat": 0, "win": 0, "kong": True, "pong": False}],
                },
                {"type": "konged", "seat": 0, "kind": "kong", "tile": "7s", "money": [2, -2, 0]},
            ]
        },
    ),
    # ------------------------------------------------------------------ H: 荒庄 (A14)
    Spec(
        "h2_one_liangdao",
        "H2: only A has 亮倒 (his wait 5z is dead): 荒庄, A -2, B +1, C +1",
        hands=[DEAD_5Z + "9s", "555z", ""],
        actions=["0 liangdao 9s"],
        finish=True,
        expect={"result": {"outcome": "draw", "hand_deltas": [-2, 1, 1], "kong_deltas": [0, 0, 0], "next_dealer": 0}},
    ),
    Spec(
        "h4_all_liangdao",
        "H4: all three 亮倒 (A first), every wait dead: 荒庄, nobody pays (s000)",
        hands=[DEAD_5Z + "9s", "555z123s456s789s6z", "666z234p678p345s7z"],
        actions=["0 liangdao 9s", "1 liangdao *", "2 liangdao *"],
        finish=True,
        expect={"result": {"outcome": "draw", "hand_deltas": [0, 0, 0], "next_dealer": 0}},
    ),
    Spec(
        "h4_all_liangdao_s004",
        "H4 with huangzhuang_liangdao = s004_first: the first 亮倒 player pays each other 1: A -2, B +1, C +1",
        rules={"preset": "standard", "huangzhuang_liangdao": "s004_first"},
        hands=[DEAD_5Z + "9s", "555z123s456s789s6z", "666z234p678p345s7z"],
        actions=["0 liangdao 9s", "1 liangdao *", "2 liangdao *"],
        finish=True,
        expect={"result": {"outcome": "draw", "hand_deltas": [-2, 1, 1]}},
    ),
    Spec(
        "h5_chajiao",
        "H5 (chajiao + dealer_on_draw chajiao): A 亮倒 on 5s (M 4), B ready 屁胡 (M 1), C not ready: "
        "A +2, B +3, C -5; A and C paid, so B deals next",
        rules={"preset": "standard", "huangzhuang_liangdao": "chajiao", "dealer_on_draw": "chajiao"},
        hands=[W1_KWX + "9s", "555s234p567p66z78s", "5s1p4p7p9p2s9s5z6z7z5p7s1s"],
        actions=["0 liangdao 9s"],
        finish=True,
        expect={"result": {"outcome": "draw", "hand_deltas": [2, 3, -5], "kong_deltas": [0, 0, 0], "next_dealer": 1}},
    ),
    Spec(
        "h_none_last_drawer",
        "huangzhuang_liangdao = none, dealer_on_draw = last_drawer: no 亮倒 penalty; the last seat to draw "
        "(seat 2 without kongs) deals",
        rules={"preset": "standard", "huangzhuang_liangdao": "none", "dealer_on_draw": "last_drawer"},
        hands=[DEAD_5Z + "9s", "555z", ""],
        actions=["0 liangdao 9s"],
        finish=True,
        expect={"result": {"outcome": "draw", "hand_deltas": [0, 0, 0], "next_dealer": 2}},
    ),
    # ------------------------------------------------------------------ L: 漏胡 (A8.3)
    Spec(
        "l1_louhu_blocked",
        "L1: W (seat 0) passes X's 5s (M 2); before W draws, Y discards 5s: blocked (2 is not > 2), no window",
        hands=[W1_KWX, "55s", "55s"],
        actions=["1 discard 5s", "0 pass", "2 discard 5s", "0 discard *"],
        expect={
            "events_include": [{"type": "answered", "seat": 0, "answer": "pass"}],
            "events_exclude": [{"type": "window_opened", "from_seat": 2, "tile": "5s"}],
        },
    ),
    Spec(
        "l1_louhu_strict",
        "L1 under louhu = strict: blocked",
        rules={"preset": "standard", "louhu": "strict"},
        hands=[W1_KWX, "55s", "55s"],
        actions=["1 discard 5s", "0 pass", "2 discard 5s", "0 discard *"],
        expect={"events_exclude": [{"type": "window_opened", "from_seat": 2, "tile": "5s"}]},
    ),
    Spec(
        "l1_louhu_same_tile",
        "L1 under louhu = same_tile: blocked too (same tile)",
        rules={"preset": "standard", "louhu": "same_tile"},
        hands=[W1_KWX, "55s", "55s"],
        actions=["1 discard 5s", "0 pass", "2 discard 5s", "0 discard *"],
        expect={"events_exclude": [{"type": "window_opened", "from_seat": 2, "tile": "5s"}]},
    ),
    Spec(
        "l2_louhu_bigger",
        "A8.3 / E#9 bigger_exception: W passes X's 5s (M 2); Y, who has 亮倒, then discards 5s: M 4 > 2, allowed",
        hands=[W1_KWX, "555s", "555z666z777z11p99s"],
        draws="6p 4p 2p 3p 5s",
        actions=["1 discard 5s", "0 pass", "2 liangdao *", "0 win"],
        expect={
            "result": {"outcome": "win", "winners": [{"seat": 0, "multiplier": {"2": 4}}], "hand_deltas": [4, 0, -4]}
        },
    ),
    Spec(
        "l2_louhu_bigger_strict",
        "The same under louhu = strict: the bigger win is blocked too",
        rules={"preset": "standard", "louhu": "strict"},
        hands=[W1_KWX, "555s", "555z666z777z11p99s"],
        draws="6p 4p 2p 3p 5s",
        actions=["1 discard 5s", "0 pass", "2 liangdao *", "0 discard *"],
        expect={"events_exclude": [{"type": "window_opened", "from_seat": 2, "tile": "5s"}]},
    ),
    Spec(
        "l3_louhu_lifted",
        "L3: after L1, W draws and discards; X discards 5s again: allowed (lifted by the draw), X -2",
        hands=[W1_KWX, "55s", "55s"],
        actions=["1 discard 5s", "0 pass", "2 discard 5s", "0 discard *", "1 discard 5s", "0 win"],
        expect={
            "result": {
                "outcome": "win",
                "winners": [{"seat": 0, "fans": ["卡五星"], "multiplier": {"1": 2}}],
                "hand_deltas": [2, -2, 0],
                "next_dealer": 0,
            }
        },
    ),
    Spec(
        "l4_louhu_illegal_first",
        "L4: W 屁胡 (waits 6s/9s). X discards 9s (not a legal win: no window, no 漏胡); then Y, who has 亮倒, "
        "discards 9s: allowed, M 2, Y -2",
        dealer=2,
        hands=[PIHU_69, "9s", "555z666z777z11p33s4p"],
        draws="2s ? 9s",
        actions=["2 liangdao 4p", "1 discard 9s", "0 win"],
        expect={
            "events_exclude": [{"type": "window_opened", "from_seat": 1, "tile": "9s"}],
            "result": {"winners": [{"seat": 0, "multiplier": {"2": 2}}], "hand_deltas": [2, 0, -2], "next_dealer": 0},
        },
    ),
    Spec(
        "l5_louhu_selfdraw",
        "L5: W passed X's 5s (L1), then self-draws 5s: 自摸 is never restricted, X -2, Y -2",
        hands=[W1_KWX, "55s", "5s"],
        draws="? ? 5s",
        actions=["1 discard 5s", "0 pass", "2 discard 5s", "0 win"],
        expect={
            "result": {
                "winners": [{"seat": 0, "fans": ["卡五星"], "multiplier": {"1": 2, "2": 2}}],
                "hand_deltas": [4, -2, -2],
            }
        },
    ),
    # ------------------------------------------------------------------ wins, 起胡, 包胡
    Spec(
        "dealer_complete_hand",
        "A7.4 / E#23 / E#43: the dealer's initial 14 are complete; the last tile dealt (5s) is the winning "
        "tile: 自摸 卡五星, B -2, C -2",
        hands=[W1_KWX + "5s", "", ""],
        actions=["0 win"],
        expect={
            "result": {
                "outcome": "win",
                "winners": [{"seat": 0, "fans": ["卡五星"]}],
                "hand_deltas": [4, -2, -2],
                "next_dealer": 0,
            }
        },
    ),
    Spec(
        "dealer_complete_hand_offered",
        "E#23: the complete initial hand is offered as a win",
        hands=[W1_KWX + "5s", "", ""],
        expect={"state": {"to_act": [0], "legal_actions_include": {"0": [{"act": "win"}]}}},
    ),
    Spec(
        "pihu_refused",
        "D02 / A8.2: 屁胡 cannot win on a discard; W is asked only because it can 碰, and 胡 is refused",
        hands=["123p456p789p88s99s", "9s", ""],
        actions=["1 discard 9s", "0 win"],
        expect={"error": {"index": -1, "reason": "pihu_cannot_win_on_discard"}},
    ),
    Spec(
        "pihu_ron_option",
        "pihu_ron = true: the same 屁胡 may win the discard, X -1",
        rules={"preset": "standard", "pihu_ron": True},
        hands=["123p456p789p88s99s", "9s", ""],
        actions=["1 discard 9s", "0 win"],
        expect={"result": {"winners": [{"seat": 0, "multiplier": {"1": 1}}], "hand_deltas": [1, -1, 0]}},
    ),
    Spec(
        "d05_liangdao_baohu",
        "D05 / A9.7: W 亮倒 (屁胡 waits 6s/9s) and wins D's 9s automatically; D has not 亮倒: 包胡, D -4, X 0",
        hands=[PIHU_69 + "5z", "9s", ""],
        draws="7z",
        actions=["0 liangdao 5z", "1 discard 9s"],
        expect={
            "events_include": [{"type": "answered", "seat": 0, "answer": "win", "auto": True}],
            "result": {
                "winners": [{"seat": 0, "fans": ["亮倒"], "multiplier": {"1": 2, "2": 2}}],
                "hand_deltas": [4, -4, 0],
                "next_dealer": 0,
            },
        },
    ),
    Spec(
        "liangdao_no_auto_win",
        "liangdao_auto_win = false: the 亮倒 player is asked (win or pass)",
        rules={"preset": "standard", "liangdao_auto_win": False},
        hands=[PIHU_69 + "5z", "9s", ""],
        draws="7z",
        actions=["0 liangdao 5z", "1 discard 9s"],
        expect={"state": {"phase": "claim", "to_act": [0], "legal_actions": {"0": [{"act": "win"}, {"act": "pass"}]}}},
    ),
    Spec(
        "liangdao_protect_refused",
        "liangdao_protect (A9.8): D may not discard 9s, a 亮倒 player's winning tile, while holding other tiles",
        rules={"preset": "standard", "liangdao_protect": True},
        hands=[PIHU_69 + "5z", "9s", ""],
        draws="7z",
        actions=["0 liangdao 5z", "1 discard 9s"],
        expect={"error": {"index": -1, "reason": "protected_tile"}},
    ),
    Spec(
        "liangdao_not_ready",
        "A9.1: 亮倒 needs a discard that leaves the hand ready",
        hands=["123p456p789p1s3s5s7s", "", ""],
        actions=["0 liangdao 1s"],
        expect={"error": {"index": 0, "reason": "not_ready_for_liangdao"}},
    ),
    Spec(
        "liangdao_min_wall_refused",
        "liangdao_min_wall = 12: no 亮倒 with 11 tiles left in the wall",
        rules={"preset": "standard", "liangdao_min_wall": 12},
        hands=[W1_KWX, "", ""],
        actions=["0 liangdao * @w11"],
        expect={"error": {"index": -1, "reason": "liangdao_wall_too_short"}},
    ),
    Spec(
        "liangdao_min_wall_ok",
        "liangdao_min_wall = 12: 亮倒 with 14 tiles left is fine",
        rules={"preset": "standard", "liangdao_min_wall": 12},
        hands=[W1_KWX, "", ""],
        actions=["0 liangdao * @w14", "1 discard *"],
        expect={"events_include": [{"type": "discarded", "seat": 0, "liangdao": True, "waits": "5s"}]},
    ),
    # ------------------------------------------------------------------ kong situations
    Spec(
        "d48_gangshang_kaihua",
        "D48: A 暗杠s 3333p and wins on the replacement 9p: 杠上开花 M 2 (B -2, C -2) plus kong money 2 each: A +8",
        hands=["333p123s456s789s9p3p", "", ""],
        tail="9p",
        actions=["0 concealed_kong 3p", "0 win"],
        expect={
            "result": {
                "winners": [{"seat": 0, "fans": ["杠上开花"], "multiplier": {"1": 2, "2": 2}}],
                "hand_deltas": [4, -2, -2],
                "kong_deltas": [4, -2, -2],
                "deltas": [8, -4, -4],
            }
        },
    ),
    Spec(
        "d49_gangshang_pao",
        "D49: Y 补杠s 5z (X -1, W -1), draws, discards 8s; W's plain hand wins it as 杠上炮 (M 2): net W +1, X -1, Y 0",
        dealer=2,
        hands=["123p456p789p67s99p", "", "5z5z3s"],
        draws="5z ? ? 5z",
        tail="8s",
        actions=["0 discard 5z", "2 pong", "2 discard 3s", "2 added_kong 5z", "2 discard 8s", "0 win"],
        expect={
            "result": {
                "winners": [{"seat": 0, "fans": ["杠上炮"], "multiplier": {"2": 2}}],
                "hand_deltas": [2, 0, -2],
                "kong_deltas": [-1, -1, 2],
                "deltas": [1, -1, 0],
                "next_dealer": 0,
            }
        },
    ),
    Spec(
        "d50_qianggang",
        "D50 / A6.6: W (123p456p789p68s5z5z) robs Y's 补杠 of 7s: 抢杠胡 M 2, Y -2; the kong is void (no kong money)",
        dealer=2,
        hands=["123p456p789p68s5z5z", "7s", "77s3s"],
        draws="? ? ? ? 7s",
        actions=["1 discard 7s", "2 pong", "2 discard 3s", "2 added_kong 7s", "0 win"],
        expect={
            "events_include": [{"type": "window_opened", "kind": "rob", "from_seat": 2, "tile": "7s"}],
            "events_exclude": [{"type": "konged"}],
            "result": {
                "winners": [{"seat": 0, "fans": ["抢杠胡"], "multiplier": {"2": 2}}],
                "hand_deltas": [2, 0, -2],
                "kong_deltas": [0, 0, 0],
                "next_dealer": 0,
            },
        },
    ),
    Spec(
        "d50_qianggang_passed",
        "A6.6: W passes the rob; the 补杠 completes (B -1, W -1) and Y draws a replacement",
        dealer=2,
        hands=["123p456p789p68s5z5z", "7s", "77s3s"],
        draws="? ? ? ? 7s",
        actions=["1 discard 7s", "2 pong", "2 discard 3s", "2 added_kong 7s", "0 pass", "2 discard *"],
        expect={
            "events_include": [
                {"type": "answered", "seat": 0, "answer": "pass"},
                {"type": "konged", "seat": 2, "kind": "added_kong", "tile": "7s", "money": [-1, -1, 2]},
            ]
        },
    ),
    Spec(
        "d50_qianggang_off",
        "qianggang = false: no rob window; the 补杠 completes",
        rules={"preset": "standard", "qianggang": False},
        dealer=2,
        hands=["123p456p789p68s5z5z", "7s", "77s3s"],
        draws="? ? ? ? 7s",
        actions=["1 discard 7s", "2 pong", "2 discard 3s", "2 added_kong 7s", "2 discard *"],
        expect={
            "events_include": [{"type": "konged", "seat": 2, "kind": "added_kong", "money": [-1, -1, 2]}],
            "events_exclude": [{"type": "window_opened", "kind": "rob"}],
        },
    ),
    Spec(
        "kong_after_pong_refused",
        "A6.3: no 暗杠 right after 碰 (kongs wait for a turn with a draw)",
        hands=["1111p66s9p", "6s", ""],
        actions=["1 discard 6s", "0 pong", "0 concealed_kong 1p"],
        expect={"error": {"index": -1, "reason": "kong_not_allowed_after_pong"}},
    ),
    Spec(
        "kong_after_peng_option",
        "kong_after_peng = true: the 暗杠 right after 碰 is accepted",
        rules={"preset": "standard", "kong_after_peng": True},
        hands=["1111p66s9p", "6s", ""],
        actions=["1 discard 6s", "0 pong", "0 concealed_kong 1p", "0 discard *"],
        expect={"events_include": [{"type": "konged", "seat": 0, "kind": "concealed_kong", "money": [4, -2, -2]}]},
    ),
    Spec(
        "kong_on_last_tile_refused",
        "A6.5 / A16.1: the player who draws the last tile may not kong",
        dealer=1,
        hands=["1111p", "", ""],
        actions=["0 concealed_kong 1p @w0"],
        expect={"error": {"index": -1, "reason": "kong_on_last_tile"}},
    ),
    # ------------------------------------------------------------------ last tiles (A16), 一炮双响
    Spec(
        "d52_haidilao",
        "D52: W self-draws the last wall tile 4s: 海底捞月 M 2, X -2, Y -2",
        dealer=1,
        hands=[PIHU_14, "1111s", "444s"],
        tail="4s",
        actions=["0 win @w0"],
        expect={
            "result": {
                "winners": [{"seat": 0, "fans": ["海底捞月"], "multiplier": {"1": 2, "2": 2}}],
                "hand_deltas": [4, -2, -2],
                "next_dealer": 0,
            }
        },
    ),
    Spec(
        "d54_last_discard_pihu",
        "D54 / A5.4 / A16.2: Y draws the last tile and discards 4s; W's 屁胡 may not take it and X may not 碰/杠 "
        "it: 荒庄",
        hands=[PIHU_14, "444s", "1111s"],
        tail="4s",
        actions=["2 discard 4s @w0"],
        expect={
            "events_exclude": [{"type": "window_opened", "from_seat": 2, "tile": "4s"}],
            "result": {"outcome": "draw", "hand_deltas": [0, 0, 0], "next_dealer": 0},
        },
    ),
    Spec(
        "last_discard_win",
        "A16.2: the final discard may be won when M >= 2 (卡五星), Y -2; X holding 555s is offered nothing",
        hands=[W1_KWX, "555s", ""],
        tail="5s",
        actions=["2 discard 5s @w0", "0 win"],
        expect={
            "events_include": [
                {
                    "type": "window_opened",
                    "from_seat": 2,
                    "tile": "5s",
                    "last": True,
                    "options": [{"seat": 0, "win": 2, "kong": False, "pong": False}],
                }
            ],
            "result": {"winners": [{"seat": 0, "fans": ["卡五星"]}], "hand_deltas": [2, 0, -2]},
        },
    ),
    Spec(
        "d57_double_ron",
        "D57 / A5.2 / A12.5: D discards 5s; W1 (卡五星) and W2 (碰碰胡 with [碰 222p][碰 888p]) both win: "
        "D -4, each +2; the discarder deals next (A15.2)",
        hands=[W1_KWX, "2p8p5s", "777s55s99p22p88p3s4p"],
        actions=[
            "1 discard 2p",
            "2 pong",
            "2 discard 3s",
            "1 discard 8p",
            "2 pong",
            "2 discard 4p",
            "1 discard 5s",
            "0 win",
            "2 win",
        ],
        expect={
            "result": {
                "outcome": "win",
                "winners": [
                    {"seat": 2, "fans": ["碰碰胡"], "multiplier": {"1": 2}},
                    {"seat": 0, "fans": ["卡五星"], "multiplier": {"1": 2}},
                ],
                "hand_deltas": [2, -4, 2],
                "next_dealer": 1,
            }
        },
    ),
    # ------------------------------------------------------------------ more numbered rules
    Spec(
        "a6_4_deferred_concealed_kong",
        "A6.4: a quad held since the deal may be 暗杠'd on a later own drawn turn",
        hands=["1111p", "", ""],
        actions=["0 concealed_kong 1p @w41", "0 discard *"],
        expect={
            "events_include": [
                {"type": "konged", "seat": 0, "kind": "concealed_kong", "tile": "1p", "money": [4, -2, -2]}
            ]
        },
    ),
    Spec(
        "a16_3_gangkai_haidi",
        "A6.5 / A16.3 / E#14: a 直杠 with one tile left takes the last tile as replacement and wins on it: "
        "杠上开花 and 海底捞月 both (M 4 each), plus the 直杠's money",
        hands=["", "5z", "555z123s456s789s9p"],
        tail="9p",
        actions=["1 discard 5z @w1", "2 kong", "2 win"],
        expect={
            "result": {
                "winners": [{"seat": 2, "fans": ["杠上开花", "海底捞月"], "multiplier": {"0": 4, "1": 4}}],
                "hand_deltas": [-4, -4, 8],
                "kong_deltas": [0, -2, 2],
                "deltas": [-4, -6, 10],
                "next_dealer": 2,
            }
        },
    ),
    Spec(
        "a13_4_chain_gangkai",
        "A13.4: 杠上开花 after a 杠上杠 chain is still ×2 (gangshang_chain_hu x2_only); the chain's money is "
        "2 + 4 from each other seat",
        hands=["1111p222p123s456s9p", "", ""],
        tail="2p 9p",
        actions=["0 concealed_kong 1p", "0 concealed_kong 2p", "0 win"],
        expect={
            "result": {
                "winners": [{"seat": 0, "fans": ["杠上开花"], "multiplier": {"1": 2, "2": 2}}],
                "hand_deltas": [4, -2, -2],
                "kong_deltas": [12, -6, -6],
                "deltas": [16, -8, -8],
            }
        },
    ),
    Spec(
        "a13_4_chain_gangkai_compound",
        "gangshang_chain_hu = compound: the same 杠上开花 after a 2-kong chain is ×4",
        rules={"preset": "standard", "gangshang_chain_hu": "compound"},
        hands=["1111p222p123s456s9p", "", ""],
        tail="2p 9p",
        actions=["0 concealed_kong 1p", "0 concealed_kong 2p", "0 win"],
        expect={"result": {"winners": [{"seat": 0, "multiplier": {"1": 4, "2": 4}}], "hand_deltas": [8, -4, -4]}},
    ),
    Spec(
        "a9_1_liangdao_after_pong",
        "A9.1 / E#24: 亮倒 may be declared with the discard right after a 碰",
        dealer=1,
        hands=["123p789p88s46s9s5z5z", "5z", ""],
        actions=["1 discard 5z", "0 pong", "0 liangdao 9s", "1 discard *"],
        expect={
            "events_include": [
                {"type": "ponged", "seat": 0, "tile": "5z"},
                {"type": "discarded", "seat": 0, "tile": "9s", "liangdao": True, "waits": "5s"},
            ]
        },
    ),
    Spec(
        "e38_liangdao_on_last_tile",
        "E#38 / A16.1: the player who draws the last tile discards any tile and may 亮倒 with it; nobody wins, "
        "so 荒庄 with one 亮倒 player (s000): he pays 1 to each",
        hands=["5s", "555s", W1_KWX],
        actions=["2 liangdao 9p @w0"],
        tail="9p",
        expect={
            "events_include": [{"type": "discarded", "seat": 2, "tile": "9p", "liangdao": True}],
            "result": {"outcome": "draw", "hand_deltas": [1, 1, -2], "next_dealer": 0},
        },
    ),
    Spec(
        "a12_4_rob_baohu",
        "A12.4 / A9.4: a 亮倒 player robs a non-亮倒 player's 补杠 automatically: 包胡, the robbed player pays "
        "both shares (抢杠胡 2 × 亮倒 2 = 4 each), no kong money",
        dealer=1,
        hands=["123p456p789p68s5z5z", "7s", "77s3s"],
        draws="6z ? 7s",
        actions=["1 discard 7s", "2 pong", "2 discard 3s", "0 liangdao 6z", "2 added_kong 7s"],
        expect={
            "result": {
                "winners": [{"seat": 0, "fans": ["抢杠胡", "亮倒"], "multiplier": {"1": 4, "2": 4}}],
                "hand_deltas": [8, 0, -8],
                "kong_deltas": [0, 0, 0],
                "next_dealer": 0,
            }
        },
    ),
    # ------------------------------------------------------------------ input errors and seeds
    Spec(
        "error_not_your_turn",
        "an action by a seat that is not to act",
        hands=["", "", ""],
        actions=["!1 discard 5p"],
        expect={"error": {"index": 0, "reason": "not_your_turn"}},
    ),
    Spec(
        "error_tile_not_in_hand",
        "a discard of a tile the seat does not hold",
        hands=["111p222p333p444p55p", "", ""],
        actions=["!0 discard 9s"],
        expect={"error": {"index": 0, "reason": "tile_not_in_hand"}},
    ),
    Spec(
        "seeded_hand",
        "a hand dealt from a seed (engine.game.shuffle): the first event carries the seed and the dealt tiles",
        seed="kwx golden 1",
        hands=[],
        actions=["0 discard *", "1 discard *"],
        stop_at=2,
        expect={
            "events_include": [{"type": "hand_started", "seed": "kwx golden 1", "dealer": 0}],
            "state": {"phase": "turn", "to_act": [2]},
        },
    ),
]

# ---------------------------------------------------------------------- 2 and 4 seats (rules.players)
# docs/rules.md §A2.1 (options: 2 seats with 84 tiles; 4 seats with 筒 条 万 and the dragons, 120
# tiles); the §A rules for "each other player" apply to every other seat (engine.game.machine).
THREE_WINNERS = [W1_KWX, "5s", "234m567m345p46s99m", "123m678m567p46s22p"]  # seats 0, 2, 3 wait on 5s

SPECS += [
    Spec(
        "p2_seeded_deal",
        "2 seats (preset two_seats, 84 tiles): a seeded deal with dealer 1 — 13 tiles each, the dealer 14; "
        "after the dealer's discard seat 0 draws (turn order (seat + 1) mod 2)",
        rules="two_seats",
        seed="kwx seats 2",
        dealer=1,
        hands=[],
        actions=["1 discard *"],
        stop_at=0,
        expect={
            "events_include": [
                {
                    "type": "hand_started",
                    "seed": "kwx seats 2",
                    "dealer": 1,
                    "rules": {"preset": "standard", "players": 2},
                },
                {"type": "drew", "seat": 0, "replacement": False},
            ],
            "state": {"phase": "turn", "to_act": [0]},
        },
    ),
    Spec(
        "p2_concealed_kong",
        "2 seats, G1: A declares 暗杠: the only other seat pays 2 (A +2, B -2, A13.1)",
        rules="two_seats",
        hands=["1111p2345p678s99s5z", ""],
        tail="9p",
        actions=["0 concealed_kong 1p"],
        expect={
            "events_include": [
                {"type": "konged", "seat": 0, "kind": "concealed_kong", "tile": "1p", "money": [2, -2], "chain": 1},
                {"type": "drew", "seat": 0, "tile": "9p", "replacement": True},
            ],
            "state": {"phase": "turn", "to_act": [0]},
        },
    ),
    Spec(
        "p2_huangzhuang_liangdao",
        "2 seats, H2: only A has 亮倒 (wait 5z dead): 荒庄, A pays the other seat 1 (A -1, B +1); dealer stays",
        rules="two_seats",
        hands=[DEAD_5Z + "9s", "555z"],
        actions=["0 liangdao 9s"],
        finish=True,
        expect={"result": {"outcome": "draw", "hand_deltas": [-1, 1], "kong_deltas": [0, 0], "next_dealer": 0}},
    ),
    Spec(
        "p2_self_draw_rotates_dealer",
        "2 seats: B (not the dealer) draws 5s to 卡五星 (×2): A pays 2; the winner deals next (A15.1)",
        rules="two_seats",
        hands=["", W1_KWX],
        draws="5s",
        actions=["1 win"],
        expect={
            "result": {
                "outcome": "win",
                "winners": [{"seat": 1, "fans": ["卡五星"], "multiplier": {"0": 2}}],
                "hand_deltas": [-2, 2],
                "deltas": [-2, 2],
                "next_dealer": 1,
            }
        },
    ),
    Spec(
        "p4_seeded_deal",
        "4 seats (preset four_seats, 筒 条 万 + dragons, 120 tiles): a seeded deal with dealer 2; play passes "
        "2 -> 3 -> 0 (turn order (seat + 1) mod 4)",
        rules="four_seats",
        seed="kwx seats 4",
        dealer=2,
        hands=[],
        actions=["2 discard *", "3 discard *"],
        stop_at=0,
        expect={
            "events_include": [
                {
                    "type": "hand_started",
                    "seed": "kwx seats 4",
                    "dealer": 2,
                    "rules": {"preset": "standard", "players": 4, "suits": ["p", "s", "m"]},
                },
                {"type": "drew", "seat": 3, "replacement": False},
                {"type": "drew", "seat": 0, "replacement": False},
            ],
            "state": {"phase": "turn", "to_act": [0]},
        },
    ),
    Spec(
        "p4_three_winners",
        "4 seats, 一炮多响 (A5.2, A12.5, A15.2): B discards 5s; A, C and D each win it with 卡五星 (×2): "
        "B pays 2 to each (-6); winners listed from the discarder's next seat; B deals next",
        rules="four_seats",
        dealer=1,
        hands=THREE_WINNERS,
        actions=["1 discard 5s", "0 win", "2 win", "3 win"],
        expect={
            "result": {
                "outcome": "win",
                "winners": [
                    {"seat": 2, "fans": ["卡五星"], "multiplier": {"1": 2}},
                    {"seat": 3, "fans": ["卡五星"], "multiplier": {"1": 2}},
                    {"seat": 0, "fans": ["卡五星"], "multiplier": {"1": 2}},
                ],
                "hand_deltas": [2, -6, 2, 2],
                "next_dealer": 1,
            }
        },
    ),
    Spec(
        "p4_two_of_three_winners_wait",
        "4 seats, E#40: after A answers 胡 on B's 5s the window still waits for C and D, who could also win",
        rules="four_seats",
        dealer=1,
        hands=THREE_WINNERS,
        actions=["1 discard 5s", "0 win"],
        expect={"state": {"phase": "claim", "to_act": [2, 3], "legal_actions_include": {"2": [{"act": "win"}]}}},
    ),
    Spec(
        "p4_kong_money",
        "4 seats, G1 then H1: A's 暗杠 is paid by each of the three others (A +6, B/C/D -2); the hand ends in "
        "荒庄 and the kong money stands, no hand payments, the dealer stays",
        rules="four_seats",
        hands=["1111p2345p678s99s5z", "", "", ""],
        tail="9p",
        actions=["0 concealed_kong 1p"],
        finish=True,
        expect={
            "events_include": [
                {"type": "konged", "seat": 0, "kind": "concealed_kong", "money": [6, -2, -2, -2], "chain": 1}
            ],
            "result": {
                "outcome": "draw",
                "hand_deltas": [0, 0, 0, 0],
                "kong_deltas": [6, -2, -2, -2],
                "deltas": [6, -2, -2, -2],
                "next_dealer": 0,
            },
        },
    ),
    Spec(
        "p4_huangzhuang_liangdao",
        "4 seats, H2: only A has 亮倒 (wait 5z dead): 荒庄, A pays each of the three others 1 (A -3)",
        rules="four_seats",
        hands=[DEAD_5Z + "9s", "555z", "", ""],
        actions=["0 liangdao 9s"],
        finish=True,
        expect={"result": {"outcome": "draw", "hand_deltas": [-3, 1, 1, 1], "next_dealer": 0}},
    ),
    Spec(
        "p4_huangzhuang_two_liangdao",
        "4 seats, A14.2 s000 with two 亮倒 seats (A, B; waits dead): each pays each seat without 亮倒 1 "
        "(A -2, B -2, C +2, D +2); dealer_on_draw = chajiao: two payers and no 亮倒 seat among the others, "
        "so the dealer stays",
        rules={"preset": "four_seats", "dealer_on_draw": "chajiao"},
        hands=[DEAD_5Z + "9s", "555z123s456s789s6z", "666z", ""],
        actions=["0 liangdao 9s", "1 liangdao *"],
        finish=True,
        expect={"result": {"outcome": "draw", "hand_deltas": [-2, -2, 2, 2], "next_dealer": 0}},
    ),
    Spec(
        "p4_chajiao_one_payer_deals",
        "4 seats, dealer_on_draw = chajiao: C alone has 亮倒 (s000, wait 5z dead), so C alone pays; the payer "
        "deals next",
        rules={"preset": "four_seats", "dealer_on_draw": "chajiao"},
        hands=["", "555z", DEAD_5Z, ""],
        actions=["2 liangdao *"],
        finish=True,
        expect={"result": {"outcome": "draw", "hand_deltas": [1, 1, -3, 1], "next_dealer": 2}},
    ),
    Spec(
        "p4_win_rotates_dealer",
        "4 seats: A (dealer) discards 5s, C wins with 卡五星 (×2): A pays 2; the winner deals next (A15.1)",
        rules="four_seats",
        hands=["5s", "", W1_KWX, ""],
        actions=["0 discard 5s", "2 win"],
        expect={
            "result": {
                "outcome": "win",
                "winners": [{"seat": 2, "fans": ["卡五星"], "multiplier": {"0": 2}}],
                "hand_deltas": [-2, 0, 2, 0],
                "next_dealer": 2,
            }
        },
    ),
]

SPECS += [
    Spec(
        "p4_chajiao_two_payers",
        "4 seats, H5 generalised (chajiao, dealer_on_draw chajiao): A and B have 亮倒 (A on 5s: 卡五星 ×2 "
        "× 亮倒 ×2 = 4; B 屁胡 × 亮倒 = 2; every wait dead), C and D are not ready: C and D each pay A 4 and "
        "B 2 (A +8, B +4, C -6, D -6); two payers, so the first 亮倒 seat that paid nothing (A) deals",
        rules={"preset": "four_seats", "huangzhuang_liangdao": "chajiao", "dealer_on_draw": "chajiao"},
        dealer=3,
        hands=[W1_KWX, "555s234p567p66z78s", "5s66s99s147p5z7z147m", "258p3s6s99s5z6z7z258m"],
        actions=["0 liangdao *", "1 liangdao *"],
        finish=True,
        expect={"result": {"outcome": "draw", "hand_deltas": [8, 4, -6, -6], "next_dealer": 0}},
    ),
]

SPECS += [
    Spec(
        "guohu_declined_self_draw",
        "§C 过胡翻番 (guohu_fanfan): A (亮倒 on 5s) draws 5s and discards it instead of 自摸 — a declined win, "
        "stored in the event (declined); "
        "when A then wins C's 5s it counts ×2: 卡五星 2 × 过胡翻番 2 × 亮倒 2 = 8 per share, and C (not 亮倒) "
        "pays both shares (包胡, A9.7): 16",
        rules={"preset": "standard", "guohu_fanfan": True},
        hands=[W1_KWX + "9s", "", "5s"],
        draws="? ? 5s",
        actions=["0 liangdao 9s", "0 discard 5s", "2 discard 5s", "0 win"],
        expect={
            "events_include": [{"type": "discarded", "seat": 0, "tile": "5s", "auto": False, "declined": True}],
            "result": {
                "outcome": "win",
                "winners": [{"seat": 0, "fans": ["卡五星", "过胡翻番", "亮倒"], "multiplier": {"1": 8, "2": 8}}],
                "hand_deltas": [16, 0, -16],
            },
        },
    ),
]

# ---------------------------------------------------------------------- 卡心五 (rules kaxinwu, docs/rules.md §B)
KX_LQ_9P = "9p234p567p234s567s"  # 廊起 showing 9p: a single, four sets hidden, waits 9p (平胡 ×1)
KX_LQ_9S = "9s234p567p234s678s"  # 廊起 showing 9s, waits 9s (平胡 ×1)
KX_LQ_5S = "46s345p678p111s22s"  # 廊起 showing 46s, waits 5s (卡心五 ×2)
KX_DEAD = "999p999s555s1p2p8s7p"  # holds the other copies of 9p, 9s and 5s: every 廊起 wait is dead

SPECS += [
    Spec(
        "kx_deal_four_seats",
        "§B tiles and seats: 卡心五 at 4 seats, 72 tiles (筒 条): 13 each, the dealer 14, 19 in the wall",
        rules="kaxinwu",
        seed="kx-deal",
        hands=[],
        expect={"events_include": [{"type": "hand_started", "dealer": 0}], "state": {"phase": "turn", "to_act": [0]}},
    ),
    Spec(
        "kx_langqi_single_wait",
        "§B/E#48, the seed's example: discard 6条 and show 6 8条 — the wait is 7条 only; the rest is hidden",
        rules="kaxinwu",
        hands=["123p456p789p22s66s8s", "", "", ""],
        actions=["0 liangdao 6s show 68s"],
        expect={
            "events_include": [
                {
                    "type": "discarded",
                    "seat": 0,
                    "tile": "6s",
                    "liangdao": True,
                    "waits": "7s",
                    "hidden": "123456789p22s",
                }
            ]
        },
    ),
    Spec(
        "kx_langqi_two_waits",
        "§B/E#48, the seed's example: the same hand discards 8条 and shows 2 2 6 6 条 — it waits on 2条 and 6条",
        rules="kaxinwu",
        hands=["123p456p789p22s66s8s", "", "", ""],
        actions=["0 liangdao 8s show 2266s"],
        expect={
            "events_include": [
                {
                    "type": "discarded",
                    "seat": 0,
                    "tile": "8s",
                    "liangdao": True,
                    "waits": "26s",
                    "hidden": "123456789p",
                }
            ]
        },
    ),
    Spec(
        "kx_langqi_pair_fixes_the_wait",
        "E#48: the same hand shows only the pair 2 2条 (the other pair hidden): the wait is fixed to 2条, so B's "
        "6条 (which would complete the concealed hand) opens no window; 2条 is protected for B",
        rules="kaxinwu",
        hands=["123p456p789p22s66s8s", "6s2s", "", ""],
        actions=["0 liangdao 8s show 22s", "1 discard 6s"],
        expect={"state": {"phase": "turn", "to_act": [2]}},
    ),
    Spec(
        "kx_protection",
        "§B protection: B (no 廊起) may not discard 2条, the 廊起 player's wait",
        rules="kaxinwu",
        hands=["123p456p789p22s66s8s", "6s2s", "", ""],
        actions=["0 liangdao 8s show 22s", "1 discard 2s"],
        expect={"error": {"index": -1, "reason": "protected_tile"}},
    ),
    Spec(
        "kx_bad_reveal",
        "E#48: showing 2 6条 is refused with the reason (the hidden 2条 and 6条 are neither sets nor pairs)",
        rules="kaxinwu",
        hands=["123p456p789p22s66s8s", "", "", ""],
        actions=["0 liangdao 8s show 26s"],
        expect={"error": {"index": -1, "reason": "bad_reveal"}},
    ),
    Spec(
        "kx_longqidui_shown",
        "§B 龙七对 reveal: A shows the three 7条 (wait 7条); he draws the 4th: 龙七对 ×8 自摸, each other seat "
        "pays 8 (廊起 does not double, E#27)",
        rules="kaxinwu",
        hands=["11p22p33p44p55s777s9p", "", "", ""],
        draws="? ? ? 7s",
        actions=["0 liangdao 9p show 777s"],
        finish=True,
        expect={
            "result": {
                "outcome": "win",
                "winners": [{"seat": 0, "fans": ["龙七对"], "multiplier": {"1": 8, "2": 8, "3": 8}}],
                "hand_deltas": [24, -8, -8, -8],
                "next_dealer": 0,
            }
        },
    ),
    Spec(
        "kx_longqidui_one_copy_is_qidui",
        "§B 龙七对 reveal: the same hand shows one 7条 only (7 7条 hidden): the 4th 7条 wins as 七对 ×4",
        rules="kaxinwu",
        hands=["11p22p33p44p55s777s9p", "", "", ""],
        draws="? ? ? 7s",
        actions=["0 liangdao 9p show 7s"],
        finish=True,
        expect={
            "result": {
                "outcome": "win",
                "winners": [{"seat": 0, "fans": ["七对"], "multiplier": {"1": 4, "2": 4, "3": 4}}],
                "hand_deltas": [12, -4, -4, -4],
            }
        },
    ),
    Spec(
        "kx_dingchuan",
        "§B 顶穿: B (dealer) 廊起s on 1条/4条, C 廊起s on 5条 (卡心五); B draws 5条 and discards it "
        "automatically: C wins it, an ordinary 点炮 (no 包胡): B pays 2; C deals next",
        rules="kaxinwu",
        dealer=1,
        hands=["", "123p456p789p55s23s9s", "123p456p789p22s46s", ""],
        draws="9s ? ? 5s",
        actions=["1 liangdao 9s", "2 liangdao *"],
        finish=True,
        expect={
            "result": {
                "outcome": "win",
                "winners": [{"seat": 2, "fans": ["卡心五"], "multiplier": {"1": 2}}],
                "hand_deltas": [0, -2, 2, 0],
                "next_dealer": 2,
            }
        },
    ),
    Spec(
        "kx_kong_mandatory",
        "§B 有杠必杠: A discards 7条 and B holds three: B's only legal answer is 杠 (no 碰, no pass)",
        rules="kaxinwu",
        hands=["7s258p369p14s258s6s", "777s", "", ""],
        actions=["0 discard 7s"],
        expect={"state": {"phase": "claim", "to_act": [1], "legal_actions": {"1": [{"act": "kong"}]}}},
    ),
    Spec(
        "kx_guogang",
        "§B 过杠 (kong_mandatory = false): the same 7条 may be 杠'd, 碰'd or passed",
        rules={"preset": "kaxinwu", "kong_mandatory": False},
        hands=["7s258p369p14s258s6s", "777s", "", ""],
        actions=["0 discard 7s"],
        expect={
            "state": {
                "phase": "claim",
                "to_act": [1],
                "legal_actions": {"1": [{"act": "kong"}, {"act": "pong"}, {"act": "pass"}]},
            }
        },
    ),
    Spec(
        "kx_self_draw_win_mandatory",
        "§B/E#26 有胡必胡: the dealer's complete hand may only be declared (no discard)",
        rules="kaxinwu",
        hands=["123p456p789p123s55s", "", "", ""],
        expect={"state": {"phase": "turn", "to_act": [0], "legal_actions": {"0": [{"act": "win"}]}}},
    ),
    Spec(
        "kx_guansi",
        "§B 关死: B (dealer) 廊起s showing 2-6条 (waits 1 4 7条) with 7筒; A 直杠s it (mandatory; A +2, B -2); "
        "C 廊起s showing 2-6筒 (waits 1 4 7筒): now every tile of D is a 廊起 wait, so the hand ends: D pays "
        "B 1 (平胡 is B's best), C 1 and A 2; the kong money is void; D deals next",
        rules="kaxinwu",
        dealer=1,
        hands=["777p", "23456s999p888p99s7p", "23456p666s888s33s", "1111s444s7777s1p4p"],
        draws="5s 9s",
        actions=["1 liangdao 7p show 23456s", "0 kong", "2 liangdao * show 23456p"],
        expect={
            "events_include": [{"type": "konged", "seat": 0, "kind": "kong", "tile": "7p", "money": [2, -2, 0, 0]}],
            "result": {
                "outcome": "guansi",
                "guansi": 3,
                "winners": [],
                "hand_deltas": [2, 1, 1, -4],
                "kong_deltas": [0, 0, 0, 0],
                "deltas": [2, 1, 1, -4],
                "next_dealer": 3,
            },
        },
    ),
    Spec(
        "kx_chajiao_one",
        "§B 查叫, 1 被查叫: A, B (dealer) and C 廊起 on dead waits (D holds the other 9筒, 9条 and 5条); 流局: D "
        "pays each its maximum — A 1, B 1, C 2 (卡心五) — and deals next",
        rules="kaxinwu",
        dealer=1,
        hands=[KX_LQ_9P, KX_LQ_9S + "8p", KX_LQ_5S, KX_DEAD],
        actions=["1 liangdao 8p show 9s", "2 liangdao * show 46s", "0 liangdao * show 9p"],
        finish=True,
        expect={
            "result": {"outcome": "draw", "hand_deltas": [1, 1, 2, -4], "next_dealer": 3, "chajiao": [3]},
        },
    ),
    Spec(
        "kx_chajiao_two",
        "§B 查叫, 2 被查叫: C then A 廊起 (dead waits); 流局: B and D each pay A 1 and C 2; the first to 廊起 (C) "
        "deals next",
        rules="kaxinwu",
        dealer=1,
        hands=[KX_LQ_9P, "", KX_LQ_5S, KX_DEAD],
        actions=["2 liangdao * show 46s", "0 liangdao * show 9p"],
        finish=True,
        expect={
            "result": {"outcome": "draw", "hand_deltas": [2, -3, 4, -3], "next_dealer": 2, "chajiao": [1, 3]},
        },
    ),
    Spec(
        "kx_chajiao_three",
        "§B 查叫, 3 被查叫 (all but one): only C 廊起s (dead wait 5条: A and D hold the other copies); 流局: A, "
        "B and D each pay C 2 (卡心五); C deals next",
        rules="kaxinwu",
        dealer=1,
        hands=[KX_LQ_9P, "", KX_LQ_5S, KX_DEAD],
        actions=["2 liangdao * show 46s"],
        finish=True,
        expect={
            "result": {"outcome": "draw", "hand_deltas": [-2, -2, 6, -2], "next_dealer": 2, "chajiao": [0, 1, 3]},
        },
    ),
    Spec(
        "kx_chajiao_none",
        "§B 流局 without 廊起: nobody is 查叫'd, no payments; the dealer (B) stays",
        rules="kaxinwu",
        dealer=1,
        hands=["", "", "", KX_DEAD],
        finish=True,
        expect={"result": {"outcome": "draw", "hand_deltas": [0, 0, 0, 0], "next_dealer": 1}},
    ),
    # ------------------------------------------------------------------ 卡心五 at the bot's 3 seats
    Spec(
        "kx3_langqi_self_draw",
        "§B 廊起 at 3 seats: A (dealer) 廊起s with 9条 showing 6 8条 (the wait is 7条 alone, §E#48), then "
        "draws 7条 and wins automatically (A9.4): 平胡 ×1 from each other player; A deals next",
        rules={"preset": "kaxinwu", "players": 3},
        hands=["123p456p789p22s68s9s", "", ""],
        draws="? ? 7s",
        actions=["0 liangdao 9s show 68s"],
        finish=True,
        expect={
            "events_include": [{"type": "discarded", "seat": 0, "tile": "9s", "liangdao": True, "waits": "7s"}],
            "result": {
                "outcome": "win",
                "winners": [{"seat": 0, "fans": ["屁胡"], "multiplier": {"1": 1, "2": 1}}],
                "hand_deltas": [2, -1, -1],
                "next_dealer": 0,
            },
        },
    ),
    Spec(
        "kx3_chajiao",
        "§B 查叫 at 3 seats: A (dealer) 廊起s with 9条 showing 6 8条 on a dead wait (B holds three 7条, C the "
        "fourth; protection keeps them); on the way C 直杠s B's 1条 (mandatory: B pays 2); 流局: B and C (both "
        "被查叫) pay A his maximum, 平胡 ×1, and the kong money stands; two 被查叫 of three (all but one): the "
        "廊起 player A deals next",
        rules={"preset": "kaxinwu", "players": 3},
        hands=["123p456p789p22s68s9s", "777s", "7s"],
        actions=["0 liangdao 9s show 68s"],
        finish=True,
        expect={
            "result": {
                "outcome": "draw",
                "hand_deltas": [2, -1, -1],
                "kong_deltas": [0, -2, 2],
                "chajiao": [1, 2],
                "next_dealer": 0,
            },
        },
    ),
    Spec(
        "kx3_guansi",
        "§B 关死 at 3 seats: A (dealer) 廊起s with 7筒 showing 2-6条 (waits 1 4 7条); C 直杠s it (mandatory, "
        "B passes his win), discards the replacement 5筒; B draws 9条 and 廊起s with it showing 2-6筒 "
        "(waits 1 4 7筒): every tile of C is a 廊起 wait, so the hand ends: C pays A 1 and B 1 (平胡 each); "
        "C's kong money is void; C deals next",
        rules={"preset": "kaxinwu", "players": 3},
        hands=["888999p2345699s7p", "23456p33666888s", "777p111p444p111s4s"],
        draws="2p 9s",
        tail="5p",
        actions=["0 liangdao 7p show 23456s", "2 kong", "1 liangdao 9s show 23456p"],
        expect={
            "events_include": [{"type": "konged", "seat": 2, "kind": "kong", "tile": "7p", "money": [-2, 0, 2]}],
            "result": {
                "outcome": "guansi",
                "guansi": 2,
                "winners": [],
                "hand_deltas": [1, 1, -2],
                "kong_deltas": [0, 0, 0],
                "deltas": [1, 1, -2],
                "next_dealer": 2,
            },
        },
    ),
    Spec(
        "kx3_langqi_forced_kong",
        "§B 有杠必杠 after 廊起 at 3 seats: A (dealer) 廊起s with 7筒 showing 2-6条 (888 999筒 and 99条 face "
        "down, waits 1 4 7条); he draws the fourth 8筒: the 暗杠 keeps his waits, so it is permitted (A9.5) and "
        "mandatory — his only legal action; A +4, B and C -2 each",
        rules={"preset": "kaxinwu", "players": 3},
        hands=["888999p2345699s7p", "", ""],
        draws="? ? 8p",
        actions=["0 liangdao 7p show 23456s", "0 concealed_kong 8p"],
        expect={
            "events_include": [
                {"type": "konged", "seat": 0, "kind": "concealed_kong", "tile": "8p", "money": [4, -2, -2]}
            ],
        },
    ),
    # ------------------------------------------------------------------ 卡心五 at 2 seats
    Spec(
        "kx2_langqi_self_draw",
        "§B 廊起 at 2 seats: A (dealer) 廊起s with 9条 showing 6 8条 (wait 7条, §E#48), draws 7条 and wins "
        "automatically: 平胡 ×1 from B; A deals next",
        rules={"preset": "kaxinwu", "players": 2},
        hands=["123p456p789p22s68s9s", ""],
        draws="? 7s",
        actions=["0 liangdao 9s show 68s"],
        finish=True,
        expect={
            "result": {
                "outcome": "win",
                "winners": [{"seat": 0, "fans": ["屁胡"], "multiplier": {"1": 1}}],
                "hand_deltas": [1, -1],
                "next_dealer": 0,
            },
        },
    ),
    Spec(
        "kx2_chajiao",
        "§B 查叫 at 2 seats: A (dealer) 廊起s with 9条 showing 6 8条 on a dead wait (B holds all four 7条 and "
        "must 暗杠 them: B +2, A -2, money that stands); 流局: B (被查叫) pays A his maximum, 平胡 ×1; one "
        "被查叫 player: he deals next",
        rules={"preset": "kaxinwu", "players": 2},
        hands=["123p456p789p22s68s9s", "7777s"],
        actions=["0 liangdao 9s show 68s"],
        finish=True,
        expect={
            "result": {
                "outcome": "draw",
                "hand_deltas": [1, -1],
                "kong_deltas": [-2, 2],
                "chajiao": [1],
                "next_dealer": 1,
            },
        },
    ),
    Spec(
        "kx2_guansi",
        "§B 关死 at 2 seats: A (dealer) 廊起s with 1筒 showing 1112345678999条 (九莲: waits 1-9条); every "
        "tile of B is a 条, so the hand ends at once: B pays A his maximum, 清一色 ×4; B deals next",
        rules={"preset": "kaxinwu", "players": 2},
        hands=["1112345678999s1p", "2233445566778s"],
        actions=["0 liangdao 1p"],
        expect={
            "result": {
                "outcome": "guansi",
                "guansi": 1,
                "winners": [],
                "hand_deltas": [4, -4],
                "kong_deltas": [0, 0],
                "next_dealer": 1,
            },
        },
    ),
]

# ------------------------------------------------------------------ 卡心五: the shown shape, the cap, 关死 after a kong
KX_LQ_PAIR5 = "22p123p789p456s55s9s"  # 廊起 showing 55s (hidden 22p 123p 789p 456s): waits the third 5s
KX_LQ_SINGLE5 = "123p789p456s567s5s9s"  # 廊起 showing a single 5s (hidden 123p 789p 456s 567s): 单吊 5s

SPECS += [
    Spec(
        "kx_langqi_shown_pair_no_kaxinwu",
        "§B 卡心五 (must be 夹胡, 4 6 on 5; for 廊起 the shown shape decides): A (dealer) 廊起s with 9条 "
        "showing 5 5条 (22筒 123筒 789筒 456条 face down); he draws the last 5条 and wins automatically: the "
        "shown 55 waits on a third 5, no 4_6 — 平胡 ×1 from each, although the hidden 456条 could be read "
        "around it",
        rules="kaxinwu",
        hands=[KX_LQ_PAIR5, "", "", ""],
        draws="? ? ? 5s",
        actions=["0 liangdao 9s show 55s"],
        finish=True,
        expect={
            "events_include": [{"type": "discarded", "seat": 0, "liangdao": True, "waits": "5s"}],
            "result": {
                "outcome": "win",
                "winners": [{"seat": 0, "fans": ["屁胡"], "multiplier": {"1": 1, "2": 1, "3": 1}}],
                "hand_deltas": [3, -1, -1, -1],
            },
        },
    ),
    Spec(
        "kx_langqi_single_five_no_kaxinwu",
        "§B 卡心五 for 廊起: A (dealer) 廊起s with 9条 showing a single 5条 (单吊; 123筒 789筒 456条 567条 "
        "face down) and draws the last 5条: 平胡 ×1 from each, no 卡心五",
        rules="kaxinwu",
        hands=[KX_LQ_SINGLE5, "", "", ""],
        draws="? ? ? 5s",
        actions=["0 liangdao 9s show 5s"],
        finish=True,
        expect={
            "result": {
                "outcome": "win",
                "winners": [{"seat": 0, "fans": ["屁胡"], "multiplier": {"1": 1, "2": 1, "3": 1}}],
                "hand_deltas": [3, -1, -1, -1],
            },
        },
    ),
    Spec(
        "kx_chajiao_shown_pair",
        "§B 查叫 with the shown shape: A (dealer) 廊起s showing 5 5条 on a dead wait (D holds the last 5条, "
        "protected); on the way C 直杠s B's 6筒 (mandatory; that money stands); 流局: B, C and D each pay A "
        "his maximum, 平胡 ×1 (not 卡心五 ×2); A deals next",
        rules="kaxinwu",
        hands=[KX_LQ_PAIR5, "", "", "5s"],
        actions=["0 liangdao 9s show 55s"],
        finish=True,
        expect={
            "result": {"outcome": "draw", "hand_deltas": [3, -1, -1, -1], "chajiao": [1, 2, 3], "next_dealer": 0},
        },
    ),
    Spec(
        "kx_two_fours_capped_as_longqidui",
        "§B 龙七对 (双龙 is no 卡心五 pattern) and the cap 8_sl16 (A11.5): the dealer's 天胡 1111 2222 33 44 55筒 "
        "scores 龙七对 ×8 and 清一色 ×4 = 32, capped at 8 as the 龙七对 it scores (not 16 as 双龙七对)",
        rules="kaxinwu",
        hands=["1111p2222p33p44p55p", "", "", ""],
        actions=["0 win"],
        expect={
            "result": {
                "outcome": "win",
                "winners": [{"seat": 0, "fans": ["龙七对", "清一色"], "multiplier": {"1": 32, "2": 32, "3": 32}}],
                "hand_deltas": [24, -8, -8, -8],
            },
        },
    ),
    Spec(
        "kx2_guansi_after_concealed_kong",
        "§B 关死 after a kong, before its replacement (E#49): A (dealer) 廊起s with 7筒 showing 2-6条 (waits "
        "1 4 7条); B draws 7条 and must 暗杠 his 5555筒 (有杠必杠): his other ten tiles are all 1 4 7条, so he "
        "is 关死 before he draws the replacement (its 6筒 would have saved him): B pays A 1 (平胡), the kong "
        "money is void, B deals next",
        rules={"preset": "kaxinwu", "players": 2},
        hands=["888999p2345699s7p", "1111s444s77s5555p"],
        draws="7s",
        tail="6p",
        actions=["0 liangdao 7p show 23456s", "1 concealed_kong 5p"],
        expect={
            "events_include": [{"type": "konged", "seat": 1, "kind": "concealed_kong", "tile": "5p"}],
            "events_exclude": [{"type": "drew", "seat": 1, "replacement": True}],
            "result": {
                "outcome": "guansi",
                "guansi": 1,
                "hand_deltas": [1, -1],
                "kong_deltas": [0, 0],
                "next_dealer": 1,
            },
        },
    ),
    Spec(
        "kx2_guansi_after_direct_kong",
        "§B 关死 after a 直杠, before its replacement: A (dealer) 廊起s with 1筒 showing all of 1112345678999条 "
        "(waits 1-9条); B discards the 9筒 he draws; A draws 5筒 and discards it automatically; B must 直杠 it "
        "(有杠必杠) and his other ten tiles are all 条: 关死 before the replacement: B pays A 清一色 ×4; the "
        "kong money is void; B deals next",
        rules={"preset": "kaxinwu", "players": 2},
        hands=["1112345678999s1p", "555p222s333s666s8s"],
        draws="9p 5p",
        tail="2p",
        actions=["0 liangdao 1p", "1 discard 9p", "1 kong"],
        expect={
            "events_include": [{"type": "konged", "seat": 1, "kind": "kong", "tile": "5p"}],
            "events_exclude": [{"type": "drew", "seat": 1, "replacement": True}],
            "result": {
                "outcome": "guansi",
                "guansi": 1,
                "hand_deltas": [4, -4],
                "kong_deltas": [0, 0],
                "next_dealer": 1,
            },
        },
    ),
]
