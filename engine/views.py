"""Views: the only doors through which a hand's state leaves the engine (docs/architecture.md §2).

A :class:`PublicView` holds what every player at the table may see; a :class:`SeatView` adds one
seat's own concealed tiles.  Renderers and handlers take views, never the full state, so hidden tiles
cannot leak by accident.  Concealed tiles of another seat appear only when that seat has declared
亮倒 (docs/rules.md §A9.2: the whole concealed hand is revealed) or when the hand is over and a winner's hand
is shown in its :class:`WinView`.

All tile fields use :class:`engine.tiles.Tile`; seats are 0 to ``rules.players - 1`` in turn order
(docs/rules.md §A2.3).  Every closed set of names is an enum: the phase (:class:`Phase`), how a win
was made (:class:`~engine.scoring.WinBy`), how a hand ended (:class:`Outcome`), the 番
(:class:`~engine.fans.Fan`).  They are string enums whose values are the command line's spellings, so
a member also equals that string (``Phase.OVER == "over"``).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .fans import Fan
from .scoring import WinBy
from .tiles import MeldKind, Tile

__all__ = [
    "DiscardView",
    "HandResultView",
    "MeldView",
    "Outcome",
    "Phase",
    "PublicSeatView",
    "PublicView",
    "SeatView",
    "WinView",
]


class Phase(enum.StrEnum):
    """Where the hand is.  Stable phases (a seat must act, or the hand is over): TURN, CLAIM, ROB,
    OVER — the only ones a view shows.  DEAL (before the first event), DISCARDED (a discard is on the
    table, claims not yet computed) and KONGED (a kong awaits its replacement draw) only exist between
    the events of one :func:`engine.game.decide` call and are never handed out as a live state."""

    DEAL = "deal"
    TURN = "turn"
    DISCARDED = "discarded"
    CLAIM = "claim"
    ROB = "rob"
    KONGED = "konged"
    OVER = "over"


class Outcome(enum.StrEnum):
    """How a hand ended (docs/rules.md §A12, §A14, §B): a win (one or more winners), a 荒庄 / 流局
    (``draw``; 查叫 in 卡心五), or 卡心五's 关死 (``guansi``)."""

    WIN = "win"
    DRAW = "draw"
    GUANSI = "guansi"


@dataclass(frozen=True, slots=True)
class MeldView:
    """An exposed set as others see it.

    ``tile`` is None for another seat's 暗杠 (shown face down, docs/rules.md §A6.1); the owner's own view
    carries the tile.  ``source`` is the seat a claimed tile came from, if any.
    """

    kind: MeldKind
    tile: Tile | None
    source: int | None = None


@dataclass(frozen=True, slots=True)
class DiscardView:
    """One tile of a discard pond, in discard order.

    ``claimed``: taken by another seat's 碰/直杠 (drawn dimmed).  ``liangdao``: the discard made
    with the seat's 亮倒 declaration (docs/rules.md §A9.1).
    """

    tile: Tile
    claimed: bool = False
    liangdao: bool = False


@dataclass(frozen=True, slots=True)
class PublicSeatView:
    """One seat as everybody sees it.

    ``concealed_count``: tiles in hand (13 - 3*melds, +1 while holding a drawn tile).
    ``revealed``: the concealed tiles shown at 亮倒 (sorted; the whole hand except a drawn tile, or
    after a partial reveal — ``liangdao_reveal = kou`` / ``minimal``, docs/rules.md §A9.2, §E#48 — only
    the shown tiles), else ().  ``hidden_count``: the 亮倒 seat's tiles kept face down (shown as a
    count; ``concealed_count`` includes them).
    ``waits``: the published wait set of a 亮倒 seat (docs/rules.md §A9.2), else ().
    ``kong_money``: points of 底金 won (+) or paid (-) through kongs so far this hand (docs/rules.md §A13).
    """

    seat: int
    concealed_count: int
    melds: tuple[MeldView, ...]
    discards: tuple[DiscardView, ...]
    liangdao: bool
    revealed: tuple[Tile, ...]
    waits: tuple[Tile, ...]
    kong_money: int
    on_auto: bool = False
    hidden_count: int = 0


@dataclass(frozen=True, slots=True)
class PublicView:
    """The table as the group sees it.

    ``seq``: number of events applied so far (the hand's version, carried by buttons).
    ``to_act``: seats whose decision the engine waits for.  ``turn``: the seat whose turn it is.
    ``last_discard``: (seat, tile) of the discard currently on the table, or None.
    ``wall_remaining``: tiles left in the wall (84 - 40 at the start of a standard hand).
    ``phase``: :attr:`Phase.TURN`, ``CLAIM``, ``ROB`` or ``OVER`` (a string is converted).
    """

    seq: int
    dealer: int
    turn: int
    phase: Phase
    to_act: tuple[int, ...]
    wall_remaining: int
    seats: tuple[PublicSeatView, ...]
    last_discard: tuple[int, Tile] | None
    result: HandResultView | None = None

    def __post_init__(self) -> None:
        if type(self.phase) is not Phase:
            object.__setattr__(self, "phase", Phase(self.phase))


@dataclass(frozen=True, slots=True)
class SeatView:
    """What one seat may see: the public view plus its own concealed tiles.

    ``concealed``: own tiles in hand, sorted, excluding ``drawn``.  ``drawn``: the tile just drawn
    (shown apart), or None.  ``waits``: own waits when the hand (without ``drawn``) is ready; after
    亮倒 / 廊起 the published waits (after a partial reveal those of the shown shape, docs/rules.md §E#48).
    ``melds``: own melds with every tile visible (暗杠 included).
    ``shanten``: own shanten number (-1 complete, 0 ready).
    ``danger``: the tiles whose discard would make the seat pay for everybody (包胡, docs/rules.md
    §A9.7): every other 亮倒 seat's published waits, in tile order, when the rules have 包胡 and the
    seat itself has not declared 亮倒; () otherwise.  The one source of the ⚠ marks (the pictures and
    the buttons draw what this says).
    """

    seat: int
    public: PublicView
    concealed: tuple[Tile, ...]
    drawn: Tile | None
    melds: tuple[MeldView, ...]
    waits: tuple[Tile, ...]
    shanten: int
    danger: tuple[Tile, ...] = ()


@dataclass(frozen=True, slots=True)
class WinView:
    """A winner's hand at the end (public by then).

    ``concealed``: the 13 - 3*melds tiles before the winning tile; ``win_tile``: the winning tile;
    ``fans``: the chosen reading's 番 with situational factors and 亮倒 (docs/rules.md §A10; each
    :class:`~engine.fans.Fan` equals its Chinese name; their values are in the win's
    :attr:`engine.scoring.WinScore.fan_values`); ``multiplier``: uncapped M per paying seat;
    ``by``: :class:`~engine.scoring.WinBy`; ``from_seat``: the discarder / robbed seat, or None on
    自摸; ``baohu``: 包胡 applied (A9.7).  Strings given for ``by`` and ``fans`` are converted.
    """

    seat: int
    concealed: tuple[Tile, ...]
    melds: tuple[MeldView, ...]
    win_tile: Tile
    by: WinBy
    from_seat: int | None
    fans: tuple[Fan, ...]
    multiplier: dict[int, int]
    baohu: bool
    reading: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "by", WinBy(self.by))
        object.__setattr__(self, "fans", tuple(Fan.of(f) for f in self.fans))


@dataclass(frozen=True, slots=True)
class HandResultView:
    """How a hand ended: ``outcome`` (:class:`Outcome`: win, or draw = 荒庄), points of 底金 per seat.

    ``hand_deltas``: win payments (or 荒庄 亮倒 penalties, A14.2); ``kong_deltas``: kong money of the
    hand (A13); ``deltas``: their sum.  Every list sums to 0.  ``next_dealer``: per A15.
    卡心五 (docs/rules.md §B): ``outcome`` GUANSI (关死) names the 关死 seat in ``guansi`` (his
    payments in ``hand_deltas``, ``kong_deltas`` all 0: the hand's kong money is void); on a 流局
    (``outcome`` DRAW) ``chajiao`` lists the 被查叫 seats (every seat without 廊起) when some seat
    has 廊起.  A string given for ``outcome`` is converted.
    """

    outcome: Outcome
    winners: tuple[WinView, ...]
    hand_deltas: tuple[int, ...]
    kong_deltas: tuple[int, ...]
    deltas: tuple[int, ...]
    next_dealer: int
    guansi: int | None = None
    chajiao: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "outcome", Outcome(self.outcome))
