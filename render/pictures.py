"""The pictures: private hand, public table, 亮倒 reveal and hand result (docs/architecture.md §3).

Each ``*_canvas`` function lays out and draws one picture from an engine view and returns the
:class:`~render.canvas.Canvas` (image + what was placed where); the ``render_*`` functions in
:mod:`render` return just the image.  Nothing here reads hidden state: a picture shows exactly
what its view holds.  The pictures live in their own modules along this one's old sections:
:mod:`render.blocks` (palette, metrics, badges, melds, wait sets), :mod:`render.hand`,
:mod:`render.table` (table and 亮倒 reveal) and :mod:`render.result`; this module gathers them.

All pictures are RGB on a dark felt background and stay far inside Telegram's photo limits
(width + height <= 10000, aspect ratio <= 20, 10 MB): every picture is 600 pixels wide and at
most 1.4 times as tall (:mod:`render.phone`).
The hand picture carries the table too (:func:`render.hand.draw_table`).
"""

from __future__ import annotations

from .blocks import (
    BADGE_GREY,
    BADGE_RED,
    DARK,
    FELT,
    GOLD,
    HAND,
    MARGIN,
    MUTED,
    PANEL,
    TABLE,
    TEXT,
    draw_badge,
    unseen_counts,
)
from .hand import hand_canvas
from .result import HandTiles, liangdao_seats, result_canvas
from .table import TABLE_MARGIN, TABLE_WIDTH, reveal_canvas, table_canvas

__all__ = [
    "BADGE_GREY",
    "BADGE_RED",
    "DARK",
    "FELT",
    "GOLD",
    "HAND",
    "MARGIN",
    "MUTED",
    "PANEL",
    "TABLE",
    "TABLE_MARGIN",
    "TABLE_WIDTH",
    "TEXT",
    "HandTiles",
    "draw_badge",
    "hand_canvas",
    "liangdao_seats",
    "result_canvas",
    "reveal_canvas",
    "table_canvas",
    "unseen_counts",
]
