"""The private hand picture: the table as the player may see it, then his own tiles (docs/architecture.md §3;
see :func:`render.render_hand`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from engine.rules import Ruleset
from engine.tiles import Tile
from engine.views import MeldView, PublicSeatView, SeatView

from .art import RGB, TileSize, TileState
from .blocks import (
    DANGER_LABEL,
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
    TEXT,
    TEXT_SIZE,
    TILE_GAP,
    WIDTH,
    active_seats,
    badge_item,
    dealer_item,
    draw_meld,
    fit_size,
    flat_meld_width,
    seat_name,
    text_item,
    tile_item,
    unseen_counts,
    waits_items,
)
from .canvas import Canvas
from .flow import Item, draw_flow, flow, lines_of
from .labels import ENGLISH, Labels, PictureWords
from .phone import MAX_RATIO
from .table import POND_GAP, SeatStyle, discard_state, draw_seat_panel, seat_items, seat_panel_height
from .text import text_width

# -- the private hand ----------------------------------------------------------------------------------

LABEL_MARGIN = 6
"""Pixels of a hand tile's width a label leaves free (with the gap between tiles, 8 px between labels)."""
LABEL_LINE = 29
"""Height of a line of tile labels."""


def _hand_label_size(lb: Labels, size: TileSize = HAND) -> int:
    """Font size of the tile labels under hand tiles: :data:`TEXT_SIZE`, down to the smallest text
    (:data:`SMALL_TEXT`) if the language's longest label would not fit a tile's width less
    :data:`LABEL_MARGIN`; labels still too wide are set on two staggered lines (:func:`_label_lines`)."""
    return fit_size(lb.tiles, TEXT_SIZE, size.width - LABEL_MARGIN)


def _label_lines(labels: Sequence[str], size: TileSize, font_size: int) -> int:
    """Lines the labels of one row of hand tiles take: 1 when each fits its tile less
    :data:`LABEL_MARGIN`, else 2 (every other label one line lower, so neighbours never touch:
    English ``9 Crak``, ``Green``)."""
    if not labels:
        return 0
    return 1 if all(text_width(t, font_size) <= size.width - LABEL_MARGIN for t in labels) else 2


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


def _bar(c: Canvas, x: int, row_top: int, size: TileSize, colour: RGB, role: str, seat: int) -> None:
    """The mark on the top edge of the hand tile whose left edge is ``x`` (half over the tile, so
    it takes no room: a picture keeps its size when marks come and go)."""
    c.rect(
        (x + 4, row_top - BAR // 2 - 1, x + size.width - 4, row_top + BAR // 2 - 1),
        colour,
        radius=2,
        role=role,
        seat=seat,
    )


# -- the table above the hand: the other seats, then the player's own pond ----------------------------

SECTION_GAP = 3
"""Pixels between two seats' panels, and between the table part and the hand."""

HAND_LAYOUTS = (
    (HAND, SeatStyle(TileSize.POND, header_alone=False, hand=True)),
    (HAND, SeatStyle(TileSize.SMALL, header_alone=False, hand=True)),
    (HAND, SeatStyle(TileSize.SMALL, header_alone=False, pond_newline=False, hand=True)),
    (TileSize.HAND_MIN, SeatStyle(TileSize.SMALL, header_alone=False, pond_newline=False, hand=True)),
    (TileSize.HAND_MIN, SeatStyle(TileSize.SMALL, header_alone=False, pond_newline=False, hand=True, own_name=False)),
)
"""The hand picture's layouts, most generous first: the player's own tile size and how the other
seats' panels flow (the last without the player's own name: only his 庄 disc before his pond).  The
first that keeps the picture within :data:`render.phone.MAX_RATIO` is drawn (the last in any case)."""


def relative_word(view: SeatView, seat: int) -> str:
    """Which of the pictures' words names where ``seat`` sits from the player of ``view`` (docs/glossary.md):
    the :class:`~render.labels.Labels` field ``"next_seat"``, ``"across"`` or ``"previous"``, ``""``
    for his own seat.  Play passes to ``seat + 1`` (docs/rules.md §A2.3), so the next seat is 下家 (he
    plays after the player), the one before is 上家 (whose discards come to the player first) and,
    at four seats, the one between them is 对家 (across); at two seats the only other seat is across.
    The Mini App's page is given these per seat (docs/webapp.md §1) and draws them as the picture does."""
    n = len(view.public.seats)
    step = (seat - view.seat) % n
    if step == 0:
        return ""
    if n == 2 or 1 < step < n - 1:
        return "across"
    return "next_seat" if step == 1 else "previous"


def relative_label(view: SeatView, seat: int, lb: Labels) -> str:
    """Where ``seat`` sits from the player of ``view``, as players say it: the word of
    :func:`relative_word` in ``lb`` (下家 / 对家 / 上家; ``""`` for his own seat)."""
    word = relative_word(view, seat)
    return str(getattr(lb, word)) if word else ""


def _others(view: SeatView) -> list[PublicSeatView]:
    """The other seats in turn order from the player's right (docs/rules.md §A2.3: play passes to
    ``seat + 1``), so the first panel is the seat that plays next."""
    seats = view.public.seats
    return [seats[(view.seat + i) % len(seats)] for i in range(1, len(seats))]


OWN_NAME_MAX = 150
"""Widest the player's own name may be drawn before his pond (longer names end in ``…``)."""


def _own_pond_items(
    c: Canvas, view: SeatView, names: Sequence[str], style: SeatStyle, lb: Labels, notes: Sequence[Item] = ()
) -> list[Item]:
    """The player's own strip: his 庄 disc if he deals and his name, his pond, then ``notes``
    (:class:`Notes` placed there: the wall count, maybe the legends)."""
    me = view.public.seats[view.seat]
    items = [dealer_item(c, view.seat, lb, style.line, gap=0)] if view.seat == view.public.dealer else []
    if style.own_name:
        own = seat_name(names, view.seat, lb)
        gap = 8 if items else 0
        items.append(
            text_item(
                c,
                own,
                NAME_SIZE,
                TEXT,
                style.line,
                role="own_name",
                seat=view.seat,
                raw=True,
                max_width=OWN_NAME_MAX,
                gap=gap,
            )
        )
    for i, d in enumerate(me.discards):
        state, role = discard_state(view.public, me, i)
        gap = GROUP_GAP if i == 0 and items else POND_GAP
        items.append(
            tile_item(
                c, d.tile, style.size, style.line, role=role, seat=view.seat, state=state, rotated=d.liangdao, gap=gap
            )
        )
    return items + list(notes)


@dataclass(frozen=True, slots=True)
class Notes:
    """What the hand picture says besides the tiles: the ``亮倒`` badge once declared, the legends of
    the marks drawn (shown tiles, protected tiles, tiles a 亮倒 opponent waits on), the wall count.
    They stand after the player's own pond when they need no line of their own there
    (:meth:`placement`), else in the footer under his tiles."""

    view: SeatView
    lb: Labels
    game: str
    me: PublicSeatView | None
    shown: tuple[bool, ...]
    protect: frozenset[Tile]
    danger: frozenset[Tile]

    def items(self, c: Canvas, line: int, *, legends: bool, wall: bool) -> list[Item]:
        """The badge and legends (``legends``) and the wall count (``wall``) on lines ``line`` high."""
        view, lb, seat = self.view, self.lb, self.view.seat
        items: list[Item] = []
        if legends:
            if self.me is not None and self.me.liangdao:
                items.append(badge_item(c, lb.liangdao, GOLD, DARK, line, role="liangdao", seat=seat, gap=18))
            if any(self.shown):
                items.append(_legend_item(c, lb.shown, GOLD, "shown_legend", line))
            if self.protect & {*view.concealed, view.drawn}:
                items.append(_legend_item(c, lb.protected, DANGER_LABEL, "protected_legend", line))
            if (self.danger - self.protect) & set(view.concealed):
                items.append(_legend_item(c, lb.danger, DANGER_LABEL, "danger_legend", line))  # red-edged tiles
        if wall:
            text = lb.wall.format(n=view.public.wall_remaining)
            items.append(text_item(c, text, TEXT_SIZE, MUTED, line, role="wall", gap=18))
        return items

    def placement(self, names: Sequence[str], style: SeatStyle) -> tuple[bool, bool]:
        """Which notes stand after the player's own pond at ``style``: (legends, wall) -- all of
        them when they need no line of their own there, else the wall count alone if it needs none."""
        scratch = Canvas(1, 1, FELT)
        inner = WIDTH - 2 * MARGIN - 2 * PAD

        def lines(notes: list[Item]) -> int:
            return lines_of(flow(_own_pond_items(scratch, self.view, names, style, self.lb, notes), 0, inner))

        base = max(1, lines([]))
        for legends in (True, False):
            if lines(self.items(scratch, style.line, legends=legends, wall=True)) <= base:
                return legends, True
        return False, False


def table_height(view: SeatView, names: Sequence[str], style: SeatStyle, lb: Labels, notes: Notes) -> int:
    """Height of the table part of a hand picture (see :func:`draw_table`) at ``style``."""
    inner = WIDTH - 2 * MARGIN - 2 * PAD
    scratch = Canvas(1, 1, FELT)
    total = MARGIN
    for seat in _others(view):
        items = seat_items(
            scratch, view.public, seat, seat_name(names, seat.seat, lb), lb, style, inner,
            relative=relative_label(view, seat.seat, lb),
        )  # fmt: skip
        total += seat_panel_height(items, inner, style) + SECTION_GAP
    legends, wall = notes.placement(names, style)
    strip = notes.items(scratch, style.line, legends=legends, wall=wall)
    own = lines_of(flow(_own_pond_items(scratch, view, names, style, lb, strip), 0, inner))
    return total + 2 * PAD + max(1, own) * style.line - ROW_GAP + SECTION_GAP


def draw_table(c: Canvas, view: SeatView, names: Sequence[str], lb: Labels, style: SeatStyle, notes: Notes) -> int:
    """The table part of the hand picture, from the top: a panel per other seat (turn order from
    the next seat, :func:`render.table.seat_items`), then the player's own strip (his name, his
    pond and the notes that fit there, :meth:`Notes.placement`).  Only
    ``view.public`` is drawn for the other seats: never a tile they hold hidden.  Returns its bottom."""
    active = active_seats(view.public)
    inner = WIDTH - 2 * MARGIN - 2 * PAD
    top = MARGIN
    for seat in _others(view):
        s = seat.seat
        items = seat_items(
            c, view.public, seat, seat_name(names, s, lb), lb, style, inner, active=s in active,
            relative=relative_label(view, s, lb),
        )  # fmt: skip
        top = draw_seat_panel(c, items, MARGIN, WIDTH - MARGIN, top, style, s, s in active) + SECTION_GAP
    legends, wall = notes.placement(names, style)
    items = _own_pond_items(c, view, names, style, lb, notes.items(c, style.line, legends=legends, wall=wall))
    places = flow(items, MARGIN + PAD, WIDTH - MARGIN - PAD)
    h = 2 * PAD + max(1, lines_of(places)) * style.line - ROW_GAP
    c.rect((MARGIN, top, WIDTH - MARGIN, top + h), POND_BG, radius=6, role="own_pond_area", seat=view.seat)
    draw_flow(items, places, top + PAD, style.line)
    return top + h + SECTION_GAP


# -- the player's own tiles ----------------------------------------------------------------------------

Unit = tuple[MeldView | None, Tile | None, bool]
"""One thing in the player's row: a meld, or a concealed tile (``True``: the drawn tile)."""


def _unit_width(unit: Unit, size: TileSize) -> int:
    meld, _, _ = unit
    return flat_meld_width(meld, size) if meld is not None else size.width


def _gap(prev: Unit, unit: Unit) -> int:
    """Pixels between two neighbours in the player's row: a group gap beside a meld and before the drawn tile."""
    return GROUP_GAP if prev[0] is not None or unit[0] is not None or unit[2] else TILE_GAP


def _fill(units: Sequence[Unit], size: TileSize, limit: int) -> list[list[Unit]]:
    """``units`` in rows of at most ``limit`` pixels, left to right (a unit wider than ``limit`` alone)."""
    rows: list[list[Unit]] = [[]]
    x = 0
    for u in units:
        w = _unit_width(u, size)
        if rows[-1] and x + _gap(rows[-1][-1], u) + w > limit:
            rows.append([])
            x = 0
        x += (_gap(rows[-1][-1], u) if rows[-1] else 0) + w
        rows[-1].append(u)
    return rows


def _even(units: Sequence[Unit], size: TileSize, inner: int) -> list[list[Unit]]:
    """As few rows of at most ``inner`` pixels as ``units`` need, about equally long."""
    rows = _fill(units, size, inner)
    total = sum(_unit_width(u, size) + TILE_GAP for u in units)
    widest = max((_unit_width(u, size) for u in units), default=0)
    even = _fill(units, size, max(total // len(rows) + size.width + GROUP_GAP, widest))
    return even if len(even) == len(rows) else rows


def own_rows(view: SeatView, size: TileSize, inner: int) -> list[list[Unit]]:
    """The player's tiles in rows of at most ``inner`` pixels, as few rows as they need and about
    equally long: the melds (on a row of their own when that costs no row), the concealed tiles
    sorted, the drawn tile apart at the end; a meld is never split."""
    melds: list[Unit] = [(m, None, False) for m in view.melds]
    tiles: list[Unit] = [(None, t, False) for t in view.concealed]
    if view.drawn is not None:
        tiles.append((None, view.drawn, True))
    best = _even(melds + tiles, size, inner)
    if melds and tiles:
        apart = _fill(melds, size, inner) + _even(tiles, size, inner)
        if len(apart) <= len(best):
            return apart
    return best


def hand_canvas(
    view: SeatView,
    words: PictureWords = ENGLISH,
    protected: Collection[Tile] = (),
    game: str = Ruleset.KAWUXING,
    names: Sequence[str] = (),
) -> Canvas:
    """The private hand picture of ``view.seat`` in ``words`` (see :func:`render.render_hand`)."""
    lb = words.labels(game)
    seat = view.seat
    inner = WIDTH - 2 * MARGIN
    danger = set(view.danger)  # the engine's: render never recomputes a rule (docs/architecture.md §3)
    me = view.public.seats[seat] if seat < len(view.public.seats) else None
    partial = me is not None and me.liangdao and me.hidden_count > 0
    shown = shown_marks(view.concealed, me.revealed) if partial and me is not None else [False] * len(view.concealed)
    protect = set(protected)
    notes = Notes(view, lb, game, me, tuple(shown), frozenset(protect), frozenset(danger))
    scratch = Canvas(1, 1, FELT)
    for size, style in HAND_LAYOUTS:
        rows = own_rows(view, size, inner)
        label_size = _hand_label_size(lb, size)
        row_heights = []
        for row in rows:
            labels = [lb.tile(t) for m, t, _ in row if m is None and t is not None]
            row_heights.append(size.height + 2 + _label_lines(labels, size, label_size) * LABEL_LINE)
        legends, wall = notes.placement(names, style)
        footer = _footer(scratch, view, lb, me, notes, not legends, not wall)
        footer_h = sum(lines_of(flow(items, MARGIN, WIDTH - MARGIN)) * line for items, line in footer)
        table_h = table_height(view, names, style, lb, notes)
        height = table_h + sum(row_heights) + 4 + footer_h + MARGIN
        if height <= MAX_RATIO * WIDTH:
            break
    c = Canvas(WIDTH, height, FELT, own_seat=seat)
    top = draw_table(c, view, names, lb, style, notes)
    k = 0
    for row, row_h in zip(rows, row_heights, strict=True):
        _draw_row(c, view, row, top, size, label_size, k, shown, protect, danger, lb)
        top += row_h
        k += sum(1 for m, t, drawn in row if m is None and not drawn)
    top += 4
    for items, line in _footer(c, view, lb, me, notes, not legends, not wall):
        places = flow(items, MARGIN, WIDTH - MARGIN)
        draw_flow(items, places, top, line)
        top += lines_of(places) * line
    return c


def _draw_row(
    c: Canvas,
    view: SeatView,
    row: Sequence[Unit],
    row_top: int,
    size: TileSize,
    label_size: int,
    first: int,
    shown: Sequence[bool],
    protect: set[Tile],
    danger: set[Tile],
    lb: Labels,
) -> None:
    """One row of the player's tiles from ``row_top``, labels under the concealed and drawn tiles;
    ``first``: the index in ``view.concealed`` of the row's first concealed tile."""
    seat = view.seat
    labels = [lb.tile(t) for m, t, _ in row if m is None and t is not None]
    two = _label_lines(labels, size, label_size) == 2
    label_y = row_top + size.height + 2
    x = MARGIN
    k = first
    prev: Unit | None = None
    n = 0
    for unit in row:
        meld, t, drawn = unit
        if prev is not None:
            x += GROUP_GAP if prev[0] is not None or meld is not None or drawn else TILE_GAP
        prev = unit
        if meld is not None:
            x = draw_meld(c, x, row_top, meld, size, seat, flat=True)
            continue
        assert t is not None
        y = label_y + (LABEL_LINE if two and n % 2 else 0)
        n += 1
        if drawn:
            c.tile(x, row_top, t, size, TileState.HIGHLIGHT, role="drawn", seat=seat)
            _label(c, x + size.width // 2, y, lb.tile(t), label_size, GOLD, seat)
            if t in protect:  # the drawn tile stays gold (just drawn); the red bar says it is protected
                _bar(c, x, row_top, size, DANGER_LABEL, "protected_mark", seat)
            x += size.width
            continue
        warn = t in danger or t in protect
        c.tile(x, row_top, t, size, TileState.DANGER if warn else TileState.NORMAL, role="hand", seat=seat)
        _label(c, x + size.width // 2, y, lb.tile(t), label_size, DANGER_LABEL if warn else TEXT, seat)
        for flag, colour, role in ((shown[k], GOLD, "shown_mark"), (t in protect, DANGER_LABEL, "protected_mark")):
            if flag:
                _bar(c, x, row_top, size, colour, role, seat)
        x += size.width
        k += 1


def _label(c: Canvas, cx: int, y: int, text: str, size: int, colour: RGB, seat: int) -> None:
    """A tile's label centred under it at ``cx`` (top ``y``), kept inside the picture's margins."""
    half = text_width(text, size) // 2
    cx = min(max(cx, MARGIN // 2 + half), c.width - MARGIN // 2 - half)
    c.text(cx, y, text, size, colour, anchor="mt", role="label", seat=seat)


FOOTER_LINE = TileSize.SMALL.height + ROW_GAP
"""Height of a line of the footer with the waits (tiles, badges, legends)."""
TEXT_LINE = 36
"""Height of a line of the footer without tiles (badges, legends)."""


def _waits(view: SeatView, me: PublicSeatView | None) -> tuple[Tile, ...]:
    """The waits the footer shows: a 亮倒 / 廊起 seat's published ones (the shown shape fixes them,
    docs/rules.md §E#48), else the seat's own."""
    return me.waits if me is not None and me.liangdao and me.waits else view.waits


def _legend_item(c: Canvas, text: str, colour: RGB, role: str, line: int) -> Item:
    """A legend on a footer line ``line`` high: a bar in ``colour`` then ``text``."""

    def draw(x: int, top: int) -> None:
        cy = top + line // 2
        c.rect((x, cy - BAR // 2, x + 24, cy - BAR // 2 + BAR), colour, radius=2, role=role + "_bar")
        c.text(x + 32, cy, text, TEXT_SIZE, colour, role=role)

    return Item(32 + text_width(text, TEXT_SIZE), draw, 18)


def _footer(
    c: Canvas, view: SeatView, lb: Labels, me: PublicSeatView | None, notes: Notes, legends: bool, wall: bool
) -> list[tuple[list[Item], int]]:
    """Under the hand, as flows and their line heights: ``听`` and the waits with the copies not yet
    seen (:func:`_waits`), then the notes not placed after the player's own pond (``legends``: the
    亮倒 badge and the legends; ``wall``: the wall count; :class:`Notes`).  One line when it all
    fits, else the waits on lines of tiles and the rest on lines of text."""
    waits = _waits(view, me)

    def part(line: int, with_waits: bool, with_rest: bool) -> list[Item]:
        items: list[Item] = []
        if waits and with_waits:
            unseen = unseen_counts(view.public, view)
            items += waits_items(c, waits, TileSize.SMALL, line, view.seat, lb, unseen=unseen, gap=0)
        if with_rest:
            items += notes.items(c, line, legends=legends, wall=wall)
        return items

    line = FOOTER_LINE if waits else TEXT_LINE
    if lines_of(flow(part(line, True, True), MARGIN, WIDTH - MARGIN)) <= 1:
        return [(part(line, True, True), line)]
    parts = [(part(FOOTER_LINE, True, False), FOOTER_LINE), (part(TEXT_LINE, False, True), TEXT_LINE)]
    return [(items, h) for items, h in parts if items]
