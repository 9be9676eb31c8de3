"""Tile faces for web clients: the pictures' own drawing at any width, named by the tile's notation."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from engine.tiles import Tile
from render.art import TileSize, TileState, sprite
from render.faces import FACE_WIDTH, face_name, parse_face_name, tile_face, tile_face_png


@pytest.mark.parametrize("tile", [*Tile, None])
def test_every_face_round_trips_its_name(tile):
    for state in TileState:
        assert parse_face_name(face_name(tile, state)) == (tile, state)


@pytest.mark.parametrize("name", ["", "5x", "0s", "05s", "5s-", "5s-normal", "5s-glow", "backs", "../x"])
def test_other_names_are_refused(name):
    with pytest.raises(ValueError):
        parse_face_name(name)


def test_a_face_is_the_pictures_sprite_at_another_size():
    """Drawn at the hand sprite's size, a face is that sprite pixel for pixel: one drawing."""
    w = TileSize.HAND.width
    for tile in (Tile(0), Tile(13), Tile(29), None):
        face = np.asarray(tile_face(tile, w))
        assert face.shape[:2] == (TileSize.HAND.height, w)
        assert np.array_equal(face, np.asarray(sprite(tile, TileSize.HAND)))


def test_png_faces_have_the_page_width_and_differ():
    seen = set()
    for tile in [*Tile, None]:
        png = tile_face_png(tile)
        img = Image.open(io.BytesIO(png))
        assert img.format == "PNG" and img.width == FACE_WIDTH and img.height == round(FACE_WIDTH * 79 / 58)
        seen.add(png)
    assert len(seen) == len(Tile) + 1


def test_states_change_the_face_and_widths_are_bounded():
    plain = tile_face_png(Tile(4))
    assert {plain, *(tile_face_png(Tile(4), FACE_WIDTH, s) for s in TileState if s is not TileState.NORMAL)} > {plain}
    for bad in (0, 7, 257):
        with pytest.raises(ValueError):
            tile_face(Tile(4), bad)
