"""Pictures made for a phone: the sizes they are laid out for, and how large they show (docs/architecture.md §3).

Telegram shows a photo at the chat's width: on a 360-390 px phone about :data:`PHONE_WIDTH` px.
Every picture is :data:`PICTURE_WIDTH` pixels wide (two pixels per phone pixel, sharp on the 2-3x
screens of phones), and laid out so that, shown :data:`PHONE_WIDTH` px wide,

- every text is at least :data:`MIN_TEXT` px tall -- the *cap height* of its font size, the height
  of a capital letter or a digit (a hanzi stands about a fifth taller);
- the player's own tiles in his hand picture are at least :data:`MIN_OWN_TILE` px wide, every other
  tile at least :data:`MIN_TILE` px (the short side of a tile lying sideways);
- the picture is at most :data:`MAX_RATIO` times as tall as it is wide (a taller photo is shown
  narrower).

The layouts read their font and tile sizes from here (:func:`text_size`); :func:`phone_sizes`
measures a drawn picture from its recorded placements (:class:`render.canvas.Placed`), for the tests
and the numbers in docs/telegram.md §6.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from .canvas import OWN_ROLES, Canvas
from .text import font

__all__ = [
    "MAX_RATIO",
    "MIN_OWN_TILE",
    "MIN_TEXT",
    "MIN_TILE",
    "PHONE_WIDTH",
    "PICTURE_WIDTH",
    "PhoneSizes",
    "cap_height",
    "phone_sizes",
    "text_size",
]

PHONE_WIDTH = 330
"""The width, in phone pixels (CSS px / points), a chat shows a photo at on a 360-390 px phone."""
PICTURE_WIDTH = 600
"""The width of every picture in pixels: two per phone pixel."""
MIN_TEXT = 11
"""Smallest cap height of any text on a phone, in phone pixels."""
MIN_OWN_TILE = 28
"""Smallest width of the player's own tiles (hand picture) on a phone, in phone pixels."""
MIN_TILE = 18
"""Smallest width of any other tile on a phone, in phone pixels."""
MAX_RATIO = 1.4
"""Largest height / width of a picture."""


@functools.cache
def cap_height(size: int) -> int:
    """The cap height in pixels of the shipped font at ``size``: the ink height of ``H``."""
    box = font(size).getbbox("H")
    return int(box[3] - box[1])


@functools.cache
def text_size(phone_px: float = MIN_TEXT, width: int = PICTURE_WIDTH) -> int:
    """The smallest font size whose cap height shows at least ``phone_px`` tall when a picture
    ``width`` pixels wide is shown :data:`PHONE_WIDTH` px wide (29 for 11 px at 660)."""
    size = max(1, math.floor(phone_px * width / PHONE_WIDTH / 0.8))
    while cap_height(size) * PHONE_WIDTH / width < phone_px:
        size += 1
    return size


@dataclass(frozen=True, slots=True)
class PhoneSizes:
    """How large a picture shows :data:`PHONE_WIDTH` px wide, in phone pixels: its ``width`` and
    ``height`` in pixels, the smallest ``text`` cap height, the smallest ``own_tile`` (None in a
    public picture) and the smallest other ``tile`` width (None without one)."""

    width: int
    height: int
    text: float
    own_tile: float | None
    tile: float | None

    @property
    def ratio(self) -> float:
        """Height over width."""
        return self.height / self.width

    def failures(self) -> list[str]:
        """What misses the bars of the module docstring, in words; empty when none does."""
        out = []
        if self.text < MIN_TEXT:
            out.append(f"text {self.text:.1f} px < {MIN_TEXT}")
        if self.own_tile is not None and self.own_tile < MIN_OWN_TILE:
            out.append(f"own tile {self.own_tile:.1f} px < {MIN_OWN_TILE}")
        if self.tile is not None and self.tile < MIN_TILE:
            out.append(f"tile {self.tile:.1f} px < {MIN_TILE}")
        if self.ratio > MAX_RATIO:
            out.append(f"height {self.ratio:.2f} x width > {MAX_RATIO}")
        return out


def phone_sizes(c: Canvas) -> PhoneSizes:
    """Measure the drawn picture ``c`` from its placements: every placed text (its font size's
    :func:`cap_height`) and tile (the short side of its box), scaled to :data:`PHONE_WIDTH`.  Own
    tiles are the tiles of ``c.own_seat`` with a role in :data:`render.canvas.OWN_ROLES`."""
    scale = PHONE_WIDTH / c.width
    texts = [cap_height(p.size) for p in c.placed if p.text and p.size is not None]
    own: list[int] = []
    other: list[int] = []
    for p in c.placed:
        if p.state is None:
            continue
        side = min(p.box[2] - p.box[0], p.box[3] - p.box[1])
        mine = c.own_seat is not None and p.seat == c.own_seat and p.role in OWN_ROLES
        (own if mine else other).append(side)
    return PhoneSizes(
        c.width,
        c.height,
        min(texts) * scale if texts else math.inf,
        min(own) * scale if own else None,
        min(other) * scale if other else None,
    )
