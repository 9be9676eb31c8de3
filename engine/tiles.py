"""Tiles, suits, melds and the text notation of kwx (docs/architecture.md §2, docs/rules.md §0.3, §A1).

Notation (MPSZ-like): ``1p..9p`` 筒 (dots), ``1s..9s`` 条 (bamboo), ``1m..9m`` 万 (characters, variant
rule sets only, docs/rules.md §A1.1), ``5z`` 白, ``6z`` 發, ``7z`` 中.  Runs of digits share the suit letter that
follows them: ``123p46s88s`` is 1p 2p 3p 4s 6s 8s 8s.  White space between groups is allowed.

Tiles are an :class:`~enum.IntEnum` with 30 members, so that they index count arrays directly:
index 0-8 = 1p-9p, 9-17 = 1s-9s, 18-26 = 1m-9m, 27 = 白 (5z), 28 = 發 (6z), 29 = 中 (7z).
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = [
    "DRAGONS",
    "NUM_KINDS",
    "NUM_SUITS",
    "STANDARD_KINDS",
    "Meld",
    "MeldKind",
    "NotationError",
    "Suit",
    "Tile",
    "counts_of",
    "format_tiles",
    "parse_meld",
    "parse_tile",
    "parse_tiles",
    "sorted_tiles",
]

NUM_KINDS = 30
"""Number of distinct tile kinds the engine knows (p, s, m suits and three dragons)."""


class NotationError(ValueError):
    """Malformed tile notation; the message says what is wrong and where."""


class Suit(enum.Enum):
    """The four tile families. ``z`` holds only the three dragons 5z 6z 7z."""

    DOTS = "p"  # 筒
    BAMBOO = "s"  # 条
    CHARACTERS = "m"  # 万 (variants only)
    DRAGONS = "z"  # 白 發 中

    @property
    def offset(self) -> int:
        """Index of the suit's first tile in :class:`Tile` order."""
        return _SUIT_OFFSET[self]


_SUIT_OFFSET = {Suit.DOTS: 0, Suit.BAMBOO: 9, Suit.CHARACTERS: 18, Suit.DRAGONS: 27}
_SUIT_CN = {Suit.DOTS: "筒", Suit.BAMBOO: "条", Suit.CHARACTERS: "万"}
_DRAGON_CN = ("白", "發", "中")


class Tile(enum.IntEnum):
    """One tile kind. ``int(tile)`` is its index in count arrays; ``str(tile)`` its notation."""

    P1 = 0
    P2 = 1
    P3 = 2
    P4 = 3
    P5 = 4
    P6 = 5
    P7 = 6
    P8 = 7
    P9 = 8
    S1 = 9
    S2 = 10
    S3 = 11
    S4 = 12
    S5 = 13
    S6 = 14
    S7 = 15
    S8 = 16
    S9 = 17
    M1 = 18
    M2 = 19
    M3 = 20
    M4 = 21
    M5 = 22
    M6 = 23
    M7 = 24
    M8 = 25
    M9 = 26
    WHITE = 27  # 白 5z
    GREEN = 28  # 發 6z
    RED = 29  # 中 7z

    def __bool__(self) -> bool:
        """Every tile is true, 1 Dot (index 0) included: ``if tile`` / ``tile or …`` never drop it
        (test ``is None`` for "no tile")."""
        return True

    @property
    def suit(self) -> Suit:
        """The tile's family."""
        return _TILE_SUIT[self]

    @property
    def number(self) -> int:
        """1-9 for suited tiles; 5, 6, 7 for 白 發 中 (their ``z`` digit)."""
        return _TILE_NUMBER[self]

    @property
    def is_dragon(self) -> bool:
        """True for 白 發 中, which form pungs and pairs but never runs (docs/rules.md §A7.1, §E#35)."""
        return self >= 27

    @property
    def chinese(self) -> str:
        """Chinese label, e.g. ``5条``, ``3筒``, ``中`` (used on buttons and pictures)."""
        if self.is_dragon:
            return _DRAGON_CN[self - 27]
        return f"{self.number}{_SUIT_CN[self.suit]}"

    def __str__(self) -> str:
        return f"{self.number}{self.suit.value}"

    def __repr__(self) -> str:
        return f"Tile({self})"

    @classmethod
    def of(cls, number: int, suit: Suit) -> Tile:
        """The tile ``number`` of ``suit``; raises :class:`NotationError` if there is none."""
        if suit is Suit.DRAGONS:
            if number not in (5, 6, 7):
                raise NotationError(
                    f"{number}z is not a 卡五星 tile: only 5z (白), 6z (發) and 7z (中); there are no winds"
                )
            return cls(27 + number - 5)
        if not 1 <= number <= 9:
            raise NotationError(f"{number}{suit.value}: tile numbers run from 1 to 9")
        return cls(suit.offset + number - 1)


_TILE_SUIT = {t: (Suit.DOTS, Suit.BAMBOO, Suit.CHARACTERS, Suit.DRAGONS)[min(t // 9, 3)] for t in Tile}
_TILE_NUMBER = {t: (t % 9 + 1) if t < 27 else (t - 22) for t in Tile}

DRAGONS: tuple[Tile, ...] = (Tile.WHITE, Tile.GREEN, Tile.RED)
NUM_SUITS = 3
"""The numbered suits 筒 条 万 (tile indices 0-8, 9-17, 18-26; the dragons follow)."""
STANDARD_KINDS: tuple[Tile, ...] = tuple(t for t in Tile if t.suit in (Suit.DOTS, Suit.BAMBOO)) + DRAGONS
"""The 21 kinds of the standard 84-tile set (docs/rules.md §A1.1)."""

_SUIT_LETTERS = {s.value: s for s in Suit}
_TOKEN = re.compile(r"\s+|[0-9]+[a-zA-Z]?|[^\s0-9]")


def parse_tiles(text: str, *, max_copies: int = 4) -> list[Tile]:
    """Parse notation such as ``"123p46s88s"`` or ``"5z 6z 7z"`` into tiles, in written order.

    Raises :class:`NotationError` for an unknown suit letter, digits without a suit letter, the
    digit 0, a wind (``1z``-``4z``), or more than ``max_copies`` copies of one tile (docs/rules.md §A1.1).
    """
    tiles: list[Tile] = []
    pos = 0
    for match in _TOKEN.finditer(text):
        token = match.group()
        pos = match.start()
        if token.isspace():
            continue
        letter = token[-1]
        if letter.isdigit():
            raise NotationError(f"digits {token!r} at position {pos} have no suit letter (p, s, m or z)")
        if not token[0].isdigit():
            raise NotationError(f"unexpected {token!r} at position {pos}: tiles are digits followed by p, s, m or z")
        suit = _SUIT_LETTERS.get(letter)
        if suit is None:
            raise NotationError(f"unknown suit letter {letter!r} at position {pos + len(token) - 1} (use p, s, m or z)")
        for ch in token[:-1]:
            if ch == "0":
                raise NotationError(f"0{letter} at position {pos}: there is no tile 0 (red fives are not used)")
            tiles.append(Tile.of(int(ch), suit))
    counts = counts_of(tiles)
    for tile in Tile:
        if counts[tile] > max_copies:
            raise NotationError(f"{counts[tile]} copies of {tile}: a set holds only {max_copies} of each tile")
    return tiles


def parse_tile(text: str) -> Tile:
    """Parse exactly one tile (``"5s"``); raises :class:`NotationError` otherwise."""
    tiles = parse_tiles(text)
    if len(tiles) != 1:
        raise NotationError(f"expected one tile, got {len(tiles)} in {text!r}")
    return tiles[0]


def sorted_tiles(tiles: Iterable[Tile]) -> list[Tile]:
    """Tiles in display order: 筒, 条, 万, then 白 發 中."""
    return sorted(tiles)


def format_tiles(tiles: Iterable[Tile], *, sort: bool = True) -> str:
    """Compact notation (``123p46s88s``); sorted by default, in given order with ``sort=False``.

    Consecutive tiles of one suit share its letter, so ``parse_tiles(format_tiles(x)) == sorted(x)``.
    """
    seq = sorted_tiles(tiles) if sort else list(tiles)
    out: list[str] = []
    for i, tile in enumerate(seq):
        out.append(str(tile.number))
        if i + 1 == len(seq) or seq[i + 1].suit is not tile.suit:
            out.append(tile.suit.value)
    return "".join(out)


def counts_of(tiles: Iterable[int]) -> list[int]:
    """A list of :data:`NUM_KINDS` counts, indexed by tile."""
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[t] += 1
    return counts


class MeldKind(enum.Enum):
    """Exposed or declared sets (docs/rules.md §A5, §A6.1). Values are the command-line spellings."""

    PONG = "pong"  # 碰
    KONG = "kong"  # 直杠 (claimed from a discard)
    CONCEALED_KONG = "concealed_kong"  # 暗杠
    ADDED_KONG = "added_kong"  # 补杠

    @property
    def size(self) -> int:
        """Tiles in the meld: 3 for 碰, 4 for every kong."""
        return 3 if self is MeldKind.PONG else 4

    @property
    def is_kong(self) -> bool:
        """True for the three kong kinds."""
        return self is not MeldKind.PONG

    @property
    def chinese(self) -> str:
        """碰 / 直杠 / 暗杠 / 补杠."""
        return _MELD_CN[self]


_MELD_CN = {MeldKind.PONG: "碰", MeldKind.KONG: "直杠", MeldKind.CONCEALED_KONG: "暗杠", MeldKind.ADDED_KONG: "补杠"}
_MELD_ALIASES = {m.value: m for m in MeldKind} | {m.chinese: m for m in MeldKind}


@dataclass(frozen=True, slots=True)
class Meld:
    """A 碰 or a kong: ``kind`` and the one ``tile`` it repeats (3 or 4 copies).

    ``source`` is the seat the claimed tile came from (碰, 直杠, and the 碰 under a 补杠), or None
    for 暗杠 and for melds given without history (e.g. on the ``score`` command line).
    """

    kind: MeldKind
    tile: Tile
    source: int | None = None

    def __post_init__(self) -> None:
        if self.tile.is_dragon and self.tile not in DRAGONS:  # pragma: no cover - enum makes it impossible
            raise NotationError(f"bad meld tile {self.tile}")

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """The meld's tiles (3 or 4 copies of ``tile``)."""
        return (self.tile,) * self.kind.size

    def __str__(self) -> str:
        return f"{self.kind.value} {format_tiles(self.tiles)}"


def parse_meld(text: str) -> Meld:
    """Parse ``"pong 111p"``, ``"kong 8888p"``, ``"concealed_kong 2222s"``, ``"added_kong 7777s"``.

    The bracketed docs/rules.md form ``"[碰 111p]"`` is accepted too.  Raises :class:`NotationError` when the
    kind is unknown or the tiles are not 3 (碰) or 4 (kongs) copies of one tile — runs are never melds
    in 卡五星 (no 吃, docs/rules.md §A5.1).
    """
    body = text.strip().strip("[]").strip()
    parts = body.split(None, 1)
    if len(parts) != 2:
        raise NotationError(f"meld {text!r} should be a kind and tiles, e.g. 'pong 111p'")
    kind = _MELD_ALIASES.get(parts[0].lower()) or _MELD_ALIASES.get(parts[0])
    if kind is None:
        raise NotationError(f"unknown meld kind {parts[0]!r} (use pong, kong, concealed_kong or added_kong)")
    tiles = parse_tiles(parts[1])
    if len(tiles) != kind.size or len(set(tiles)) != 1:
        raise NotationError(
            f"meld {text!r}: a {kind.value} is {kind.size} copies of one tile (there are no runs, 吃 is not allowed)"
        )
    return Meld(kind, tiles[0])


def tiles_in_melds(melds: Sequence[Meld]) -> list[Tile]:
    """All tiles of the given melds, flattened."""
    return [t for m in melds for t in m.tiles]
