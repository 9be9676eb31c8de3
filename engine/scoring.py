"""Scoring of one win: readings -> 番 -> best reading -> situational -> 亮倒 -> M -> legality -> cap -> payments.

Follows docs/rules.md §A8–§A12 and Appendix 2 (docs/architecture.md §2 "Scoring like the `mahjong` library").

* Readings: :func:`engine.readings.readings` (every standard decomposition + the 七对 reading).
* Patterns per reading: :mod:`engine.fans`; the reading with the largest pattern product is used
  (A10.1); ties go to the reading whose cap is higher (a 双龙/三龙七对 reading under ``8_sl16``, so the
  winner gets "the largest total", E#1, E#46), then to the one with more 番 names, then to the first in
  enumeration order.
* Situational factors (reading-independent): 杠上开花 (self-draw with ``after_kong``), 杠上炮
  (discard with ``after_kong``), 抢杠胡 (``rob_kong``), 海底捞月 (self-draw with ``last_tile``),
  海底炮 (discard with ``last_tile``, only when ``values.haidipao`` > 1), 过胡翻番 (option
  ``guohu_fanfan``: ×2 per declined win, ``WinContext.declined_wins``).  Under
  ``gangshang_chain_hu = compound`` 杠上开花/杠上炮 are worth ``value × 2^(kong_chain-1)``.
* 亮倒 factor L(W, p) (A9.6, A11.1): ``values.liangdao`` if the winner or the payer has 亮倒 (once);
  under ``dui_liang_fanfan`` (winner's) × (payer's); ``liangdao_payer_double = false`` ignores the
  payer's 亮倒 (and so it no longer lifts the threshold, E#47).
* M(W, p) = pattern product × situational × L(W, p), uncapped, per payer (A11.1).
* Legality (A8): a self-draw is always legal (``qihu_2fan``: needs M ≥ 2, see below); a win on a
  discard or a robbed kong needs M(W, D) ≥ 2 (A8.2), without 杠上炮/抢杠胡/海底炮 when
  ``situational_for_qihu`` is false; ``pihu_ron`` lifts it (unless ``qihu_2fan``).  Robbing needs
  ``qianggang``.
* Cap per share (A11.5): :meth:`RuleSet.cap_for` of the chosen reading as scored (E#46; in 卡心五 by
  the 七对 pattern it scores, :func:`_cap`).
* Payments (A12), in points (底金 ``base`` × capped M): 自摸 — every other seat pays its share;
  点炮/抢杠 — the discarder (robbed player) pays his share; 包胡 (A9.7, ``baohu``) — when the winner
  has 亮倒 and the discarder has not, the discarder pays the sum of every non-winner's share, each
  share computed with that payer's own 亮倒 state (E#44).

Decisions where docs/rules.md is open (tests pin them):

* ``qihu_2fan`` on a self-draw: the threshold is the hand's own M — patterns × situational ×
  (``values.liangdao`` if the winner has 亮倒) — not raised by a payer's 亮倒.
* ``haidi_pihu = off``: 海底捞月 applies only when the chosen reading's pattern product is > 1.
* ``after_kong`` and ``last_tile`` are ignored on a robbed kong (a 补杠 is never the last tile, A6.5).
* A robbed kong's tile: the winner cannot hold a copy of it (the robbed 碰 + the added tile are all
  four); such a context is malformed.
* ``fan_values`` lists the chosen reading's 番 in docs/rules.md §A10 order, then situational factors,
  then 亮倒 once if the 亮倒 factor multiplies any payer's M (its value: the largest L(W, p) over the
  payers, ×4 only under ``dui_liang_fanfan`` with both sides 亮倒); ``((Fan.PIHU, 1),)`` when the list
  would be empty.  Each pair is (:class:`engine.fans.Fan`, the factor it multiplied by in this win).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .fans import Fan, FanList, Hand, reading_fans
from .readings import Reading, readings, waits
from .rules import STANDARD_PLAYERS, GangshangChainHu, KwxRule, RuleSet, Ruleset
from .tiles import Meld, Suit, Tile, counts_of

__all__ = ["IllegalReason", "ScoringError", "WinBy", "WinContext", "WinScore", "score_win"]


class ScoringError(ValueError):
    """A malformed win context (wrong tile count, 5 copies, missing discarder, bad seat...)."""


class WinBy(enum.StrEnum):
    """How the winning tile arrived (docs/rules.md §A8, §A12); a member equals its value string."""

    SELF_DRAW = "self_draw"  # 自摸 (incl. a kong replacement, 杠上开花)
    DISCARD = "discard"  # 点炮 / 捉炮
    ROB_KONG = "rob_kong"  # 抢杠胡: the tile of another player's 补杠


class IllegalReason(enum.Enum):
    """Why a complete hand may not be declared (docs/rules.md §A8)."""

    BELOW_TWO = "below_two"  # M < 2 on a discard/robbed kong (屁胡不能捉炮), or under qihu_2fan
    QIANGGANG_OFF = "qianggang_off"  # robbing a kong is switched off (rules.qianggang = false)


@dataclass(frozen=True, slots=True)
class WinContext:
    """One claimed win, as the scorer needs it.

    ``concealed``: the winner's tiles in hand before the winning tile, 13 - 3*len(melds) of them.
    ``melds``: his 碰/杠 (at most 4).  ``win_tile``: the drawn, discarded or robbed tile.
    ``num_players``: seats at the table (``rules.players``; default the standard game's).
    ``winner``/``discarder``: seats 0..num_players-1; ``discarder`` is the player who discarded
    (or whose 补杠 was robbed) and must be None on a self-draw.  ``liangdao``: one bool per seat
    (who has declared 亮倒; the discard made *with* a 亮倒 declaration counts as a 亮倒 player's,
    E#39); ``()`` = nobody.  ``after_kong``: self-draw of a kong replacement (杠上开花) / the
    discarder's first discard after his kong (杠上炮).  ``last_tile``: self-draw of the last wall
    tile (海底捞月) / the final discard (海底炮).  ``kong_chain``: kongs in the 杠上杠 chain behind
    ``after_kong`` (only used by ``gangshang_chain_hu = compound``).  ``declined_wins``: wins this
    亮倒 player declined (only used by ``guohu_fanfan``).  ``hidden``/``waits``: a 廊起 winner's
    face-down tiles and published waits (卡心五 only, docs/rules.md §B: the shown shape decides 卡心五
    and 龙七对).

    Raises :class:`ScoringError` when the context is malformed.
    """

    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...]
    win_tile: Tile
    win_by: WinBy
    winner: int
    discarder: int | None = None
    liangdao: tuple[bool, ...] = ()
    after_kong: bool = False
    last_tile: bool = False
    num_players: int = STANDARD_PLAYERS
    kong_chain: int = 1
    declined_wins: int = 0
    hidden: tuple[Tile, ...] = ()
    waits: tuple[Tile, ...] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "concealed", tuple(Tile(t) for t in self.concealed))
        object.__setattr__(self, "melds", tuple(self.melds))
        object.__setattr__(self, "win_tile", Tile(self.win_tile))
        object.__setattr__(self, "win_by", WinBy(self.win_by))
        if not self.liangdao:
            object.__setattr__(self, "liangdao", (False,) * self.num_players)
        object.__setattr__(self, "liangdao", tuple(bool(x) for x in self.liangdao))
        self._check()

    def _check(self) -> None:
        n = self.num_players
        if not 2 <= n <= 4:
            raise ScoringError(f"num_players must be 2 to 4, got {n}")
        if len(self.melds) > 4:
            raise ScoringError(f"a hand has at most 4 melds, got {len(self.melds)}")
        want = 13 - 3 * len(self.melds)
        if len(self.concealed) != want:
            raise ScoringError(
                f"with {len(self.melds)} meld(s) the concealed hand before the winning tile has {want} tiles, "
                f"got {len(self.concealed)}"
            )
        counts = counts_of(self.all_tiles())
        for t in Tile:
            if counts[t] > 4:
                raise ScoringError(f"{counts[t]} copies of {t} (concealed, melds and winning tile): a set has only 4")
        if not 0 <= self.winner < n:
            raise ScoringError(f"winner must be a seat 0..{n - 1}, got {self.winner}")
        if len(self.liangdao) != n:
            raise ScoringError(f"liangdao needs one flag per seat ({n}), got {len(self.liangdao)}")
        if self.win_by is WinBy.SELF_DRAW:
            if self.discarder is not None:
                raise ScoringError("a self-draw has no discarder")
        else:
            if self.discarder is None:
                raise ScoringError(f"a {self.win_by.value} win needs the discarder (who discarded or was robbed)")
            if not 0 <= self.discarder < n or self.discarder == self.winner:
                raise ScoringError(f"discarder must be another seat 0..{n - 1}, got {self.discarder}")
        if self.win_by is WinBy.ROB_KONG and counts[self.win_tile] > 1:
            raise ScoringError(f"a robbed kong's tile {self.win_tile} cannot also be in the winner's hand")
        if self.kong_chain < 1:
            raise ScoringError(f"kong_chain counts kongs, at least 1, got {self.kong_chain}")
        if self.declined_wins < 0:
            raise ScoringError(f"declined_wins cannot be negative, got {self.declined_wins}")

    def all_tiles(self) -> list[Tile]:
        """Every tile of the winning hand: concealed, melds and the winning tile."""
        return [*self.concealed, *(t for m in self.melds for t in m.tiles), self.win_tile]

    def payers(self) -> tuple[int, ...]:
        """Seats whose share is computed: all others on 自摸 or 包胡 candidates; see :func:`score_win`."""
        return tuple(s for s in range(self.num_players) if s != self.winner)


@dataclass(frozen=True, slots=True)
class WinScore:
    """The scored win.

    ``complete``: the tiles form a winning shape.  ``legal``: the win may be declared (docs/rules.md §A8;
    see ``illegal`` for why not).  ``fan_values``: (:class:`~engine.fans.Fan`, value) pairs — the
    chosen reading's 番, the situational factors and 亮倒, each with the factor it multiplied by
    (a 番 repeats when it counts more than once; 亮倒: the largest over the payers); ``((PIHU, 1),)``
    when none; ``()`` when not complete.  ``fans``: the same 番 without their values.
    ``multiplier``: uncapped M per paying seat — every other seat on 自摸 and on 包胡, only the
    discarder on 点炮.  ``shares``: points (底金 ×
    capped M) each seat actually pays (on 包胡 the discarder's entry is the sum); empty when not
    legal.  ``deltas``: points per seat, summing to 0, all 0 when not legal.  ``reading``: the chosen
    reading for people.  ``baohu``: 包胡 applied.  ``cap``: the per-share cap (None = none).
    ``patterns``: the chosen reading's pattern product (A10.4: ≥ 2 is a 大胡).
    """

    complete: bool
    legal: bool
    fan_values: FanList
    multiplier: dict[int, int]
    shares: dict[int, int]
    deltas: tuple[int, ...]
    reading: str
    baohu: bool
    cap: int | None
    patterns: int = 1
    discarder: int | None = None
    illegal: IllegalReason | None = None

    @property
    def fans(self) -> tuple[Fan, ...]:
        """The 番 of :attr:`fan_values` without their values (each equals its Chinese name)."""
        return tuple(fan for fan, _ in self.fan_values)

    @property
    def discarder_multiplier(self) -> int | None:
        """Uncapped M against the discarder, for 漏胡 comparisons (docs/rules.md §A8.3, §E#9); None on 自摸."""
        return None if self.discarder is None else self.multiplier.get(self.discarder)


def _not_complete(ctx: WinContext) -> WinScore:
    return WinScore(
        complete=False,
        legal=False,
        fan_values=(),
        multiplier={},
        shares={},
        deltas=(0,) * ctx.num_players,
        reading="",
        baohu=False,
        cap=None,
        discarder=ctx.discarder,
    )


def _check_suits(ctx: WinContext, rules: RuleSet) -> None:
    for t in set(ctx.all_tiles()):
        if t.suit is Suit.DRAGONS:
            if not rules.dragons:
                raise ScoringError(f"{t} is not in play: these rules have no dragons")
        elif t.suit.value not in rules.suits:
            raise ScoringError(f"{t} is not in play: the suits are {'+'.join(rules.suits)}")


def best_reading(ctx: WinContext, rules: RuleSet) -> tuple[Reading, FanList, int] | None:
    """The chosen reading, its (番, value) pairs and pattern product (docs/rules.md §A10.1), or None if not complete."""
    counts13 = counts_of(ctx.concealed)
    counts14 = list(counts13)
    counts14[ctx.win_tile] += 1
    options = readings(counts14, ctx.melds)
    if not options:
        return None
    hand_waits = waits(counts13, ctx.melds) if rules.kwx_rule is KwxRule.STRICT_SINGLE_WAIT else None
    kaxinwu = rules.ruleset is Ruleset.KAXINWU
    if kaxinwu and ctx.waits is not None and hand_waits is not None:
        hand_waits = tuple(ctx.waits)  # a 廊起 hand: the shown shape decides (docs/rules.md §E#28)
    hidden = tuple(counts_of(ctx.hidden)) if kaxinwu and ctx.hidden else ()
    shown = None
    if kaxinwu and ctx.waits is not None:  # a 廊起 hand: what is not face down is shown (docs/rules.md §B)
        shown = tuple(max(0, c - h) for c, h in zip(counts13, hidden or (0,) * len(counts13), strict=True))
    hand = Hand(
        ctx.melds, ctx.win_tile, tuple(counts13), tuple(counts14), hand_waits, ctx.liangdao[ctx.winner], hidden, shown
    )
    best: tuple[Reading, FanList, int] | None = None
    best_key: tuple[int, int, int] = (0, 0, 0)
    for reading in options:
        fans, product = reading_fans(reading, hand, rules)
        cap = _cap(reading, fans, rules)
        key = (product, _UNCAPPED if cap is None else cap, len(fans))
        if best is None or key > best_key:
            best, best_key = (reading, fans, product), key
    return best


def _cap(reading: Reading, fans: FanList, rules: RuleSet) -> int | None:
    """The per-share cap of ``reading`` as it is scored (docs/rules.md §A11.5, §E#46): by its
    4-of-a-kinds; in 卡心五 (§B) by the 七对 pattern it scores — 龙七对 however many 4-of-a-kinds it
    holds (双龙/三龙 are no 卡心五 patterns), 七对 when a 廊起 hand hides a copy — so never the
    双龙七对 cap of ``8_sl16``."""
    if rules.ruleset is Ruleset.KAXINWU:
        return rules.cap_for(int(any(fan is Fan.LONGQIDUI for fan, _ in fans)))
    return rules.cap_for(reading.longs)


_UNCAPPED = 1 << 30
"""Sort key of "no cap" when readings tie on their pattern product (E#1: the largest total)."""


def _situational(ctx: WinContext, rules: RuleSet, patterns: int) -> list[tuple[Fan, int, bool]]:
    """Situational factors: (番, value, counts toward the discard threshold when situational_for_qihu off)."""
    v = rules.values
    chain = 2 ** (ctx.kong_chain - 1) if rules.gangshang_chain_hu is GangshangChainHu.COMPOUND else 1
    out: list[tuple[Fan, int, bool]] = []
    if ctx.win_by is WinBy.SELF_DRAW:
        if ctx.after_kong:
            out.append((Fan.GANGKAI, v.gangkai * chain, True))
        if ctx.last_tile and (rules.haidi_pihu or patterns > 1) and rules.ruleset is not Ruleset.KAXINWU:
            out.append((Fan.HAIDILAO, v.haidilao, True))
    elif ctx.win_by is WinBy.DISCARD:
        if ctx.after_kong:
            out.append((Fan.GANGPAO, v.gangpao * chain, False))
        if ctx.last_tile and v.haidipao > 1:
            out.append((Fan.HAIDIPAO, v.haidipao, False))
    else:
        out.append((Fan.QIANGGANG, v.qianggang, False))
    if rules.guohu_fanfan and ctx.declined_wins:
        out.append((Fan.GUOHU_FANFAN, 2**ctx.declined_wins, True))
    return out


def _liangdao_factor(ctx: WinContext, rules: RuleSet, payer: int) -> int:
    """L(W, p) of docs/rules.md §A11.1 / §A9.6."""
    value = rules.values.liangdao
    winner = ctx.liangdao[ctx.winner]
    paying = ctx.liangdao[payer] and rules.liangdao_payer_double
    if rules.dui_liang_fanfan:
        return (value if winner else 1) * (value if paying else 1)
    return value if (winner or paying) else 1


def _situational_products(situational: list[tuple[Fan, int, bool]], rules: RuleSet) -> tuple[int, int]:
    """(all situational factors, those that count toward the discard threshold, A8.2)."""
    sit_all = 1
    sit_threshold = 1
    for _, value, for_threshold in situational:
        sit_all *= value
        if for_threshold or rules.situational_for_qihu:
            sit_threshold *= value
    return sit_all, sit_threshold


def _illegal(ctx: WinContext, rules: RuleSet, patterns: int, sit_all: int, sit_threshold: int) -> IllegalReason | None:
    """Why the win may not be declared (docs/rules.md §A8; see the module docstring), None if it may."""
    d = ctx.discarder
    if ctx.win_by is WinBy.ROB_KONG and not rules.qianggang:
        return IllegalReason.QIANGGANG_OFF
    if d is None:
        own = patterns * sit_all * (rules.values.liangdao if ctx.liangdao[ctx.winner] else 1)
        return IllegalReason.BELOW_TWO if rules.qihu_2fan and own < 2 else None
    if (not rules.pihu_ron or rules.qihu_2fan) and patterns * sit_threshold * _liangdao_factor(ctx, rules, d) < 2:
        return IllegalReason.BELOW_TWO
    return None


def _payments(
    ctx: WinContext, rules: RuleSet, multiplier: dict[int, int], cap: int | None, baohu: bool
) -> tuple[dict[int, int], tuple[int, ...]]:
    """(shares, deltas) of a legal win (A12): 底金 × capped M per payer; on 包胡 the discarder pays the sum."""
    capped = {p: rules.base * (m if cap is None else min(m, cap)) for p, m in multiplier.items()}
    d = ctx.discarder
    shares = {d: sum(capped.values())} if (baohu and d is not None) else capped
    deltas = [0] * ctx.num_players
    for p, amount in shares.items():
        deltas[p] -= amount
        deltas[ctx.winner] += amount
    return shares, tuple(deltas)


def score_win(ctx: WinContext, rules: RuleSet | None = None) -> WinScore:
    """Score one win under ``rules`` (default: the standard RuleSet).  See the module docstring.

    Raises :class:`ScoringError` for tiles not in play under ``rules`` (suits/dragons); other malformed
    contexts are rejected when the :class:`WinContext` is built.
    """
    rules = rules or RuleSet()
    _check_suits(ctx, rules)
    chosen = best_reading(ctx, rules)
    if chosen is None:
        return _not_complete(ctx)
    reading, reading_fan_values, patterns = chosen
    situational = _situational(ctx, rules, patterns)
    sit_all, sit_threshold = _situational_products(situational, rules)
    d = ctx.discarder
    baohu = d is not None and rules.baohu and ctx.liangdao[ctx.winner] and not ctx.liangdao[d]
    payers = ctx.payers() if (d is None or baohu) else (d,)
    multiplier = {p: patterns * sit_all * _liangdao_factor(ctx, rules, p) for p in payers}
    illegal = _illegal(ctx, rules, patterns, sit_all, sit_threshold)

    fan_values = [*reading_fan_values, *((fan, value) for fan, value, _ in situational)]
    liangdao = max((_liangdao_factor(ctx, rules, p) for p in payers), default=1)
    if liangdao > 1:
        fan_values.append((Fan.LIANGDAO, liangdao))
    cap = _cap(reading, reading_fan_values, rules)
    legal = illegal is None
    shares, deltas = _payments(ctx, rules, multiplier, cap, bool(baohu)) if legal else ({}, (0,) * ctx.num_players)
    return WinScore(
        complete=True,
        legal=legal,
        fan_values=tuple(fan_values) or ((Fan.PIHU, 1),),
        multiplier=multiplier,
        shares=shares,
        deltas=deltas,
        reading=str(reading),
        baohu=bool(baohu) and legal,
        cap=cap,
        patterns=patterns,
        discarder=d,
        illegal=illegal,
    )
