"""A drawing surface that remembers what it placed where (for layout and for pixel-probe tests).

Pictures are drawn through :class:`Canvas`; every tile, text, badge and marker is recorded as a
:class:`Placed` with a *role* (``"hand"``, ``"pond"``, ``"name"``, ``"turn_marker"``...), where it
belongs to one a seat, and for a text its font size.  ``render_*`` functions return only the image;
the ``*_canvas`` functions in :mod:`render.pictures` also expose the record, so tests can probe
pixels at known positions and :func:`render.phone.phone_sizes` can measure how large every text and
tile shows on a phone (docs/architecture.md §3).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.tiles import Tile

from .art import RGB, TileSize, TileState, sprite
from .text import emoji_font, fit, font, runs, safe_text, text_width

__all__ = ["OWN_ROLES", "Box", "Canvas", "Placed"]

OWN_ROLES = frozenset({"hand", "drawn", "meld", "meld_top"})
"""Roles of the player's own tiles in a private hand picture (:attr:`Canvas.own_seat`)."""

Box = tuple[int, int, int, int]
"""(left, top, right, bottom) in pixels; right and bottom exclusive."""


@dataclass(frozen=True, slots=True)
class Placed:
    """One thing drawn: its ``role``, ``box``, and the seat / tile / state / text it shows, if any;
    ``size``: a text's font size in pixels (em), None for anything else."""

    role: str
    box: Box
    seat: int | None = None
    tile: Tile | None = None
    state: TileState | None = None
    text: str | None = None
    size: int | None = None

    @property
    def centre(self) -> tuple[int, int]:
        """The pixel at the middle of the box."""
        return (self.box[0] + self.box[2]) // 2, (self.box[1] + self.box[3]) // 2


@functools.lru_cache(maxsize=4096)
def _text_mask(text: str, size: int, anchor: str) -> tuple[tuple[int, int], Image.Image]:
    """The coverage of ``text`` in the shipped font at ``size`` (an ``L`` image of its ink box) and
    the box's top-left relative to the ``anchor`` point: drawn once, then pasted in a colour
    (labels, badges and counts repeat from one picture to the next)."""
    f = font(size)
    left, top, right, bottom = (int(v) for v in f.getbbox(text, anchor=anchor))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, fill=255, font=f, anchor=anchor)
    return (left, top), mask


class Canvas:
    """An RGB image of ``width`` x ``height`` filled with ``background``, plus the list of :class:`Placed`.

    ``own_seat``: in a private hand picture, the seat whose own tiles it shows (their roles are
    :data:`OWN_ROLES`); None in a public picture.
    """

    def __init__(self, width: int, height: int, background: RGB, own_seat: int | None = None) -> None:
        self.image = Image.new("RGB", (width, height), background)
        self.draw = ImageDraw.Draw(self.image)
        self.placed: list[Placed] = []
        self.own_seat = own_seat

    @property
    def width(self) -> int:
        """Width in pixels."""
        return self.image.width

    @property
    def height(self) -> int:
        """Height in pixels."""
        return self.image.height

    def tile(
        self,
        x: int,
        y: int,
        tile: Tile | None,
        size: TileSize,
        state: TileState = TileState.NORMAL,
        *,
        rotated: bool = False,
        role: str = "tile",
        seat: int | None = None,
    ) -> Box:
        """Paste a tile sprite with its top-left corner at (x, y); returns its box."""
        img = sprite(tile, size, state, rotated)
        self.image.paste(img, (x, y), img)
        box = (x, y, x + img.width, y + img.height)
        self.placed.append(Placed(role, box, seat, tile, state))
        return box

    def text(
        self,
        x: int,
        y: int,
        text: str,
        size: int,
        fill: RGB,
        *,
        anchor: str = "lm",
        max_width: int | None = None,
        role: str = "text",
        seat: int | None = None,
        raw: bool = False,
    ) -> Box:
        """Draw ``text`` at (x, y) with a Pillow ``anchor`` (default left / vertical middle).

        Text goes through :func:`render.text.safe_text` (missing glyphs -> ``?``) unless ``raw``
        (already cleaned, e.g. a name from :func:`render.text.clean_name`), then is cut with ``…``
        to ``max_width`` pixels if given.  Returns the ink box of what was drawn.
        """
        if not raw:
            text = safe_text(text)
        if max_width is not None:
            text = fit(text, size, max_width)
        if not text:
            box = (x, y, x, y)
        elif all(not emoji for _, emoji in runs(text)):
            (left, top), mask = _text_mask(text, size, anchor)
            box = (x + left, y + top, x + left + mask.width, y + top + mask.height)
            self.image.paste(fill, box, mask)
        else:
            box = self._runs(x, y, text, size, fill, anchor)
        self.placed.append(Placed(role, box, seat, text=text, size=size))
        return box

    def _runs(self, x: int, y: int, text: str, size: int, fill: RGB, anchor: str) -> Box:
        """Draw a text with emoji run by run on one baseline, placed as ``anchor`` places the whole
        (the vertical anchor taken from the text font: its non-emoji characters, else ``中``)."""
        f = font(size)
        plain = "".join(run for run, emoji in runs(text) if not emoji) or "中"
        # where the anchor puts the baseline, relative to y: the same for the text font's part alone
        dy = f.getbbox(plain, anchor="l" + anchor[1])[1] - f.getbbox(plain, anchor="ls")[1]
        baseline = y + dy
        width = text_width(text, size)
        left = x - {"l": 0, "m": width // 2, "r": width}.get(anchor[0], 0)
        boxes = []
        for run, emoji in runs(text):
            rf = emoji_font(size) if emoji else f
            self.draw.text((left, baseline), run, fill=fill, font=rf, anchor="ls")
            boxes.append(self.draw.textbbox((left, baseline), run, font=rf, anchor="ls"))
            left += round(rf.getlength(run))
        return (
            int(min(b[0] for b in boxes)),
            int(min(b[1] for b in boxes)),
            int(max(b[2] for b in boxes)),
            int(max(b[3] for b in boxes)),
        )

    def rect(
        self,
        box: Box,
        fill: RGB | None,
        *,
        outline: RGB | None = None,
        width: int = 1,
        radius: int = 0,
        role: str = "rect",
        seat: int | None = None,
    ) -> Box:
        """A (rounded) rectangle; ``box`` right/bottom exclusive."""
        shape = (box[0], box[1], box[2] - 1, box[3] - 1)
        if radius:
            self.draw.rounded_rectangle(shape, radius, fill=fill, outline=outline, width=width)
        else:
            self.draw.rectangle(shape, fill=fill, outline=outline, width=width)
        self.placed.append(Placed(role, box, seat))
        return box

    def polygon(
        self, points: Sequence[tuple[int, int]], fill: RGB, *, role: str = "marker", seat: int | None = None
    ) -> Box:
        """A filled polygon (markers such as the turn triangle); returns its bounding box."""
        self.draw.polygon(list(points), fill=fill)
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        box = (min(xs), min(ys), max(xs) + 1, max(ys) + 1)
        self.placed.append(Placed(role, box, seat))
        return box

    def disc(self, cx: int, cy: int, r: int, fill: RGB, *, role: str = "marker", seat: int | None = None) -> Box:
        """A filled circle centred at (cx, cy)."""
        self.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)
        box = (cx - r, cy - r, cx + r + 1, cy + r + 1)
        self.placed.append(Placed(role, box, seat))
        return box

    def find(self, role: str, seat: int | None = None, tile: Tile | None = None) -> list[Placed]:
        """Everything placed with ``role`` (and ``seat`` / ``tile`` when given), in drawing order."""
        return [
            p
            for p in self.placed
            if p.role == role and (seat is None or p.seat == seat) and (tile is None or p.tile == tile)
        ]
