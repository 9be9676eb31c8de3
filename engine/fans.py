"""The hand patterns (番) of one reading, one small unit per 番 (docs/rules.md §A10, Appendix 2 step 3).

Each unit is ``count(reading, hand, rules) -> int``: how many times its 番 applies to that reading
(0 = not at all; more than 1 only for 四归 under ``sigui_multi``).  Its multiplier comes from
``rules.values``; a reading's pattern product is the product of ``value ** count`` over all units
(docs/rules.md §A10: "以上各种胡牌类型之间可以累加（相乘）").  Situational factors (杠上开花, 杠上炮, 抢杠胡,
海底) and 亮倒 do not depend on the reading and live in :mod:`engine.scoring`.

Exclusions (docs/rules.md §A10.1–§A10.3): 七对-family readings get only 七对/龙/双龙/三龙七对, 清一色 and (option)
三元七对; never 碰碰胡, 四归一, 卡五星, 大/小三元, 手抓一.  手抓一 replaces 碰碰胡 unless
``szy_with_pph``.  龙七对 etc. are totals (they replace 七对).

Decisions where docs/rules.md is open (also in the unit docstrings):

* 四归 counting (F2′, ``sigui_multi``): by default at most one 明四归一 and one 暗四归一 per reading;
  with ``sigui_multi`` every qualifying tile counts (each multiplies).
* ``ansigui_requires_pung`` applies to every 暗四归一, also to the 清一色/全频道 held quads (F2′): the
  four copies must be read as a concealed pung plus one tile elsewhere.
* 三元七对 (option ``sanyuan_qidui``, A10.3): a 七对-family reading holding all three dragons.  All three
  as 4-of-a-kinds -> 大三元七对, otherwise 小三元七对 (D41: three dragon pairs -> 小三元七对 ×8).  Their
  values are totals for a plain 七对 (replacing 七对's ×4); on a 龙/双龙/三龙 reading they multiply by
  ``value // qidui`` (×2 and ×4 with the defaults).
* 卡五星 applies to the 5 of any suit in play (5p, 5s, and 5m when ``suits`` includes m).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass

from .readings import Reading, splits
from .rules import FanValues, KwxRule, RuleSet, Ruleset, SiguiScope
from .tiles import DRAGONS, Meld, MeldKind, Tile

__all__ = ["KAXINWU_FANS", "PATTERNS", "Fan", "FanList", "Hand", "Pattern", "reading_fans"]


@dataclass(frozen=True, slots=True)
class Hand:
    """Facts about a winning hand shared by all its readings.

    ``counts13``: 30 counts of the concealed tiles before the winning tile (13 - 3k tiles);
    ``counts14``: the same plus the winning tile; ``waits``: the 13-tile hand's complete wait set
    (only needed for ``kwx_rule = strict_single_wait``; None when not computed).
    """

    melds: tuple[Meld, ...]
    win_tile: Tile
    counts13: tuple[int, ...]
    counts14: tuple[int, ...]
    waits: tuple[Tile, ...] | None = None
    revealed: bool = False  # the winner has 亮倒 (his concealed hand is face up, E#36)
    hidden: tuple[int, ...] = ()  # 卡心五: 30 counts of a 廊起 winner's face-down tiles (docs/rules.md §B)
    shown: tuple[int, ...] | None = None  # 卡心五: 30 counts of a 廊起 winner's shown tiles; None = no 廊起

    @property
    def qingyise(self) -> bool:
        """All 14 tiles, melds included, of one suit and no dragons (docs/rules.md §F12)."""
        kinds = [t for t in Tile if self.counts14[t]] + [m.tile for m in self.melds]
        suits = {t.suit for t in kinds}
        return len(suits) == 1 and not kinds[0].is_dragon


class Fan(enum.StrEnum):
    """Every 番 and factor a scored win may list (docs/rules.md §A10, §B, §C): the one table of
    their names and values.

    A member's value is its Chinese name, the form the engine has always reported and that event
    logs, ledgers and the command line store (so it is the stable spelling on the wire: ``Fan("卡五星")
    is Fan.KAWUXING``; a member compares equal to that string).  Each row: Chinese name, English name
    (:attr:`en`, the bot's and the pictures' English label) and the :class:`~engine.rules.FanValues`
    field holding its multiplier (:attr:`values_key`; None for 屁胡, ×1, and 过胡翻番, ×2 per declined
    win).  :attr:`id` is the member name in lower case (``kawuxing``), a stable ASCII key.
    The value a factor had in one win is in :attr:`engine.scoring.WinScore.fan_values`.
    """

    en: str
    values_key: str | None

    PIHU = "屁胡", "Plain win", None
    PENGPENG = "碰碰胡", "All pongs", "pengpeng"
    MINGSIGUI = "明四归一", "Exposed four-in-one", "mingsigui"
    ANSIGUI = "暗四归一", "Concealed four-in-one", "ansigui"
    QIDUI = "七对", "Seven pairs", "qidui"
    LONGQIDUI = "龙七对", "Dragon seven pairs", "longqidui"
    SHUANGLONG = "双龙七对", "Double dragon seven pairs", "shuanglong"
    SANLONG = "三龙七对", "Triple dragon seven pairs", "sanlong"
    XIAOSANYUAN_QIDUI = "小三元七对", "Little three dragons seven pairs", "xiaosanyuan_qidui"
    DASANYUAN_QIDUI = "大三元七对", "Big three dragons seven pairs", "dasanyuan_qidui"
    DASANYUAN = "大三元", "Big three dragons", "dasanyuan"
    XIAOSANYUAN = "小三元", "Little three dragons", "xiaosanyuan"
    QINGYISE = "清一色", "Pure one suit", "qingyise"
    SHOUZHUAYI = "手抓一", "Single wait after four melds", "shouzhuayi"
    KAWUXING = "卡五星", "Ka Wu Xing (closed 5)", "kawuxing"
    KAXINWU = "卡心五", "Ka Xin Wu (closed 5)", "kawuxing"
    GANGKAI = "杠上开花", "Win on a kong replacement", "gangkai"
    GANGPAO = "杠上炮", "Win on a discard after a kong", "gangpao"
    QIANGGANG = "抢杠胡", "Robbing a kong", "qianggang"
    HAIDILAO = "海底捞月", "Last tile self-draw", "haidilao"
    HAIDIPAO = "海底炮", "Last discard win", "haidipao"
    GUOHU_FANFAN = "过胡翻番", "Passed win doubled", None
    LIANGDAO = "亮倒", "Laid down", "liangdao"

    def __new__(cls, zh: str, en: str, values_key: str | None) -> Fan:
        member = str.__new__(cls, zh)
        member._value_ = zh
        member.en = en
        member.values_key = values_key
        return member

    @staticmethod
    def of(name: str) -> Fan:
        """The 番 whose Chinese name is ``name`` (a member is returned as it is); raises ValueError
        for an unknown name.  (``Fan(name)`` does the same; this form is typed.)"""
        try:
            return _FAN_BY_NAME[name]
        except KeyError:
            raise ValueError(f"unknown 番 {name!r}") from None

    @property
    def zh(self) -> str:
        """The Chinese name (``卡五星``)."""
        return str(self.value)

    @property
    def id(self) -> str:
        """A stable ASCII key: the member name in lower case (``kawuxing``, ``guohu_fanfan``)."""
        return self.name.lower()

    def base_value(self, values: FanValues) -> int:
        """The multiplier ``values`` give this 番 on its own (1 for 屁胡 and 过胡翻番, whose value in a
        win depends on the hand: see :attr:`engine.scoring.WinScore.fan_values`)."""
        return 1 if self.values_key is None else int(getattr(values, self.values_key))


_FAN_BY_NAME: dict[str, Fan] = {fan.value: fan for fan in Fan}


def _quan(hand: Hand, rules: RuleSet) -> bool:
    """True when the 全频道 四归 logic (docs/rules.md §F2′) applies: 清一色 hands, or every hand under ``quan``."""
    return rules.sigui_scope is SiguiScope.QUAN or hand.qingyise


def _limit(n: int, rules: RuleSet) -> int:
    return n if rules.sigui_multi else min(n, 1)


def shouzhuayi(reading: Reading, hand: Hand, rules: RuleSet) -> int:
    """手抓一 (全求人), docs/rules.md §F13: four melds, one concealed tile, won on its pair (单吊)."""
    return int(not reading.qidui and len(reading.melds) == 4)


def pengpeng(reading: Reading, hand: Hand, rules: RuleSet) -> int:
    """碰碰胡, docs/rules.md §F1: a standard reading whose four sets are all pungs/kongs.

    Not counted together with 手抓一 (F13 replaces it, E#7) unless ``szy_with_pph``.
    """
    if reading.qidui or reading.runs:
        return 0
    if shouzhuayi(reading, hand, rules) and not rules.szy_with_pph:
        return 0
    return 1


def mingsigui(reading: Reading, hand: Hand, rules: RuleSet) -> int:
    """明四归一, docs/rules.md §F2 / §F2′: the winning tile is the 4th copy of one of W's exposed 碰.

    With the 全频道 logic (清一色, or ``sigui_scope = quan``) also any 碰 whose 4th copy is in the
    concealed hand.  Under ``liangdao_revealed_sigui_ming`` a 亮倒 winner's 暗四归一 tiles count here
    instead (E#36).  Never in a 七对 reading.  At most one unless ``sigui_multi``.
    """
    if reading.qidui:
        return 0
    quan = _quan(hand, rules)
    tiles = {
        m.tile
        for m in reading.melds
        if m.kind is MeldKind.PONG and (m.tile == hand.win_tile or (quan and hand.counts14[m.tile] >= 1))
    }
    if _an_becomes_ming(hand, rules):
        tiles |= _ansigui_tiles(reading, hand, rules)
    return _limit(len(tiles), rules)


def ansigui(reading: Reading, hand: Hand, rules: RuleSet) -> int:
    """暗四归一, docs/rules.md §F3 / §F2′: W held 3 concealed copies of the winning tile and wins the 4th.

    By self-draw or discard ("逮炮也算").  With the 全频道 logic (清一色, or ``sigui_scope = quan``)
    also any concealed 4-of-a-kind used in the hand.  Never in a 七对 reading (龙七对 does not add it).
    ``ansigui_requires_pung`` (E#10): the reading must hold that tile as a concealed pung.
    At most one unless ``sigui_multi``.
    """
    if reading.qidui or _an_becomes_ming(hand, rules):
        return 0
    return _limit(len(_ansigui_tiles(reading, hand, rules)), rules)


def _ansigui_tiles(reading: Reading, hand: Hand, rules: RuleSet) -> set[Tile]:
    """Tiles that make a 暗四归一 in a standard reading (see :func:`ansigui`)."""
    tiles = {hand.win_tile} if hand.counts13[hand.win_tile] == 3 else set()
    if _quan(hand, rules):
        tiles |= {t for t in Tile if hand.counts14[t] == 4}
    if rules.ansigui_requires_pung:
        tiles = {t for t in tiles if t in reading.pungs}
    return tiles


def _an_becomes_ming(hand: Hand, rules: RuleSet) -> bool:
    """E#36 option ``liangdao_revealed_sigui_ming``: a 亮倒 winner's 暗四归一 counts as 明四归一."""
    return hand.revealed and rules.liangdao_revealed_sigui_ming


def _sanyuan_qidui_kind(reading: Reading, rules: RuleSet) -> str | None:
    """'da' / 'xiao' when option ``sanyuan_qidui`` is on and the 七对 reading holds all three dragons."""
    if not (rules.sanyuan_qidui and reading.qidui):
        return None
    held = [reading.pairs.count(d) for d in DRAGONS]
    if min(held) == 0:
        return None
    return "da" if min(held) == 2 else "xiao"


def qidui(reading: Reading, hand: Hand, rules: RuleSet) -> int:
    """七对, docs/rules.md §F4: seven pairs, no melds, no 4-of-a-kind (replaced by 小/大三元七对 when those apply)."""
    return int(reading.qidui and reading.longs == 0 and _sanyuan_qidui_kind(reading, rules) is None)


def longqidui(reading: Reading, hand: Hand, rules: RuleSet) -> int:
    """龙七对 (豪华七对), docs/rules.md §F5: 七对 with one 4-of-a-kind (not kong'd); total value, replaces 七对."""
    return int(reading.qidui and reading.longs == 1)


def shuanglong(reading: Reading, hand: Hand, rules: RuleSet) -> int:
    """双龙七对 (超豪华), docs/rules.md §F6: 七对 with two 4-of-a-kinds; total value; cap exception (A11.5)."""
    return int(reading.qidui and reading.longs == 2)


def sanlong(reading: Reading, hand: Hand, rules: RuleSet) -> int:
    """三龙七对, docs/rules.md §F6′: 七对 with three 4-of-a-kinds; total value (``sanlong_value``)."""
    return int(reading.qidui and reading.longs == 3)


def xiaosanyuan_qidui(reading: Reading, hand: Hand, rules: RuleSet) -> int:
    """小三元七对, docs/rules.md §A10.3 option ``sanyuan_qidui``: a 七对 reading holding all three dragons (D41)."""
    return int(_sanyuan_qidui_kind(reading, rules) == "xiao")


def dasanyuan_qidui(reading: Reading, hand: Hand, rules: RuleSet) -> int:
    """大三元七对, docs/rules.md §A10.3 option ``sanyuan_qidui``: a 七对 reading with all three dragons as
    4-of-a-kinds."""
    return int(_sanyuan_qidui_kind(reading, rules) == "da")


def dasanyuan(reading: Reading, hand: Hand, rules: RuleSet) -> int:
    """大三元, docs/rules.md §F7: three dragon pungs/kongs (standard readings only)."""
    if reading.qidui:
        return 0
    return int(sum(1 for t in reading.pung_tiles() if t.is_dragon) == 3)


def xiaosanyuan(reading: Reading, hand: Hand, rules: RuleSet) -> int:
    """小三元, docs/rules.md §F8: two dragon pungs/kongs and the pair is the third dragon."""
    if reading.qidui or reading.pair is None or not reading.pair.is_dragon:
        return 0
    return int(sum(1 for t in reading.pung_tiles() if t.is_dragon) == 2)


def qingyise(reading: Reading, hand: Hand, rules: RuleSet) -> int:
    """清一色, docs/rules.md §F12: all 14 tiles (melds included) of one suit, no dragons; any reading."""
    return int(hand.qingyise)


def kawuxing(reading: Reading, hand: Hand, rules: RuleSet) -> int:
    """卡五星, docs/rules.md §F16 / §A10.2: the winning 5 is the middle of a 4-5-6 run of this reading.

    Generous rule (default, E#1): it is enough that this reading has the run; other waits do not
    matter.  ``kwx_rule = strict_single_wait``: the 13-tile hand's complete wait set must also be
    exactly {that 5}.  Never in a 七对 reading.
    """
    win = hand.win_tile
    if reading.qidui or win.is_dragon or win.number != 5 or Tile(win - 1) not in reading.runs:
        return 0
    if rules.kwx_rule is KwxRule.STRICT_SINGLE_WAIT and hand.waits != (win,):
        return 0
    return 1


def _total_or_relative(total: Callable[[FanValues], int]) -> Callable[[Reading, FanValues], int]:
    """三元七对 value: the total on a plain 七对, ``total // qidui`` on a 龙-family reading."""

    def value(reading: Reading, v: FanValues) -> int:
        return total(v) if reading.longs == 0 else max(1, total(v) // max(1, v.qidui))

    return value


FanList = tuple[tuple[Fan, int], ...]
"""(番, the value it multiplies by) pairs, in docs/rules.md §A10 table order; a 番 that counts more
than once (四归 under ``sigui_multi``) repeats."""


@dataclass(frozen=True, slots=True)
class Pattern:
    """One reading 番: its :class:`Fan`, ``count`` unit and ``value`` for a reading."""

    fan: Fan
    count: Callable[[Reading, Hand, RuleSet], int]
    value: Callable[[Reading, FanValues], int]

    @property
    def name(self) -> str:
        """The Chinese name (``self.fan.zh``)."""
        return self.fan.zh


def _plain(fan: Fan) -> Callable[[Reading, FanValues], int]:
    """The value of a 番 whose value is its :class:`FanValues` field."""

    def value(reading: Reading, v: FanValues) -> int:
        return fan.base_value(v)

    return value


PATTERNS: tuple[Pattern, ...] = (
    Pattern(Fan.PENGPENG, pengpeng, _plain(Fan.PENGPENG)),
    Pattern(Fan.MINGSIGUI, mingsigui, _plain(Fan.MINGSIGUI)),
    Pattern(Fan.ANSIGUI, ansigui, _plain(Fan.ANSIGUI)),
    Pattern(Fan.QIDUI, qidui, _plain(Fan.QIDUI)),
    Pattern(Fan.LONGQIDUI, longqidui, _plain(Fan.LONGQIDUI)),
    Pattern(Fan.SHUANGLONG, shuanglong, _plain(Fan.SHUANGLONG)),
    Pattern(Fan.SANLONG, sanlong, _plain(Fan.SANLONG)),
    Pattern(Fan.XIAOSANYUAN_QIDUI, xiaosanyuan_qidui, _total_or_relative(lambda v: v.xiaosanyuan_qidui)),
    Pattern(Fan.DASANYUAN_QIDUI, dasanyuan_qidui, _total_or_relative(lambda v: v.dasanyuan_qidui)),
    Pattern(Fan.DASANYUAN, dasanyuan, _plain(Fan.DASANYUAN)),
    Pattern(Fan.XIAOSANYUAN, xiaosanyuan, _plain(Fan.XIAOSANYUAN)),
    Pattern(Fan.QINGYISE, qingyise, _plain(Fan.QINGYISE)),
    Pattern(Fan.SHOUZHUAYI, shouzhuayi, _plain(Fan.SHOUZHUAYI)),
    Pattern(Fan.KAWUXING, kawuxing, _plain(Fan.KAWUXING)),
)
"""Every reading pattern, in docs/rules.md §A10 table order (the order of ``WinScore.fan_values``)."""


def _product(fans: FanList) -> int:
    product = 1
    for _, value in fans:
        product *= value
    return product


KAXINWU_FANS = (Fan.KAXINWU, Fan.QIDUI, Fan.LONGQIDUI, Fan.QINGYISE, Fan.GANGKAI, Fan.GANGPAO, Fan.HAIDIPAO)
"""The 番 a 卡心五 hand can score (docs/rules.md §B): its patterns (:func:`_kaxinwu_fans`) and the
situational 杠上花 / 杠上炮 / 海底炮 (the last only where its value is above 1); no 抢杠胡, no 海底捞月."""


def _kaxinwu_fans(reading: Reading, hand: Hand, rules: RuleSet) -> FanList:
    """卡心五's patterns (docs/rules.md §B, §E#27, §E#28): 七对 or 龙七对, 清一色, 卡心五 (strict by
    default: the only wait is the 5, read as 4_6; for a 廊起 hand the shown shape decides: its waits
    and its 4_6, :func:`_shown_closed_five`).  A
    4-of-a-kind makes 龙七对 only when none of its copies is face down in a 廊起 hand (the three shown
    and the 4th the winning tile, or all four shown): otherwise it counts as two pairs.  Two or three
    4-of-a-kinds are one 龙七对 (双龙/三龙 are not 卡心五 patterns).  平胡 has no 番."""
    v = rules.values
    fans: list[tuple[Fan, int]] = []
    if reading.qidui:
        hidden_longs = sum(1 for t, n in enumerate(hand.hidden) if n and hand.counts14[t] == 4)
        fan = Fan.LONGQIDUI if reading.longs - hidden_longs >= 1 else Fan.QIDUI
        fans.append((fan, fan.base_value(v)))
    if qingyise(reading, hand, rules):
        fans.append((Fan.QINGYISE, Fan.QINGYISE.base_value(v)))
    if kawuxing(reading, hand, rules) and _shown_closed_five(hand):
        fans.append((Fan.KAXINWU, Fan.KAXINWU.base_value(v)))
    return tuple(fans)


def _shown_closed_five(hand: Hand) -> bool:
    """卡心五 of a 廊起 hand (docs/rules.md §B): the shown shape must be the closed 4_6 on the winning 5 —
    the shown tiles hold that 4 and 6, and without them split into complete sets and the pairs the
    hidden tiles leave (one pair in all), as the shown shape's waits are read (§E#48).  A 5 won on a
    shown 55 or a shown single 5 is no 卡心五, even when the hidden tiles could make a 4-5-6 with it.
    True when the winner has no 廊起 (``shown`` None)."""
    if hand.shown is None:
        return True
    win = hand.win_tile
    rest = list(hand.shown)
    rest[win - 1] -= 1
    rest[win + 1] -= 1
    hidden = hand.hidden or (0,) * len(rest)
    return (splits(hidden, 0) and splits(rest, 1)) or (splits(hidden, 1) and splits(rest, 0))


def reading_fans(reading: Reading, hand: Hand, rules: RuleSet) -> tuple[FanList, int]:
    """The 番 of one reading as (番, value) pairs (a 番 repeats when it counts more than once) and the
    product of their values."""
    if rules.ruleset is Ruleset.KAXINWU:
        fans = _kaxinwu_fans(reading, hand, rules)
        return fans, _product(fans)
    out: list[tuple[Fan, int]] = []
    for pattern in PATTERNS:
        n = pattern.count(reading, hand, rules)
        if n:
            out.extend([(pattern.fan, pattern.value(reading, rules.values))] * n)
    fans = tuple(out)
    return fans, _product(fans)
