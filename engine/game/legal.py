"""``legal_actions(state, seat)``: exactly the actions ``decide`` accepts from a seat now."""

from __future__ import annotations

from collections.abc import Sequence

from ..rules import LiangdaoReveal
from ..tiles import MeldKind, Tile, counts_of
from .actions import Action, ActionKind, action
from .basics import must_self_win, protected_mask
from .checks import can_self_win, kong_check
from .hands import liangdao_declared, liangdao_waits, moved, shanten_of
from .reveal import RevealFault, legal_reveals, reveal_fault
from .state import Phase, State

__all__ = ["fewest_reveal", "kong_actions", "legal_actions", "protected_tiles", "reveal_preview"]

_TILES = tuple(Tile)


def legal_actions(state: State, seat: int) -> list[Action]:
    """Every action :func:`decide` accepts from ``seat`` now, in a stable order: own turn — win,
    暗杠, 补杠, discards (tile order), 亮倒 discards (each: the whole hand shown, then, under
    ``liangdao_reveal = kou`` / ``minimal``, every legal partial reveal, fewest shown tiles first,
    docs/rules.md §A9.2, §E#48; each carries in ``waits`` the waits it leads to); claim window — win,
    kong, pong, pass.
    Empty when the seat has nothing to decide (or the hand is over).  卡心五 (docs/rules.md §B): a
    seat that can 自摸 may only win (有胡必胡); under ``kong_mandatory`` (有杠必杠) a seat that can kong
    is offered only its kongs (on a discard: 杠, and 胡 if it can), no discard, 亮倒, 碰 or pass."""
    if state.phase is Phase.TURN:
        if seat != state.turn:
            return []
        return _turn_actions(state)
    if state.phase in (Phase.CLAIM, Phase.ROB):
        window = state.window
        assert window is not None
        if seat not in window.pending():
            return []
        option = window.option(seat)
        assert option is not None
        out = []
        if option.win:
            out.append(action(seat, ActionKind.WIN))
        if option.kong:
            out.append(action(seat, ActionKind.KONG))
            if state.rules.kong_mandatory:  # 有杠必杠 (docs/rules.md §B): 杠 (or 胡), nothing else
                return out
        if option.pong:
            out.append(action(seat, ActionKind.PONG))
        out.append(action(seat, ActionKind.PASS))
        return out
    return []


def kong_actions(state: State) -> list[Action]:
    """The turn seat's legal 暗杠 / 补杠."""
    i = state.turn
    seat = state.seats[i]
    if state.wall_remaining == 0 or (state.drawn is None and not state.rules.kong_after_peng):
        return []
    out = []
    for t, n in enumerate(seat.hand):
        if n == 4:
            tile = _TILES[t]
            if kong_check(state, ActionKind.CONCEALED_KONG, tile) is None:
                out.append(action(i, ActionKind.CONCEALED_KONG, tile))
    for m in seat.melds:
        if m.kind is MeldKind.PONG and seat.hand[m.tile] and kong_check(state, ActionKind.ADDED_KONG, m.tile) is None:
            out.append(action(i, ActionKind.ADDED_KONG, m.tile))
    return out


def _turn_actions(state: State) -> list[Action]:
    i = state.turn
    seat = state.seats[i]
    out: list[Action] = []
    if can_self_win(state):
        out.append(action(i, ActionKind.WIN))
        if must_self_win(state.rules):  # 有胡必胡 (docs/rules.md §B, §E#26, §E#49: before a kong)
            return out
    out.extend(kong_actions(state))
    if out and state.rules.kong_mandatory:  # 有杠必杠 (docs/rules.md §B): only the kongs
        return out
    if seat.liangdao:
        assert state.drawn is not None
        out.append(action(i, ActionKind.DISCARD, state.drawn))
        return out
    protected = protected_mask(state, i)
    tiles = [_TILES[t] for t, n in enumerate(seat.hand) if n and not protected >> t & 1]
    out.extend(action(i, ActionKind.DISCARD, t) for t in tiles)
    if state.wall_remaining >= state.rules.liangdao_min_wall and shanten_of(seat.keys, len(seat.melds)) <= 0:
        mode = state.rules.liangdao_reveal
        for t in tiles:
            waits = liangdao_waits(seat, t)
            if waits:
                out.append(action(i, ActionKind.LIANGDAO, t, waits=waits))
                if mode is not LiangdaoReveal.FULL:
                    kept, _ = moved(seat, t, -1)
                    for r in legal_reveals(kept, seat.melds, mode):
                        out.append(action(i, ActionKind.LIANGDAO, t, r, liangdao_declared(seat, t, r)[0]))
    return out


def protected_tiles(state: State, seat: int) -> tuple[Tile, ...]:
    """The tiles ``seat`` holds but may not discard because another 亮倒 / 廊起 seat waits on them
    (``liangdao_protect``, docs/rules.md §A9.8, §B protection), in tile order; () for a 亮倒 seat,
    without protection, or when every tile held is such a tile (then none is protected)."""
    mask = protected_mask(state, seat)
    if not mask:
        return ()
    return tuple(_TILES[t] for t, n in enumerate(state.seats[seat].hand) if n and mask >> t & 1)


def fewest_reveal(actions: Sequence[Action], tile: int) -> Action | None:
    """Of the 亮倒 / 廊起 ``actions`` (as :func:`legal_actions` lists them) with discard ``tile``, the
    one that publishes the most waits, showing the fewest tiles among those: the partial reveal
    that hides the most without giving up a wait of the whole hand (docs/rules.md §A9.2, §E#48),
    else the whole hand (listed first, so it wins a tie).  None when no action declares with
    ``tile``.  The bot's "Show the fewest" and the ``strong`` AI's 亮倒 candidates are this choice."""
    best: Action | None = None
    best_key = (-1, 0)
    for a in actions:
        if a.kind is ActionKind.LIANGDAO and a.tile == tile:
            key = (len(a.waits), -(len(a.reveal) if a.reveal is not None else 99))  # the whole hand: the most
            if key > best_key:
                best, best_key = a, key
    return best


def reveal_preview(
    state: State, seat: int, discard: Tile, shown: tuple[Tile, ...]
) -> tuple[RevealFault | None, tuple[Tile, ...]]:
    """What declaring 亮倒 / 廊起 with ``discard`` and showing ``shown`` would do: (why the reveal is
    not legal, or None; the waits it publishes, () when not legal) — the waits the shown shape fixes
    (docs/rules.md §A9.2, §E#48), or the hand's waits when every kept tile is shown.  Only the reveal
    is judged here; whether 亮倒 itself is allowed now is :func:`legal_actions`'s answer."""
    own = state.seats[seat]
    if not own.hand[discard]:
        return RevealFault.NOT_IN_HAND, ()
    kept, _ = moved(own, discard, -1)
    counts = counts_of(shown)
    fault = reveal_fault(kept, counts, own.melds, state.rules.liangdao_reveal)
    if fault is not None:
        return fault, ()
    return None, liangdao_declared(own, discard, shown)[0]
