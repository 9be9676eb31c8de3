"""Small helpers of the state machine shared by its parts: the tile kinds in play, seat tuples,
kong money (docs/rules.md §A13), the 亮倒 flags and protected tiles (§A9.8)."""

from __future__ import annotations

from ..rules import GangChain, RuleSet, Ruleset
from ..tiles import MeldKind, Suit, Tile
from .state import SeatState, State

__all__ = [
    "auto_win",
    "kinds_for",
    "kong_money",
    "liangdao_flags",
    "must_self_win",
    "protected_mask",
    "replace_seat",
]


def kinds_for(rules: RuleSet) -> tuple[Tile, ...]:
    """The tile kinds in play: the ``suits`` (two or three, 1-9 each) and, with ``dragons``, 白 發 中
    (docs/rules.md §A1.1): 21 kinds (84 tiles) in the standard game, 30 (120 tiles) in ``four_seats``."""
    kinds = [t for t in Tile if t.suit is not Suit.DRAGONS and t.suit.value in rules.suits]
    if rules.dragons:
        kinds += [Tile.WHITE, Tile.GREEN, Tile.RED]
    return tuple(kinds)


def replace_seat(seats: tuple[SeatState, ...], i: int, seat: SeatState) -> tuple[SeatState, ...]:
    """``seats`` with seat ``i`` replaced by ``seat``."""
    return (*seats[:i], seat, *seats[i + 1 :])


def _chain_factor(rules: RuleSet, n: int) -> int:
    if n <= 1:
        return 1
    if rules.gang_chain is GangChain.DOUBLE:
        return 1 << (n - 1)
    if rules.gang_chain is GangChain.FLAT2:
        return 2
    return n  # linear


def kong_money(rules: RuleSet, kind: MeldKind, seat: int, from_seat: int | None, chain: int) -> tuple[int, ...]:
    """Kong money per seat (A13.1, A13.3)."""
    factor = _chain_factor(rules, chain) * rules.base
    money = [0] * rules.players
    if kind is MeldKind.KONG:
        assert from_seat is not None
        amount = rules.gang_values.zhi * factor
        money[from_seat] -= amount
        money[seat] += amount
    else:
        amount = (rules.gang_values.an if kind is MeldKind.CONCEALED_KONG else rules.gang_values.bu) * factor
        for s in range(rules.players):
            if s != seat:
                money[s] -= amount
                money[seat] += amount
    return tuple(money)


def liangdao_flags(state: State) -> tuple[bool, ...]:
    """One bool per seat: whether it has declared 亮倒 (the ``liangdao`` of a win context)."""
    return tuple(s.liangdao for s in state.seats)


def protected_mask(state: State, seat: int) -> int:
    """Tiles a non-亮倒 ``seat`` may not give away under ``liangdao_protect`` (A9.8), as a bit mask:
    the waits of the other 亮倒 seats — unless every tile in its hand is one of them."""
    if not state.rules.liangdao_protect or state.seats[seat].liangdao:
        return 0
    mask = 0
    for i, other in enumerate(state.seats):
        if i != seat and other.liangdao:
            for t in other.waits:
                mask |= 1 << t
    if not mask:
        return 0
    hand = state.seats[seat].hand
    if all(not n or mask >> t & 1 for t, n in enumerate(hand)):
        return 0
    return mask


def must_self_win(rules: RuleSet) -> bool:
    """有胡必胡 for self-draws (卡心五, docs/rules.md §B, §E#26): a seat that can 自摸 must."""
    return rules.ruleset is Ruleset.KAXINWU


def auto_win(rules: RuleSet) -> bool:
    """Whether a 亮倒 seat must win when it can (A9.4); ``guohu_fanfan`` lets it decline."""
    return rules.liangdao_auto_win and not rules.guohu_fanfan
