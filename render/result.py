"""The hand result picture (docs/architecture.md §3; see :func:`render.render_result`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial

from PIL import ImageDraw

from engine.rules import Ruleset
from engine.tiles import Tile
from engine.views import HandResultView, MeldView, PublicSeatView, PublicView, WinView

from . import labels as L
from .art import RGB, TileSize, TileState
from .blocks import (
    BADGE_RED,
    DARK,
    DEALER_R,
    FELT,
    GOLD,
    GROUP_GAP,
    MARGIN,
    MUTED,
    NAME_SIZE,
    PAD,
    PANEL,
    ROW_GAP,
    TABLE,
    TEXT,
    TEXT_SIZE,
    TILE_GAP,
    TITLE_SIZE,
    WIDTH,
    backs_item,
    badge_item,
    badge_width,
    draw_badge,
    draw_dealer_badge,
    meld_item,
    points_colour,
    seat_name,
    text_item,
    tile_item,
    waits_items,
)
from .canvas import Canvas
from .endings import result_title, transfers, why_lines
from .flow import Item, draw_flow, flow, lines_of
from .labels import ENGLISH, Labels, PictureWords
from .phone import MAX_RATIO
from .text import fit, text_width, wrap

# -- the result -----------------------------------------------------------------------------------------------

RESULT_WIDTH = WIDTH
CHIP_SIZE = TEXT_SIZE
CHIP_H = 38
"""Height of a chip (a 番, a payer's multiplier, a payment)."""
CHIP_ROW = CHIP_H + 8
NAME_MIN = 110
"""Pixels a name keeps when the line it stands on is crowded."""
LINE = 44
"""Height of a line of text in the result picture."""
TALL = 4000
"""The result is drawn on a canvas this tall, then cut to what it used (one pass, no measuring)."""


def _chip_width(text: str) -> int:
    return text_width(text, CHIP_SIZE) + 2 * 12


def chip_item(
    c: Canvas, text: str, outline: RGB, fg: RGB, *, role: str, seat: int | None = None, raw: bool = False
) -> Item:
    """A rounded chip with ``text`` on a flow line :data:`CHIP_ROW` high."""

    def draw(x: int, top: int) -> None:
        cy = top + CHIP_ROW // 2
        w = _chip_width(text)
        c.rect(
            (x, cy - CHIP_H // 2, x + w, cy + CHIP_H // 2),
            None,
            outline=outline,
            width=2,
            radius=10,
            role=role,
            seat=seat,
        )
        c.text(x + w // 2, cy, text, CHIP_SIZE, fg, anchor="mm", role=role + "_text", seat=seat, raw=raw)

    return Item(_chip_width(text), draw, 8)


def _flowed(
    c: Canvas, items: Sequence[Item], top: int, line: int, left: int = MARGIN, right: int = WIDTH - MARGIN
) -> int:
    """Draw ``items`` flowing from ``top``; returns the bottom."""
    places = flow(items, left, right)
    draw_flow(items, places, top, line)
    return top + lines_of(places) * line


def _payers_text(win: WinView, names: Sequence[str], lb: Labels) -> list[str]:
    return [
        lb.pays.format(name=fit(seat_name(names, p, lb), CHIP_SIZE, 240), times=L.TIMES, m=m)
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
    """The 番 chips' texts; the 亮倒 chip names whose 亮倒 it is (:attr:`render.labels.Labels.liangdao_of`)."""
    whose = liangdao_seats(win, view)
    out = []
    for f in win.fans:
        if f == "亮倒" and whose:
            who = lb.list_sep.join(fit(seat_name(names, s, lb), CHIP_SIZE, 200) for s in whose)
            out.append(lb.liangdao_of.format(name=who))
        else:
            out.append(lb.fan(f))
    return out


def _multiplier_items(win: WinView, names: Sequence[str], lb: Labels) -> list[str]:
    """The multiplier row: its label, then one chip per payer."""
    return [lb.multiplier_label, *_payers_text(win, names, lb)]


def _hand_size(units: int, slots: int, inner: int) -> TileSize:
    """The largest tile size at which ``slots`` tiles in ``units`` groups fit one line of ``inner``
    pixels; the smallest otherwise (the hand then wraps)."""
    for size in (TABLE, TileSize.POND, TileSize.SMALL):
        if slots * (size.width + TILE_GAP) + units * GROUP_GAP <= inner:
            return size
    return TileSize.SMALL


def _draw_winner(c: Canvas, top: int, win: WinView, view: PublicView, names: Sequence[str], lb: Labels) -> int:
    """A winner's block from ``top``: name, how he won, who dealt in, 包胡; the winning hand (melds
    flat, concealed tiles, the winning tile apart); the 番 chips; the multipliers.  Returns its bottom."""
    s = win.seat
    inner = WIDTH - 2 * MARGIN - 2 * PAD
    left, right = MARGIN + PAD, WIDTH - MARGIN - PAD
    by = lb.by_label.get(win.by, win.by)
    room = inner - badge_width(by) - 12 - (badge_width(lb.baohu) + 12 if win.baohu else 0)
    who, own_line = "", False
    if win.from_seat is not None:  # who dealt in: on the name line when both names keep NAME_MIN
        template = lb.robbed if win.by == "rob_kong" else lb.from_
        blank = text_width(template.format(name=""), TEXT_SIZE) + 12
        half = (room - blank) // 2
        full = template.format(name=seat_name(names, win.from_seat, lb))
        fits = text_width(seat_name(names, s, lb), NAME_SIZE) + 12 + text_width(full, TEXT_SIZE) <= room
        own_line = not fits and half < NAME_MIN
        who = (
            full
            if fits
            else template.format(
                name=fit(seat_name(names, win.from_seat, lb), TEXT_SIZE, inner - blank if own_line else half)
            )
        )
        if not own_line:
            room -= text_width(who, TEXT_SIZE) + 12
    head = [
        text_item(
            c, seat_name(names, s, lb), NAME_SIZE, TEXT, LINE, role="winner_name", seat=s, raw=True, max_width=room
        )
    ]
    head.append(badge_item(c, by, GOLD, DARK, LINE, role="by", seat=s, gap=12))
    if who:
        item = text_item(c, who, TEXT_SIZE, MUTED, LINE, role="from", seat=s, gap=12, raw=True)
        head.append(replace(item, newline=own_line))
    if win.baohu:
        head.append(badge_item(c, lb.baohu, BADGE_RED, TEXT, LINE, role="baohu", seat=s, gap=12))
    slots = sum(m.kind.size for m in win.melds) + len(win.concealed) + 1
    size = _hand_size(len(win.melds) + 1, slots, inner)
    line = size.height + ROW_GAP
    tiles = [meld_item(c, m, size, line, s, role="meld", gap=GROUP_GAP) for m in win.melds]
    tiles += [
        tile_item(c, t, size, line, role="winner_hand", seat=s, gap=GROUP_GAP if i == 0 and tiles else TILE_GAP)
        for i, t in enumerate(win.concealed)
    ]
    tiles.append(
        tile_item(c, win.win_tile, size, line, role="win_tile", seat=s, state=TileState.HIGHLIGHT, gap=GROUP_GAP)
    )
    fans = [chip_item(c, t, GOLD, GOLD, role="fan", seat=s, raw=True) for t in _fan_texts(win, view, names, lb)]
    label, *payers = _multiplier_items(win, names, lb)
    pays = [text_item(c, label, TEXT_SIZE, MUTED, CHIP_ROW, role="multiplier_label", seat=s)]
    pays += [chip_item(c, t, MUTED, TEXT, role="multiplier", seat=s, raw=True) for t in payers]
    y = _flowed(c, head, top + 4, LINE, left, right)
    y = _flowed(c, tiles, y, line, left, right) + 4
    pays[0] = replace(pays[0], gap=16)
    return _flowed(c, fans + pays, y, CHIP_ROW, left, right) + 4


HandTiles = tuple[tuple[Tile, ...], tuple[MeldView, ...]]
"""One seat's whole hand at the end of a hand: its concealed tiles and its melds (every tile face
up, 暗杠 included)."""


def _langqi_seats(view: PublicView) -> list[PublicSeatView]:
    """The 亮倒 / 廊起 seats a 荒庄, 查叫 or 关死 result shows in blocks of their own."""
    return [s for s in view.seats if s.liangdao and (s.revealed or s.hidden_count)]


def _draw_liangdao_seat(
    c: Canvas, top: int, ps: PublicSeatView, names: Sequence[str], lb: Labels, hand: HandTiles | None = None
) -> int:
    """A 亮倒 / 廊起 seat's block from ``top``: name, badge and waits, then its hand as it was shown
    -- after a partial reveal the shown tiles with a gold bar over each, then the tiles kept hidden:
    face up after a gap when its whole hand is known (``hand``, the hand being over), else one
    face-down tile and their count -- and its melds.  Returns its bottom."""
    s = ps.seat
    left, right = MARGIN + PAD, WIDTH - MARGIN - PAD
    size = TileSize.POND
    head = [
        text_item(
            c,
            seat_name(names, s, lb),
            NAME_SIZE,
            TEXT,
            LINE,
            role="name",
            seat=s,
            raw=True,
            max_width=right - left - badge_width(lb.liangdao) - 12,
        )
    ]
    head.append(badge_item(c, lb.liangdao, GOLD, DARK, LINE, role="liangdao", seat=s, gap=12))
    if ps.waits:
        head += waits_items(c, ps.waits, size, LINE, s, lb)
    y = _flowed(c, head, top + 4, LINE, left, right)
    bar = BAR_ROOM if ps.hidden_count else 0
    line = size.height + ROW_GAP + bar

    def shown(t: Tile) -> Item:
        item = tile_item(c, t, size, line - bar, role="revealed", seat=s)

        def draw(x: int, top: int) -> None:
            item.draw(x, top + bar)
            if bar:
                c.rect((x + 4, top + 2, x + size.width - 4, top + 8), GOLD, role="shown_mark", seat=s)

        return Item(item.width, draw, item.gap)

    tiles = [shown(t) for t in ps.revealed]
    rest: list[Item] = []
    if ps.hidden_count and hand is not None:
        left_over = Counter(ps.revealed)
        kept = []
        for t in hand[0]:
            if left_over[t]:
                left_over[t] -= 1
            else:
                kept.append(t)
        rest += [
            tile_item(c, t, size, line - bar, role="kept_hidden", seat=s, gap=GROUP_GAP if i == 0 else TILE_GAP)
            for i, t in enumerate(kept)
        ]
    elif ps.hidden_count:
        n = max(ps.hidden_count, ps.concealed_count - len(ps.revealed))
        rest.append(backs_item(c, n, size, line - bar, s, role="kept_hidden", count_role="kept_count"))
    rest += [meld_item(c, m, size, line - bar, s, role="meld") for m in ps.melds]
    tiles += [_shifted(t, bar) for t in rest]
    return _flowed(c, tiles, y, line, left, right) + 4


BAR_ROOM = 11
"""Room above a line of shown tiles for the gold bars."""


def _shifted(item: Item, dy: int) -> Item:
    """``item`` drawn ``dy`` pixels lower on its line."""
    return replace(item, draw=lambda x, top: item.draw(x, top + dy)) if dy else item


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
        done = {s.seat for s in _langqi_seats(view)}
    return [s.seat for s in view.seats if s.seat not in done]


def _payer_badges(result: HandResultView, lb: Labels) -> dict[int, str]:
    """Badges on the payments table for the seats that lost the hand by a discard: 点炮 on the
    discarder of a discard win, 被抢杠 on the robbed seat of 抢杠胡 (never on a winner); 卡心五
    (docs/rules.md §B): 关死 on the 关死 seat, 被查叫 on every 被查叫 seat."""
    out: dict[int, str] = dict.fromkeys(result.chajiao, lb.chajiao_seat)
    if result.guansi is not None:
        out[result.guansi] = lb.guansi
    for w in result.winners:
        if w.from_seat is not None:
            out[w.from_seat] = lb.kong_robbed if w.by == "rob_kong" else lb.dealt_in
    return out


def _draw_payments(
    c: Canvas,
    top: int,
    view: PublicView,
    result: HandResultView,
    names: Sequence[str],
    lb: Labels,
    hands: Sequence[HandTiles] | None,
    shown: Sequence[int],
    name_min: int = NAME_MIN,
) -> int:
    """The payments table from ``top``: per seat the name (庄 disc on this hand's dealer), 胡牌,
    杠钱 and 合计; the seat's badge (点炮 / 被抢杠 on the seat that dealt in, 关死, 被查叫) after
    the name when the name keeps ``name_min`` pixels, else under it; for the seats in ``shown`` its
    hand face up under its row.  Returns its bottom."""
    badges = _payer_badges(result, lb)
    cols = (lb.hand_money, lb.kong_money, lb.total)
    values = (result.hand_deltas, result.kong_deltas, result.deltas)
    widths = [text_width(L.signed(v), NAME_SIZE) for vals in values for v in vals]
    step = max(100, *(text_width(t, TEXT_SIZE) + 20 for t in cols), *(w + 24 for w in widths))
    col_right = [WIDTH - MARGIN - PAD - i * step for i in (2, 1, 0)]
    left, right = MARGIN + PAD, WIDTH - MARGIN - PAD
    numbers = max((text_width(L.signed(v), NAME_SIZE) for v in result.hand_deltas), default=0)
    y = top + 4
    for text, xr in zip(cols, col_right, strict=True):
        c.text(xr, y + LINE // 2, text, TEXT_SIZE, MUTED, anchor="rm", role="pay_header")
    y += LINE
    size = TileSize.SMALL
    line = size.height + ROW_GAP
    for seat in range(len(view.seats)):
        cy = y + LINE // 2
        x = left
        if seat == view.dealer:
            draw_dealer_badge(c, x, cy, DEALER_R, seat, lb)
        x += 2 * DEALER_R + 8
        badge = badges.get(seat)
        # the name ends before the first column's widest number; the badge follows it when the name
        # keeps NAME_MIN beside it, else it stands under the name
        room = col_right[0] - numbers - 16 - x
        inline = badge is not None and room - badge_width(badge) - 10 >= name_min
        if badge is not None and inline:
            room -= badge_width(badge) + 10
        box = c.text(
            x, cy, seat_name(names, seat, lb), NAME_SIZE, TEXT, max_width=room, role="pay_name", seat=seat, raw=True
        )
        if badge is not None and inline:
            draw_badge(c, max(box[2], x) + 10, cy, badge, BADGE_RED, TEXT, TEXT_SIZE, role="dealt_in", seat=seat)
        for i, (vals, xr) in enumerate(zip(values, col_right, strict=True)):
            v = vals[seat] if seat < len(vals) else 0
            colour = points_colour(v, lb.lang)
            c.text(
                xr,
                cy,
                L.signed(v),
                NAME_SIZE,
                colour,
                anchor="rm",
                role="pay_" + ("hand", "kong", "total")[i],
                seat=seat,
            )
        y += LINE
        items: list[Item] = []
        if badge and not inline:
            items.append(badge_item(c, badge, BADGE_RED, TEXT, line, role="dealt_in", seat=seat, gap=0))
        if hands is not None and seat in shown:
            concealed, melds = hands[seat]
            items += [
                tile_item(
                    c, t, size, line, role="shown_hand", seat=seat, gap=GROUP_GAP if i == 0 and items else TILE_GAP
                )
                for i, t in enumerate(concealed)
            ]
            items += [
                meld_item(c, MeldView(m.kind, m.tile, m.source), size, line, seat, role="shown_meld") for m in melds
            ]
        if items:
            y = _flowed(c, items, y, line, left + 2 * DEALER_R + 8, right)
        y += 4
    return y + 4


def result_canvas(
    view: PublicView,
    names: Sequence[str],
    words: PictureWords = ENGLISH,
    hands: Sequence[HandTiles] | None = None,
    game: str = Ruleset.KAWUXING,
) -> Canvas:
    """The hand result picture in ``words`` (see :func:`render.render_result`): with the other
    seats' hands when given, unless the picture would then pass :data:`render.phone.MAX_RATIO`
    (four seats, two winners or two 廊起 seats): then without them, and if still too tall with the
    payments table's badges beside names cut shorter (:data:`PAY_NAME_MIN`)."""
    lb = words.labels(game)
    if view.result is None:
        raise ValueError("the view has no result: the hand is not over")
    shown = _shown_seats(view, hands)
    for seats, name_min in ((shown, NAME_MIN), ([], NAME_MIN), ([], PAY_NAME_MIN)):
        c = _result(view, view.result, names, lb, hands, seats, name_min)
        if c.height <= MAX_RATIO * c.width:
            break
    return c


PAY_NAME_MIN = 70
"""Pixels a name of the payments table keeps beside its badge in the most compact result."""


def _result(
    view: PublicView,
    result: HandResultView,
    names: Sequence[str],
    lb: Labels,
    hands: Sequence[HandTiles] | None,
    shown: Sequence[int],
    name_min: int,
) -> Canvas:
    """The result picture with the hands of the seats in ``shown`` in its payments table, whose
    names keep ``name_min`` pixels beside a badge (:func:`_draw_payments`)."""
    inner = WIDTH - 2 * MARGIN
    draw = result.outcome != "win"
    blocks: list[tuple[Callable[[Canvas, int], int], str, int]] = []
    if draw:
        for ps in _langqi_seats(view):
            hand = hands[ps.seat] if hands is not None else None
            blocks.append(
                (partial(_draw_liangdao_seat, ps=ps, names=names, lb=lb, hand=hand), "liangdao_panel", ps.seat)
            )
    else:
        for win in result.winners:
            blocks.append((partial(_draw_winner, win=win, view=view, names=names, lb=lb), "winner_panel", win.seat))
    scratch = Canvas(WIDTH, 1, FELT)
    heights = [fn(scratch, 0) for fn, _, _ in blocks]
    c = Canvas(WIDTH, TALL, FELT)
    c.text(MARGIN, MARGIN + 24, result_title(result, lb), TITLE_SIZE, GOLD, role="title")
    top = MARGIN + 50
    for line in why_lines(result, seat_name(names, result.guansi, lb) if result.guansi is not None else "", lb):
        for part in wrap(line, TEXT_SIZE, inner):
            c.text(MARGIN, top + 17, part, TEXT_SIZE, TEXT, role="why")
            top += 35
    paid = [chip_item(c, text, MUTED, TEXT, role="transfer", raw=True) for text in _transfer_texts(result, names, lb)]
    top = _flowed(c, paid, top, CHIP_ROW) + 8
    for (fn, role, seat), h in zip(blocks, heights, strict=True):
        c.rect((MARGIN, top, WIDTH - MARGIN, top + h), PANEL, radius=10, role=role, seat=seat)
        top = fn(c, top) + 10
    pay_h = _draw_payments(scratch, 0, view, result, names, lb, hands, shown, name_min)
    c.rect((MARGIN, top, WIDTH - MARGIN, top + pay_h), PANEL, radius=10, role="payments")
    top = _draw_payments(c, top, view, result, names, lb, hands, shown, name_min)
    text = f"{lb.next_dealer}{lb.colon}{seat_name(names, result.next_dealer, lb)}"
    c.text(MARGIN, top + 24, text, TEXT_SIZE, MUTED, max_width=inner, role="next_dealer", raw=True)
    height = top + 46 + MARGIN
    c.image = c.image.crop((0, 0, WIDTH, height))
    c.draw = ImageDraw.Draw(c.image)
    return c


def _transfer_texts(result: HandResultView, names: Sequence[str], lb: Labels) -> list[str]:
    """One chip per payer of a 关死 or 查叫 (:func:`render.endings.transfers`): ``X pays Y: 4, Z: 4``
    (the colon keeps an amount apart from a name ending in a digit, ``电脑2``)."""
    sep = lb.list_sep
    out: list[str] = []
    payer = None
    for p, q, v in transfers(result):
        payee = fit(seat_name(names, q, lb), CHIP_SIZE, 150)
        if p == payer:
            out[-1] += sep + lb.transfer_more.format(payee=payee, n=v)
        else:
            out.append(lb.transfer.format(payer=fit(seat_name(names, p, lb), CHIP_SIZE, 150), payee=payee, n=v))
            payer = p
    return out
