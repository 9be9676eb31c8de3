"""Unit tests of the game state machine (engine.game): shuffle, deal, events, rule details, views.

Deals are built with :func:`deal`: the given hands, the front of the wall (``draws``) and kong
replacements (``tail``), the other tiles in a fixed order.  :func:`play` applies scripted actions,
playing automatically in between (a seat on its turn discards its drawn tile, a seat asked in a
claim window passes) — the same convention as tests/scenarios/build.py.
"""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from engine.game import (
    Action,
    ActionKind,
    Answered,
    Discarded,
    Drew,
    Event,
    HandEnded,
    HandStarted,
    IllegalAction,
    Konged,
    Phase,
    Ponged,
    Reason,
    State,
    WindowKind,
    WindowOpened,
    action_from_json,
    decide,
    event_from_json,
    first_dealer,
    kinds_for,
    legal_actions,
    public_view,
    replay,
    start,
    step,
    view_for,
)
from engine.game.shuffle import deal as seed_deal
from engine.game.shuffle import shuffled
from engine.game.state import ClaimOption
from engine.rules import RuleSet
from engine.tiles import MeldKind, NotationError, Tile, parse_tile, parse_tiles
from engine.views import HandResultView, MeldView, WinView

STD = RuleSet()


def deal_events(
    hands: list[str], draws: str = "", tail: str = "", rules: RuleSet = STD, dealer: int = 0
) -> list[Event]:
    """The start events of a deal: the hands given (completed with filler), ``draws`` first in the wall,
    ``tail`` last (``tail[0]`` is the first kong replacement)."""
    pool = [t for t in kinds_for(rules) for _ in range(4)]
    fixed = [parse_tiles(h) for h in hands]
    front = [None if x == "?" else parse_tile(x) for x in draws.split()]
    back = [None if x == "?" else parse_tile(x) for x in tail.split()]
    for t in [*(t for h in fixed for t in h), *front, *back]:
        if t is not None:
            pool.remove(t)
    random.Random(" ".join(hands) + draws + tail).shuffle(pool)
    for s, h in enumerate(fixed):
        while len(h) < (14 if s == dealer else 13):
            h.append(pool.pop())
    wall = [t if t is not None else pool.pop() for t in front] + pool
    wall += [t if t is not None else pool.pop() for t in back][::-1]
    return start(rules, dealer, hands=fixed, wall=wall)


def deal(hands: list[str], draws: str = "", tail: str = "", rules: RuleSet = STD, dealer: int = 0) -> State:
    """The dealt state of :func:`deal_events`."""
    return replay(deal_events(hands, draws, tail, rules, dealer))


def act(text: str, state: State) -> Action:
    parts = text.split()
    tile = None
    if len(parts) > 2:
        tile = state.drawn if parts[2] == "*" else parse_tile(parts[2])
    return Action(int(parts[0]), ActionKind(parts[1]), tile)


def play(state: State, *script: str, log: list[Event] | None = None) -> State:
    """Apply ``script`` actions, each when it is legal for its seat, auto-playing in between; the events
    are appended to ``log`` when given."""
    todo = list(script)
    for _ in range(600):
        if not todo:
            return state
        assert not state.over, f"hand over before {todo}"
        a = act(todo[0], state)
        if a in legal_actions(state, a.seat):
            todo.pop(0)
        elif state.phase in (Phase.CLAIM, Phase.ROB):
            a = Action(state.to_act()[0], ActionKind.PASS)
        else:
            assert state.drawn is not None, f"seat {state.turn} must act after 碰 before {todo[0]}"
            a = Action(state.turn, ActionKind.DISCARD, state.drawn)
        state, events = step(state, a)
        if log is not None:
            log.extend(events)
    raise AssertionError(f"script stuck at {todo}")


def reason(state: State, text: str) -> Reason:
    with pytest.raises(IllegalAction) as info:
        decide(state, act(text, state))
    assert info.value.message
    return info.value.reason


# ============================================================================ shuffle and deal


def test_shuffle_matches_its_documented_algorithm() -> None:
    """Re-derive the wall from the docstring: SHA-256 blocks of seed || k, 32-bit words, rejection,
    Fisher-Yates from the end; seat (dealer + k) % 3 gets t[13k:13k+13], the dealer t[39], wall t[40:]."""
    seed = "table 7 / hand 3"
    kinds = kinds_for(STD)
    tiles = [t for t in kinds for _ in range(4)]
    words = []
    k = 0
    while len(words) < 400:
        block = hashlib.sha256(seed.encode() + k.to_bytes(4, "big")).digest()
        words += [int.from_bytes(block[i : i + 4], "big") for i in range(0, 32, 4)]
        k += 1
    it = iter(words)
    for i in range(len(tiles) - 1, 0, -1):
        m = i + 1
        w = next(it)
        while w >= 2**32 - 2**32 % m:
            w = next(it)
        j = w % m
        tiles[i], tiles[j] = tiles[j], tiles[i]
    assert shuffled(seed, kinds) == tiles
    hands, wall = seed_deal(seed, 1, kinds, 3)
    assert sorted(hands[1][:13]) == sorted(tiles[0:13]) and hands[1][13] == tiles[39]
    assert sorted(hands[2]) == sorted(tiles[13:26]) and sorted(hands[0]) == sorted(tiles[26:39])
    assert wall == tuple(tiles[40:])
    assert len(wall) == 44


def test_seed_deals_are_deterministic_and_differ() -> None:
    a = start(STD, 0, seed="abc")
    assert a == start(STD, 0, seed="abc")
    assert a != start(STD, 0, seed="abd")
    state = replay(a)
    assert state.phase is Phase.TURN and state.turn == 0 and state.wall_remaining == 44
    assert [s.concealed_count for s in state.seats] == [14, 13, 13]
    assert state.drawn == a[0].hands[0][-1]  # type: ignore[union-attr]
    assert state.seed == "abc"


def test_variant_suits_deal_their_tiles() -> None:
    rules = RuleSet.from_json({"suits": ["p", "m"]})
    state = replay(start(rules, 2, seed="m"))
    tiles = [t for s in state.seats for t in s.tiles()] + list(state.wall)
    assert len(tiles) == 84 and Tile.M5 in tiles and Tile.S5 not in tiles


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"hands": [parse_tiles("123p")] * 3, "wall": []}, "has 3 tiles"),
        ({"seed": "x", "hands": []}, "either"),
        ({}, "give a seed"),
    ],
)
def test_start_rejects_bad_deals(kwargs: dict[str, object], needle: str) -> None:
    with pytest.raises(ValueError, match=needle):
        start(STD, 0, **kwargs)  # type: ignore[arg-type]


def test_start_rejects_wrong_tile_set() -> None:
    state = deal(["", "", ""])
    first = state.seats
    hands = [s.tiles() for s in first]
    hands[0].append(hands[0].pop(0))  # keep the dealer's 14
    wall = list(state.wall)
    wall[0] = wall[1]
    with pytest.raises(NotationError, match="exactly 4 of each"):
        start(STD, 0, hands=hands, wall=wall)


def test_partial_reveal_options_play() -> None:
    """liangdao_reveal = kou / minimal are played (docs/rules.md §A9.2, §E#48), no longer refused."""
    for mode in ("kou", "minimal"):
        events = start(RuleSet.from_json({"liangdao_reveal": mode}), 0, seed="x")
        assert isinstance(events[0], HandStarted) and events[0].rules.liangdao_reveal == mode


# ============================================================================ events


def test_every_event_type_round_trips_through_json() -> None:
    events = [
        HandStarted(
            1,
            RuleSet.from_json({"louhu": "strict", "values": {"kawuxing": 4}}),
            2,
            (tuple(parse_tiles("1p")),) * 3,
            tuple(parse_tiles("5z9s")),
            "s",
        ),
        Drew(2, 1, Tile.S5, True),
        Discarded(3, 1, Tile.RED, True, (Tile.P1, Tile.P4), False),
        WindowOpened(4, WindowKind.ROB, 0, Tile.S7, (ClaimOption(1, 2, False, False),), False, False),
        Answered(5, 1, "pass", False),
        Ponged(6, 2, Tile.P9, 0),
        Konged(7, 2, MeldKind.KONG, Tile.P9, 0, (-2, 0, 2), 2),
        HandEnded(
            8,
            HandResultView(
                "win",
                (
                    WinView(
                        0,
                        tuple(parse_tiles("123p789p234s46s88s")),
                        (MeldView(MeldKind.PONG, Tile.P1, 2),),
                        Tile.S5,
                        "discard",
                        1,
                        ("卡五星",),
                        {1: 2},
                        False,
                        "123p 456s",
                    ),
                ),
                (2, -2, 0),
                (0, 0, 0),
                (2, -2, 0),
                0,
            ),
        ),
    ]
    for e in events:
        data = e.to_json()
        assert list(data)[:2] == ["seq", "type"]
        assert event_from_json(json.loads(json.dumps(data, ensure_ascii=False))) == e


@pytest.mark.parametrize(
    "bad",
    [{"seq": 1, "type": "teleported"}, {"type": "drew"}, {"seq": 1, "type": "drew", "seat": 0, "tile": "0p"}, 5],
)
def test_event_from_json_rejects_bad_input(bad: object) -> None:
    with pytest.raises(ValueError):
        event_from_json(bad)


def test_first_event_carries_the_chance_and_rules() -> None:
    rules = RuleSet.from_json({"liangdao_protect": True})
    events = start(rules, 1, seed="hello")
    data = events[0].to_json()
    assert data["seed"] == "hello" and data["rules"] == {"preset": "standard", "liangdao_protect": True}
    assert replay([event_from_json(data)]) == replay(events)
    assert replay(events).rules == rules


def test_action_json_form() -> None:
    a = action_from_json({"seat": 1, "act": "added_kong", "tile": "7s"})
    assert a == Action(1, ActionKind.ADDED_KONG, Tile.S7) and a.to_json() == {
        "seat": 1,
        "act": "added_kong",
        "tile": "7s",
    }
    assert action_from_json({"seat": 2, "act": "pass"}).to_json(with_seat=False) == {"act": "pass"}
    for bad in (
        {"seat": 3, "act": "pass"},
        {"seat": 0, "act": "discard"},
        {"seat": 0, "act": "pong", "tile": "1p"},
        {"seat": 0, "act": "pass", "x": 1},
        [],
    ):
        with pytest.raises(ValueError):
            action_from_json(bad)


# ============================================================================ turns and claims


def test_turn_errors() -> None:
    state = deal(["123p456p789p1s23s5z6z", "", ""])
    assert reason(state, "1 discard 1p") is Reason.NOT_YOUR_TURN
    assert reason(state, "0 discard 9s") is Reason.TILE_NOT_IN_HAND
    assert reason(state, "0 pong") is Reason.NO_CLAIM_PENDING
    assert reason(state, "0 win") is Reason.NOT_COMPLETE
    assert reason(state, "0 concealed_kong 1p") is Reason.CANNOT_KONG
    assert reason(state, "0 added_kong 1p") is Reason.CANNOT_KONG
    with pytest.raises(IllegalAction) as info:
        decide(state, Action(0, ActionKind.DISCARD))
    assert info.value.reason is Reason.MISSING_TILE
    with pytest.raises(IllegalAction) as info:
        decide(state, Action(0, ActionKind.PASS, Tile.P1))
    assert info.value.reason is Reason.UNEXPECTED_TILE
    with pytest.raises(IllegalAction) as info:
        decide(state, Action(5, ActionKind.PASS))
    assert info.value.reason is Reason.BAD_SEAT
    # a state is a value: a refused action changes nothing
    before = state
    with pytest.raises(IllegalAction):
        decide(state, act("0 discard 9s", state))
    assert state == before


def test_discard_without_claims_passes_to_the_next_seat() -> None:
    state = deal(["123p456p789p1s23s5z6z", "", ""], draws="7z")
    state2, events = step(state, act("0 discard 6z", state))
    assert [type(e) for e in events] == [Discarded, Drew]
    assert state2.turn == 1 and state2.drawn == Tile.RED and state2.wall_remaining == 43


def test_claim_window_priority_and_waiting() -> None:
    """E#40: seat 1 can 碰, seat 2 can 胡; after 1 answers 碰 the window still waits for 2."""
    state = deal(["5z", "5z5z", "123p789p234s46s88s"], draws="?")
    state = play(state, "0 discard 5z")
    # 5z does not complete seat 2's hand: only seat 1 is asked
    assert state.to_act() == (1,)
    state = deal(["123p456p789p5s", "5s5s", "123p789p234s46s88s"])
    state, events = step(state, act("0 discard 5s", state))
    window = state.window
    assert window is not None and {o.seat for o in window.options} == {1, 2}
    assert legal_actions(state, 1) == [Action(1, ActionKind.PONG), Action(1, ActionKind.PASS)]
    assert legal_actions(state, 2) == [Action(2, ActionKind.WIN), Action(2, ActionKind.PASS)]
    after_pong, _ = step(state, act("1 pong", state))
    assert after_pong.to_act() == (2,) and reason(after_pong, "1 pass") is Reason.ALREADY_ANSWERED
    ponged, events = step(after_pong, act("2 pass", after_pong))
    assert isinstance(events[-1], Ponged) and ponged.turn == 1 and ponged.drawn is None
    # 胡 first: seat 1's 碰 can no longer matter, the window closes at once
    won, events = step(state, act("2 win", state))
    assert won.over and won.result is not None and won.result.winners[0].seat == 2
    assert won.result.hand_deltas == (-2, 0, 2)


def test_claim_answer_errors() -> None:
    state = deal(["123p456p789p5s", "5s5s", "123p789p234s46s88s"])
    state, _ = step(state, act("0 discard 5s", state))
    assert reason(state, "1 win") is Reason.NOT_COMPLETE
    assert reason(state, "1 kong") is Reason.CANNOT_KONG
    assert reason(state, "2 pong") is Reason.CANNOT_PONG
    assert reason(state, "0 pass") is Reason.NOTHING_TO_CLAIM
    assert reason(state, "1 discard 5s") is Reason.CLAIM_PENDING


def test_louhu_reason_and_modes() -> None:
    """A8.3: W (碰碰胡 waits 7s/9s) passes a 7s; a 9s is then blocked — W is still asked (it can 碰)."""
    hands = ["111p333p555p77s99s", "7s", "9s"]
    for mode, blocked in (("bigger_exception", True), ("strict", True), ("same_tile", False)):
        rules = RuleSet.from_json({"louhu": mode})
        state = deal(hands, rules=rules, dealer=1)
        state = play(state, "1 discard 7s")
        assert legal_actions(state, 0)[0] == Action(0, ActionKind.WIN)
        state, _ = step(state, act("0 pass", state))
        assert state.seats[0].louhu == ((Tile.S7, 2),)
        state = play(state, "2 discard 9s")
        assert state.to_act() == (0,)
        if blocked:
            assert reason(state, "0 win") is Reason.LOUHU
            assert Action(0, ActionKind.WIN) not in legal_actions(state, 0)
        else:
            assert Action(0, ActionKind.WIN) in legal_actions(state, 0)


def test_louhu_lifted_by_pong() -> None:
    """E#9: a 碰 lifts 漏胡 (like a draw): W passes 7s, its 9s win is then blocked but it may 碰 9s."""
    state = deal(["111p333p555p77s99s", "7s", "9s"], dealer=1)
    state = play(state, "1 discard 7s", "0 pass", "2 discard 9s")
    assert state.seats[0].louhu and legal_actions(state, 0) == [Action(0, ActionKind.PONG), Action(0, ActionKind.PASS)]
    state = play(state, "0 pong")
    assert state.seats[0].louhu == () and state.turn == 0


def test_pihu_cannot_win_on_discard_but_liangdao_payer_lifts_it() -> None:
    state = deal(["123p456p789p88s99s", "9s", ""], dealer=1)
    state = play(state, "1 discard 9s")
    assert state.to_act() == (0,) and legal_actions(state, 0) == [
        Action(0, ActionKind.PONG),
        Action(0, ActionKind.PASS),
    ]
    assert reason(state, "0 win") is Reason.PIHU_CANNOT_WIN_ON_DISCARD


def test_guoshou_peng_option() -> None:
    """A5.5 option: a declined 碰 blocks 碰 of that tile until the seat's next draw."""
    rules = RuleSet.from_json({"guoshou_peng": True})
    state = deal(["5z5z", "5z", "5z"], rules=rules, dealer=1)
    log: list[Event] = []
    state = play(state, "1 discard 5z", "0 pass", log=log)
    assert state.seats[0].passed_pong == (Tile.WHITE,)
    state = play(state, "2 discard 5z", log=log)
    assert not any(isinstance(e, WindowOpened) and e.from_seat == 2 for e in log)
    assert state.turn == 0 and state.seats[0].passed_pong == ()  # lifted by the draw
    plain = play(deal(["5z5z", "5z", "5z"], dealer=1), "1 discard 5z", "0 pass", "2 discard 5z")
    assert plain.window is not None and legal_actions(plain, 0)[0] == Action(0, ActionKind.PONG)


# ============================================================================ kongs


def test_kong_money_and_replacement_from_the_back() -> None:
    state = deal(["1111p", "", ""], tail="9p")
    state, events = step(state, act("0 concealed_kong 1p", state))
    assert isinstance(events[0], Konged) and events[0].money == (4, -2, -2)
    assert isinstance(events[1], Drew) and events[1].replacement and events[1].tile == Tile.P9
    assert state.back == 43 and state.front == 0 and state.replacement
    assert [s.kong_money for s in state.seats] == [4, -2, -2]


def test_bugang_with_a_tile_drawn_before_a_kong_in_the_same_turn() -> None:
    """E#42: any tile drawn during the current turn may be 补杠'd, also after a kong in between."""
    state = deal(["66s1111p9p", "6s", ""], draws="? ? ? 6s")
    state = play(state, "1 discard 6s", "0 pong", "0 discard 9p")
    state = play(state, "0 concealed_kong 1p")  # on the turn seat 0 draws 6s
    assert Tile.S6 in state.turn_draws and state.replacement
    assert Action(0, ActionKind.ADDED_KONG, Tile.S6) in legal_actions(state, 0)


def test_bugang_immediate_off_allows_later_bugang() -> None:
    rules = RuleSet.from_json({"bugang_immediate": False})
    state = deal(["66s9p9s", "6s", ""], draws="? ? ? 6s", rules=rules)
    state = play(state, "1 discard 6s", "0 pong", "0 discard 9p", "0 discard 9s")
    state = play(state, "1 discard *", "2 discard *")
    assert state.turn == 0 and Action(0, ActionKind.ADDED_KONG, Tile.S6) in legal_actions(state, 0)


def test_liangdao_kong_that_changes_waits_is_refused() -> None:
    """A9.5: 亮倒 111p2p456s789s555z waits 2p/3p; a drawn 1p would make 暗杠 leave only 2p: refused,
    and the 1p is discarded automatically."""
    log = deal_events(["111p2p456s789s555z9s", "", ""], draws="6z 6z 1p")
    state = replay(log)
    state = play(state, "0 liangdao 9s", "1 discard *", "2 discard *", log=log)
    assert state.seats[0].waits == (Tile.P2, Tile.P3)
    state = play(state, "1 discard *", log=log)
    i = next(k for k, e in enumerate(log) if isinstance(e, Drew) and e.seat == 0)
    assert log[i].tile == Tile.P1  # type: ignore[union-attr]
    assert isinstance(log[i + 1], Discarded) and log[i + 1].auto  # type: ignore[union-attr]
    drew_at = replay(log[: i + 1])
    assert drew_at.turn == 0 and drew_at.drawn == Tile.P1
    assert reason(drew_at, "0 concealed_kong 1p") is Reason.LIANGDAO_KONG_CHANGES_WAITS
    assert legal_actions(drew_at, 0) == [Action(0, ActionKind.DISCARD, Tile.P1)]
    assert reason(drew_at, "0 discard 5z") is Reason.LIANGDAO_MUST_DISCARD_DRAWN
    assert reason(drew_at, "0 liangdao 1p") is Reason.ALREADY_LIANGDAO


def test_no_kong_after_pong_and_none_on_the_last_tile() -> None:
    state = deal(["1111p66s9p", "6s", ""])
    state = play(state, "1 discard 6s", "0 pong")
    assert reason(state, "0 concealed_kong 1p") is Reason.KONG_NOT_ALLOWED_AFTER_PONG
    assert reason(state, "0 win") is Reason.NO_DRAWN_TILE
    assert all(a.kind is ActionKind.DISCARD or a.kind is ActionKind.LIANGDAO for a in legal_actions(state, 0))
    state = deal(["1111p", "", ""], dealer=1)
    while state.wall_remaining:
        state = play(
            state, f"{state.to_act()[0]} discard *" if state.phase is Phase.TURN else f"{state.to_act()[0]} pass"
        )
    assert state.turn == 0 and reason(state, "0 concealed_kong 1p") is Reason.KONG_ON_LAST_TILE
    assert all(a.kind is not ActionKind.CONCEALED_KONG for a in legal_actions(state, 0))


def test_last_discard_is_win_only() -> None:
    state = deal(["123p789p234s46s88s", "555s", ""], tail="5s")
    while state.wall_remaining:
        s = state.to_act()[0]
        state = play(state, f"{s} discard *" if state.phase is Phase.TURN else f"{s} pass")
    state = play(state, "2 discard 5s")
    assert state.window is not None and state.window.last
    assert legal_actions(state, 0) == [Action(0, ActionKind.WIN), Action(0, ActionKind.PASS)]
    assert legal_actions(state, 1) == []
    assert reason(state, "1 pong") is Reason.NOTHING_TO_CLAIM
    over, _ = step(state, act("0 pass", state))
    assert over.over and over.result is not None and over.result.outcome == "draw"


def test_qihu_2fan_refuses_a_plain_self_draw() -> None:
    rules = RuleSet.from_json({"qihu_2fan": True})
    state = deal(["123p456p789p23s99s1s", "", ""], rules=rules)
    assert reason(state, "0 win") is Reason.QIHU_2FAN
    assert Action(0, ActionKind.WIN) not in legal_actions(state, 0)
    assert Action(0, ActionKind.WIN) in legal_actions(deal(["123p456p789p23s99s1s", "", ""]), 0)


# ============================================================================ 亮倒


def test_liangdao_reveals_and_automates() -> None:
    state = deal(["123p456p234s78s99p5z", "9s", ""], draws="7z")
    state, events = step(state, act("0 liangdao 5z", state))
    assert isinstance(events[0], Discarded) and events[0].liangdao and events[0].waits == (Tile.S6, Tile.S9)
    assert state.liangdao_order == (0,)
    pub = public_view(state)
    assert pub.seats[0].liangdao and pub.seats[0].revealed == tuple(sorted(parse_tiles("123p456p234s78s99p")))
    assert pub.seats[0].waits == (Tile.S6, Tile.S9) and pub.seats[0].discards[-1].liangdao
    assert view_for(state, 1).public.seats[0].revealed == pub.seats[0].revealed


def test_liangdao_player_never_pongs_but_may_direct_kong() -> None:
    log: list[Event] = []
    state = deal(["123p456p777s23s99s5z", "9s", ""], draws="7z")
    state = play(state, "0 liangdao 5z", "1 discard 9s", log=log)
    assert not any(isinstance(e, WindowOpened) and any(o.seat == 0 for o in e.options) for e in log)
    state = deal(["123p456p777s23s99s5z", "7s", ""], draws="7z")
    state = play(state, "0 liangdao 5z", "1 discard 7s")
    assert legal_actions(state, 0) == [Action(0, ActionKind.KONG), Action(0, ActionKind.PASS)]
    assert reason(state, "0 pong") is Reason.LIANGDAO_CANNOT_PONG


def test_liangdao_protect_covers_discard_and_bugang() -> None:
    """A9.8 option: C may neither discard nor 补杠 9s, a 亮倒 player's winning tile, while holding others."""
    rules = RuleSet.from_json({"liangdao_protect": True})
    state = deal(["123p456p234s78s99p", "9s", "99s3s"], draws="5z 7z 9s", rules=rules, dealer=1)
    state = play(state, "1 discard 9s", "2 pong", "2 discard 3s", "0 liangdao 5z")
    state = play(state, "1 discard *")
    assert state.turn == 2 and state.drawn == Tile.S9
    assert reason(state, "2 added_kong 9s") is Reason.PROTECTED_TILE
    assert reason(state, "2 discard 9s") is Reason.PROTECTED_TILE
    assert all(a.tile != Tile.S9 for a in legal_actions(state, 2))
    free = deal(["123p456p234s78s99p", "9s", "99s3s"], draws="5z 7z 9s", dealer=1)
    free = play(free, "1 discard 9s", "2 pong", "2 discard 3s", "0 liangdao 5z", "1 discard *")
    assert Action(2, ActionKind.ADDED_KONG, Tile.S9) in legal_actions(free, 2)


def test_liangdao_auto_win_on_rob_is_baohu() -> None:
    """A12.4: robbing a non-亮倒 player's 补杠 of a 亮倒 player's wait is 包胡 (automatic 胡, A9.4)."""
    state = deal(["123p456p789p68s5z5z", "7s", "77s3s"], draws="6z ? 7s", dealer=1)
    state = play(state, "1 discard 7s", "2 pong", "2 discard 3s", "0 liangdao 6z", "2 added_kong 7s")
    assert state.over and state.result is not None
    win = state.result.winners[0]
    assert win.seat == 0 and win.by == "rob_kong" and win.baohu and win.from_seat == 2
    assert state.result.hand_deltas == (8, 0, -8)  # 抢杠胡 2 × 亮倒 2, two shares
    assert state.result.kong_deltas == (0, 0, 0)


def test_double_win_with_an_automatic_liangdao_winner() -> None:
    """E#40: the 亮倒 seat wins automatically; the other seat that can also 胡 is still asked."""
    state = deal(["123p789p234s46s88s", "5s7z", "123p456p789p46s5z5z"], draws="7z 6z ?", dealer=1)
    state = play(state, "1 discard 7z", "2 liangdao 7z")
    state = play(state, "1 discard 5s")
    assert state.to_act() == (0,)
    assert state.window is not None and state.window.answers == ((2, "win"),)
    over, _ = step(state, act("0 win", state))
    assert over.result is not None and [w.seat for w in over.result.winners] == [2, 0]
    assert over.result.next_dealer == 1
    over, _ = step(state, act("0 pass", state))
    assert over.result is not None and [w.seat for w in over.result.winners] == [2]
    assert over.result.next_dealer == 2


# ============================================================================ views


def test_views_hide_other_hands_and_concealed_kongs() -> None:
    state = deal(["1111p", "", ""], tail="9p")
    state = play(state, "0 concealed_kong 1p")
    pub = public_view(state)
    assert pub.seats[0].melds == (MeldView(MeldKind.CONCEALED_KONG, None, None),)
    own = view_for(state, 0)
    assert own.melds == (MeldView(MeldKind.CONCEALED_KONG, Tile.P1, None),)
    assert own.drawn == Tile.P9 and len(own.concealed) == 10
    other = view_for(state, 1)
    assert other.public.seats[0].melds[0].tile is None and other.drawn is None
    assert len(other.concealed) == 13 and other.public.seats[0].revealed == ()
    assert pub.phase == "turn" and pub.to_act == (0,) and pub.wall_remaining == 43
    assert pub.seats[0].kong_money == 4 and pub.result is None


def test_view_of_a_finished_hand_has_the_result() -> None:
    state = deal(["123p789p234s88s46s5s", "", ""])
    state, _ = step(state, act("0 win", state))
    pub = public_view(state)
    assert pub.phase == "over" and pub.to_act == () and pub.result is not None
    assert pub.result.winners[0].win_tile == Tile.S5 and pub.result.winners[0].fans == ("卡五星",)
    assert reason(state, "1 discard 5s") is Reason.HAND_OVER
    assert legal_actions(state, 0) == []


def test_seat_view_waits_and_shanten() -> None:
    state = deal(["123p789p234s46s88s", "", ""], draws="9p", dealer=2)
    state = play(state, "2 discard *")
    v = view_for(state, 0)
    assert v.drawn == Tile.P9 and v.waits == (Tile.S5,) and v.shanten == 0
    state = play(state, "0 discard 9p")
    assert view_for(state, 0).waits == (Tile.S5,)


def test_first_dealer_is_the_host_under_first_dealer_host() -> None:
    """docs/rules.md §A2.2: option first_dealer = host — the table's host deals the first hand."""
    host = STD.with_options({"first_dealer": "host"})
    assert [first_dealer(host, seat, "any") for seat in range(3)] == [0, 1, 2]
    four = RuleSet.preset("four_seats").with_options({"first_dealer": "host"})
    assert first_dealer(four, 3, "any") == 3
    # no seated host, or the default random: a seat drawn from the chance text, the same for the same text
    drawn = {first_dealer(STD, 1, f"seed {i}") for i in range(60)}
    assert drawn == {0, 1, 2}
    assert first_dealer(host, None, "seed 7") == first_dealer(STD, 2, "seed 7") == first_dealer(STD, None, "seed 7")
    assert {first_dealer(RuleSet.preset("four_seats"), None, f"s{i}") for i in range(80)} == {0, 1, 2, 3}
    with pytest.raises(ValueError, match="the host's seat must be 0, 1 or 2, got 3"):
        first_dealer(host, 3, "x")
