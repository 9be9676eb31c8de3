"""The private hand picture (docs/architecture.md §3; see :func:`render.render_hand`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence

from engine.rules import Ruleset
from engine.tiles import Tile
from engine.views import SeatView

from . import labels as L
from .art import RGB, TileSize, TileState
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


BAR = 8
"""Height of the mark over a hand tile (gold: shown at a partial 亮倒 / 廊起; red: protected)."""


def shown_marks(concealed: Sequence[Tile], shown: Sequence[Tile]) -> list[bool]:
    """Which of ``concealed`` (in order) are shown tiles: each tile of the multiset ``shown`` marks
    one copy, the first not yet marked."""
    left = Counter(shown)
    out = []
    for t in concealed:
        out.append(left[t] > 0)
        left[t] -= 1
    return out


def _bar(c: Canvas, x: int, row_top: int, colour: RGB, role: str, seat: int) -> None:
    """The mark over the hand tile whose left edge is ``x``."""
    c.rect((x + 4, row_top - BAR - 4, x + HAND.width - 4, row_top - 4), colour, radius=2, role=role, seat=seat)


def _legend(c: Canvas, right: int, cy: int, text: str, colour: RGB, role: str) -> int:
    """A legend item ending at ``right``: a bar in ``colour`` then ``text``; returns its left edge."""
    tw = text_width(text, 20)
    c.text(right, cy, text, 20, colour, anchor="rm", role=role)
    left = right - tw - 8 - 24
    c.rect((left, cy - BAR // 2, left + 24, cy - BAR // 2 + BAR), colour, radius=2, role=role + "_bar")
    return left


def hand_canvas(
    view: SeatView, lang: str = "zh_CN", protected: Collection[Tile] = (), game: str = Ruleset.KAWUXING
) -> Canvas:
    """The private hand picture of ``view.seat`` in ``lang`` (see :func:`render.render_hand`)."""
    lb = L.labels_for(lang, game)
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

    me = view.public.seats[seat] if seat < len(view.public.seats) else None
    partial = me is not None and me.liangdao and me.hidden_count > 0
    shown = shown_marks(view.concealed, me.revealed) if partial and me is not None else [False] * len(view.concealed)
    protect = set(protected)
    x = MARGIN
    for meld in view.melds:
        x = _meld(c, x, row_top, meld, HAND, seat) + GROUP_GAP
    for t, is_shown in zip(view.concealed, shown, strict=True):
        state = TileState.DANGER if t in danger or t in protect else TileState.NORMAL
        c.tile(x, row_top, t, HAND, state, role="hand", seat=seat)
        colour = DANGER_LABEL if t in danger or t in protect else TEXT
        c.text(x + w // 2, label_y, lb.tile(t), label_size, colour, anchor="mt", role="label", seat=seat)
        for flag, bar, role in ((is_shown, GOLD, "shown_mark"), (t in protect, DANGER_LABEL, "protected_mark")):
            if flag:
                _bar(c, x, row_top, bar, role, seat)
        x += step
    if view.drawn is not None:
        x += GROUP_GAP - TILE_GAP
        c.tile(x, row_top, view.drawn, HAND, TileState.HIGHLIGHT, role="drawn", seat=seat)
        c.text(x + w // 2, label_y, lb.tile(view.drawn), label_size, GOLD, anchor="mt", role="label", seat=seat)
        if view.drawn in protect:  # the drawn tile stays gold (just drawn); the red bar says it is protected
            c.rect(
                (x + 4, row_top - BAR - 4, x + w - 4, row_top - 4),
                DANGER_LABEL,
                radius=2,
                role="protected_mark",
                seat=seat,
            )

    # footer: waits (with unseen counts) on the left; 亮倒 and the wall on the right
    # a 亮倒 / 廊起 seat's waits are the published ones: the shown shape fixes them (docs/rules.md §E#48)
    fx = MARGIN
    waits = me.waits if me is not None and me.liangdao and me.waits else view.waits
    if waits:
        _waits_block(c, fx, footer_top, waits, small, seat, unseen_counts(view.public, view), 22, lb)
    cy = footer_top + small.height // 2
    wall = lb.wall.format(n=view.public.wall_remaining)
    right = width - MARGIN
    c.text(right, cy, wall, 20, MUTED, anchor="rm", role="wall")
    right -= text_width(wall, 20) + 14
    if me is not None and me.liangdao:
        bw = text_width(lb.liangdao, 20) + 2 * (20 // 3)
        _badge(c, right - bw, cy, lb.liangdao, GOLD, DARK, 20, role="liangdao", seat=seat)
        right -= bw + 18
    if any(shown):
        right = _legend(c, right, cy, lb.shown, GOLD, "shown_legend") - 18
    if protect & {*view.concealed, view.drawn}:
        _legend(c, right, cy, lb.protected, DANGER_LABEL, "protected_legend")
    return c
