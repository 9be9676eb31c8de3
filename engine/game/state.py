"""The state of one hand: immutable values built by :func:`engine.game.evolve` (docs/architecture.md §2).

A :class:`State` is the whole truth of a hand (every seat's concealed tiles and the wall included);
only :mod:`engine.game.views` turns it into what a seat may see.  All values are frozen, so a state
can be shared, compared (``reduce(evolve, events, EMPTY) == live_state``) and kept as history.

Tile counts are 30-tuples indexed by :class:`~engine.tiles.Tile`; ``keys`` are the matching suit keys
of :mod:`engine.analysis` (kept in step with the counts so hand questions are table reads).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, TypeVar

from ..analysis import Keys
from ..rules import RuleSet
from ..tiles import Meld, MeldKind, Tile
from ..views import DiscardView, HandResultView, Phase
from .actions import ActionKind

__all__ = ["EMPTY", "ClaimOption", "Phase", "SeatState", "State", "Window", "WindowKind", "updated"]

_T = TypeVar("_T")
_TILES = tuple(Tile)
_new = object.__new__
_set = object.__setattr__


_COPIERS: dict[type, Any] = {}
_MISSING = object()


def _copier(cls: type) -> Any:
    """Generate ``copy(obj, **changes)`` for one slotted class: one line per slot, no loop."""
    names: tuple[str, ...] = cls.__slots__  # type: ignore[attr-defined]
    params = ", ".join(f"{n}=_M" for n in names)
    body = "".join(f"    _set(new, {n!r}, obj.{n} if {n} is _M else {n})\n" for n in names)
    source = f"def copy(obj, *, {params}):\n    new = _new(cls)\n{body}    return new\n"
    scope: dict[str, Any] = {"_new": _new, "_set": _set, "cls": cls, "_M": _MISSING}
    exec(source, scope)  # the source is built from the class's own slot names only
    _COPIERS[cls] = scope["copy"]
    return scope["copy"]


def updated(obj: _T, **changes: Any) -> _T:
    """A copy of the frozen slotted dataclass ``obj`` with ``changes`` applied.

    Same result as :func:`dataclasses.replace` for these classes (no ``__post_init__``, no
    ``InitVar``), about three times faster: the state machine copies a state for every event.
    Unknown field names raise ``TypeError``.
    """
    copier = _COPIERS.get(type(obj)) or _copier(type(obj))
    new: _T = copier(obj, **changes)
    return new


class WindowKind(enum.Enum):
    """A claim window on a discard (胡/杠/碰, A5) or on a declared 补杠 (抢杠胡 only, A6.6)."""

    CLAIM = "claim"
    ROB = "rob"


@dataclass(frozen=True, slots=True)
class ClaimOption:
    """What one seat may do with the tile on the table.

    ``win``: the uncapped multiplier M against the discarder / robbed seat if a legal, un-blocked
    胡 is possible (A8.2, A8.3), else 0.  ``kong``: 直杠 possible.  ``pong``: 碰 possible.
    """

    seat: int
    win: int
    kong: bool
    pong: bool


@dataclass(frozen=True, slots=True)
class Window:
    """An open claim window (E#40).

    ``from_seat``/``tile``: the discarder (or the seat declaring 补杠) and the tile.
    ``options``: seats that may claim, in seat order.  ``answers``: (seat, answer) in answer order, the
    answer an :class:`~engine.game.actions.ActionKind` (WIN, KONG, PONG or PASS).
    ``gangpao``: the discard is the first after a kong's replacement draw (杠上炮 E#31; a 直杠 of it
    continues a 杠上杠 chain, A13.3).  ``last``: the final discard of the hand (A5.4, A16.2).
    """

    kind: WindowKind
    from_seat: int
    tile: Tile
    options: tuple[ClaimOption, ...]
    answers: tuple[tuple[int, ActionKind], ...] = ()
    gangpao: bool = False
    last: bool = False

    def option(self, seat: int) -> ClaimOption | None:
        """The seat's options, or None."""
        for o in self.options:
            if o.seat == seat:
                return o
        return None

    def answer(self, seat: int) -> ActionKind | None:
        """The seat's answer so far, or None."""
        for s, a in self.answers:
            if s == seat:
                return a
        return None

    def pending(self) -> tuple[int, ...]:
        """Seats whose answer the window still waits for (E#40): every seat with an option until some
        seat answers 胡; from then on only the unanswered seats that could also 胡."""
        answered = {s for s, _ in self.answers}
        any_win = any(a is ActionKind.WIN for _, a in self.answers)
        return tuple(o.seat for o in self.options if o.seat not in answered and (o.win or not any_win))


@dataclass(frozen=True, slots=True)
class SeatState:
    """One seat's part of the hand.

    ``hand``: 30 counts of the concealed tiles (the drawn tile included, 13 - 3*melds or one more).
    ``keys``: suit keys of ``hand``.  ``melds``: 碰 and kongs in declaration order.
    ``discards``: the pond in discard order.  ``liangdao``: 亮倒 declared (A9); ``waits``: its published
    wait set.  ``louhu``: (tile, M) of each legal win passed since the seat's last draw / 碰 / 直杠
    (A8.3, E#9).  ``passed_pong``: tiles whose 碰 was declined since then (option guoshou_peng, A5.5).
    ``kong_money``: points of 底金 won (+) or paid (-) through kongs this hand (A13).
    ``declined``: wins declined after 亮倒 — passed in claim windows, or a 自摸 it could declare and
    discarded instead (each ×2 under option guohu_fanfan, docs/rules.md §C).
    ``hidden``: the concealed tiles a 亮倒 seat keeps face down (``liangdao_reveal = kou`` / ``minimal``,
    docs/rules.md §A9.2, §E#48), sorted; () when the whole hand is shown or there is no 亮倒.
    """

    hand: tuple[int, ...]
    keys: Keys
    melds: tuple[Meld, ...] = ()
    discards: tuple[DiscardView, ...] = ()
    liangdao: bool = False
    waits: tuple[Tile, ...] = ()
    louhu: tuple[tuple[Tile, int], ...] = ()
    passed_pong: tuple[Tile, ...] = ()
    kong_money: int = 0
    declined: int = 0
    hidden: tuple[Tile, ...] = ()

    @property
    def concealed_count(self) -> int:
        """Tiles in hand."""
        return sum(self.hand)

    def meld_count(self, tile: int) -> int:
        """Copies of ``tile`` in this seat's melds."""
        return sum(m.kind.size for m in self.melds if m.tile == tile)

    def pong_of(self, tile: int) -> bool:
        """Whether the seat has an exposed 碰 of ``tile``."""
        return any(m.kind is MeldKind.PONG and m.tile == tile for m in self.melds)

    def tiles(self) -> list[Tile]:
        """The concealed tiles, sorted."""
        return [_TILES[t] for t, n in enumerate(self.hand) for _ in range(n)]


@dataclass(frozen=True, slots=True)
class State:
    """One hand of 卡五星.

    ``rules``: the house rules.  ``seq``: events applied so far.  ``dealer``: seat of the dealer.
    ``seed``: the shuffle seed, if the deal came from one.  ``kinds``: the tile kinds in play (4 each).
    ``wall``/``front``/``back``: the live wall is ``wall[front:back]``; draws take ``wall[front]``,
    kong replacements ``wall[back - 1]`` (A3.2).  ``turn``: the seat whose turn it is (the discarder
    while a claim window is open).  ``drawn``: the tile the turn seat drew last (None after 碰).
    ``replacement``: ``drawn`` is a kong replacement (杠上开花, F9).  ``turn_draws``: every tile the
    turn seat drew this turn (补杠 E#42).  ``chain``: kongs in the live 杠上杠 chain (A13.3), 0 when none.
    ``window``: the open claim window.  ``last_drawer``: the last seat that drew from the wall.
    ``liangdao_order``: seats in the order they declared 亮倒.  ``result``: set when the hand is over.
    """

    rules: RuleSet
    seq: int
    phase: Phase
    dealer: int
    seed: str | None
    kinds: tuple[Tile, ...]
    seats: tuple[SeatState, ...]
    wall: tuple[Tile, ...]
    front: int
    back: int
    turn: int
    drawn: Tile | None = None
    replacement: bool = False
    turn_draws: tuple[Tile, ...] = ()
    chain: int = 0
    window: Window | None = None
    last_drawer: int | None = None
    liangdao_order: tuple[int, ...] = ()
    result: HandResultView | None = None

    @property
    def wall_remaining(self) -> int:
        """Tiles left in the live wall."""
        return self.back - self.front

    @property
    def over(self) -> bool:
        """Whether the hand has ended."""
        return self.phase is Phase.OVER

    def to_act(self) -> tuple[int, ...]:
        """Seats whose decision the hand waits for (none when it is over)."""
        if self.phase is Phase.TURN:
            return (self.turn,)
        if self.window is not None and self.phase in (Phase.CLAIM, Phase.ROB):
            return self.window.pending()
        return ()

    def tile_counts(self) -> list[int]:
        """Every tile of the hand, 30 counts: concealed hands, melds, unclaimed pond tiles and the
        live wall.  Always four of each kind in play (84 tiles in the standard game, docs/rules.md §A1.1)."""
        counts = [0] * 30
        for seat in self.seats:
            for t, n in enumerate(seat.hand):
                counts[t] += n
            for m in seat.melds:
                counts[m.tile] += m.kind.size
            for d in seat.discards:
                if not d.claimed:
                    counts[d.tile] += 1
        for t in self.wall[self.front : self.back]:
            counts[t] += 1
        return counts


EMPTY = State(
    rules=RuleSet(),
    seq=0,
    phase=Phase.DEAL,
    dealer=0,
    seed=None,
    kinds=(),
    seats=(),
    wall=(),
    front=0,
    back=0,
    turn=0,
)
"""The state before any event: ``functools.reduce(evolve, events, EMPTY)`` replays a hand.  The
first event (``hand_started``) brings the rules, the dealer and the chance (seed and dealt tiles)."""
