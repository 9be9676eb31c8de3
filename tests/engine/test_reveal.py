"""Partial reveals at 亮倒: ``liangdao_reveal = kou`` (暗铺) and ``minimal`` (廊起) — docs/rules.md §A9.2,
§E#48 — the legal reveals, the waits read from the shown shape, the ``play`` form, the views."""

from __future__ import annotations

import pytest

from engine.game import (
    Action,
    ActionKind,
    Discarded,
    IllegalAction,
    Reason,
    RevealFault,
    action_from_json,
    decide,
    fewest_reveal,
    legal_actions,
    public_view,
    replay,
    reveal_preview,
    step,
    view_for,
)
from engine.game.reveal import legal_reveals, reveal_fault, reveal_problem, reveal_waits
from engine.rules import LiangdaoReveal, RuleSet
from engine.tiles import Meld, MeldKind, Tile, counts_of, format_tiles, parse_tile, parse_tiles
from tests.engine.test_game import deal, deal_events, play

MINIMAL = RuleSet.from_json({"liangdao_reveal": "minimal"})
KOU = RuleSet.from_json({"liangdao_reveal": "kou"})


def waits_of(kept: str, shown: str, melds: tuple[Meld, ...] = ()) -> str:
    k, r = counts_of(parse_tiles(kept)), counts_of(parse_tiles(shown))
    return format_tiles(reveal_waits(r, [a - b for a, b in zip(k, r, strict=True)], melds))


def test_seed_examples_one_hand_two_reveals() -> None:
    """Seed 003's 图解: discard 6条 and show 6 8条 -> only 7条 wins; discard 8条 and show 2 2 6 6条 ->
    2条 and 6条 win (a 对倒 shows both pairs, none hidden)."""
    assert waits_of("123p456p789p22s68s", "68s") == "7s"
    assert waits_of("123p456p789p2266s", "2266s") == "26s"
    # the same kept hand, another set shown with the pair: the shown pair fixes the wait to one tile
    assert waits_of("123p456p789p2266s", "123p22s") == "2s"
    assert waits_of("123p456p789p2266s", "66s") == "6s"


def test_whole_hand_gives_the_full_waits() -> None:
    assert waits_of("123p456p234s78s99p", "123p456p234s78s99p") == "69s"
    assert waits_of("11p22p33p44p55p66s7s", "11p22p33p44p55p66s7s") == "7s"


def test_qidui_reveal_shows_its_single() -> None:
    assert waits_of("11p22p33p44p55p66s7s", "7s") == "7s"
    assert waits_of("11p22p33p44p55p66s7s", "66s7s") == "7s"
    assert problem("11p22p33p44p55p66s7s", "1p7s") is not None


def problem(kept: str, shown: str, mode: LiangdaoReveal = LiangdaoReveal.MINIMAL) -> str | None:
    return reveal_problem(counts_of(parse_tiles(kept)), counts_of(parse_tiles(shown)), (), mode)


def test_reveal_problems_in_words() -> None:
    kept = "123p456p789p22s68s"
    assert problem(kept, "68s") is None
    assert "split into complete sets" in (problem(kept, "8s") or "")
    assert "define the wait" in (problem("123p456p789p2266s", "123p") or "")
    assert "not in the hand" in (problem(kept, "5s") or "")
    assert problem(kept, kept, LiangdaoReveal.FULL) is None
    assert "whole hand" in (problem(kept, "68s", LiangdaoReveal.FULL) or "")


def test_kou_hides_only_triplets_that_keep_the_waits() -> None:
    kept = "123p777p234s78s99p"
    assert problem(kept, "123p234s78s99p", LiangdaoReveal.KOU) is None
    assert "triplets" in (problem(kept, "777p234s78s99p", LiangdaoReveal.KOU) or "")
    # 11 1 + 23: hiding 111s changes the waits (1s4s -> 4s only... here 2s wait is lost)
    changes = "123p456p789p1112s"
    assert "changes the waits" in (problem(changes, "123p456p789p2s", LiangdaoReveal.KOU) or "")
    reveals = legal_reveals(counts_of(parse_tiles(kept)), (), LiangdaoReveal.KOU)
    assert [format_tiles(r) for r in reveals] == ["12399p23478s"]


def test_legal_reveals_listed_and_all_legal() -> None:
    kept = counts_of(parse_tiles("123p456p789p2266s"))
    reveals = legal_reveals(kept, (), LiangdaoReveal.MINIMAL)
    shown = [format_tiles(r) for r in reveals]
    assert shown[:3] == ["22s", "66s", "2266s"] and "123456789p2266s" not in shown
    for r in reveals:
        assert reveal_problem(kept, counts_of(r), (), LiangdaoReveal.MINIMAL) is None
    assert legal_reveals(kept, (), LiangdaoReveal.FULL) == ()


def test_melds_count_toward_all_four_held() -> None:
    melds = (Meld(MeldKind.PONG, Tile.S7),)
    assert waits_of("123p456p789p68s", "68s", melds) == ""


def test_minimal_reveal_in_play_fixes_waits_and_views() -> None:
    state = deal(["123p456p789p2266s8s", "", ""], draws="7z 7z", rules=MINIMAL)
    legal = legal_actions(state, 0)
    reveal = tuple(parse_tiles("2266s"))
    assert Action(0, ActionKind.LIANGDAO, Tile.S8) in legal
    assert Action(0, ActionKind.LIANGDAO, Tile.S8, reveal) in legal
    one = tuple(parse_tiles("22s"))
    assert Action(0, ActionKind.LIANGDAO, Tile.S8, one) in legal
    state2, events = step(state, Action(0, ActionKind.LIANGDAO, Tile.S8, one))
    first = events[0]
    assert isinstance(first, Discarded) and first.waits == (Tile.S2,)
    assert format_tiles(first.hidden) == "123456789p66s"
    assert first.to_json()["hidden"] == "123456789p66s"
    pub = public_view(state2).seats[0]
    assert pub.revealed == (Tile.S2, Tile.S2) and pub.hidden_count == 11 and pub.waits == (Tile.S2,)
    assert view_for(state2, 1).public.seats[0].revealed == (Tile.S2, Tile.S2)
    assert len(view_for(state2, 0).concealed) == 13
    assert replay(deal_events(["123p456p789p2266s8s", "", ""], draws="7z 7z", rules=MINIMAL) + events) == state2


def test_a_shown_wait_refuses_the_other_tile() -> None:
    """Showing 22s fixes the wait to 2s: a 6s (which completes the concealed hand) does not win."""
    rules = MINIMAL
    state = deal(["123p456p789p2266s8s", "6s", "2s"], draws="7z", rules=rules)
    state, _ = step(state, Action(0, ActionKind.LIANGDAO, Tile.S8, tuple(parse_tiles("22s"))))
    # seat 1 draws 7z and discards 6s: seat 0 may not win it (not in the shown waits)
    state = play(state, "1 discard 6s")
    assert not state.over and state.seats[0].waits == (Tile.S2,)
    assert not any(a.kind is ActionKind.WIN for a in legal_actions(state, 0))


def test_bad_reveal_is_refused_with_reason() -> None:
    state = deal(["123p456p789p2266s8s", "", ""], rules=MINIMAL)
    with pytest.raises(IllegalAction) as err:
        decide(state, Action(0, ActionKind.LIANGDAO, Tile.S8, tuple(parse_tiles("26s"))))
    assert err.value.reason is Reason.BAD_REVEAL
    with pytest.raises(IllegalAction) as err:
        decide(state, Action(0, ActionKind.DISCARD, Tile.S8, tuple(parse_tiles("26s"))))
    assert err.value.reason is Reason.BAD_REVEAL
    full = deal(["123p456p789p2266s8s", "", ""])
    with pytest.raises(IllegalAction) as err:
        decide(full, Action(0, ActionKind.LIANGDAO, Tile.S8, tuple(parse_tiles("2266s"))))
    assert err.value.reason is Reason.BAD_REVEAL


def test_play_form_of_reveal() -> None:
    a = action_from_json({"seat": 0, "act": "liangdao", "tile": "8s", "reveal": "6622s"})
    assert a.reveal == tuple(parse_tiles("2266s")) and a.to_json()["reveal"] == "2266s"
    assert "showing 2266s" in str(a)
    with pytest.raises(ValueError, match="reveal"):
        action_from_json({"seat": 0, "act": "discard", "tile": "8s", "reveal": "22s"})
    with pytest.raises(ValueError, match="reveal"):
        action_from_json({"seat": 0, "act": "pass", "reveal": "22s"})
    assert parse_tile("8s") == Tile.S8


def test_kou_triplet_kong_after_liangdao() -> None:
    """A 暗铺 triplet stays a concealed set and may be 直杠'd from a discard (docs/rules.md §A9.2)."""
    state = deal(["123p777p234s78s99p5z", "", ""], draws="7z 7p", rules=KOU)
    shown = tuple(parse_tiles("123p99p234s78s"))
    state, events = step(state, Action(0, ActionKind.LIANGDAO, Tile.WHITE, shown))
    assert isinstance(events[0], Discarded) and format_tiles(events[0].hidden) == "777p"
    assert public_view(state).seats[0].hidden_count == 3
    state = play(state, "1 discard *", "2 discard 7p")
    kong = Action(0, ActionKind.KONG)
    assert kong in legal_actions(state, 0)
    state, _ = step(state, kong)
    assert state.seats[0].hidden == ()
    assert public_view(state).seats[0].hidden_count == 0
    assert state.seats[0].waits == (Tile.S6, Tile.S9)


def test_reveal_fault_names_the_broken_rule() -> None:
    """Each fault of docs/rules.md §A9.2 / §E#48 by its code; reveal_problem spells the same out."""

    def fault(kept: str, shown: str, mode: LiangdaoReveal = LiangdaoReveal.MINIMAL) -> RevealFault | None:
        return reveal_fault(counts_of(parse_tiles(kept)), counts_of(parse_tiles(shown)), (), mode)

    hand = "123p456p789p22s68s"
    assert fault(hand, "68s") is None and fault(hand, hand) is None
    assert fault(hand, "9s") is RevealFault.NOT_IN_HAND
    assert fault(hand, "6s") is RevealFault.HIDDEN_INCOMPLETE  # 8s hidden alone is no set
    assert fault("11p22p33p44p55p66s7s", "1p7s") is RevealFault.HIDDEN_INCOMPLETE
    assert fault("123p456p789p2266s", "123p456p789p") is RevealFault.NO_WAIT  # hidden 2266s: two pairs
    assert fault(hand, "68s", LiangdaoReveal.FULL) is RevealFault.WHOLE_HAND_ONLY
    assert fault("111p456p789p22s68s", "456p789p22s68s", LiangdaoReveal.KOU) is None
    assert fault(hand, "68s", LiangdaoReveal.KOU) is RevealFault.KOU_TRIPLETS_ONLY
    assert fault("111p23p456p789p44s", "456p789p44s", LiangdaoReveal.KOU) is RevealFault.KOU_TRIPLETS_ONLY
    assert fault("111p23p456p789p44s", "23p456p789p44s", LiangdaoReveal.KOU) is RevealFault.KOU_CHANGES_WAITS
    for kept, shown in [(hand, "6s"), (hand, "9s"), ("123p456p789p2266s", "123p456p789p")]:
        assert problem(kept, shown) is not None


def test_reveal_preview_agrees_with_legal_actions_and_the_declared_waits() -> None:
    """reveal_preview judges exactly the reveals legal_actions offers, and its waits are the waits the
    亮倒 then publishes (docs/rules.md §E#48)."""
    state = deal(["123p456p789p22s68s9s", "", ""], rules=MINIMAL)
    offered = {a.reveal for a in legal_actions(state, 0) if a.kind is ActionKind.LIANGDAO and a.tile == Tile.S9}
    assert (tuple(parse_tiles("68s")) in offered) and None in offered
    kept = tuple(parse_tiles("123p456p789p22s68s"))
    for shown in [tuple(parse_tiles(x)) for x in ("68s", "22s68s", "6s")] + [kept]:
        fault, waits = reveal_preview(state, 0, Tile.S9, shown)
        assert (fault is None) == (shown in offered or shown == kept)
        if fault is None:
            after, _ = step(state, Action(0, ActionKind.LIANGDAO, Tile.S9, None if shown == kept else shown))
            assert after.seats[0].waits == waits
    assert reveal_preview(state, 0, Tile.S9, tuple(parse_tiles("68s")))[1] == (Tile.S7,)
    assert reveal_preview(state, 0, Tile.S1, ()) == (RevealFault.NOT_IN_HAND, ())


def test_own_view_gives_the_published_waits_after_a_partial_reveal() -> None:
    """The seat's own view waits on what the shown shape fixes, not on every tile its concealed hand
    could use (kept 123p456p789p2266s showing 22s waits on 2s only, docs/rules.md §E#48)."""
    state = deal(["123p456p789p2266s9s", "", ""], rules=MINIMAL)
    after, _ = step(state, Action(0, ActionKind.LIANGDAO, Tile.S9, tuple(parse_tiles("22s"))))
    assert after.seats[0].waits == (Tile.S2,)
    assert view_for(after, 0).waits == (Tile.S2,)
    whole, _ = step(state, Action(0, ActionKind.LIANGDAO, Tile.S9))
    assert view_for(whole, 0).waits == (Tile.S2, Tile.S6)


def test_the_fewest_reveal_keeps_every_wait_of_the_whole_hand() -> None:
    """The bot's one-tap "Show the fewest" (docs/rules.md §A9.2): of the engine's legal reveals with
    a discard, the fewest shown tiles that publish every wait of the whole hand — 2266s (waits 2s 6s),
    not 22s (2s only) —; the whole hand when no partial reveal keeps them; None without that discard."""
    state = deal(["123p456p789p2266s9s", "", ""], rules=MINIMAL)
    legal = legal_actions(state, 0)
    best = fewest_reveal(legal, Tile.S9)
    assert best is not None and best.reveal == tuple(parse_tiles("2266s")) and best.waits == (Tile.S2, Tile.S6)
    assert best == next(a for a in legal if a.kind is ActionKind.LIANGDAO and a.reveal == best.reveal)
    assert fewest_reveal(legal, Tile.P1) is None
    one = deal(["123p456p789p22s68s9s", "", ""], rules=MINIMAL)
    assert fewest_reveal(legal_actions(one, 0), Tile.S9) == Action(
        0, ActionKind.LIANGDAO, Tile.S9, tuple(parse_tiles("68s"))
    )
    full = deal(["123p456p789p2266s9s", "", ""])  # liangdao_reveal = full: only the whole hand
    assert fewest_reveal(legal_actions(full, 0), Tile.S9) == Action(0, ActionKind.LIANGDAO, Tile.S9)
