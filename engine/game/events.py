"""Events: the facts of a hand, in order (docs/architecture.md §2 "decide / evolve").

Every event is a frozen value with a ``seq`` (1, 2, 3, ... within the hand) and a stable JSON form:
``event.to_json()`` is a plain dict with ``"seq"`` and ``"type"`` first, and
``event_from_json(event.to_json()) == event``.  The bot's store persists these dicts; a hand replays
exactly with ``functools.reduce(evolve, events, EMPTY)``.

Types (``type`` value — fields):

* ``hand_started`` — ``rules`` (a preset name or ``{"preset": ..., <changed options>}``), ``dealer``,
  ``seed`` (the shuffle seed or null), ``hands`` (the tiles dealt per seat in dealing order; the
  dealer's 14th tile last), ``wall`` (the live wall in draw order).  This is the chance of the hand.
* ``drew`` — ``seat``, ``tile``, ``replacement`` (a kong replacement from the wall's back, A3.2).
* ``discarded`` — ``seat``, ``tile``, ``liangdao`` (亮倒 declared with it, A9.1), ``waits`` (the
  published waits when ``liangdao``), ``auto`` (made automatically for a 亮倒 seat, A9.3), ``hidden``
  (a partial reveal's face-down tiles, only when not empty) and ``declined`` (only on a discard a
  seat that had already declared 亮倒 chose to make: whether it declined a 自摸 it could declare,
  which counts for 过胡翻番; a log written before the key existed gets it from
  :func:`engine.game.upgrade.upgrade_events`).
* ``window_opened`` — ``kind`` ("claim" on a discard, "rob" on a declared 补杠), ``from_seat``,
  ``tile``, ``options`` (per seat: ``win`` = M or 0, ``kong``, ``pong``), ``gangpao``, ``last``.
* ``answered`` — ``seat``, ``answer`` ("win", "kong", "pong", "pass"), ``auto`` (a 亮倒 seat's
  automatic 胡, A9.4).
* ``ponged`` — ``seat``, ``tile``, ``from_seat``.
* ``konged`` — ``seat``, ``kind`` (concealed_kong, added_kong, kong), ``tile``, ``from_seat``,
  ``money`` (kong money per seat, sums to 0, A13), ``chain`` (its place in a 杠上杠 chain, 1 = first).
* ``hand_ended`` — ``outcome`` ("win", "draw" or, in 卡心五, "guansi"), ``winners``, ``hand_deltas``,
  ``kong_deltas``, ``deltas``, ``next_dealer``, and when set ``guansi`` / ``chajiao`` (the
  :class:`engine.views.HandResultView`).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from ..fans import Fan
from ..rules import RuleError, RuleSet
from ..scoring import WinBy
from ..tiles import MeldKind, NotationError, Tile, format_tiles, parse_tile, parse_tiles
from ..views import HandResultView, MeldView, Outcome, WinView
from .actions import ActionKind
from .state import ClaimOption, WindowKind

__all__ = [
    "Answered",
    "Discarded",
    "Drew",
    "Event",
    "HandEnded",
    "HandStarted",
    "Konged",
    "Ponged",
    "WindowOpened",
    "event_from_json",
    "rules_from_json",
    "rules_to_json",
]


def rules_to_json(rules: RuleSet) -> Any:
    """Compact JSON of a RuleSet: ``"standard"`` or ``{"preset": "standard", <options that differ>}``."""
    base = _STANDARD_JSON
    cur = rules.to_json()
    diff: dict[str, Any] = {}
    for key, value in cur.items():
        if value == base[key]:
            continue
        if isinstance(value, dict):
            diff[key] = {k: v for k, v in value.items() if v != base[key].get(k)}
        else:
            diff[key] = value
    if not diff:
        return "standard"
    return {"preset": "standard", **diff}


def rules_from_json(value: object) -> RuleSet:
    """Inverse of :func:`rules_to_json` (any form :meth:`RuleSet.from_json` accepts)."""
    return RuleSet.from_json(value)


_STANDARD_JSON = RuleSet().to_json()


@dataclass(frozen=True, slots=True)
class HandStarted:
    """The deal (A3): rules, dealer and the chance.  ``hands[s]`` in dealing order (13 tiles, the
    dealer 14 with the 14th last: the tile he starts his turn with, E#43); ``wall`` in draw order."""

    seq: int
    rules: RuleSet
    dealer: int
    hands: tuple[tuple[Tile, ...], ...]
    wall: tuple[Tile, ...]
    seed: str | None = None
    type: ClassVar[str] = "hand_started"

    def to_json(self) -> dict[str, Any]:
        """JSON form (see module docstring)."""
        return {
            "seq": self.seq,
            "type": self.type,
            "rules": rules_to_json(self.rules),
            "dealer": self.dealer,
            "seed": self.seed,
            "hands": [format_tiles(h, sort=False) for h in self.hands],
            "wall": format_tiles(self.wall, sort=False),
        }


@dataclass(frozen=True, slots=True)
class Drew:
    """``seat`` drew ``tile``: from the wall's front, or its back when ``replacement`` (A3.2)."""

    seq: int
    seat: int
    tile: Tile
    replacement: bool = False
    type: ClassVar[str] = "drew"

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "seq": self.seq,
            "type": self.type,
            "seat": self.seat,
            "tile": str(self.tile),
            "replacement": self.replacement,
        }


@dataclass(frozen=True, slots=True)
class Discarded:
    """``seat`` discarded ``tile``; with ``liangdao`` it declared 亮倒 (A9.1) and ``waits`` are the
    published waits (A9.2).  ``auto``: the automatic 摸打 of a 亮倒 seat (A9.3).  ``hidden``: the kept
    tiles left face down by a partial reveal (``liangdao_reveal = kou`` / ``minimal``, §E#48); its JSON
    key ``hidden`` is written only when not empty.  ``declined``: on a discard that a seat which had
    already declared 亮倒 chose to make (not ``auto``), whether it could have declared 自摸 instead —
    a declined win, counted by 过胡翻番 (docs/rules.md §C ``guohu_fanfan``); None on every other
    discard, and on such a discard read from a log written before the key existed (then
    :func:`engine.game.upgrade.upgrade_events` derives it).  Its JSON key is written only when not
    None."""

    seq: int
    seat: int
    tile: Tile
    liangdao: bool = False
    waits: tuple[Tile, ...] = ()
    auto: bool = False
    hidden: tuple[Tile, ...] = ()
    declined: bool | None = None
    type: ClassVar[str] = "discarded"

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return (
            {
                "seq": self.seq,
                "type": self.type,
                "seat": self.seat,
                "tile": str(self.tile),
                "liangdao": self.liangdao,
                "waits": format_tiles(self.waits),
                "auto": self.auto,
            }
            | ({"hidden": format_tiles(self.hidden)} if self.hidden else {})
            | ({"declined": self.declined} if self.declined is not None else {})
        )


@dataclass(frozen=True, slots=True)
class WindowOpened:
    """A claim window opened (A5, A6.6, E#40) on ``tile`` from ``from_seat``."""

    seq: int
    kind: WindowKind
    from_seat: int
    tile: Tile
    options: tuple[ClaimOption, ...]
    gangpao: bool = False
    last: bool = False
    type: ClassVar[str] = "window_opened"

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "seq": self.seq,
            "type": self.type,
            "kind": self.kind.value,
            "from_seat": self.from_seat,
            "tile": str(self.tile),
            "options": [{"seat": o.seat, "win": o.win, "kong": o.kong, "pong": o.pong} for o in self.options],
            "gangpao": self.gangpao,
            "last": self.last,
        }


@dataclass(frozen=True, slots=True)
class Answered:
    """``seat`` answered the open window with ``answer`` (:class:`ActionKind` WIN, KONG, PONG or PASS);
    ``auto`` marks a 亮倒 seat's automatic 胡 (A9.4)."""

    seq: int
    seat: int
    answer: ActionKind
    auto: bool = False
    type: ClassVar[str] = "answered"

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"seq": self.seq, "type": self.type, "seat": self.seat, "answer": str(self.answer), "auto": self.auto}


@dataclass(frozen=True, slots=True)
class Ponged:
    """``seat`` made 碰 of ``tile`` discarded by ``from_seat`` (A5.1); it discards next (A4.2)."""

    seq: int
    seat: int
    tile: Tile
    from_seat: int
    type: ClassVar[str] = "ponged"

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "seq": self.seq,
            "type": self.type,
            "seat": self.seat,
            "tile": str(self.tile),
            "from_seat": self.from_seat,
        }


@dataclass(frozen=True, slots=True)
class Konged:
    """A completed kong (A6): ``kind`` 暗杠 / 补杠 / 直杠, ``from_seat`` the discarder of a 直杠 (else
    None), ``money`` the kong money per seat paid at once (A13.1, × the 杠上杠 factor of ``chain``)."""

    seq: int
    seat: int
    kind: MeldKind
    tile: Tile
    from_seat: int | None
    money: tuple[int, ...]
    chain: int = 1
    type: ClassVar[str] = "konged"

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "seq": self.seq,
            "type": self.type,
            "seat": self.seat,
            "kind": self.kind.value,
            "tile": str(self.tile),
            "from_seat": self.from_seat,
            "money": list(self.money),
            "chain": self.chain,
        }


@dataclass(frozen=True, slots=True)
class HandEnded:
    """The hand is over: ``result`` (A12, A14, A15)."""

    seq: int
    result: HandResultView
    type: ClassVar[str] = "hand_ended"

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        r = self.result
        return (
            {
                "seq": self.seq,
                "type": self.type,
                "outcome": str(r.outcome),
                "winners": [_win_to_json(w) for w in r.winners],
                "hand_deltas": list(r.hand_deltas),
                "kong_deltas": list(r.kong_deltas),
                "deltas": list(r.deltas),
                "next_dealer": r.next_dealer,
            }
            | ({"guansi": r.guansi} if r.guansi is not None else {})
            | ({"chajiao": list(r.chajiao)} if r.chajiao else {})
        )


Event = HandStarted | Drew | Discarded | WindowOpened | Answered | Ponged | Konged | HandEnded
"""Any event of a hand."""


def _win_to_json(w: WinView) -> dict[str, Any]:
    return {
        "seat": w.seat,
        "concealed": format_tiles(w.concealed),
        "melds": [
            {"kind": m.kind.value, "tile": None if m.tile is None else str(m.tile), "source": m.source} for m in w.melds
        ],
        "win_tile": str(w.win_tile),
        "by": str(w.by),
        "from_seat": w.from_seat,
        "fans": [str(f) for f in w.fans],
        "multiplier": {str(k): v for k, v in sorted(w.multiplier.items())},
        "baohu": w.baohu,
        "reading": w.reading,
    }


# ---------------------------------------------------------------------------- parsing


def _int(d: Mapping[str, Any], key: str) -> int:
    v = d.get(key)
    if not isinstance(v, int) or isinstance(v, bool):
        raise ValueError(f"event field {key!r} must be an integer, got {v!r}")
    return v


def _opt_int(d: Mapping[str, Any], key: str) -> int | None:
    return None if d.get(key) is None else _int(d, key)


def _bool(d: Mapping[str, Any], key: str) -> bool:
    v = d.get(key, False)
    if not isinstance(v, bool):
        raise ValueError(f"event field {key!r} must be true or false, got {v!r}")
    return v


def _str(d: Mapping[str, Any], key: str) -> str:
    v = d.get(key)
    if not isinstance(v, str):
        raise ValueError(f"event field {key!r} must be a string, got {v!r}")
    return v


def _tile(d: Mapping[str, Any], key: str) -> Tile:
    return parse_tile(_str(d, key))


def _tiles(d: Mapping[str, Any], key: str) -> tuple[Tile, ...]:
    return tuple(parse_tiles(_str(d, key)))


_ANSWERS = frozenset({ActionKind.WIN, ActionKind.KONG, ActionKind.PONG, ActionKind.PASS})


_E = TypeVar("_E", bound=enum.StrEnum)


def _named(d: Mapping[str, Any], key: str, kind: type[_E], what: str) -> _E:
    """The ``kind`` member spelled by the string field ``key``; ValueError naming the spellings."""
    text = _str(d, key)
    try:
        return kind(text)
    except ValueError:
        raise ValueError(f"unknown {what} {text!r}; one of {', '.join(m.value for m in kind)}") from None


def _fans(w: Mapping[str, Any]) -> tuple[Fan, ...]:
    names = w.get("fans", [])
    try:
        return tuple(Fan.of(str(f)) for f in names)
    except ValueError:
        raise ValueError(f"unknown 番 in {names!r}") from None


def _win_from_json(w: Mapping[str, Any]) -> WinView:
    melds = tuple(
        MeldView(MeldKind(m["kind"]), None if m.get("tile") is None else parse_tile(m["tile"]), m.get("source"))
        for m in w.get("melds", [])
    )
    multiplier = {int(k): int(v) for k, v in dict(w.get("multiplier", {})).items()}
    return WinView(
        seat=_int(w, "seat"),
        concealed=_tiles(w, "concealed"),
        melds=melds,
        win_tile=_tile(w, "win_tile"),
        by=_named(w, "by", WinBy, "win 'by'"),
        from_seat=_opt_int(w, "from_seat"),
        fans=_fans(w),
        multiplier=multiplier,
        baohu=_bool(w, "baohu"),
        reading=str(w.get("reading", "")),
    )


def event_from_json(value: object) -> Event:
    """Parse an event's JSON form; raises ``ValueError`` (incl. :class:`NotationError`,
    :class:`RuleError`) saying what is wrong."""
    if not isinstance(value, Mapping):
        raise ValueError(f"an event must be an object, got {type(value).__name__}")
    d = value
    kind = d.get("type")
    seq = _int(d, "seq")
    try:
        if kind == "hand_started":
            hands = d.get("hands")
            if not isinstance(hands, list):
                raise ValueError("hand_started needs 'hands', a list of tile strings")
            seed = d.get("seed")
            if seed is not None and not isinstance(seed, str):
                raise ValueError("hand_started 'seed' must be a string or null")
            return HandStarted(
                seq,
                rules_from_json(d.get("rules")),
                _int(d, "dealer"),
                tuple(tuple(parse_tiles(h)) for h in hands),
                _tiles(d, "wall"),
                seed,
            )
        if kind == "drew":
            return Drew(seq, _int(d, "seat"), _tile(d, "tile"), _bool(d, "replacement"))
        if kind == "discarded":
            return Discarded(
                seq,
                _int(d, "seat"),
                _tile(d, "tile"),
                _bool(d, "liangdao"),
                tuple(parse_tiles(d.get("waits") or "")),
                _bool(d, "auto"),
                tuple(parse_tiles(d.get("hidden") or "")),
                None if d.get("declined") is None else _bool(d, "declined"),
            )
        if kind == "window_opened":
            options = tuple(
                ClaimOption(_int(o, "seat"), _int(o, "win"), _bool(o, "kong"), _bool(o, "pong"))
                for o in d.get("options", [])
            )
            return WindowOpened(
                seq,
                WindowKind(_str(d, "kind")),
                _int(d, "from_seat"),
                _tile(d, "tile"),
                options,
                _bool(d, "gangpao"),
                _bool(d, "last"),
            )
        if kind == "answered":
            answer = _str(d, "answer")
            if answer not in _ANSWERS:
                raise ValueError(f"unknown answer {answer!r}")
            return Answered(seq, _int(d, "seat"), ActionKind(answer), _bool(d, "auto"))
        if kind == "ponged":
            return Ponged(seq, _int(d, "seat"), _tile(d, "tile"), _int(d, "from_seat"))
        if kind == "konged":
            money = d.get("money")
            if not isinstance(money, list):
                raise ValueError("konged needs 'money', a list of integers")
            return Konged(
                seq,
                _int(d, "seat"),
                MeldKind(_str(d, "kind")),
                _tile(d, "tile"),
                _opt_int(d, "from_seat"),
                tuple(int(x) for x in money),
                _int(d, "chain"),
            )
        if kind == "hand_ended":
            result = HandResultView(
                outcome=_named(d, "outcome", Outcome, "outcome"),
                winners=tuple(_win_from_json(w) for w in d.get("winners", [])),
                hand_deltas=tuple(int(x) for x in d.get("hand_deltas", [])),
                kong_deltas=tuple(int(x) for x in d.get("kong_deltas", [])),
                deltas=tuple(int(x) for x in d.get("deltas", [])),
                next_dealer=_int(d, "next_dealer"),
                guansi=_opt_int(d, "guansi"),
                chajiao=tuple(int(x) for x in d.get("chajiao", [])),
            )
            return HandEnded(seq, result)
    except (NotationError, RuleError):
        raise
    except (KeyError, TypeError) as exc:
        raise ValueError(f"malformed {kind} event: {exc}") from None
    raise ValueError(f"unknown event type {kind!r}")
