"""The private hand picture (docs/architecture.md §3; see :func:`render.render_hand`)."""

from __future__ import annotations

from engine.tiles import Tile
from engine.views import SeatView

from . import labels as L
from .art import TileSize, TileState
from .blocks import (
    DANGER_LABEL,
    DARK,
    FELT,
    GOLD,
    GROUP_GAP,
    HAND,
    MARGIN,
    MAX_SLOTS,
    MUTED,
    TEXT,
    TILE_GAP,
    _badge,
    _fit_size,
    _meld,
    _stack,
    _waits_block,
    unseen_counts,
)
from .canvas import Canvas
from .labels import Labels
from .text import text_width

# -- the private hand ----------------------------------------------------------------------------------

LABEL_SIZE = 22


def _hand_label_size(lb: Labels) -> int:
    """Font size of the tile labels under hand tiles: :data:`LABEL_SIZE`, smaller if the language's
    longest tile label would not fit a tile's width."""
    return _fit_size(lb.tiles, LABEL_SIZE, HAND.width)


def hand_canvas(view: SeatView, lang: str = "zh_CN") -> Canvas:
    """The private hand picture of ``view.seat`` in ``lang`` (see :func:`render.render_hand`)."""
    lb = L.labels_for(lang)
    label_size = _hand_label_size(lb)
    w, h = HAND.value
    step = w + TILE_GAP
    stack = _stack(HAND)
    # gaps: after each meld and before the drawn tile; 14 slots and 5 gaps always fit (melds are 3 wide)
    gaps = len(view.melds) + (view.drawn is not None)
    slots = 3 * len(view.melds) + len(view.concealed) + (view.drawn is not None)
    width = max(2 * MARGIN + MAX_SLOTS * step + 5 * GROUP_GAP, 2 * MARGIN + slots * step + gaps * GROUP_GAP)
    row_top = MARGIN + stack
    label_y = row_top + h + 4
    footer_top = label_y + LABEL_SIZE + 16
    small = TileSize.TABLE
    height = footer_top + small.height + LABEL_SIZE + 6 + MARGIN
    c = Canvas(width, height, FELT)
    seat = view.seat

    danger: set[Tile] = set()
    for other in view.public.seats:
        if other.seat != seat and other.liangdao:
            danger.update(other.waits)

    x = MARGIN
    for meld in view.melds:
        x = _meld(c, x, row_top, meld, HAND, seat) + GROUP_GAP
    for t in view.concealed:
        state = TileState.DANGER if t in danger else TileState.NORMAL
        c.tile(x, row_top, t, HAND, state, role="hand", seat=seat)
        colour = DANGER_LABEL if t in danger else TEXT
        c.text(x + w // 2, label_y, lb.tile(t), label_size, colour, anchor="mt", role="label", seat=seat)
        x += step
    if view.drawn is not None:
        x += GROUP_GAP - TILE_GAP
        c.tile(x, row_top, view.drawn, HAND, TileState.HIGHLIGHT, role="drawn", seat=seat)
        c.text(x + w // 2, label_y, lb.tile(view.drawn), label_size, GOLD, anchor="mt", role="label", seat=seat)

    # footer: waits (with unseen counts) on the left; 亮倒 and the wall on the right
    fx = MARGIN
    if view.waits:
        _waits_block(c, fx, footer_top, view.waits, small, seat, unseen_counts(view.public, view), 22, lb)
    cy = footer_top + small.height // 2
    wall = lb.wall.format(n=view.public.wall_remaining)
    right = width - MARGIN
    c.text(right, cy, wall, 20, MUTED, anchor="rm", role="wall")
    me = view.public.seats[seat] if seat < len(view.public.seats) else None
    if me is not None and me.liangdao:
        bw = text_width(lb.liangdao, 20) + 2 * (20 // 3)
        _badge(c, right - text_width(wall, 20) - 14 - bw, cy, lb.liangdao, GOLD, DARK, 20, role="liangdao", seat=seat)
    return c
