"""The words the pictures draw: their shape (:class:`Labels`, :class:`StatsLabels`, one
:class:`PictureWords` per language), their English source texts (:data:`ENGLISH`), and the font's
character set.

Render is pure and knows no catalog: every drawing function takes its words as a
:class:`PictureWords` value.  The English texts here are the msgids of the bot's gettext catalogs
(``kwx_bot/locale``, message context ``picture``); the bot fills a language's value from its
catalog (``kwx_bot.words.pictures.picture_words``), so a translator finds every word the bot writes
or draws in one ``.po`` file (docs/architecture.md, "Words").  Without the bot, render draws English
(:data:`ENGLISH`, the default of every drawing function).  Tile names are the bot's discard-button
texts and 番 names the engine's one table (:class:`engine.fans.Fan`: Chinese readers get its Chinese
name, every other language its English one), as in the bot's texts.

The shipped font (``render/fonts/``) is a subset made by ``render/fonts/build_subset.py`` from
:func:`font_charset`: every English word, glyph and 番 name listed here, and the hanzi of names
(which cover every Chinese word of the catalog; ``tests/render/test_font.py`` asserts that each
catalog word has its glyphs).  A character missing from the font would render as nothing, silently
(docs/telegram.md §6), so text that is not listed here (player names) goes through
:func:`render.text.clean_name` first.  Numbers use ASCII digits, ``+`` / ``−`` (U+2212) for point
changes and ``×`` (U+00D7) for multipliers.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from engine.fans import Fan
from engine.rules import Ruleset
from engine.tiles import MeldKind, Suit, Tile

__all__ = [
    "ENGLISH",
    "FAN_NAMES",
    "MINUS",
    "NUMERALS",
    "PER_GAME",
    "PLACEHOLDER",
    "SEAT_FALLBACK",
    "TGHZ_FILE",
    "TIMES",
    "WAN",
    "Labels",
    "PictureWords",
    "ReviewLabels",
    "StatsLabels",
    "big5_common_hanzi",
    "font_charset",
    "gb2312_hanzi",
    "label_strings",
    "signed",
]

# -- glyphs: the same in every language ------------------------------------------------------------
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


# -- the words' shape -------------------------------------------------------------------------------


def _map_words(value: object, words: tuple[str, ...], translate: Callable[[str], str]) -> dict[str, Any]:
    """The fields named in ``words`` of a dataclass ``value``, each passed through ``translate``
    (a mapping field: its values)."""
    out: dict[str, Any] = {}
    for name in words:
        field = getattr(value, name)
        if isinstance(field, Mapping):
            out[name] = MappingProxyType({k: translate(v) for k, v in field.items()})
        else:
            out[name] = translate(field)
    return out


@dataclass(frozen=True, slots=True)
class Labels:
    """Every word of the table, hand, reveal and result pictures in one language, for one game.

    ``tiles`` holds 30 tile labels indexed by :class:`~engine.tiles.Tile`; ``fans`` maps a Chinese 番
    name (as the engine reports it) to this language's name -- a name missing from it is drawn as
    it is (Chinese), as the bot's texts do; ``colon`` separates a label from its value
    (``下局庄家：X``) and ``list_sep`` the names of a list (``A、B`` / ``A, B``).  Placeholders:
    ``{n}`` an integer, ``{v}`` :func:`signed` points, ``{name}`` / ``{payer}`` / ``{payee}`` a
    seat's name, ``{times}`` the :data:`TIMES` sign and ``{m}`` a multiplier.  What each word is:
    the msgid's comment in :data:`ENGLISH` and docs/glossary.md.
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
    list_sep: str
    chajiao: str
    chajiao_why: str
    chajiao_seat: str
    guansi: str
    guansi_why: str
    guansi_pays: str
    transfer: str
    transfer_more: str
    shown: str
    protected: str
    danger: str
    next_seat: str
    across: str
    previous: str
    tiles: tuple[str, ...]
    fans: Mapping[str, str]

    WORDS = (
        "dealer", "liangdao", "auto", "waits", "wall", "unseen", "kong", "hand_money", "kong_money",
        "total", "win", "draw", "baohu", "pays", "seat_fallback", "by_label", "from_", "robbed",
        "next_dealer", "dealt_in", "kong_robbed", "liangdao_of", "multiplier_label", "match_total",
        "colon", "list_sep", "chajiao", "chajiao_why", "chajiao_seat", "guansi", "guansi_why",
        "guansi_pays", "transfer", "transfer_more", "shown", "protected", "danger", "next_seat", "across",
        "previous",
    )  # fmt: skip
    """The fields a catalog translates (every field but ``lang``, ``tiles`` and ``fans``)."""

    def tile(self, tile: Tile) -> str:
        """The short label of ``tile`` (``5条`` / ``5 Bam``)."""
        return self.tiles[tile]

    def fan(self, name: str) -> str:
        """The 番 ``name`` (Chinese, from the engine) in this language; unknown names unchanged."""
        return self.fans.get(name, name)

    def words(self) -> tuple[str, ...]:
        """The translatable words (:data:`WORDS`, a mapping's values in order)."""
        out: list[str] = []
        for name in self.WORDS:
            field = getattr(self, name)
            out.extend(field.values() if isinstance(field, Mapping) else (field,))
        return tuple(out)

    def strings(self) -> tuple[str, ...]:
        """Every fixed string of this language (placeholders included): the words, tiles and 番 names."""
        return (*self.words(), *self.tiles, *self.fans.values())

    def translated(
        self, lang: str, translate: Callable[[str], str], tiles: tuple[str, ...], fans: Mapping[str, str]
    ) -> Labels:
        """These words in ``lang``: each of :data:`WORDS` passed through ``translate`` (the English
        text, a msgid, to the language's), with that language's ``tiles`` and ``fans``."""
        if len(tiles) != len(Tile):
            raise ValueError(f"{len(tiles)} tile labels, want {len(Tile)}")
        return dataclasses.replace(
            self, lang=lang, tiles=tiles, fans=MappingProxyType(dict(fans)), **_map_words(self, self.WORDS, translate)
        )


@dataclass(frozen=True, slots=True)
class StatsLabels:
    """The words of the ``/stats`` picture (:mod:`render.stats`) in one language.

    Placeholders: ``{n}`` an integer, ``{decl}`` the declaration's name (亮倒 / 廊起, from
    :attr:`Labels.liangdao` of each game played), ``{fan}`` a 番 name.  Every label starts with a
    capital letter, a digit or a hanzi, so its ink is at least a capital's height (the phone bar of
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
    sep: str

    WORDS = (
        "season", "all_seasons", "current_seasons", "groups", "one_group", "hands_count", "one_hand",
        "points", "hands", "win_rate", "self_draw", "deal_in", "declared", "declared_won", "average",
        "best", "top_fan", "fan_count", "more", "chart", "sep",
    )  # fmt: skip
    """The fields a catalog translates (every field but ``lang``)."""
    GIVEN = MappingProxyType({"declared": ("decl",), "declared_won": ("decl",)})
    """The placeholders the picture fills in a field whether or not its English text uses them
    (English "Won" says nothing of the declaration; Chinese "{decl}后胡" names it)."""

    def strings(self) -> tuple[str, ...]:
        """Every fixed string of this language (placeholders included)."""
        return tuple(getattr(self, name) for name in self.WORDS)

    def translated(self, lang: str, translate: Callable[[str], str]) -> StatsLabels:
        """These words in ``lang``, each passed through ``translate`` (English text to the language's)."""
        return dataclasses.replace(self, lang=lang, **_map_words(self, self.WORDS, translate))


@dataclass(frozen=True, slots=True)
class ReviewLabels:
    """The words of the ``/review`` picture (:mod:`render.review`) in one language.

    ``acts``: the word of each :class:`engine.game.ActionKind` value (``{decl}``, which a language may
    use in the ``liangdao`` act: the declaration's name, :attr:`Labels.liangdao` of the game);
    ``played`` / ``suggested``: the two columns; ``moment``: a decision's heading (``{n}``: its number
    in the picture, ``{wall}``: the tiles left in the wall); ``loss``: the estimated loss (``{v}``:
    points, one decimal); ``on_table``: before the discard a claim is about."""

    lang: str
    acts: Mapping[str, str]
    played: str
    suggested: str
    moment: str
    loss: str
    on_table: str

    WORDS = ("played", "suggested", "moment", "loss", "on_table")
    """The fields a catalog translates besides every act's word."""
    GIVEN = MappingProxyType({"liangdao": ("decl",)})
    """The placeholders the picture fills in an act's word whether or not its English text uses them
    (English "Lay down" says nothing of the game; Chinese "{decl}打出" names its declaration)."""

    def strings(self) -> tuple[str, ...]:
        """Every fixed string (placeholders included)."""
        return (*self.acts.values(), *(getattr(self, name) for name in self.WORDS))

    def translated(self, lang: str, translate: Callable[[str], str]) -> ReviewLabels:
        """These words in ``lang``, each passed through ``translate`` (English text to the language's)."""
        acts = MappingProxyType({kind: translate(text) for kind, text in self.acts.items()})
        return dataclasses.replace(self, lang=lang, acts=acts, **_map_words(self, self.WORDS, translate))


PER_GAME = ("liangdao", "liangdao_of")
"""The :class:`Labels` fields that name the declaration, which each game may name its own way
(Chinese: 卡五星's 亮倒, 卡心五's 廊起, docs/rules.md §B; English: "laid down" in both)."""


@dataclass(frozen=True, slots=True)
class PictureWords:
    """Every word the pictures draw in one language: the labels of each game (:meth:`labels`) and
    the ``/stats`` and ``/review`` pictures' words.  The value every drawing function takes (``words``)."""

    lang: str
    kawuxing: Labels
    kaxinwu: Labels
    stats: StatsLabels
    review: ReviewLabels

    def labels(self, game: str = Ruleset.KAWUXING) -> Labels:
        """The labels for ``game`` (a :class:`engine.rules.Ruleset` value): under 卡心五 the
        declaration's own name (:data:`PER_GAME`)."""
        return self.kaxinwu if game == Ruleset.KAXINWU else self.kawuxing


_EN_SUIT = {Suit.DOTS: "{n} Dot", Suit.BAMBOO: "{n} Bam", Suit.CHARACTERS: "{n} Crak"}
_EN_DRAGON = {Tile.WHITE: "White", Tile.GREEN: "Green", Tile.RED: "Red"}


def _en_tile(tile: Tile) -> str:
    if tile.suit is Suit.DRAGONS:
        return _EN_DRAGON[tile]
    return _EN_SUIT[tile.suit].format(n=tile.number)


SEAT_FALLBACK = "Player {n}"
"""Name drawn for a seat whose name is empty or has no drawable character; ``n`` is seat + 1 (the
English word; a language's is :attr:`Labels.seat_fallback`)."""

_EN_LABELS = Labels(
    lang="en",
    dealer="D",  # the dealer's badge (庄家, docs/rules.md §A2)
    liangdao="Laid down",  # the badge of a seat that declared 亮倒 / 廊起 (docs/rules.md §A9, §B)
    auto="Auto-play",  # the tag of a seat on auto-play (托管)
    waits="Waits",  # before a wait set (听牌)
    wall="Wall: {n}",  # tiles left in the wall
    unseen="{n} left",  # under a wait tile in the hand picture: copies the player has not seen
    kong="Kong {v}",  # a seat header's kong money of the hand so far (points of 底金)
    hand_money="Payments",  # result column: win payments (or 荒庄 亮倒 penalties, docs/rules.md §A14.2)
    kong_money="Kongs",  # result column: kong money of the hand (docs/rules.md §A13)
    total="This hand",  # result column: the sum of the two above
    win="Win",  # result header of a won hand
    draw="Draw",  # result header of an exhaustive draw (荒庄, docs/rules.md §A14)
    baohu="Pays for all",  # a win paid entirely by the discarder (包胡, docs/rules.md §A9.7)
    pays="{name} {times}{m}",  # a payer's uncapped multiplier M (docs/rules.md §A11)
    seat_fallback=SEAT_FALLBACK,
    # the winner's badge: how the win was made (WinView.by); 胡 on a discard, never 点炮
    by_label=MappingProxyType({"self_draw": "Self-draw", "discard": "Won on a discard", "rob_kong": "Robbed a kong"}),
    from_="{name} dealt in",  # beside the winner: who dealt in (点炮)
    robbed="robbed {name}'s kong",  # the robbed seat of 抢杠胡
    next_dealer="Next dealer",  # result picture: the dealer of the next hand (docs/rules.md §A15)
    dealt_in="Dealt in",  # the discarder's badge in the payments table (点炮)
    kong_robbed="Kong robbed",  # the badge of the seat whose 补杠 was robbed (docs/rules.md §A6.6)
    liangdao_of="Laid down by {name}",  # the 亮倒 番 chip, naming whose 亮倒 doubled it (§A9.6)
    multiplier_label="Multiplier per payer",  # before the per-payer multiplier chips (§A11.1)
    match_total="Match {v}",  # table picture: the player's running total at this table
    colon=": ",  # between a label and its value
    list_sep=", ",  # between the names of a list
    chajiao="Ready check",  # result header of a 卡心五 流局 with a 廊起 seat (查叫, docs/rules.md §B)
    chajiao_why="Draw: players who did not lay down pay each player who did their top multiplier",
    chajiao_seat="Pays",  # the badge of a seat that paid at 查叫
    guansi="Shut in",  # result header of a 关死 (docs/rules.md §B) and the badge of its seat
    guansi_why="{name} is shut in: every tile in hand is a tile that a player who laid down waits on",
    guansi_pays="pays each player who laid down their top multiplier and 2 to each other player; kong money void",
    transfer="{payer} pays {payee}: {n}",  # one payment of a 查叫 / 关死
    transfer_more="{payee}: {n}",  # the same payer's next payment, after list_sep
    shown="Shown",  # hand legend: a tile shown at a partial 亮倒 / 廊起
    protected="Protected",  # hand legend: a tile that may not be discarded (docs/rules.md §A9.8, §B)
    danger="Pays for all if discarded",  # hand legend (卡五星): discarding it is 包胡 (§A9.7)
    next_seat="Next",  # hand picture: the seat that plays after the player (下家, §A2.3)
    across="Across",  # hand picture: the seat opposite the player (对家)
    previous="Previous",  # hand picture: the seat that plays before the player (上家)
    tiles=tuple(_en_tile(t) for t in Tile),
    fans=MappingProxyType({fan.zh: fan.en for fan in Fan}),
)

_EN_STATS = StatsLabels(
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
    self_draw="Self-draw",  # the share of the wins
    deal_in="Deal-in",
    declared="{decl}",  # the share of the hands with a declaration
    declared_won="Won",  # the share of the hands with a declaration that were won
    average="Avg/hand",
    best="Largest",
    top_fan="Top pattern",
    fan_count="{fan} ({n})",
    more="{n} more · /stats me shows yours",
    chart="Running total",
    sep=" · ",
)

_EN_REVIEW = ReviewLabels(
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

ENGLISH = PictureWords(lang="en", kawuxing=_EN_LABELS, kaxinwu=_EN_LABELS, stats=_EN_STATS, review=_EN_REVIEW)
"""The pictures' English words, the source texts (msgids) of every language's: tile names as the
bot's English discard buttons (``5 Bam``, ``Red``); one English word per concept, the player column
of docs/glossary.md ("Laid down", "Ready check", "Shut in", "Pays for all", "Auto-play"; "This hand"
is the hand's sum, never "total"); no pinyin (``tests/test_glossary.py``); "laid down" in both games."""


def label_strings() -> tuple[str, ...]:
    """Every fixed string the pictures draw in English, and the glyphs and Chinese names every
    language draws (placeholders removed), for the font subset and its coverage test."""
    fixed = [
        TIMES, MINUS, NUMERALS, WAN, *FAN_NAMES, *(t.chinese for t in Tile), *(k.chinese for k in MeldKind),
        "中發白", *ENGLISH.kawuxing.strings(), *ENGLISH.kaxinwu.strings(), *ENGLISH.stats.strings(),
        *ENGLISH.review.strings(),
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
