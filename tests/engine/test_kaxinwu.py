"""卡心五 (docs/rules.md §B, §E#26-#29, §E#48-#49): the ``kaxinwu`` preset on the same state machine —
tiles and seats, 有胡必胡, 有杠必杠 / 过杠, protection, 顶穿, 关死, 查叫 and the dealer, patterns."""

from __future__ import annotations

import pytest

from engine.analysis import keys_of
from engine.game import (
    Action,
    ActionKind,
    IllegalAction,
    Reason,
    State,
    decide,
    kinds_for,
    legal_actions,
    protected_tiles,
    public_view,
    replay,
    start,
    step,
)
from engine.game.state import updated
from engine.rules import RuleSet, Ruleset
from engine.scoring import WinBy, WinContext, score_win
from engine.tiles import Meld, MeldKind, Tile, counts_of, parse_tile, parse_tiles
from tests.engine.test_game import deal, play

KXW = RuleSet.preset("kaxinwu")


def kxw(**options: object) -> RuleSet:
    return RuleSet.from_json({"preset": "kaxinwu", **options})


# ============================================================================ the rule set
def test_preset_tiles_and_seats() -> None:
    assert KXW.ruleset is Ruleset.KAXINWU and KXW.players == 4 and not KXW.dragons
    assert len(kinds_for(KXW)) * 4 == 72
    assert len(kinds_for(kxw(suits="psm"))) * 4 == 108
    for n in (2, 3, 4):
        state = replay(start(kxw(players=n), 0, seed="kxw"))
        assert len(state.seats) == n and state.wall_remaining == 72 - 13 * n - 1
    assert RuleSet.from_json("kaxinwu") == KXW and KXW.preset_name() == "kaxinwu"
    assert RuleSet.from_json(KXW.to_json()) == KXW


# ============================================================================ 有胡必胡, 有杠必杠
def test_self_draw_win_is_mandatory() -> None:
    state = deal(["123p456p789p123s55s", "", "", ""], rules=KXW)
    assert legal_actions(state, 0) == [Action(0, ActionKind.WIN)]
    with pytest.raises(IllegalAction) as err:
        decide(state, Action(0, ActionKind.DISCARD, Tile.S5))
    assert err.value.reason is Reason.WIN_MANDATORY


def test_kong_is_mandatory_unless_guogang() -> None:
    state = deal(["1111p258p369s147s9p", "", "", ""], rules=KXW)
    assert legal_actions(state, 0) == [Action(0, ActionKind.CONCEALED_KONG, Tile.P1)]
    with pytest.raises(IllegalAction) as err:
        decide(state, Action(0, ActionKind.DISCARD, Tile.P9))
    assert err.value.reason is Reason.KONG_MANDATORY
    free = deal(["1111p258p369s147s9p", "", "", ""], rules=kxw(kong_mandatory=False))
    assert Action(0, ActionKind.DISCARD, Tile.P9) in legal_actions(free, 0)


def test_direct_kong_is_mandatory_on_a_discard() -> None:
    state = deal(["7s258p369p14s258s6s", "777s", "", ""], rules=KXW)
    state, _ = step(state, Action(0, ActionKind.DISCARD, Tile.S7))
    assert legal_actions(state, 1) == [Action(1, ActionKind.KONG)]
    with pytest.raises(IllegalAction) as err:
        decide(state, Action(1, ActionKind.PASS))
    assert err.value.reason is Reason.KONG_MANDATORY
    free = deal(["7s258p369p14s258s6s", "777s", "", ""], rules=kxw(kong_mandatory=False))
    free, _ = step(free, Action(0, ActionKind.DISCARD, Tile.S7))
    assert Action(1, ActionKind.PASS) in legal_actions(free, 1)


# ============================================================================ manufactured tables
def seat_with(state: State, i: int, tiles: str, **changes: object) -> State:
    """``state`` with seat ``i`` holding ``tiles`` (and ``changes``: liangdao, waits, melds ...)."""
    counts = tuple(counts_of(parse_tiles(tiles)))
    seat = updated(state.seats[i], hand=counts, keys=keys_of(counts), **changes)
    return updated(state, seats=(*state.seats[:i], seat, *state.seats[i + 1 :]))


def table(rules: RuleSet, hands: list[str], langqi: dict[int, str], order: tuple[int, ...], **changes: object) -> State:
    """A dealt hand of ``rules`` with the seats' concealed tiles replaced (seat 0 on turn holds a
    drawn tile, the last of its hand; an empty string keeps the dealt tiles) and the seats of
    ``langqi`` (seat -> waits) declared 廊起."""
    state = replay(start(rules, 0, seed="table"))
    for i, tiles in enumerate(hands):
        if not tiles:
            continue  # the dealt tiles
        extra: dict[str, object] = {}
        if i in langqi:
            extra = {"liangdao": True, "waits": tuple(parse_tiles(langqi[i]))}
        state = seat_with(state, i, tiles, **extra)
    drawn = parse_tiles(hands[0])[-1]
    return updated(state, drawn=drawn, turn_draws=(drawn,), liangdao_order=order, **changes)


def test_protection_refuses_a_langqi_wait() -> None:
    state = table(KXW, ["123p456p789p11s5s9s", "123p456p789p11s46s", "", ""], {1: "5s"}, (1,))
    assert Action(0, ActionKind.DISCARD, Tile.S5) not in legal_actions(state, 0)
    with pytest.raises(IllegalAction) as err:
        decide(state, Action(0, ActionKind.DISCARD, Tile.S5))
    assert err.value.reason is Reason.PROTECTED_TILE


def test_dingchuan_a_langqi_discard_wins_for_another_langqi_player() -> None:
    """顶穿: a 廊起 player's automatic discard wins for another 廊起 player, an ordinary 点炮 (no 包胡)."""
    state = table(KXW, ["123p456p789p55s23s5s", "123p456p789p22s46s", "", ""], {0: "14s", 1: "5s"}, (1, 0))
    assert legal_actions(state, 0) == [Action(0, ActionKind.DISCARD, Tile.S5)]
    state, _ = step(state, Action(0, ActionKind.DISCARD, Tile.S5))
    assert state.over and state.result is not None and state.result.outcome == "win"
    win = state.result.winners[0]
    assert win.seat == 1 and win.from_seat == 0 and not win.baohu and "卡心五" in win.fans
    assert state.result.hand_deltas == (-2, 2, 0, 0)


def test_guansi_ends_the_hand_pays_and_voids_kong_money() -> None:
    """关死: after discarding 9s seat 0 holds only 5s and 8s (both 廊起 waits): the hand ends; he pays
    seat 1 its maximum (卡心五 ×2), seat 2 its maximum (平胡 ×1), seat 3 (no 廊起) 2 points; kong money
    of the hand is void; he deals next."""
    melds = (Meld(MeldKind.PONG, Tile.P1, 1), Meld(MeldKind.PONG, Tile.P2, 1), Meld(MeldKind.PONG, Tile.P3, 1))
    state = table(KXW, ["5s8s9s", "123p456p789p11s46s", "123p456p789p11s67s", ""], {1: "5s", 2: "58s"}, (1, 2))
    money = (-2, 4, 0, -2)
    seats = tuple(updated(seat, kong_money=m) for seat, m in zip(state.seats, money, strict=True))
    state = updated(state, seats=(updated(seats[0], melds=melds), *seats[1:]))
    state, events = step(state, Action(0, ActionKind.DISCARD, Tile.S9))
    result = state.result
    assert result is not None and result.outcome == "guansi" and result.guansi == 0
    assert result.hand_deltas == (-5, 2, 1, 2) and result.kong_deltas == (0, 0, 0, 0)
    assert result.deltas == result.hand_deltas and result.next_dealer == 0
    assert events[-1].to_json()["guansi"] == 0


def test_no_guansi_without_the_option() -> None:
    melds = (Meld(MeldKind.PONG, Tile.P1, 1), Meld(MeldKind.PONG, Tile.P2, 1), Meld(MeldKind.PONG, Tile.P3, 1))
    rules = kxw(guansi=False)
    state = table(rules, ["5s8s9s", "123p456p789p11s46s", "", ""], {1: "5s"}, (1,))
    state = updated(state, seats=(updated(state.seats[0], melds=melds), *state.seats[1:]))
    state, _ = step(state, Action(0, ActionKind.DISCARD, Tile.S9))
    assert not state.over


# ============================================================================ 流局 -> 查叫
LQ = "123p456p789p11s46s"  # waits 5s: 卡心五 ×2, the maximum multiplier
OTHER = "147p258p369p147s"


@pytest.mark.parametrize(
    ("langqi", "order", "deltas", "dealer", "chajiao"),
    [
        ({1: "5s", 2: "5s", 3: "5s"}, (1, 2, 3), (-6, 2, 2, 2), 0, (0,)),  # 1 被查叫: he deals
        ({1: "5s", 3: "5s"}, (3, 1), (-4, 4, -4, 4), 3, (0, 2)),  # 2: the first to 廊起 deals
        ({2: "5s"}, (2,), (-2, -2, 6, -2), 2, (0, 1, 3)),  # 3 (all but one): the 廊起 player deals
        ({}, (), (0, 0, 0, 0), 1, ()),  # nobody 廊起: the dealer stays
    ],
)
def test_chajiao_and_the_dealer(
    langqi: dict[int, str], order: tuple[int, ...], deltas: tuple[int, ...], dealer: int, chajiao: tuple[int, ...]
) -> None:
    hands = [OTHER + "9s"] + [LQ if i in langqi else OTHER for i in (1, 2, 3)]
    state = table(KXW, hands, langqi, order, dealer=1)
    state = updated(state, back=state.front)  # the wall is empty: the discard ends the hand
    state = updated(state, seats=(*state.seats[:3], updated(state.seats[3], kong_money=3)))
    state = updated(state, seats=(updated(state.seats[0], kong_money=-3), *state.seats[1:]))
    state, _ = step(state, Action(0, ActionKind.DISCARD, Tile.S9))
    result = state.result
    assert result is not None and result.outcome == "draw"
    assert result.hand_deltas == deltas and result.next_dealer == dealer and result.chajiao == chajiao
    assert result.kong_deltas == (-3, 0, 0, 3)  # kong money stands at 查叫


def test_chajiao_all_langqi_keeps_the_dealer_and_two_seats() -> None:
    state = table(kxw(players=2), [LQ + "9s", LQ], {0: "5s", 1: "5s"}, (0, 1), dealer=1)
    state = updated(state, back=state.front)
    state, _ = step(state, Action(0, ActionKind.DISCARD, Tile.S9))
    assert state.result is not None and state.result.next_dealer == 1 and state.result.hand_deltas == (0, 0)
    state = table(kxw(players=2), [OTHER + "9s", LQ], {1: "5s"}, (1,), dealer=1)
    state = updated(state, back=state.front)
    state, _ = step(state, Action(0, ActionKind.DISCARD, Tile.S9))
    assert state.result is not None and state.result.next_dealer == 0 and state.result.hand_deltas == (-2, 2)


# ============================================================================ patterns
def kxw_score(concealed: str, win: str, **ctx: object) -> tuple[tuple[str, ...], int]:
    c = WinContext(
        concealed=tuple(parse_tiles(concealed)),
        melds=(),
        win_tile=parse_tile(win),
        win_by=WinBy.DISCARD,
        winner=0,
        discarder=1,
        num_players=4,
        **ctx,  # type: ignore[arg-type]
    )
    s = score_win(c, KXW)
    return s.fans, s.multiplier[1]


def test_longqidui_counts_only_when_the_three_are_shown() -> None:
    hand = "11p22p33p44p55s777s"
    assert kxw_score(hand, "7s", hidden=(), waits=(Tile.S7,)) == (("龙七对",), 8)
    one_shown = tuple(parse_tiles("11p22p33p44p55s77s"))
    assert kxw_score(hand, "7s", hidden=one_shown, waits=(Tile.S7,)) == (("七对",), 4)


def test_kaxinwu_patterns_only() -> None:
    assert kxw_score("123p456p789p11s46s", "5s") == (("卡心五",), 2)
    # strict single wait: 2245667s waits 5s and 8s, so its 5s is not 卡心五
    assert kxw_score("123p456p2245667s", "5s") == (("屁胡",), 1)
    assert kxw_score("111p222p333p11s77s", "7s") == (("屁胡",), 1)  # no 碰碰胡 in 卡心五
    assert kxw_score("1112223334445p", "5p")[0] == ("清一色",)
    # the shown 4_6 shape decides for a 廊起 hand (docs/rules.md §E#28)
    assert kxw_score("123p456p2245667s", "5s", waits=(Tile.S5,)) == (("卡心五",), 2)


@pytest.mark.parametrize(
    ("concealed", "hidden", "fans"),
    [
        # shown 55条, waiting on the third 5: the hidden 456条 is no 夹 5
        ("22p123p789p456s55s", "22p123p789p456s", ("屁胡",)),
        # shown single 5条 (单吊), four sets hidden
        ("123p789p456s567s5s", "123p789p456s567s", ("屁胡",)),
        # shown 4 6条 around the 5: 卡心五, whatever is hidden
        ("345p678p111s22s46s", "345p678p111s22s", ("卡心五",)),
        ("22p123p789p456s46s", "22p123p789p456s", ("卡心五",)),
        # shown 4 5 5 6条 over hidden sets: the 4_6 on 5 with the pair 55 (read as §D D12 reads it)
        ("123p789p111s4556s", "123p789p111s", ("卡心五",)),
    ],
)
def test_langqi_kaxinwu_needs_the_shown_4_6(concealed: str, hidden: str, fans: tuple[str, ...]) -> None:
    """§B: for a 廊起 hand the revealed shape decides 卡心五 (必须是夹胡, 4 6 on 5), not a 4-5-6 that
    the face-down tiles could make with the winning 5."""
    assert kxw_score(concealed, "5s", hidden=tuple(parse_tiles(hidden)), waits=(Tile.S5,))[0] == fans


def test_two_fours_are_capped_as_the_longqidui_they_score() -> None:
    """§B: a 七对 with two 4-of-a-kinds scores one 龙七对, so under ``8_sl16`` (A11.5) its share is capped
    at 8, not at 双龙七对's 16."""
    c = WinContext(
        concealed=tuple(parse_tiles("1111p222p33p44p55p")),
        melds=(),
        win_tile=Tile.P2,
        win_by=WinBy.SELF_DRAW,
        winner=0,
        num_players=4,
    )
    s = score_win(c, KXW)
    assert s.fans == ("龙七对", "清一色") and s.multiplier[1] == 32
    assert s.cap == 8 and s.shares == {1: 8, 2: 8, 3: 8}


def test_views_show_a_langqi_hand_partly() -> None:
    state = deal(["123p456p789p2266s8s", "", "", ""], rules=KXW)
    legal = legal_actions(state, 0)
    show = Action(0, ActionKind.LIANGDAO, Tile.S8, tuple(parse_tiles("22s")))
    assert show in legal
    state = play(state, "0 discard 8s") if show not in legal else step(state, show)[0]
    seat = public_view(state).seats[0]
    assert seat.revealed == (Tile.S2, Tile.S2) and seat.hidden_count == 11 and seat.waits == (Tile.S2,)


# ============================================================================ the self-play referee
def test_referee_catches_a_fed_langqi_wait_and_a_missed_guansi() -> None:
    """The self-play referee's 卡心五 checks (engine.ai.selfplay) fail on forged events."""
    from engine.ai.selfplay import RuleViolation, _check_outcome, _check_protection
    from engine.game import Discarded

    state = table(KXW, ["123p456p789p11s5s9s", "123p456p789p11s46s", "", ""], {1: "5s"}, (1,))
    with pytest.raises(RuleViolation, match="廊起 seat 1 waits on"):
        _check_protection(state, [Discarded(state.seq + 1, 0, Tile.S5)])
    _check_protection(state, [Discarded(state.seq + 1, 0, Tile.S9)])
    melds = (Meld(MeldKind.PONG, Tile.P1, 1), Meld(MeldKind.PONG, Tile.P2, 1), Meld(MeldKind.PONG, Tile.P3, 1))
    stuck = table(KXW, ["5s8s", "123p456p789p11s46s", "", ""], {1: "58s"}, (1,))
    stuck = updated(stuck, seats=(updated(stuck.seats[0], melds=melds), *stuck.seats[1:]))
    with pytest.raises(RuleViolation, match="关死 but the hand goes on"):
        _check_outcome(stuck, [])
    _check_outcome(state, [])


def test_protected_tiles_are_the_held_langqi_waits() -> None:
    """protected_tiles names exactly the held tiles legal_actions keeps out of the discards (§B)."""
    state = table(KXW, ["123p456p789p11s5s9s", "123p456p789p11s46s", "", ""], {1: "5s"}, (1,))
    assert protected_tiles(state, 0) == (Tile.S5,)
    discards = {a.tile for a in legal_actions(state, 0) if a.kind is ActionKind.DISCARD}
    assert Tile.S5 not in discards and Tile.S9 in discards
    assert protected_tiles(state, 1) == ()  # a 廊起 seat protects nothing from itself
