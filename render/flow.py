"""Flowing layout: items left to right, wrapping onto new lines (docs/architecture.md §3).

A picture made for a phone (:mod:`render.phone`) has little width, so a seat's name, badges, hidden
hand, melds, waits and pond, a result's chips and a hand's tiles flow into lines instead of standing
in fixed rows: :func:`flow` places :class:`Item` values (a width, a gap before it, whether it must
start a line) and :func:`draw_flow` calls each item's drawing function at its place.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

__all__ = ["Item", "Placement", "draw_flow", "flow", "lines_of"]


@dataclass(frozen=True, slots=True)
class Item:
    """One thing in a flow: ``width`` pixels, ``gap`` pixels after the item before it on the same
    line, ``newline``: it starts a line; ``draw(x, top)`` draws it with its left edge at ``x`` on
    the line whose top is ``top``; ``kind``: a free tag (e.g. ``"pond"``) the caller may group by."""

    width: int
    draw: Callable[[int, int], object]
    gap: int = 0
    newline: bool = False
    kind: str = ""


@dataclass(frozen=True, slots=True)
class Placement:
    """Where :func:`flow` put an item: left edge ``x`` and ``line`` number (0 first)."""

    x: int
    line: int


def flow(items: Sequence[Item], left: int, right: int) -> list[Placement]:
    """Place ``items`` left to right from ``left``, a new line when the next would pass ``right``
    (or asks for one); an item wider than the line gets a line of its own."""
    out: list[Placement] = []
    x, line, empty = left, 0, True
    for item in items:
        if not empty and (item.newline or x + item.gap + item.width > right):
            x, line, empty = left, line + 1, True
        if not empty:
            x += item.gap
        out.append(Placement(x, line))
        x += item.width
        empty = False
    return out


def lines_of(placements: Sequence[Placement]) -> int:
    """How many lines a flow fills (0 for no items)."""
    return placements[-1].line + 1 if placements else 0


def draw_flow(items: Sequence[Item], placements: Sequence[Placement], top: int, line_height: int) -> None:
    """Draw each item at its placement, line ``n`` starting ``top + n * line_height``."""
    for item, p in zip(items, placements, strict=True):
        item.draw(p.x, top + p.line * line_height)
