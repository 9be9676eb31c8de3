"""The pictures a screen shows, as render requests: what to draw, from which view, in which language.

A picture value is everything :mod:`render` needs for one picture (the engine's view, the names, the
language, the game and the marks the engine decided), so drawing it decides nothing.  Its ``key``
names what it shows (docs/architecture.md §4 "The screen model"): a message is given a new picture only
when the key changes, otherwise its caption or buttons are edited alone (cheaper, and no re-upload).

* A hand picture's key is the seat's own tiles (concealed, drawn, melds, waits, 亮倒 -- after a
  partial 亮倒 / 廊起 also the shown tiles and published waits), the protected tiles marked in it, the
  language and the game: the table drawn above the tiles (the other seats' ponds, melds and 亮倒
  hands), the wall count and unseen-copy numbers are a snapshot of the moment the picture was drawn --
  the last time the seat's tiles changed or a claim window opened for it (:func:`claim_key`), so the
  other seats' moves cost no write.  Its ``exact`` key adds the table part (:func:`hand_table_key`):
  an uploaded picture (its ``file_id``) is sent again only where it shows exactly that.
* The table picture's key is the whole public view, the names, the running totals, the language and
  the game; the 亮倒 reveal and the result pictures are drawn once, from the moment they announce.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from render.hand import relative_word

from ..game import HandTiles, PublicView, Ruleset, SeatView, Tile
from .json import plain

__all__ = [
    "CLAIM_MARK",
    "HandPicture",
    "Picture",
    "ResultPicture",
    "RevealPicture",
    "TablePicture",
    "claim_key",
    "hand_key",
    "hand_table_key",
    "table_key",
]


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=10).hexdigest()


def hand_key(
    view: SeatView, lang: str = "zh_CN", protected: Collection[Tile] = (), ruleset: str = Ruleset.KAWUXING
) -> str:
    """Photo key of a hand picture in ``lang`` of ``ruleset`` with the ``protected`` tiles marked (see
    module docstring); a partial 亮倒 / 廊起 adds the shown tiles and published waits, which the
    picture marks."""
    own = view.public.seats[view.seat]
    shown = (own.revealed, own.hidden_count, own.waits) if own.liangdao else ()
    guard = tuple(sorted(protected))
    key = (view.concealed, view.drawn, view.melds, view.waits, own.liangdao, lang, shown, guard, str(ruleset))
    return "h" + _digest(repr(key))


CLAIM_MARK = "@"
"""Separates a hand picture's key from the claim window it was drawn for (:func:`claim_key`)."""


def claim_key(key: str, seq: int) -> str:
    """The photo key of hand picture ``key`` drawn when the claim window at the hand's event ``seq``
    opened for the seat (碰 / 杠 / 胡 buttons, docs/rules.md §A5): a key of its own, so the window's
    edit carries a fresh picture of the table (the player sees the discard and the ponds while
    deciding) in the one write it costs anyway."""
    return f"{key}{CLAIM_MARK}{seq}"


def hand_table_key(view: PublicView, names: Sequence[str]) -> str:
    """What the table part of a hand picture is drawn from (the public view and the names): with
    the photo key it names the picture exactly, so an uploaded picture is only sent again (by its
    ``file_id``) where the table it shows is the current one."""
    return _digest(repr((view, tuple(names))))


def table_key(
    view: PublicView,
    names: Sequence[str],
    lang: str = "zh_CN",
    totals: Sequence[int] | None = None,
    ruleset: str = Ruleset.KAWUXING,
) -> str:
    """Photo key of a table picture of ``ruleset`` in ``lang`` with the seats' running match ``totals``."""
    return "t" + _digest(repr((view, tuple(names), lang, None if totals is None else tuple(totals), str(ruleset))))


@dataclass(frozen=True, slots=True)
class HandPicture:
    """A player's private hand picture (:func:`render.render_hand`): ``view`` (the seat's own view,
    its ⚠ tiles in ``view.danger``), the players' display ``names`` in ``lang``, the ``protected``
    tiles the seat may not discard (docs/rules.md §A9.8, §B), and ``window``: the event seq of the
    claim window it is drawn for (None outside one)."""

    view: SeatView
    names: tuple[str, ...]
    lang: str
    ruleset: Ruleset
    protected: tuple[Tile, ...] = ()
    window: int | None = None
    key: str = field(init=False, repr=False, compare=False)
    """What the picture shows of the seat (module docstring)."""

    def __post_init__(self) -> None:
        key = hand_key(self.view, self.lang, self.protected, self.ruleset)
        object.__setattr__(self, "key", key if self.window is None else claim_key(key, self.window))

    @property
    def exact(self) -> str:
        """What the picture shows, the table part included (an upload may be sent again by it)."""
        return f"{self.key}|{hand_table_key(self.view.public, self.names)}"

    def to_json(self) -> dict[str, Any]:
        """Plain JSON (tiles in the engine's notation, docs/rules.md §0.3); ``relative``: per seat,
        the pictures' word for where it sits from the player, as the picture labels it
        (:func:`render.hand.relative_word`: ``"next_seat"`` / ``"across"`` / ``"previous"``, ``""``
        for his own), a field of the labels the page is given (docs/webapp.md §1)."""
        relative = [relative_word(self.view, s) for s in range(len(self.view.public.seats))]
        return {"kind": "hand", "key": self.key, "lang": self.lang, "ruleset": str(self.ruleset),
                "names": list(self.names), "view": plain(self.view), "protected": plain(self.protected),
                "relative": relative}  # fmt: skip


@dataclass(frozen=True, slots=True)
class TablePicture:
    """The group's live table picture (:func:`render.render_table`): the group's ``view``, display
    ``names``, ``lang``, and each seat's running match total (``totals``)."""

    view: PublicView
    names: tuple[str, ...]
    lang: str
    ruleset: Ruleset
    totals: tuple[int, ...]
    key: str = field(init=False, repr=False, compare=False)
    """What the picture shows: all of it."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", table_key(self.view, self.names, self.lang, self.totals, self.ruleset))

    @property
    def exact(self) -> str:
        """The same as :attr:`key`: the picture shows nothing else."""
        return self.key

    def to_json(self) -> dict[str, Any]:
        """Plain JSON."""
        return {"kind": "table", "key": self.key, "lang": self.lang, "ruleset": str(self.ruleset),
                "names": list(self.names), "view": plain(self.view), "totals": list(self.totals)}  # fmt: skip


@dataclass(frozen=True, slots=True)
class RevealPicture:
    """The group's 亮倒 / 廊起 reveal picture of ``seat`` (:func:`render.render_reveal`), drawn from
    ``view``: the table right after the declaration."""

    view: PublicView
    seat: int
    names: tuple[str, ...]
    lang: str
    ruleset: Ruleset

    @property
    def key(self) -> str:
        """What the picture shows: all of it."""
        return "r" + _digest(repr((self.view, self.seat, self.names, self.lang, str(self.ruleset))))

    @property
    def exact(self) -> str:
        """The same as :attr:`key`."""
        return self.key

    def to_json(self) -> dict[str, Any]:
        """Plain JSON."""
        return {"kind": "reveal", "seat": self.seat, "lang": self.lang, "ruleset": str(self.ruleset),
                "names": list(self.names), "view": plain(self.view)}  # fmt: skip


@dataclass(frozen=True, slots=True)
class ResultPicture:
    """The hand's result picture (:func:`render.render_result`): ``view`` with its result, every
    seat's hand face up (``hands``, public once the hand is over)."""

    view: PublicView
    names: tuple[str, ...]
    lang: str
    ruleset: Ruleset
    hands: tuple[HandTiles, ...]

    @property
    def key(self) -> str:
        """What the picture shows: all of it."""
        return "s" + _digest(repr((self.view, self.names, self.lang, str(self.ruleset), self.hands)))

    @property
    def exact(self) -> str:
        """The same as :attr:`key`."""
        return self.key

    def to_json(self) -> dict[str, Any]:
        """Plain JSON."""
        return {"kind": "result", "lang": self.lang, "ruleset": str(self.ruleset), "names": list(self.names),
                "view": plain(self.view), "hands": plain(self.hands)}  # fmt: skip


Picture = HandPicture | TablePicture | RevealPicture | ResultPicture
"""Any picture a screen or an announcement shows."""
