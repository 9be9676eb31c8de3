"""Tile art drawn by the project in Pillow (no downloaded images), cached as sprites.

Every tile face is drawn once per (tile, size, state, rotation) at :data:`SUPERSAMPLE` times its
size and scaled down with a Lanczos filter (anti-aliasing), then kept in a cache: pictures only
paste sprites.  Faces follow the traditional designs, simplified to bold shapes and saturated
colours so they survive phone-sized display and Telegram's JPEG recompression:

- 筒 (dots, 1p-9p): the traditional layouts and colours (2: green over blue; 3: diagonal
  blue-red-green; 5: red centre; 6/7: green above red; 8: two blue columns; 9: blue, red, green rows);
  1筒 is one large ornate wheel.
- 条 (bamboo, 1s-9s): jointed sticks in the traditional layouts (5条 red centre, 7条 red top stick,
  8条 "M over W", 9条 red middle column); 1条 is the traditional bird (幺鸡), drawn as a green
  peacock with red crest and tail.
- 万 (characters, variants): a dark Chinese numeral 一..九 over a red 萬.
- 中 red, 發 green, 白 a blue double frame (白板).
- the back (face down): plain amber with a darker inner frame.

States (:class:`TileState`): ``NORMAL``; ``HIGHLIGHT`` (pale yellow face and a thick gold rim: the
drawn tile, the winning tile, the last discard); ``DIM`` (greyed: claimed discards); ``DANGER``
(pale red face and a red rim: a tile in one's hand that a 亮倒 opponent waits on, docs/rules.md §A9.7).
"""

from __future__ import annotations

import enum
import functools
import math

from PIL import Image, ImageDraw

from engine.tiles import Suit, Tile

from .labels import NUMERALS, WAN
from .text import font

__all__ = ["SUPERSAMPLE", "TileSize", "TileState", "draw_tile", "sprite", "warm_cache"]

SUPERSAMPLE = 4
"""Sprites are drawn at this many times their size, then scaled down."""

RGB = tuple[int, int, int]

# Palette: saturated, dark enough to keep contrast on the ivory face after JPEG chroma subsampling.
IVORY: RGB = (251, 248, 238)
FACE_EDGE: RGB = (200, 194, 178)
OUTLINE: RGB = (46, 52, 48)
BACK: RGB = (228, 146, 32)
BACK_LIGHT: RGB = (244, 176, 68)
BACK_LINE: RGB = (190, 110, 18)
RED: RGB = (210, 32, 36)
GREEN: RGB = (12, 132, 64)
GREEN_DARK: RGB = (6, 84, 40)
BLUE: RGB = (24, 66, 178)
INK: RGB = (22, 28, 52)
GOLD: RGB = (255, 184, 0)
HIGHLIGHT_FACE: RGB = (255, 242, 160)
DANGER_FACE: RGB = (255, 214, 214)
DANGER_RIM: RGB = (226, 30, 30)
DIM_TO: RGB = (96, 108, 102)
ORANGE: RGB = (240, 120, 20)


class TileSize(enum.Enum):
    """Sprite sizes in pixels (width, height); height ≈ 1.36 × width.  The pictures are
    :data:`render.phone.PICTURE_WIDTH` (660) pixels wide and shown about 330 px wide on a phone,
    so a tile shows half its width in phone pixels (docs/architecture.md §3)."""

    HAND = (58, 79)
    """The player's own tiles in the private hand picture (32 px on a phone)."""
    HAND_MIN = (51, 69)
    """The player's own tiles when the hand picture would be too tall otherwise (28 px on a phone,
    the smallest :data:`render.phone.MIN_OWN_TILE` allows)."""
    TABLE = (40, 54)
    """Tiles of the public table picture and of a winner's hand when there is room (22 px)."""
    POND = (36, 49)
    """Other seats' tiles in the hand picture, and any picture's tiles when the larger do not fit (20 px)."""
    SMALL = (33, 45)
    """The smallest tiles (18 px on a phone, :data:`render.phone.MIN_TILE`)."""

    @property
    def width(self) -> int:
        """Width in pixels."""
        return self.value[0]

    @property
    def height(self) -> int:
        """Height in pixels."""
        return self.value[1]


class TileState(enum.Enum):
    """How a tile is emphasised (see the module docstring)."""

    NORMAL = "normal"
    HIGHLIGHT = "highlight"
    DIM = "dim"
    DANGER = "danger"


@functools.cache
def sprite(
    tile: Tile | None, size: TileSize, state: TileState = TileState.NORMAL, rotated: bool = False
) -> Image.Image:
    """RGBA sprite of ``tile`` (None = face down) at ``size``; ``rotated`` turns it 90° (lying sideways).

    Cached: the first call per key draws (about 1-3 ms), later calls return the same image (do not
    modify it).  A rotated sprite is ``size.height`` wide and ``size.width`` tall.
    """
    if rotated:
        return sprite(tile, size, state).transpose(Image.Transpose.ROTATE_90)
    if state is TileState.DIM:
        base = sprite(tile, size)
        grey = Image.new("RGBA", base.size, (*DIM_TO, 255))
        dimmed = Image.blend(base, grey, 0.5)
        dimmed.putalpha(base.getchannel("A"))
        return dimmed
    w, h = size.value
    big = draw_tile(tile, w * SUPERSAMPLE, h * SUPERSAMPLE, state)
    return big.resize((w, h), Image.Resampling.LANCZOS)


def warm_cache() -> None:
    """Draw every sprite the pictures commonly use (about 0.5 s), e.g. once at bot start-up."""
    for size in TileSize:
        sprite(None, size)
        for tile in Tile:
            for state in TileState:
                sprite(tile, size, state)


# -- drawing ------------------------------------------------------------------------------------------


class _Pen:
    """Maps unit coordinates of the art box (u across, v down, both 0..1) to supersampled pixels."""

    def __init__(self, draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float]) -> None:
        self.draw = draw
        self.x0, self.y0, self.x1, self.y1 = box
        self.w = self.x1 - self.x0
        self.h = self.y1 - self.y0

    def xy(self, u: float, v: float) -> tuple[float, float]:
        return self.x0 + u * self.w, self.y0 + v * self.h

    def disc(self, u: float, v: float, r: float, fill: RGB) -> None:
        """A filled circle at (u, v) of radius ``r`` (in art-box widths)."""
        x, y = self.xy(u, v)
        rr = r * self.w
        self.draw.ellipse((x - rr, y - rr, x + rr, y + rr), fill=fill)

    def polygon(self, points: list[tuple[float, float]], fill: RGB) -> None:
        self.draw.polygon([self.xy(u, v) for u, v in points], fill=fill)


def draw_tile(tile: Tile | None, w: int, h: int, state: TileState) -> Image.Image:
    """RGBA image of ``tile`` (None: face down) in ``state``, ``w`` × ``h`` pixels, unreduced: the one
    drawing of a tile face (the sprites here and :mod:`render.faces` reduce it)."""
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    s = w / 60  # stroke unit: 1 px of a hand-size tile
    radius = 0.13 * w
    line = max(1, round(1.6 * s))
    depth = round(0.085 * h)
    # body (the amber back shows below the face as the tile's thickness)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius, fill=BACK, outline=OUTLINE, width=line)
    if tile is None:
        inset = 0.16 * w
        d.rounded_rectangle((line, line, w - 1 - line, h - 1 - depth), radius * 0.9, fill=BACK_LIGHT)
        d.rounded_rectangle(
            (inset, inset, w - 1 - inset, h - 1 - depth - inset),
            radius * 0.5,
            outline=BACK_LINE,
            width=max(1, round(3 * s)),
        )
        return img
    face = {TileState.HIGHLIGHT: HIGHLIGHT_FACE, TileState.DANGER: DANGER_FACE}.get(state, IVORY)
    d.rounded_rectangle(
        (line, line, w - 1 - line, h - 1 - depth), radius * 0.9, fill=face, outline=FACE_EDGE, width=line
    )
    art = (0.13 * w, 0.08 * h, w - 0.13 * w, h - depth - 0.08 * h)
    pen = _Pen(d, art)
    if tile.suit is Suit.DOTS:
        _dots(pen, tile.number)
    elif tile.suit is Suit.BAMBOO:
        _bamboo(pen, tile.number)
    elif tile.suit is Suit.CHARACTERS:
        _characters(pen, tile.number)
    else:
        _dragon(pen, tile)
    if state in (TileState.HIGHLIGHT, TileState.DANGER):
        rim = GOLD if state is TileState.HIGHLIGHT else DANGER_RIM
        d.rounded_rectangle((0, 0, w - 1, h - 1), radius, outline=rim, width=round(4.5 * s))
    return img


# 筒: (u, v, colour) per dot, and the dot radius (in art-box widths)
_DOT_LAYOUTS: dict[int, tuple[float, tuple[tuple[float, float, RGB], ...]]] = {
    2: (0.29, ((0.5, 0.25, GREEN), (0.5, 0.75, BLUE))),
    3: (0.21, ((0.22, 0.16, BLUE), (0.5, 0.5, RED), (0.78, 0.84, GREEN))),
    4: (0.22, ((0.27, 0.24, BLUE), (0.73, 0.24, GREEN), (0.27, 0.76, GREEN), (0.73, 0.76, BLUE))),
    5: (
        0.19,
        ((0.22, 0.16, BLUE), (0.78, 0.16, GREEN), (0.5, 0.5, RED), (0.22, 0.84, GREEN), (0.78, 0.84, BLUE)),
    ),
    6: (
        0.19,
        (
            (0.28, 0.15, GREEN), (0.72, 0.15, GREEN),
            (0.28, 0.56, RED), (0.72, 0.56, RED), (0.28, 0.86, RED), (0.72, 0.86, RED),
        ),
    ),
    7: (
        0.16,
        (
            (0.2, 0.1, GREEN), (0.5, 0.22, GREEN), (0.8, 0.34, GREEN),
            (0.29, 0.63, RED), (0.71, 0.63, RED), (0.29, 0.89, RED), (0.71, 0.89, RED),
        ),
    ),
    8: (
        0.165,
        tuple((u, v, BLUE) for v in (0.11, 0.37, 0.63, 0.89) for u in (0.29, 0.71)),
    ),
    9: (
        0.155,
        tuple((u, v, c) for v, c in ((0.13, BLUE), (0.5, RED), (0.87, GREEN)) for u in (0.17, 0.5, 0.83)),
    ),
}  # fmt: skip


def _dot(pen: _Pen, u: float, v: float, r: float, colour: RGB) -> None:
    """One 筒 dot: a coloured disc with a white ring and a coloured centre."""
    pen.disc(u, v, r, colour)
    pen.disc(u, v, r * 0.7, IVORY)
    pen.disc(u, v, r * 0.5, colour)
    pen.disc(u, v, r * 0.17, IVORY)


def _dots(pen: _Pen, n: int) -> None:
    if n == 1:
        u, v, r = 0.5, 0.5, 0.5
        pen.disc(u, v, r, GREEN)
        pen.disc(u, v, r * 0.86, IVORY)
        pen.disc(u, v, r * 0.76, RED)
        pen.disc(u, v, r * 0.62, IVORY)
        for k in range(8):
            a = k * math.pi / 4
            pen.disc(u + 0.44 * r * math.cos(a), v + 0.44 * r * math.sin(a) * pen.w / pen.h, r * 0.11, BLUE)
        pen.disc(u, v, r * 0.26, GREEN)
        pen.disc(u, v, r * 0.1, IVORY)
        return
    r, layout = _DOT_LAYOUTS[n]
    for u, v, colour in layout:
        _dot(pen, u, v, r, colour)


def _stick(pen: _Pen, u: float, v: float, length: float, colour: RGB, angle: float = 0.0, thick: float = 0.16) -> None:
    """One bamboo stick centred at (u, v): ``length`` in art-box heights, ``thick`` in widths,
    ``angle`` in degrees from vertical (clockwise)."""
    cx, cy = pen.xy(u, v)
    half = length * pen.h / 2
    t = thick * pen.w / 2
    a = math.radians(angle)
    dx, dy = math.sin(a), -math.cos(a)  # along the stick (towards its top)
    nx, ny = -dy, dx  # across

    def quad(hl: float, ht: float) -> list[tuple[float, float]]:
        return [
            (cx + dx * hl + nx * ht, cy + dy * hl + ny * ht),
            (cx + dx * hl - nx * ht, cy + dy * hl - ny * ht),
            (cx - dx * hl - nx * ht, cy - dy * hl - ny * ht),
            (cx - dx * hl + nx * ht, cy - dy * hl + ny * ht),
        ]

    dark = GREEN_DARK if colour == GREEN else tuple(int(c * 0.62) for c in colour)
    pen.draw.polygon(quad(half, t), fill=dark)
    pen.draw.polygon(quad(half - t * 0.3, t * 0.72), fill=colour)
    # joints: dark bands at the middle and near both ends
    for k in (-0.7, 0.0, 0.7):  # joints: dark bands that bulge a little past the stick
        jx, jy = cx + dx * half * k, cy + dy * half * k
        bw = t * 0.2
        jt = t * 1.18
        pen.draw.polygon(
            [
                (jx + dx * bw + nx * jt, jy + dy * bw + ny * jt),
                (jx + dx * bw - nx * jt, jy + dy * bw - ny * jt),
                (jx - dx * bw - nx * jt, jy - dy * bw - ny * jt),
                (jx - dx * bw + nx * jt, jy - dy * bw + ny * jt),
            ],
            fill=dark,
        )
    # a light streak along the stick
    hx, hy = cx + nx * t * 0.28, cy + ny * t * 0.28
    sl = half * 0.3
    pen.draw.line(
        [
            (hx + dx * (half * 0.72 - sl * 0.4), hy + dy * (half * 0.72 - sl * 0.4)),
            (hx + dx * sl * 0.4, hy + dy * sl * 0.4),
        ],
        fill=(255, 255, 255),
        width=max(1, round(t * 0.22)),
    )


_STICK_LAYOUTS: dict[int, tuple[float, float, tuple[tuple[float, float, RGB, float], ...]]] = {
    # n: (length, thickness, ((u, v, colour, angle), ...))
    2: (0.42, 0.24, ((0.5, 0.25, GREEN, 0), (0.5, 0.75, GREEN, 0))),
    3: (0.42, 0.24, ((0.5, 0.25, GREEN, 0), (0.25, 0.75, GREEN, 0), (0.75, 0.75, GREEN, 0))),
    4: (0.42, 0.24, ((0.25, 0.25, GREEN, 0), (0.75, 0.25, GREEN, 0), (0.25, 0.75, GREEN, 0), (0.75, 0.75, GREEN, 0))),
    5: (
        0.42,
        0.21,
        (
            (0.16, 0.25, GREEN, 0), (0.84, 0.25, GREEN, 0), (0.5, 0.5, RED, 0),
            (0.16, 0.75, GREEN, 0), (0.84, 0.75, GREEN, 0),
        ),
    ),
    6: (0.42, 0.21, tuple((u, v, GREEN, 0) for v in (0.25, 0.75) for u in (0.17, 0.5, 0.83))),
    7: (
        0.29,
        0.21,
        ((0.5, 0.16, RED, 0), *((u, v, GREEN, 0) for v in (0.5, 0.84) for u in (0.17, 0.5, 0.83))),
    ),
    8: (
        0.4,
        0.17,
        (
            (0.12, 0.25, GREEN, 16), (0.38, 0.25, GREEN, -16), (0.62, 0.25, GREEN, 16), (0.88, 0.25, GREEN, -16),
            (0.12, 0.75, GREEN, -16), (0.38, 0.75, GREEN, 16), (0.62, 0.75, GREEN, -16), (0.88, 0.75, GREEN, 16),
        ),
    ),
    9: (
        0.29,
        0.2,
        tuple((u, v, RED if u == 0.5 else GREEN, 0) for v in (0.16, 0.5, 0.84) for u in (0.17, 0.5, 0.83)),
    ),
}  # fmt: skip


def _bamboo(pen: _Pen, n: int) -> None:
    if n == 1:
        _bird(pen)
        return
    length, thick, layout = _STICK_LAYOUTS[n]
    for u, v, colour, angle in layout:
        _stick(pen, u, v, length, colour, angle, thick)


def _bird(pen: _Pen) -> None:
    """1条 (幺鸡): a standing peacock -- fanned tail, green body, red crest, orange beak, red legs."""
    k = pen.w / pen.h  # keeps circles round in (u, v) coordinates
    # tail: three long feathers fanning down to the left, each with an eye spot
    for (tu, tv), colour in (((0.02, 0.62), BLUE), ((0.06, 0.9), RED), ((0.3, 0.98), GREEN)):
        pen.polygon([(0.42, 0.55), (tu - 0.06, tv - 0.05 * k), (tu + 0.08, tv + 0.04 * k)], colour)
        pen.disc(tu + 0.02, tv, 0.07, colour)
        pen.disc(tu + 0.02, tv, 0.035, IVORY)
    # legs
    pen.draw.line([pen.xy(0.5, 0.7), pen.xy(0.46, 0.93)], fill=RED, width=max(1, round(pen.w * 0.045)))
    pen.draw.line([pen.xy(0.6, 0.7), pen.xy(0.64, 0.93)], fill=RED, width=max(1, round(pen.w * 0.045)))
    pen.polygon([(0.36, 0.93), (0.52, 0.93), (0.46, 0.97)], RED)
    pen.polygon([(0.58, 0.93), (0.74, 0.93), (0.66, 0.97)], RED)
    # body, neck, head
    x0, y0 = pen.xy(0.3, 0.42)
    x1, y1 = pen.xy(0.82, 0.74)
    pen.draw.ellipse((x0, y0, x1, y1), fill=GREEN)
    pen.polygon([(0.58, 0.5), (0.8, 0.5), (0.8, 0.22), (0.66, 0.22)], GREEN)
    pen.disc(0.74, 0.2, 0.14, GREEN)
    # wing
    x0, y0 = pen.xy(0.38, 0.5)
    x1, y1 = pen.xy(0.7, 0.68)
    pen.draw.ellipse((x0, y0, x1, y1), fill=GREEN_DARK)
    # crest, beak, eye
    pen.polygon([(0.66, 0.1), (0.7, 0.0), (0.76, 0.09), (0.84, 0.01), (0.84, 0.12)], RED)
    pen.polygon([(0.86, 0.16), (1.0, 0.22), (0.86, 0.26)], ORANGE)
    pen.disc(0.77, 0.18, 0.05, IVORY)
    pen.disc(0.78, 0.18, 0.027, INK)


def _glyph(pen: _Pen, text: str, u: float, v: float, size_frac: float, colour: RGB) -> None:
    """Draw ``text`` centred at (u, v) with an em size of ``size_frac`` art-box widths."""
    pen.draw.text(pen.xy(u, v), text, fill=colour, font=font(max(1, round(size_frac * pen.w))), anchor="mm")


def _characters(pen: _Pen, n: int) -> None:
    _glyph(pen, NUMERALS[n - 1], 0.5, 0.17, 0.72, INK)
    _glyph(pen, WAN, 0.5, 0.73, 0.86, RED)


def _dragon(pen: _Pen, tile: Tile) -> None:
    if tile is Tile.RED:
        _glyph(pen, "中", 0.5, 0.5, 1.12, RED)
    elif tile is Tile.GREEN:
        _glyph(pen, "發", 0.5, 0.5, 1.12, GREEN)
    else:
        x0, y0 = pen.xy(0.0, 0.02)
        x1, y1 = pen.xy(1.0, 0.98)
        t = pen.w * 0.11
        pen.draw.rounded_rectangle((x0, y0, x1, y1), pen.w * 0.1, outline=BLUE, width=round(t))
        g = t * 1.7
        pen.draw.rounded_rectangle((x0 + g, y0 + g, x1 - g, y1 - g), pen.w * 0.05, outline=BLUE, width=round(t * 0.45))
