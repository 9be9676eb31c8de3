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

from collections.abc import Callable
from dataclasses import dataclass

from .readings import Reading
from .rules import FanValues, KwxRule, RuleSet, Ruleset, SiguiScope
from .tiles import DRAGONS, Meld, MeldKind, Tile

__all__ = ["PATTERNS", "Hand", "Pattern", "reading_fans"]


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

    @property
    def qingyise(self) -> bool:
        """All 14 tiles, melds included, of one suit and no dragons (docs/rules.md §F12)."""
        kinds = [t for t in Tile if self.counts14[t]] + [m.tile for m in self.melds]
        suits = {t.suit for t in kinds}
        return len(suits) == 1 and not kinds[0].is_dragon


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


@dataclass(frozen=True, slots=True)
class Pattern:
    """One 番: Chinese ``name`` (docs/rules.md §A10 table), ``count`` unit and ``value`` for a reading."""

    name: str
    count: Callable[[Reading, Hand, RuleSet], int]
    value: Callable[[Reading, FanValues], int]


PATTERNS: tuple[Pattern, ...] = (
    Pattern("碰碰胡", pengpeng, lambda r, v: v.pengpeng),
    Pattern("明四归一", mingsigui, lambda r, v: v.mingsigui),
    Pattern("暗四归一", ansigui, lambda r, v: v.ansigui),
    Pattern("七对", qidui, lambda r, v: v.qidui),
    Pattern("龙七对", longqidui, lambda r, v: v.longqidui),
    Pattern("双龙七对", shuanglong, lambda r, v: v.shuanglong),
    Pattern("三龙七对", sanlong, lambda r, v: v.sanlong),
    Pattern("小三元七对", xiaosanyuan_qidui, _total_or_relative(lambda v: v.xiaosanyuan_qidui)),
    Pattern("大三元七对", dasanyuan_qidui, _total_or_relative(lambda v: v.dasanyuan_qidui)),
    Pattern("大三元", dasanyuan, lambda r, v: v.dasanyuan),
    Pattern("小三元", xiaosanyuan, lambda r, v: v.xiaosanyuan),
    Pattern("清一色", qingyise, lambda r, v: v.qingyise),
    Pattern("手抓一", shouzhuayi, lambda r, v: v.shouzhuayi),
    Pattern("卡五星", kawuxing, lambda r, v: v.kawuxing),
)
"""Every reading pattern, in docs/rules.md §A10 table order (the order of ``WinScore.fans``)."""


def _kaxinwu_fans(reading: Reading, hand: Hand, rules: RuleSet) -> tuple[tuple[str, ...], int]:
    """卡心五's patterns (docs/rules.md §B, §E#27, §E#28): 七对 or 龙七对, 清一色, 卡心五 (strict by
    default: the only wait is the 5, read as 4_6; for a 廊起 hand the shown shape decides).  A
    4-of-a-kind makes 龙七对 only when none of its copies is face down in a 廊起 hand (the three shown
    and the 4th the winning tile, or all four shown): otherwise it counts as two pairs.  Two or three
    4-of-a-kinds are one 龙七对 (双龙/三龙 are not 卡心五 patterns).  平胡 has no 番."""
    v = rules.values
    names: list[str] = []
    product = 1
    if reading.qidui:
        hidden_longs = sum(1 for t, n in enumerate(hand.hidden) if n and hand.counts14[t] == 4)
        if reading.longs - hidden_longs >= 1:
            names.append("龙七对")
            product *= v.longqidui
        else:
            names.append("七对")
            product *= v.qidui
    if qingyise(reading, hand, rules):
        names.append("清一色")
        product *= v.qingyise
    if kawuxing(reading, hand, rules):
        names.append("卡心五")
        product *= v.kawuxing
    return tuple(names), product


def reading_fans(reading: Reading, hand: Hand, rules: RuleSet) -> tuple[tuple[str, ...], int]:
    """The 番 names of one reading (a name repeats when it counts more than once) and their product."""
    if rules.ruleset is Ruleset.KAXINWU:
        return _kaxinwu_fans(reading, hand, rules)
    names: list[str] = []
    product = 1
    for pattern in PATTERNS:
        n = pattern.count(reading, hand, rules)
        if n:
            names.extend([pattern.name] * n)
            product *= pattern.value(reading, rules.values) ** n
    return tuple(names), product
