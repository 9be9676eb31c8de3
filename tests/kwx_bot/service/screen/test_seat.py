"""A seat's screen: the caption's parts and the buttons follow one decision of the seat's situation and
menu; nothing concealed of another seat, no waits after the hand, the engine's waits and verdicts as
given; the same value as plain JSON (docs/architecture.md §4 "The screen model")."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from engine.game import Action, ActionKind, legal_actions, replay, start, step, view_for
from engine.rules import RuleSet, Ruleset
from engine.tiles import Tile, parse_tiles
from kwx_bot.edge.codec import Op, decode
from kwx_bot.edge.sender import markup_of
from kwx_bot.service import game
from kwx_bot.service.screen import Menu, Player, SeatFacts, SeatScreen, Situation, TableFacts, Ui, seat_screen
from kwx_bot.words.i18n import translator
from kwx_bot.words.texts import esc, tile_label, tiles_label
from kwx_bot.words.ui import RevealChoice

HOSTILE = ["<b>&", "*_[`", "</i><script>", "A" * 80, "😀🀄 ‮RTL"]
NAMES = ("Ann", "Ben", "Cat")
NORMAL = Menu()


def screen(
    lang: str, view, legal=(), *, names=NAMES, title="t", auto=False, menu=NORMAL, delta=None, events=(),
    reveal=None, kept=(), ruleset=Ruleset.KAWUXING, protected=(),
) -> SeatScreen:  # fmt: skip
    """The screen of ``view.seat`` with these facts, at table 7 seq 3, hand 1."""
    table = TableFacts(7, 3, 1, title, ruleset, tuple(names), tuple(names), tuple(events))
    facts = SeatFacts(view, tuple(legal), tuple(protected), delta, reveal, tuple(kept))
    return seat_screen(translator(lang), table, facts, Player(lang, auto, True, menu))


def keys(s: SeatScreen) -> list[tuple[str, object]]:
    """The buttons as Telegram gets them: (label, decoded press)."""
    kb = markup_of(s.buttons)
    return [(b.text, decode(b.callback_data)) for row in kb.inline_keyboard for b in row]


def _state(seed: str = "t1"):
    return replay(start(RuleSet(), 0, seed=seed))


def _kx_state():
    """卡心五 at 3 seats: seat 0 (dealer) can 廊起 with 9条 (docs/rules.md §B, §E#48)."""
    rules = RuleSet.from_json({"preset": "kaxinwu", "players": 3})
    hands = ["123p456p789p22s68s9s", "111p333p777s999s1s", "333s444s888p5s6s7s1s"]
    pool = list((*parse_tiles("123456789p" * 4), *parse_tiles("123456789s" * 4)))
    for h in hands:
        for t in parse_tiles(h):
            pool.remove(t)
    return replay(start(rules, 0, hands=[parse_tiles(h) for h in hands], wall=pool))


@pytest.mark.parametrize("raw", HOSTILE)
def test_captions_escape_names_and_fit(raw):
    state = _state("t2")
    for lang in ("zh_CN", "en"):
        s = screen(lang, view_for(state, 0), legal_actions(state, 0), names=(raw, raw + "2", raw + "3"), title=raw)
        assert raw not in s.caption or esc(raw) == raw
        assert len(s.caption) <= 1024


def test_a_turn_offers_exactly_the_legal_discards_with_the_drawn_tile_marked():
    state = _state()
    legal = legal_actions(state, 0)
    s = screen("zh_CN", view_for(state, 0), legal)
    assert s.situation is Situation.TURN and s.must_act
    pressed = keys(s)
    discards = {a.tile for a in legal if a.kind is ActionKind.DISCARD}
    assert {d.tile for _t, d in pressed if d.op is Op.DISCARD} == discards
    assert all(d.table_id == 7 and d.seq == 3 for _t, d in pressed)
    assert all(len(row) <= 8 for row in s.buttons)
    assert any(text.startswith("▶") for text, _d in pressed)


@pytest.mark.parametrize(("lang", "one"), [("en", "1 tile left"), ("zh_CN", "余牌 1 张")])
def test_the_turn_line_says_the_tiles_left(lang, one):
    state = _state()
    view = view_for(state, 0)
    view = dataclasses.replace(view, public=dataclasses.replace(view.public, wall_remaining=1))
    assert one in screen(lang, view, legal_actions(state, 0)).status


def test_a_claim_window_shows_only_the_claims_and_a_waiting_seat_nothing():
    view = view_for(_state(), 1)
    view = dataclasses.replace(view, public=dataclasses.replace(view.public, last_discard=(0, Tile.P5)))
    legal = [Action(1, ActionKind.WIN), Action(1, ActionKind.PONG), Action(1, ActionKind.PASS)]
    claim = screen("en", view, legal)
    assert claim.situation is Situation.CLAIM and claim.status == "<b>Ann discards 5 Dot</b>: your call."
    assert [t for t, _d in keys(claim)] == ["Win", "Pong", "Pass"]
    assert claim.picture.window == view.public.seq  # a picture of its own (the window's edit carries it)
    waiting = screen("en", view)
    assert waiting.situation is Situation.WAITING and waiting.buttons == () and not waiting.must_act
    assert waiting.picture.window is None


def test_no_waits_in_a_caption_after_the_hand():
    view = dataclasses.replace(view_for(_state(), 0), waits=(Tile.P1, Tile.P4))
    assert "Waiting on" in screen("en", view).caption
    over = screen("en", view, delta=4)
    assert "Waiting on" not in over.caption and over.situation is Situation.OVER and "+4" in over.status


def test_an_automatic_seat_gets_the_take_back_button_and_keeps_its_picture():
    state = _state()
    s = screen("en", view_for(state, 0), auto=True)
    assert s.situation is Situation.AUTO and s.picture_stays and not s.must_act
    assert [(t, d.op) for t, d in keys(s)] == [("I'm back: let me play", Op.TAKE_BACK)]


def _liangdao_state():
    """A state of random legal play where the seat to act may declare 亮倒."""
    rng = random.Random(7)
    for hand in range(50):
        state = replay(start(RuleSet(), 0, seed=f"ld{hand}"))
        while state.result is None:
            seat = state.to_act()[0]
            legal = legal_actions(state, seat)
            if any(a.kind is ActionKind.LIANGDAO for a in legal):
                return state, seat, legal
            state = step(state, rng.choice(legal))[0]
    raise AssertionError("no 亮倒 in 50 hands")


def test_the_liangdao_menu_and_its_confirmation_show_the_waits_the_engine_lists():
    state, seat, legal = _liangdao_state()
    view = view_for(state, seat)
    normal = screen("zh_CN", view, legal)
    assert "亮倒…" in [t for t, _d in keys(normal)]
    menu = screen("en", view, legal, menu=Menu(Ui.LIANGDAO, seq=3))
    offered = [a for a in legal if a.kind is ActionKind.LIANGDAO]
    en = translator("en")
    for a in offered:
        assert f"Discard {tile_label(a.tile, en)} → waiting on {tiles_label(a.waits, en)}" in menu.caption
    assert {d.op for _t, d in keys(menu)} == {Op.LIANGDAO_PICK, Op.BACK}
    a = offered[0]
    confirm = screen("en", view, legal, menu=Menu(Ui.CONFIRM, a.tile, seq=3))
    assert f"You will wait on {tiles_label(a.waits, translator('en'))}." in confirm.caption
    first = keys(confirm)[0]
    assert first[0].startswith("Lay down, discard") and (first[1].op, first[1].tile) == (Op.LIANGDAO, a.tile)
    # the caption says what the engine answered, it does not work the waits out again
    forged = [dataclasses.replace(x, waits=(Tile.RED,)) if x is a else x for x in legal]
    assert "You will wait on Red." in screen("en", view, forged, menu=Menu(Ui.CONFIRM, a.tile, seq=3)).caption


def test_a_confirm_menu_for_a_tile_that_is_no_liangdao_discard_shows_the_menu_of_discards():
    state = _state()
    seat = state.to_act()[0]
    view, legal = view_for(state, seat), legal_actions(state, seat)
    offered = {a.tile for a in legal if a.kind is ActionKind.LIANGDAO}
    for tile in Tile:
        s = screen("zh_CN", view, legal, menu=Menu(Ui.CONFIRM, tile, seq=3))
        assert tile in offered or "亮倒并打出" not in s.caption
        assert tile in offered or not any(d.op is Op.LIANGDAO for _t, d in keys(s))


@pytest.mark.parametrize(
    ("lang", "want"), [("en", "Last discard: {tile} by Ann."), ("zh_CN", "刚打出：Ann 的 {tile}。")]
)
def test_on_your_turn_the_news_name_the_last_discard_and_who_made_it(lang, want):
    events = list(start(RuleSet(), 0, seed="recent"))
    state = replay(events)
    discard = next(a for a in legal_actions(state, 0) if a.kind is ActionKind.DISCARD)
    state, new = step(state, discard)
    events.extend(new)
    while state.phase.value != "turn":  # claims passed
        seat = state.to_act()[0]
        state, new = step(state, next(a for a in legal_actions(state, seat) if a.kind is ActionKind.PASS))
        events.extend(new)
    me = state.turn
    assert me == 1
    mine = screen(lang, view_for(state, me), legal_actions(state, me), events=events)
    assert want.format(tile=tile_label(discard.tile, translator(lang))) in mine.news
    # a waiting seat's caption does not change with the others' turns
    other = screen(lang, view_for(state, 2), events=events)
    assert other.news == () and "Ann" not in other.caption


def test_the_reveal_choice_says_the_waits_or_the_broken_rule_and_toggles_carry_the_whole_choice():
    """The 廊起 choice (docs/rules.md §E#48): shown, hidden, then the waits or why not; a toggle per
    kept tile, Confirm only when the engine accepts the choice."""
    state = _kx_state()
    legal = legal_actions(state, 0)
    kept = game.held_after(state, 0, Tile.S9)
    for shown, ok in ((kept, True), (kept[1:], False)):
        choice = game.check_reveal(state, 0, Tile.S9, shown)
        menu = Menu(Ui.REVEAL, Tile.S9, 0, 3)
        s = screen("en", view_for(state, 0), legal, menu=menu, reveal=choice, kept=kept, ruleset=Ruleset.KAXINWU)
        assert "Lay down with 9 Bam" in s.caption
        assert ("→ waiting on" if ok else "✗ Not allowed") in s.caption
        pressed = keys(s)
        assert len([t for t, d in pressed if d.op is Op.REVEAL and t[0] in "☑☐"]) == len(kept) == 13
        assert any(d.op is Op.LIANGDAO for _t, d in pressed) is ok


def test_an_illegal_reveal_choice_names_the_fault():
    from engine.game import RevealFault

    state = _kx_state()
    bad = RevealChoice(Tile.S9, (Tile.S6,), (Tile.S8,), False, RevealFault.HIDDEN_INCOMPLETE, ())
    legal = [*legal_actions(state, 0), Action(0, ActionKind.LIANGDAO, Tile.S9, bad.shown)]
    s = screen("en", view_for(state, 0), legal, menu=Menu(Ui.REVEAL, Tile.S9, 0, 3), reveal=bad,
               kept=(Tile.S6, Tile.S8), ruleset=Ruleset.KAXINWU)  # fmt: skip
    assert "✗ Not allowed: The hidden tiles must split" in s.caption and "Hidden: 8 Bam" in s.caption


@pytest.mark.parametrize(("ruleset", "lang", "want", "other"), [
    (Ruleset.KAXINWU, "zh_CN", "廊起并打出", "亮倒"), (Ruleset.KAWUXING, "zh_CN", "亮倒并打出", "廊起"),
    (Ruleset.KAXINWU, "en", "Lay down and discard 9 Bam?", "angqi"),
    (Ruleset.KAWUXING, "en", "Lay down and discard 9 Bam?", "iangdao"),
])  # fmt: skip
def test_the_confirm_step_names_the_games_declaration(ruleset, lang, want, other):
    """卡心五 calls the declaration 廊起 on its confirm step too, 卡五星 亮倒; English says "lay down"
    in both games (docs/glossary.md)."""
    state = _kx_state()
    legal = [*legal_actions(state, 0), Action(0, ActionKind.LIANGDAO, Tile.S9, None)]
    s = screen(lang, view_for(state, 0), legal, menu=Menu(Ui.CONFIRM, Tile.S9, seq=3), ruleset=ruleset)
    assert want in s.caption and other not in s.caption


def test_danger_and_protection_come_from_the_engine_and_explain_themselves():
    """⚠ marks the tiles of the engine's ``view.danger`` (包胡, docs/rules.md §A9.7) and 🔒 the protected
    tiles (§A9.8, §B), each with its legend; the screen works neither out again."""
    state = _state()
    view = view_for(state, 0)
    legal = legal_actions(state, 0)
    tile = next(a.tile for a in legal if a.kind is ActionKind.DISCARD)
    danger = screen("en", dataclasses.replace(view, danger=(tile,)), legal)
    assert any(t.startswith("⚠") or t.startswith("▶⚠") for t, _d in keys(danger))
    assert "⚠ = a player who laid down waits on it" in danger.caption
    assert "⚠" not in screen("en", view, legal).caption
    locked = [a for a in legal if a.tile != tile]
    protected = screen("en", view, locked, protected=(tile,))
    assert (tile, Op.PROTECTED) in [(d.tile, d.op) for _t, d in keys(protected)]
    assert "🔒 = another player's waiting tile" in protected.caption


def test_the_screen_is_plain_json_with_the_seats_own_view_only():
    state = _state()
    s = screen("en", view_for(state, 0), legal_actions(state, 0))
    data = json.loads(json.dumps(s.to_json()))
    assert data["caption"] == s.caption and data["seat"] == 0 and data["seq"] == 3
    assert data["picture"]["key"] == s.picture.key and data["picture"]["view"]["seat"] == 0
    assert data["picture"]["view"]["concealed"] == [str(t) for t in view_for(state, 0).concealed]
    for seat in data["picture"]["view"]["public"]["seats"]:  # the others' tiles: counts, never faces
        assert seat["revealed"] == [] and isinstance(seat["concealed_count"], int)
    flat = [k for row in data["buttons"] for k in row]
    assert flat and all(k["data"]["table"] == 7 and k["data"]["seq"] == 3 and k["label"] for k in flat)


def test_buttons_that_stand_for_a_tile_name_it_in_json_and_reveal_toggles_say_their_state():
    """A page draws the hand and puts each tile's button on it: discard keys carry their ``tile``, the
    reveal toggles their tile and ``on`` (shown), in the kept tiles' order (docs/webapp.md)."""
    state = _state()
    s = screen("en", view_for(state, 0), legal_actions(state, 0)).to_json()
    flat = [k for row in s["buttons"] for k in row]
    assert all(k["tile"] == k["data"]["tile"] and "on" not in k for k in flat if k["data"]["op"] == "d")
    kx = _kx_state()
    kept = game.held_after(kx, 0, Tile.S9)
    choice = game.check_reveal(kx, 0, Tile.S9, kept[1:])
    r = screen("en", view_for(kx, 0), legal_actions(kx, 0), menu=Menu(Ui.REVEAL, Tile.S9, 0, 3), reveal=choice,
               kept=kept, ruleset=Ruleset.KAXINWU).to_json()  # fmt: skip
    toggles = [k for row in r["buttons"] for k in row if "on" in k]
    assert [k["tile"] for k in toggles] == [str(t) for t in kept]
    assert [k["on"] for k in toggles] == [False] + [True] * (len(kept) - 1)
    assert all(k["data"]["tile"] == "9s" for k in toggles)
