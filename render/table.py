"""The public table picture and the 亮倒 reveal (docs/architecture.md §3; see
:func:`render.render_table`, :func:`render.render_reveal`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine.rules import Ruleset
from engine.views import DiscardView, PublicSeatView, PublicView, WinView

from .art import RGB, TileSize, TileState
from .blocks import (
    BADGE_GREY,
    COUNT_GAP,
    DARK,
    FELT,
    GOLD,
    GROUP_GAP,
    HAND,
    MARGIN,
    MUTED,
    NAME_SIZE,
    PAD,
    POND_BG,
    ROW_GAP,
    TABLE,
    TEXT,
    TEXT_SIZE,
    TILE_GAP,
    WIDTH,
    active_seats,
    backs_item,
    badge_item,
    badge_width,
    dealer_item,
    draw_panel,
    marker_item,
    meld_item,
    points_colour,
    seat_name,
    text_item,
    tile_item,
    unseen_counts,
    waits_items,
)
from .canvas import Canvas, Placed
from .flow import Item, draw_flow, flow, lines_of
from .labels import ENGLISH, Labels, PictureWords, signed
from .phone import MAX_RATIO
from .text import text_width

# -- the public table ------------------------------------------------------------------------------------

POND_GAP = 2
TABLE_MARGIN = MARGIN
TABLE_WIDTH = WIDTH
HEADER = 54
"""Height of the table picture's first line: the wall."""
SEAT_GAP = 8
"""Pixels between two seats' panels."""


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


POND_ROW_GAP = ROW_GAP
"""Pixels between two rows of a pond."""


def pond_height(rows: int, size: TileSize = TABLE) -> int:
    """Height of a pond of ``rows`` rows of ``size`` tiles."""
    return rows * (size.height + POND_ROW_GAP) - POND_ROW_GAP


def discard_state(view: PublicView, seat: PublicSeatView, i: int) -> tuple[TileState, str]:
    """How discard ``i`` of ``seat`` is drawn: claimed discards dimmed (docs/glossary.md), the
    discard now on the table (``view.last_discard``) highlighted gold, and once a hand is won on a
    discard the winning tile highlighted (role ``win_discard``)."""
    d = seat.discards[i]
    winners = view.result.winners if view.result is not None else ()
    won_on = {w.win_tile for w in winners if w.by == "discard" and w.from_seat == seat.seat}
    final = i == len(seat.discards) - 1
    won = final and d.tile in won_on
    last = view.last_discard
    is_last = won or (last is not None and last[0] == seat.seat and final and last[1] == d.tile)
    state = TileState.HIGHLIGHT if is_last else TileState.DIM if d.claimed else TileState.NORMAL
    return state, "win_discard" if won else "last_discard" if is_last else "pond"


def draw_pond(
    c: Canvas, view: PublicView, seat: PublicSeatView, x: int, top: int, inner: int, size: TileSize = TABLE
) -> None:
    """A seat's discards in order from (x, top) at ``size``, :func:`pond_rows` rows within ``inner``
    pixels, drawn as :func:`discard_state` says; the 亮倒 discard lies sideways."""
    for i, (d, (dx, row)) in enumerate(zip(seat.discards, _pond_layout(seat.discards, inner, size), strict=True)):
        state, role = discard_state(view, seat, i)
        y = top + row * (size.height + POND_ROW_GAP)
        if d.liangdao:
            y += size.height - size.width
        c.tile(x + dx, y, d.tile, size, state, rotated=d.liangdao, role=role, seat=seat.seat)


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


@dataclass(frozen=True, slots=True)
class SeatStyle:
    """How a seat's panel flows (:func:`seat_items`): tiles of ``size``; ``header_alone``: the name
    line holds nothing else; ``pond_newline``: the pond starts a line of its own; ``hand``: in the
    private hand picture (roles ``seat_meld`` / ``seat_wait``, no match total); ``own_name``: the
    hand picture draws the player's own name before his pond (its most compact layout only his 庄
    disc)."""

    size: TileSize
    header_alone: bool = True
    pond_newline: bool = True
    hand: bool = False
    own_name: bool = True

    @property
    def line(self) -> int:
        """Height of one line of the panel."""
        return self.size.height + ROW_GAP


def _header_items(
    c: Canvas,
    view: PublicView,
    seat: PublicSeatView,
    name: str,
    lb: Labels,
    style: SeatStyle,
    room: int,
    active: bool,
    win: WinView | None,
    relative: str = "",
) -> list[Item]:
    """The name line's items: ▶, 庄, ``relative`` (where the seat sits from the player of a hand
    picture, e.g. 下家) as a muted badge, the name (cut to what ``room`` leaves it), the badges, the
    kong money."""
    s, line = seat.seat, style.line
    items: list[Item] = []
    if active:
        items.append(marker_item(c, s, line))
    if s == view.dealer:
        items.append(dealer_item(c, s, lb, line, gap=8 if items else 0))
    if relative:
        items.append(badge_item(c, relative, POND_BG, MUTED, line, role="relative", seat=s, gap=8 if items else 0))
    extras: list[tuple[str, RGB, RGB]] = []
    if win is not None:
        extras.append((lb.by_label.get(win.by, win.by), GOLD, DARK))
    if seat.liangdao:
        extras.append((lb.liangdao, GOLD, DARK))
    if seat.on_auto:
        extras.append((lb.auto, BADGE_GREY, TEXT))
    kong = lb.kong.format(v=signed(seat.kong_money)) if seat.kong_money else ""
    used = sum(i.width + i.gap for i in items) + sum(badge_width(t) + 8 for t, _, _ in extras)
    used += text_width(kong, TEXT_SIZE) + 10 if kong else 0
    if not style.header_alone:  # the hidden hand's count follows the name on its line
        used += style.size.width + COUNT_GAP + text_width("13", TEXT_SIZE) + GROUP_GAP
    name_max = max(NAME_MIN, room - used - 8)
    item = text_item(
        c, name, NAME_SIZE, TEXT, line, role="name", seat=s, max_width=name_max, raw=True, gap=8 if items else 0
    )

    def draw(x: int, top: int) -> None:  # the name, and the box it was given (role name_box)
        item.draw(x, top)
        c.placed.append(Placed("name_box", (x, top, x + name_max, top + line - ROW_GAP), s))

    items.append(replace(item, draw=draw))
    for text, bg, fg in extras:
        items.append(badge_item(c, text, bg, fg, line, role="badge", seat=s))
    if kong:
        colour = GOLD if seat.kong_money > 0 else MUTED
        items.append(text_item(c, kong, TEXT_SIZE, colour, line, role="kong_money", seat=s, gap=10))
    return items


NAME_MIN = 110
"""Pixels a seat's name keeps before the badges beside it are cut short."""


def seat_items(
    c: Canvas,
    view: PublicView,
    seat: PublicSeatView,
    name: str,
    lb: Labels,
    style: SeatStyle,
    inner: int,
    *,
    active: bool = False,
    total: int | None = None,
    win: WinView | None = None,
    relative: str = "",
) -> list[Item]:
    """One seat's panel as flow items (:mod:`render.flow`), ``inner`` pixels wide: the name line
    (:func:`_header_items`, with ``relative`` where the seat sits from the player of a hand picture;
    with ``total``, the seat's running match total at its right end, or after the name line's other
    items when they leave it no room), then the hand -- a 亮倒 / 廊起 seat's shown tiles and the
    tiles it keeps as one face-down tile with their count, a winner's hand face up with the winning
    tile apart and highlighted, else the hidden hand as one face-down tile and its count --, the
    melds (flat), ``听`` and the published waits, and the pond (kind ``"pond"``)."""
    s, size, line = seat.seat, style.size, style.line
    total_text = lb.match_total.format(v=signed(total)) if total is not None else ""
    room = text_width(total_text, TEXT_SIZE) + 16 if total_text else 0
    items = _header_items(c, view, seat, name, lb, style, inner - room, active, win, relative)
    if total is not None:
        colour = points_colour(total, lb.lang)
        used = sum(i.width for i in items) + sum(i.gap for i in items[1:])
        if used + room <= inner:  # right-aligned on the name line: drawn from the end of its items

            def draw(x: int, top: int, text: str = total_text, colour: RGB = colour, used: int = used) -> None:
                c.text(
                    x - used + inner, top + line // 2, text, TEXT_SIZE, colour, anchor="rm", role="match_total", seat=s
                )

            items.append(Item(0, draw, 0, False, "total"))
        else:
            items.append(text_item(c, total_text, TEXT_SIZE, colour, line, role="match_total", seat=s, gap=16))
    hand: list[Item] = []  # the hand part: its first item starts a line under a name line alone
    if win is not None:
        hand = [tile_item(c, t, size, line, role="revealed", seat=s) for t in seat.revealed[:-1]]
        gap = GROUP_GAP if hand else TILE_GAP
        hand.append(tile_item(c, win.win_tile, size, line, role="win_tile", seat=s, state=TileState.HIGHLIGHT, gap=gap))
    elif seat.revealed:
        hand = [tile_item(c, t, size, line, role="revealed", seat=s) for t in seat.revealed]
        backs = partial_backs(seat)
        if backs:
            hand.append(backs_item(c, backs, size, line, s, role="kept_hidden", count_role="kept_count"))
    else:
        hand = [backs_item(c, seat.concealed_count, size, line, s, role="hidden", count_role="hidden_count")]
    alone = style.header_alone
    items.append(replace(hand[0], gap=0 if alone else GROUP_GAP, newline=alone))
    items += hand[1:]
    for meld in seat.melds:
        items.append(meld_item(c, meld, size, line, s, role="seat_meld" if style.hand else "meld"))
    if seat.liangdao and seat.waits and win is None:
        items += waits_items(c, seat.waits, size, line, s, lb, prefix="seat_" if style.hand else "")
    for i, d in enumerate(seat.discards):
        state, role = discard_state(view, seat, i)
        items.append(
            tile_item(
                c,
                d.tile,
                size,
                line,
                role=role,
                seat=s,
                state=state,
                rotated=d.liangdao,
                gap=GROUP_GAP if i == 0 else POND_GAP,
                newline=i == 0 and style.pond_newline,
                kind="pond",
            )
        )
    if not seat.discards:  # an empty pond still shows its strip
        items.append(Item(size.width, lambda x, top: None, GROUP_GAP, style.pond_newline, "pond"))
    return items


def seat_panel_height(items: Sequence[Item], inner: int, style: SeatStyle) -> int:
    """Height of a seat's panel holding ``items`` (:func:`seat_items`) ``inner`` pixels wide."""
    return 2 * PAD + lines_of(flow(items, 0, inner)) * style.line - ROW_GAP


def draw_seat_panel(
    c: Canvas, items: Sequence[Item], x0: int, x1: int, top: int, style: SeatStyle, seat: int, active: bool
) -> int:
    """Draw a seat's panel from ``top`` between ``x0`` and ``x1``: the panel, a darker strip behind
    each line of the pond, the items; returns the panel's bottom."""
    places = flow(items, x0 + PAD, x1 - PAD)
    bottom = top + 2 * PAD + lines_of(places) * style.line - ROW_GAP
    draw_panel(c, (x0, top, x1, bottom), active, role="seat_panel" if style.hand else "panel", seat=seat)
    spans: dict[int, list[int]] = {}
    for item, p in zip(items, places, strict=True):
        if item.kind == "pond":
            span = spans.setdefault(p.line, [p.x, p.x + item.width])
            span[1] = p.x + item.width
    for n, (left, right) in spans.items():
        y = top + PAD + n * style.line
        c.rect(
            (left - PAD + 1, y - 2, right + PAD - 1, y + style.size.height + 2),
            POND_BG,
            radius=6,
            role="pond_area",
            seat=seat,
        )
    draw_flow(items, places, top + PAD, style.line)
    return bottom


TABLE_STYLES = (
    SeatStyle(TileSize.POND),
    SeatStyle(TileSize.SMALL),
    SeatStyle(TileSize.SMALL, header_alone=False),
    SeatStyle(TileSize.SMALL, header_alone=False, pond_newline=False),
)
"""The table picture's layouts, most generous first: the first that keeps the picture within
:data:`render.phone.MAX_RATIO` is drawn (the last in any case).  The largest tiles are
:attr:`TileSize.POND` (20 px on a phone): :attr:`TileSize.TABLE` would cost about 1.6 KiB a turn
(benchmarks/bench_pictures.py), past what a turn sent before the phone layout (docs/telegram.md §6)."""


def table_canvas(
    view: PublicView,
    names: Sequence[str],
    words: PictureWords = ENGLISH,
    totals: Sequence[int] | None = None,
    game: str = Ruleset.KAWUXING,
) -> Canvas:
    """The public table picture in ``words`` (see :func:`render.render_table`)."""
    lb = words.labels(game)
    if totals is not None and len(totals) != len(view.seats):
        raise ValueError(f"{len(totals)} match totals for {len(view.seats)} seats")
    seats, wins = _final_seats(view)
    active = active_seats(view)
    inner = WIDTH - 2 * MARGIN - 2 * PAD
    scratch = Canvas(1, 1, FELT)
    for style in TABLE_STYLES:
        heights = [
            seat_panel_height(
                seat_items(
                    scratch,
                    view,
                    s,
                    seat_name(names, s.seat, lb),
                    lb,
                    style,
                    inner,
                    total=totals[s.seat] if totals is not None else None,
                    win=wins.get(s.seat),
                ),
                inner,
                style,
            )
            for s in seats
        ]
        height = HEADER + sum(h + SEAT_GAP for h in heights) + MARGIN - SEAT_GAP
        if height <= MAX_RATIO * WIDTH:
            break
    c = Canvas(WIDTH, height, FELT)
    cy = HEADER // 2 + 2
    small = TileSize.SMALL
    c.tile(MARGIN + PAD, cy - small.height // 2, None, small, role="wall_icon")
    c.text(MARGIN + PAD + small.width + 12, cy, lb.wall.format(n=view.wall_remaining), NAME_SIZE, TEXT, role="wall")
    top = HEADER
    for seat in seats:
        s = seat.seat
        items = seat_items(
            c,
            view,
            seat,
            seat_name(names, s, lb),
            lb,
            style,
            inner,
            active=s in active,
            total=totals[s] if totals is not None else None,
            win=wins.get(s),
        )
        bottom = draw_seat_panel(c, items, MARGIN, WIDTH - MARGIN, top, style, s, s in active)
        top = bottom + SEAT_GAP
    return c


# -- the 亮倒 reveal -----------------------------------------------------------------------------------------


def reveal_canvas(
    view: PublicView, seat: int, names: Sequence[str], words: PictureWords = ENGLISH, game: str = Ruleset.KAWUXING
) -> Canvas:
    """The 亮倒 reveal picture of ``seat`` in ``words`` (see :func:`render.render_reveal`)."""
    lb = words.labels(game)
    if not 0 <= seat < len(view.seats):
        raise ValueError(f"seat {seat} is not at this table (seats 0..{len(view.seats) - 1})")
    ps = view.seats[seat]
    size, small = HAND, TileSize.POND
    line, small_line = size.height + ROW_GAP, small.height + ROW_GAP
    left, right = MARGIN, WIDTH - MARGIN
    scratch = Canvas(1, 1, FELT)

    def parts(c: Canvas) -> tuple[list[Item], list[Item], list[Item]]:
        head = [dealer_item(c, seat, lb, line, gap=0)] if seat == view.dealer else []
        badge = badge_width(lb.liangdao) + 12
        head.append(
            text_item(
                c,
                seat_name(names, seat, lb),
                NAME_SIZE,
                TEXT,
                60,
                role="name",
                seat=seat,
                raw=True,
                max_width=right - left - badge - 60,
                gap=10 if head else 0,
            )
        )
        head.append(badge_item(c, lb.liangdao, GOLD, DARK, 60, role="liangdao", seat=seat, gap=12))
        tiles = [tile_item(c, t, size, line, role="revealed", seat=seat) for t in ps.revealed]
        backs = partial_backs(ps)
        if backs:
            tiles.append(backs_item(c, backs, size, line, seat, role="kept_hidden", count_role="kept_count"))
        tiles += [meld_item(c, m, size, line, seat, role="meld") for m in ps.melds]
        waits = waits_items(c, ps.waits, small, small_line, seat, lb, unseen=unseen_counts(view)) if ps.waits else []
        return head, tiles, waits

    head, tiles, waits = parts(scratch)
    height = MARGIN + 60 + 8 + lines_of(flow(tiles, left, right)) * line
    height += lines_of(flow(waits, left, right)) * small_line
    c = Canvas(WIDTH, height + MARGIN, FELT)
    head, tiles, waits = parts(c)
    draw_flow(head, flow(head, left, right), MARGIN, 60)
    top = MARGIN + 60 + 8
    places = flow(tiles, left, right)
    draw_flow(tiles, places, top, line)
    top += lines_of(places) * line
    draw_flow(waits, flow(waits, left, right), top, small_line)
    return c
