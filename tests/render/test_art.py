"""Tile sprites: sizes, colours of the key faces, states, and that the faces differ enough to tell apart."""

from __future__ import annotations

import io
import itertools

import numpy as np
import pytest
from PIL import Image

from engine.tiles import STANDARD_KINDS, Tile
from render.art import BACK, GOLD, TileSize, TileState, sprite


def rgb(img: Image.Image) -> np.ndarray:
    return np.asarray(img.convert("RGB"), dtype=np.int32)


def face_window(img: Image.Image, half: int = 2) -> np.ndarray:
    """Pixels around the centre of the face (the face sits above the tile's amber edge)."""
    a = rgb(img)
    cy = round(img.height * 0.46)
    cx = img.width // 2
    return a[cy - half : cy + half + 1, cx - half : cx + half + 1].reshape(-1, 3)


def is_red(p: np.ndarray) -> bool:
    return bool(p[0] > 150 and p[1] < 90 and p[2] < 90)


def is_green(p: np.ndarray) -> bool:
    return bool(p[1] > 90 and p[0] < 80 and p[2] < 120)


def saturation(img: Image.Image) -> float:
    a = rgb(img)
    return float((a.max(axis=2) - a.min(axis=2)).mean())


@pytest.mark.parametrize("size", list(TileSize))
def test_sprite_sizes(size: TileSize) -> None:
    for tile in (Tile.P1, Tile.S1, Tile.M5, Tile.RED, None):
        img = sprite(tile, size)
        assert img.mode == "RGBA"
        assert img.size == size.value
        assert sprite(tile, size, rotated=True).size == (size.height, size.width)
    assert size.width * 1.3 < size.height < size.width * 1.4


def test_hand_tiles_are_wide_enough_for_phones() -> None:
    assert TileSize.HAND.width >= 44


@pytest.mark.parametrize("size", [TileSize.HAND, TileSize.TABLE])
def test_zhong_is_red_and_fa_is_green(size: TileSize) -> None:
    red = face_window(sprite(Tile.RED, size))
    green = face_window(sprite(Tile.GREEN, size))
    assert sum(is_red(p) for p in red) >= len(red) // 2
    assert sum(is_green(p) for p in green) >= 1


def test_bai_is_a_blue_frame_around_a_blank_face() -> None:
    img = sprite(Tile.WHITE, TileSize.HAND)
    a = rgb(img)
    centre = face_window(img)
    assert all(p.min() > 200 for p in centre), "the middle of 白 is blank"
    row = a[round(img.height * 0.46)]
    blue = [p for p in row if p[2] > 120 and p[0] < 90]
    assert len(blue) >= 4, "the frame crosses the middle row"


def test_back_is_amber_all_over() -> None:
    img = sprite(None, TileSize.TABLE)
    p = face_window(img)[0]
    assert abs(int(p[0]) - BACK[0]) < 40 and abs(int(p[1]) - BACK[1]) < 50 and p[2] < 120


def test_corners_are_transparent() -> None:
    img = sprite(Tile.P5, TileSize.HAND)
    assert img.getpixel((0, 0))[3] == 0  # type: ignore[index]
    assert img.getpixel((img.width // 2, img.height // 2))[3] == 255  # type: ignore[index]


def test_highlight_has_a_gold_rim_and_dim_is_greyer() -> None:
    normal = sprite(Tile.S5, TileSize.HAND)
    hi = sprite(Tile.S5, TileSize.HAND, TileState.HIGHLIGHT)
    rim = rgb(hi)[hi.height // 2, 2]
    assert abs(int(rim[0]) - GOLD[0]) < 40 and abs(int(rim[1]) - GOLD[1]) < 50 and rim[2] < 90
    dim = sprite(Tile.S5, TileSize.HAND, TileState.DIM)
    assert saturation(dim) < 0.7 * saturation(normal)
    assert rgb(dim).mean() < rgb(normal).mean()
    danger = sprite(Tile.S5, TileSize.HAND, TileState.DANGER)
    rim = rgb(danger)[danger.height // 2, 2]
    assert rim[0] > 180 and rim[1] < 80


def test_sprites_are_cached() -> None:
    assert sprite(Tile.P3, TileSize.TABLE) is sprite(Tile.P3, TileSize.TABLE)


def jpeg80(img: Image.Image) -> np.ndarray:
    buf = io.BytesIO()
    img.convert("RGB").save(buf, "JPEG", quality=80)
    return rgb(Image.open(buf))


@pytest.mark.parametrize(("size", "kinds", "threshold"), [
    (TileSize.TABLE, STANDARD_KINDS, 15.0),
    (TileSize.SMALL, STANDARD_KINDS, 15.0),
    (TileSize.TABLE, tuple(Tile), 6.0),
])  # fmt: skip
def test_every_face_differs_from_every_other_after_jpeg(
    size: TileSize, kinds: tuple[Tile, ...], threshold: float
) -> None:
    """A proxy for "tell every tile apart": mean absolute RGB difference after JPEG q80.

    The 84-tile set's 21 kinds and the back differ by >= 15 (the closest pairs measure about 22:
    7条/9条, 5条/6条); 万 tiles differ only by their numeral, so the bar for all 30 kinds is lower.
    """
    faces = {t: jpeg80(sprite(t, size)) for t in (*kinds, None)}
    worst = min(
        (float(np.abs(faces[a] - faces[b]).mean()), str(a), str(b)) for a, b in itertools.combinations(faces, 2)
    )
    assert worst[0] > threshold, worst
