"""Pictures of partly revealed hands (亮倒 ``kou`` / ``minimal``, 卡心五 廊起), protected tiles, the
卡心五 endings 查叫 and 关死 (docs/rules.md §A9.2, §A9.8, §B, §E#48), and tables of 2 and 4 seats."""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from dataclasses import replace

import numpy as np
import pytest

from engine.game import public_view, view_for
from engine.game.state import Phase, State
from engine.rules import RuleSet
from engine.tiles import Tile
from engine.views import HandResultView, PublicView, SeatView
from render import PHOTO_MAX_RATIO, PHOTO_MAX_SIDES, render_hand, render_table
from render.art import TileState
from render.canvas import Placed
from render.demo import Demo, _whole_hands, demo_views, play_states
from render.endings import result_title, transfers, why_lines
from render.phone import MAX_RATIO
from render.pictures import GOLD, TABLE_WIDTH, hand_canvas, result_canvas, table_canvas
from render.table import TABLE_STYLES

from .words import EN, ZH, ZH_WORDS, W

SHOWN = 4  # seat 2 of the demo shows 4 of its 13 tiles


@pytest.fixture(scope="module")
def demo() -> Demo:
    return demo_views(7)


def partial(view: PublicView, shown: int = SHOWN) -> PublicView:
    """The demo's 亮倒 seat 2 showing only its first ``shown`` tiles (the rest kept face down)."""
    s2 = view.seats[2]
    seats = (*view.seats[:2], replace(s2, revealed=s2.revealed[:shown], hidden_count=len(s2.revealed) - shown))
    return replace(view, seats=seats)


def own_partial(demo: Demo) -> SeatView:
    """Seat 2's own view after a partial 亮倒: its hand, the shown part in the public view."""
    s2 = demo.table.seats[2]
    return SeatView(2, partial(demo.table), s2.revealed, None, (), s2.waits, 0)


# -- the table -------------------------------------------------------------------------------------------------


def test_a_partly_revealed_hand_shows_its_tiles_face_up_and_the_rest_face_down_with_the_count(demo: Demo) -> None:
    view = partial(demo.table)
    c = table_canvas(view, demo.names, words=ZH_WORDS)
    shown = c.find("revealed", seat=2)
    kept = c.find("kept_hidden", seat=2)
    assert [p.tile for p in shown] == list(view.seats[2].revealed)
    assert len(kept) == 1 and view.seats[2].concealed_count - SHOWN == 9  # one face-down tile and the count
    assert all(p.tile is None for p in kept)
    assert [p.text for p in c.find("kept_count", seat=2)] == ["9"]
    # the face-down tiles come after the shown ones, inside the seat's panel
    panel = c.find("panel", seat=2)[0].box
    assert min(p.box[0] for p in kept) > max(p.box[2] for p in shown)
    assert all(panel[0] <= p.box[0] and p.box[2] <= panel[2] for p in (*shown, *kept))
    # the whole hand shown (the default) draws no face-down tiles
    full = table_canvas(demo.table, demo.names, words=ZH_WORDS)
    assert not full.find("kept_hidden") and len(full.find("revealed", seat=2)) == 13


def test_a_partial_reveal_keeps_the_shown_tiles_at_table_size_beside_melds(demo: Demo) -> None:
    """The kept tiles are one back and their count, so the shown tiles (what the others read) stay large."""
    view = partial(demo.table, 2)
    c = table_canvas(view, demo.names, words=ZH_WORDS)
    assert {p.box[2] - p.box[0] for p in c.find("revealed", seat=2)} == {TABLE_STYLES[0].size.width}
    assert len(c.find("kept_hidden", seat=2)) == 1


def test_a_winner_after_a_partial_reveal_is_drawn_whole(demo: Demo) -> None:
    c = table_canvas(partial(demo.result), demo.names, words=ZH_WORDS)
    assert not c.find("kept_hidden", seat=2)
    assert len(c.find("revealed", seat=2)) == 13 and c.find("win_tile", seat=2)


def _late_state(rules: RuleSet, declare: set[int]) -> State:
    """The busiest turn of a few engine hands: most melds and 亮倒 seats."""
    best: tuple[int, State] | None = None
    for attempt in range(12):
        for st, _ in play_states(f"render-seats-{rules.players}-{attempt}", rules, declare=declare):
            if st.phase is Phase.OVER:
                continue
            score = 3 * sum(len(s.melds) for s in st.seats) + 4 * sum(s.liangdao for s in st.seats)
            score += max(len(s.discards) for s in st.seats) // 4
            if best is None or score > best[0]:
                best = (score, st)
    assert best is not None
    return best[1]


@pytest.mark.parametrize(
    ("preset", "players", "declare"),
    [("two_seats", 2, {0}), ("four_seats", 4, {1, 3}), ("kaxinwu", 2, {0}), ("kaxinwu", 4, {0, 2})],
)
def test_tables_of_two_and_four_seats_fit(preset: str, players: int, declare: set[int]) -> None:
    """A late, busy table: one panel per seat, stacked without overlap, every tile inside its seat's
    panel and inside the picture, within Telegram's photo limits; the pond tiles stay 44 px wide
    at least 18 px on a phone (render.phone)."""
    rules = replace(RuleSet.preset(preset), players=players)
    st = _late_state(rules, declare)
    names = ["Lǐ Míng", "Wáng 🀄✨", "Zhang_San_with_a_rather_long_name_2024", "Anna"][:players]
    c = table_canvas(public_view(st), names, totals=[5, -5, 0, 0][:players], words=ZH_WORDS)
    w, h = c.image.size
    assert w == TABLE_WIDTH and w + h <= PHOTO_MAX_SIDES and h / w <= PHOTO_MAX_RATIO and h < 1400
    panels = {p.seat: p.box for p in c.find("panel")}
    assert sorted(panels) == list(range(players))
    stacked = sorted(panels.values(), key=lambda b: b[1])
    assert all(a[3] <= b[1] for a, b in itertools.pairwise(stacked))
    tiles = ("revealed", "kept_hidden", "hidden", "meld", "meld_top", "pond", "last_discard", "wait")
    for p in c.placed:
        assert p.box[0] >= 0 and p.box[1] >= 0 and p.box[2] <= w and p.box[3] <= h, p
        if p.role in tiles and p.seat is not None:
            box = panels[p.seat]
            assert box[0] <= p.box[0] and p.box[2] <= box[2] and box[1] <= p.box[1] and p.box[3] <= box[3], p
    sizes = {size for style in TABLE_STYLES for size in (style.size.width, style.size.height)}
    assert {p.box[2] - p.box[0] for p in c.find("pond")} <= sizes
    assert h <= MAX_RATIO * w
    # every seat shows exactly its concealed tiles: face up, or one face-down tile and their count
    view = public_view(st)
    for s in view.seats:
        counts = [int(p.text or 0) for p in c.find("kept_count", seat=s.seat) + c.find("hidden_count", seat=s.seat)]
        shown = len(c.find("revealed", seat=s.seat))
        assert shown + sum(counts) == s.concealed_count or (
            s.liangdao and not s.hidden_count and shown == len(s.revealed)
        )


# -- the hand ----------------------------------------------------------------------------------------------


def test_the_own_hand_marks_the_shown_tiles(demo: Demo) -> None:
    view = own_partial(demo)
    c = hand_canvas(view, words=ZH_WORDS)
    marks = c.find("shown_mark", seat=2)
    tiles = c.find("hand", seat=2)
    assert len(marks) == SHOWN

    # each bar sits on the top edge of one tile; the marked tiles are the shown multiset
    def on(m: Placed, t: Placed) -> bool:
        return t.box[0] <= m.box[0] and m.box[2] <= t.box[2] and m.box[1] < t.box[1] < m.box[3]

    marked = [t for t in tiles if any(on(m, t) for m in marks)]
    assert Counter(t.tile for t in marked) == Counter(view.public.seats[2].revealed)
    x, y = marks[0].centre
    assert c.image.getpixel((x, y)) == GOLD
    assert [p.text for p in c.find("shown_legend")] == [ZH.shown]
    # the whole hand shown: no marks, no legend
    whole = SeatView(2, demo.table, view.concealed, None, (), view.waits, 0)
    assert not hand_canvas(whole, words=ZH_WORDS).find("shown_mark") and not hand_canvas(whole, words=ZH_WORDS).find(
        "shown_legend"
    )


def test_a_partly_shown_hand_draws_the_published_waits(demo: Demo) -> None:
    """The shown shape fixes the waits (docs/rules.md §E#48): the picture draws the public ones even
    when the whole hand would wait on more."""
    view = own_partial(demo)
    fixed = view.public.seats[2].waits[:1]
    seats = (*view.public.seats[:2], replace(view.public.seats[2], waits=fixed))
    narrowed = replace(view, public=replace(view.public, seats=seats))
    assert [p.tile for p in hand_canvas(narrowed, words=ZH_WORDS).find("wait")] == list(fixed)
    assert len(hand_canvas(view, words=ZH_WORDS).find("wait")) == len(view.waits) > 1


def test_protected_tiles_are_marked_in_the_own_hand(demo: Demo) -> None:
    view = demo.hand
    guard = {view.concealed[1], view.concealed[-1]}
    c = hand_canvas(view, protected=guard, words=ZH_WORDS)
    tiles = c.find("hand", seat=0)
    marks = c.find("protected_mark", seat=0)
    copies = [t for t in tiles if t.tile in guard]
    assert len(marks) == len(copies) == sum(1 for t in view.concealed if t in guard)
    assert all(t.state is TileState.DANGER for t in copies)
    assert [p.text for p in c.find("protected_legend")] == [ZH.protected]
    en = hand_canvas(view, W("en"), protected=guard)
    assert [p.text for p in en.find("protected_legend")] == [EN.protected]
    # a protected tile the seat does not hold draws no legend; none given, nothing marked
    absent = {t for t in Tile if t not in view.concealed and t != view.drawn}
    assert not hand_canvas(view, protected={next(iter(absent))}, words=ZH_WORDS).find("protected_legend")
    assert not hand_canvas(view, words=ZH_WORDS).find("protected_mark")
    # the drawn tile stays gold and gets the bar
    assert view.drawn is not None
    drawn = hand_canvas(view, protected={view.drawn}, words=ZH_WORDS)
    bar = drawn.find("protected_mark")
    tile = drawn.find("drawn")[0]
    assert len(bar) == 1 and tile.box[0] <= bar[0].box[0] and bar[0].box[2] <= tile.box[2]
    assert tile.state is TileState.HIGHLIGHT and drawn.find("protected_legend")
    assert (
        np.asarray(render_hand(view, words=ZH_WORDS)).shape
        == np.asarray(render_hand(view, protected=guard, words=ZH_WORDS)).shape
    )


# -- 查叫 and 关死 ---------------------------------------------------------------------------------------------


def chajiao(demo: Demo) -> PublicView:
    """A 查叫: seat 2 has 廊起 (4 tiles shown); seats 0 and 1 are 被查叫 and pay it 4 each."""
    hand = (-4, -4, 8)
    kong = (4, -2, -2)
    result = HandResultView(
        "draw", (), hand, kong, tuple(a + b for a, b in zip(hand, kong, strict=True)), 2, None, (0, 1)
    )
    return replace(partial(demo.draw), result=result)


def guansi(demo: Demo) -> PublicView:
    """A 关死 of seat 1: it pays the 廊起 seat 2 its maximum multiplier (8) and seat 0 two points;
    the kong money is void; seat 1 deals next."""
    hand = (2, -10, 8)
    result = HandResultView("guansi", (), hand, (0, 0, 0), hand, 1, 1, ())
    return replace(partial(demo.draw), result=result)


def test_transfers_of_chajiao_and_guansi(demo: Demo) -> None:
    cj, gs = chajiao(demo).result, guansi(demo).result
    assert cj is not None and gs is not None
    assert transfers(cj) == [(0, 2, 4), (1, 2, 4)]
    assert transfers(gs) == [(1, 0, 2), (1, 2, 8)]
    assert transfers(dataclasses.replace(cj, hand_deltas=(-3, -4, 7))) == []  # does not split evenly
    assert demo.result.result is not None and transfers(demo.result.result) == []
    assert result_title(cj, ZH) == "查叫" and result_title(gs, ZH) == "关死"
    assert demo.draw.result is not None and result_title(demo.draw.result, ZH) == ZH.draw
    assert why_lines(gs, "Wáng", ZH)[0].startswith("Wáng关死")


@pytest.mark.parametrize("kind", ["chajiao", "guansi"])
def test_chajiao_and_guansi_results_say_who_paid_whom(demo: Demo, kind: str) -> None:
    view = chajiao(demo) if kind == "chajiao" else guansi(demo)
    c = result_canvas(view, demo.names, hands=demo.hands, words=ZH_WORDS)
    assert [p.text for p in c.find("title")] == [ZH.chajiao if kind == "chajiao" else ZH.guansi]
    assert c.find("why")
    chips = [p.text or "" for p in c.find("transfer_text")]
    # one chip per payer: 关死, the 关死 seat pays everyone; 查叫, each 被查叫 seat pays the 廊起 seat
    payer = "Wáng" if kind == "guansi" else "Lǐ Míng"
    assert len(chips) == (1 if kind == "guansi" else 2) and any(
        t.startswith(payer) and t.endswith("：8" if kind == "guansi" else "：4") for t in chips
    )  # the colon keeps an amount apart from a name ending in a digit (电脑2)
    if kind == "guansi":
        assert "：2、" in chips[0]
    badges = sorted((p.seat, p.text) for p in c.find("dealt_in_text"))
    if kind == "chajiao":
        assert badges == [(0, ZH.chajiao_seat), (1, ZH.chajiao_seat)]
    else:
        assert badges == [(1, ZH.guansi)]
        assert {p.text for p in c.find("pay_kong")} == {"0"}  # the kong money is void
    # the 廊起 hand as it was shown: the shown tiles barred, the kept ones face up apart (the hand is over)
    revealed = [p.tile for p in c.find("revealed", seat=2)]
    kept = [p.tile for p in c.find("kept_hidden", seat=2)]
    assert revealed == list(view.seats[2].revealed) and len(c.find("shown_mark", seat=2)) == SHOWN
    assert demo.hands is not None
    assert None not in kept and Counter(revealed) + Counter(kept) == Counter(demo.hands[2][0])
    # everyone else's hand face up
    assert {p.seat for p in c.find("shown_hand")} == {0, 1}
    w, h = c.image.size
    assert w + h <= PHOTO_MAX_SIDES


def test_a_partial_reveal_without_the_hands_keeps_the_rest_face_down(demo: Demo) -> None:
    c = result_canvas(chajiao(demo), demo.names, words=ZH_WORDS)
    kept = c.find("kept_hidden", seat=2)
    assert len(kept) == 1 and all(p.tile is None for p in kept)
    assert [p.text for p in c.find("kept_count", seat=2)] == ["9"]


def test_endings_in_english(demo: Demo) -> None:
    c = result_canvas(guansi(demo), demo.names, W("en"), hands=demo.hands)
    assert [p.text for p in c.find("title")] == [EN.guansi]
    assert any("pays" in (p.text or "") for p in c.find("transfer_text"))


def test_real_kaxinwu_hands_draw(demo: Demo) -> None:
    """Engine-played 卡心五 hands with 廊起 seats: every picture draws, a 廊起 seat's own hand marks
    its shown tiles exactly, and a 查叫 result itemises its payments."""
    rules = RuleSet.preset("kaxinwu")
    seen_partial = seen_chajiao = False
    for attempt in range(20):
        states = [st for st, _ in play_states(f"render-kx-{attempt}", rules, declare={0, 1})]
        for n, st in enumerate(states):
            langqi = [i for i, seat in enumerate(st.seats) if seat.liangdao and seat.hidden]
            if langqi and st.phase is not Phase.OVER and n % 3 == 0:
                v = view_for(st, langqi[0])
                marks = hand_canvas(v, words=ZH_WORDS).find("shown_mark")
                assert len(marks) == len(v.public.seats[langqi[0]].revealed)
                seen_partial = True
            if n % 10 == 0:
                render_table(public_view(st), ["a", "b", "c", "d"], words=ZH_WORDS)
        final = states[-1]
        assert final.result is not None
        c = result_canvas(public_view(final), ["a", "b", "c", "d"], hands=_whole_hands(final), words=ZH_WORDS)
        if final.result.chajiao:
            seen_chajiao = True
            assert [p.text for p in c.find("title")] == [ZH.chajiao]
            payees = sum(1 for s in final.seats if s.liangdao and final.result.hand_deltas[final.seats.index(s)] > 0)
            assert len(c.find("transfer")) <= len(final.result.chajiao) * payees
        if seen_partial and seen_chajiao:
            break
    assert seen_partial and seen_chajiao


def test_kaxinwu_labels_the_declaration_langqi(demo: Demo) -> None:
    """Under 卡心五 the Chinese declaration is 廊起 (docs/rules.md §B) on every picture; 卡五星 keeps 亮倒.
    English reads "Laid down" in both games (docs/glossary.md)."""
    from render.pictures import reveal_canvas

    for lang, word in (("zh_CN", "廊起"), ("en", "Laid down")):
        table = table_canvas(demo.table, demo.names, W(lang), game="kaxinwu")
        assert word in {p.text for p in table.find("badge_text", seat=2)}
        assert [
            p.text for p in reveal_canvas(demo.reveal, 2, demo.names, W(lang), game="kaxinwu").find("liangdao_text")
        ] == [word]
        assert [
            p.text for p in result_canvas(chajiao(demo), demo.names, W(lang), game="kaxinwu").find("liangdao_text")
        ] == [word]
        assert [p.text for p in hand_canvas(own_partial(demo), W(lang), game="kaxinwu").find("liangdao_text")] == [word]
    assert ZH.liangdao in {
        p.text for p in table_canvas(demo.table, demo.names, words=ZH_WORDS).find("badge_text", seat=2)
    }


def test_the_reveal_picture_of_a_partial_reveal(demo: Demo) -> None:
    from render.pictures import reveal_canvas

    c = reveal_canvas(partial(demo.reveal), 2, demo.names, words=ZH_WORDS)
    assert [p.tile for p in c.find("revealed", seat=2)] == list(demo.reveal.seats[2].revealed[:SHOWN])
    kept = c.find("kept_hidden", seat=2)
    assert len(kept) == 1 and all(p.tile is None and p.box[2] <= c.width for p in kept)
    assert [p.text for p in c.find("kept_count", seat=2)] == ["9"]
    assert not reveal_canvas(demo.reveal, 2, demo.names, words=ZH_WORDS).find("kept_hidden")


@pytest.mark.parametrize(("preset", "seats"), [("kaxinwu", 4), ("two_seats", 2)])
def test_demo_command_with_a_rule_preset(tmp_path, preset: str, seats: int) -> None:
    """``python -m render demo --rules NAME`` draws engine hands of that preset: one table panel
    per seat, and under 卡心五 the 廊起 wording."""
    from render.__main__ import main as cli_main
    from render.demo import engine_demo

    assert cli_main(["demo", "--out", str(tmp_path), "--rules", preset]) == 0
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == ["draw.png", "hand.png", "result.png", "reveal.png", "stats.png", "table.png"]
    d = engine_demo(7, rules=RuleSet.preset(preset), declare={0, 1} if preset == "kaxinwu" else ())
    assert len(d.table.seats) == len(d.names) == len(d.totals) == seats
    c = table_canvas(d.table, d.names, totals=d.totals, game=RuleSet.preset(preset).ruleset, words=ZH_WORDS)
    assert len(c.find("panel")) == seats
    from render.pictures import reveal_canvas

    word = "廊起" if preset == "kaxinwu" else ZH.liangdao
    game = RuleSet.preset(preset).ruleset
    assert [
        p.text for p in reveal_canvas(d.reveal, d.reveal_seat, d.names, game=game, words=ZH_WORDS).find("liangdao_text")
    ] == [word]


def test_the_danger_tiles_the_engine_gives_are_marked_and_explained(demo: Demo) -> None:
    """Red-edged tiles are those of ``view.danger`` (the engine's: a 亮倒 player waits on them and
    discarding one is 包胡, docs/rules.md §A9.7), with a legend; render works none out itself — a 亮倒
    seat's waits alone mark nothing (卡心五 has no 包胡: the engine gives no danger there)."""
    view = demo.hand
    other = 1 if view.seat != 1 else 0
    wait = view.concealed[2]
    seats = list(view.public.seats)
    seats[other] = replace(seats[other], liangdao=True, waits=(wait,))
    liangdao = replace(view, public=replace(view.public, seats=tuple(seats)), danger=())
    danger = replace(liangdao, danger=(wait,))
    c = hand_canvas(danger, words=ZH_WORDS)
    assert any(t.state is TileState.DANGER for t in c.find("hand", seat=view.seat) if t.tile == wait)
    assert [p.text for p in c.find("danger_legend")] == [ZH.danger]
    assert [p.text for p in hand_canvas(danger, W("en")).find("danger_legend")] == [EN.danger]
    plain = hand_canvas(liangdao, words=ZH_WORDS)
    assert not plain.find("danger_legend")
    assert not any(t.state is TileState.DANGER for t in plain.find("hand", seat=view.seat) if t.tile == wait)
