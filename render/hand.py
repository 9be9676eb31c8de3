"""The private hand picture: the table as the player may see it, then his own tiles (docs/architecture.md §3;
see :func:`render.render_hand`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence

from engine.rules import Ruleset
from engine.tiles import Tile
from engine.views import PublicSeatView, PublicView, SeatView

from . import labels as L
from .art import RGB, TileSize, TileState
from .blocks import (
    BADGE_GREY,
    DANGER_LABEL,
    DARK,
    FELT,
    GOLD,
    GROUP_GAP,
    HAND,
    MARGIN,
    MAX_SLOTS,
    MUTED,
    POND_BG,
    TEXT,
    TILE_GAP,
    _active,
    _badge,
    _dealer_badge,
    _fit_size,
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
from .canvas import Canvas
from .labels import Labels
from .table import _backs, _backs_width, draw_pond, partial_backs, pond_height, pond_rows
from .text import text_width

# -- the private hand ----------------------------------------------------------------------------------

LABEL_SIZE = 22

LABEL_MARGIN = 8
"""Pixels of a hand tile's width a label leaves free (with the gap between tiles, 10 px between labels)."""


def _hand_label_size(lb: Labels) -> int:
    """Font size of the tile labels under hand tiles: :data:`LABEL_SIZE`, smaller if the language's
    longest tile label would not fit a tile's width less :data:`LABEL_MARGIN` (so neighbouring labels
    never touch, e.g. English "9 Crak")."""
    return _fit_size(lb.tiles, LABEL_SIZE, HAND.width - LABEL_MARGIN)


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


# -- the table above the hand: the other seats, then the player's own pond ----------------------------

SEAT_PAD = 10
"""Padding inside an other seat's panel."""
SEAT_NAME_SIZE = 28
SEAT_BADGE_SIZE = 22
SEAT_HEAD = 44
"""Height of an other seat's name row when it shows no tiles beside the name (no melds, no backs)."""
POND = TileSize.TABLE
"""Tile size of the other seats' ponds, melds and shown 亮倒 / 廊起 tiles."""
OWN_POND = TileSize.SMALL
"""Tile size of the player's own pond (small: the player knows it best)."""
SECTION_GAP = 8
"""Pixels between two seats' panels, and between the table part and the hand."""


def _others(view: SeatView) -> list[PublicSeatView]:
    """The other seats in turn order from the player's right (docs/rules.md §A2.3: play passes to
    ``seat + 1``), so the first panel is the seat that plays next."""
    seats = view.public.seats
    return [seats[(view.seat + i) % len(seats)] for i in range(1, len(seats))]


def relative_label(view: SeatView, seat: int, lb: Labels) -> str:
    """Where ``seat`` sits from the player of ``view``, as players say it (docs/glossary.md): play
    passes to ``seat + 1`` (docs/rules.md §A2.3), so the next seat is 下家 (he plays after the
    player), the one before is 上家 (whose discards come to the player first) and, at four seats, the
    one between them is 对家 (across); at two seats the only other seat is across."""
    n = len(view.public.seats)
    step = (seat - view.seat) % n
    if n == 2 or 1 < step < n - 1:
        return lb.across
    return lb.next_seat if step == 1 else lb.previous


OWN_NAME_MAX = 240
"""Widest the player's own name may be drawn at the left of his pond strip (longer names end in ``…``)."""
DEALER_R = 15
"""Radius of the 庄 disc in the seats' name rows."""


def _own_label_width(view: SeatView, names: Sequence[str], lb: Labels) -> int:
    """Width of the player's own label at the left of his pond strip: the 庄 disc if he deals, then
    his name (at most :data:`OWN_NAME_MAX`), then a gap."""
    badge = 2 * DEALER_R + 8 if view.seat == view.public.dealer else 0
    return badge + min(text_width(_name(names, view.seat, lb), SEAT_NAME_SIZE), OWN_NAME_MAX) + 2 * SEAT_PAD


def _head_height(seat: PublicSeatView) -> int:
    """Height of an other seat's name row: its melds' (with room for a kong's 4th tile) when it has
    any, else :data:`SEAT_HEAD`."""
    if not seat.melds:
        return SEAT_HEAD
    return POND.height + (_stack(POND) if any(m.kind.is_kong for m in seat.melds) else 0)


def _seat_height(seat: PublicSeatView, inner: int) -> int:
    """Height of an other seat's panel: name row, the row of shown 亮倒 / 廊起 tiles if any, the pond."""
    shown = POND.height + 8 if seat.revealed else 0
    pond = pond_height(pond_rows(seat, inner - 2 * SEAT_PAD, POND), POND)
    return 2 * SEAT_PAD + _head_height(seat) + shown + 8 + pond + 8


def _own_pond_height(view: SeatView, inner: int) -> int:
    """Height of the strip with the player's own pond, ``inner`` pixels wide beside his label."""
    me = view.public.seats[view.seat]
    return pond_height(pond_rows(me, inner - 2 * SEAT_PAD, OWN_POND), OWN_POND) + 2 * 6


def table_height(view: SeatView, width: int, names: Sequence[str] = (), lb: Labels = L.ZH) -> int:
    """Height of the table part of a hand picture ``width`` pixels wide (see :func:`draw_table`)."""
    inner = width - 2 * MARGIN
    others = sum(_seat_height(s, inner) + SECTION_GAP for s in _others(view))
    own = _own_pond_height(view, inner - _own_label_width(view, names, lb))
    return MARGIN + others + own + SECTION_GAP


def _waits_size(seat: PublicSeatView, room: int, lb: Labels) -> TileSize:
    """The largest tile size at which a 亮倒 seat's waits fit ``room`` pixels (the smallest otherwise)."""
    for size in (POND, TileSize.SMALL):
        if _waits_width(len(seat.waits), size, SEAT_BADGE_SIZE, lb) <= room:
            return size
    return TileSize.TINY


def _other_seat(
    c: Canvas, view: PublicView, seat: PublicSeatView, name: str, relative: str, top: int, active: bool, lb: Labels
) -> int:
    """One other seat's panel from ``top`` (the public table picture's seat panel, compact): turn
    marker, 庄, where the seat sits from the player (``relative``: 下家 / 对家 / 上家,
    :func:`relative_label`), name, 亮倒 / 托管 badges, the hidden hand as backs with its count, the melds (another
    seat's 暗杠 face down); a 亮倒 / 廊起 seat's shown tiles, kept tiles as backs with their count, and
    ``听`` with its published waits; then the whole pond.  Returns the panel's bottom."""
    x0, x1 = MARGIN, c.width - MARGIN
    s = seat.seat
    height = _seat_height(seat, x1 - x0)
    _panel(c, (x0, top, x1, top + height), active, role="seat_panel", seat=s)
    head = _head_height(seat)
    bottom = top + SEAT_PAD + head  # the name row's tiles stand on this line
    cy = bottom - min(head, POND.height) // 2
    x = x0 + SEAT_PAD
    if active:
        c.polygon([(x, cy - 12), (x + 16, cy), (x, cy + 12)], GOLD, role="turn_marker", seat=s)
    x += 24
    if s == view.dealer:
        x = _dealer_badge(c, x, cy, DEALER_R, s, lb) + 8
    x = _badge(c, x, cy, relative, POND_BG, MUTED, SEAT_BADGE_SIZE, role="relative", seat=s) + 10

    # right side: the melds, and before them the hidden hand as backs (a 亮倒 seat shows its hand below)
    right = x1 - SEAT_PAD
    meld_x = right - sum(_meld_width(POND) + GROUP_GAP for _ in seat.melds) + GROUP_GAP
    for meld in seat.melds:
        _meld(c, meld_x, bottom - POND.height, meld, POND, s, role="seat_meld")
        meld_x += _meld_width(POND) + GROUP_GAP
    right -= sum(_meld_width(POND) + GROUP_GAP for _ in seat.melds)
    if not seat.revealed:
        right -= _backs_width(seat.concealed_count)
        tiny = TileSize.TINY.height
        _backs(c, right, cy + tiny // 2, seat.concealed_count, s, role="hidden", count_role="hidden_count")
        right -= GROUP_GAP
    badges = [(lb.liangdao, GOLD, DARK)] if seat.liangdao else []
    if seat.on_auto:
        badges.append((lb.auto, BADGE_GREY, TEXT))
    badges_w = sum(text_width(t, SEAT_BADGE_SIZE) + 2 * (SEAT_BADGE_SIZE // 3) + 8 for t, _, _ in badges)
    name_max = max(60, right - x - badges_w - 8)
    box = c.text(x, cy, name, SEAT_NAME_SIZE, TEXT, max_width=name_max, role="name", seat=s, raw=True)
    x = max(box[2], x) + 10
    for text, bg, fg in badges:
        x = _badge(c, x, cy, text, bg, fg, SEAT_BADGE_SIZE, role="badge", seat=s) + 8

    y = bottom + 8
    if seat.revealed:  # 亮倒 / 廊起: the shown tiles, the kept ones face down with their count, the waits
        x = _tile_row(c, x0 + SEAT_PAD, y, seat.revealed, POND, s, role="revealed")
        backs = partial_backs(seat)
        if backs:
            x = _backs(c, x + GROUP_GAP, y + POND.height, backs, s, role="kept_hidden", count_role="kept_count")
        if seat.waits:
            room = x1 - SEAT_PAD - x - GROUP_GAP
            size = _waits_size(seat, room, lb)
            wx = max(x + GROUP_GAP, x1 - SEAT_PAD - _waits_width(len(seat.waits), size, SEAT_BADGE_SIZE, lb))
            _waits_block(
                c, wx, y + POND.height - size.height, seat.waits, size, s, None, SEAT_BADGE_SIZE, lb, prefix="seat_"
            )
        y += POND.height + 8
    inner = x1 - x0 - 2 * SEAT_PAD
    rows = pond_rows(seat, inner, POND)
    c.rect((x0 + SEAT_PAD - 4, y - 4, x1 - SEAT_PAD + 4, y + pond_height(rows, POND) + 4), POND_BG, radius=6,
           role="pond_area", seat=s)  # fmt: skip
    draw_pond(c, view, seat, x0 + SEAT_PAD, y, inner, POND)
    return top + height


def draw_table(c: Canvas, view: SeatView, names: Sequence[str], lb: Labels) -> int:
    """The table part of the hand picture, from the top: a panel per other seat (turn order from
    the next seat, :func:`_other_seat`, each labelled 下家 / 对家 / 上家), then the player's own
    strip: his 庄 disc if he deals and his name, then his pond, small.  Only ``view.public`` is drawn
    for the other seats: never a tile they hold hidden.  Returns its bottom."""
    active = _active(view.public)
    top = MARGIN
    for seat in _others(view):
        name, relative = _name(names, seat.seat, lb), relative_label(view, seat.seat, lb)
        top = _other_seat(c, view.public, seat, name, relative, top, seat.seat in active, lb)
        top += SECTION_GAP
    me = view.public.seats[view.seat]
    label = _own_label_width(view, names, lb)
    inner = c.width - 2 * MARGIN - 2 * SEAT_PAD - label
    h = _own_pond_height(view, c.width - 2 * MARGIN - label)
    c.rect((MARGIN, top, c.width - MARGIN, top + h), POND_BG, radius=6, role="own_pond_area", seat=view.seat)
    x, cy = MARGIN + SEAT_PAD, top + min(h, OWN_POND.height + 12) // 2
    if view.seat == view.public.dealer:
        x = _dealer_badge(c, x, cy, DEALER_R, view.seat, lb) + 8
    own = _name(names, view.seat, lb)
    c.text(x, cy, own, SEAT_NAME_SIZE, TEXT, max_width=OWN_NAME_MAX, role="own_name", seat=view.seat, raw=True)
    draw_pond(c, view.public, me, MARGIN + SEAT_PAD + label, top + 6, inner, OWN_POND)
    return top + h + SECTION_GAP


# -- the player's own tiles ----------------------------------------------------------------------------


def hand_canvas(
    view: SeatView,
    lang: str = "zh_CN",
    protected: Collection[Tile] = (),
    game: str = Ruleset.KAWUXING,
    names: Sequence[str] = (),
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
    table_h = table_height(view, width, names, lb)
    row_top = table_h + stack
    label_y = row_top + h + 4
    footer_top = label_y + LABEL_SIZE + 16
    small = TileSize.TABLE
    height = footer_top + small.height + LABEL_SIZE + 6 + MARGIN
    c = Canvas(width, height, FELT)
    seat = view.seat
    draw_table(c, view, names, lb)

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
    held = {*view.concealed, view.drawn}
    if protect & held:
        right = _legend(c, right, cy, lb.protected, DANGER_LABEL, "protected_legend") - 18
    if game == Ruleset.KAWUXING and (danger - protect) & set(view.concealed):  # red-edged tiles
        _legend(c, right, cy, lb.danger, DANGER_LABEL, "danger_legend")
    return c
