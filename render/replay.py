"""The replay of a hand: the public table picture moment by moment, as one animated GIF
(docs/architecture.md §3; the ``/replay`` command, docs/telegram.md §7).

Input: the hand's public views in order (:func:`engine.game.record.public_moments`: after the deal,
after each discard, 碰, kong and 亮倒 reveal, and the end).  Each view is drawn by
:func:`render.pictures.table_canvas` -- the same picture the group saw live -- so a frame shows
exactly what its view holds: no concealed tile of a seat that has not declared 亮倒 before the
end, whose table shows the result as the live table's last picture does (winners' hands face up,
the winning tile marked).  Then, when the last view has a result, one more frame: the result
picture the group was sent (:func:`render.pictures.result_canvas`: the title -- a win, 荒庄, 查叫,
关死 --, the winners' hands and 番, the payments, with every hand face up when ``hands`` is
given), so a replay that ends in a draw says how it ended too.

Why a GIF: Telegram's ``sendAnimation`` takes a GIF (or a soundless H.264 MP4) up to 50 MB and
plays it inline and looped in the chat; a GIF needs nothing beyond Pillow (no ffmpeg).  To keep it
small, every frame is drawn on one canvas size (the tallest frame's; shorter ones padded with
the felt colour), quantised to one shared palette without dithering, and Pillow stores each
frame after the first as the rectangle that changed.  The number of frames is bounded by
:data:`MAX_FRAMES` (a longer hand keeps evenly spaced moments, always the first and the last).
"""

from __future__ import annotations

import io
import itertools
from collections.abc import Sequence

from PIL import Image, ImageChops

from engine.rules import Ruleset
from engine.views import PublicView

from .canvas import Canvas
from .labels import ENGLISH, PictureWords
from .pictures import FELT, HandTiles, result_canvas, table_canvas

__all__ = ["BADGE_ROOM", "FRAME_MS", "LAST_FRAME_MS", "MAX_FRAMES", "pick_frames", "render_replay", "replay_canvases"]

MAX_FRAMES = 100
"""At most this many frames (a 3-seat hand has about 40-60 moments)."""
FRAME_MS = 700
"""How long each moment is shown, in milliseconds."""
LAST_FRAME_MS = 5000
"""How long the final moment (the result) is shown before the animation loops."""
FIRST_FRAME_MS = 1500
"""How long the deal is shown."""
BADGE_ROOM = 48
"""Pixels of felt above every frame: Telegram's clients mark an animation "GIF" in its top-left
corner, which would cover the table's wall count (a 600 px frame shows about 330 px wide on a phone,
so the badge's ~20 px there cover about 45 px of the frame)."""
TRANSPARENT = 127
"""The palette index of \"unchanged since the previous frame\" (the picture uses the 255 others)."""


def pick_frames(count: int, limit: int = MAX_FRAMES) -> list[int]:
    """The indices of the moments drawn out of ``count``: all of them when ``count <= limit``, else
    ``limit`` evenly spaced ones, always the first and the last.  Raises ValueError if ``limit < 2``."""
    if limit < 2:
        raise ValueError("a replay needs room for at least the first and the last moment")
    if count <= limit:
        return list(range(count))
    return sorted({round(i * (count - 1) / (limit - 1)) for i in range(limit)})


def replay_canvases(
    views: Sequence[PublicView],
    names: Sequence[str],
    words: PictureWords = ENGLISH,
    totals: Sequence[int] | None = None,
    game: str = Ruleset.KAWUXING,
    hands: Sequence[HandTiles] | None = None,
) -> list[Canvas]:
    """One table picture per drawn moment (:func:`pick_frames` of ``views``), labels in ``words`` for
    ``game`` (the hand's ``rules.ruleset``), ``totals`` the seats' running match totals (as
    :func:`render.render_table`); then, when the last view has a result, the result picture
    (:func:`render.render_result`, with ``hands``: one per seat, face up).  At most
    :data:`MAX_FRAMES` canvases.  Raises ValueError for no views, or as
    :func:`render.pictures.table_canvas` and :func:`render.pictures.result_canvas` do."""
    if not views:
        raise ValueError("a replay needs at least one view")
    ending = views[-1].result is not None
    moments = pick_frames(len(views), MAX_FRAMES - 1 if ending else MAX_FRAMES)
    tables = [table_canvas(views[i], names, words, totals, game) for i in moments]
    return tables + ([result_canvas(views[-1], names, words, hands, game)] if ending else [])


def render_replay(
    views: Sequence[PublicView],
    names: Sequence[str],
    words: PictureWords = ENGLISH,
    totals: Sequence[int] | None = None,
    game: str = Ruleset.KAWUXING,
    hands: Sequence[HandTiles] | None = None,
) -> bytes:
    """The animated GIF (bytes) of ``views`` (see the module docstring; ``hands`` for the result
    frame): 600 pixels wide, as tall as the tallest frame below :data:`BADGE_ROOM` pixels of felt,
    :data:`FIRST_FRAME_MS` on the deal, :data:`FRAME_MS` per moment, :data:`LAST_FRAME_MS` on the
    last frame (the result), looping.  A typical 3-seat hand (about 50 moments) is a few hundred
    KiB.  Raises ValueError as :func:`replay_canvases` does."""
    canvases = replay_canvases(views, names, words, totals, game, hands)
    width = max(c.width for c in canvases)
    height = max(c.height for c in canvases) + BADGE_ROOM
    frames = []
    for c in canvases:
        frame = Image.new("RGB", (width, height), FELT)
        frame.paste(c.image, (0, BADGE_ROOM))
        frames.append(frame)
    # one palette for every frame (taken from the last two, the end's table, which has the most
    # tiles face up, and the result), so that unchanged pixels keep their index; in every frame
    # after the first they become the transparent index, so each frame stores only what changed
    # (disposal 1 leaves the previous frame beneath)
    source = Image.new("RGB", (width, height * min(2, len(frames))), FELT)
    for k, f in enumerate(frames[-2:]):
        source.paste(f, (0, k * height))
    palette = source.quantize(colors=TRANSPARENT, method=Image.Quantize.MEDIANCUT)
    indexed = [f.quantize(palette=palette, dither=Image.Dither.NONE) for f in frames]
    stored = [indexed[0]]
    for before, now in itertools.pairwise(indexed):
        changed = ImageChops.difference(before, now).point(lambda v: 255 if v else 0, "L")
        frame = Image.new("P", now.size, TRANSPARENT)
        frame.putpalette(palette.getpalette() or [])
        frame.paste(now, (0, 0), changed)
        stored.append(frame)
    durations = [FRAME_MS] * len(stored)
    durations[0] = FIRST_FRAME_MS
    durations[-1] = LAST_FRAME_MS
    buf = io.BytesIO()
    stored[0].save(
        buf,
        "GIF",
        save_all=True,
        append_images=stored[1:],
        duration=durations,
        loop=0,
        optimize=False,
        disposal=1,
        transparency=TRANSPARENT,
    )
    return buf.getvalue()
