"""The pictures: sizes and Telegram limits, pixel probes at known positions, and layout robustness.

Positions come from the canvas record (render.canvas.Placed); no PNG bytes are ever hashed.
"""

from __future__ import annotations

import dataclasses
import io
import itertools
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from engine.tiles import MeldKind, Tile, parse_tiles
from engine.views import DiscardView, MeldView, PublicView
from render import (
    PHOTO_MAX_BYTES,
    PHOTO_MAX_RATIO,
    PHOTO_MAX_SIDES,
    encode,
    render_hand,
    render_result,
    render_reveal,
    render_table,
)
from render.__main__ import main as cli_main
from render.art import GOLD, TileSize, TileState
from render.blocks import BADGE_SIZE, ROW_GAP, TEXT_SIZE
from render.canvas import Canvas, Placed
from render.demo import DEMO_NAMES, Demo, demo_views
from render.phone import MAX_RATIO, MIN_TILE, PHONE_WIDTH, PICTURE_WIDTH
from render.pictures import (
    BADGE_RED,
    DARK,
    FELT,
    PANEL,
    TABLE_MARGIN,
    TEXT,
    HandTiles,
    draw_badge,
    hand_canvas,
    result_canvas,
    reveal_canvas,
    table_canvas,
    unseen_counts,
)
from render.pictures import GOLD as GOLD_BADGE
from render.text import fit, text_width

from .words import ZH_WORDS, W


@pytest.fixture(scope="module")
def demo() -> Demo:
    return demo_views(7)


def px(c: Canvas | Image.Image, xy: tuple[int, int]) -> tuple[int, int, int]:
    img = c.image if isinstance(c, Canvas) else c
    p = img.getpixel(xy)
    assert isinstance(p, tuple)
    return int(p[0]), int(p[1]), int(p[2])


def near(p: tuple[int, int, int], q: tuple[int, int, int], tol: int = 40) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(p, q, strict=True))


def face_centre(p: Placed) -> tuple[int, int]:
    x0, y0, x1, y1 = p.box
    return (x0 + x1) // 2, y0 + round((y1 - y0) * 0.46)


def rim(p: Placed) -> tuple[int, int]:
    """A pixel on the tile's left rim, half-way down."""
    return p.box[0] + 1, (p.box[1] + p.box[3]) // 2


def region(c: Canvas, box: tuple[int, int, int, int]) -> np.ndarray:
    return np.asarray(c.image.crop(box), dtype=np.int32)


def ink_colour(c: Canvas, p: Placed) -> str:
    """Whether the text of ``p`` is drawn red or green (the colours of points, docs/glossary.md),
    or neither."""
    ink = region(c, p.box).reshape(-1, 3)
    red = int(((ink[:, 0] > 200) & (ink[:, 1] < 170)).sum())
    green = int(((ink[:, 1] > 200) & (ink[:, 0] < 170)).sum())
    return "red" if red > green else "green" if green > red else "neither"


@pytest.mark.parametrize("lang", ["zh_CN", "en"])
def test_a_results_gains_and_losses_are_coloured_for_the_readers_language(demo: Demo, lang: str) -> None:
    # English readers took the Chinese convention (a loss green) for a gain: green = gain in English
    c = result_canvas(demo.result, demo.names, W(lang))
    totals = {p.seat: p for p in c.find("pay_total")}
    signs = {s: ("gain" if p.text.startswith("+") else "loss" if p.text != "0" else "none") for s, p in totals.items()}
    assert {"gain", "loss"} <= set(signs.values())
    red_gains = lang == "zh_CN"
    for seat, p in totals.items():
        if signs[seat] != "none":
            assert ink_colour(c, p) == ("red" if (signs[seat] == "gain") == red_gains else "green"), (seat, p.text)


def assert_photo_limits(img: Image.Image) -> None:
    w, h = img.size
    assert img.mode == "RGB"
    assert w + h <= PHOTO_MAX_SIDES
    assert max(w, h) / min(w, h) <= PHOTO_MAX_RATIO
    assert len(encode(img, "png")) < PHOTO_MAX_BYTES // 10


def boxes_overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def inside(inner: tuple[int, int, int, int], outer: tuple[int, int, int, int]) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


# -- a crowded table: four melds per seat, long ponds, nine waits ---------------------------------------


def crowded(view: PublicView) -> PublicView:
    melds = (
        MeldView(MeldKind.KONG, Tile.P1, 1),
        MeldView(MeldKind.ADDED_KONG, Tile.S9, 2),
        MeldView(MeldKind.CONCEALED_KONG, None),
        MeldView(MeldKind.PONG, Tile.GREEN, 1),
    )
    pond = tuple(DiscardView(Tile(i % 21 if i % 21 < 18 else 27 + i % 3), claimed=i % 7 == 0) for i in range(30))
    seats = tuple(
        dataclasses.replace(
            s,
            concealed_count=2,
            melds=melds,
            discards=(*pond[:12], DiscardView(Tile.P5, liangdao=True), *pond[12:]),
            liangdao=True,
            revealed=(Tile.P2, Tile.P2),
            waits=tuple(Tile(i) for i in range(9)),
            kong_money=-123,
            on_auto=True,
        )
        for s in view.seats
    )
    return dataclasses.replace(view, seats=seats)


# -- hand ---------------------------------------------------------------------------------------------------


def test_hand_size_and_limits(demo: Demo) -> None:
    img = render_hand(demo.hand, words=ZH_WORDS)
    assert_photo_limits(img)
    assert img.width == PICTURE_WIDTH and 200 <= img.height <= MAX_RATIO * img.width  # the table part adds height


def test_hand_tiles_labels_and_drawn_tile(demo: Demo) -> None:
    c = hand_canvas(demo.hand, words=ZH_WORDS)
    hand = c.find("hand")
    assert [p.tile for p in hand] == list(demo.hand.concealed)
    assert [p.text for p in c.find("label")] == [t.chinese for t in (*demo.hand.concealed, demo.hand.drawn)]
    drawn = c.find("drawn")
    assert len(drawn) == 1 and drawn[0].tile == demo.hand.drawn
    assert drawn[0].box[0] - hand[-1].box[2] >= 10, "the drawn tile is set apart"
    assert near(px(c, rim(drawn[0])), GOLD)
    assert not near(px(c, rim(hand[0])), GOLD)


def test_hand_shows_red_zhong_and_marks_liangdao_waits(demo: Demo) -> None:
    view = dataclasses.replace(demo.hand, concealed=(Tile.P2, Tile.P3, Tile.P4, Tile.S4, Tile.S6, Tile.RED, Tile.RED))
    c = hand_canvas(view, words=ZH_WORDS)
    zhong = c.find("hand", tile=Tile.RED)
    assert len(zhong) == 2
    r, g, b = px(c, face_centre(zhong[0]))
    assert r > 150 and g < 90 and b < 90
    # seat 2 has 亮倒 waiting on 1p 4p 7p: our 4p is dangerous, our 2p is not
    assert c.find("hand", tile=Tile.P4)[0].state is TileState.DANGER
    assert c.find("hand", tile=Tile.P2)[0].state is TileState.NORMAL
    red_rim = px(c, rim(c.find("hand", tile=Tile.P4)[0]))
    assert red_rim[0] > 180 and red_rim[1] < 80


def test_hand_melds_show_own_concealed_kong(demo: Demo) -> None:
    c = hand_canvas(demo.hand, words=ZH_WORDS)
    assert not c.find("meld_top"), "melds lie flat"
    # the 暗杠: four tiles, the two in the middle face up (its owner knows it), the ends face down
    assert [p.tile for p in c.find("meld")] == [Tile.RED] * 3 + [None, Tile.S2, Tile.S2, None]


def test_hand_waits_with_unseen_counts(demo: Demo) -> None:
    c = hand_canvas(demo.hand, words=ZH_WORDS)
    assert [p.tile for p in c.find("wait")] == list(demo.hand.waits) == [Tile.S5]
    counts = unseen_counts(demo.hand.public, demo.hand)
    assert [p.text for p in c.find("unseen")] == [f"{counts[Tile.S5]}张"]
    no_waits = hand_canvas(dataclasses.replace(demo.hand, waits=()), words=ZH_WORDS)
    assert no_waits.find("wait") == []
    assert no_waits.image.width == c.image.width, "the picture keeps its width between turns"


def test_hand_width_is_stable_across_meld_counts(demo: Demo) -> None:
    base = hand_canvas(demo.hand, words=ZH_WORDS).image.size
    four_kongs = dataclasses.replace(
        demo.hand,
        melds=tuple(MeldView(MeldKind.KONG, t, 1) for t in (Tile.P1, Tile.P9, Tile.S1, Tile.RED)),
        concealed=(Tile.S5,),
        drawn=Tile.S5,
    )
    c = hand_canvas(four_kongs, words=ZH_WORDS)
    assert c.image.width == base[0] and c.image.height <= MAX_RATIO * c.image.width
    assert max(p.box[2] for p in c.placed) <= c.width - 10
    assert len(c.find("meld")) == 16, "four kongs of four tiles, in two rows"


def test_unseen_counts_never_double_count_claimed_discards(demo: Demo) -> None:
    counts = unseen_counts(demo.table)
    # 中: seat 0's 碰 (3 tiles, one of them seat 2's claimed discard) and one more 中 in seat 2's pond
    assert counts[Tile.RED] == 0
    assert all(0 <= n <= 4 for n in counts)


# -- table ----------------------------------------------------------------------------------------------------


def test_table_size_and_limits(demo: Demo) -> None:
    img = render_table(demo.table, demo.names, words=ZH_WORDS)
    assert_photo_limits(img)
    assert img.width == PICTURE_WIDTH and 400 <= img.height <= MAX_RATIO * img.width
    # shown 330 px wide on a phone, a pond tile is at least 18 px wide
    (tile, *_) = table_canvas(demo.table, demo.names, words=ZH_WORDS).find("pond")
    assert (tile.box[2] - tile.box[0]) * PHONE_WIDTH / img.width >= MIN_TILE


def test_table_ponds_take_only_the_rows_they_fill(demo: Demo) -> None:
    """No empty pond rows: an empty pond is one row, 15 discards one row, 16 two rows."""
    empty = dataclasses.replace(demo.table, seats=tuple(dataclasses.replace(s, discards=()) for s in demo.table.seats))
    base = table_canvas(empty, demo.names, words=ZH_WORDS)

    def with_pond(n: int) -> Canvas:
        seats = list(empty.seats)
        seats[1] = dataclasses.replace(seats[1], discards=tuple(DiscardView(Tile.P1) for _ in range(n)))
        return table_canvas(dataclasses.replace(empty, seats=tuple(seats)), demo.names, words=ZH_WORDS)

    def panel_height(c: Canvas, seat: int) -> int:
        box = c.find("panel", seat=seat)[0].box
        return box[3] - box[1]

    one_row = panel_height(base, 1)
    assert panel_height(with_pond(15), 1) == one_row
    assert panel_height(with_pond(16), 1) == one_row + TileSize.POND.height + ROW_GAP
    assert with_pond(16).height == base.height + TileSize.POND.height + ROW_GAP
    for s in range(3):
        pond = base.find("pond_area", seat=s)[0].box
        assert pond[3] - pond[1] <= TileSize.POND.height + 4


@pytest.mark.parametrize("lang", ["zh_CN", "en"])
def test_table_shows_each_seats_running_match_total(demo: Demo, lang: str) -> None:
    c = table_canvas(demo.table, demo.names, W(lang), totals=[12, -20, 0])
    label = "累计{v}" if lang == "zh_CN" else "Match {v}"
    assert [(p.seat, p.text) for p in c.find("match_total")] == [
        (0, label.format(v="+12")),
        (1, label.format(v="−20")),
        (2, label.format(v="0")),
    ]
    for p in c.find("match_total"):
        assert inside(p.box, c.find("panel", seat=p.seat)[0].box)
        for other in c.placed:
            if other.seat == p.seat and other.role not in ("panel", "match_total", "name_box"):
                assert not boxes_overlap(p.box, other.box), other
    gain = ink_colour(c, c.find("match_total", seat=0)[0])
    loss = ink_colour(c, c.find("match_total", seat=1)[0])
    # a gain red and a loss green in Chinese, the other way round in English (points_colour)
    assert (gain, loss) == (("red", "green") if lang == "zh_CN" else ("green", "red"))
    assert table_canvas(demo.table, demo.names, W(lang)).find("match_total") == []
    with pytest.raises(ValueError, match="2 match totals for 3 seats"):
        render_table(demo.table, demo.names, W(lang), totals=[1, -1])


def test_table_turn_marker_is_gold_only_for_the_seat_to_act(demo: Demo) -> None:
    c = table_canvas(demo.table, demo.names, words=ZH_WORDS)
    markers = c.find("turn_marker")
    assert [m.seat for m in markers] == list(demo.table.to_act) == [1]
    mx, my = markers[0].centre
    assert near(px(c, (mx - 2, my)), GOLD)
    # the same spot in an idle seat's panel is plain panel colour
    idle = c.find("panel", seat=0)[0]
    active = c.find("panel", seat=1)[0]
    same_spot = (mx - 2, my - active.box[1] + idle.box[1])
    assert not near(px(c, same_spot), GOLD, 60)


def test_table_marks_last_discard_and_dims_claimed(demo: Demo) -> None:
    c = table_canvas(demo.table, demo.names, words=ZH_WORDS)
    last = c.find("last_discard")
    assert len(last) == 1 and last[0].seat == 0 and last[0].tile == Tile.S9
    assert near(px(c, rim(last[0])), GOLD)
    claimed = [p for p in c.find("pond") if p.state is TileState.DIM]
    assert {(p.seat, p.tile) for p in claimed} == {(0, Tile.S3), (2, Tile.RED)}
    dim_zhong = next(p for p in claimed if p.tile == Tile.RED)
    plain_zhong = next(p for p in c.find("pond", seat=2, tile=Tile.RED) if p.state is TileState.NORMAL)
    r1, g1, _ = px(c, face_centre(dim_zhong))
    r2, g2, _ = px(c, face_centre(plain_zhong))
    assert r2 - g2 > 100, "a plain 中 is vivid red"
    assert r1 - g1 < 0.6 * (r2 - g2), "a claimed 中 is dimmed"


def test_table_shows_liangdao_hand_and_hides_the_others(demo: Demo) -> None:
    c = table_canvas(demo.table, demo.names, words=ZH_WORDS)
    assert [p.tile for p in c.find("revealed", seat=2)] == list(demo.table.seats[2].revealed)
    assert [p.tile for p in c.find("wait", seat=2)] == list(demo.table.seats[2].waits)
    assert len(c.find("hidden", seat=1)) == 1, "a hidden hand is one face-down tile and its count"
    assert c.find("revealed", seat=1) == []
    assert [p.text for p in c.find("hidden_count", seat=1)] == ["10"]
    # seat 0's 暗杠 is face down for the group: no face-up tile anywhere in it
    assert [p.tile for p in c.find("meld", seat=0)][-4:] == [None] * 4
    rotated = [p for p in c.find("pond", seat=2) if p.box[2] - p.box[0] > p.box[3] - p.box[1]]
    assert len(rotated) == 1, "the 亮倒 discard lies sideways"
    assert [p.seat for p in c.find("dealer")] == [demo.table.dealer]


def test_table_pictures_differ_when_the_view_does(demo: Demo) -> None:
    base = np.asarray(render_table(demo.table, demo.names, words=ZH_WORDS))
    moved = dataclasses.replace(demo.table, to_act=(2,), turn=2)
    other = np.asarray(render_table(moved, demo.names, words=ZH_WORDS))
    assert base.shape == other.shape and (base != other).any()
    fewer = dataclasses.replace(demo.table, wall_remaining=3)
    assert (np.asarray(render_table(fewer, demo.names, words=ZH_WORDS)) != base).any()
    renamed = np.asarray(render_table(demo.table, ("Ann", "Ben", "Cat"), words=ZH_WORDS))
    assert (renamed != base).any()


def test_hand_pictures_differ_when_the_view_does(demo: Demo) -> None:
    base = np.asarray(render_hand(demo.hand, words=ZH_WORDS))
    other = np.asarray(render_hand(dataclasses.replace(demo.hand, drawn=Tile.P1), words=ZH_WORDS))
    assert (base != other).any()


HOSTILE_NAMES = [
    "Zhang_San_" + "x" * 200,
    "🀄" * 40 + "🎉🎉",
    "مرحبا بالعالم " * 8,
    "שלום עליכם " * 8,
    "W" * 80,
    "\u202eevil right-to-left override\u202c" * 4,
    "Z\u0351\u0352\u0353a\u0354\u0355l\u0356go" * 10,
    "",
]


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_hostile_names_stay_in_their_boxes(demo: Demo, name: str) -> None:
    names = (name, name, name)
    for view in (demo.table, crowded(demo.table)):
        c = table_canvas(view, names, words=ZH_WORDS)
        assert_photo_limits(c.image)
        for seat in range(3):
            panel = c.find("panel", seat=seat)[0].box
            (name_box,) = c.find("name_box", seat=seat)
            (drawn,) = c.find("name", seat=seat)
            assert inside(drawn.box, name_box.box), (drawn, name_box)
            row = [p for p in c.placed if p.seat == seat and p.role in ("name", "badge", "kong_money", "waits_badge")]
            row += [p for p in c.find("wait", seat=seat) if p.box[1] < name_box.box[3]]
            for p in row:
                assert inside(p.box, panel), p
            for a, b in itertools.combinations(row, 2):
                assert not boxes_overlap(a.box, b.box), (a, b)
        # nothing is drawn in the outer margins
        margin = region(c, (0, 0, TABLE_MARGIN - 1, c.height))
        assert (np.abs(margin - np.array(FELT)) <= 2).all()
        right = region(c, (c.width - TABLE_MARGIN + 1, 0, c.width, c.height))
        assert (np.abs(right - np.array(FELT)) <= 2).all()


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_hostile_names_in_reveal_and_result(demo: Demo, name: str) -> None:
    names = (name, name, name)
    for c in (
        reveal_canvas(demo.reveal, 2, names, words=ZH_WORDS),
        result_canvas(demo.result, names, words=ZH_WORDS),
        result_canvas(demo.draw, names, words=ZH_WORDS),
    ):
        assert_photo_limits(c.image)
        for p in c.placed:
            assert p.box[0] >= 0 and p.box[2] <= c.width and p.box[3] <= c.height, p
        for role in ("name", "winner_name", "pay_name"):
            for p in c.find(role):
                assert p.box[2] <= c.width - 16


def test_crowded_table_grows_the_ponds_and_keeps_limits(demo: Demo) -> None:
    c = table_canvas(crowded(demo.table), demo.names, words=ZH_WORDS)
    assert_photo_limits(c.image)
    assert c.height > table_canvas(demo.table, demo.names, words=ZH_WORDS).height
    for seat in range(3):
        panel = c.find("panel", seat=seat)[0].box
        for p in c.placed:
            if p.seat == seat and p.role not in ("panel",):
                assert inside(p.box, panel), p
        tiles = [p for p in c.placed if p.seat == seat and p.role in ("pond", "last_discard")]
        assert len(tiles) == 31
        for a, b in itertools.combinations(tiles, 2):
            assert not boxes_overlap(a.box, b.box)


# -- reveal -------------------------------------------------------------------------------------------------------


def test_reveal(demo: Demo) -> None:
    c = reveal_canvas(demo.reveal, 2, demo.names, words=ZH_WORDS)
    assert_photo_limits(c.image)
    seat = demo.reveal.seats[2]
    assert [p.tile for p in c.find("revealed")] == list(seat.revealed)
    assert [p.tile for p in c.find("wait")] == list(seat.waits)
    assert len(c.find("unseen")) == len(seat.waits)
    assert c.find("liangdao")
    with pytest.raises(ValueError, match="seat 3"):
        render_reveal(demo.reveal, 3, demo.names, words=ZH_WORDS)


# -- result ---------------------------------------------------------------------------------------------------------


def test_result_win(demo: Demo) -> None:
    c = result_canvas(demo.result, demo.names, words=ZH_WORDS)
    assert_photo_limits(c.image)
    assert [p.text for p in c.find("title")] == ["胡牌"]
    (win,) = c.find("win_tile")
    assert win.tile == Tile.P4 and win.state is TileState.HIGHLIGHT
    assert near(px(c, rim(win)), GOLD)
    hand = c.find("winner_hand")
    assert win.box[0] - hand[-1].box[2] >= 10, "the winning tile is set apart"
    cut = fit(demo.names[2], TEXT_SIZE, 200)
    assert [p.text for p in c.find("fan_text")] == ["清一色", f"{cut}亮倒"], "whose 亮倒: the winner's"
    assert [p.text for p in c.find("multiplier_text")] == ["Lǐ Míng ×8", "Wáng 🀄✨ ×8"]  # emoji drawn
    assert c.find("baohu_text")[0].text == "包胡"
    assert [p.text for p in c.find("pay_total")] == ["+4", "−18", "+14"]
    assert [p.text for p in c.find("pay_kong")] == ["+4", "−2", "−2"]
    assert [p.text for p in c.find("pay_hand")] == ["0", "−16", "+16"]
    gain = region(c, c.find("pay_total", seat=2)[0].box).reshape(-1, 3)
    loss = region(c, c.find("pay_total", seat=1)[0].box).reshape(-1, 3)
    assert ((gain[:, 0] > 200) & (gain[:, 1] < 170)).any(), "gains are red"
    assert ((loss[:, 1] > 200) & (loss[:, 0] < 170)).any(), "losses are green"
    assert [p.seat for p in c.find("dealer")] == [demo.result.dealer] == [0], "this hand's dealer, not the next"
    assert [p.text for p in c.find("multiplier_label")] == ["各家倍数"]


def badge_alone(text: str, bg: tuple[int, int, int], fg: tuple[int, int, int], size: int) -> np.ndarray:
    """A badge drawn by itself on the winner panel's colour, as the pictures draw one."""
    h = round(size * 1.35)
    c = Canvas(text_width(text, size) + 2 * (size // 3), h, PANEL)
    draw_badge(c, 0, h // 2, text, bg, fg, size, role="alone")
    return np.asarray(c.image, dtype=np.int32)


def badge_pixels(c: Canvas, role: str, seat: int) -> np.ndarray:
    (p,) = c.find(role, seat=seat)
    return region(c, p.box)


@pytest.mark.parametrize(
    ("lang", "by", "winner", "dealt_in"),
    [("zh_CN", "discard", "胡", "点炮"), ("en", "discard", "Won on a discard", "Dealt in"),
     ("zh_CN", "self_draw", "自摸", None), ("zh_CN", "rob_kong", "抢杠胡", "被抢杠")],
)  # fmt: skip
def test_result_badges_say_how_the_winner_won_and_who_dealt_in(
    demo: Demo, lang: str, by: str, winner: str, dealt_in: str | None
) -> None:
    """Pixel probe: the winner's badge is exactly the badge of 胡 / 自摸 (never 点炮), and 点炮 sits
    on the discarder's row of the payments table (on a panel of the payments' colour)."""
    assert demo.result.result is not None
    win = dataclasses.replace(demo.result.result.winners[0], by=by, from_seat=None if by == "self_draw" else 1)
    view = dataclasses.replace(demo.result, result=dataclasses.replace(demo.result.result, winners=(win,)))
    c = result_canvas(view, demo.names, W(lang))
    got = badge_pixels(c, "by", win.seat)
    assert got.shape == badge_alone(winner, GOLD_BADGE, DARK, BADGE_SIZE).shape
    assert (got == badge_alone(winner, GOLD_BADGE, DARK, BADGE_SIZE)).all()
    for wrong in ("点炮", "Dealt in", "On discard"):
        other = badge_alone(wrong, GOLD_BADGE, DARK, BADGE_SIZE)
        assert other.shape != got.shape or (other != got).any()
    if dealt_in is None:
        assert c.find("dealt_in") == []
        return
    (badge,) = c.find("dealt_in")
    assert badge.seat == 1 and badge.seat != win.seat
    got = badge_pixels(c, "dealt_in", 1)
    h = round(BADGE_SIZE * 1.35)
    alone = Canvas(text_width(dealt_in, BADGE_SIZE) + 2 * (BADGE_SIZE // 3), h, PANEL)
    draw_badge(alone, 0, h // 2, dealt_in, BADGE_RED, TEXT, BADGE_SIZE, role="alone")
    assert (got == np.asarray(alone.image, dtype=np.int32)).all()


def test_result_draw(demo: Demo) -> None:
    c = result_canvas(demo.draw, demo.names, words=ZH_WORDS)
    assert_photo_limits(c.image)
    assert [p.text for p in c.find("title")] == ["荒庄"]
    assert c.find("win_tile") == []
    assert [p.tile for p in c.find("revealed")] == list(demo.draw.seats[2].revealed)
    assert [p.text for p in c.find("pay_hand")] == ["+1", "+1", "−2"]


def test_result_needs_a_result(demo: Demo) -> None:
    with pytest.raises(ValueError, match="not over"):
        render_result(demo.table, demo.names, words=ZH_WORDS)


def test_result_pictures_differ_when_the_view_does(demo: Demo) -> None:
    assert demo.result.result is not None
    other = dataclasses.replace(
        demo.result, result=dataclasses.replace(demo.result.result, deltas=(0, 0, 0), hand_deltas=(0, 0, 0))
    )
    a = np.asarray(render_result(demo.result, demo.names, words=ZH_WORDS))
    b = np.asarray(render_result(other, demo.names, words=ZH_WORDS))
    assert a.shape == b.shape and (a != b).any()


# -- encoding and the demo command ------------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["png", "jpeg", "PNG", "jpg"])
def test_encode_round_trips(demo: Demo, fmt: str) -> None:
    img = render_hand(demo.hand, words=ZH_WORDS)
    data = encode(img, fmt)
    back = Image.open(io.BytesIO(data))
    assert back.size == img.size
    assert back.format == ("PNG" if fmt.lower() == "png" else "JPEG")


def test_encode_rejects_unknown_formats(demo: Demo) -> None:
    with pytest.raises(ValueError, match="webp"):
        encode(render_hand(demo.hand, words=ZH_WORDS), "webp")


def test_demo_command_writes_every_picture(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["demo", "--out", str(tmp_path), "--seed", "3"]) == 0
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == ["draw.png", "hand.png", "result.png", "reveal.png", "stats.png", "table.png"]
    for p in tmp_path.iterdir():
        assert_photo_limits(Image.open(p).convert("RGB"))
    assert "table.png" in capsys.readouterr().out


def test_demo_command_draws_in_the_language_asked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for lang in ("zh_CN", "en"):
        argv = ["demo", "--out", str(tmp_path / lang), "--seed", "3", "--source", "scripted", "--lang", lang]
        assert cli_main(argv, words={"zh_CN": W("zh_CN"), "en": W("en")}) == 0
    zh, en = (Image.open(tmp_path / lang / "result.png").convert("RGB") for lang in ("zh_CN", "en"))
    assert zh.size[0] == en.size[0] and zh.tobytes() != en.tobytes()  # same hand, other labels
    with pytest.raises(SystemExit):
        cli_main(["demo", "--out", str(tmp_path), "--lang", "fr"])
    assert "invalid choice: 'fr'" in capsys.readouterr().err
    with pytest.raises(SystemExit):  # render alone has its English words only
        cli_main(["demo", "--out", str(tmp_path), "--lang", "zh_CN"])
    assert "invalid choice: 'zh_CN'" in capsys.readouterr().err


def test_the_demo_help_names_its_program(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli_main(["demo", "--help"])
    assert capsys.readouterr().out.startswith("usage: python -m render demo")


def test_demo_views_are_seeded() -> None:
    a, b, c = demo_views(1), demo_views(1), demo_views(2)
    assert a == b
    assert a.table.seats[0].discards != c.table.seats[0].discards
    assert a.names == DEMO_NAMES


def test_demo_conserves_tiles(demo: Demo) -> None:
    """The hand-built scene is a possible deal: no tile appears more than four times."""
    seen: list[Tile] = []
    for s in demo.table.seats:
        seen += [d.tile for d in s.discards if not d.claimed]
        seen += list(s.revealed)
    for m in demo.hand.melds:
        assert m.tile is not None
        seen += [m.tile] * m.kind.size
    for m in demo.table.seats[1].melds:
        assert m.tile is not None
        seen += [m.tile] * m.kind.size
    seen += list(demo.hand.concealed)
    counts = np.bincount(np.array([int(t) for t in seen]), minlength=30)
    assert counts.max() <= 4


def demo_hands(demo: Demo) -> tuple[HandTiles, ...]:
    """Whole hands for the demo result: seat 0's from its hand view, seat 1's made up, the winner's."""
    assert demo.result.result is not None
    win = demo.result.result.winners[0]
    seat1 = (tuple(parse_tiles("1p1p2s3s4s6z6z7p8p9p")), demo.result.seats[1].melds)
    return ((*demo.hand.concealed, Tile.S9), demo.hand.melds), seat1, (win.concealed, win.melds)


def test_result_shows_every_other_hand_face_up(demo: Demo) -> None:
    hands = demo_hands(demo)
    plain = result_canvas(demo.result, demo.names, words=ZH_WORDS)
    c = result_canvas(demo.result, demo.names, hands=hands, words=ZH_WORDS)
    assert_photo_limits(c.image)
    assert plain.find("shown_hand") == [] and c.height > plain.height
    assert {p.seat for p in c.find("shown_hand")} == {0, 1}, "the winner (seat 2) is shown above"
    for seat in (0, 1):
        assert [p.tile for p in c.find("shown_hand", seat=seat)] == list(hands[seat][0])
        melds = c.find("shown_meld", seat=seat)
        assert len(melds) == sum(m.kind.size for m in hands[seat][1]), "melds flat, face up"
        # under the seat's row of the payments table: below its name, above the next seat's
        name = c.find("pay_name", seat=seat)[0].box
        following = c.find("pay_name", seat=seat + 1)[0].box
        assert all(name[3] <= p.box[1] and p.box[3] <= following[1] for p in c.find("shown_hand", seat=seat))
    for p in c.find("shown_hand"):
        assert p.state is TileState.NORMAL and p.tile is not None  # face up, not a back
    payments = c.find("payments")[0].box
    assert all(payments[1] <= p.box[1] and p.box[3] <= payments[3] for p in c.find("shown_hand"))
    with pytest.raises(ValueError, match="2 hands for 3 seats"):
        result_canvas(demo.result, demo.names, hands=hands[:2], words=ZH_WORDS)
    # a 荒庄: every seat but the 亮倒 one (already shown with its waits)
    d = result_canvas(demo.draw, demo.names, hands=hands, words=ZH_WORDS)
    assert {p.seat for p in d.find("shown_hand")} == {0, 1}


def test_final_table_marks_the_winning_tile(demo: Demo) -> None:
    assert demo.result.result is not None
    win = demo.result.result.winners[0]  # seat 2 wins on seat 1's 4p
    c = table_canvas(demo.result, demo.names, words=ZH_WORDS)
    (tile,) = c.find("win_tile")
    assert tile.seat == win.seat and tile.tile == win.win_tile and tile.state is TileState.HIGHLIGHT
    r, g, b = px(c, rim(tile))
    assert r > 230 and g > 160 and b < 130, "a gold rim"
    hand = c.find("revealed", seat=win.seat)
    assert [p.tile for p in hand] == list(win.concealed)
    wrapped = tile.box[1] >= hand[-1].box[3]  # the winning tile starts the next line
    assert wrapped or tile.box[0] - hand[-1].box[2] >= 8, "set apart"
    (won,) = c.find("win_discard")
    assert won.seat == win.from_seat and won.tile == win.win_tile and won.state is TileState.HIGHLIGHT
    assert near(px(c, rim(won)), GOLD)
    assert "胡" in [p.text for p in c.find("badge_text", seat=win.seat)]
    # during the hand: neither mark
    assert table_canvas(demo.table, demo.names, words=ZH_WORDS).find("win_tile") == []


def test_final_table_of_an_engine_discard_win_marks_the_discard_taken() -> None:
    """The engine leaves the won discard in the discarder's pond (unclaimed, no discard on the
    table any more): it is still the one marked."""
    import random

    from engine.game import ActionKind, legal_actions, public_view, replay, start, step
    from engine.rules import RuleSet

    rng = random.Random(2)
    for seed in range(300):
        state = replay(start(RuleSet(), 0, seed=f"s{seed}"))
        while state.result is None:
            acts = legal_actions(state, state.to_act()[0])
            wins = [a for a in acts if a.kind is ActionKind.WIN]
            state, _ = step(state, wins[0] if wins else rng.choice(acts))
        if state.result.outcome == "win" and state.result.winners[0].by == "discard":
            break
    else:
        pytest.fail("no discard win in 300 seeded hands")
    view = public_view(state)
    win = state.result.winners[0]
    c = table_canvas(view, ("A", "B", "C"), words=ZH_WORDS)
    (won,) = c.find("win_discard")
    assert (won.seat, won.tile) == (win.from_seat, win.win_tile)
    assert [p.tile for p in c.find("win_tile")] == [win.win_tile]
