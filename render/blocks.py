"""The pictures' common parts: palette, metrics and building blocks (badges, melds, tile rows, wait
sets) shared by :mod:`render.hand`, :mod:`render.table` and :mod:`render.result`
(docs/architecture.md §3)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.tiles import MeldKind, Tile
from engine.views import MeldView, PublicView, SeatView

from .art import RGB, TileSize, TileState
from .canvas import Canvas
from .labels import Labels
from .text import clean_name, text_width

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
GAIN: RGB = (255, 136, 120)  # Chinese convention: red = gain, green = loss; the sign says it too
LOSS: RGB = (130, 230, 150)
DANGER_LABEL: RGB = (255, 150, 150)
POND_BG: RGB = (20, 80, 54)

MARGIN = 16
TILE_GAP = 2
GROUP_GAP = 16
HAND = TileSize.HAND
TABLE = TileSize.TABLE
MAX_SLOTS = 14  # tiles in a row: melds are 3 wide (a kong's 4th tile sits on top)


def _stack(size: TileSize) -> int:
    """How far a kong's 4th tile sits above the other three."""
    return round(size.height * 0.28)


def _name(names: Sequence[str], seat: int, lb: Labels) -> str:
    return clean_name(names[seat] if seat < len(names) else "", seat, lb.seat_fallback)


def _fit_size(texts: Sequence[str], size: int, max_width: int, smallest: int = 10) -> int:
    """The largest font size <= ``size`` (at least ``smallest``) at which every text fits ``max_width``."""
    while size > smallest and any(text_width(t, size) > max_width for t in texts):
        size -= 1
    return size


def _active(view: PublicView) -> frozenset[int]:
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


def _badge(
    c: Canvas, x: int, cy: int, text: str, bg: RGB, fg: RGB, size: int, *, role: str, seat: int | None = None
) -> int:
    """A rounded label with ``text``, left edge at ``x``, vertically centred on ``cy``; returns its right edge."""
    pad = size // 3
    w = text_width(text, size) + 2 * pad
    h = round(size * 1.35)
    c.rect((x, cy - h // 2, x + w, cy - h // 2 + h), bg, radius=h // 3, role=role, seat=seat)
    c.text(x + w // 2, cy, text, size, fg, anchor="mm", role=role + "_text", seat=seat)
    return x + w


def _panel(c: Canvas, box: tuple[int, int, int, int], active: bool, *, role: str, seat: int) -> None:
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


def _dealer_badge(c: Canvas, x: int, cy: int, r: int, seat: int, lb: Labels) -> int:
    c.disc(x + r, cy, r, BADGE_RED, role="dealer", seat=seat)
    size = _fit_size([lb.dealer], round(r * 1.25), round(r * 1.6))
    c.text(x + r, cy, lb.dealer, size, TEXT, anchor="mm", role="dealer_text", seat=seat)
    return x + 2 * r


def _meld_width(size: TileSize) -> int:
    return 3 * (size.width + TILE_GAP) - TILE_GAP


def _meld(c: Canvas, x: int, y: int, meld: MeldView, size: TileSize, seat: int, *, role: str = "meld") -> int:
    """Draw one meld with its bottom row's top-left at (x, y); returns the x after it.

    碰: three tiles.  直杠 / 补杠: three tiles and the fourth on top of the middle one.
    暗杠: three face-down tiles with the fourth on top -- face up when the viewer knows the tile
    (the owner, or everyone once the hand is over), face down otherwise (``MeldView.tile`` None).
    """
    step = size.width + TILE_GAP
    concealed = meld.kind is MeldKind.CONCEALED_KONG or meld.tile is None
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


def _waits_block(
    c: Canvas,
    x: int,
    y: int,
    waits: Sequence[Tile],
    size: TileSize,
    seat: int,
    unseen: Sequence[int] | None,
    label: int,
    lb: Labels,
    *,
    prefix: str = "",
) -> int:
    """``听`` badge then the wait tiles (top edge at y), with unseen counts under them if given
    (each fits the tile's width); ``prefix`` goes before every role (``waits_badge``, ``wait``,
    ``unseen``)."""
    cy = y + size.height // 2
    x = _badge(c, x, cy, lb.waits, GOLD, DARK, label, role=prefix + "waits_badge", seat=seat) + 8
    step = size.width + TILE_GAP
    if unseen is not None:
        unseen_size = _fit_size([lb.unseen.format(n=n) for n in range(5)], max(12, label - 6), size.width)
    for i, t in enumerate(waits):
        c.tile(x + i * step, y, t, size, role=prefix + "wait", seat=seat)
        if unseen is not None:
            c.text(
                x + i * step + size.width // 2,
                y + size.height + 3,
                lb.unseen.format(n=unseen[t]),
                unseen_size,
                MUTED if unseen[t] else BADGE_RED,
                anchor="mt",
                role=prefix + "unseen",
                seat=seat,
            )
    return x + len(waits) * step - TILE_GAP


def _waits_width(n: int, size: TileSize, label: int, lb: Labels) -> int:
    return text_width(lb.waits, label) + 2 * (label // 3) + 8 + n * (size.width + TILE_GAP)
