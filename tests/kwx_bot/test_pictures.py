"""Pictures off the event loop: a worker process or a thread, JPEG or PNG, same picture."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine.game import public_view, replay, start, view_for
from engine.rules import RuleSet
from kwx_bot.pictures import RenderPictures, hand_key, table_key


@pytest.fixture(scope="module")
def state():
    return replay(start(RuleSet(), 0, seed="pictures"))


@pytest.mark.parametrize(("fmt", "processes", "magic"), [("jpeg", 1, b"\xff\xd8"), ("png", 0, b"\x89PNG")])
async def test_render_in_a_process_or_a_thread(state, fmt, processes, magic):
    pictures = RenderPictures(fmt, processes=processes)
    try:
        hand = await pictures.hand(view_for(state, 0))
        table = await pictures.table(public_view(state), ["A", "B", "C"])
    finally:
        pictures.close()
    assert hand[:4].startswith(magic) and table[:4].startswith(magic)
    w, h = Image.open(io.BytesIO(table)).size
    assert w > 400 and h > 400 and w + h <= 10000


def test_photo_keys_follow_what_the_picture_shows(state):
    a = view_for(state, 0)
    assert hand_key(a) == hand_key(view_for(state, 0))
    assert hand_key(a) != hand_key(view_for(state, 1))
    assert table_key(public_view(state), ["A", "B", "C"]) != table_key(public_view(state), ["A", "B", "D"])
