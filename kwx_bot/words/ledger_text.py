"""Ledger reports: ``/score``, ``/score me``, ``/history [n]``, ``/settle`` and ``/export``.

Pure functions over the plain rows of :mod:`kwx_bot.store.ledger_queries` and a translator; they return
HTML messages (lists of pages, each at most :data:`MESSAGE_LIMIT` characters counted in UTF-16
units as Telegram counts them) or CSV bytes.  Every user-provided string (player names, group
titles) is HTML-escaped; 番 names go through :func:`kwx_bot.words.texts.fan_label`.

Typical handler use::

    report = await store.season_report(group_id)    # SQLite or PostgreSQL (kwx_bot.store)
    for page in format_standings(report.standings, tr, season=report.season, hands=report.hands):
        await sender.send_text(chat_id, page)

``/settle`` squares a season with the fewest transfers (:func:`settle`): exact for up to
:data:`EXACT_LIMIT` parties with a non-zero balance (the fewest transfers is the number of parties
minus the largest number of groups, each summing to zero, they can be split into — found by a
dynamic programme over subsets), greedy beyond that.  Nobody both pays and receives.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from typing import Generic, TypeVar

from engine.fans import Fan
from engine.numerals import whole_number

from ..store.rows import GroupStanding, HandRecord, LedgerEntry, SeatResult, Standing
from .i18n import N_, Translator
from .texts import clean, esc, fan_label, name, quote, signed

__all__ = [
    "DEFAULT_HISTORY",
    "EXACT_LIMIT",
    "MAX_HISTORY",
    "MESSAGE_LIMIT",
    "ReportArgError",
    "Transfer",
    "export_filename",
    "format_hand",
    "format_history",
    "format_my_standings",
    "format_settlement",
    "format_standings",
    "hand_outcome",
    "ledger_csv",
    "paginate",
    "parse_history_count",
    "settle",
    "sort_standings",
    "telegram_length",
]

MESSAGE_LIMIT = 4096
"""Telegram's limit for one text message (UTF-16 code units after entity parsing; we count the
raw HTML, which is never shorter)."""

DEFAULT_HISTORY = 10
MAX_HISTORY = 100
EXACT_LIMIT = 12
"""Up to this many parties with a non-zero balance :func:`settle` is exact; beyond, greedy."""

K = TypeVar("K", bound=Hashable)


# ---------------------------------------------------------------------------------------- pages


def telegram_length(text: str) -> int:
    """Length as Telegram counts it: UTF-16 code units (an emoji outside the BMP counts 2)."""
    return len(text.encode("utf-16-le")) // 2


_TAG = re.compile(r"<(/?)([a-zA-Z-]+)[^>]*>")


def _cut(text: str, limit: int) -> str:
    """``text`` shortened to ``limit`` UTF-16 units with "…": never inside an HTML tag or entity, and
    tags left open by the cut are closed again (Telegram refuses unbalanced HTML)."""
    if telegram_length(text) <= limit:
        return text
    reserve = 1
    while True:
        out = text
        while telegram_length(out) > limit - reserve:
            out = out[: len(out) - (telegram_length(out) - limit + reserve)]
        out = re.sub(r"<[^>]*$|&[a-zA-Z#0-9]*$", "", out)
        stack: list[str] = []
        for m in _TAG.finditer(out):
            if m.group(1):
                if m.group(2) in stack:
                    del stack[len(stack) - 1 - stack[::-1].index(m.group(2))]
            else:
                stack.append(m.group(2))
        result = out + "…" + "".join(f"</{t}>" for t in reversed(stack))
        if telegram_length(result) <= limit:
            return result
        reserve = telegram_length(result) - telegram_length(out) + 1


def paginate(blocks: Sequence[str], limit: int = MESSAGE_LIMIT, *, header: str = "") -> list[str]:
    """Join ``blocks`` with newlines into as few messages as possible, each at most ``limit`` long.

    A block is never split across messages (a block alone over the limit is shortened with "…",
    never inside a tag).  ``header`` starts the first message.  Returns ``[header]`` (or ``[]``
    when there is no header) for no blocks.
    """
    pages: list[str] = []
    current = header
    for block in blocks:
        block = _cut(block, limit)
        candidate = f"{current}\n{block}" if current else block
        if telegram_length(candidate) <= limit:
            current = candidate
            continue
        if current:
            pages.append(current)
        current = block
    if current:
        pages.append(current)
    return pages


class ReportArgError(ValueError):
    """A malformed report argument; :meth:`render` gives the translated, polite message."""

    def __init__(self, msgid: str, **params: object) -> None:
        super().__init__(msgid.format(**params))
        self.msgid = msgid
        self.params = params

    def render(self, tr: Translator) -> str:
        """The message in the reader's language (parameters HTML-escaped)."""
        return tr.gettext(self.msgid).format(**{k: quote(str(v)) for k, v in self.params.items()})


def parse_history_count(text: str) -> int:
    """The ``n`` of ``/history [n]``: :data:`DEFAULT_HISTORY` when empty, 1..:data:`MAX_HISTORY`.

    Raises :class:`ReportArgError` for anything that is not such a number.
    """
    if not text.strip():
        return DEFAULT_HISTORY
    count = whole_number(text, minimum=1, maximum=MAX_HISTORY)
    if count is None:
        raise ReportArgError(
            N_("Use /history or /history N with N from 1 to {max} (the number of hands to show)."), max=MAX_HISTORY
        )
    return count


# ------------------------------------------------------------------------------------ standings


def _party(user_id: int | None, raw_name: str, tr: Translator) -> str:
    """An escaped display name; the AI seats together are "AI players"."""
    return tr.gettext("AI players") if user_id is None else name(raw_name)


def sort_standings(rows: Iterable[Standing]) -> list[Standing]:
    """Most points first; ties: more wins, fewer 点炮, people before the AI seats, name."""
    return sorted(rows, key=lambda r: (-r.points, -r.wins, r.dealt_in, r.user_id is None, r.name.casefold()))


def _best(row: Standing, tr: Translator) -> str:
    """``best ×4 卡五星``: the party's best win and its 番, the 亮倒 番 naming whose 亮倒 it was
    (from the win's hand, as ``/history`` words it: :func:`_fan_texts`)."""
    if not row.best_multiplier:
        return ""
    winner = next((s for s in row.best_hand.seats if s.seat == row.best_seat), None) if row.best_hand else None
    if row.best_hand is not None and winner is not None:
        fans = " ".join(_fan_texts(row.best_hand, winner, tr))
    else:
        fans = " ".join(fan_label(f, tr) for f in row.best_fans)
    return tr.gettext("best ×{m}").format(m=row.best_multiplier) + (f" {fans}" if fans else "")


def _stats(row: Standing, tr: Translator) -> str:
    parts = [
        tr.ngettext("{n} hand", "{n} hands", row.hands).format(n=row.hands),
        tr.ngettext("{n} win", "{n} wins", row.wins).format(n=row.wins),
        tr.gettext("{n} dealt in").format(n=row.dealt_in),
    ]
    best = _best(row, tr)
    if best:
        parts.append(best)
    return " · ".join(parts)


def format_standings(
    rows: Iterable[Standing], tr: Translator, *, season: int, hands: int | None = None, title: str = ""
) -> list[str]:
    """``/score``: the season's standings as pages (HTML).

    ``hands``: hands scored in the season (shown in the heading); ``title``: the group's title.
    """
    _ = tr.gettext
    ordered = sort_standings(rows)
    head = _("<b>Standings · season {season}</b>").format(season=season)
    if title:
        head += " · " + esc(clean(title))
    if hands is not None:
        head += "\n" + tr.ngettext("{n} hand scored", "{n} hands scored", hands).format(n=hands)
    if not ordered:
        return [head + "\n" + _("No hands scored yet this season.")]
    blocks = []
    rank = 0
    previous: int | None = None
    for i, row in enumerate(ordered, 1):
        if row.points != previous:
            rank, previous = i, row.points
        blocks.append(f"{rank}. <b>{_party(row.user_id, row.name, tr)}</b> {signed(row.points)}\n    {_stats(row, tr)}")
    return paginate(blocks, header=head)


def format_my_standings(rows: Iterable[GroupStanding], tr: Translator, *, who: str = "") -> list[str]:
    """``/score me``: the user's standing in each group (current seasons) as pages (HTML).

    ``who``: the user's display name for the heading (unescaped; optional).
    """
    _ = tr.gettext
    head = _("<b>Your standings</b>") if not who else _("<b>Standings of {name}</b>").format(name=name(who))
    blocks = []
    for g in rows:
        group = esc(clean(g.title)) if g.title else _("a group")
        blocks.append(
            _("<b>{group}</b> · season {season}: #{rank} of {players}, {points}").format(
                group=group, season=g.season, rank=g.rank, players=g.players, points=signed(g.standing.points)
            )
            + "\n    "
            + _stats(g.standing, tr)
        )
    if not blocks:
        return [head + "\n" + _("No scored hands yet in this season of any group.")]
    return paginate(blocks, header=head)


# -------------------------------------------------------------------------------------- history


def _seat_name(s: SeatResult, tr: Translator, limit: int = 16) -> str:
    if s.user_id is None:
        return tr.gettext("AI {n}").format(n=s.seat + 1)
    return name(s.name, limit)


def _declarers(hand: HandRecord, w: SeatResult) -> list[SeatResult]:
    """Whose 亮倒 the 亮倒 番 of winner ``w`` stands for: the winner's if declared, else the declaring
    seats that paid (docs/rules.md §A9.6; as the result caption names them)."""
    if w.declared:
        return [w]
    return [s for s in hand.seats if s.declared and not s.won and s.hand_delta < 0]


def _fan_texts(hand: HandRecord, w: SeatResult, tr: Translator) -> list[str]:
    """The 番 of winner ``w``, each in the reader's words; the 亮倒 番 names whose 亮倒 it stands
    for (:func:`_declarers`: "Laid down by Ann")."""
    whose = tr.gettext(", ").join(_seat_name(s, tr) for s in _declarers(hand, w))
    return [
        tr.gettext("Laid down by {names}").format(names=whose) if f == Fan.LIANGDAO.zh and whose else fan_label(f, tr)
        for f in w.fans
    ]


def _win_text(hand: HandRecord, w: SeatResult, tr: Translator) -> str:
    _ = tr.gettext
    payer = next((s for s in hand.seats if s.dealt_in), None)
    who = _seat_name(w, tr)
    if payer is None or w.by == "self_draw":
        how = _("{name} wins by self-draw").format(name=who)
    elif w.by == "rob_kong" or "抢杠胡" in w.fans:
        how = _("{name} robs {other}'s kong").format(name=who, other=_seat_name(payer, tr))
    else:
        how = _("{name} wins on {other}'s discard").format(name=who, other=_seat_name(payer, tr))
    fans = " · ".join(_fan_texts(hand, w, tr)) or fan_label("屁胡", tr)
    text = _("{how}: {fans} ×{m}").format(how=how, fans=fans, m=w.multiplier)
    if w.baohu and payer is not None:
        text = _("{text}; {name} pays for all (包胡)").format(text=text, name=_seat_name(payer, tr))
    return text


def hand_outcome(hand: HandRecord, tr: Translator) -> str:
    """How a hand ended, HTML, as ``/history`` shows it below the hand's number: each winner with
    the 番 and multiplier (or "Draw, no winner"), then every seat's points."""
    winners = hand.winners
    lines = [_win_text(hand, w, tr) for w in winners] if winners else [tr.gettext("Draw, no winner")]
    lines.append(" · ".join(f"{_seat_name(s, tr)} {signed(s.delta)}" for s in hand.seats))
    return "\n".join(lines)


def _hand_block(hand: HandRecord, tr: Translator, tz: tzinfo, show_table: bool) -> str:
    _ = tr.gettext
    head = _("<b>Hand {n}</b>").format(n=hand.hand_no)
    if show_table:
        head += " · " + _("table {t}").format(t=hand.table_id)
    if hand.ended_at is not None:
        head += " · " + datetime.fromtimestamp(hand.ended_at, tz).strftime("%m-%d %H:%M")
    lines = [head, hand_outcome(hand, tr)]
    corrected = [s for s in hand.seats if s.correction]
    if corrected:
        lines.append(
            _("Corrected: {list}").format(
                list=_(", ").join(f"{_seat_name(s, tr)} {signed(s.correction)}" for s in corrected)
            )
        )
    return "\n".join(lines)


def format_hand(hand: HandRecord, tr: Translator, *, tz: tzinfo = UTC, show_table: bool = False) -> str:
    """One hand as :func:`format_history` shows it (HTML): number (and table), time in ``tz``,
    winner(s), 番, multiplier, every seat's points and any corrections."""
    return _hand_block(hand, tr, tz, show_table)


def format_history(records: Sequence[HandRecord], tr: Translator, *, tz: tzinfo = UTC) -> list[str]:
    """``/history [n]``: the given hands (newest first, as :func:`recent_hands` returns them) as pages.

    Each hand: number, time (in ``tz``), winner(s) with how, 番, multiplier (uncapped M), and every
    seat's points for the hand (kong money included).
    """
    _ = tr.gettext
    if not records:
        return [_("No hands scored yet in this group.")]
    head = tr.ngettext("<b>The last hand</b>", "<b>The last {n} hands</b>", len(records)).format(n=len(records))
    show_table = len({r.table_id for r in records}) > 1
    return paginate([_hand_block(r, tr, tz, show_table) for r in records], header=head)


# ----------------------------------------------------------------------------------- settlement


@dataclass(frozen=True, slots=True)
class Transfer(Generic[K]):
    """``payer`` pays ``amount`` (> 0) points to ``payee``."""

    payer: K
    payee: K
    amount: int


def _groups_exact(values: list[int]) -> list[list[int]]:
    """Split indices into the most groups that each sum to zero (DP over subsets, O(2^n · n))."""
    n = len(values)
    full = (1 << n) - 1
    sums = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + values[low.bit_length() - 1]
    best = [0] * (full + 1)
    for mask in range(1, full + 1):
        m, top = mask, 0
        while m:
            low = m & -m
            top = max(top, best[mask ^ low])
            m ^= low
        best[mask] = top + (sums[mask] == 0)
    # Walk back: an order of the elements whose prefix sums hit zero best[full] times.
    order: list[int] = []
    mask = full
    while mask:
        m = mask
        while m:
            low = m & -m
            if best[mask ^ low] + (sums[mask] == 0) == best[mask]:
                order.append(low.bit_length() - 1)
                mask ^= low
                break
            m ^= low
    order.reverse()
    groups: list[list[int]] = [[]]
    total = 0
    for i in order:
        groups[-1].append(i)
        total += values[i]
        if total == 0:
            groups.append([])
    return [g for g in groups if g]


def _greedy(keys: Sequence[K], values: Sequence[int]) -> list[Transfer[K]]:
    """Largest debtor pays largest creditor until square; each transfer settles at least one party."""
    debtors = sorted(((-v, i) for i, v in enumerate(values) if v < 0), reverse=True)
    creditors = sorted(((v, i) for i, v in enumerate(values) if v > 0), reverse=True)
    out: list[Transfer[K]] = []
    di = ci = 0
    debt = [d for d, _ in debtors]
    credit = [c for c, _ in creditors]
    while di < len(debtors) and ci < len(creditors):
        amount = min(debt[di], credit[ci])
        out.append(Transfer(keys[debtors[di][1]], keys[creditors[ci][1]], amount))
        debt[di] -= amount
        credit[ci] -= amount
        if debt[di] == 0:
            di += 1
        if credit[ci] == 0:
            ci += 1
    return out


def settle(balances: Mapping[K, int]) -> list[Transfer[K]]:
    """The fewest transfers that square ``balances`` (points; positive = is owed, negative = owes).

    Exact when at most :data:`EXACT_LIMIT` balances are non-zero, otherwise greedy (exact pairs
    first, then largest debtor to largest creditor).  Either way every transfer goes from someone who
    owes to someone who is owed, and after all of them every balance is zero.  Transfers are ordered
    by amount (largest first), then by payer and payee in the order of ``balances``.  Raises
    ``ValueError`` if the balances do not sum to zero.
    """
    if sum(balances.values()) != 0:
        raise ValueError(f"balances must sum to zero, got {sum(balances.values())}")
    keys = [k for k, v in balances.items() if v]
    values = [balances[k] for k in keys]
    out: list[Transfer[K]] = []
    if len(keys) <= EXACT_LIMIT:
        for group in _groups_exact(values):
            out.extend(_greedy([keys[i] for i in group], [values[i] for i in group]))
    else:
        remaining = dict(zip(keys, values, strict=True))
        for k in keys:  # exact opposite pairs settle with one transfer each
            v = remaining[k]
            if v < 0:
                match = next((o for o in keys if remaining[o] == -v), None)
                if match is not None:
                    out.append(Transfer(k, match, -v))
                    remaining[k] = remaining[match] = 0
        rest = [k for k in keys if remaining[k]]
        out.extend(_greedy(rest, [remaining[k] for k in rest]))
    position = {k: i for i, k in enumerate(balances)}
    return sorted(out, key=lambda t: (-t.amount, position[t.payer], position[t.payee]))


def format_settlement(rows: Iterable[Standing], tr: Translator, *, season: int) -> str:
    """``/settle``: who pays whom to square the season (HTML), from the season's standings."""
    _ = tr.gettext
    ordered = sort_standings(rows)
    names = {r.user_id: _party(r.user_id, r.name, tr) for r in ordered}
    transfers = settle({r.user_id: r.points for r in ordered})
    head = _("<b>Settle season {season}</b>").format(season=season)
    if not transfers:
        return head + "\n" + _("Everyone is square: nobody owes anything.")
    lines = [
        head,
        tr.ngettext("{n} transfer squares everyone:", "{n} transfers square everyone:", len(transfers)).format(
            n=len(transfers)
        ),
    ]
    lines += [
        _("{payer} → {payee}: {amount}").format(payer=names[t.payer], payee=names[t.payee], amount=t.amount)
        for t in transfers
    ]
    if any(None in (t.payer, t.payee) for t in transfers):
        lines.append(_("The AI players' share is listed only so that the numbers add up."))
    return _cut("\n".join(lines), MESSAGE_LIMIT)


# ------------------------------------------------------------------------------------------ CSV

_CSV_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def _csv_text(value: str) -> str:
    """Text cells that a spreadsheet would run as a formula get a leading apostrophe."""
    return "'" + value if value.startswith(_CSV_FORMULA) else value


def ledger_csv(entries: Iterable[LedgerEntry], tr: Translator, *, tz: tzinfo = UTC) -> bytes:
    """``/export``: the ledger as CSV bytes, one row per ledger entry, UTF-8 with a BOM (so Excel
    opens Chinese correctly), CRLF line ends, a translated header row.  Times are in ``tz``."""
    _ = tr.gettext
    offset = datetime.now(tz).strftime("%z")
    header = [
        _("Entry"),
        _("Time (UTC{offset})").format(offset=f"{offset[:3]}:{offset[3:]}" if offset else ""),
        _("Season"),
        _("Table"),
        _("Hand id"),
        _("Hand no."),
        _("Seat"),
        _("User id"),
        _("Player"),
        _("Kind"),
        _("Hand points"),
        _("Kong points"),
        _("Points"),
        _("Won"),
        _("Dealt in"),
        _("Multiplier"),
        _("Patterns (番)"),
        _("Corrects entry"),
    ]
    kinds = {"hand": _("hand"), "correction": _("correction")}
    yes, no = _("yes"), _("no")
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\r\n")
    writer.writerow(header)
    for e in entries:
        player = e.name if e.user_id is not None else tr.gettext("AI {n}").format(n=e.seat + 1)
        writer.writerow(
            [
                e.entry_id,
                datetime.fromtimestamp(e.created_at, tz).strftime("%Y-%m-%d %H:%M:%S"),
                e.season,
                e.table_id,
                e.hand_id,
                "" if e.hand_no is None else e.hand_no,
                e.seat + 1,
                "" if e.user_id is None else e.user_id,
                _csv_text(player),
                kinds.get(e.kind, e.kind),
                e.hand_delta,
                e.kong_delta,
                e.delta,
                yes if e.won else no,
                yes if e.dealt_in else no,
                e.multiplier,
                _csv_text(e.fans),
                "" if e.corrects is None else e.corrects,
            ]
        )
    return b"\xef\xbb\xbf" + buf.getvalue().encode("utf-8")


def export_filename(group_id: int, *, season: int | None = None, when: datetime | None = None) -> str:
    """An ASCII file name for the export document, e.g. ``kwx-ledger-g12-2026-05-01.csv``."""
    when = when or datetime.now(UTC)
    part = f"-s{season}" if season is not None else ""
    return f"kwx-ledger-g{group_id}{part}-{when:%Y-%m-%d}.csv"
