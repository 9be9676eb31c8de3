"""Tile faces as single images for web clients (the Mini App, docs/webapp.md): the same drawing as
the pictures' sprites (:mod:`render.art`), at any width, encoded as PNG.

A face is named by its file name (:func:`face_name`): the tile in the engine's notation (``5s``,
``7z``, docs/rules.md §0.3) or ``back`` (face down), optionally followed by ``-`` and a
:class:`~render.art.TileState` other than normal (``5s-dim``, ``3p-danger``, ``9s-highlight``).
"""

from __future__ import annotations

import functools
import io

from PIL import Image

from engine.tiles import NotationError, Tile, parse_tile

from .art import DIM_TO, SUPERSAMPLE, TileState, draw_tile

__all__ = ["FACE_RATIO", "FACE_WIDTH", "face_name", "parse_face_name", "tile_face", "tile_face_png"]

FACE_WIDTH = 96
"""The width (pixels) the Mini App loads faces at: about three device pixels per CSS pixel of its
largest tiles (32 CSS px wide), so faces stay sharp on a phone's 3× screen."""
FACE_RATIO = 79 / 58
"""A face's height over its width: the pictures' own tiles (:attr:`render.art.TileSize.HAND`)."""
BACK = "back"
"""The name of the face-down tile."""
MAX_WIDTH = 256
"""The widest face drawn (pixels): a bigger request is refused (ValueError)."""


def face_name(tile: Tile | None, state: TileState = TileState.NORMAL) -> str:
    """The file name (without ``.png``) of ``tile``'s face (None: face down) in ``state``."""
    base = BACK if tile is None else str(tile)
    return base if state is TileState.NORMAL else f"{base}-{state.value}"


def parse_face_name(name: str) -> tuple[Tile | None, TileState]:
    """The tile (None: face down) and state a face name (:func:`face_name`) names.  Raises
    ValueError for any other name."""
    base, sep, state = name.partition("-")
    try:
        tile = None if base == BACK else parse_tile(base)
        parsed = TileState(state) if state else TileState.NORMAL
    except (NotationError, ValueError) as exc:
        raise ValueError(f"no tile face {name!r}") from exc
    if str(tile) != base and tile is not None:  # e.g. "05s": one spelling per face
        raise ValueError(f"no tile face {name!r}")
    if sep and state in ("", TileState.NORMAL.value):
        raise ValueError(f"no tile face {name!r}: the normal face has no suffix")
    return tile, parsed


def tile_face(tile: Tile | None, width: int = FACE_WIDTH, state: TileState = TileState.NORMAL) -> Image.Image:
    """RGBA face of ``tile`` (None: face down) ``width`` pixels wide and ``width`` × :data:`FACE_RATIO`
    high, drawn like the pictures' sprites (supersampled, Lanczos-reduced; ``DIM`` greyed the same
    way).  Raises ValueError for a width outside 8..:data:`MAX_WIDTH`."""
    if not 8 <= width <= MAX_WIDTH:
        raise ValueError(f"face width {width} outside 8..{MAX_WIDTH}")
    height = round(width * FACE_RATIO)
    if state is TileState.DIM:
        base = tile_face(tile, width)
        grey = Image.new("RGBA", base.size, (*DIM_TO, 255))
        dimmed = Image.blend(base, grey, 0.5)
        dimmed.putalpha(base.getchannel("A"))
        return dimmed
    big = draw_tile(tile, width * SUPERSAMPLE, height * SUPERSAMPLE, state)
    return big.resize((width, height), Image.Resampling.LANCZOS)


@functools.cache
def tile_face_png(tile: Tile | None, width: int = FACE_WIDTH, state: TileState = TileState.NORMAL) -> bytes:
    """:func:`tile_face` as PNG bytes (with transparency; cached: each face is drawn once)."""
    buf = io.BytesIO()
    tile_face(tile, width, state).save(buf, "PNG", optimize=True)
    return buf.getvalue()
