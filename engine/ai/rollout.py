"""The playout policy of the ``strong`` AI: the ``easy`` level's choices, read straight from a
sampled game state (docs/architecture.md §2 "AI").

A playout runs inside one sampled world (:mod:`engine.ai.sampling`), a state the search made up
itself, so building every seat's view and listing every legal action before each move — what
:func:`engine.ai.choose_action` needs — is pure overhead there.  :func:`easy_move` makes the
``easy`` level's choice from the state's counts directly (the same rules as
:func:`engine.ai.players.choose_action` at ``easy``: 胡 whenever possible; kongs that do not raise
the shanten, never a 补杠 of a 亮倒 seat's wait; 碰 only when it lowers the shanten; the discard
tried in order of uselessness that keeps the lowest shanten, never a 亮倒 seat's wait while
another tile may go), with the reading of one seat only, as the easy level would from its own view.
It returns None where it would have to guess; the caller then asks the ordinary way.  The engine
still checks every move (:func:`engine.game.step` raises on an illegal one).
"""

from __future__ import annotations

from ..analysis import shanten_keys
from ..game import Action, ActionKind, State
from ..game.actions import action
from ..game.basics import protected_mask
from ..game.checks import can_self_win
from ..game.hands import liangdao_waits
from ..game.legal import kong_actions
from ..game.state import Phase
from ..tiles import NUM_KINDS, Tile
from .hand import minus
from .players import quick_discard

__all__ = ["easy_move"]

_TILES = tuple(Tile)


def _danger(state: State, seat: int) -> int:
    """Bit mask of the other 亮倒 seats' published waits (what the seat's view calls danger)."""
    mask = 0
    for i, other in enumerate(state.seats):
        if i != seat and other.liangdao:
            for t in other.waits:
                mask |= 1 << t
    return mask


def easy_move(state: State, seat: int, declare: bool) -> Action | None:
    """The ``easy`` level's move for ``seat`` (which must act now) in ``state``, 亮倒 only when
    ``declare``; None when the caller should ask :func:`engine.ai.choose_action` instead."""
    if state.phase is Phase.TURN:
        return _turn(state, seat, declare)
    window = state.window
    if window is None:
        return None
    option = window.option(seat)
    if option is None:
        return None
    if option.win:
        return action(seat, ActionKind.WIN)
    own = state.seats[seat]
    nm = len(own.melds)
    now = shanten_keys(own.keys, nm)
    tile = int(window.tile)
    if option.kong and (state.rules.kong_mandatory or shanten_keys(minus(own.keys, tile, 3), nm + 1) <= now):
        return action(seat, ActionKind.KONG)
    if option.pong and shanten_keys(minus(own.keys, tile, 2), nm + 1) < now:
        danger = _danger(state, seat)
        if any(n - (2 if t == tile else 0) > 0 and not danger >> t & 1 for t, n in enumerate(own.hand)):
            return action(seat, ActionKind.PONG)
    return action(seat, ActionKind.PASS)


def _turn(state: State, seat: int, declare: bool) -> Action | None:
    own = state.seats[seat]
    if can_self_win(state):
        return action(seat, ActionKind.WIN)
    kongs = kong_actions(state)
    danger = _danger(state, seat)
    nm = len(own.melds)
    keys = own.keys
    now = shanten_keys(keys, nm)
    for a in kongs:
        t = int(a.tile or 0)
        if a.kind is ActionKind.ADDED_KONG:
            if not danger >> t & 1 and (own.liangdao or shanten_keys(minus(keys, t), nm) <= now):
                return a
        elif own.liangdao or shanten_keys(minus(keys, t, 4), nm + 1) <= now:
            return a
    if kongs and state.rules.kong_mandatory:
        return kongs[-1]
    drawn = state.drawn
    if own.liangdao:
        return action(seat, ActionKind.DISCARD, drawn) if drawn is not None else None
    protected = protected_mask(state, seat)
    hand = own.hand
    tiles = [t for t in range(NUM_KINDS) if hand[t] and not protected >> t & 1]
    best_t, best_sh = quick_discard(keys, nm, hand, tiles, danger, drawn, now)
    tile = _TILES[best_t]
    if (
        declare
        and best_sh == 0
        and state.wall_remaining >= state.rules.liangdao_min_wall
        and _live(state, seat, liangdao_waits(own, tile), best_t)
    ):
        return action(seat, ActionKind.LIANGDAO, tile)
    return action(seat, ActionKind.DISCARD, tile)


def _live(state: State, seat: int, waits: tuple[Tile, ...], discard: int) -> bool:
    """Whether some wait still has a copy the seat cannot see (its own hand after ``discard``, the
    ponds, the melds shown, the revealed 亮倒 hands)."""
    if not waits:
        return False
    own = state.seats[seat]
    for w in waits:
        seen = own.hand[w] - (1 if w == discard else 0)
        for i, s in enumerate(state.seats):
            seen += sum(1 for d in s.discards if d.tile == w and not d.claimed)
            seen += sum(m.kind.size for m in s.melds if m.tile == w and (i == seat or m.kind.name != "CONCEALED_KONG"))
            if i != seat and s.liangdao:
                seen += s.hand[w] - s.hidden.count(_TILES[w])
        if seen < 4:
            return True
    return False
