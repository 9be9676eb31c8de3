"""The pictures: private hand, public table, 亮倒 reveal and hand result (docs/architecture.md §3).

Each ``*_canvas`` function lays out and draws one picture from an engine view and returns the
:class:`~render.canvas.Canvas` (image + what was placed where); the ``render_*`` functions in
:mod:`render` return just the image.  Nothing here reads hidden state: a picture shows exactly
what its view holds.

All pictures are RGB on a dark felt background and stay far inside Telegram's photo limits
(width + height <= 10000, aspect ratio <= 20, 10 MB): the largest is about 1000 x 900 pixels.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from engine.tiles import MeldKind, Tile
from engine.views import DiscardView, HandResultView, MeldView, PublicSeatView, PublicView, SeatView, WinView

from . import labels as L
from .art import RGB, TileSize, TileState
from .canvas import Canvas, Placed
from .labels import Labels
from .text import clean_name, fit, text_width

__all__ = ["HandTiles", "hand_canvas", "result_canvas", "reveal_canvas", "table_canvas", "unseen_counts"]

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
    tiles: Sequence[Tile],
    size: TileSize,
    seat: int,
    *,
    role: str,
    states: Sequence[TileState] | None = None,
) -> int:
    """Tiles left to right from (x, y); returns the x after the last one."""
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
) -> int:
    """``听`` badge then the wait tiles (top edge at y), with unseen counts under them if given
    (each fits the tile's width)."""
    cy = y + size.height // 2
    x = _badge(c, x, cy, lb.waits, GOLD, DARK, label, role="waits_badge", seat=seat) + 8
    step = size.width + TILE_GAP
    if unseen is not None:
        unseen_size = _fit_size([lb.unseen.format(n=n) for n in range(5)], max(12, label - 6), size.width)
    for i, t in enumerate(waits):
        c.tile(x + i * step, y, t, size, role="wait", seat=seat)
        if unseen is not None:
            c.text(
                x + i * step + size.width // 2,
                y + size.height + 3,
                lb.unseen.format(n=unseen[t]),
                unseen_size,
                MUTED if unseen[t] else BADGE_RED,
                anchor="mt",
                role="unseen",
                seat=seat,
            )
    return x + len(waits) * step - TILE_GAP


def _waits_width(n: int, size: TileSize, label: int, lb: Labels) -> int:
    return text_width(lb.waits, label) + 2 * (label // 3) + 8 + n * (size.width + TILE_GAP)


# -- the private hand ----------------------------------------------------------------------------------

HAND = TileSize.HAND
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


# -- the public table ------------------------------------------------------------------------------------

TABLE = TileSize.TABLE
POND_PER_ROW = 12
"""Discards per pond row.  12 (not 15) keeps the picture narrow, so its tiles stay large when a
phone shows it about 400 px wide; a pond rarely needs a second row (the wall is 44 tiles after the
deal, shared by all seats)."""
POND_GAP = 1
PAD = 10
NAME_ROW = 50
NAME_SIZE = 22
TABLE_MARGIN = 10
TABLE_WIDTH = 2 * TABLE_MARGIN + 2 * PAD + POND_PER_ROW * (TABLE.width + POND_GAP) - POND_GAP
HEADER = 46
TABLE_MELD_GAP = 8
TOTAL_SIZE = 18


def _pond_layout(discards: Sequence[DiscardView], inner: int) -> list[tuple[int, int]]:
    """(x offset, row) of each discard, flowing left to right; 亮倒 discards lie sideways (wider)."""
    out: list[tuple[int, int]] = []
    x, row = 0, 0
    for d in discards:
        w = TABLE.height if d.liangdao else TABLE.width
        if x and x + w > inner:
            x, row = 0, row + 1
        out.append((x, row))
        x += w + POND_GAP
    return out


def _pond_rows(seat: PublicSeatView, inner: int) -> int:
    """Rows the pond needs: as many as its discards fill, at least one (an empty pond is one row)."""
    layout = _pond_layout(seat.discards, inner)
    return max(1, layout[-1][1] + 1 if layout else 0)


def _row_stack(seat: PublicSeatView) -> int:
    """Room above a seat's hand row for a kong's 4th tile: only when the seat has a kong."""
    return _stack(TABLE) if any(m.kind.is_kong for m in seat.melds) else 0


def _row_height(seat: PublicSeatView) -> int:
    """Height of a seat's hand row: a table tile's when it shows tiles face up (melds, a 亮倒 hand),
    else just the small backs of the hidden hand."""
    return TABLE.height if seat.melds or seat.revealed else TileSize.TINY.height + 4


def _final_seats(view: PublicView) -> tuple[tuple[PublicSeatView, ...], dict[int, WinView]]:
    """The seats as the table picture draws them, and the winners by seat: once a hand is won, a
    winner's hand is public (its ``WinView``), so it is drawn face up -- concealed tiles, then the
    winning tile (last in ``revealed``), then the melds."""
    wins = {w.seat: w for w in view.result.winners} if view.result is not None else {}
    seats = tuple(
        replace(s, revealed=(*wins[s.seat].concealed, wins[s.seat].win_tile), melds=wins[s.seat].melds)
        if s.seat in wins
        else s
        for s in view.seats
    )
    return seats, wins


def _hand_row_size(seat: PublicSeatView, inner: int, extra: int = 0) -> TileSize:
    """The tile size of a seat's hand row (revealed tiles or backs, then melds; ``extra`` pixels of
    gaps): the table size if the row fits ``inner`` pixels, else the small size (a 亮倒 hand with
    melds, or four melds)."""
    for size in (TABLE, TileSize.SMALL):
        step = size.width + TILE_GAP
        if seat.revealed:
            hand = len(seat.revealed) * step + extra
        else:
            tiny = TileSize.TINY
            hand = seat.concealed_count * (tiny.width + 1) + 4 + text_width(str(seat.concealed_count), 16)
        if hand + len(seat.melds) * (TABLE_MELD_GAP + _meld_width(size)) <= inner:
            return size
    return TileSize.SMALL


WAITS_ROW = TileSize.SMALL.height + 8
NAME_MIN = 120
"""Pixels of name a seat header keeps before its 亮倒 waits move to a row of their own."""


def _waits_on_own_row(seat: PublicSeatView, view: PublicView, lb: Labels, total: int | None) -> bool:
    """A 亮倒 seat's published waits get a row of their own under the name when the name row could
    not hold them beside :data:`NAME_MIN` pixels of name, the badges (smallest size) and the match
    total."""
    if not (seat.liangdao and seat.waits):
        return False
    inner = TABLE_WIDTH - 2 * TABLE_MARGIN - 2 * PAD
    need = 22 + (34 if seat.seat == view.dealer else 0) + NAME_MIN + 8
    need += text_width(lb.liangdao, 12) + 2 * (12 // 3) + 8
    if seat.on_auto:
        need += text_width(lb.auto, 12) + 2 * (12 // 3) + 8
    for w in view.result.winners if view.result is not None else ():
        if w.seat == seat.seat:
            need += text_width(lb.by_label.get(w.by, w.by), 12) + 2 * (12 // 3) + 8
    if total is not None:
        need += text_width(lb.match_total.format(v=L.signed(total)), TOTAL_SIZE) + 12
    if seat.kong_money:
        need += text_width(L.signed(seat.kong_money), 13) + 10
    return need + _waits_width(len(seat.waits), TileSize.SMALL, 18, lb) + 12 > inner


def _seat_panel(
    c: Canvas,
    view: PublicView,
    seat: PublicSeatView,
    name: str,
    top: int,
    height: int,
    active: bool,
    lb: Labels,
    total: int | None,
    win: WinView | None = None,
) -> None:
    """One seat's panel of the table picture; ``win``: the seat won this (finished) hand -- its
    ``revealed`` then ends with the winning tile, which is drawn apart and highlighted."""
    x0, x1 = TABLE_MARGIN, c.width - TABLE_MARGIN
    s = seat.seat
    c.rect(
        (x0, top, x1, top + height),
        PANEL_ACTIVE if active else PANEL,
        outline=GOLD if active else None,
        width=3,
        radius=10,
        role="panel",
        seat=s,
    )
    cy = top + NAME_ROW // 2 + 1
    x = x0 + PAD
    if active:
        c.polygon([(x, cy - 10), (x + 14, cy), (x, cy + 10)], GOLD, role="turn_marker", seat=s)
    x += 22
    if seat.seat == view.dealer:
        x = _dealer_badge(c, x, cy, 13, s, lb) + 8

    # right side: the running match total, then the published waits of a 亮倒 seat
    right = x1 - PAD
    if total is not None:
        text = lb.match_total.format(v=L.signed(total))
        colour = GAIN if total > 0 else LOSS if total < 0 else MUTED
        box = c.text(right, cy, text, TOTAL_SIZE, colour, anchor="rm", role="match_total", seat=s)
        right = box[0] - 12
    small = TileSize.SMALL
    own_row = _waits_on_own_row(seat, view, lb, total)
    if own_row:
        _waits_block(c, x0 + PAD + 22, top + NAME_ROW - 4, seat.waits, small, s, None, 18, lb)
    elif seat.liangdao and seat.waits:
        ww = _waits_width(len(seat.waits), small, 18, lb)
        _waits_block(c, right - ww, cy - small.height // 2, seat.waits, small, s, None, 18, lb)
        right -= ww + 12
    # badges and kong money after the name; the name gets what is left
    extras: list[tuple[str, RGB, RGB]] = []
    if seat.liangdao:
        extras.append((lb.liangdao, GOLD, DARK))
    if seat.on_auto:
        extras.append((lb.auto, BADGE_GREY, TEXT))
    if win is not None:
        extras.insert(0, (lb.by_label.get(win.by, win.by), GOLD, DARK))
    kong = lb.kong.format(v=L.signed(seat.kong_money)) if seat.kong_money else ""

    def extras_width(size: int, kong: str) -> int:
        badges = sum(text_width(t, size) + 2 * (size // 3) + 8 for t, _, _ in extras)
        return badges + (text_width(kong, size + 1) + 10 if kong else 0)

    # a crowded row (long English badges and many waits): smaller badges, then the kong money's value alone
    badge_size, room = 17, right - x - NAME_MIN - 8
    while badge_size > 12 and extras_width(badge_size, kong) > room:
        badge_size -= 1
    if kong and extras_width(badge_size, kong) > room:
        kong = L.signed(seat.kong_money)
    kong_w = text_width(kong, badge_size + 1) + 10 if kong else 0
    extras_w = extras_width(badge_size, kong) - kong_w
    name_max = max(40, right - x - extras_w - kong_w - 8)
    box = c.text(x, cy, name, NAME_SIZE, TEXT, max_width=name_max, role="name", seat=s, raw=True)
    c.placed.append(Placed("name_box", (x, cy - NAME_SIZE, x + name_max, cy + NAME_SIZE), s))
    x = max(box[2], x) + 8
    for text, bg, fg in extras:
        x = _badge(c, x, cy, text, bg, fg, badge_size, role="badge", seat=s) + 8
    if kong:
        c.text(x + 2, cy, kong, badge_size + 1, GOLD if seat.kong_money > 0 else MUTED, role="kong_money", seat=s)

    # hand row: revealed (亮倒) tiles face up, else a row of backs; then the melds (smaller tiles
    # when the row would not fit), bottoms aligned
    inner = x1 - x0 - 2 * PAD
    row_size = _hand_row_size(seat, inner, TABLE_MELD_GAP if win is not None else 0)
    row_top = top + NAME_ROW + (WAITS_ROW if own_row else 0) + _row_stack(seat)
    row_h = _row_height(seat)
    size_top = row_top + row_h - row_size.height
    x = x0 + PAD
    if win is not None:
        x = _tile_row(c, x, size_top, seat.revealed[:-1], row_size, s, role="revealed")
        x += TABLE_MELD_GAP + (TILE_GAP if len(seat.revealed) > 1 else 0)
        x = c.tile(x, size_top, win.win_tile, row_size, TileState.HIGHLIGHT, role="win_tile", seat=s)[2]
    elif seat.revealed:
        x = _tile_row(c, x, size_top, seat.revealed, row_size, s, role="revealed")
    else:
        tiny = TileSize.TINY
        for i in range(seat.concealed_count):
            c.tile(x + i * (tiny.width + 1), row_top + row_h - tiny.height, None, tiny, role="hidden", seat=s)
        x += seat.concealed_count * (tiny.width + 1)
        c.text(
            x + 4,
            row_top + row_h - tiny.height // 2,
            str(seat.concealed_count),
            16,
            MUTED,
            role="hidden_count",
            seat=s,
        )
        x += 4 + text_width(str(seat.concealed_count), 16)
    for meld in seat.melds:
        x = _meld(c, x + TABLE_MELD_GAP, size_top, meld, row_size, s)

    # the pond, on a darker strip
    pond_top = row_top + row_h + 8
    pond_bottom = top + height - PAD + 4
    c.rect((x0 + PAD - 4, pond_top - 4, x1 - PAD + 4, pond_bottom), POND_BG, radius=6, role="pond_area", seat=s)
    layout = _pond_layout(seat.discards, inner)
    last = view.last_discard
    winners = view.result.winners if view.result is not None else ()
    won_on = {w.win_tile for w in winners if w.by == "discard" and w.from_seat == s}
    for i, (d, (dx, row)) in enumerate(zip(seat.discards, layout, strict=True)):
        final = i == len(seat.discards) - 1
        won = final and d.tile in won_on  # the discard a winner took: the winning tile
        is_last = won or (last is not None and last[0] == s and final and last[1] == d.tile)
        state = TileState.HIGHLIGHT if is_last else TileState.DIM if d.claimed else TileState.NORMAL
        y = pond_top + row * (TABLE.height + 4)
        if d.liangdao:
            y += TABLE.height - TABLE.width
        c.tile(
            x0 + PAD + dx,
            y,
            d.tile,
            TABLE,
            state,
            rotated=d.liangdao,
            role="win_discard" if won else "last_discard" if is_last else "pond",
            seat=s,
        )


def _panel_height(seat: PublicSeatView, view: PublicView, lb: Labels, total: int | None) -> int:
    inner = TABLE_WIDTH - 2 * TABLE_MARGIN - 2 * PAD
    rows = _pond_rows(seat, inner)
    waits = WAITS_ROW if _waits_on_own_row(seat, view, lb, total) else 0
    return NAME_ROW + waits + _row_stack(seat) + _row_height(seat) + 8 + rows * (TABLE.height + 4) - 4 + PAD + 4


def table_canvas(
    view: PublicView, names: Sequence[str], lang: str = "zh_CN", totals: Sequence[int] | None = None
) -> Canvas:
    """The public table picture in ``lang`` (see :func:`render.render_table`)."""
    lb = L.labels_for(lang)
    if totals is not None and len(totals) != len(view.seats):
        raise ValueError(f"{len(totals)} match totals for {len(view.seats)} seats")
    seat_totals: list[int | None] = list(totals) if totals is not None else [None] * len(view.seats)
    seats, wins = _final_seats(view)
    heights = [_panel_height(s, view, lb, seat_totals[s.seat]) for s in seats]
    height = HEADER + sum(heights) + 8 * len(heights) + TABLE_MARGIN - 8 + 8
    c = Canvas(TABLE_WIDTH, height, FELT)
    cy = HEADER // 2 + 2
    tiny = TileSize.TINY
    c.tile(TABLE_MARGIN + PAD, cy - tiny.height // 2, None, tiny, role="wall_icon")
    c.text(TABLE_MARGIN + PAD + tiny.width + 10, cy, lb.wall.format(n=view.wall_remaining), 22, TEXT, role="wall")
    active = _active(view)
    top = HEADER
    for seat, ph in zip(seats, heights, strict=True):
        name = _name(names, seat.seat, lb)
        total = seat_totals[seat.seat]
        _seat_panel(c, view, seat, name, top, ph, seat.seat in active, lb, total, wins.get(seat.seat))
        top += ph + 8
    return c


# -- the 亮倒 reveal -----------------------------------------------------------------------------------------


def reveal_canvas(view: PublicView, seat: int, names: Sequence[str], lang: str = "zh_CN") -> Canvas:
    """The 亮倒 reveal picture of ``seat`` in ``lang`` (see :func:`render.render_reveal`)."""
    lb = L.labels_for(lang)
    if not 0 <= seat < len(view.seats):
        raise ValueError(f"seat {seat} is not at this table (seats 0..{len(view.seats) - 1})")
    ps = view.seats[seat]
    w, h = HAND.value
    step = w + TILE_GAP
    small = TileSize.TABLE
    row_w = len(ps.revealed) * step - TILE_GAP + len(ps.melds) * (GROUP_GAP + _meld_width(HAND))
    waits_w = _waits_width(len(ps.waits), small, 24, lb)
    width = max(560, 2 * MARGIN + max(row_w, waits_w))
    head = 52
    stack = _stack(HAND) if any(m.kind.is_kong for m in ps.melds) else 0
    row_top = MARGIN + head + stack
    waits_top = row_top + h + 18
    height = waits_top + small.height + 24 + MARGIN
    c = Canvas(width, height, FELT)
    cy = MARGIN + head // 2 - 4
    x = MARGIN
    if seat == view.dealer:
        x = _dealer_badge(c, x, cy, 15, seat, lb) + 10
    badge_w = text_width(lb.liangdao, 24) + 2 * (24 // 3)
    box = c.text(
        x,
        cy,
        _name(names, seat, lb),
        28,
        TEXT,
        max_width=width - x - MARGIN - badge_w - 14,
        role="name",
        seat=seat,
        raw=True,
    )
    _badge(c, max(box[2], x) + 14, cy, lb.liangdao, GOLD, DARK, 24, role="liangdao", seat=seat)
    x = _tile_row(c, MARGIN, row_top, ps.revealed, HAND, seat, role="revealed")
    for meld in ps.melds:
        x = _meld(c, x + GROUP_GAP, row_top, meld, HAND, seat)
    if ps.waits:
        _waits_block(c, MARGIN, waits_top, ps.waits, small, seat, unseen_counts(view), 24, lb)
    return c


# -- the result -----------------------------------------------------------------------------------------------

RESULT_WIDTH = 2 * MARGIN + MAX_SLOTS * (HAND.width + TILE_GAP) + 5 * GROUP_GAP
CHIP_SIZE = 20


def _chip_width(text: str) -> int:
    return text_width(text, CHIP_SIZE) + 2 * 10


def _flow(widths: Sequence[int], inner: int, gap: int = 8) -> list[tuple[int, int]]:
    """(x offset, row) for items of ``widths`` flowing left to right in ``inner`` pixels."""
    out: list[tuple[int, int]] = []
    x, row = 0, 0
    for w in widths:
        if x and x + w > inner:
            x, row = 0, row + 1
        out.append((x, row))
        x += w + gap
    return out


def _payers_text(win: WinView, names: Sequence[str], lb: Labels) -> list[str]:
    return [
        lb.pays.format(name=fit(_name(names, p, lb), CHIP_SIZE, 240), times=L.TIMES, m=m)
        for p, m in sorted(win.multiplier.items())
    ]


def liangdao_seats(win: WinView, view: PublicView) -> list[int]:
    """Whose 亮倒 the 亮倒 番 of ``win`` stands for: the winner if the winner declared 亮倒 (it doubles
    every payer), else the payers who declared it (docs/rules.md §A9.6).  Under 对亮翻番 (both) only
    the winner is named: the chip stands for the factor, and the winner's 亮倒 alone brings it."""
    declared = {s.seat for s in view.seats if s.liangdao}
    if win.seat in declared:
        return [win.seat]
    return [p for p in sorted(win.multiplier) if p in declared]


def _fan_texts(win: WinView, view: PublicView, names: Sequence[str], lb: Labels) -> list[str]:
    """The 番 chips' texts; the 亮倒 chip names whose 亮倒 it is (:data:`render.labels.LIANGDAO_OF`)."""
    whose = liangdao_seats(win, view)
    out = []
    for f in win.fans:
        if f == "亮倒" and whose:
            who = ("、" if lb.lang == "zh_CN" else ", ").join(fit(_name(names, s, lb), CHIP_SIZE, 200) for s in whose)
            out.append(lb.liangdao_of.format(name=who))
        else:
            out.append(lb.fan(f))
    return out


CHIP_ROW = 36


def _multiplier_items(win: WinView, names: Sequence[str], lb: Labels) -> list[str]:
    """The multiplier row: its label, then one chip per payer."""
    return [lb.multiplier_label, *_payers_text(win, names, lb)]


def _item_width(text: str, i: int) -> int:
    """Width of item ``i`` of the multiplier row: the label is plain text, the rest are chips."""
    return text_width(text, CHIP_SIZE - 2) + 4 if i == 0 else _chip_width(text)


def _winner_height(win: WinView, view: PublicView, names: Sequence[str], inner: int, lb: Labels) -> int:
    fans = _flow([_chip_width(t) for t in _fan_texts(win, view, names, lb)], inner)
    pays = _flow([_item_width(t, i) for i, t in enumerate(_multiplier_items(win, names, lb))], inner)
    fan_rows = fans[-1][1] + 1 if fans else 0
    pay_rows = pays[-1][1] + 1 if pays else 0
    stack = _stack(HAND) if any(m.kind.is_kong for m in win.melds) else 0
    return 44 + stack + HAND.height + 12 + (fan_rows + pay_rows) * CHIP_ROW + 10


def _draw_winner(c: Canvas, top: int, win: WinView, view: PublicView, names: Sequence[str], lb: Labels) -> None:
    s = win.seat
    cy = top + 20
    x = MARGIN
    by = lb.by_label.get(win.by, win.by)
    # the header row: name, how-won badge, who discarded / was robbed, 包胡 badge -- all inside the width
    by_w = text_width(by, 20) + 2 * (20 // 3) + 10
    baohu_w = text_width(lb.baohu, 20) + 2 * (20 // 3) + 12 if win.baohu else 0
    from_min = 160 if win.from_seat is not None else 0
    name_max = max(60, min(520, c.width - MARGIN - x - 12 - by_w - from_min - baohu_w))
    box = c.text(x, cy, _name(names, s, lb), 26, TEXT, max_width=name_max, role="winner_name", seat=s, raw=True)
    x = max(box[2], x) + 12
    x = _badge(c, x, cy, by, GOLD, DARK, 20, role="by", seat=s) + 10
    if win.from_seat is not None:
        template = lb.robbed if win.by == "rob_kong" else lb.from_
        from_max = max(40, min(300, c.width - MARGIN - x - baohu_w))
        who = fit(_name(names, win.from_seat, lb), 20, from_max - text_width(template.format(name=""), 20))
        x = (
            c.text(
                x,
                cy,
                template.format(name=who),
                20,
                MUTED,
                max_width=from_max,
                role="from",
                seat=s,
            )[2]
            + 12
        )
    if win.baohu:
        _badge(c, x, cy, lb.baohu, BADGE_RED, TEXT, 20, role="baohu", seat=s)
    stack = _stack(HAND) if any(m.kind.is_kong for m in win.melds) else 0
    row_top = top + 44 + stack
    x = MARGIN
    for meld in win.melds:
        x = _meld(c, x, row_top, meld, HAND, s) + GROUP_GAP
    x = _tile_row(c, x, row_top, win.concealed, HAND, s, role="winner_hand")
    c.tile(x + GROUP_GAP, row_top, win.win_tile, HAND, TileState.HIGHLIGHT, role="win_tile", seat=s)
    y = row_top + HAND.height + 12
    inner = c.width - 2 * MARGIN
    for texts, role, outline, fg in (
        (_fan_texts(win, view, names, lb), "fan", GOLD, GOLD),
        (_multiplier_items(win, names, lb), "multiplier", MUTED, TEXT),
    ):
        widths = [_item_width(t, i) if role == "multiplier" else _chip_width(t) for i, t in enumerate(texts)]
        flow = _flow(widths, inner)
        for i, (text, (dx, row)) in enumerate(zip(texts, flow, strict=True)):
            cx, cyy = MARGIN + dx, y + row * CHIP_ROW + CHIP_ROW // 2
            if role == "multiplier" and i == 0:
                c.text(cx, cyy, text, CHIP_SIZE - 2, MUTED, role="multiplier_label", seat=s)
                continue
            cw = _chip_width(text)
            c.rect((cx, cyy - 15, cx + cw, cyy + 15), None, outline=outline, width=2, radius=8, role=role, seat=s)
            c.text(cx + cw // 2, cyy, text, CHIP_SIZE, fg, anchor="mm", role=role + "_text", seat=s)
        if flow:
            y += (flow[-1][1] + 1) * CHIP_ROW


def _draw_liangdao_seat(c: Canvas, top: int, ps: PublicSeatView, names: Sequence[str], lb: Labels) -> None:
    s = ps.seat
    cy = top + 20
    small = TileSize.SMALL
    right = c.width - MARGIN
    if ps.waits:
        ww = _waits_width(len(ps.waits), small, 18, lb)
        _waits_block(c, right - ww, cy - small.height // 2, ps.waits, small, s, None, 18, lb)
        right -= ww + 12
    badge_w = text_width(lb.liangdao, 18) + 2 * (18 // 3)
    box = c.text(
        MARGIN,
        cy,
        _name(names, s, lb),
        24,
        TEXT,
        max_width=right - MARGIN - badge_w - 12,
        role="name",
        seat=s,
        raw=True,
    )
    _badge(c, max(box[2], MARGIN) + 12, cy, lb.liangdao, GOLD, DARK, 18, role="liangdao", seat=s)
    stack = _stack(TABLE) if any(m.kind.is_kong for m in ps.melds) else 0
    row_top = top + 44 + stack
    x = _tile_row(c, MARGIN, row_top, ps.revealed, TABLE, s, role="revealed")
    for meld in ps.melds:
        x = _meld(c, x + GROUP_GAP, row_top, meld, TABLE, s)


def _liangdao_height(ps: PublicSeatView) -> int:
    stack = _stack(TABLE) if any(m.kind.is_kong for m in ps.melds) else 0
    return 44 + stack + TABLE.height + 12


HandTiles = tuple[tuple[Tile, ...], tuple[MeldView, ...]]
"""One seat's whole hand at the end of a hand: its concealed tiles and its melds (every tile face
up, 暗杠 included)."""

SHOWN_NAME_W = 170
"""Width of the name column of the result picture's hands section."""


def _shown_seats(view: PublicView, hands: Sequence[HandTiles] | None) -> list[int]:
    """Seats whose hands the result picture adds face up: every seat not already shown (a winner's
    hand is in its block, a 亮倒 seat's in the 荒庄 blocks)."""
    if hands is None or view.result is None:
        return []
    if len(hands) != len(view.seats):
        raise ValueError(f"{len(hands)} hands for {len(view.seats)} seats")
    if view.result.outcome == "win":
        done = {w.seat for w in view.result.winners}
    else:
        done = {s.seat for s in view.seats if s.liangdao and s.revealed}
    return [s.seat for s in view.seats if s.seat not in done]


def _shown_height(hand: HandTiles) -> int:
    stack = _stack(TABLE) if any(m.kind.is_kong for m in hand[1]) else 0
    return stack + TABLE.height + 12


def _draw_shown_hand(c: Canvas, top: int, seat: int, hand: HandTiles, names: Sequence[str], lb: Labels) -> None:
    """One row of the hands section: the name, then the concealed tiles and the melds face up."""
    concealed, melds = hand
    stack = _stack(TABLE) if any(m.kind.is_kong for m in melds) else 0
    row_top = top + stack
    c.text(
        MARGIN + 8,
        row_top + TABLE.height // 2,
        _name(names, seat, lb),
        20,
        TEXT,
        max_width=SHOWN_NAME_W - 16,
        role="shown_name",
        seat=seat,
        raw=True,
    )
    x = _tile_row(c, MARGIN + SHOWN_NAME_W, row_top, concealed, TABLE, seat, role="shown_hand")
    for meld in melds:
        face_up = MeldView(meld.kind, meld.tile, meld.source)
        x = _meld(c, x + GROUP_GAP, row_top, face_up, TABLE, seat, role="shown_meld")


PAY_ROW = 38
PAY_SIZE = 22


def _payer_badges(result: HandResultView, lb: Labels) -> dict[int, str]:
    """Badges on the payments table for the seats that lost the hand by a discard: 点炮 on the
    discarder of a discard win, 被抢杠 on the robbed seat of 抢杠胡 (never on a winner)."""
    out: dict[int, str] = {}
    for w in result.winners:
        if w.from_seat is not None:
            out[w.from_seat] = lb.kong_robbed if w.by == "rob_kong" else lb.dealt_in
    return out


def _draw_payments(
    c: Canvas, top: int, view: PublicView, result: HandResultView, names: Sequence[str], n: int, lb: Labels
) -> None:
    """The payments table: per seat the name (庄 disc on this hand's dealer, a 点炮 / 被抢杠 badge on
    the seat that dealt in), 胡牌, 杠钱 and 合计."""
    badges = _payer_badges(result, lb)
    cols = (lb.hand_money, lb.kong_money, lb.total)
    col_right = [c.width - MARGIN - 20 - i * 150 for i in (2, 1, 0)]
    c.rect((MARGIN, top, c.width - MARGIN, top + PAY_ROW * (n + 1) + 8), PANEL, radius=10, role="payments")
    cy = top + PAY_ROW // 2 + 4
    for text, xr in zip(cols, col_right, strict=True):
        c.text(xr, cy, text, 18, MUTED, anchor="rm", role="pay_header")
    for seat in range(n):
        cy = top + PAY_ROW * (seat + 1) + PAY_ROW // 2 + 4
        x = MARGIN + 14
        if seat == view.dealer:
            _dealer_badge(c, x, cy, 12, seat, lb)
        badge = badges.get(seat)
        badge_w = text_width(badge, 16) + 2 * (16 // 3) + 10 if badge else 0
        box = c.text(
            x + 34,
            cy,
            _name(names, seat, lb),
            PAY_SIZE,
            TEXT,
            max_width=col_right[0] - 110 - x - 34 - badge_w,
            role="pay_name",
            seat=seat,
            raw=True,
        )
        if badge:
            _badge(c, max(box[2], x + 34) + 10, cy, badge, BADGE_RED, TEXT, 16, role="dealt_in", seat=seat)
        values = (result.hand_deltas, result.kong_deltas, result.deltas)
        for i, (vals, xr) in enumerate(zip(values, col_right, strict=True)):
            v = vals[seat] if seat < len(vals) else 0
            colour = GAIN if v > 0 else LOSS if v < 0 else MUTED
            c.text(
                xr,
                cy,
                L.signed(v),
                PAY_SIZE + (2 if i == 2 else 0),
                colour,
                anchor="rm",
                role="pay_" + ("hand", "kong", "total")[i],
                seat=seat,
            )


def result_canvas(
    view: PublicView, names: Sequence[str], lang: str = "zh_CN", hands: Sequence[HandTiles] | None = None
) -> Canvas:
    """The hand result picture in ``lang`` (see :func:`render.render_result`)."""
    lb = L.labels_for(lang)
    result = view.result
    if result is None:
        raise ValueError("the view has no result: the hand is not over")
    width = RESULT_WIDTH
    inner = width - 2 * MARGIN
    head = 60
    draw = result.outcome != "win"
    liangdao_seats = [s for s in view.seats if s.liangdao and s.revealed] if draw else []
    blocks = (
        [_liangdao_height(s) for s in liangdao_seats]
        if draw
        else [_winner_height(w, view, names, inner, lb) for w in result.winners]
    )
    shown = _shown_seats(view, hands)
    shown_h = [_shown_height(hands[s]) for s in shown] if hands is not None else []
    shown_total = sum(shown_h) + 12 if shown else 0
    n = len(view.seats)
    pay_h = PAY_ROW * (n + 1) + 8
    height = MARGIN + head + sum(b + 10 for b in blocks) + shown_total + pay_h + 34 + MARGIN
    c = Canvas(width, height, FELT)
    c.text(MARGIN, MARGIN + head // 2, lb.draw if draw else lb.win, 36, GOLD, role="title")
    top = MARGIN + head
    if draw:
        for ps, bh in zip(liangdao_seats, blocks, strict=True):
            _draw_liangdao_seat(c, top, ps, names, lb)
            top += bh + 10
    else:
        for win, bh in zip(result.winners, blocks, strict=True):
            c.rect(
                (MARGIN - 6, top - 4, width - MARGIN + 6, top + bh - 4),
                PANEL,
                radius=10,
                role="winner_panel",
                seat=win.seat,
            )
            _draw_winner(c, top, win, view, names, lb)
            top += bh + 10
    if shown and hands is not None:
        c.rect((MARGIN - 6, top - 4, width - MARGIN + 6, top + shown_total - 8), PANEL, radius=10, role="hands_panel")
        y = top + 4
        for seat, sh in zip(shown, shown_h, strict=True):
            _draw_shown_hand(c, y, seat, hands[seat], names, lb)
            y += sh
        top += shown_total
    _draw_payments(c, top, view, result, names, n, lb)
    c.text(
        MARGIN,
        top + pay_h + 20,
        f"{lb.next_dealer}{lb.colon}{_name(names, result.next_dealer, lb)}",
        18,
        MUTED,
        max_width=inner,
        role="next_dealer",
    )
    return c
