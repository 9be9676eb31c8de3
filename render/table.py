"""The public table picture and the 亮倒 reveal (docs/architecture.md §3; see
:func:`render.render_table`, :func:`render.render_reveal`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from engine.rules import Ruleset
from engine.views import DiscardView, PublicSeatView, PublicView, WinView

from . import labels as L
from .art import RGB, TileSize, TileState
from .blocks import (
    BADGE_GREY,
    DARK,
    FELT,
    GAIN,
    GOLD,
    GROUP_GAP,
    HAND,
    LOSS,
    MARGIN,
    MUTED,
    POND_BG,
    TABLE,
    TEXT,
    TILE_GAP,
    _active,
    _badge,
    _dealer_badge,
    _meld,
    _meld_width,
    _name,
    _panel,
    _stack,
    _tile_row,
    _waits_block,
    _waits_width,
    unseen_counts,
)
from .canvas import Canvas, Placed
from .labels import Labels
from .text import text_width

# -- the public table ------------------------------------------------------------------------------------

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


def _pond_layout(discards: Sequence[DiscardView], inner: int, size: TileSize = TABLE) -> list[tuple[int, int]]:
    """(x offset, row) of each discard at ``size``, flowing left to right within ``inner`` pixels;
    亮倒 discards lie sideways (wider)."""
    out: list[tuple[int, int]] = []
    x, row = 0, 0
    for d in discards:
        w = size.height if d.liangdao else size.width
        if x and x + w > inner:
            x, row = 0, row + 1
        out.append((x, row))
        x += w + POND_GAP
    return out


def pond_rows(seat: PublicSeatView, inner: int, size: TileSize = TABLE) -> int:
    """Rows the pond needs at ``size`` within ``inner`` pixels: as many as its discards fill, at
    least one (an empty pond is one row)."""
    layout = _pond_layout(seat.discards, inner, size)
    return max(1, layout[-1][1] + 1 if layout else 0)


POND_ROW_GAP = 4
"""Pixels between two rows of a pond."""


def pond_height(rows: int, size: TileSize = TABLE) -> int:
    """Height of a pond of ``rows`` rows of ``size`` tiles."""
    return rows * (size.height + POND_ROW_GAP) - POND_ROW_GAP


def draw_pond(
    c: Canvas, view: PublicView, seat: PublicSeatView, x: int, top: int, inner: int, size: TileSize = TABLE
) -> None:
    """A seat's discards in order from (x, top) at ``size``, :func:`pond_rows` rows within ``inner``
    pixels: claimed discards dimmed (docs/glossary.md), the 亮倒 discard lying sideways, the discard
    now on the table (``view.last_discard``) highlighted gold, and once a hand is won on a discard
    the winning tile highlighted (role ``win_discard``)."""
    s = seat.seat
    layout = _pond_layout(seat.discards, inner, size)
    last = view.last_discard
    winners = view.result.winners if view.result is not None else ()
    won_on = {w.win_tile for w in winners if w.by == "discard" and w.from_seat == s}
    for i, (d, (dx, row)) in enumerate(zip(seat.discards, layout, strict=True)):
        final = i == len(seat.discards) - 1
        won = final and d.tile in won_on  # the discard a winner took: the winning tile
        is_last = won or (last is not None and last[0] == s and final and last[1] == d.tile)
        state = TileState.HIGHLIGHT if is_last else TileState.DIM if d.claimed else TileState.NORMAL
        y = top + row * (size.height + POND_ROW_GAP)
        if d.liangdao:
            y += size.height - size.width
        role = "win_discard" if won else "last_discard" if is_last else "pond"
        c.tile(x + dx, y, d.tile, size, state, rotated=d.liangdao, role=role, seat=s)


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
        replace(s, revealed=(*wins[s.seat].concealed, wins[s.seat].win_tile), melds=wins[s.seat].melds, hidden_count=0)
        if s.seat in wins
        else s
        for s in view.seats
    )
    return seats, wins


def partial_backs(seat: PublicSeatView) -> int:
    """Face-down tiles drawn beside a partly revealed 亮倒 / 廊起 hand (``liangdao_reveal = kou`` /
    ``minimal``, docs/rules.md §A9.2, §E#48; 卡心五 廊起, §B): every tile of the hand not shown --
    the tiles kept hidden and a tile just drawn; 0 for a hand shown whole or not shown at all."""
    if not (seat.liangdao and seat.hidden_count and seat.revealed):
        return 0
    return max(0, seat.concealed_count - len(seat.revealed))


COUNT_SIZE = 16
"""Font size of the number beside a row of face-down tiles."""


def _backs_width(n: int) -> int:
    """Width of a row of ``n`` small face-down tiles and their count (:func:`_backs`)."""
    return n * (TileSize.TINY.width + 1) + 4 + text_width(str(n), COUNT_SIZE)


def _backs(c: Canvas, x: int, bottom: int, n: int, seat: int, *, role: str, count_role: str) -> int:
    """``n`` small face-down tiles from ``x``, bottoms on ``bottom``, then their count; returns the x after."""
    tiny = TileSize.TINY
    for i in range(n):
        c.tile(x + i * (tiny.width + 1), bottom - tiny.height, None, tiny, role=role, seat=seat)
    x += n * (tiny.width + 1)
    c.text(x + 4, bottom - tiny.height // 2, str(n), COUNT_SIZE, MUTED, role=count_role, seat=seat)
    return x + 4 + text_width(str(n), COUNT_SIZE)


def _hand_row_size(seat: PublicSeatView, inner: int, extra: int = 0) -> TileSize:
    """The tile size of a seat's hand row (revealed tiles or backs, then melds; ``extra`` pixels of
    gaps): the table size if the row fits ``inner`` pixels, else the small size (a 亮倒 hand with
    melds, a partly revealed hand, or four melds)."""
    backs = partial_backs(seat)
    for size in (TABLE, TileSize.SMALL):
        step = size.width + TILE_GAP
        if seat.revealed:
            hand = len(seat.revealed) * step + extra + (TABLE_MELD_GAP + _backs_width(backs) if backs else 0)
        else:
            hand = _backs_width(seat.concealed_count)
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
    _panel(c, (x0, top, x1, top + height), active, role="panel", seat=s)
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
        backs = partial_backs(seat)
        if backs:  # a partial reveal: the tiles kept hidden face down, small, with their count
            x = _backs(c, x + TABLE_MELD_GAP, row_top + row_h, backs, s, role="kept_hidden", count_role="kept_count")
    else:
        x = _backs(c, x, row_top + row_h, seat.concealed_count, s, role="hidden", count_role="hidden_count")
    for meld in seat.melds:
        x = _meld(c, x + TABLE_MELD_GAP, size_top, meld, row_size, s)

    # the pond, on a darker strip
    pond_top = row_top + row_h + 8
    pond_bottom = top + height - PAD + 4
    c.rect((x0 + PAD - 4, pond_top - 4, x1 - PAD + 4, pond_bottom), POND_BG, radius=6, role="pond_area", seat=s)
    draw_pond(c, view, seat, x0 + PAD, pond_top, inner)


def _panel_height(seat: PublicSeatView, view: PublicView, lb: Labels, total: int | None) -> int:
    inner = TABLE_WIDTH - 2 * TABLE_MARGIN - 2 * PAD
    rows = pond_rows(seat, inner)
    waits = WAITS_ROW if _waits_on_own_row(seat, view, lb, total) else 0
    return NAME_ROW + waits + _row_stack(seat) + _row_height(seat) + 8 + pond_height(rows) + PAD + 4


def table_canvas(
    view: PublicView,
    names: Sequence[str],
    lang: str = "zh_CN",
    totals: Sequence[int] | None = None,
    game: str = Ruleset.KAWUXING,
) -> Canvas:
    """The public table picture in ``lang`` (see :func:`render.render_table`)."""
    lb = L.labels_for(lang, game)
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


def reveal_canvas(
    view: PublicView, seat: int, names: Sequence[str], lang: str = "zh_CN", game: str = Ruleset.KAWUXING
) -> Canvas:
    """The 亮倒 reveal picture of ``seat`` in ``lang`` (see :func:`render.render_reveal`)."""
    lb = L.labels_for(lang, game)
    if not 0 <= seat < len(view.seats):
        raise ValueError(f"seat {seat} is not at this table (seats 0..{len(view.seats) - 1})")
    ps = view.seats[seat]
    w, h = HAND.value
    step = w + TILE_GAP
    small = TileSize.TABLE
    backs = partial_backs(ps)
    row_w = len(ps.revealed) * step - TILE_GAP + len(ps.melds) * (GROUP_GAP + _meld_width(HAND))
    row_w += GROUP_GAP + _backs_width(backs) if backs else 0
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
    if backs:  # a partial reveal: the kept tiles face down, with their count
        x = _backs(c, x + GROUP_GAP, row_top + h, backs, seat, role="kept_hidden", count_role="kept_count")
    for meld in ps.melds:
        x = _meld(c, x + GROUP_GAP, row_top, meld, HAND, seat)
    if ps.waits:
        _waits_block(c, MARGIN, waits_top, ps.waits, small, seat, unseen_counts(view), 24, lb)
    return c
