"""Views of a hand (docs/architecture.md §2 "Views are the only doors"): what one seat, or everybody, may see.

* :func:`public_view` — the table: melds (another seat's 暗杠 face down: ``tile`` None), ponds,
  revealed 亮倒 hands and waits, counts of hidden tiles, kong money, whose turn, the discard on the
  table, the wall count and, once the hand is over, the result (winners' hands are public then).
* :func:`view_for` — the public view plus the seat's own concealed tiles, drawn tile, own melds with
  every tile, own waits (after 亮倒 / 廊起 the published ones, docs/rules.md §E#48) and shanten.

A view never contains another seat's concealed tiles, except the revealed hand of a 亮倒 seat (A9.2):
the whole hand, or after a partial reveal (``liangdao_reveal = kou`` / ``minimal``, §E#48) only the
shown tiles, the face-down rest as ``hidden_count``.
"""

from __future__ import annotations

from ..tiles import MeldKind, Tile
from ..views import MeldView, PublicSeatView, PublicView, SeatView
from .hands import moved, shanten_of, wait_tiles
from .state import Phase, SeatState, State

__all__ = ["baohu_tiles", "public_view", "view_for"]


def _revealed(state: State, i: int, seat: SeatState) -> tuple[Tile, ...]:
    """A 亮倒 seat's revealed hand: its concealed tiles except a tile it has just drawn and the tiles a
    partial reveal keeps face down (docs/rules.md §A9.2, §E#48)."""
    tiles = seat.tiles()
    if state.phase is Phase.TURN and state.turn == i and state.drawn is not None:
        tiles.remove(state.drawn)
    for t in seat.hidden:
        tiles.remove(t)
    return tuple(tiles)


_MEMO: dict[int, tuple[SeatState, int, PublicSeatView]] = {}


def _public_seat(state: State, i: int) -> PublicSeatView:
    """The public part of one seat; memoised on the (immutable) seat state for seats that have not
    declared 亮倒 (their public part depends on nothing else)."""
    seat = state.seats[i]
    if not seat.liangdao:
        hit = _MEMO.get(id(seat))
        if hit is not None and hit[0] is seat and hit[1] == i:
            return hit[2]
    view = PublicSeatView(
        seat=i,
        concealed_count=seat.concealed_count,
        melds=tuple(
            MeldView(m.kind, None if m.kind is MeldKind.CONCEALED_KONG else m.tile, m.source) for m in seat.melds
        ),
        discards=seat.discards,
        liangdao=seat.liangdao,
        revealed=_revealed(state, i, seat) if seat.liangdao else (),
        waits=seat.waits if seat.liangdao else (),
        kong_money=seat.kong_money,
        hidden_count=len(seat.hidden),
    )
    if not seat.liangdao:
        if len(_MEMO) > 4096:
            _MEMO.clear()
        _MEMO[id(seat)] = (seat, i, view)
    return view


def public_view(state: State) -> PublicView:
    """The table as every player (and the group) sees it."""
    window = state.window
    last = (window.from_seat, window.tile) if window is not None else None
    return PublicView(
        seq=state.seq,
        dealer=state.dealer,
        turn=state.turn,
        phase=state.phase,
        to_act=state.to_act(),
        wall_remaining=state.wall_remaining,
        seats=tuple(_public_seat(state, i) for i in range(len(state.seats))),
        last_discard=last,
        result=state.result,
    )


def view_for(state: State, seat: int) -> SeatView:
    """What ``seat`` may see: the public view plus its own hand (``drawn`` apart from ``concealed``)."""
    own = state.seats[seat]
    drawn = state.drawn if state.phase is Phase.TURN and state.turn == seat else None
    tiles = own.tiles()
    if drawn is not None:
        tiles.remove(drawn)
        hand, keys = moved(own, drawn, -1)
    else:
        hand, keys = own.hand, own.keys
    if own.liangdao:  # the published waits: after a partial reveal the shown shape fixes them (§E#48)
        waits = own.waits
    else:
        waits = wait_tiles(hand, keys, own.melds) if sum(hand) == 13 - 3 * len(own.melds) else ()
    return SeatView(
        seat=seat,
        public=public_view(state),
        concealed=tuple(tiles),
        drawn=drawn,
        melds=tuple(MeldView(m.kind, m.tile, m.source) for m in own.melds),
        waits=waits,
        shanten=shanten_of(own.keys, len(own.melds)),
        danger=baohu_tiles(state, seat),
    )


def baohu_tiles(state: State, seat: int) -> tuple[Tile, ...]:
    """The tiles whose discard by ``seat`` would be 包胡 if a 亮倒 seat won on it (docs/rules.md
    §A9.7, as :func:`engine.scoring.score_win` applies it: the winner declared 亮倒 and the discarder
    did not): every other 亮倒 seat's published waits, in tile order; () when the rules have no 包胡
    (卡心五's protection forbids those discards instead, §B) or ``seat`` has declared 亮倒 itself."""
    if not state.rules.baohu or state.seats[seat].liangdao:
        return ()
    out: set[Tile] = set()
    for i, other in enumerate(state.seats):
        if i != seat and other.liangdao:
            out.update(other.waits)
    return tuple(sorted(out))
