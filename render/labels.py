"""Every string the pictures can draw, in one place (the source of truth for the font subset).

The shipped font (``render/fonts/``) is a subset made by ``render/fonts/build_subset.py`` from
:func:`font_charset`; ``tests/render/test_font.py`` asserts that every character listed here has a
glyph in it.  A character missing from the font would render as nothing, silently (docs/telegram.md §6),
so text that is not listed here (player names) goes through :func:`render.text.clean_name` first.

Pictures are drawn in one of :data:`LANGUAGES`: Chinese (``zh_CN``, the default: the module
constants below) or English (``en``, :data:`EN`); :func:`labels_for` gives a language's
:class:`Labels`.  The 番 names, Chinese and English, come from the engine's one 番 table
(:class:`engine.fans.Fan`), as the bot's do.  The English tile names are the bot's English button
texts (``kwx_bot.words.texts``), copied here because render imports nothing from the bot;
``tests/kwx_bot/words/test_texts.py`` asserts that the two agree.  Numbers use ASCII digits,
``+`` / ``−`` (U+2212) for point changes and ``×`` (U+00D7) for multipliers.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

from engine.fans import Fan
from engine.rules import Ruleset
from engine.tiles import MeldKind, Suit, Tile

__all__ = [
    "ACROSS",
    "AUTO",
    "BAOHU",
    "BY_LABEL",
    "CHAJIAO",
    "CHAJIAO_SEAT",
    "CHAJIAO_WHY",
    "DEALER",
    "DEALT_IN",
    "DRAW",
    "EN",
    "FAN_NAMES",
    "FROM",
    "GUANSI",
    "GUANSI_PAYS",
    "GUANSI_WHY",
    "HAND_MONEY",
    "KONG",
    "KONG_MONEY",
    "KONG_ROBBED",
    "LANGQI",
    "LANGUAGES",
    "LIANGDAO",
    "LIANGDAO_OF",
    "MATCH_TOTAL",
    "MINUS",
    "MULTIPLIER_LABEL",
    "NEXT_DEALER",
    "NEXT_SEAT",
    "NUMERALS",
    "PAYS",
    "PLACEHOLDER",
    "PREVIOUS",
    "PROTECTED",
    "REVIEW_EN",
    "REVIEW_ZH",
    "ROBBED",
    "SEAT_FALLBACK",
    "SHOWN",
    "STATS_EN",
    "STATS_ZH",
    "TGHZ_FILE",
    "TIMES",
    "TOTAL",
    "TRANSFER",
    "UNSEEN",
    "WAITS",
    "WALL",
    "WAN",
    "WIN",
    "ZH",
    "Labels",
    "ReviewLabels",
    "StatsLabels",
    "big5_common_hanzi",
    "fan_label",
    "font_charset",
    "gb2312_hanzi",
    "label_strings",
    "labels_for",
    "review_labels_for",
    "signed",
    "stats_labels_for",
    "tile_label",
]

# -- labels drawn on the pictures -------------------------------------------------------------------
DEALER = "庄"
"""Dealer badge (庄家, docs/rules.md §A2)."""
LIANGDAO = "亮倒"
"""Badge of a seat that has declared 亮倒 (docs/rules.md §A9)."""
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
"""Result column: win payments (or 荒庄 亮倒 penalties, docs/rules.md §A14.2)."""
KONG_MONEY = "杠钱"
"""Result column: kong money of the hand (docs/rules.md §A13)."""
TOTAL = "合计"
"""Result column: the sum of the two above."""
WIN = "胡牌"
"""Result header of a won hand."""
DRAW = "荒庄"
"""Result header of an exhaustive draw (docs/rules.md §A14)."""
BAOHU = "包胡"
"""Marker of a win paid entirely by the discarder (docs/rules.md §A9.7)."""
PAYS = "{name} {times}{m}"
"""Per-payer multiplier line item: a name, ``×`` and the uncapped multiplier M (docs/rules.md §A11)."""
SEAT_FALLBACK = "玩家{n}"
"""Name drawn for a seat whose name is empty or has no drawable character; ``n`` is seat + 1."""
BY_LABEL = {"self_draw": "自摸", "discard": "胡", "rob_kong": "抢杠胡"}
"""The winner's badge: how the win was made (``WinView.by``) -> label.  胡 on a discard, never 点炮:
点炮 names what the discarder did (:data:`DEALT_IN`)."""
FROM = "{name}放炮"
"""Beside the winner: who dealt in (the 点炮者 of a discard win)."""
DEALT_IN = "点炮"
"""Badge on the discarder of a discard win in the payments table (点炮, docs/glossary.md)."""
KONG_ROBBED = "被抢杠"
"""Badge on the seat whose 补杠 was robbed (抢杠胡, docs/rules.md §A6.6) in the payments table."""
LIANGDAO_OF = "{name}亮倒"
"""The 亮倒 番 chip of a win, naming whose 亮倒 doubled it (the winner's or a payer's, docs/rules.md §A9.6)."""
MULTIPLIER_LABEL = "各家倍数"
"""Before the per-payer multiplier chips: each chip is one payer's uncapped M (docs/rules.md §A11.1)."""
ROBBED = "抢{name}的杠"
"""The robbed seat of 抢杠胡."""
MATCH_TOTAL = "累计{v}"
"""Table picture, seat header: the player's running total at this table (points of 底金, all hands
so far); ``v`` is :func:`signed`."""
NEXT_DEALER = "下局庄家"
"""Result picture: the dealer of the next hand (docs/rules.md §A15)."""

CHAJIAO = "查叫"
"""Result header of a 卡心五 流局 with a 廊起 seat (查叫, docs/rules.md §B)."""
CHAJIAO_WHY = "流局：没有廊起的玩家付给每位廊起玩家其最大倍数"
"""Under the 查叫 header: who pays whom and why (docs/rules.md §B)."""
CHAJIAO_SEAT = "被查叫"
"""Badge on a seat that paid at 查叫 (every seat without 廊起)."""
GUANSI = "关死"
"""Result header of a 关死 (docs/rules.md §B), and the badge on the seat that caused it."""
GUANSI_WHY = "{name}关死：手中每张牌都是廊起玩家要的牌"
"""Under the 关死 header: what happened; ``name`` is the 关死 seat."""
GUANSI_PAYS = "付每位廊起玩家其最大倍数、其余每家2分；本局杠钱作废"
"""Second line under the 关死 header: his payments and the void kong money (docs/rules.md §B)."""
TRANSFER = "{payer} 付 {payee} {n}"
"""One payment of a 查叫 / 关死: ``payer`` pays ``payee`` ``n`` points of 底金."""
SHOWN = "亮出"
"""Hand picture legend: the gold bar over a tile says it is one of the tiles shown at a partial 亮倒 / 廊起."""
PROTECTED = "不能打"
"""Hand picture legend: the red bar over a tile says it may not be discarded -- a 廊起 / 亮倒 player waits
on it (protection, docs/rules.md §A9.8, §B)."""
DANGER = "打出包胡"
"""Hand picture legend (卡五星): a red-edged tile is one a 亮倒 player waits on -- discarding it is 包胡,
paying for every seat (docs/rules.md §A9.7)."""
NEXT_SEAT = "下家"
"""Hand picture, beside another seat's name: the seat that plays after the player (docs/rules.md §A2.3)."""
ACROSS = "对家"
"""Hand picture: the seat opposite the player (the middle one of three others; the only other of two)."""
PREVIOUS = "上家"
"""Hand picture: the seat that plays before the player, whose discards he may claim first."""

TIMES = "×"
MINUS = "−"
NUMERALS = "一二三四五六七八九"
"""Numerals on 万 tiles (variant rule sets, docs/rules.md §A1.1)."""
WAN = "萬"
"""The character on 万 tiles (traditional form, as printed on real tiles)."""

FAN_NAMES: tuple[str, ...] = (
    # every 番 the scoring may report: the engine's table (docs/rules.md §A10, §B, §C)
    *(fan.zh for fan in Fan),
    # common synonyms and house terms a rule set may name (drawn only if a caller passes them)
    "平胡", "小胡", "杠上花", "海底捞", "豪华七对", "超豪华七对", "全求人", "四归一", "三元七对", "对亮",
    "过胡", "飘", "买马", "数坎", "出子", "廊起", "顶穿", "自摸", "点炮", "一炮双响",
)  # fmt: skip
"""Chinese names the pictures can draw as 番: every :class:`~engine.fans.Fan` first, then synonyms
(the font subset covers them all)."""


def signed(points: int) -> str:
    """``+8``, ``−8`` (U+2212) or ``0``: a change of points of 底金."""
    if points > 0:
        return f"+{points}"
    if points < 0:
        return f"{MINUS}{-points}"
    return "0"


# -- languages ---------------------------------------------------------------------------------------

LANGUAGES = ("zh_CN", "en")
"""The languages pictures can be drawn in (the bot's catalogs, ``kwx_bot.settings.LANGUAGES``)."""


@dataclass(frozen=True, slots=True)
class Labels:
    """Every label of one language (see the Chinese module constants for what each one is).

    ``tiles`` holds 30 tile labels indexed by :class:`~engine.tiles.Tile`; ``fans`` maps a Chinese 番
    name (as the engine reports it) to this language's name (for English: the engine's table,
    :attr:`engine.fans.Fan.en`) -- a name missing from it is drawn in Chinese, as the bot's texts do;
    ``colon`` separates a label from its value (``下局庄家：X``).
    """

    lang: str
    dealer: str
    liangdao: str
    auto: str
    waits: str
    wall: str
    unseen: str
    kong: str
    hand_money: str
    kong_money: str
    total: str
    win: str
    draw: str
    baohu: str
    pays: str
    seat_fallback: str
    by_label: Mapping[str, str]
    from_: str
    robbed: str
    next_dealer: str
    dealt_in: str
    kong_robbed: str
    liangdao_of: str
    multiplier_label: str
    match_total: str
    colon: str
    tiles: tuple[str, ...]
    fans: Mapping[str, str]
    chajiao: str = CHAJIAO
    chajiao_why: str = CHAJIAO_WHY
    chajiao_seat: str = CHAJIAO_SEAT
    guansi: str = GUANSI
    guansi_why: str = GUANSI_WHY
    guansi_pays: str = GUANSI_PAYS
    transfer: str = TRANSFER
    shown: str = SHOWN
    protected: str = PROTECTED
    danger: str = DANGER
    next_seat: str = NEXT_SEAT
    across: str = ACROSS
    previous: str = PREVIOUS

    def tile(self, tile: Tile) -> str:
        """The short label of ``tile`` (``5条`` / ``5 Bam``)."""
        return self.tiles[tile]

    def fan(self, name: str) -> str:
        """The 番 ``name`` (Chinese, from the engine) in this language; unknown names unchanged."""
        return self.fans.get(name, name)

    def strings(self) -> tuple[str, ...]:
        """Every fixed string of this language (placeholders included)."""
        return (
            self.dealer, self.liangdao, self.auto, self.waits, self.wall, self.unseen, self.kong,
            self.hand_money, self.kong_money, self.total, self.win, self.draw, self.baohu, self.pays,
            self.seat_fallback, *self.by_label.values(), self.from_, self.robbed, self.next_dealer,
            self.dealt_in, self.kong_robbed, self.liangdao_of, self.multiplier_label, self.match_total,
            self.colon, *self.tiles, self.chajiao, self.chajiao_why, self.chajiao_seat, self.guansi,
            self.guansi_why, self.guansi_pays, self.transfer, self.shown, self.protected,
            self.danger, self.next_seat, self.across, self.previous, *self.fans.values(),
        )  # fmt: skip


ZH = Labels(
    lang="zh_CN",
    dealer=DEALER,
    liangdao=LIANGDAO,
    auto=AUTO,
    waits=WAITS,
    wall=WALL,
    unseen=UNSEEN,
    kong=KONG,
    hand_money=HAND_MONEY,
    kong_money=KONG_MONEY,
    total=TOTAL,
    win=WIN,
    draw=DRAW,
    baohu=BAOHU,
    pays=PAYS,
    seat_fallback=SEAT_FALLBACK,
    by_label=MappingProxyType(BY_LABEL),
    from_=FROM,
    robbed=ROBBED,
    next_dealer=NEXT_DEALER,
    dealt_in=DEALT_IN,
    kong_robbed=KONG_ROBBED,
    liangdao_of=LIANGDAO_OF,
    multiplier_label=MULTIPLIER_LABEL,
    match_total=MATCH_TOTAL,
    colon="：",
    tiles=tuple(t.chinese for t in Tile),
    fans=MappingProxyType({}),
)
"""Chinese labels (the module constants)."""

_EN_SUIT = {Suit.DOTS: "{n} Dot", Suit.BAMBOO: "{n} Bam", Suit.CHARACTERS: "{n} Crak"}
_EN_DRAGON = {Tile.WHITE: "White", Tile.GREEN: "Green", Tile.RED: "Red"}


def _en_tile(tile: Tile) -> str:
    if tile.suit is Suit.DRAGONS:
        return _EN_DRAGON[tile]
    return _EN_SUIT[tile.suit].format(n=tile.number)


EN = Labels(
    lang="en",
    dealer="D",
    liangdao="Laid down",
    auto="Auto-play",
    waits="Waits",
    wall="Wall: {n}",
    unseen="{n} left",
    kong="Kong {v}",
    hand_money="Payments",
    kong_money="Kongs",
    total="This hand",
    win="Win",
    draw="Draw",
    baohu="Pays for all",
    pays=PAYS,
    seat_fallback="Player {n}",
    by_label=MappingProxyType({"self_draw": "Self-draw", "discard": "Won on a discard", "rob_kong": "Robbed a kong"}),
    from_="{name} dealt in",
    robbed="robbed {name}'s kong",
    next_dealer="Next dealer",
    dealt_in="Dealt in",
    kong_robbed="Kong robbed",
    liangdao_of="Laid down by {name}",
    multiplier_label="Multiplier per payer",
    match_total="Match {v}",
    colon=": ",
    tiles=tuple(_en_tile(t) for t in Tile),
    chajiao="Ready check",
    chajiao_why="Draw: players who did not lay down pay each player who did their top multiplier",
    chajiao_seat="Pays",
    guansi="Shut in",
    guansi_why="{name} is shut in: every tile in hand is a tile that a player who laid down waits on",
    guansi_pays="pays each player who laid down their top multiplier and 2 to each other player; kong money void",
    transfer="{payer} pays {payee} {n}",
    shown="Shown",
    protected="Protected",
    danger="Pays for all if discarded",
    next_seat="Next",
    across="Across",
    previous="Previous",
    fans=MappingProxyType({fan.zh: fan.en for fan in Fan}),
)
"""English labels: tile names as the bot's English discard buttons (``5 Bam``, ``Red``); one English
word per concept, the player column of docs/glossary.md ("Laid down", "Ready check", "Shut in",
"Pays for all", "Auto-play"; "This hand" is the hand's sum, never "total"); no pinyin
(``tests/test_glossary.py``)."""

_BY_LANG = {"zh_CN": ZH, "en": EN}


LANGQI = "廊起"
"""卡心五's name for the declaration (docs/rules.md §B): the badge that reads 亮倒 in 卡五星."""
_LANGQI = {"zh_CN": (LANGQI, "{name}廊起"), "en": ("Laid down", "Laid down by {name}")}
"""卡心五's badge and 番 chip words per language: Chinese names 廊起, English reads "laid down" in both
games, as the bot's texts (docs/glossary.md)."""


def labels_for(lang: str, game: str = Ruleset.KAWUXING) -> Labels:
    """The labels of ``lang`` (one of :data:`LANGUAGES`) for ``game`` (a :class:`engine.rules.Ruleset`
    value, ``"kawuxing"`` or ``"kaxinwu"``): under 卡心五 the Chinese declaration is called 廊起, not
    亮倒 (English says "laid down" in both, docs/glossary.md).  Raises ValueError for another language."""
    try:
        lb = _BY_LANG[lang]
    except KeyError:
        raise ValueError(f"no picture labels for language {lang!r}: use one of {', '.join(LANGUAGES)}") from None
    if game == Ruleset.KAXINWU:
        return _langqi_labels(lang)
    return lb


@functools.cache
def _langqi_labels(lang: str) -> Labels:
    word, of = _LANGQI[lang]
    return replace(_BY_LANG[lang], liangdao=word, liangdao_of=of)


@dataclass(frozen=True, slots=True)
class StatsLabels:
    """The words of the ``/stats`` picture (:mod:`render.stats`) in one language.

    Placeholders: ``{n}`` an integer, ``{decl}`` the declaration's name (亮倒 / 廊起, from
    :func:`labels_for` of each game played), ``{fan}`` a 番 name.  Every label starts with a capital
    letter, a digit or a hanzi, so its ink is at least a capital's height (the phone bar of
    :mod:`render.stats`).
    """

    lang: str
    season: str
    all_seasons: str
    current_seasons: str
    groups: str
    one_group: str
    hands_count: str
    one_hand: str
    points: str
    hands: str
    win_rate: str
    self_draw: str
    deal_in: str
    declared: str
    declared_won: str
    average: str
    best: str
    top_fan: str
    fan_count: str
    more: str
    chart: str
    sep: str = " · "

    def strings(self) -> tuple[str, ...]:
        """Every fixed string of this language (placeholders included)."""
        return (
            self.season, self.all_seasons, self.current_seasons, self.groups, self.one_group,
            self.hands_count, self.one_hand, self.points, self.hands, self.win_rate, self.self_draw,
            self.deal_in, self.declared, self.declared_won, self.average, self.best, self.top_fan,
            self.fan_count, self.more, self.chart, self.sep,
        )  # fmt: skip


STATS_ZH = StatsLabels(
    lang="zh_CN",
    season="第{n}赛季",
    all_seasons="全部赛季",
    current_seasons="各群本赛季",
    groups="{n}个群",
    one_group="1个群",
    hands_count="{n}局",
    one_hand="1局",
    points="总分",
    hands="局数",
    win_rate="胡牌率",
    self_draw="其中自摸",
    deal_in="点炮率",
    declared="{decl}率",
    declared_won="{decl}后胡",
    average="平均每局",
    best="最大倍数",
    top_fan="最常见番",
    fan_count="{fan} {n}次",
    more="还有{n}位玩家 · /stats me 看自己的",
    chart="累计得分",
)
"""Chinese words of the ``/stats`` picture."""

STATS_EN = StatsLabels(
    lang="en",
    season="Season {n}",
    all_seasons="All seasons",
    current_seasons="Current seasons",
    groups="{n} groups",
    one_group="1 group",
    hands_count="{n} hands",
    one_hand="1 hand",
    points="Points",
    hands="Hands",
    win_rate="Win rate",
    self_draw="Self-draw",
    deal_in="Deal-in",
    declared="{decl}",
    declared_won="Won",
    average="Avg/hand",
    best="Largest",
    top_fan="Top pattern",
    fan_count="{fan} ({n})",
    more="{n} more · /stats me shows yours",
    chart="Running total",
)
"""English words of the ``/stats`` picture (``Self-draw``: the share of the wins; ``Won``: the share
of the hands with a declaration that were won)."""

_STATS_BY_LANG = {"zh_CN": STATS_ZH, "en": STATS_EN}


@dataclass(frozen=True, slots=True)
class ReviewLabels:
    """The words of the ``/review`` picture (:mod:`render.review`) in one language.

    ``acts``: the word of each :class:`engine.game.ActionKind` value (``{decl}``: the declaration's
    name, 亮倒 / 廊起, from :func:`labels_for` of the game); ``played`` / ``suggested``: the two
    columns; ``moment``: a decision's heading (``{n}``: its number in the picture, ``{wall}``: the
    tiles left in the wall); ``loss``: the estimated loss (``{v}``: points, one decimal);
    ``on_table``: before the discard a claim is about."""

    lang: str
    acts: Mapping[str, str]
    played: str
    suggested: str
    moment: str
    loss: str
    on_table: str

    def strings(self) -> tuple[str, ...]:
        """Every fixed string (placeholders included)."""
        return (*self.acts.values(), self.played, self.suggested, self.moment, self.loss, self.on_table)


REVIEW_ZH = ReviewLabels(
    lang="zh_CN",
    acts=MappingProxyType(
        {
            "discard": "打出",
            "liangdao": "{decl}打出",
            "pong": "碰",
            "kong": "杠",
            "concealed_kong": "暗杠",
            "added_kong": "补杠",
            "win": "胡",
            "pass": "过",
        }
    ),
    played="你的选择",
    suggested="AI 建议",
    moment="{n}. 牌墙剩 {wall} 张",
    loss="约损失 {v} 分",
    on_table="桌上：",
)
"""Chinese words of the ``/review`` picture."""

REVIEW_EN = ReviewLabels(
    lang="en",
    acts=MappingProxyType(
        {
            "discard": "Discard",
            "liangdao": "Lay down",
            "pong": "Pong",
            "kong": "Kong",
            "concealed_kong": "Concealed kong",
            "added_kong": "Added kong",
            "win": "Win",
            "pass": "Pass",
        }
    ),
    played="You played",
    suggested="AI suggests",
    moment="{n}. Wall: {wall}",
    loss="About {v} points lost",
    on_table="On the table:",
)
"""English words of the ``/review`` picture (the glossary's player words: "lay down", "pong" …)."""

_REVIEW_BY_LANG = {"zh_CN": REVIEW_ZH, "en": REVIEW_EN}


def review_labels_for(lang: str) -> ReviewLabels:
    """The ``/review`` picture's words in ``lang`` (one of :data:`LANGUAGES`); ValueError otherwise."""
    try:
        return _REVIEW_BY_LANG[lang]
    except KeyError:
        raise ValueError(f"no picture labels for language {lang!r}: use one of {', '.join(LANGUAGES)}") from None


def stats_labels_for(lang: str) -> StatsLabels:
    """The ``/stats`` picture's words in ``lang`` (one of :data:`LANGUAGES`); ValueError otherwise."""
    try:
        return _STATS_BY_LANG[lang]
    except KeyError:
        raise ValueError(f"no picture labels for language {lang!r}: use one of {', '.join(LANGUAGES)}") from None


def tile_label(tile: Tile, lang: str = "zh_CN") -> str:
    """Short label of a tile: ``5条``, ``3筒``, ``中`` in Chinese, ``5 Bam``, ``3 Dot``, ``Red`` in
    English -- the same text as the bot's discard buttons in that language."""
    return labels_for(lang).tile(tile)


def fan_label(name: str, lang: str = "zh_CN") -> str:
    """A 番 name from the engine (Chinese, or a :class:`~engine.fans.Fan`) in ``lang``: the engine
    table's English name in English; a name the table lacks stays as it is."""
    return labels_for(lang).fan(name)


def label_strings() -> tuple[str, ...]:
    """Every fixed string the pictures draw (placeholders removed), for the font-coverage test."""
    fixed = [
        DEALER, LIANGDAO, AUTO, WAITS, WALL, UNSEEN, KONG, HAND_MONEY, KONG_MONEY, TOTAL, WIN, DRAW,
        BAOHU, PAYS, SEAT_FALLBACK, FROM, ROBBED, NEXT_DEALER, DEALT_IN, KONG_ROBBED, LIANGDAO_OF, MULTIPLIER_LABEL,
        MATCH_TOTAL, TIMES, MINUS, NUMERALS, WAN, LANGQI, *(w for pair in _LANGQI.values() for w in pair),
        CHAJIAO, CHAJIAO_WHY, CHAJIAO_SEAT, GUANSI, GUANSI_WHY,
        GUANSI_PAYS, TRANSFER, SHOWN, PROTECTED,
        *BY_LABEL.values(), *FAN_NAMES, *(tile_label(t) for t in Tile), *(k.chinese for k in MeldKind),
        "中發白", *(s for lb in _BY_LANG.values() for s in lb.strings()),
        *(s for lb in _STATS_BY_LANG.values() for s in lb.strings()),
        *(s for lb in _REVIEW_BY_LANG.values() for s in lb.strings()),
    ]  # fmt: skip
    out = []
    for s in fixed:
        for ph in ("{n}", "{v}", "{name}", "{times}", "{m}", "{payer}", "{payee}", "{decl}", "{fan}", "{wall}"):
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


PLACEHOLDER = "□"
"""Drawn instead of a character the shipped font lacks (an emoji, a rare hanzi): a neutral white
square (U+25A1), so a name keeps its shape and nothing vanishes (:func:`render.text.clean_name`)."""

TGHZ_FILE = "tghz2013.txt"
"""``render/fonts/tghz2013.txt``: the 8,105 hanzi of the 通用规范汉字表 (2013), one line, in code point
order, from the Unicode Unihan database's ``kTGHZ2013`` field (``render/fonts/build_subset.py``)."""


def tghz_hanzi() -> str:
    """The 8,105 hanzi of the 通用规范汉字表 (Table of General Standard Chinese Characters, 2013), the
    mainland standard that includes the name characters GB 2312 lacks (喆, 堃, 昇, 玥 …)."""
    from importlib import resources

    return resources.files("render").joinpath("fonts", TGHZ_FILE).read_text(encoding="utf-8").strip()


def big5_common_hanzi() -> str:
    """The 5,401 hanzi of Big5 level 1 (常用字, 0xA440-0xC67E): the common traditional characters of
    Taiwan and Hong Kong names."""
    out = []
    for row in range(0xA4, 0xC7):
        for col in (*range(0x40, 0x7F), *range(0xA1, 0xFF)):
            try:
                ch = bytes((row, col)).decode("big5")
            except UnicodeDecodeError:
                continue
            if "\u4e00" <= ch <= "\u9fff":
                out.append(ch)
    return "".join(out)


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
    punctuation, the :data:`PLACEHOLDER`, and the hanzi of people's names: GB 2312
    (:func:`gb2312_hanzi`), the 通用规范汉字表 (:func:`tghz_hanzi`) and Big5's common traditional
    characters (:func:`big5_common_hanzi`), about 10,200 hanzi."""
    hanzi = set(gb2312_hanzi()) | set(tghz_hanzi()) | set(big5_common_hanzi())
    chars = set("".join(label_strings())) | set(_PUNCTUATION) | set(_LATIN_EXTRA) | hanzi | {PLACEHOLDER}
    for lo, hi in _NAME_RANGES:
        chars.update(chr(c) for c in range(lo, hi + 1))
    chars.discard("\xad")  # soft hyphen: invisible by definition
    return "".join(sorted(chars))
