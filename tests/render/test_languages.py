"""Pictures in English: labels from the English catalog (render.labels.ENGLISH), every label inside its
box, and different pixels."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest

from engine.tiles import Tile
from engine.views import WinView
from render import render_hand, render_result, render_reveal, render_table
from render.blocks import MARGIN, SMALL_TEXT, TEXT_SIZE
from render.demo import Demo, demo_views
from render.labels import ENGLISH, FAN_NAMES, font_charset
from render.phone import PICTURE_WIDTH
from render.pictures import hand_canvas, result_canvas, reveal_canvas, table_canvas
from render.text import clean_name, covered, fit, text_width

from .test_pictures import assert_photo_limits, boxes_overlap, crowded, inside
from .words import EN, LANGUAGES, ZH, ZH_WORDS, W

LONG_TILES = (Tile.M9, Tile.M8, Tile.M7, Tile.WHITE, Tile.WHITE, Tile.GREEN, Tile.GREEN, Tile.RED)
"""Tiles whose English labels are the widest (``9 Crak``, ``White``, ``Green``)."""


@pytest.fixture(scope="module")
def demo() -> Demo:
    return demo_views(7)


def test_languages_and_labels() -> None:
    assert LANGUAGES == ("zh_CN", "en")
    assert ENGLISH.kawuxing == EN, "the English catalog draws render's own English words"
    assert EN.tile(Tile.S5) == "5 Bam" and EN.tile(Tile.P3) == "3 Dot"
    assert EN.tile(Tile.M9) == "9 Crak" and EN.tile(Tile.RED) == "Red"
    assert ZH.tile(Tile.S5) == "5条" and ZH.tile(Tile.RED) == "中"
    assert EN.fan("清一色") == "Pure one suit" and ZH.fan("清一色") == "清一色"
    assert EN.fan("买马") == "买马", "a 番 without an English name stays Chinese"
    assert len(set(EN.tiles)) == len(Tile)


def test_every_english_character_is_in_the_font() -> None:
    charset = set(font_charset())
    for text in EN.strings():
        for ch in text:
            assert ch in charset and covered(ch), (text, ch)
    assert all(f in FAN_NAMES for f in EN.fans), "English names only for 番 the pictures know"


def test_unknown_language_is_a_clear_error(demo: Demo) -> None:
    with pytest.raises(ValueError, match="language 'de'"):
        render_hand(demo.hand, W("de"))
    with pytest.raises(ValueError, match="language 'de'"):
        render_table(demo.table, demo.names, W("de"))


def test_english_hand_labels_fit_under_their_tiles(demo: Demo) -> None:
    view = dataclasses.replace(demo.hand, melds=(), concealed=(LONG_TILES * 2)[:13], drawn=Tile.M9)
    c = hand_canvas(view, W("en"))
    assert_photo_limits(c.image)
    labels = c.find("label")
    assert [p.text for p in labels] == [EN.tile(t) for t in (*view.concealed, Tile.M9)]
    tiles = [*c.find("hand"), *c.find("drawn")]
    for label, tile in zip(labels, tiles, strict=True):
        centre = (tile.box[0] + tile.box[2]) / 2
        at_edge = label.box[0] <= MARGIN or label.box[2] >= c.width - MARGIN  # kept inside the picture
        assert at_edge or abs((label.box[0] + label.box[2]) / 2 - centre) <= 2, (label, tile)
        assert label.box[1] > tile.box[3], "under its tile"
        assert label.size is not None and label.size >= SMALL_TEXT
    for a, b in itertools.combinations(labels, 2):
        assert not boxes_overlap(a.box, b.box), (a, b)
    # labels wider than a tile stand on two staggered lines: neighbours never on the same line
    rows: dict[int, list[int]] = {}
    for label in labels:
        rows.setdefault(label.box[1] // 10, []).append(label.box[0])
    assert len(rows) >= 2


def test_english_hand_footer(demo: Demo) -> None:
    view = dataclasses.replace(demo.hand, waits=tuple(Tile(i) for i in range(9)))
    me = dataclasses.replace(view.public.seats[view.seat], liangdao=True)
    seats = tuple(me if s.seat == view.seat else s for s in view.public.seats)
    view = dataclasses.replace(view, public=dataclasses.replace(view.public, seats=seats))
    c = hand_canvas(view, W("en"))
    assert [p.text for p in c.find("wall")] == [f"Wall: {view.public.wall_remaining}"]
    assert [p.text for p in c.find("waits_badge_text")] == ["Waits"]
    assert [p.text for p in c.find("liangdao_text")] == ["Laid down"]
    unseen = c.find("unseen")
    assert len(unseen) == 9 and all(p.text.endswith(" left") for p in unseen)
    for label, tile in zip(unseen, c.find("wait"), strict=True):  # the count beside its tile
        assert tile.box[2] <= label.box[0] <= tile.box[2] + 8 and tile.box[1] < label.centre[1] < tile.box[3]
    footer = [*c.find("waits_badge"), *c.find("wait"), *c.find("unseen"), *c.find("liangdao"), *c.find("wall")]
    for a, b in itertools.combinations(footer, 2):
        assert not boxes_overlap(a.box, b.box), (a, b)
    for p in c.placed:
        assert p.box[0] >= 0 and p.box[2] <= c.width and p.box[3] <= c.height, p


def test_languages_give_different_pictures_of_the_same_width(demo: Demo) -> None:
    pairs = [
        (render_hand(demo.hand, words=ZH_WORDS), render_hand(demo.hand, W("en"))),
        (render_table(demo.table, demo.names, words=ZH_WORDS), render_table(demo.table, demo.names, W("en"))),
        (render_reveal(demo.reveal, 2, demo.names, words=ZH_WORDS), render_reveal(demo.reveal, 2, demo.names, W("en"))),
        (render_result(demo.result, demo.names, words=ZH_WORDS), render_result(demo.result, demo.names, W("en"))),
        (render_result(demo.draw, demo.names, words=ZH_WORDS), render_result(demo.draw, demo.names, W("en"))),
    ]
    for zh, en in pairs:
        assert_photo_limits(en)
        assert zh.width == en.width == PICTURE_WIDTH
        if zh.size == en.size:
            assert (np.asarray(zh) != np.asarray(en)).any()
    assert render_hand(demo.hand, W("zh_CN")) == render_hand(demo.hand, words=ZH_WORDS), "Chinese stays the default"


def test_english_table_crowded_and_with_empty_names(demo: Demo) -> None:
    for view in (demo.table, crowded(demo.table)):
        c = table_canvas(view, ("", "Alice", "W" * 60), W("en"))
        assert_photo_limits(c.image)
        assert c.find("wall")[0].text == f"Wall: {view.wall_remaining}"
        if view is demo.table:
            assert c.find("name", seat=0)[0].text == "Player 1"
        for seat in range(3):
            panel = c.find("panel", seat=seat)[0].box
            row = [p for p in c.placed if p.seat == seat and p.role in ("name", "badge", "kong_money", "waits_badge")]
            row += c.find("wait", seat=seat) + c.find("match_total", seat=seat)
            for p in row:
                assert inside(p.box, panel), p
            for a, b in itertools.combinations(row, 2):
                assert not boxes_overlap(a.box, b.box), (a, b)
        texts = {p.text for p in c.placed if p.text}
        assert not any("庄" in t or "剩余" in t or "亮倒" in t or "托管" in t for t in texts), texts
    crowded_c = table_canvas(crowded(demo.table), demo.names, W("en"))
    assert {"Laid down", "Auto-play"} <= {p.text for p in crowded_c.find("badge_text")}
    assert {p.text for p in crowded_c.find("kong_money")} == {"Kong −123"}
    totals_c = table_canvas(crowded(demo.table), ("W" * 40,) * 3, W("en"), totals=[-123456789, 0, 123456789])
    for seat in range(3):
        panel = totals_c.find("panel", seat=seat)[0].box
        row = totals_c.find("name", seat=seat) + totals_c.find("match_total", seat=seat)
        row += totals_c.find("badge", seat=seat) + totals_c.find("kong_money", seat=seat)
        assert all(inside(p.box, panel) for p in row)
        for a, b in itertools.combinations(row, 2):
            assert not boxes_overlap(a.box, b.box), (a, b)
    (dealer,) = crowded_c.find("dealer_text")
    (disc,) = crowded_c.find("dealer")
    assert dealer.text == "D" and inside(dealer.box, disc.box)


def test_english_reveal(demo: Demo) -> None:
    c = reveal_canvas(demo.reveal, 2, demo.names, W("en"))
    assert [p.text for p in c.find("liangdao_text")] == ["Laid down"]
    assert [p.text for p in c.find("waits_badge_text")] == ["Waits"]
    for label, tile in zip(c.find("unseen"), c.find("wait"), strict=True):
        assert label.text.endswith(" left") and tile.box[2] <= label.box[0] <= tile.box[2] + 8
    for p in c.placed:
        assert p.box[0] >= 0 and p.box[2] <= c.width and p.box[3] <= c.height, p


def longest_fans_result(demo: Demo) -> tuple[Demo, tuple[str, ...]]:
    """The demo win with every 番 that has an English name, longest first."""
    fans = tuple(sorted(EN.fans, key=lambda f: -text_width(EN.fan(f), 20)))
    assert demo.result.result is not None
    win = demo.result.result.winners[0]
    return dataclasses.replace(
        demo,
        result=dataclasses.replace(
            demo.result,
            result=dataclasses.replace(demo.result.result, winners=(dataclasses.replace(win, fans=fans),)),
        ),
    ), fans


def test_english_result_win_with_the_longest_fan_names(demo: Demo) -> None:
    d, fans = longest_fans_result(demo)
    c = result_canvas(d.result, d.names, W("en"))
    assert_photo_limits(c.image)
    assert [p.text for p in c.find("title")] == ["Win"]
    # the winner (seat 2) declared 亮倒: the 亮倒 chip names them instead of the bare 番 name
    cut = fit(demo.names[2], TEXT_SIZE, 200)
    expected = [EN.liangdao_of.format(name=cut) if f == "亮倒" else EN.fan(f) for f in fans]
    assert [p.text for p in c.find("fan_text")] == expected
    for text, chip in zip(c.find("fan_text"), c.find("fan"), strict=True):
        assert inside(text.box, chip.box), (text, chip)
    chips = c.find("fan") + c.find("multiplier")
    for a, b in itertools.combinations(chips, 2):
        assert not boxes_overlap(a.box, b.box), (a, b)
    assert [p.text for p in c.find("pay_header")] == ["Payments", "Kongs", "This hand"]  # the match is "Match"
    headers = c.find("pay_header")
    for a, b in itertools.combinations(headers, 2):
        assert not boxes_overlap(a.box, b.box)
    by = c.find("by_text")[0].text
    assert by in EN.by_label.values()
    assert c.find("baohu_text")[0].text == "Pays for all"
    assert c.find("next_dealer")[0].text.startswith("Next dealer: ")
    for p in c.placed:
        assert p.box[0] >= 0 and p.box[2] <= c.width and p.box[3] <= c.height, p


@pytest.mark.parametrize("by", ["self_draw", "discard", "rob_kong"])
def test_english_result_win_kinds(demo: Demo, by: str) -> None:
    assert demo.result.result is not None
    win: WinView = demo.result.result.winners[0]
    win = dataclasses.replace(
        win,
        by=by,
        from_seat=None if by == "self_draw" else (win.seat + 1) % 3,
        baohu=True,
    )
    view = dataclasses.replace(demo.result, result=dataclasses.replace(demo.result.result, winners=(win,)))
    c = result_canvas(view, ("W" * 80,) * 3, W("en"))
    assert c.find("by_text")[0].text == EN.by_label[by]
    if by == "discard":
        assert c.find("from")[0].text.endswith(" dealt in")
    if by == "rob_kong":
        assert c.find("from")[0].text.startswith("robbed ") and c.find("from")[0].text.endswith("'s kong")
    for p in c.placed:
        assert p.box[0] >= 0 and p.box[2] <= c.width and p.box[3] <= c.height, p


def test_english_result_draw(demo: Demo) -> None:
    c = result_canvas(demo.draw, demo.names, W("en"))
    assert [p.text for p in c.find("title")] == ["Draw"]
    assert [p.text for p in c.find("liangdao_text")] == ["Laid down"]


def test_english_seat_fallback_name() -> None:
    assert clean_name("محمد", 1, EN.seat_fallback) == "Player 2"
    assert clean_name("محمد", 1, ZH.seat_fallback) == "玩家2"
    assert clean_name("محمد", 1) == "Player 2", "render alone draws English"


@pytest.mark.parametrize("points", [16, 12345])
def test_english_payments_rows_never_overlap(demo: Demo, points: int) -> None:
    """A long name, the 点炮 badge and the numbers of a payments row never overlap, however wide the
    numbers are: the badge goes under the name when beside it the name would keep too little."""
    assert demo.result.result is not None
    hand = (0, -points, points)
    result = dataclasses.replace(demo.result.result, hand_deltas=hand, deltas=hand, kong_deltas=(0, 0, 0))
    c = result_canvas(dataclasses.replace(demo.result, result=result), ("W" * 80,) * 3, W("en"))
    assert [p.seat for p in c.find("dealt_in")] == [1]
    for seat in range(3):
        row = c.find("pay_name", seat=seat) + c.find("dealt_in", seat=seat)
        row += [p for role in ("pay_hand", "pay_kong", "pay_total") for p in c.find(role, seat=seat)]
        for a, b in itertools.combinations(row, 2):
            assert not boxes_overlap(a.box, b.box), (a, b)
        assert all(p.box[0] >= 0 and p.box[2] <= c.width for p in row)


def test_words_are_an_input_translated_field_by_field() -> None:
    """Render holds English only; a language's words are the same shape, each word translated."""
    tiles = tuple(f"t{i}" for i in range(len(Tile)))
    shout = ENGLISH.kawuxing.translated("xx", str.upper, tiles, {"清一色": "PURE"})
    assert shout.lang == "xx" and shout.dealer == "D" and shout.liangdao == "LAID DOWN"
    assert shout.by_label["discard"] == "WON ON A DISCARD" and shout.tile(Tile.S5) == tiles[Tile.S5]
    assert shout.fan("清一色") == "PURE" and shout.fan("买马") == "买马"
    assert ENGLISH.stats.translated("xx", str.upper).chart == "RUNNING TOTAL"
    with pytest.raises(ValueError, match="tile labels"):
        ENGLISH.kawuxing.translated("xx", str.upper, tiles[:3], {})
