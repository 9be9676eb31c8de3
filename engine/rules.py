"""House rules: :class:`RuleSet`, every option of docs/rules.md §C and Appendix 1, with named presets.

A :class:`RuleSet` is a frozen, hashable value passed explicitly to scoring and to the game state
machine (docs/architecture.md §2).  Option names and value spellings are exactly those of docs/rules.md §C and
Appendix 1; closed vocabularies are :class:`enum.StrEnum` members, so ``rules.cap == "8_sl16"`` holds.

Construction:

* ``RuleSet()`` / ``RuleSet.preset("standard")`` — the docs/rules.md §A defaults.
* ``RuleSet.preset(name)`` — ``standard``, ``xiangyang``, ``suizhou``, ``zaoyang`` (all: cap 8 with
  双龙/三龙七对 16, i.e. ``8_sl16``, [S004]), ``shiyan`` (十堰 flat cap 8, 双龙 also 8), ``nocap``
  (no cap, as [S000]).  Table sizes (docs/rules.md §A2.1, §A1.1; the same scoring and options):
  ``two_seats`` — 2-player 卡五星 with the standard 84 tiles (the apps' 2-player mode);
  ``four_seats`` — 4-player 卡五星 in its original form (seed 004): the three suits 筒 条 万 and the
  dragons, 120 tiles.  Any preset takes ``{"players": 2 | 3 | 4}`` and ``suits`` as well.
* ``RuleSet.from_json(value)`` — a preset name, or ``{"preset": name, "<option>": value, ...}``; the
  ``values``, ``gang_values`` and ``extras`` objects are merged key by key over the preset's.
* ``rules.to_json()`` — a plain JSON object with every option; ``from_json(to_json())`` round-trips.

Shorthand keys of §C map onto ``values`` (they are applied after a ``values`` object in the same
input): ``kwx_value`` -> kawuxing, ``pph_value`` -> pengpeng, ``gangshang_value`` -> gangkai and
gangpao, ``qianggang_value`` -> qianggang, ``msgy_value`` -> mingsigui, ``szy_value`` -> shouzhuayi,
``sanlong_value`` -> sanlong, ``haidi_pao`` -> haidipao.

Not supported (accepted only with their "off"/default value, anything else raises :class:`RuleError`
saying "not supported"): the regional add-ons ``piao``, ``maima``, ``shukan``, ``chuzi`` (also inside
``extras``).  ``ruleset`` is ``kawuxing`` or ``kaxinwu`` (卡心五,
docs/rules.md §B: use the ``kaxinwu`` preset, which sets every option the game needs).

Decisions on spellings docs/rules.md leaves open (documented here, see also the option docstrings):

* ``cap`` accepts the strings of §C and also the integers 8, 16, 32 (normalised to strings).
* ``sigui_scope``: Appendix 1 spells the default ``ban_qys_quan`` (半频道, but 清一色 hands use the
  全频道 logic, docs/rules.md §F2′); §C's ``ban`` means that same default and is normalised to it; ``quan``
  extends F2′ to every hand.
* ``haidi_pihu`` accepts §C's ``2`` / ``"off"`` (and booleans); it is stored as a bool.
* ``sanyuan_qidui`` accepts ``false``/``"off"`` and ``true``/``"on"``; when on, a 七对-family reading
  holding all three dragons scores ``xiaosanyuan_qidui`` (×8, replaces 七对) if all three are pairs and
  ``dasanyuan_qidui`` (×16) when all three are 4-of-a-kinds ([CS] options 4–5; mixed → 小三元七对).  These two
  ``values`` keys are extensions of Appendix 1.
* ``liangdao_revealed_sigui_ming`` (docs/rules.md §E#36, [TS]) is accepted too: a 亮倒 winner's 暗四归一 is
  scored as 明四归一 (his concealed tiles are face up).
* ``values`` entries are integers 1..1024; ``haidipao`` also accepts 0 (= not a 番, the default).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any, TypeVar

__all__ = [
    "PRESETS",
    "STANDARD_PLAYERS",
    "Cap",
    "DealerOnDraw",
    "FanValues",
    "FirstDealer",
    "FourPlayers",
    "GangChain",
    "GangChainSelf",
    "GangValues",
    "GangshangChainHu",
    "HuangzhuangLiangdao",
    "KwxRule",
    "LiangdaoKong",
    "LiangdaoReveal",
    "Louhu",
    "RuleError",
    "RuleSet",
    "Ruleset",
    "SiguiScope",
]


STANDARD_PLAYERS = 3
"""Seats in the standard game (docs/rules.md §A2.1): the default of :attr:`RuleSet.players`."""


class RuleError(ValueError):
    """An unknown rule option, a bad option value, or an unsupported option; the message names it."""


class Ruleset(enum.StrEnum):
    """The game: 卡五星 (docs/rules.md §A) or 卡心五 (docs/rules.md §B)."""

    KAWUXING = "kawuxing"
    KAXINWU = "kaxinwu"


class Cap(enum.StrEnum):
    """封顶, per-share cap (docs/rules.md §A11.5)."""

    NONE = "none"
    EIGHT = "8"  # 十堰 满和: 双龙 also 8
    EIGHT_SL16 = "8_sl16"  # 随州/襄阳/枣阳: 8, 双龙/三龙七对 16
    SIXTEEN = "16"
    THIRTY_TWO = "32"


class Louhu(enum.StrEnum):
    """漏胡 after passing a legal discard win (docs/rules.md §A8.3)."""

    BIGGER_EXCEPTION = "bigger_exception"
    STRICT = "strict"
    SAME_TILE = "same_tile"


class LiangdaoReveal(enum.StrEnum):
    """What 亮倒 reveals (docs/rules.md §A9.2)."""

    FULL = "full"
    KOU = "kou"
    MINIMAL = "minimal"


class LiangdaoKong(enum.StrEnum):
    """Kongs allowed after 亮倒 (docs/rules.md §A9.5)."""

    WAITS_UNCHANGED = "waits_unchanged"
    NONE = "none"
    ANPU_AND_BUGANG_ONLY = "anpu_and_bugang_only"


class HuangzhuangLiangdao(enum.StrEnum):
    """亮倒 penalty on 荒庄 (docs/rules.md §A14.2)."""

    S000 = "s000"
    S004_FIRST = "s004_first"
    CHAJIAO = "chajiao"
    NONE = "none"
    CHAJIAO_LANGQI = "chajiao_langqi"  # 卡心五 查叫 (docs/rules.md §B): non-廊起 seats pay 廊起 seats


class DealerOnDraw(enum.StrEnum):
    """Dealer after 荒庄 (docs/rules.md §A15.3)."""

    STAY = "stay"
    LAST_DRAWER = "last_drawer"
    CHAJIAO = "chajiao"
    CHAJIAO_LANGQI = "chajiao_langqi"  # 卡心五 (docs/rules.md §B, §E#49): by the number of 被查叫 seats


class FirstDealer(enum.StrEnum):
    """First dealer of a session (docs/rules.md §A2.2)."""

    RANDOM = "random"
    HOST = "host"


class FourPlayers(enum.StrEnum):
    """Four members at a 3-seat table (docs/rules.md §A2.1): who sits each hand out
    (:func:`engine.seating.next_lineup`); ``off`` = a 3-seat table takes three members only."""

    WINNER_SITS_OUT = "winner_sits_out"
    BAWANGZHUANG = "bawangzhuang"  # 霸王庄: the dealer keeps the deal (and his place) until he loses
    OFF = "off"


class KwxRule(enum.StrEnum):
    """卡五星 test (docs/rules.md §A10.2, §E#1)."""

    GENEROUS = "generous"
    STRICT_SINGLE_WAIT = "strict_single_wait"


class SiguiScope(enum.StrEnum):
    """四归 not involving the winning tile (docs/rules.md §F2′, §E#11): 半频道 with 清一色 全频道, or 全频道."""

    BAN_QYS_QUAN = "ban_qys_quan"
    QUAN = "quan"


class GangChain(enum.StrEnum):
    """杠上杠 progression of kong money (docs/rules.md §A13.3)."""

    DOUBLE = "double"
    FLAT2 = "flat2"
    LINEAR = "linear"


class GangChainSelf(enum.StrEnum):
    """Which own kongs continue a 杠上杠 chain (docs/rules.md §A13.3, §E#17)."""

    REPLACEMENT_ONLY = "replacement_only"
    ANY_KONG_SAME_TURN = "any_kong_same_turn"


class GangshangChainHu(enum.StrEnum):
    """杠上开花/杠上炮 after 杠上杠 (docs/rules.md §A13.4): ×value only, or ×value × 2^(chain-1)."""

    X2_ONLY = "x2_only"
    COMPOUND = "compound"


@dataclass(frozen=True, slots=True)
class FanValues:
    """Multiplier of each 番 (docs/rules.md §A10 table, Appendix 1 ``values``).  Integers; 1 = no effect."""

    pengpeng: int = 2  # 碰碰胡 F1
    mingsigui: int = 2  # 明四归一 F2
    ansigui: int = 4  # 暗四归一 F3
    qidui: int = 4  # 七对 F4
    longqidui: int = 8  # 龙七对 F5 (total)
    shuanglong: int = 16  # 双龙七对 F6 (total)
    sanlong: int = 32  # 三龙七对 F6′ (total)
    dasanyuan: int = 8  # 大三元 F7
    xiaosanyuan: int = 4  # 小三元 F8
    gangkai: int = 2  # 杠上开花 F9
    gangpao: int = 2  # 杠上炮 F10
    qianggang: int = 2  # 抢杠胡 F11
    qingyise: int = 4  # 清一色 F12
    shouzhuayi: int = 4  # 手抓一 F13
    haidilao: int = 2  # 海底捞月 F14
    haidipao: int = 0  # 海底炮 F14′ (0 = not a 番)
    liangdao: int = 2  # 亮倒 F15
    kawuxing: int = 2  # 卡五星 F16
    xiaosanyuan_qidui: int = 8  # 小三元七对 (option sanyuan_qidui; total, replaces 七对)
    dasanyuan_qidui: int = 16  # 大三元七对 (option sanyuan_qidui; total)


@dataclass(frozen=True, slots=True)
class GangValues:
    """Kong money in units of 底金 (docs/rules.md §A13.1): 暗杠 each other player, 补杠 each, 直杠 the discarder."""

    an: int = 2
    bu: int = 1
    zhi: int = 2


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Every option of docs/rules.md §C / Appendix 1; the defaults are the standard game (docs/rules.md §A).

    Frozen and hashable.  Build with :meth:`preset` or :meth:`from_json`; derive with
    :meth:`with_options`.  Raises :class:`RuleError` (a ``ValueError``) on unknown/bad options.
    """

    ruleset: Ruleset = Ruleset.KAWUXING
    players: int = STANDARD_PLAYERS  # A2.1: seats at the table, 2 to 4 (the one source of the number of seats)
    suits: tuple[str, ...] = ("p", "s")  # A1.1: two or three of p, s, m
    dragons: bool = True
    base: int = 1  # 底金 B (A11.4)
    cap: Cap = Cap.EIGHT_SL16  # A11.5
    pihu_ron: bool = False  # A8.2, E#2
    qihu_2fan: bool = False  # A8.1
    situational_for_qihu: bool = True  # A8.2, E#3
    louhu: Louhu = Louhu.BIGGER_EXCEPTION  # A8.3
    liangdao_reveal: LiangdaoReveal = LiangdaoReveal.FULL  # A9.2
    liangdao_min_wall: int = 0  # A9.1
    liangdao_kong: LiangdaoKong = LiangdaoKong.WAITS_UNCHANGED  # A9.5
    liangdao_auto_win: bool = True  # A9.4
    liangdao_payer_double: bool = True  # A9.6b
    dui_liang_fanfan: bool = False  # A9.6c
    baohu: bool = True  # A9.7
    liangdao_protect: bool = False  # A9.8
    guohu_fanfan: bool = False  # §C 过胡翻番
    huangzhuang_liangdao: HuangzhuangLiangdao = HuangzhuangLiangdao.S000  # A14.2
    dealer_on_draw: DealerOnDraw = DealerOnDraw.STAY  # A15.3
    first_dealer: FirstDealer = FirstDealer.RANDOM  # A2.2
    four_players: FourPlayers = FourPlayers.WINNER_SITS_OUT  # A2.1
    kwx_rule: KwxRule = KwxRule.GENEROUS  # A10.2
    values: FanValues = field(default_factory=FanValues)
    szy_with_pph: bool = False  # F13, E#7
    sigui_scope: SiguiScope = SiguiScope.BAN_QYS_QUAN  # F2′, E#11
    ansigui_requires_pung: bool = False  # F3, E#10
    sigui_multi: bool = False  # F2′
    sanyuan_qidui: bool = False  # A10.3
    liangdao_revealed_sigui_ming: bool = False  # E#36 (option named in §E, not in §C)
    haidi_pihu: bool = True  # §C: 海底捞 also boosts a 屁胡
    qianggang: bool = True  # A6.6
    gang_values: GangValues = field(default_factory=GangValues)  # A13.1
    gang_chain: GangChain = GangChain.DOUBLE  # A13.3
    gang_chain_self: GangChainSelf = GangChainSelf.REPLACEMENT_ONLY  # A13.3
    gangshang_chain_hu: GangshangChainHu = GangshangChainHu.X2_ONLY  # A13.4
    bugang_immediate: bool = True  # A6.2
    kong_after_peng: bool = False  # A6.3
    guoshou_peng: bool = False  # A5.5
    kong_mandatory: bool = False  # §B 有杠必杠 (卡心五; false = 过杠)
    guansi: bool = False  # §B 关死 (卡心五)
    piao: str = "off"  # not supported (accepted only as "off")
    maima: str = "off"  # not supported
    shukan: bool = False  # not supported
    chuzi: bool = False  # not supported

    # ------------------------------------------------------------------ derived helpers

    def cap_for(self, longs: int) -> int | None:
        """Per-share cap in multiples of 底金 for a chosen reading with ``longs`` 4-of-a-kinds in a
        七对-family reading (0 for any other reading); None = uncapped (docs/rules.md §A11.5, §E#46)."""
        if self.cap is Cap.NONE:
            return None
        if self.cap is Cap.EIGHT_SL16:
            return 16 if longs >= 2 else 8
        return int(self.cap.value)

    # ------------------------------------------------------------------ construction

    @classmethod
    def preset(cls, name: str) -> RuleSet:
        """The named preset (see module docstring); raises :class:`RuleError` for an unknown name."""
        try:
            return PRESETS[name]
        except (KeyError, TypeError):
            raise RuleError(f"unknown rules preset {name!r}; known presets: {', '.join(PRESETS)}") from None

    @classmethod
    def from_json(cls, value: object) -> RuleSet:
        """A RuleSet from a preset name, ``None`` (standard), or ``{"preset": name, "<option>": v, ...}``.

        Option keys and values are spelled as in docs/rules.md §C / Appendix 1.  Raises :class:`RuleError`
        naming the option and its allowed values when something is unknown or invalid.
        """
        if value is None:
            return PRESETS["standard"]
        if isinstance(value, RuleSet):
            return value
        if isinstance(value, str):
            return cls.preset(value)
        if isinstance(value, Mapping):
            options = dict(value)
            name = options.pop("preset", "standard")
            if not isinstance(name, str):
                raise RuleError(f"'preset' must be a preset name ({', '.join(PRESETS)}), got {name!r}")
            return cls.preset(name).with_options(options)
        raise RuleError(f"rules must be a preset name or an object of options, got {type(value).__name__}")

    def with_options(self, options: Mapping[str, Any]) -> RuleSet:
        """A copy with ``options`` (option name -> JSON value) applied; nested objects merge.

        ``values`` is applied before the §C shorthand keys (``kwx_value`` ...), which override it.
        """
        changes: dict[str, Any] = {}
        fan_changes: dict[str, int] = {}
        shorthand: list[tuple[str, Any]] = []
        for key, raw in options.items():
            if not isinstance(key, str):
                raise RuleError(f"rule option names are strings, got {key!r}")
            if key == "values":
                fan_changes.update(_parse_values(raw))
            elif key == "gang_values":
                changes["gang_values"] = _parse_gang_values(raw, self.gang_values)
            elif key == "extras":
                changes.update(_parse_extras(raw))
            elif key in _SHORTHAND:
                shorthand.append((key, raw))
            elif key in _PARSERS:
                changes[key] = _PARSERS[key](key, raw)
            else:
                raise RuleError(f"unknown rule option {key!r}; known options: {', '.join(sorted(KNOWN_OPTIONS))}")
        for key, raw in shorthand:
            allowed, targets = _SHORTHAND[key]
            number = _parse_choice_int(key, raw, allowed)
            for target in targets:
                fan_changes[target] = number
        if fan_changes:
            changes["values"] = replace(self.values, **fan_changes)
        return replace(self, **changes) if changes else self

    def to_json(self) -> dict[str, Any]:
        """Every option as a JSON-ready object (enums as their spellings); accepted by :meth:`from_json`."""
        out: dict[str, Any] = {}
        for f in fields(self):
            v = getattr(self, f.name)
            if isinstance(v, FanValues | GangValues):
                out[f.name] = {g.name: getattr(v, g.name) for g in fields(v)}
            elif isinstance(v, enum.Enum):
                out[f.name] = v.value
            elif isinstance(v, tuple):
                out[f.name] = list(v)
            else:
                out[f.name] = v
        out["haidi_pihu"] = 2 if self.haidi_pihu else "off"
        return out

    def preset_name(self) -> str | None:
        """The name of the first preset equal to this RuleSet, or None for a custom set."""
        for name, rules in PRESETS.items():
            if rules == self:
                return name
        return None


# ---------------------------------------------------------------------- option parsing

_Parser = Callable[[str, Any], Any]


_E = TypeVar("_E", bound=enum.StrEnum)


def _choices(enum_cls: type[_E]) -> Callable[[str, Any], _E]:
    def parse(key: str, raw: Any) -> _E:
        if isinstance(raw, str):
            try:
                return enum_cls(raw)
            except ValueError:
                pass
        allowed = ", ".join(repr(m.value) for m in enum_cls)
        raise RuleError(f"bad value {raw!r} for rule option {key!r}; allowed: {allowed}")

    return parse


def _boolean(key: str, raw: Any) -> bool:
    if isinstance(raw, bool):
        return raw
    raise RuleError(f"bad value {raw!r} for rule option {key!r}; allowed: true, false")


def _int_range(lo: int, hi: int) -> _Parser:
    def parse(key: str, raw: Any) -> int:
        if isinstance(raw, int) and not isinstance(raw, bool) and lo <= raw <= hi:
            return raw
        raise RuleError(f"bad value {raw!r} for rule option {key!r}; allowed: an integer from {lo} to {hi}")

    return parse


def _parse_choice_int(key: str, raw: Any, allowed: tuple[int, ...]) -> int:
    if isinstance(raw, int) and not isinstance(raw, bool) and raw in allowed:
        return raw
    raise RuleError(f"bad value {raw!r} for rule option {key!r}; allowed: {', '.join(map(str, allowed))}")


def _parse_cap(key: str, raw: Any) -> Cap:
    if isinstance(raw, int) and not isinstance(raw, bool):
        raw = str(raw)
    return _choices(Cap)(key, raw)


def _parse_sigui_scope(key: str, raw: Any) -> SiguiScope:
    if raw == "ban":
        return SiguiScope.BAN_QYS_QUAN
    try:
        return _choices(SiguiScope)(key, raw)
    except RuleError:
        raise RuleError(
            f"bad value {raw!r} for rule option {key!r}; allowed: 'ban_qys_quan' (= 'ban'), 'quan'"
        ) from None


def _parse_haidi_pihu(key: str, raw: Any) -> bool:
    if raw is True or (raw == 2 and not isinstance(raw, bool)):
        return True
    if raw is False or raw == "off" or (raw == 0 and not isinstance(raw, bool)):
        return False
    raise RuleError(f"bad value {raw!r} for rule option {key!r}; allowed: 2, 'off'")


def _parse_sanyuan_qidui(key: str, raw: Any) -> bool:
    if raw is True or raw == "on":
        return True
    if raw is False or raw == "off":
        return False
    raise RuleError(f"bad value {raw!r} for rule option {key!r}; allowed: false ('off'), true ('on')")


def _parse_suits(key: str, raw: Any) -> tuple[str, ...]:
    """``suits`` (docs/rules.md §A1.1): two or three different suits of ``p``, ``s``, ``m``, kept in
    that order (a list or a string such as ``"psm"``)."""
    letters = list(raw) if isinstance(raw, list | tuple | str) else None
    if (
        letters is None
        or len(letters) not in (2, 3)
        or len(set(letters)) != len(letters)
        or not set(letters) <= {"p", "s", "m"}
    ):
        raise RuleError(
            f"bad value {raw!r} for rule option {key!r}; allowed: two or three different suits of 'p', 's', 'm'"
        )
    return tuple(sorted(letters, key="psm".index))


def _only(allowed: object, what: str) -> _Parser:
    def parse(key: str, raw: Any) -> Any:
        if raw == allowed and type(raw) is type(allowed):
            return raw
        raise RuleError(f"rule option {key!r} = {raw!r} is not supported ({what}); only {allowed!r} is accepted")

    return parse


_PARSERS: dict[str, _Parser] = {
    "ruleset": _choices(Ruleset),
    "players": _int_range(2, 4),
    "suits": _parse_suits,
    "dragons": _boolean,
    "base": _int_range(1, 1_000_000),
    "cap": _parse_cap,
    "pihu_ron": _boolean,
    "qihu_2fan": _boolean,
    "situational_for_qihu": _boolean,
    "louhu": _choices(Louhu),
    "liangdao_reveal": _choices(LiangdaoReveal),
    "liangdao_min_wall": _int_range(0, 44),
    "liangdao_kong": _choices(LiangdaoKong),
    "liangdao_auto_win": _boolean,
    "liangdao_payer_double": _boolean,
    "dui_liang_fanfan": _boolean,
    "baohu": _boolean,
    "liangdao_protect": _boolean,
    "guohu_fanfan": _boolean,
    "huangzhuang_liangdao": _choices(HuangzhuangLiangdao),
    "dealer_on_draw": _choices(DealerOnDraw),
    "first_dealer": _choices(FirstDealer),
    "four_players": _choices(FourPlayers),
    "kwx_rule": _choices(KwxRule),
    "szy_with_pph": _boolean,
    "sigui_scope": _parse_sigui_scope,
    "ansigui_requires_pung": _boolean,
    "sigui_multi": _boolean,
    "sanyuan_qidui": _parse_sanyuan_qidui,
    "liangdao_revealed_sigui_ming": _boolean,
    "haidi_pihu": _parse_haidi_pihu,
    "qianggang": _boolean,
    "gang_chain": _choices(GangChain),
    "gang_chain_self": _choices(GangChainSelf),
    "gangshang_chain_hu": _choices(GangshangChainHu),
    "bugang_immediate": _boolean,
    "kong_after_peng": _boolean,
    "guoshou_peng": _boolean,
    "kong_mandatory": _boolean,
    "guansi": _boolean,
    "piao": _only("off", "regional add-on 飘"),
    "maima": _only("off", "regional add-on 买马"),
    "shukan": _only(False, "regional add-on 数坎"),
    "chuzi": _only(False, "regional add-on 出子"),
}

_SHORTHAND: dict[str, tuple[tuple[int, ...], tuple[str, ...]]] = {
    "kwx_value": ((2, 4), ("kawuxing",)),
    "pph_value": ((2, 4), ("pengpeng",)),
    "gangshang_value": ((2, 4), ("gangkai", "gangpao")),
    "qianggang_value": ((2, 4), ("qianggang",)),
    "msgy_value": ((2, 4), ("mingsigui",)),
    "szy_value": ((4, 8), ("shouzhuayi",)),
    "sanlong_value": ((32, 16, 128), ("sanlong",)),
    "haidi_pao": ((0, 2), ("haidipao",)),
}

KNOWN_OPTIONS: frozenset[str] = frozenset(_PARSERS) | frozenset(_SHORTHAND) | {"values", "gang_values", "extras"}
"""Every option name :meth:`RuleSet.with_options` accepts (plus ``preset`` in :meth:`RuleSet.from_json`)."""

_FAN_KEYS = tuple(f.name for f in fields(FanValues))


def _parse_values(raw: Any) -> dict[str, int]:
    if not isinstance(raw, Mapping):
        raise RuleError(f"rule option 'values' must be an object of 番 values, got {raw!r}")
    out: dict[str, int] = {}
    for key, number in raw.items():
        if key not in _FAN_KEYS:
            raise RuleError(f"unknown 番 {key!r} in rule option 'values'; known: {', '.join(_FAN_KEYS)}")
        lo = 0 if key == "haidipao" else 1
        out[key] = _int_range(lo, 1024)(f"values.{key}", number)
    return out


def _parse_gang_values(raw: Any, current: GangValues) -> GangValues:
    if not isinstance(raw, Mapping):
        raise RuleError(f"rule option 'gang_values' must be an object like {{'an': 2, 'bu': 1, 'zhi': 2}}, got {raw!r}")
    out: dict[str, int] = {}
    for key, number in raw.items():
        if key not in ("an", "bu", "zhi"):
            raise RuleError(f"unknown kong kind {key!r} in rule option 'gang_values'; known: an, bu, zhi")
        out[key] = _int_range(0, 1024)(f"gang_values.{key}", number)
    return replace(current, **out)


def _parse_extras(raw: Any) -> dict[str, Any]:
    if not isinstance(raw, Mapping):
        raise RuleError(f"rule option 'extras' must be an object, got {raw!r}")
    out: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in ("piao", "maima", "shukan", "chuzi"):
            raise RuleError(f"unknown extra {key!r} in rule option 'extras'; known: piao, maima, shukan, chuzi")
        out[key] = _PARSERS[key](key, value)
    return out


_STANDARD = RuleSet()

PRESETS: dict[str, RuleSet] = {
    "standard": _STANDARD,
    "xiangyang": _STANDARD,
    "suizhou": _STANDARD,
    "zaoyang": _STANDARD,
    "shiyan": replace(_STANDARD, cap=Cap.EIGHT),
    "nocap": replace(_STANDARD, cap=Cap.NONE),
    "two_seats": replace(_STANDARD, players=2),
    "four_seats": replace(_STANDARD, players=4, suits=("p", "s", "m")),
    "kaxinwu": replace(
        _STANDARD,
        ruleset=Ruleset.KAXINWU,
        players=4,
        dragons=False,
        pihu_ron=True,
        louhu=Louhu.SAME_TILE,
        liangdao_reveal=LiangdaoReveal.MINIMAL,
        liangdao_payer_double=False,
        baohu=False,
        liangdao_protect=True,
        huangzhuang_liangdao=HuangzhuangLiangdao.CHAJIAO_LANGQI,
        dealer_on_draw=DealerOnDraw.CHAJIAO_LANGQI,
        first_dealer=FirstDealer.HOST,
        kwx_rule=KwxRule.STRICT_SINGLE_WAIT,
        values=FanValues(
            pengpeng=1,
            mingsigui=1,
            ansigui=1,
            shuanglong=8,
            sanlong=8,
            shouzhuayi=1,
            haidilao=1,
            liangdao=1,
        ),
        qianggang=False,
        gang_chain=GangChain.FLAT2,
        kong_after_peng=True,
        guoshou_peng=True,
        kong_mandatory=True,
        guansi=True,
    ),
}
"""Named presets (docs/rules.md §A11.5, [S004]): 随州/襄阳/枣阳 = standard (cap 8, 双龙七对 16); 十堰
flat 8; ``two_seats`` 2 players, 84 tiles; ``four_seats`` 4 players, 筒 条 万 + dragons, 120 tiles
(docs/rules.md §A2.1, §A1.1); ``kaxinwu`` the game 卡心五 (docs/rules.md §B): 4 players (2 or 3
with ``players``), 72 tiles 筒 条 (``suits`` with 万: 108), 廊起 = ``liangdao_reveal = minimal`` that
does not double (``values.liangdao`` 1, no payer doubling), protection, no 包胡, 有杠必杠
(``kong_mandatory``; false = 过杠), 关死 (``guansi``), 查叫 of 廊起 seats at 流局, 过手胡 (``same_tile``)
and 过手碰, kong right after 碰, 杠上杠 ``flat2``, strict 卡心五, no 屁胡 restriction, no 抢杠胡, the
patterns 平胡 卡心五 清一色 七对 龙七对 杠上炮 杠上花 only (the others valued 1, 双龙/三龙七对 as
龙七对 8, 海底 none); the table's host deals first."""
