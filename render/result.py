"""The hand result picture (docs/architecture.md §3; see :func:`render.render_result`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine.rules import Ruleset
from engine.tiles import Tile
from engine.views import HandResultView, MeldView, PublicSeatView, PublicView, WinView

from . import labels as L
from .art import TileSize, TileState
from .blocks import (
    BADGE_RED,
    DARK,
    FELT,
    GAIN,
    GOLD,
    GROUP_GAP,
    HAND,
    LOSS,
    MARGIN,
    MAX_SLOTS,
    MUTED,
    PANEL,
    TABLE,
    TEXT,
    TILE_GAP,
    _badge,
    _dealer_badge,
    _meld,
    _name,
    _stack,
    _tile_row,
    _waits_block,
    _waits_width,
)
from .canvas import Canvas
from .endings import result_title, transfers, why_lines
from .labels import Labels
from .text import fit, text_width

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


HandTiles = tuple[tuple[Tile, ...], tuple[MeldView, ...]]
"""One seat's whole hand at the end of a hand: its concealed tiles and its melds (every tile face
up, 暗杠 included)."""


def _short(names: Sequence[str], seat: int, lb: Labels) -> str:
    """A seat's name cut to fit a chip (200 px)."""
    return fit(_name(names, seat, lb), CHIP_SIZE, 200)


def _langqi_seats(view: PublicView) -> list[PublicSeatView]:
    """The 亮倒 / 廊起 seats a 荒庄, 查叫 or 关死 result shows in blocks of their own."""
    return [s for s in view.seats if s.liangdao and (s.revealed or s.hidden_count)]


def _draw_liangdao_seat(
    c: Canvas, top: int, ps: PublicSeatView, names: Sequence[str], lb: Labels, hand: HandTiles | None = None
) -> None:
    """A 亮倒 / 廊起 seat's block: name, badge and waits, then its hand as it was shown -- after a
    partial reveal the shown tiles with a gold bar over each, then the tiles kept hidden: face up
    after a gap when its whole hand is known (``hand``, the hand being over), else face down with
    their count -- and its melds."""
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
    row_top = top + 44 + _langqi_stack(ps)
    x = _tile_row(c, MARGIN, row_top, ps.revealed, TABLE, s, role="revealed")
    if ps.hidden_count:
        step = TABLE.width + TILE_GAP
        for i in range(len(ps.revealed)):
            c.rect(
                (MARGIN + i * step + 4, row_top - 10, MARGIN + i * step + TABLE.width - 4, row_top - 5),
                GOLD,
                role="shown_mark",
                seat=s,
            )
        kept: list[Tile | None]
        if hand is not None:
            left = Counter(ps.revealed)
            kept = []
            for t in hand[0]:
                if left[t]:
                    left[t] -= 1
                else:
                    kept.append(t)
        else:
            kept = [None] * max(ps.hidden_count, ps.concealed_count - len(ps.revealed))
        x = _tile_row(c, x + GROUP_GAP, row_top, kept, TABLE, s, role="kept_hidden")
        if hand is None:
            x = c.text(x + 4, row_top + TABLE.height // 2, str(len(kept)), 16, MUTED, role="kept_count", seat=s)[2]
    for meld in ps.melds:
        x = _meld(c, x + GROUP_GAP, row_top, meld, TABLE, s)


def _langqi_stack(ps: PublicSeatView) -> int:
    """Room above a 亮倒 / 廊起 block's tile row: a kong's 4th tile, or the bars over shown tiles."""
    stack = _stack(TABLE) if any(m.kind.is_kong for m in ps.melds) else 0
    return max(stack, 12 if ps.hidden_count else 0)


def _liangdao_height(ps: PublicSeatView) -> int:
    return 44 + _langqi_stack(ps) + TABLE.height + 12


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
        done = {s.seat for s in _langqi_seats(view)}
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


WHY_ROW = 30
WHY_SIZE = 20

PAY_ROW = 38
PAY_SIZE = 22


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
    view: PublicView,
    names: Sequence[str],
    lang: str = "zh_CN",
    hands: Sequence[HandTiles] | None = None,
    game: str = Ruleset.KAWUXING,
) -> Canvas:
    """The hand result picture in ``lang`` (see :func:`render.render_result`)."""
    lb = L.labels_for(lang, game)
    result = view.result
    if result is None:
        raise ValueError("the view has no result: the hand is not over")
    width = RESULT_WIDTH
    inner = width - 2 * MARGIN
    head = 60
    draw = result.outcome != "win"
    liangdao_seats = _langqi_seats(view) if draw else []
    why = why_lines(result, _name(names, result.guansi, lb) if result.guansi is not None else "", lb)
    paid = transfers(result)
    paid_texts = [
        lb.transfer.format(
            payer=fit(_name(names, p, lb), CHIP_SIZE, 200), payee=fit(_name(names, q, lb), CHIP_SIZE, 200), n=v
        )
        for p, q, v in paid
    ]
    paid_flow = _flow([_chip_width(t) for t in paid_texts], inner)
    why_h = len(why) * WHY_ROW + ((paid_flow[-1][1] + 1) * CHIP_ROW + 6 if paid_flow else 0)
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
    height = MARGIN + head + why_h + sum(b + 10 for b in blocks) + shown_total + pay_h + 34 + MARGIN
    c = Canvas(width, height, FELT)
    c.text(MARGIN, MARGIN + head // 2, result_title(result, lb), 36, GOLD, role="title")
    top = MARGIN + head
    for line in why:
        c.text(MARGIN, top + WHY_ROW // 2 - 4, line, WHY_SIZE, TEXT, max_width=inner, role="why")
        top += WHY_ROW
    for text, (dx, row) in zip(paid_texts, paid_flow, strict=True):
        cx, cy = MARGIN + dx, top + row * CHIP_ROW + CHIP_ROW // 2
        cw = _chip_width(text)
        c.rect((cx, cy - 15, cx + cw, cy + 15), None, outline=MUTED, width=2, radius=8, role="transfer")
        c.text(cx + cw // 2, cy, text, CHIP_SIZE, TEXT, anchor="mm", role="transfer_text", raw=True)
    if paid_flow:
        top += (paid_flow[-1][1] + 1) * CHIP_ROW + 6
    if draw:
        for ps, bh in zip(liangdao_seats, blocks, strict=True):
            _draw_liangdao_seat(c, top, ps, names, lb, hands[ps.seat] if hands is not None else None)
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
