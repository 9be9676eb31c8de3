"""Rules audit: random self-play under random §C options, checked by an independent referee.

The referee follows the hand from the engine's events only and re-derives, from docs/rules.md, what must
happen: who draws which tile (A3.2), every seat's legal own-turn actions (A4, A6.2–A6.5, A9.1, A9.3,
A9.5, A9.8, E#42), who may claim a discard and how (A5, A8.2, A8.3/E#9 漏胡 in every mode, E#40),
automatic 亮倒 play (A9.3, A9.4), kong money and 杠上杠 chains (A13, E#17), 杠上开花 / 杠上炮 /
海底 flags (A16, E#30, E#31), settlement and the next dealer (A12, A14.2, A15).  Hand values come from
``engine.scoring.score_win``, which ``test_scoring_reference`` checks against a brute-force scorer.

Every §C option value the state machine supports is drawn at random per hand.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine.ai.players import Level, choose_action
from engine.game import (
    Action,
    ActionKind,
    Answered,
    Discarded,
    Drew,
    Event,
    HandEnded,
    HandStarted,
    Konged,
    Ponged,
    WindowOpened,
    event_from_json,
    legal_actions,
    replay,
    start,
    step,
    view_for,
)
from engine.game.state import Phase, WindowKind
from engine.rules import RuleSet
from engine.scoring import WinBy, WinContext, score_win
from engine.tiles import Meld, MeldKind, Tile
from tests.engine.handgen import brute_complete

# ----------------------------------------------------------------------------------- random rules

OPTION_VALUES: dict[str, list[Any]] = {
    "cap": ["none", "8_sl16", "8", "16", "32"],
    "pihu_ron": [False, True],
    "qihu_2fan": [False, True],
    "situational_for_qihu": [True, False],
    "louhu": ["bigger_exception", "strict", "same_tile"],
    "liangdao_min_wall": [0, 12],
    "liangdao_kong": ["waits_unchanged", "none", "anpu_and_bugang_only"],
    "liangdao_auto_win": [True, False],
    "liangdao_payer_double": [True, False],
    "dui_liang_fanfan": [False, True],
    "baohu": [True, False],
    "liangdao_protect": [False, True],
    "guohu_fanfan": [False, True],
    "huangzhuang_liangdao": ["s000", "s004_first", "chajiao", "none"],
    "dealer_on_draw": ["stay", "last_drawer", "chajiao"],
    "kwx_rule": ["generous", "strict_single_wait"],
    "kwx_value": [2, 4],
    "pph_value": [2, 4],
    "gangshang_value": [2, 4],
    "qianggang_value": [2, 4],
    "msgy_value": [2, 4],
    "szy_value": [4, 8],
    "szy_with_pph": [False, True],
    "sigui_scope": ["ban", "quan"],
    "ansigui_requires_pung": [False, True],
    "sigui_multi": [False, True],
    "sanlong_value": [32, 16, 128],
    "sanyuan_qidui": [False, True],
    "haidi_pao": [0, 2],
    "haidi_pihu": [2, "off"],
    "gang_chain": ["double", "flat2", "linear"],
    "gang_chain_self": ["replacement_only", "any_kong_same_turn"],
    "gangshang_chain_hu": ["x2_only", "compound"],
    "bugang_immediate": [True, False],
    "kong_after_peng": [False, True],
    "guoshou_peng": [False, True],
    "qianggang": [True, False],
    "liangdao_revealed_sigui_ming": [False, True],
    "suits": [["p", "s"], ["p", "m"], ["s", "m"]],
    "dragons": [True, False],
    "base": [1, 2, 5],
    "first_dealer": ["random", "host"],
    "four_players": ["winner_sits_out", "off"],
}


def random_rules(rng: random.Random) -> RuleSet:
    options: dict[str, Any] = {"preset": rng.choice(["standard", "shiyan", "nocap", "xiangyang"])}
    for key, values in OPTION_VALUES.items():
        if rng.random() < 0.35:
            options[key] = rng.choice(values)
    options["gang_values"] = {"an": rng.choice([2, 2, 3]), "bu": rng.choice([1, 1, 2]), "zhi": rng.choice([2, 3])}
    return RuleSet.from_json(options)


# ----------------------------------------------------------------------------------- the referee

NONE = -1


def _waits(counts: list[int], melds: list[tuple[MeldKind, int]], kinds: list[int]) -> set[int]:
    """Waits of a 13 - 3k hand, excluding tiles whose 4 copies the seat holds (A7.4)."""
    held = list(counts)
    for kind, t in melds:
        held[t] += kind.size
    out = set()
    for t in kinds:
        if held[t] >= 4:
            continue
        c = list(counts)
        c[t] += 1
        if brute_complete(c, len(melds)):
            out.add(t)
    return out


class Seat:
    def __init__(self, tiles: tuple[Tile, ...]) -> None:
        self.hand = [0] * 30
        for t in tiles:
            self.hand[t] += 1
        self.melds: list[tuple[MeldKind, int]] = []
        self.liangdao = False
        self.waits: set[int] = set()
        self.louhu: list[tuple[int, int]] = []
        self.passed_pong: set[int] = set()
        self.declined = 0


class Referee:
    """Independent bookkeeping of one hand from its events, with the rule checks."""

    def __init__(self, ev: HandStarted) -> None:
        r = ev.rules
        self.rules = r
        self.kinds = sorted({int(t) for h in ev.hands for t in h} | {int(t) for t in ev.wall})
        self.seats = [Seat(h) for h in ev.hands]
        self.wall = list(ev.wall)
        self.front = 0
        self.back = len(self.wall)
        self.dealer = ev.dealer
        self.turn = ev.dealer
        self.drawn: int | None = int(ev.hands[ev.dealer][-1])
        self.replacement = False
        self.turn_draws: list[int] = [self.drawn]
        self.chain = 0
        self.window: dict[str, Any] | None = None
        self.liangdao_order: list[int] = []
        self.last_drawer: int | None = None
        self.kong_money = [0, 0, 0]
        self.pending_kong: tuple[int, int] | None = None  # (seat, tile) of a declared 补杠
        self.after_window_draw_from: int | None = None

    @property
    def remaining(self) -> int:
        return self.back - self.front

    # ---------------------------------------------------------------- scoring helpers

    def flags(self) -> tuple[bool, ...]:
        return tuple(s.liangdao for s in self.seats)

    def claim_score(self, s: int, tile: int, rob: bool, from_seat: int, gangpao: bool, last: bool) -> Any:
        seat = self.seats[s]
        concealed = tuple(Tile(t) for t in range(30) for _ in range(seat.hand[t]))
        ctx = WinContext(
            concealed=concealed,
            melds=tuple(Meld(k, Tile(t)) for k, t in seat.melds),
            win_tile=Tile(tile),
            win_by=WinBy.ROB_KONG if rob else WinBy.DISCARD,
            winner=s,
            discarder=from_seat,
            liangdao=self.flags(),
            after_kong=gangpao and not rob,
            last_tile=last and not rob,
            kong_chain=max(self.chain, 1),
            declined_wins=seat.declined,
        )
        return score_win(ctx, self.rules)

    def self_score(self) -> Any:
        seat = self.seats[self.turn]
        assert self.drawn is not None
        c = list(seat.hand)
        c[self.drawn] -= 1
        ctx = WinContext(
            concealed=tuple(Tile(t) for t in range(30) for _ in range(c[t])),
            melds=tuple(Meld(k, Tile(t)) for k, t in seat.melds),
            win_tile=Tile(self.drawn),
            win_by=WinBy.SELF_DRAW,
            winner=self.turn,
            liangdao=self.flags(),
            after_kong=self.replacement,
            last_tile=self.remaining == 0,
            kong_chain=max(self.chain, 1),
            declined_wins=seat.declined,
        )
        return score_win(ctx, self.rules)

    def chajiao_share(self, w: int, p: int, tile: int) -> int:
        """What ``p`` would pay on ``w``'s 自摸 of ``tile`` (capped, with 亮倒 factors; D H5)."""
        seat = self.seats[w]
        ctx = WinContext(
            concealed=tuple(Tile(t) for t in range(30) for _ in range(seat.hand[t])),
            melds=tuple(Meld(k, Tile(t)) for k, t in seat.melds),
            win_tile=Tile(tile),
            win_by=WinBy.SELF_DRAW,
            winner=w,
            liangdao=self.flags(),
        )
        return int(score_win(ctx, self.rules).shares.get(p, 0))

    def can_self_win(self) -> bool:
        seat = self.seats[self.turn]
        if self.drawn is None or not brute_complete(seat.hand, len(seat.melds)):
            return False
        return bool(self.self_score().legal)

    def louhu_blocks(self, seat: Seat, tile: int, m: int) -> bool:
        if not seat.louhu:
            return False
        mode = self.rules.louhu.value
        if mode == "strict":
            return True
        if mode == "bigger_exception":
            return m <= max(p for _, p in seat.louhu)
        return any(t == tile and m <= p for t, p in seat.louhu)

    def protected(self, s: int) -> set[int]:
        """A9.8: tiles a non-亮倒 seat may not give away (unless its whole hand is such tiles)."""
        seat = self.seats[s]
        if not self.rules.liangdao_protect or seat.liangdao:
            return set()
        bad: set[int] = set()
        for i, other in enumerate(self.seats):
            if i != s and other.liangdao:
                bad |= other.waits
        held = {t for t in range(30) if seat.hand[t]}
        return set() if held <= bad else bad

    def waits_after(self, s: int, remove: dict[int, int], melds: list[tuple[MeldKind, int]]) -> set[int]:
        c = list(self.seats[s].hand)
        for t, n in remove.items():
            c[t] -= n
        return _waits(c, melds, self.kinds)

    # ---------------------------------------------------------------- expected options

    def expected_turn_actions(self) -> set[tuple[str, int | None]]:
        r = self.rules
        i = self.turn
        seat = self.seats[i]
        out: set[tuple[str, int | None]] = set()
        complete = self.drawn is not None and brute_complete(seat.hand, len(seat.melds))
        if complete and (not r.qihu_2fan or self.self_score().legal):
            out.add(("win", None))
        may_kong = self.remaining > 0 and (self.drawn is not None or r.kong_after_peng)
        if may_kong:
            for t in range(30):
                if seat.hand[t] == 4:
                    if seat.liangdao:
                        mode = r.liangdao_kong.value
                        if mode != "waits_unchanged":
                            continue
                        new = [*seat.melds, (MeldKind.CONCEALED_KONG, t)]
                        if self.waits_after(i, {t: 4}, new) != seat.waits:
                            continue
                    out.add(("concealed_kong", t))
            for kind, t in seat.melds:
                if kind is not MeldKind.PONG or not seat.hand[t]:
                    continue
                if r.bugang_immediate:
                    fresh = (t == self.drawn) if seat.liangdao else (t in self.turn_draws)
                    if not fresh:
                        continue
                if seat.liangdao:
                    mode = r.liangdao_kong.value
                    if mode == "none" or (mode == "anpu_and_bugang_only" and t != self.drawn):
                        continue
                    # A9.5's "不影响听牌" holds in both modes that allow a 补杠: it changes the waits when
                    # the drawn 4th copy was itself a wait (the engine's reading; docs/rules.md does not say)
                    new = [(MeldKind.ADDED_KONG if (k, x) == (kind, t) else k, x) for k, x in seat.melds]
                    if self.waits_after(i, {t: 1}, new) != seat.waits:
                        continue
                elif t in self.protected(i):
                    continue
                out.add(("added_kong", t))
        if seat.liangdao:
            assert self.drawn is not None
            out.add(("discard", self.drawn))
            return out
        bad = self.protected(i)
        for t in range(30):
            if seat.hand[t] and t not in bad:
                out.add(("discard", t))
                if self.remaining >= r.liangdao_min_wall and self.waits_after(i, {t: 1}, seat.melds):
                    out.add(("liangdao", t))
        return out

    def expected_options(self, kind: WindowKind, frm: int, tile: int, gangpao: bool, last: bool) -> list[Any]:
        r = self.rules
        out = []
        for s in range(3):
            if s == frm:
                continue
            seat = self.seats[s]
            win = 0
            c = list(seat.hand)
            c[tile] += 1
            if brute_complete(c, len(seat.melds)):
                sc = self.claim_score(s, tile, kind is WindowKind.ROB, frm, gangpao, last)
                if sc.legal and not self.louhu_blocks(seat, tile, sc.multiplier[frm]):
                    win = sc.multiplier[frm]
            pong = kong = False
            if kind is WindowKind.CLAIM and not last:
                n = seat.hand[tile]
                pong = n >= 2 and not seat.liangdao and tile not in seat.passed_pong
                if n == 3:
                    if not seat.liangdao:
                        kong = True
                    elif r.liangdao_kong.value == "waits_unchanged":
                        new = [*seat.melds, (MeldKind.KONG, tile)]
                        kong = self.waits_after(s, {tile: 3}, new) == seat.waits
            if win or pong or kong:
                out.append({"seat": s, "win": win, "kong": kong, "pong": pong})
        return out

    # ---------------------------------------------------------------- event checks

    def chain_factor(self, n: int) -> int:
        g = self.rules.gang_chain.value
        if n <= 1:
            return 1
        return {"double": 1 << (n - 1), "flat2": 2, "linear": n}[g]

    def check_kong_money(self, ev: Konged, expected_chain: int) -> None:
        assert ev.chain == expected_chain, (ev, expected_chain)
        f = self.chain_factor(expected_chain) * self.rules.base
        gv = self.rules.gang_values
        money = [0, 0, 0]
        if ev.kind is MeldKind.KONG:
            assert ev.from_seat is not None
            money[ev.from_seat] -= gv.zhi * f
            money[ev.seat] += gv.zhi * f
        else:
            amount = (gv.an if ev.kind is MeldKind.CONCEALED_KONG else gv.bu) * f
            for s in range(3):
                if s != ev.seat:
                    money[s] -= amount
                    money[ev.seat] += amount
        assert list(ev.money) == money, (ev, money)
        for s in range(3):
            self.kong_money[s] += money[s]

    def self_chain(self, tile: int) -> int:
        if self.chain == 0:
            return 1
        if self.rules.gang_chain_self.value == "any_kong_same_turn":
            return self.chain + 1
        return self.chain + 1 if (self.replacement and self.drawn == tile) else 1

    def apply(self, ev: Event) -> None:
        if isinstance(ev, Drew):
            if ev.replacement:
                assert ev.tile == self.wall[self.back - 1]
                self.back -= 1
                assert ev.seat == self.turn
                self.turn_draws.append(int(ev.tile))
            else:
                if self.window is not None:  # a window closed without a claim
                    assert set(self.window["answers"].values()) <= {"pass"}
                assert ev.tile == self.wall[self.front], "draws come from the wall's front (A3.2)"
                self.front += 1
                assert self.after_window_draw_from is not None
                assert ev.seat == (self.after_window_draw_from + 1) % 3, "turn order (A2.3)"
                self.turn_draws = [int(ev.tile)]
                self.chain = 0
            self.window = None
            seat = self.seats[ev.seat]
            seat.hand[ev.tile] += 1
            seat.louhu = []  # E#9: lifted by the seat's own draw, a replacement too
            seat.passed_pong = set()
            self.turn = ev.seat
            self.drawn = int(ev.tile)
            self.replacement = ev.replacement
            self.last_drawer = ev.seat
        elif isinstance(ev, Discarded):
            seat = self.seats[ev.seat]
            assert ev.seat == self.turn
            was_liangdao = seat.liangdao
            if was_liangdao:
                assert ev.tile == self.drawn, "a 亮倒 seat discards the tile it drew (A9.3)"
                assert not ev.liangdao
                if self.can_self_win():
                    seat.declined += 1  # a declined 自摸 (过胡翻番 counts every declined win)
            seat.hand[ev.tile] -= 1
            assert seat.hand[ev.tile] >= 0
            if ev.liangdao:
                waits = _waits(seat.hand, seat.melds, self.kinds)
                assert waits, "亮倒 needs a ready hand (A9.1)"
                assert {int(t) for t in ev.waits} == waits
                seat.liangdao = True
                seat.waits = waits
                self.liangdao_order.append(ev.seat)
            self.gangpao = self.chain > 0
            self.last = self.remaining == 0
            self.discard = (ev.seat, int(ev.tile))
            self.after_window_draw_from = ev.seat
            self.drawn = None
            self.turn_draws = []
            self.expect_window = (WindowKind.CLAIM, ev.seat, int(ev.tile), self.gangpao, self.last)
        elif isinstance(ev, WindowOpened):
            kind, frm, tile, gangpao, last = self.expect_window
            assert (ev.kind, ev.from_seat, int(ev.tile)) == (kind, frm, tile)
            assert ev.gangpao == gangpao, "杠上炮: the first discard after a kong's replacement (E#31)"
            assert ev.last == last
            got = [{"seat": o.seat, "win": o.win, "kong": o.kong, "pong": o.pong} for o in ev.options]
            assert got == self.expected_options(kind, frm, tile, gangpao, last), (got, self.window)
            self.window = {
                "kind": kind,
                "from": frm,
                "tile": tile,
                "options": got,
                "answers": {},
                "gangpao": gangpao,
                "last": last,
            }
        elif isinstance(ev, Answered):
            w = self.window
            assert w is not None
            opt = next(o for o in w["options"] if o["seat"] == ev.seat)
            seat = self.seats[ev.seat]
            if ev.auto:
                assert seat.liangdao and ev.answer == "win"
            if opt["win"] and ev.answer != "win":
                seat.louhu.append((w["tile"], opt["win"]))
                if seat.liangdao:
                    seat.declined += 1
            if opt["pong"] and ev.answer not in ("pong", "win") and self.rules.guoshou_peng:
                seat.passed_pong.add(w["tile"])
            w["answers"][ev.seat] = ev.answer
        elif isinstance(ev, Ponged):
            w = self.window
            assert w is not None and w["kind"] is WindowKind.CLAIM
            assert "win" not in w["answers"].values() and w["answers"].get(ev.seat) == "pong"
            seat = self.seats[ev.seat]
            seat.hand[ev.tile] -= 2
            assert seat.hand[ev.tile] >= 0
            seat.melds.append((MeldKind.PONG, int(ev.tile)))
            seat.louhu = []
            seat.passed_pong = set()
            self.turn = ev.seat
            self.drawn = None
            self.replacement = False
            self.turn_draws = []
            self.chain = 0
            self.window = None
        elif isinstance(ev, Konged):
            seat = self.seats[ev.seat]
            t = int(ev.tile)
            if ev.kind is MeldKind.KONG:
                w = self.window
                assert w is not None and w["answers"].get(ev.seat) == "kong"
                assert "win" not in w["answers"].values()
                assert self.remaining >= 1, "a kong needs a wall tile (A6.5)"
                self.check_kong_money(ev, self.chain + 1 if w["gangpao"] else 1)
                seat.hand[t] -= 3
                seat.melds.append((MeldKind.KONG, t))
                seat.louhu = []
                seat.passed_pong = set()
                self.turn_draws = []
            elif ev.kind is MeldKind.CONCEALED_KONG:
                self.check_kong_money(ev, self.self_chain(t))
                seat.hand[t] -= 4
                seat.melds.append((MeldKind.CONCEALED_KONG, t))
            else:
                self.check_kong_money(ev, self.self_chain(t))
                seat.hand[t] -= 1
                seat.melds = [(MeldKind.ADDED_KONG if (k, x) == (MeldKind.PONG, t) else k, x) for k, x in seat.melds]
            assert min(seat.hand) >= 0
            if seat.liangdao:
                assert _waits(seat.hand, seat.melds, self.kinds) == seat.waits, "亮倒 kongs keep the waits (A9.5)"
            self.chain = ev.chain
            self.turn = ev.seat
            self.drawn = None
            self.replacement = False
            self.window = None
        elif isinstance(ev, HandEnded):
            self.check_end(ev)
        else:  # pragma: no cover
            raise AssertionError(ev)

    def declare_added_kong(self, seat: int, tile: int) -> None:
        """A 补杠 declaration opens a rob window only for seats that can legally rob (A6.6)."""
        self.expect_window = (WindowKind.ROB, seat, tile, False, False)

    def check_end(self, ev: HandEnded) -> None:
        r = ev.result
        assert list(r.kong_deltas) == self.kong_money
        assert sum(r.hand_deltas) == 0 and sum(r.deltas) == 0
        assert [h + k for h, k in zip(r.hand_deltas, r.kong_deltas, strict=True)] == list(r.deltas)
        rules = self.rules
        if r.outcome == "draw":
            assert self.remaining == 0
            flags = self.flags()
            expect = [0, 0, 0]
            mode = rules.huangzhuang_liangdao.value
            if mode == "s000":
                for p in range(3):
                    for q in range(3):
                        if flags[p] and not flags[q]:
                            expect[p] -= rules.base
                            expect[q] += rules.base
            elif mode == "s004_first" and self.liangdao_order:
                first = self.liangdao_order[0]
                for q in range(3):
                    if q != first:
                        expect[first] -= rules.base
                        expect[q] += rules.base
            payers = {p for p in range(3) if expect[p] < 0}
            if mode == "chajiao":  # 查叫 (A14.2 option, D H5)
                payers = set()
                ready = [
                    seat.waits if seat.liangdao else _waits(seat.hand, seat.melds, self.kinds) for seat in self.seats
                ]
                for w in range(3):
                    for p in range(3):
                        if p == w or not ready[w]:
                            continue
                        if ready[p] and not (flags[p] and not flags[w]):
                            continue
                        amount = max(self.chajiao_share(w, p, t) for t in ready[w])
                        if amount:
                            expect[p] -= amount
                            expect[w] += amount
                            payers.add(p)
            assert list(r.hand_deltas) == expect, (r, expect, mode)
            dealer = self.dealer
            if rules.dealer_on_draw.value == "last_drawer":
                dealer = self.last_drawer if self.last_drawer is not None else self.dealer
            elif rules.dealer_on_draw.value == "chajiao":
                if len(payers) == 1:
                    dealer = next(iter(payers))
                elif len(payers) == 2:
                    dealer = next(p for p in range(3) if p not in payers)
            assert r.next_dealer == dealer, (r, dealer)
            return
        winners = list(r.winners)
        assert winners
        if winners[0].by == "self_draw":
            assert len(winners) == 1 and winners[0].seat == self.turn and winners[0].win_tile == self.drawn
            sc = self.self_score()
            assert sc.legal
            assert list(r.hand_deltas) == list(sc.deltas)
            assert r.next_dealer == self.turn
            assert ("杠上开花" in winners[0].fans) == self.replacement
            return
        w = self.window
        assert w is not None
        won = sorted(s for s, a in w["answers"].items() if a == "win")
        assert sorted(x.seat for x in winners) == won
        total = [0, 0, 0]
        for x in winners:
            assert x.from_seat == w["from"] and x.win_tile == w["tile"]
            sc = self.claim_score(x.seat, w["tile"], w["kind"] is WindowKind.ROB, w["from"], w["gangpao"], w["last"])
            assert sc.legal
            for k in range(3):
                total[k] += sc.deltas[k]
        assert list(r.hand_deltas) == total
        assert r.next_dealer == (won[0] if len(won) == 1 else w["from"]), "A15.1/A15.2/E#45"

    def check_pending(self, state: Any) -> None:
        """Who must act: the turn seat, or the seats the window still waits for (E#40)."""
        if state.phase is Phase.TURN:
            seat = self.seats[self.turn]
            if seat.liangdao:
                auto = self.rules.liangdao_auto_win and not self.rules.guohu_fanfan
                can_win = self.can_self_win()
                assert not (auto and can_win), "a 亮倒 seat wins automatically (A9.4)"
                assert any(a != ("discard", self.drawn) for a in self.expected_turn_actions()), (
                    "a 亮倒 seat with nothing to decide discards its drawn tile automatically (A9.3)"
                )
            got = {(a.kind.value, None if a.tile is None else int(a.tile)) for a in legal_actions(state, self.turn)}
            assert got == self.expected_turn_actions(), (got ^ self.expected_turn_actions(), self.turn)
        elif state.phase in (Phase.CLAIM, Phase.ROB):
            w = self.window
            assert w is not None
            answered = set(w["answers"])
            any_win = "win" in w["answers"].values()
            pending = [o["seat"] for o in w["options"] if o["seat"] not in answered and (o["win"] or not any_win)]
            assert list(state.to_act()) == pending
            auto = self.rules.liangdao_auto_win and not self.rules.guohu_fanfan
            for o in w["options"]:
                if o["win"] and self.seats[o["seat"]].liangdao and auto:
                    assert w["answers"].get(o["seat"]) == "win", "a 亮倒 seat wins a discard automatically"


def _pick(rng: random.Random, actions: list[Action]) -> Action:
    by_kind: dict[ActionKind, list[Action]] = {}
    for a in actions:
        by_kind.setdefault(a.kind, []).append(a)
    for kind, p in (
        (ActionKind.WIN, 0.55),
        (ActionKind.CONCEALED_KONG, 0.6),
        (ActionKind.ADDED_KONG, 0.6),
        (ActionKind.KONG, 0.6),
        (ActionKind.PONG, 0.5),
        (ActionKind.LIANGDAO, 0.25),
    ):
        if kind in by_kind and rng.random() < p:
            return rng.choice(by_kind[kind])
    return rng.choice(actions)


def _pick_smart(rng: random.Random, state: Any, seat: int, actions: list[Action]) -> Action:
    """An AI move on the seat's own turn (so hands get ready and 亮倒 often); in claim windows a
    possible 胡 is passed 40% of the time (to exercise 漏胡, A8.3)."""
    kinds = {a.kind for a in actions}
    if state.phase is not Phase.TURN:
        if ActionKind.WIN in kinds and rng.random() < 0.4:
            return next(a for a in actions if a.kind is ActionKind.PASS)
        return _pick(rng, actions)
    return choose_action(view_for(state, seat), actions, Level.EASY, rng, rules=state.rules)


def play_checked(seed: str, smart: bool = False) -> dict[str, Any]:
    """One random hand under random rules, every event checked by the referee; returns counters.
    ``smart``: AI play on own turns (see :func:`_pick_smart`) instead of random moves."""
    rng = random.Random(seed)
    rules = random_rules(rng)
    events = start(rules, rng.randrange(3), seed=seed)
    state = replay(events)
    all_events = list(events)
    first = events[0]
    assert isinstance(first, HandStarted)
    ref = Referee(first)
    seen: dict[str, Any] = {"rules": rules}
    for _ in range(400):
        if state.over:
            break
        ref.check_pending(state)
        seat = state.to_act()[0] if state.phase is not Phase.TURN else state.turn
        actions = legal_actions(state, seat)
        action = _pick_smart(rng, state, seat, actions) if smart else _pick(rng, actions)
        if action.kind is ActionKind.ADDED_KONG:
            assert action.tile is not None
            ref.declare_added_kong(seat, int(action.tile))
        state, new = step(state, action)
        all_events.extend(new)
        for ev in new:
            ref.apply(ev)
            seen[ev.type] = seen.get(ev.type, 0) + 1
            if isinstance(ev, Answered) and ev.answer == "win" and ref.window and ref.window["kind"] is WindowKind.ROB:
                seen["rob"] = seen.get("rob", 0) + 1
    assert state.over, "the hand must end"
    loaded = [event_from_json(json.loads(json.dumps(e.to_json(), ensure_ascii=False))) for e in all_events]
    assert replay(loaded) == state, "the events' JSON form replays the hand exactly"
    return seen


@pytest.mark.slow
@pytest.mark.parametrize("block", range(4))
def test_random_selfplay_under_random_rules_follows_the_rules(block: int) -> None:
    for n in range(60):
        play_checked(f"audit-selfplay-{block}-{n}")


@pytest.mark.slow
@pytest.mark.parametrize("block", range(4))
def test_ai_selfplay_under_random_rules_follows_the_rules(block: int) -> None:
    for n in range(40):
        play_checked(f"audit-ai-selfplay-{block}-{n}", smart=True)
