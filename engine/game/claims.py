"""Claim windows (docs/rules.md §A5, §A6.6, §E#40): who may win, 杠 or 碰 the tile on the table, and
what a win on it is worth; 漏胡 (§A8.3)."""

from __future__ import annotations

from ..analysis import is_complete_keys
from ..rules import LiangdaoKong, Louhu, RuleSet
from ..scoring import WinBy, WinContext, WinScore, score_win
from ..tiles import Tile
from .basics import liangdao_flags
from .hands import keys_plus, liangdao_waits_kept
from .state import ClaimOption, SeatState, State, Window, WindowKind

__all__ = ["claim_score", "window_options"]


def claim_score(state: State, seat_no: int, window: Window) -> WinScore | None:
    """Score of ``seat_no`` winning the window's tile (None when the tile does not complete the hand)."""
    seat = state.seats[seat_no]
    t = window.tile
    if not is_complete_keys(keys_plus(seat.keys, t, 1), len(seat.melds)):
        return None
    if seat.liangdao and t not in seat.waits:  # the published (shown) waits only (docs/rules.md §E#48)
        return None
    rob = window.kind is WindowKind.ROB
    return win_score(
        state, seat_no, tuple(seat.tiles()), t, WinBy.ROB_KONG if rob else WinBy.DISCARD, window.from_seat,
        after_kong=window.gangpao and not rob, last_tile=window.last and not rob,
    )  # fmt: skip


def win_score(
    state: State, seat_no: int, concealed: tuple[Tile, ...], win_tile: Tile, win_by: WinBy, discarder: int | None,
    *, after_kong: bool, last_tile: bool,
) -> WinScore:  # fmt: skip
    """``seat_no`` winning ``win_tile`` (``concealed``: the tiles in hand without it), scored with
    what the state knows of the seat and the table: melds, every seat's 亮倒, the kong chain, the
    declined wins, a 廊起 hand's hidden tiles and shown waits (docs/rules.md Appendix 2)."""
    seat = state.seats[seat_no]
    ctx = WinContext(
        concealed=concealed,
        melds=seat.melds,
        win_tile=win_tile,
        win_by=win_by,
        winner=seat_no,
        discarder=discarder,
        liangdao=liangdao_flags(state),
        after_kong=after_kong,
        last_tile=last_tile,
        kong_chain=max(state.chain, 1),
        declined_wins=seat.declined,
        num_players=state.rules.players,
        hidden=seat.hidden,
        waits=seat.waits if seat.liangdao else None,
    )
    return score_win(ctx, state.rules)


def _louhu_blocks(rules: RuleSet, seat: SeatState, tile: Tile, m: int) -> bool:
    """漏胡 (A8.3, E#9): whether the passed wins block a new discard win worth ``m`` on ``tile``."""
    if not seat.louhu:
        return False
    mode = rules.louhu
    if mode is Louhu.STRICT:
        return True
    if mode is Louhu.BIGGER_EXCEPTION:
        return m <= max(p for _, p in seat.louhu)
    return any(t == tile and m <= p for t, p in seat.louhu)


def window_options(
    state: State, kind: WindowKind, from_seat: int, tile: Tile, gangpao: bool, last: bool
) -> tuple[ClaimOption, ...]:
    """Every seat but ``from_seat`` that may win, 直杠 or 碰 ``tile`` now, in seat order (docs/rules.md
    §A5, §A6.6): a win only when legal and not blocked by 漏胡; on a rob window or the last discard
    only wins; a 亮倒 seat never 碰s and 直杠s only when its waits stay the same (§A9.5)."""
    rules = state.rules
    probe = Window(kind, from_seat, tile, (), (), gangpao, last)
    out = []
    for s in range(rules.players):
        if s == from_seat:
            continue
        seat = state.seats[s]
        win = 0
        if is_complete_keys(keys_plus(seat.keys, tile, 1), len(seat.melds)):
            score = claim_score(state, s, probe)
            if score is not None and score.legal:
                m = score.discarder_multiplier or 0
                if not _louhu_blocks(rules, seat, tile, m):
                    win = m
        kong = pong = False
        if kind is WindowKind.CLAIM and not last:
            n = seat.hand[tile]
            if n >= 2 and not seat.liangdao and tile not in seat.passed_pong:
                pong = True
            if n == 3:
                if not seat.liangdao:
                    kong = True
                elif rules.liangdao_kong is LiangdaoKong.WAITS_UNCHANGED:
                    kong = liangdao_waits_kept(seat, tile, 3, 1)
        if win or kong or pong:
            out.append(ClaimOption(s, win, kong, pong))
    return tuple(out)
