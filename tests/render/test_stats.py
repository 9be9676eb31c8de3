"""The ``/stats`` picture (:mod:`render.stats`): readable on a phone — shown 330 px wide every text
is at least 11 px tall and the picture at most 1.4 times as tall as wide —, read from the recorded
placements, in both languages, for every shape of sheet."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from render import encode, render_stats
from render.stats import (
    MAX_ASPECT,
    MAX_PLAYERS,
    PHONE_WIDTH,
    PLAYER_COLOURS,
    PlayerStats,
    StatsSheet,
    percent,
    signed_average,
    stats_canvas,
)

from .test_pictures import assert_photo_limits, ink_colour
from .words import LANGUAGES, W


def player(name: str, points: int, hands: int = 40, axis: int = 40, **counts: int) -> PlayerStats:
    """A player who played ``hands`` of the ``axis`` hands, ending on ``points``."""
    step = max(1, axis // max(1, hands))
    running = tuple((min(axis, 1 + i * step), round(points * (i + 1) / hands)) for i in range(hands))
    facts = {"wins": hands // 3, "self_draws": hands // 9, "dealt_in": hands // 5, "declared": hands // 4,
             "declared_won": hands // 8, "best_multiplier": 16, "best_fans": ("清一色", "碰碰胡"),
             "top_fan": "碰碰胡", "top_fan_count": hands // 6} | counts  # fmt: skip
    return PlayerStats(name, hands=hands, points=points, running=running, **facts)  # type: ignore[arg-type]


FOUR = (player("Ann", 120), player("Benjamin Franklin Roosevelt", 40), player("猫咪🐱", -60), player("👩‍👩‍👧‍👦", -100))
SHEETS = {
    "one": StatsSheet("Mahjong night", (player("Ann", 12, 10, 10),), 10, season=1),
    "three": StatsSheet("Mahjong night", FOUR[:3], 40, season=2),
    "four": StatsSheet("麻将之夜🀄", FOUR, 40, season=3),
    "six": StatsSheet("Mahjong night", (*FOUR, player("Eve", -10, 3), player("Fay", 10, 1)), 40, all_seasons=True),
    "both games": StatsSheet("Mahjong night", FOUR[:3], 40, season=1, games=("kawuxing", "kaxinwu")),
    "langqi": StatsSheet("卡心五群", FOUR[:2], 40, season=1, games=("kaxinwu",)),
    "huge": StatsSheet(
        "Mahjong night",
        (
            player("Ann", 123456, 10_000, 10_000),
            player("Ben", -99999, 9_000, 10_000),
            player("Cat", -23457, 9_500, 10_000),
        ),
        10_000,
        season=9,
    ),
    "mine": StatsSheet(
        "Ann",
        (player("Ann", -7, 30, 30, best_fans=("清一色", "碰碰胡", "杠上开花", "海底捞月")),),
        30,
        groups=3,
        personal=True,
    ),
    "mine all": StatsSheet(
        "👩‍👩‍👧‍👦", (player("👩‍👩‍👧‍👦", 5, 1, 1, wins=1, self_draws=1),), 1, all_seasons=True, groups=1, personal=True
    ),
    "no wins": StatsSheet(
        "Mahjong night",
        (player("Ann", -9, 5, 5, wins=0, self_draws=0, best_multiplier=0, top_fan=None, declared=0, declared_won=0),),
        5,
        season=1,
    ),
}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("kind", sorted(SHEETS))
def test_every_text_is_readable_on_a_phone_and_the_picture_fits_one(kind: str, lang: str) -> None:
    c = stats_canvas(SHEETS[kind], W(lang))
    width, height = c.image.size
    assert height <= MAX_ASPECT * width, (kind, width, height)
    assert_photo_limits(c.image)
    least = 11 * width / PHONE_WIDTH  # 11 px tall when Telegram shows the picture 330 px wide
    texts = [p for p in c.placed if p.text]
    assert texts
    for p in texts:
        left, top, right, bottom = p.box
        assert bottom - top >= least, (kind, lang, p.role, p.text, bottom - top)
        assert left >= 0 and right <= width and top >= 0 and bottom <= height, (p.role, p.text, p.box)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_numbers_stand_in_their_players_columns(lang: str) -> None:
    ann = PlayerStats("Ann", hands=4, wins=2, self_draws=1, dealt_in=1, declared=2, declared_won=1, points=19,
                      best_multiplier=8, best_fans=("碰碰胡",), top_fan="碰碰胡", top_fan_count=2,
                      running=((1, 16), (2, 12), (3, 20), (4, 19)))  # fmt: skip
    cat = PlayerStats("Cat", hands=2, dealt_in=1, points=-8, running=((3, -8), (4, -8)))
    c = stats_canvas(StatsSheet("Night", (ann, cat), 4, season=1), W(lang))
    values = {seat: [p.text for p in c.find("value", seat)] for seat in (0, 1)}
    assert values[0][:8] == ["+19", "4", "50%", "50%", "25%", "50%", "50%", "+4.8"]
    assert values[0][8] == "×8"  # two columns: the multiplier alone
    assert values[1][:4] == ["−8", "2", "0%", "50%"] and values[1][4] == "0%"
    # Cat has no win: no self-draw share, no declaration won, no largest hand, no 番 — dashes, not numbers
    assert len(c.find("no_value", 1)) == 4 and not c.find("no_value", 0)
    assert [p.text for p in c.find("name")] == ["Ann", "Cat"]
    lines = c.find("chart_line")
    assert [p.seat for p in lines] == [0, 1]
    # Ann's line reaches higher than Cat's, which stays below zero (higher = fewer pixels from the top)
    assert lines[0].box[1] < lines[1].box[1]
    assert {c.image.getpixel(p.centre) for p in c.find("key")} == set(PLAYER_COLOURS[:2])


def test_many_players_show_the_first_four_and_say_how_many_more() -> None:
    for lang, lb in (("en", W("en").stats), ("zh_CN", W("zh_CN").stats)):
        c = stats_canvas(SHEETS["six"], W(lang))
        assert len(c.find("name")) == MAX_PLAYERS == len(c.find("chart_line"))
        (more,) = c.find("more")
        assert more.text == lb.more.format(n=2)
    assert not stats_canvas(SHEETS["four"], W("en")).find("more")


def test_numbers_too_wide_for_four_columns_get_fewer_wider_ones() -> None:
    sheet = dataclasses.replace(SHEETS["huge"], players=(player("Dan", 1234567, 10), *SHEETS["huge"].players))
    c = stats_canvas(sheet, W("en"))
    assert len(c.find("name")) < 4 and c.find("more")
    assert {"+1234567", "+123456"} <= {p.text for p in c.find("value")}


def test_names_with_emoji_and_long_names_draw() -> None:
    c = stats_canvas(SHEETS["four"], W("en"))
    names = [p.text for p in c.find("name")]
    assert (
        names[0] == "Ann" and names[1].endswith("…") and names[2] == "猫咪🐱"
    )  # the emoji is drawn (render/fonts/KwxEmoji)
    assert names[3] == "👩"  # an emoji sequence draws as its first emoji (render/text.py)
    assert c.find("title")[0].text == "麻将之夜🀄"


def test_a_players_own_record_names_the_player_once_and_shows_the_largest_hands_fans() -> None:
    c = stats_canvas(SHEETS["mine"], W("zh_CN"))
    assert not c.find("name") and c.find("title")[0].text == "Ann"
    assert c.find("subtitle")[0].text == "3个群 · 各群本赛季 · 30局"
    texts = [p.text for p in c.find("value")]
    assert texts[-3:] == ["×16 · 清一色 · 碰碰胡", "杠上开花 · 海底捞月", "碰碰胡 5次"]  # two lines, then the 番
    en = stats_canvas(SHEETS["mine"], W("en"))
    assert [p.text for p in en.find("subtitle")] == ["3 groups · Current seasons", "30 hands"]  # broken between parts
    assert [p.text for p in en.find("value")][-3:] == [
        "×16 · Pure one suit",
        "All pongs · Win on a ko…",
        "All pongs (5)",
    ]


@pytest.mark.parametrize(
    ("kind", "lang", "label"),
    [
        ("three", "zh_CN", "亮倒率"),
        ("langqi", "zh_CN", "廊起率"),
        ("both games", "zh_CN", "亮倒/廊起率"),
        ("langqi", "en", "Laid down"),  # English says "lay down" in both games (docs/glossary.md)
        ("both games", "en", "Laid down"),
    ],
)
def test_the_declaration_is_named_for_the_games_played(kind: str, lang: str, label: str) -> None:
    assert label in [p.text for p in stats_canvas(SHEETS[kind], W(lang)).find("label")]


def test_the_running_total_of_ten_thousand_hands_draws_quickly_enough_and_small() -> None:
    img = render_stats(SHEETS["huge"], W("en"))
    assert len(encode(img, "palette")) < 120_000


def test_rounding_of_the_shown_numbers() -> None:
    assert percent(Fraction(1, 3)) == "33%" and percent(Fraction(1, 8)) == "13%" and percent(None) is None
    assert percent(Fraction(0)) == "0%" and percent(Fraction(1)) == "100%"
    assert signed_average(Fraction(19, 4)) == "+4.8" and signed_average(Fraction(-1, 4)) == "−0.3"
    assert signed_average(Fraction(1, 100)) == "0.0" and signed_average(Fraction(-12)) == "−12.0"
    assert signed_average(None) is None


def test_an_unknown_language_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="'fr'"):
        render_stats(SHEETS["one"], W("fr"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_points_are_red_for_a_gain_in_chinese_and_green_in_english(lang: str) -> None:
    c = stats_canvas(SHEETS["three"], W(lang))
    ann, cat = c.find("value", 0)[0], c.find("value", 2)[0]
    assert (ann.text, cat.text) == ("+120", "−60")
    assert (ink_colour(c, ann), ink_colour(c, cat)) == (("red", "green") if lang == "zh_CN" else ("green", "red"))
