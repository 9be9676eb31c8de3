"""Every string the pictures can draw, in one place (the source of truth for the font subset).

The shipped font (``render/fonts/``) is a subset made by ``render/fonts/build_subset.py`` from
:func:`font_charset`; ``tests/render/test_font.py`` asserts that every character listed here has a
glyph in it.  A character missing from the font would render as nothing, silently (TELEGRAM.md §6),
so text that is not listed here (player names) goes through :func:`render.text.clean_name` first.

Pictures show Chinese labels (the players are Chinese-speaking); numbers use ASCII digits,
``+`` / ``−`` (U+2212) for point changes and ``×`` (U+00D7) for multipliers.
"""

from __future__ import annotations

from engine.tiles import MeldKind, Tile

__all__ = [
    "AUTO",
    "BAOHU",
    "BY_LABEL",
    "DEALER",
    "DRAW",
    "FAN_NAMES",
    "FROM",
    "HAND_MONEY",
    "KONG",
    "KONG_MONEY",
    "LIANGDAO",
    "MINUS",
    "NEXT_DEALER",
    "NUMERALS",
    "PAYS",
    "ROBBED",
    "SEAT_FALLBACK",
    "TIMES",
    "TOTAL",
    "UNSEEN",
    "WAITS",
    "WALL",
    "WAN",
    "WIN",
    "font_charset",
    "label_strings",
    "signed",
    "tile_label",
]

# -- labels drawn on the pictures -------------------------------------------------------------------
DEALER = "庄"
"""Dealer badge (庄家, RULES A2)."""
LIANGDAO = "亮倒"
"""Badge of a seat that has declared 亮倒 (RULES A9)."""
AUTO = "托管"
"""Tag of a seat on auto-play (托管)."""
WAITS = "听"
"""Prefix of a wait set (听牌)."""
WALL = "剩余{n}张"
"""Tiles left in the wall; ``n`` is an integer."""
UNSEEN = "{n}张"
"""Under a wait tile in the hand picture: copies not visible to the player (4 minus those seen)."""
KONG = "杠{v}"
"""Kong money of the hand so far in a seat header; ``v`` is :func:`signed` points of 底金."""
HAND_MONEY = "胡牌"
"""Result column: win payments (or 荒庄 亮倒 penalties, RULES A14.2)."""
KONG_MONEY = "杠钱"
"""Result column: kong money of the hand (RULES A13)."""
TOTAL = "合计"
"""Result column: the sum of the two above."""
WIN = "胡牌"
"""Result header of a won hand."""
DRAW = "荒庄"
"""Result header of an exhaustive draw (RULES A14)."""
BAOHU = "包胡"
"""Marker of a win paid entirely by the discarder (RULES A9.7)."""
PAYS = "{name} {times}{m}"
"""Per-payer multiplier line item: a name, ``×`` and the uncapped multiplier M (RULES A11)."""
SEAT_FALLBACK = "玩家{n}"
"""Name drawn for a seat whose name is empty or has no drawable character; ``n`` is seat + 1."""
BY_LABEL = {"self_draw": "自摸", "discard": "点炮", "rob_kong": "抢杠"}
"""How a win was made (``WinView.by``) -> label."""
FROM = "{name}放炮"
"""The discarder of a discard win (点炮者)."""
ROBBED = "抢{name}的杠"
"""The robbed seat of 抢杠胡."""
NEXT_DEALER = "下局庄家"
"""Result picture: the dealer of the next hand (RULES A15)."""

TIMES = "×"
MINUS = "−"
NUMERALS = "一二三四五六七八九"
"""Numerals on 万 tiles (variant rule sets, RULES A1.1)."""
WAN = "萬"
"""The character on 万 tiles (traditional form, as printed on real tiles)."""

FAN_NAMES: tuple[str, ...] = (
    # RULES A10, the standard 番 and situational factors
    "屁胡", "碰碰胡", "明四归一", "暗四归一", "七对", "龙七对", "双龙七对", "三龙七对", "大三元",
    "小三元", "杠上开花", "杠上炮", "抢杠胡", "清一色", "手抓一", "海底捞月", "海底炮", "亮倒", "卡五星",
    # RULES §B / §C house options and common synonyms a rule set may name
    "卡心五", "平胡", "小胡", "杠上花", "海底捞", "豪华七对", "超豪华七对", "全求人", "四归一",
    "大三元七对", "小三元七对", "三元七对", "对亮", "过胡", "飘", "买马", "数坎", "出子", "廊起", "顶穿",
    "自摸", "点炮", "一炮双响", "过胡翻番",
)  # fmt: skip
"""Chinese names of every 番 the scoring may report (RULES A10, §B, §C)."""


def signed(points: int) -> str:
    """``+8``, ``−8`` (U+2212) or ``0``: a change of points of 底金."""
    if points > 0:
        return f"+{points}"
    if points < 0:
        return f"{MINUS}{-points}"
    return "0"


def tile_label(tile: Tile) -> str:
    """Short label of a tile: ``5条``, ``3筒``, ``中`` -- the same text as the bot's discard buttons."""
    return tile.chinese


def label_strings() -> tuple[str, ...]:
    """Every fixed string the pictures draw (placeholders removed), for the font-coverage test."""
    fixed = [
        DEALER, LIANGDAO, AUTO, WAITS, WALL, UNSEEN, KONG, HAND_MONEY, KONG_MONEY, TOTAL, WIN, DRAW,
        BAOHU, PAYS, SEAT_FALLBACK, FROM, ROBBED, NEXT_DEALER, TIMES, MINUS, NUMERALS, WAN,
        *BY_LABEL.values(), *FAN_NAMES, *(tile_label(t) for t in Tile), *(k.chinese for k in MeldKind),
        "中發白",
    ]  # fmt: skip
    out = []
    for s in fixed:
        for ph in ("{n}", "{v}", "{name}", "{times}", "{m}"):
            s = s.replace(ph, "")
        out.append(s)
    return tuple(out)


# Characters for names and free text: printable ASCII, Latin-1 letters, pinyin vowels with tones,
# basic Cyrillic and Greek, common CJK punctuation (the rest of Latin Extended-A is not in Noto CJK).
_NAME_RANGES: tuple[tuple[int, int], ...] = (
    (0x20, 0x7E),
    (0xA0, 0xFF),
    (0x1CD, 0x1DC),  # ǎ ǐ ǒ ǔ ǖ ǘ ǚ ǜ
    (0x391, 0x3A1),
    (0x3A3, 0x3A9),
    (0x3B1, 0x3C9),
    (0x401, 0x401),
    (0x410, 0x44F),
    (0x451, 0x451),
)
_PUNCTUATION = "…·—–‘’“”•、。，：；！？（）【】《》「」～"
_LATIN_EXTRA = "ĀāĒēĚěĪīŌōŪūŃńŇňŒœ"  # pinyin vowels with tones (with _NAME_RANGES' ǎ ǐ ǒ ǔ ü...)


def gb2312_hanzi() -> str:
    """The 6,763 hanzi of GB 2312 (levels 1 and 2): the characters of nearly every Chinese name."""
    out = []
    for row in range(0xB0, 0xF8):
        for col in range(0xA1, 0xFF):
            try:
                out.append(bytes((row, col)).decode("gb2312"))
            except UnicodeDecodeError:
                continue
    return "".join(out)


def font_charset() -> str:
    """All characters the shipped font must cover, sorted: labels, digits, Latin/Cyrillic letters,
    punctuation, and the GB 2312 hanzi so that Chinese player names render (:func:`gb2312_hanzi`)."""
    chars = set("".join(label_strings())) | set(_PUNCTUATION) | set(_LATIN_EXTRA) | set(gb2312_hanzi())
    for lo, hi in _NAME_RANGES:
        chars.update(chr(c) for c in range(lo, hi + 1))
    chars.discard("\xad")  # soft hyphen: invisible by definition
    return "".join(sorted(chars))
