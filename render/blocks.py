"""The pictures' common parts: palette, metrics and building blocks (badges, melds, tile rows, wait
sets, and the same as items of a flowing line, :mod:`render.flow`) shared by :mod:`render.hand`,
:mod:`render.table` and :mod:`render.result` (docs/architecture.md §3).  Font sizes follow from
:func:`render.phone.text_size`: the smallest text (:data:`SMALL_TEXT`) shows 11 px tall on a phone."""

from __future__ import annotations

from collections.abc import Sequence

from engine.tiles import MeldKind, Tile
from engine.views import MeldView, PublicView, SeatView

from .art import RGB, TileSize, TileState
from .canvas import Canvas
from .flow import Item
from .labels import Labels
from .phone import PICTURE_WIDTH, text_size
from .text import clean_name, fit, text_width

# -- palette and metrics ---------------------------------------------------------------------------
FELT: RGB = (22, 86, 58)
PANEL: RGB = (30, 104, 72)
PANEL_ACTIVE: RGB = (44, 132, 92)
TEXT: RGB = (248, 246, 238)
MUTED: RGB = (180, 212, 194)
GOLD: RGB = (255, 198, 40)
DARK: RGB = (30, 30, 30)
BADGE_RED: RGB = (210, 38, 38)
BADGE_GREY: RGB = (96, 110, 104)
RED_POINTS: RGB = (255, 136, 120)
GREEN_POINTS: RGB = (130, 230, 150)
DANGER_LABEL: RGB = (255, 150, 150)
POND_BG: RGB = (20, 80, 54)

MARGIN = 11
TILE_GAP = 2
GROUP_GAP = 11
HAND = TileSize.HAND
TABLE = TileSize.TABLE
MAX_SLOTS = 14  # tiles in a row: melds are 3 wide (a kong's 4th tile sits on top)

WIDTH = PICTURE_WIDTH
"""Every picture's width in pixels (docs/architecture.md §3: shown about 330 px wide on a phone)."""
SMALL_TEXT = text_size()
"""The smallest font size any text may have (11 px cap height on a phone, :mod:`render.phone`)."""
TEXT_SIZE = SMALL_TEXT + 1
"""Body text: labels, badges, counts, chips."""
NAME_SIZE = TEXT_SIZE + 2
"""Players' names."""
TITLE_SIZE = 38
"""A result's title."""
BADGE_SIZE = TEXT_SIZE
"""Text in a badge."""
ROW_GAP = 2
"""Pixels between two lines of tiles."""
PAD = 3
"""Padding inside a seat's panel."""


def _stack(size: TileSize) -> int:
    """How far a kong's 4th tile sits above the other three."""
    return round(size.height * 0.28)


def points_colour(points: int, lang: str, zero: RGB = MUTED) -> RGB:
    """The colour of a change of ``points`` drawn for a reader of ``lang`` (the words' ``lang``,
    docs/glossary.md, "Colours of points"): Chinese (``zh_CN``) shows a gain red and a loss green,
    as Chinese scoreboards and markets do; every other language a gain green and a loss red; 0 is
    ``zero``.
    The sign (``+`` / ``−``) says it in every language too.  The one place that decides it: the
    result's payments, the tables' match totals and the ``/stats`` points all ask here."""
    if points == 0:
        return zero
    red_gains = lang.startswith("zh")
    return RED_POINTS if (points > 0) == red_gains else GREEN_POINTS


def seat_name(names: Sequence[str], seat: int, lb: Labels) -> str:
    return clean_name(names[seat] if seat < len(names) else "", seat, lb.seat_fallback)


def fit_size(texts: Sequence[str], size: int, max_width: int, smallest: int = SMALL_TEXT) -> int:
    """The largest font size <= ``size`` (at least ``smallest``) at which every text fits ``max_width``."""
    while size > smallest and any(text_width(t, size) > max_width for t in texts):
        size -= 1
    return size


def active_seats(view: PublicView) -> frozenset[int]:
    """Seats the table waits for: ``to_act`` if any, else the seat whose turn it is; none once over."""
    if view.phase == "over" or view.result is not None:
        return frozenset()
    return frozenset(view.to_act) if view.to_act else frozenset({view.turn})


def unseen_counts(view: PublicView, own: SeatView | None = None) -> list[int]:
    """Per tile kind (30 entries), copies not visible to the viewer: 4 minus those in sight.

    In sight: unclaimed discards, every meld's tiles (a face-down 暗杠 of another seat hides its
    tile), revealed 亮倒 hands, and with ``own`` the viewer's concealed tiles, drawn tile and melds.
    Never negative.
    """
    seen = [0] * len(Tile)
    for seat in view.seats:
        for d in seat.discards:
            if not d.claimed:
                seen[d.tile] += 1
        melds = own.melds if own is not None and seat.seat == own.seat else seat.melds
        for m in melds:
            if m.tile is not None:
                seen[m.tile] += m.kind.size
        if own is None or seat.seat != own.seat:
            for t in seat.revealed:
                seen[t] += 1
    if own is not None:
        for t in own.concealed:
            seen[t] += 1
        if own.drawn is not None:
            seen[own.drawn] += 1
    return [max(0, 4 - n) for n in seen]


# -- building blocks ---------------------------------------------------------------------------------


def badge_width(text: str, size: int = BADGE_SIZE) -> int:
    """Width of a :func:`draw_badge` with ``text`` at ``size``."""
    return text_width(text, size) + 2 * (size // 3)


def draw_badge(
    c: Canvas, x: int, cy: int, text: str, bg: RGB, fg: RGB, size: int, *, role: str, seat: int | None = None
) -> int:
    """A rounded label with ``text``, left edge at ``x``, vertically centred on ``cy``; returns its right edge."""
    w = badge_width(text, size)
    h = round(size * 1.35)
    c.rect((x, cy - h // 2, x + w, cy - h // 2 + h), bg, radius=h // 3, role=role, seat=seat)
    c.text(x + w // 2, cy, text, size, fg, anchor="mm", role=role + "_text", seat=seat)
    return x + w


def draw_panel(c: Canvas, box: tuple[int, int, int, int], active: bool, *, role: str, seat: int) -> None:
    """A seat's rounded panel: lighter with a gold edge while the table waits for the seat."""
    c.rect(
        box,
        PANEL_ACTIVE if active else PANEL,
        outline=GOLD if active else None,
        width=3,
        radius=10,
        role=role,
        seat=seat,
    )


DEALER_R = 19
"""Radius of the 庄 disc: its letter is body text (:data:`TEXT_SIZE`)."""


def draw_dealer_badge(c: Canvas, x: int, cy: int, r: int, seat: int, lb: Labels) -> int:
    c.disc(x + r, cy, r, BADGE_RED, role="dealer", seat=seat)
    c.text(x + r, cy, lb.dealer, TEXT_SIZE, TEXT, anchor="mm", role="dealer_text", seat=seat)
    return x + 2 * r


def _meld_width(size: TileSize) -> int:
    return 3 * (size.width + TILE_GAP) - TILE_GAP


def flat_meld_width(meld: MeldView, size: TileSize) -> int:
    """Width of a meld drawn flat: a kong's four tiles side by side."""
    return meld.kind.size * (size.width + TILE_GAP) - TILE_GAP


def draw_meld(
    c: Canvas, x: int, y: int, meld: MeldView, size: TileSize, seat: int, *, role: str = "meld", flat: bool = False
) -> int:
    """Draw one meld with its bottom row's top-left at (x, y); returns the x after it.

    碰: three tiles.  直杠 / 补杠: three tiles and the fourth on top of the middle one (``flat``:
    four side by side, for a line with no room above).  暗杠: face down -- face up when the viewer
    knows the tile (the owner, or everyone once the hand is over), face down otherwise
    (``MeldView.tile`` None); stacked, three face down under a face-up fourth.
    """
    step = size.width + TILE_GAP
    concealed = meld.kind is MeldKind.CONCEALED_KONG or meld.tile is None
    if flat:
        n = meld.kind.size
        for i in range(n):
            shown = meld.tile if not concealed or (meld.tile is not None and i in (1, 2)) else None
            c.tile(x + i * step, y, shown, size, role=role, seat=seat)
        return x + flat_meld_width(meld, size)
    for i in range(3):
        c.tile(x + i * step, y, None if concealed else meld.tile, size, role=role, seat=seat)
    if meld.kind.is_kong:
        c.tile(x + step, y - _stack(size), meld.tile, size, role=role + "_top", seat=seat)
    return x + _meld_width(size)


def _tile_row(
    c: Canvas,
    x: int,
    y: int,
    tiles: Sequence[Tile | None],
    size: TileSize,
    seat: int,
    *,
    role: str,
    states: Sequence[TileState] | None = None,
) -> int:
    """Tiles left to right from (x, y) (None: face down); returns the x after the last one."""
    step = size.width + TILE_GAP
    for i, t in enumerate(tiles):
        c.tile(x + i * step, y, t, size, states[i] if states else TileState.NORMAL, role=role, seat=seat)
    return x + len(tiles) * step - (TILE_GAP if tiles else 0)


# -- flow items (render.flow): one line's height is given, everything is centred on it -------------------


def text_item(
    c: Canvas,
    text: str,
    size: int,
    fill: RGB,
    line: int,
    *,
    role: str,
    seat: int | None = None,
    max_width: int | None = None,
    raw: bool = False,
    gap: int = 0,
    newline: bool = False,
) -> Item:
    """A text (cut with ``…`` to ``max_width``) on a flow line ``line`` pixels high."""
    shown = fit(text, size, max_width) if max_width is not None else text
    return Item(
        text_width(shown, size),
        lambda x, top: c.text(x, top + line // 2, shown, size, fill, role=role, seat=seat, raw=raw),
        gap,
        newline,
    )


def badge_item(
    c: Canvas, text: str, bg: RGB, fg: RGB, line: int, *, role: str, seat: int | None = None, gap: int = 8
) -> Item:
    """A :func:`draw_badge` on a flow line."""
    return Item(
        badge_width(text),
        lambda x, top: draw_badge(c, x, top + line // 2, text, bg, fg, BADGE_SIZE, role=role, seat=seat),
        gap,
    )


def dealer_item(c: Canvas, seat: int, lb: Labels, line: int, gap: int = 8) -> Item:
    """The 庄 disc on a flow line."""
    return Item(2 * DEALER_R, lambda x, top: draw_dealer_badge(c, x, top + line // 2, DEALER_R, seat, lb), gap)


def marker_item(c: Canvas, seat: int, line: int) -> Item:
    """The gold ▶ of a seat the table waits for."""

    def draw(x: int, top: int) -> None:
        cy = top + line // 2
        c.polygon([(x, cy - 14), (x + 20, cy), (x, cy + 14)], GOLD, role="turn_marker", seat=seat)

    return Item(20, draw)


def tile_item(
    c: Canvas,
    tile: Tile | None,
    size: TileSize,
    line: int,
    *,
    role: str,
    seat: int | None,
    state: TileState = TileState.NORMAL,
    rotated: bool = False,
    gap: int = TILE_GAP,
    newline: bool = False,
    kind: str = "",
) -> Item:
    """One tile (``rotated``: lying sideways, as wide as a tile is tall), bottom-aligned on a
    line of tiles of ``size``."""
    w, h = (size.height, size.width) if rotated else size.value

    def draw(x: int, top: int) -> None:
        bottom = top + (line + size.height) // 2
        c.tile(x, bottom - h, tile, size, state, rotated=rotated, role=role, seat=seat)

    return Item(w, draw, gap, newline, kind)


def meld_item(
    c: Canvas, meld: MeldView, size: TileSize, line: int, seat: int, *, role: str, gap: int = GROUP_GAP
) -> Item:
    """A meld drawn flat (a kong's four tiles side by side) on a flow line."""
    return Item(
        flat_meld_width(meld, size),
        lambda x, top: draw_meld(c, x, top + (line - size.height) // 2, meld, size, seat, role=role, flat=True),
        gap,
    )


COUNT_GAP = 5


def backs_item(
    c: Canvas, n: int, size: TileSize, line: int, seat: int, *, role: str, count_role: str, gap: int = GROUP_GAP
) -> Item:
    """A hidden hand on a flow line: one face-down tile and the number of tiles (``13``)."""

    def draw(x: int, top: int) -> None:
        c.tile(x, top + (line - size.height) // 2, None, size, role=role, seat=seat)
        c.text(x + size.width + COUNT_GAP, top + line // 2, str(n), TEXT_SIZE, MUTED, role=count_role, seat=seat)

    return Item(size.width + COUNT_GAP + text_width(str(n), TEXT_SIZE), draw, gap)


def waits_items(
    c: Canvas,
    waits: Sequence[Tile],
    size: TileSize,
    line: int,
    seat: int,
    lb: Labels,
    *,
    unseen: Sequence[int] | None = None,
    prefix: str = "",
    gap: int = GROUP_GAP,
    newline: bool = False,
) -> list[Item]:
    """``听`` then the wait tiles, each followed by the copies the viewer has not seen (``4张``)
    when ``unseen`` is given; ``prefix`` goes before every role (``waits_badge``, ``wait``,
    ``unseen``)."""
    items = [
        Item(
            badge_width(lb.waits),
            lambda x, top: draw_badge(
                c, x, top + line // 2, lb.waits, GOLD, DARK, BADGE_SIZE, role=prefix + "waits_badge", seat=seat
            ),
            gap,
            newline,
        )
    ]
    for i, t in enumerate(waits):
        tile = tile_item(c, t, size, line, role=prefix + "wait", seat=seat, gap=8 if i == 0 else 10)
        if unseen is None:
            items.append(tile)
            continue
        count = lb.unseen.format(n=unseen[t])
        colour = MUTED if unseen[t] else BADGE_RED

        def draw(x: int, top: int, tile: Item = tile, count: str = count, colour: RGB = colour) -> None:
            tile.draw(x, top)
            c.text(x + tile.width + 4, top + line // 2, count, TEXT_SIZE, colour, role=prefix + "unseen", seat=seat)

        items.append(Item(tile.width + 4 + text_width(count, TEXT_SIZE), draw, tile.gap))
    if len(items) > 1:  # the badge never ends a line: it and the first wait are one item
        badge, first = items[0], items[1]

        def both(x: int, top: int, badge: Item = badge, first: Item = first) -> None:
            badge.draw(x, top)
            first.draw(x + badge.width + first.gap, top)

        items[:2] = [Item(badge.width + first.gap + first.width, both, badge.gap, badge.newline)]
    return items


def _waits_width(n: int, size: TileSize, label: int, lb: Labels) -> int:
    return text_width(lb.waits, label) + 2 * (label // 3) + 8 + n * (size.width + TILE_GAP)
