"""The ``/stats`` picture: a group's or a player's record, laid out for a phone (docs/architecture.md §3).

Values in, image out: :func:`render_stats` draws a :class:`StatsSheet` — what the bot read from the
ledger and aggregated (``kwx_bot.service.stats``) — and never reads anything else.  The numbers a
player follows (docs/architecture.md §5 "Ledger"): hands, win rate and the share of wins by
self-draw (自摸), deal-in rate (点炮), how often a 亮倒 / 廊起 was declared and how often it was then
won, average points per hand, the largest hand (the uncapped multiplier, as ``/score`` names it) and
the most frequent 番, above a chart of each player's running total over the hands.

The phone bar: Telegram shows a photo about 330 px wide on a phone; drawn :data:`WIDTH` = 660 px wide,
every text's ink is at least ``11 × 660 / 330 = 22`` px tall (:data:`MIN_TEXT_PX`; every label starts
with a capital, a digit or a hanzi: see :class:`render.labels.StatsLabels`), and the picture is at
most :data:`MAX_ASPECT` × its width tall.  So a group picture shows at most :data:`MAX_PLAYERS`
players (the sheet's first ones: the bot orders them as ``/score`` does) in columns beside the labels,
with a last line saying how many more there are; a value that does not exist (a win rate of no hands,
the self-draw share of no wins) is a short dash, not a number.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from PIL import Image

from engine.rules import Ruleset

from .art import RGB
from .blocks import FELT, MUTED, PANEL, TEXT, points_colour
from .canvas import Canvas, Placed
from .labels import ENGLISH, MINUS, PictureWords, StatsLabels, signed
from .text import ELLIPSIS, clean_name, fit, text_width

__all__ = [
    "MAX_ASPECT",
    "MAX_PLAYERS",
    "MIN_TEXT_PX",
    "PHONE_WIDTH",
    "PLAYER_COLOURS",
    "WIDTH",
    "PlayerStats",
    "StatsSheet",
    "percent",
    "render_stats",
    "signed_average",
    "stats_canvas",
]

PHONE_WIDTH = 330
"""How wide Telegram shows a photo on a phone, in screen pixels."""
WIDTH = 660
"""The picture's width in pixels (twice :data:`PHONE_WIDTH`: sharp on dense screens)."""
MIN_TEXT_PX = math.ceil(11 * WIDTH / PHONE_WIDTH)
"""The smallest ink height of any text, in the picture's pixels: 11 px when shown 330 px wide."""
MAX_ASPECT = 1.4
"""The picture is at most this many times as tall as it is wide."""
MAX_PLAYERS = 4
"""Players shown side by side at most (four columns of numbers fit 330 px at the text bar)."""

PLAYER_COLOURS: tuple[RGB, ...] = ((255, 198, 40), (110, 190, 255), (255, 130, 210), (200, 165, 255))
"""Each shown player's colour: the underline of the name and the line in the chart."""

MARGIN = 24
TITLE_SIZE = 38
BODY_SIZE = 32
ROW = 40
INDENT = 24
GAP = 16
CELL_GAP = 6
LINE_WIDTH = 4
CHART_MIN, CHART_MAX = 180, 300


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """One player's record over a set of scored hands (counts; the rates are properties).

    ``hands``: hands played; ``wins``; ``self_draws``: wins by self-draw; ``dealt_in``: hands in
    which the player dealt in (点炮, or was robbed of a kong); ``declared``: hands in which the player
    declared 亮倒 / 廊起, ``declared_won`` of them won; ``points``: the sum of the player's points
    (hand payments, kong money and corrections; points of 底金); ``best_multiplier`` the largest
    uncapped multiplier of a win (0 = no win) with that win's 番 ``best_fans`` (Chinese, as the
    engine names them); ``top_fan`` the 番 of the most wins (None without wins), in ``top_fan_count``
    wins; ``running``: the running total after each of the player's hands, as ``(position, total)``
    with ``position`` the hand's place (1, 2, ...) on the sheet's axis of ``StatsSheet.hands`` hands.
    """

    name: str
    hands: int = 0
    wins: int = 0
    self_draws: int = 0
    dealt_in: int = 0
    declared: int = 0
    declared_won: int = 0
    points: int = 0
    best_multiplier: int = 0
    best_fans: tuple[str, ...] = ()
    top_fan: str | None = None
    top_fan_count: int = 0
    running: tuple[tuple[int, int], ...] = ()

    @staticmethod
    def _share(part: int, whole: int) -> Fraction | None:
        return Fraction(part, whole) if whole else None

    @property
    def win_rate(self) -> Fraction | None:
        """Wins per hand (None without hands)."""
        return self._share(self.wins, self.hands)

    @property
    def self_draw_share(self) -> Fraction | None:
        """The share of the wins made by self-draw (None without wins)."""
        return self._share(self.self_draws, self.wins)

    @property
    def deal_in_rate(self) -> Fraction | None:
        """Hands dealt in per hand (None without hands)."""
        return self._share(self.dealt_in, self.hands)

    @property
    def declare_rate(self) -> Fraction | None:
        """Hands with a 亮倒 / 廊起 per hand (None without hands)."""
        return self._share(self.declared, self.hands)

    @property
    def declare_win_rate(self) -> Fraction | None:
        """The share of the hands with a declaration that the player won (None without one)."""
        return self._share(self.declared_won, self.declared)

    @property
    def average(self) -> Fraction | None:
        """Points per hand (None without hands)."""
        return self._share(self.points, self.hands)


@dataclass(frozen=True, slots=True)
class StatsSheet:
    """What one ``/stats`` picture shows.

    ``title``: the group's title, or the player's name for a personal record (names are cleaned as
    in every picture: an emoji becomes ``□``); ``players`` in the order shown (only the first
    :data:`MAX_PLAYERS` are drawn, the rest are counted); ``hands``: the length of the chart's axis
    (the group's hands, or the player's own); ``season``: the season shown, None for all seasons
    (``all_seasons``) or, for a personal record across groups, each group's current season;
    ``groups``: how many groups a personal record covers (0: say nothing of groups);
    ``games``: the games played (:class:`engine.rules.Ruleset` values), which name the declaration
    (亮倒 in 卡五星, 廊起 in 卡心五, both when both were played); ``personal``: one player's own record
    (titled with the player's name, so its column has no name above it).
    """

    title: str
    players: tuple[PlayerStats, ...]
    hands: int
    season: int | None = None
    all_seasons: bool = False
    groups: int = 0
    games: tuple[str, ...] = (Ruleset.KAWUXING,)
    personal: bool = False


def percent(share: Fraction | None) -> str | None:
    """``share`` as a whole percentage rounded half up (``Fraction(1, 3)`` -> ``"33%"``); None stays None."""
    if share is None:
        return None
    return f"{math.floor(share * 100 + Fraction(1, 2))}%"


def signed_average(value: Fraction | None) -> str | None:
    """Points per hand to one decimal, rounded half away from zero, signed as :func:`render.labels.signed`
    (``+2.3``, ``−0.5``, ``0.0``); None stays None."""
    if value is None:
        return None
    tenths = math.floor(abs(value) * 10 + Fraction(1, 2))
    text = f"{tenths // 10}.{tenths % 10}"
    if tenths == 0:
        return text
    return ("+" if value > 0 else MINUS) + text


def _declaration(words: PictureWords, games: Sequence[str]) -> str:
    """The declaration's name for the games played (亮倒, 廊起 or ``亮倒/廊起``)."""
    names = dict.fromkeys(words.labels(game).liangdao for game in (games or (Ruleset.KAWUXING,)))
    return "/".join(names)


def _subtitle(sheet: StatsSheet, lb: StatsLabels) -> list[str]:
    parts = []
    if sheet.groups:
        parts.append(lb.one_group if sheet.groups == 1 else lb.groups.format(n=sheet.groups))
    if sheet.all_seasons:
        parts.append(lb.all_seasons)
    elif sheet.season is not None:
        parts.append(lb.season.format(n=sheet.season))
    else:
        parts.append(lb.current_seasons)
    parts.append(lb.one_hand if sheet.hands == 1 else lb.hands_count.format(n=sheet.hands))
    return parts


@dataclass(frozen=True, slots=True)
class _Row:
    label: str
    sub: bool
    cells: tuple[tuple[str, ...] | None, ...]
    """Per player the cell's lines (None: no value, drawn as a dash)."""
    colours: tuple[RGB, ...]


def _wrap(text: str, size: int, width: int, lines: int) -> tuple[str, ...]:
    """``text`` in at most ``lines`` lines of ``width`` pixels: broken at spaces (between characters
    in a text without spaces), the last line cut with ``…``."""
    out: list[str] = []
    rest = text
    while rest and len(out) < lines - 1 and text_width(rest, size) > width:
        words = rest.split(" ")
        head = ""
        if len(words) > 1:
            for i in range(len(words), 0, -1):
                candidate = " ".join(words[:i])
                if text_width(candidate, size) <= width:
                    head = candidate
                    break
        if not head:  # one long word or CJK: as many characters as fit
            head = fit(rest, size, width)
            head = head[:-1] if head.endswith(ELLIPSIS) else head
            if not head:
                break
        out.append(head)
        rest = rest[len(head) :].lstrip()
    if rest:
        out.append(fit(rest, size, width))
    return tuple(out)


def _wrap_parts(parts: Sequence[str], sep: str, size: int, width: int, lines: int) -> tuple[str, ...]:
    """``parts`` joined by ``sep`` in at most ``lines`` lines of ``width`` pixels, broken between parts
    (a part too wide alone, or the rest that does not fit in the last line, is cut with ``…``)."""
    out: list[str] = []
    current = ""
    for part in parts:
        joined = f"{current}{sep}{part}" if current else part
        if not current or text_width(joined, size) <= width or len(out) == lines - 1:
            current = joined
        else:
            out.append(current)
            current = part
    if current:
        out.append(current)
    return tuple(fit(line, size, width) for line in out)


def _rows(players: Sequence[PlayerStats], words: PictureWords, games: Sequence[str], column: int) -> list[_Row]:
    lb = words.stats
    labels = words.labels()
    decl = _declaration(words, games)
    one = len(players) == 1

    def line(texts: Sequence[str | None], label: str, *, sub: bool = False) -> _Row:
        return _Row(label, sub, tuple(None if t is None else (t,) for t in texts), (TEXT,) * len(texts))

    points = _Row(
        lb.points,
        False,
        tuple((signed(p.points),) for p in players),
        tuple(points_colour(p.points, lb.lang, TEXT) for p in players),
    )
    best_cells: list[tuple[str, ...] | None] = []
    fan_cells: list[tuple[str, ...] | None] = []
    for p in players:
        if not p.best_multiplier:
            best_cells.append(None)
        else:
            short = f"×{p.best_multiplier}"
            parts = [short, *(labels.fan(f) for f in p.best_fans)]
            best_cells.append(_wrap_parts(parts, lb.sep, BODY_SIZE, column, 2) if one else (short,))
        if p.top_fan is None:
            fan_cells.append(None)
        else:
            name = labels.fan(p.top_fan)
            counted = lb.fan_count.format(fan=name, n=p.top_fan_count)
            fan_cells.append(_wrap(counted if text_width(counted, BODY_SIZE) <= column else name, BODY_SIZE, column, 2))
    return [
        points,
        line([str(p.hands) for p in players], lb.hands),
        line([percent(p.win_rate) for p in players], lb.win_rate),
        line([percent(p.self_draw_share) for p in players], lb.self_draw, sub=True),
        line([percent(p.deal_in_rate) for p in players], lb.deal_in),
        line([percent(p.declare_rate) for p in players], lb.declared.format(decl=decl)),
        line([percent(p.declare_win_rate) for p in players], lb.declared_won.format(decl=decl), sub=True),
        line([signed_average(p.average) for p in players], lb.average),
        _Row(lb.best, False, tuple(best_cells), (TEXT,) * len(players)),
        _Row(lb.top_fan, False, tuple(fan_cells), (TEXT,) * len(players)),
    ]


def _row_height(row: _Row) -> int:
    lines = max((len(c) for c in row.cells if c is not None), default=1)
    return ROW + (lines - 1) * (BODY_SIZE + 4)


def stats_canvas(sheet: StatsSheet, words: PictureWords = ENGLISH) -> Canvas:
    """Draw ``sheet`` in ``words`` (see :func:`render_stats`) and return the canvas with its placements."""
    lb = words.stats
    inner = WIDTH - 2 * MARGIN
    decl = _declaration(words, sheet.games)
    label_width = max(
        max(text_width(t, BODY_SIZE) for t in (lb.points, lb.hands, lb.win_rate, lb.deal_in, lb.average, lb.best)),
        max(text_width(t, BODY_SIZE) for t in (lb.declared.format(decl=decl), lb.top_fan)),
        max(text_width(t, BODY_SIZE) + INDENT for t in (lb.self_draw, lb.declared_won.format(decl=decl))),
    )
    label_width = min(label_width + CELL_GAP, inner // 2)
    shown: tuple[PlayerStats, ...] = ()
    column, rows = inner - label_width, []
    for count in range(min(MAX_PLAYERS, len(sheet.players)), 0, -1):
        shown = sheet.players[:count]
        column = (inner - label_width) // count
        rows = _rows(shown, words, sheet.games, column - CELL_GAP)
        if all(text_width(c[0], BODY_SIZE) <= column - CELL_GAP for r in rows[:-1] for c in r.cells if c):
            break  # every number fits its column (else fewer, wider columns)
    more = len(sheet.players) - len(shown)

    subtitle = _wrap_parts(_subtitle(sheet, lb), lb.sep, BODY_SIZE, inner, 2)
    header = MARGIN + 52 + 44 * len(subtitle) + 8  # title, subtitle, gap
    names = 0 if sheet.personal and len(shown) == 1 else 48
    table = sum(_row_height(r) for r in rows)
    footer = ROW + 4 if more else 0
    chart_extra = ROW  # the axis labels below the plot
    budget = int(MAX_ASPECT * WIDTH) - (header + names + table + GAP + chart_extra + footer + MARGIN)
    chart = max(CHART_MIN, min(CHART_MAX, budget))
    height = header + names + table + GAP + chart_extra + chart + footer + MARGIN

    c = Canvas(WIDTH, height, FELT)
    title = clean_name(sheet.title, 0, words.labels().seat_fallback) if sheet.title.strip() else "?"
    c.text(MARGIN, MARGIN + 24, title, TITLE_SIZE, TEXT, max_width=inner, role="title", raw=True)
    for k, text in enumerate(subtitle):
        c.text(MARGIN, MARGIN + 52 + 20 + 44 * k, text, BODY_SIZE, MUTED, max_width=inner, role="subtitle")
    y = header
    x0 = MARGIN + label_width
    for i, p in enumerate(shown if names else ()):
        right = x0 + (i + 1) * column
        name = clean_name(p.name, i, words.labels().seat_fallback)
        c.text(
            right,
            y + 20,
            name,
            BODY_SIZE,
            TEXT,
            anchor="rm",
            max_width=column - CELL_GAP,
            role="name",
            seat=i,
            raw=True,
        )
        c.rect((right - column + CELL_GAP, y + 40, right, y + 40 + LINE_WIDTH), PLAYER_COLOURS[i], role="key", seat=i)
    y += names
    for n, row in enumerate(rows):
        h = _row_height(row)
        if n % 2 == 0:
            c.rect((MARGIN - 8, y, WIDTH - MARGIN + 8, y + h), PANEL, radius=6, role="band")
        c.text(
            MARGIN + (INDENT if row.sub else 0), y + ROW // 2, row.label, BODY_SIZE, MUTED if row.sub else TEXT,
            max_width=label_width - CELL_GAP - (INDENT if row.sub else 0), role="label",
        )  # fmt: skip
        for i, cell in enumerate(row.cells):
            right = x0 + (i + 1) * column
            if cell is None:
                c.rect((right - 28, y + ROW // 2 - 2, right, y + ROW // 2 + 2), MUTED, role="no_value", seat=i)
                continue
            for k, text in enumerate(cell):
                cy = y + ROW // 2 + k * (BODY_SIZE + 4)
                c.text(right, cy, text, BODY_SIZE, row.colours[i], anchor="rm", role="value", seat=i)
        y += h
    y += GAP
    _chart(c, shown, sheet, lb, y, chart)
    y += chart_extra + chart
    if more:
        c.text(MARGIN, y + ROW // 2, lb.more.format(n=more), BODY_SIZE, MUTED, max_width=inner, role="more")
    return c


def _chart(
    c: Canvas, players: Sequence[PlayerStats], sheet: StatsSheet, lb: StatsLabels, top: int, height: int
) -> None:
    """The running totals: one line per player over the sheet's hands, the zero line, the extremes."""
    plot_top = top
    values = [0] + [v for p in players for _, v in p.running]
    high, low = max(values), min(values)
    if high == low:
        high, low = high + 1, low - 1
    marks = [signed(high), signed(low)] + (["0"] if low < 0 < high else [])
    axis = max(text_width(m, BODY_SIZE) for m in marks) + 12
    left, right = MARGIN + axis, WIDTH - MARGIN
    bottom = plot_top + height
    c.rect((left, plot_top, right, bottom), PANEL, role="chart")

    def ypos(v: float) -> int:
        return round(bottom - 4 - (v - low) / (high - low) * (height - 8))

    c.text(left - 12, ypos(high), signed(high), BODY_SIZE, MUTED, anchor="rm", role="axis")
    c.text(left - 12, ypos(low), signed(low), BODY_SIZE, MUTED, anchor="rm", role="axis")
    if low < 0 < high:
        zero = ypos(0)
        c.rect((left, zero - 1, right, zero + 1), MUTED, role="zero")
        if abs(zero - ypos(high)) > BODY_SIZE and abs(zero - ypos(low)) > BODY_SIZE:
            c.text(left - 12, zero, "0", BODY_SIZE, MUTED, anchor="rm", role="axis")
    title = (left + 8, plot_top + 6, left + 16 + text_width(lb.chart, BODY_SIZE), plot_top + 6 + ROW)
    hands = max(1, sheet.hands)
    c.text(left, bottom + ROW // 2 + 4, "1", BODY_SIZE, MUTED, anchor="lm", role="axis")
    last = lb.one_hand if hands == 1 else lb.hands_count.format(n=hands)
    c.text(right, bottom + ROW // 2 + 4, last, BODY_SIZE, MUTED, anchor="rm", role="axis")
    for i, p in enumerate(players):
        points = _polyline(p.running, hands, left, right, ypos)
        if len(points) > 1:
            c.draw.line(points, fill=PLAYER_COLOURS[i], width=LINE_WIDTH, joint="curve")
            xs, ys = [q[0] for q in points], [q[1] for q in points]
            c.placed.append(Placed("chart_line", (min(xs), min(ys), max(xs) + 1, max(ys) + 1), seat=i))
    c.rect(title, PANEL, radius=6, role="chart_title_box")
    c.text(title[0] + 4, (title[1] + title[3]) // 2, lb.chart, BODY_SIZE, TEXT, role="chart_title")


def _polyline(
    running: Sequence[tuple[int, int]], hands: int, left: int, right: int, ypos: Callable[[float], int]
) -> list[tuple[int, int]]:
    """The step line of a running total in pixels, from 0 before the first hand to the axis's end:
    per pixel column its first, lowest, highest and last value (10,000 hands draw as ~2,500 points)."""
    span = right - left
    columns: dict[int, list[int]] = {}
    steps = [(0, 0), *running]
    previous = 0
    for position, total in steps:
        x = left + round(min(max(position, 0), hands) / hands * span)
        col = columns.setdefault(x, [previous, previous, previous, previous])
        col[1], col[2], col[3] = min(col[1], total), max(col[2], total), total
        previous = total
    columns.setdefault(right, [previous, previous, previous, previous])
    out: list[tuple[int, int]] = []
    for x in sorted(columns):
        first, lowest, highest, last = columns[x]
        for v in (first, lowest, highest, last):
            point = (x, ypos(v))
            if not out or out[-1] != point:
                out.append(point)
    return out


def render_stats(sheet: StatsSheet, words: PictureWords = ENGLISH) -> Image.Image:
    """The ``/stats`` picture of ``sheet`` with ``words`` (default English): RGB, :data:`WIDTH` px
    wide, at most :data:`MAX_ASPECT` × as tall.

    Top: the title (group or player) and a line saying what is counted (season, or all seasons;
    how many groups; how many hands).  Then a table: one column per shown player (its name underlined
    in the player's colour), one row per number — points (gains red, losses green, as in the result
    picture), hands, win rate and, indented, the share of wins by self-draw, deal-in rate, the
    declaration rate (亮倒 / 廊起) and, indented, how often a declared hand was won, average points per
    hand, the largest multiplier (with its 番 when one player is shown), the most frequent 番 (with
    how many wins, where it fits).  Then the chart of the running totals (points after each hand, a
    flat line over the hands a player sat out), with its highest and lowest values, the zero line and
    the number of hands; last, when the sheet has more than :data:`MAX_PLAYERS` players, how many more.
    """
    return stats_canvas(sheet, words).image
