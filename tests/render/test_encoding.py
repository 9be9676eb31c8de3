"""The ``palette`` encoding (render.encode): a PNG of at most 128 colours that keeps the pictures'
colours and is much smaller than the JPEG (docs/telegram.md §6)."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from render import PALETTE_COLOURS, encode, render_hand, render_table
from render.demo import Demo, demo_views
from render.pictures import FELT, GOLD, table_canvas

from .words import ZH_WORDS


@pytest.fixture(scope="module")
def demo() -> Demo:
    return demo_views(7)


def test_palette_is_a_png_of_few_colours_at_the_same_size(demo: Demo) -> None:
    img = render_table(demo.table, demo.names, totals=demo.totals, words=ZH_WORDS)
    back = Image.open(io.BytesIO(encode(img, "palette")))
    assert back.format == "PNG" and back.mode == "P" and back.size == img.size
    colours = back.convert("RGB").getcolors(maxcolors=1 << 16)
    assert colours is not None and len(colours) <= PALETTE_COLOURS


def test_palette_is_several_times_smaller_than_the_jpeg(demo: Demo) -> None:
    for img in (
        render_hand(demo.hand, words=ZH_WORDS),
        render_table(demo.table, demo.names, totals=demo.totals, words=ZH_WORDS),
    ):
        assert len(encode(img, "palette")) * 2.5 < len(encode(img, "jpeg"))


def test_palette_keeps_the_pictures_colours(demo: Demo) -> None:
    """The felt and the gold of the active seat's marker come back within a few levels; over the whole
    picture the mean error is small (no visible banding or smearing), and no pixel is given another
    colour (too few palette entries merge small gold, red or green areas into other colours)."""
    c = table_canvas(demo.table, demo.names, totals=demo.totals, words=ZH_WORDS)
    back = np.asarray(Image.open(io.BytesIO(encode(c.image, "palette"))).convert("RGB")).astype(int)
    orig = np.asarray(c.image).astype(int)
    assert np.abs(back[2, 2] - FELT).max() <= 6
    marker = c.find("turn_marker")[0]
    assert np.abs(back[marker.centre[1], marker.centre[0]] - GOLD).max() <= 12
    assert np.abs(back - orig).mean() < 3.0
    assert np.abs(back - orig).max() <= 64
