"""Pictures in English: labels from render.labels.EN, every label inside its box, and different pixels."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest

from engine.tiles import Tile
from engine.views import WinView
from render import LANGUAGES, render_hand, render_result, render_reveal, render_table
from render.demo import Demo, demo_views
from render.labels import EN, FAN_NAMES, ZH, fan_label, font_charset, labels_for, tile_label
from render.pictures import HAND, hand_canvas, result_canvas, reveal_canvas, table_canvas
from render.text import clean_name, covered, text_width

from .test_pictures import assert_photo_limits, boxes_overlap, crowded, inside

LONG_TILES = (Tile.M9, Tile.M8, Tile.M7, Tile.WHITE, Tile.WHITE, Tile.GREEN, Tile.GREEN, Tile.RED)
"""Tiles whose English labels are the widest (``9 Crak``, ``White``, ``Green``)."""


@pytest.fixture(scope="module")
def demo() -> Demo:
    return demo_views(7)


def test_languages_and_labels() -> None:
    assert LANGUAGES == ("zh_CN", "en")
    assert labels_for("en") is EN and labels_for("zh_CN") is ZH
    assert tile_label(Tile.S5, "en") == "5 Bam" and tile_label(Tile.P3, "en") == "3 Dot"
    assert tile_label(Tile.M9, "en") == "9 Crak" and tile_label(Tile.RED, "en") == "Red"
    assert tile_label(Tile.S5) == "5条" and tile_label(Tile.RED) == "中"
    assert fan_label("清一色", "en") == "Pure one suit" and fan_label("清一色") == "清一色"
    assert fan_label("买马", "en") == "买马", "a 番 without an English name stays Chinese"
    assert len(set(EN.tiles)) == len(Tile)
    with pytest.raises(ValueError, match="'fr'"):
        labels_for("fr")


def test_every_english_character_is_in_the_font() -> None:
    charset = set(font_charset())
    for text in EN.strings():
        for ch in text:
            assert ch in charset and covered(ch), (text, ch)
    assert all(f in FAN_NAMES for f in EN.fans), "English names only for 番 the pictures know"


def test_unknown_language_is_a_clear_error(demo: Demo) -> None:
    with pytest.raises(ValueError, match="language 'de'"):
        render_hand(demo.hand, "de")
    with pytest.raises(ValueError, match="language 'de'"):
        render_table(demo.table, demo.names, "de")


def test_english_hand_labels_fit_under_their_tiles(demo: Demo) -> None:
    view = dataclasses.replace(demo.hand, melds=(), concealed=(LONG_TILES * 2)[:13], drawn=Tile.M9)
    c = hand_canvas(view, "en")
    assert_photo_limits(c.image)
    labels = c.find("label")
    assert [p.text for p in labels] == [EN.tile(t) for t in (*view.concealed, Tile.M9)]
    tiles = [*c.find("hand"), *c.find("drawn")]
    step = HAND.width + 2
    for label, tile in zip(labels, tiles, strict=True):
        assert label.box[2] - label.box[0] <= HAND.width, label
        centre = (tile.box[0] + tile.box[2]) / 2
        assert abs((label.box[0] + label.box[2]) / 2 - centre) <= 2
        assert tile.box[0] - 1 <= label.box[0] and label.box[2] <= tile.box[0] + step, (label, tile)
    for a, b in itertools.combinations(labels, 2):
        assert not boxes_overlap(a.box, b.box), (a, b)
    # the longest English label at the size used fits a tile
    size = labels[0].box[3] - labels[0].box[1]
    assert size > 10 and max(text_width(t, 19) for t in EN.tiles) <= HAND.width


def test_english_hand_footer(demo: Demo) -> None:
    view = dataclasses.replace(demo.hand, waits=tuple(Tile(i) for i in range(9)))
    me = dataclasses.replace(view.public.seats[view.seat], liangdao=True)
    seats = tuple(me if s.seat == view.seat else s for s in view.public.seats)
    view = dataclasses.replace(view, public=dataclasses.replace(view.public, seats=seats))
    c = hand_canvas(view, "en")
    assert [p.text for p in c.find("wall")] == [f"Wall: {view.public.wall_remaining}"]
    assert [p.text for p in c.find("waits_badge_text")] == ["Waits"]
    assert [p.text for p in c.find("liangdao_text")] == ["Laid down"]
    unseen = c.find("unseen")
    assert len(unseen) == 9 and all(p.text.endswith(" left") for p in unseen)
    for label, tile in zip(unseen, c.find("wait"), strict=True):
        assert tile.box[0] <= label.box[0] and label.box[2] <= tile.box[2] + 1, (label, tile)
    footer = [*c.find("waits_badge"), *c.find("wait"), *c.find("liangdao"), *c.find("wall")]
    for a, b in itertools.combinations(footer, 2):
        assert not boxes_overlap(a.box, b.box), (a, b)
    for p in c.placed:
        assert p.box[0] >= 0 and p.box[2] <= c.width and p.box[3] <= c.height, p


def test_languages_give_different_pictures_of_the_same_size(demo: Demo) -> None:
    pairs = [
        (render_hand(demo.hand), render_hand(demo.hand, "en")),
        (render_table(demo.table, demo.names), render_table(demo.table, demo.names, "en")),
        (render_reveal(demo.reveal, 2, demo.names), render_reveal(demo.reveal, 2, demo.names, "en")),
        (render_result(demo.result, demo.names), render_result(demo.result, demo.names, "en")),
        (render_result(demo.draw, demo.names), render_result(demo.draw, demo.names, "en")),
    ]
    for zh, en in pairs:
        assert_photo_limits(en)
        a, b = np.asarray(zh), np.asarray(en)
        assert a.shape == b.shape and (a != b).any()
    assert render_hand(demo.hand, "zh_CN") == render_hand(demo.hand), "Chinese stays the default"


def test_english_table_crowded_and_with_empty_names(demo: Demo) -> None:
    for view in (demo.table, crowded(demo.table)):
        c = table_canvas(view, ("", "Alice", "W" * 60), "en")
        assert_photo_limits(c.image)
        assert c.find("wall")[0].text == f"Wall: {view.wall_remaining}"
        if view is demo.table:
            assert c.find("name", seat=0)[0].text == "Player 1"
        for seat in range(3):
            panel = c.find("panel", seat=seat)[0].box
            (name_box,) = c.find("name_box", seat=seat)
            row = [p for p in c.placed if p.seat == seat and p.role in ("name", "badge", "kong_money", "waits_badge")]
            row += [p for p in c.find("wait", seat=seat) if p.box[1] < name_box.box[3]]
            for p in row:
                assert inside(p.box, panel), p
            for a, b in itertools.combinations(row, 2):
                assert not boxes_overlap(a.box, b.box), (a, b)
        texts = {p.text for p in c.placed if p.text}
        assert not any("庄" in t or "剩余" in t or "亮倒" in t or "托管" in t for t in texts), texts
    crowded_c = table_canvas(crowded(demo.table), demo.names, "en")
    assert {"Laid down", "Auto-play"} <= {p.text for p in crowded_c.find("badge_text")}
    kongs = {p.text for p in crowded_c.find("kong_money")}
    # the nine waits now take a row of their own, so the name row keeps the label; with long match
    # totals as well it is crowded again and keeps the value only
    assert kongs == {"Kong −123"}
    totals_c = table_canvas(crowded(demo.table), ("W" * 40,) * 3, "en", totals=[-123456789, 0, 123456789])
    kongs = {p.text for p in totals_c.find("kong_money")}
    assert "−123" in kongs and kongs <= {"−123", "Kong −123"}, "a crowded row keeps the value only"
    kong_c = table_canvas(dataclasses.replace(demo.table, seats=tuple(
        dataclasses.replace(s, kong_money=-123) for s in demo.table.seats)), demo.names, "en")  # fmt: skip
    assert {p.text for p in kong_c.find("kong_money")} == {"Kong −123"}
    (dealer,) = crowded_c.find("dealer_text")
    (disc,) = crowded_c.find("dealer")
    assert dealer.text == "D" and inside(dealer.box, disc.box)


def test_english_reveal(demo: Demo) -> None:
    c = reveal_canvas(demo.reveal, 2, demo.names, "en")
    assert [p.text for p in c.find("liangdao_text")] == ["Laid down"]
    assert [p.text for p in c.find("waits_badge_text")] == ["Waits"]
    for label, tile in zip(c.find("unseen"), c.find("wait"), strict=True):
        assert label.text.endswith(" left") and tile.box[0] <= label.box[0] and label.box[2] <= tile.box[2] + 1
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
    c = result_canvas(d.result, d.names, "en")
    assert_photo_limits(c.image)
    assert [p.text for p in c.find("title")] == ["Win"]
    # the winner (seat 2) declared 亮倒: the 亮倒 chip names them instead of the bare 番 name
    expected = [EN.liangdao_of.format(name="Zhang_San_with_…") if f == "亮倒" else EN.fan(f) for f in fans]
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
    c = result_canvas(view, ("W" * 80,) * 3, "en")
    assert c.find("by_text")[0].text == EN.by_label[by]
    if by == "discard":
        assert c.find("from")[0].text.endswith(" dealt in")
    if by == "rob_kong":
        assert c.find("from")[0].text.startswith("robbed ") and c.find("from")[0].text.endswith("'s kong")
    for p in c.placed:
        assert p.box[0] >= 0 and p.box[2] <= c.width and p.box[3] <= c.height, p


def test_english_result_draw(demo: Demo) -> None:
    c = result_canvas(demo.draw, demo.names, "en")
    assert [p.text for p in c.find("title")] == ["Draw"]
    assert [p.text for p in c.find("liangdao_text")] == ["Laid down"]


def test_english_seat_fallback_name() -> None:
    assert clean_name("🎉", 1, EN.seat_fallback) == "Player 2"
    assert clean_name("🎉", 1) == "玩家2"
