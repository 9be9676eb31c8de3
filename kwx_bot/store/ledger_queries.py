"""Read-only ledger queries for ``/score``, ``/score me``, ``/history``, ``/settle``, ``/export`` and ``/stats``.

Only ``SELECT`` statements over the schema of :mod:`.migrations` (``ledger``, ``hands``, ``users``,
``chats``, ``settings``), in SQL that SQLite and PostgreSQL read alike; nothing here writes.  Each
function takes a :data:`Conn`: the store's report connection (:meth:`kwx_bot.store.Store.reader`:
for SQLite a separate read-only connection from :func:`open_readonly` — WAL lets it read while the
bot writes — so a report never sees another coroutine's uncommitted transaction; for PostgreSQL a
pooled connection), or an aiosqlite connection.  Multi-statement reports run inside one read
transaction, so they see one consistent snapshot.

Points are the ledger's units (底金 × capped multiplier, docs/rules.md §A11/§A12).  The season of a group is
its ``season`` setting (a JSON integer, default 1; ``/season new`` increments it); ledger rows carry
the season they were written in.  All AI seats of a group are reported together as one party with
``user_id`` None (they are not people who could pay or be paid).
"""

from __future__ import annotations

import json
import weakref
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import aiosqlite

from .db import Db, SqliteDb
from .rows import GroupStanding, HandRecord, LedgerEntry, SeatHand, SeatResult, Standing, StatsRows, loads

__all__ = [
    "GroupStanding",
    "HandRecord",
    "LedgerEntry",
    "SeatHand",
    "SeatResult",
    "Standing",
    "StatsRows",
    "current_season",
    "group_title",
    "hand_void_state",
    "ledger_entries",
    "open_readonly",
    "recent_hands",
    "scored_hands_numbered",
    "season_hands",
    "season_standings",
    "stats_rows",
    "user_standings",
]


# ----------------------------------------------------------------------------------- connection


async def open_readonly(path: str | Path) -> aiosqlite.Connection:
    """A read-only connection to the bot's database file (``mode=ro``; a write raises).

    Raises ``sqlite3.OperationalError`` if the file does not exist.  Close it with ``await
    conn.close()``.  (An in-memory database cannot be shared: pass the store's connection instead.)
    """
    uri = Path(path).expanduser().resolve().as_uri() + "?mode=ro"
    db = await aiosqlite.connect(uri, uri=True, timeout=5.0)
    await db.execute("PRAGMA busy_timeout=5000")
    await db.execute("PRAGMA query_only=ON")
    _READONLY.add(db)
    return db


_READONLY: weakref.WeakSet[aiosqlite.Connection] = weakref.WeakSet()
"""Connections opened by :func:`open_readonly` (only those get explicit read transactions)."""

Conn = Db | aiosqlite.Connection
"""What the queries read from: a :class:`~.db.Db` (SQLite or PostgreSQL), or an aiosqlite connection."""


def _db(conn: Conn) -> Db:
    """``conn`` as a :class:`~.db.Db`; an aiosqlite connection from :func:`open_readonly` gets read
    transactions (consistent snapshots), the store's shared connection none (its writer owns them)."""
    return conn if isinstance(conn, Db) else SqliteDb(conn, snapshots=conn in _READONLY)


async def _rows(conn: Conn, sql: str, params: Sequence[Any] = ()) -> list[Any]:
    return await _db(conn).fetch(sql, params)


def _name(first: str | None, last: str | None, username: str | None, user_id: int | None) -> str:
    """The display name rule of :class:`kwx_bot.store.rows.UserRow` ("" for an AI seat)."""
    if user_id is None:
        return ""
    first = first or ""
    name = first if not last else f"{first} {last}"
    return name or username or str(user_id)


def _fans(text: str | None) -> tuple[str, ...]:
    return tuple((text or "").split())


# -------------------------------------------------------------------------------------- queries


async def current_season(db: Conn, group_id: int) -> int:
    """The group's current season (the ``season`` setting; 1 when unset or malformed)."""
    rows = await _rows(db, "SELECT value FROM settings WHERE group_id = ? AND key = 'season'", (group_id,))
    if not rows:
        return 1
    try:
        value = json.loads(rows[0][0])
    except (TypeError, ValueError):
        return 1
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 1 else 1


async def group_title(db: Conn, group_id: int) -> str:
    """The group's title as last seen ("" if unknown)."""
    rows = await _rows(db, "SELECT title FROM chats WHERE group_id = ?", (group_id,))
    return str(rows[0][0] or "") if rows else ""


_STANDINGS_SQL = """
WITH season_rows AS (
    SELECT * FROM ledger WHERE group_id = ? AND season = ?
), totals AS (
    SELECT user_id,
           SUM(delta) AS points,
           COUNT(DISTINCT CASE WHEN kind = 'hand' THEN hand_id END) AS hands,
           SUM(CASE WHEN kind = 'hand' THEN won ELSE 0 END) AS wins,
           COUNT(DISTINCT CASE WHEN kind = 'hand' AND dealt_in = 1 THEN hand_id END) AS dealt_in
    FROM season_rows GROUP BY user_id
), best AS (
    SELECT user_id, multiplier, fans, hand_id, seat FROM (
        SELECT user_id, multiplier, fans, hand_id, seat,
               ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY multiplier DESC, hand_delta DESC, entry_id)
                   AS n
        FROM season_rows WHERE kind = 'hand' AND won = 1
    ) ranked WHERE n = 1
)
SELECT t.user_id, u.first_name, u.last_name, u.username, t.points, t.hands, t.wins, t.dealt_in,
       coalesce(b.multiplier, 0), coalesce(b.fans, ''), b.hand_id, b.seat
FROM totals t
LEFT JOIN best b ON b.user_id IS NOT DISTINCT FROM t.user_id
LEFT JOIN users u ON u.user_id = t.user_id
ORDER BY t.points DESC, t.wins DESC, t.dealt_in ASC, t.user_id IS NULL, t.user_id
"""


async def season_standings(db: Conn, group_id: int, season: int) -> list[Standing]:
    """Every party with a ledger row in the group's ``season``, most points first; each party's
    best win comes with its hand (:attr:`Standing.best_hand`, read as ``/history`` reads a hand)."""
    rows = await _rows(db, _STANDINGS_SQL, (group_id, season))
    best_ids = sorted({int(r[10]) for r in rows if r[10] is not None})
    hands = await _rows(
        db,
        "SELECT h.hand_id, h.table_id, h.hand_no, h.ended_at, h.result FROM hands h "
        f"WHERE h.hand_id IN ({','.join('?' * len(best_ids))})",
        best_ids,
    ) if best_ids else []  # fmt: skip
    records = {h.hand_id: h for h in await _hand_records(db, [(*h, season) for h in hands])}
    return [
        Standing(
            user_id=r[0],
            name=_name(r[1], r[2], r[3], r[0]),
            points=int(r[4]),
            hands=int(r[5]),
            wins=int(r[6]),
            dealt_in=int(r[7]),
            best_multiplier=int(r[8]),
            best_fans=_fans(r[9]),
            best_hand=records.get(int(r[10])) if r[10] is not None else None,
            best_seat=int(r[11]) if r[11] is not None else None,
        )
        for r in rows
    ]


async def season_hands(db: Conn, group_id: int, season: int) -> int:
    """How many hands the group scored in ``season``."""
    rows = await _rows(
        db,
        "SELECT COUNT(DISTINCT hand_id) FROM ledger WHERE group_id = ? AND season = ? AND kind = 'hand'",
        (group_id, season),
    )
    return int(rows[0][0])


async def user_standings(db: Conn, user_id: int) -> list[GroupStanding]:
    """The user's standing in the current season of every group where they have ledger rows.

    Groups where the user has not played in the current season are left out.  Ordered by group title.
    """
    async with _db(db).snapshot():
        groups = await _rows(
            db,
            "SELECT DISTINCT l.group_id, coalesce(c.title, '') FROM ledger l LEFT JOIN chats c USING (group_id) "
            "WHERE l.user_id = ? ORDER BY 2, 1",
            (user_id,),
        )
        out = []
        for group_id, title in groups:
            season = await current_season(db, group_id)
            table = await season_standings(db, group_id, season)
            for standing in table:
                if standing.user_id == user_id:
                    rank = 1 + sum(1 for other in table if other.points > standing.points)
                    out.append(GroupStanding(group_id, str(title), season, rank, len(table), standing))
        return out


async def recent_hands(
    db: Conn, group_id: int, limit: int, *, season: int | None = None, hand_id: int | None = None
) -> list[HandRecord]:
    """The group's last ``limit`` scored hands, newest first (``season`` None = every season;
    ``hand_id``: only that hand, if it is the group's)."""
    async with _db(db).snapshot():
        where = "group_id = ? AND kind = 'hand'" + (" AND season = ?" if season is not None else "")
        params: tuple[Any, ...] = (group_id, season) if season is not None else (group_id,)
        if hand_id is not None:
            where, params = where + " AND hand_id = ?", (*params, hand_id)
        hands = await _rows(
            db,
            "SELECT h.hand_id, h.table_id, h.hand_no, h.ended_at, h.result, l.season FROM hands h "
            f"JOIN (SELECT hand_id, MIN(season) AS season FROM ledger WHERE {where} GROUP BY hand_id) l "
            "USING (hand_id) ORDER BY coalesce(h.ended_at, h.started_at) DESC, h.hand_id DESC LIMIT ?",
            (*params, max(0, limit)),
        )
        return await _hand_records(db, hands)


async def _hand_records(db: Conn, hands: Sequence[Sequence[Any]]) -> list[HandRecord]:
    """The :class:`HandRecord` of each of ``hands`` (rows ``hand_id, table_id, hand_no, ended_at,
    result, season``, kept in their order): its seats from the ledger, corrections added, whose
    declarations from its stored declaring discards (:data:`DECLARED_EVENT`).  Two reads: the
    caller holds the snapshot."""
    if not hands:
        return []
    ids = [h[0] for h in hands]
    marks = ",".join("?" * len(ids))
    seat_rows = await _rows(
        db,
        "SELECT l.hand_id, l.seat, l.user_id, u.first_name, u.last_name, u.username, l.kind, l.delta, "
        "l.hand_delta, l.kong_delta, l.won, l.dealt_in, l.multiplier, l.fans "
        f"FROM ledger l LEFT JOIN users u ON u.user_id = l.user_id WHERE l.hand_id IN ({marks}) "
        "ORDER BY l.hand_id, l.seat, l.entry_id",
        ids,
    )
    declarations = await _rows(db, f"SELECT e.hand_id, e.data FROM events e WHERE e.hand_id IN ({marks}) "
                               f"AND {DECLARED_EVENT}", ids)  # fmt: skip
    declared = _declared_seats(declarations)
    by_hand: dict[int, dict[int, dict[str, Any]]] = {}
    for r in seat_rows:
        seats = by_hand.setdefault(r[0], {})
        if r[6] == "hand" and r[1] not in seats:
            seats[r[1]] = {
                "seat": r[1],
                "user_id": r[2],
                "name": _name(r[3], r[4], r[5], r[2]),
                "delta": r[7],
                "hand_delta": r[8],
                "kong_delta": r[9],
                "won": bool(r[10]),
                "dealt_in": bool(r[11]),
                "multiplier": r[12],
                "fans": _fans(r[13]),
                "correction": 0,
                "declared": (r[0], r[1]) in declared,
            }
        elif r[1] in seats:
            seats[r[1]]["correction"] += r[7]
    out = []
    for hand_id, table_id, hand_no, ended_at, result_text, hand_season in hands:
        how = _winner_details(result_text)
        seats = by_hand.get(hand_id, {})
        records = []
        for seat in sorted(seats):
            data = seats[seat]
            by, baohu = how.get(seat, (None, False)) if data["won"] else (None, False)
            records.append(SeatResult(**data, by=by, baohu=baohu))
        out.append(HandRecord(hand_id, table_id, hand_no, hand_season, ended_at, tuple(records)))
    return out


def _winner_details(result_text: str | None) -> dict[int, tuple[str | None, bool]]:
    """``{winner seat: (by, baohu)}`` from a hand's stored result (the ``hand_ended`` event JSON)."""
    try:
        result = json.loads(result_text) if result_text else {}
    except ValueError:
        return {}
    out: dict[int, tuple[str | None, bool]] = {}
    winners = result.get("winners") if isinstance(result, dict) else None
    for w in winners if isinstance(winners, list) else []:
        if isinstance(w, dict) and isinstance(w.get("seat"), int):
            by = w.get("by")
            out[w["seat"]] = (by if isinstance(by, str) else None, w.get("baohu") is True)
    return out


async def ledger_entries(db: Conn, group_id: int, *, season: int | None = None) -> list[LedgerEntry]:
    """Every ledger row of the group in entry order (``season`` None = every season)."""
    where = "l.group_id = ?" + (" AND l.season = ?" if season is not None else "")
    params: tuple[Any, ...] = (group_id, season) if season is not None else (group_id,)
    rows = await _rows(
        db,
        "SELECT l.entry_id, l.created_at, l.season, l.table_id, l.hand_id, h.hand_no, l.seat, l.user_id, "
        "u.first_name, u.last_name, u.username, l.kind, l.hand_delta, l.kong_delta, l.delta, l.won, l.dealt_in, "
        "l.multiplier, l.fans, l.corrects "
        "FROM ledger l LEFT JOIN hands h ON h.hand_id = l.hand_id LEFT JOIN users u ON u.user_id = l.user_id "
        f"WHERE {where} ORDER BY l.entry_id",
        params,
    )
    return [
        LedgerEntry(
            entry_id=r[0],
            created_at=r[1],
            season=r[2],
            table_id=r[3],
            hand_id=r[4],
            hand_no=r[5],
            seat=r[6],
            user_id=r[7],
            name=_name(r[8], r[9], r[10], r[7]),
            kind=r[11],
            hand_delta=r[12],
            kong_delta=r[13],
            delta=r[14],
            won=bool(r[15]),
            dealt_in=bool(r[16]),
            multiplier=r[17],
            fans=r[18] or "",
            corrects=r[19],
        )
        for r in rows
    ]


async def scored_hands_numbered(db: Conn, group_id: int, hand_no: int) -> list[tuple[int, int]]:
    """``(hand_id, table_id)`` of the group's hands numbered ``hand_no`` that were scored (they have
    ``kind = 'hand'`` ledger rows), newest first (by end, else start, then hand id)."""
    sql = (
        "SELECT h.hand_id, h.table_id FROM hands h WHERE h.hand_no = ? AND EXISTS "
        "(SELECT 1 FROM ledger l WHERE l.hand_id = h.hand_id AND l.group_id = ? AND l.kind = 'hand') "
        "ORDER BY coalesce(h.ended_at, h.started_at) DESC, h.hand_id DESC"
    )
    return [(int(r[0]), int(r[1])) for r in await _rows(db, sql, (hand_no, group_id))]


async def hand_void_state(db: Conn, hand_id: int) -> tuple[bool, bool]:
    """``(every seat nets to zero, the hand has correction rows)`` over the hand's ledger rows."""
    rows = await _rows(
        db,
        "SELECT SUM(delta), SUM(CASE WHEN kind = 'correction' THEN 1 ELSE 0 END) FROM ledger "
        "WHERE hand_id = ? GROUP BY seat",
        (hand_id,),
    )
    return all(int(r[0]) == 0 for r in rows), any(int(r[1]) for r in rows)


# ------------------------------------------------------------------------------------------ /stats

SELF_DRAW_RESULT = '%"by":"self_draw"%'
"""A hand's stored result (its ``hand_ended`` event, compact JSON) with a win by self-draw; a
self-drawn hand has one winner (docs/rules.md §A8.1), so it is that winner's."""
DECLARED_EVENT = "e.kind = 'discarded' AND e.data LIKE '%\"liangdao\":true%'"
"""A stored ``discarded`` event (compact JSON) that declared 亮倒 / 廊起 (docs/rules.md §A9.1, §B): the
condition of the partial index ``events_declared`` (migration 6), written as the index writes it so
that SQLite and PostgreSQL use the index."""


def _stats_filter(
    alias: str, group_id: int | None, user_id: int | None, season: int | None
) -> tuple[str, tuple[Any, ...]]:
    """The WHERE clause (over ledger alias ``alias``) of the rows ``/stats`` reads, and its parameters."""
    terms, params = [], []
    for column, value in (("group_id", group_id), ("user_id", user_id), ("season", season)):
        if value is not None:
            terms.append(f"{alias}.{column} = ?")
            params.append(value)
    return " AND ".join(terms), tuple(params)


async def stats_rows(
    db: Conn, *, group_id: int | None = None, user_id: int | None = None, all_seasons: bool = False
) -> StatsRows:
    """What ``/stats`` counts: every seat of every scored hand of group ``group_id`` (every seat's
    rows, AI seats included), or the user's own seats (``user_id``: in every group, or in ``group_id``
    when both are given) — in each group's current season unless ``all_seasons``.  One snapshot.

    Read from the ledger (points, corrections, wins, 点炮, multiplier, 番), the hands' stored results
    (:data:`SELF_DRAW_RESULT`) and their stored events (:data:`DECLARED_EVENT`, through the partial
    index of migration 6), never recomputed.  Raises ValueError without a group or a user.
    """
    if group_id is None and user_id is None:
        raise ValueError("stats_rows needs a group or a user")
    async with _db(db).snapshot():
        seasons: dict[int, int] = {}
        if group_id is not None and not all_seasons:
            seasons[group_id] = await current_season(db, group_id)
        where, params = _stats_filter("l", group_id, user_id, seasons.get(group_id) if group_id is not None else None)
        ledger = await _rows(
            db,
            "SELECT l.hand_id, l.group_id, l.season, l.seat, l.user_id, l.kind, l.delta, l.hand_delta, "
            f"l.won, l.dealt_in, l.multiplier, l.fans FROM ledger l WHERE {where} ORDER BY l.hand_id, l.entry_id",
            params,
        )
        if group_id is None and not all_seasons:
            for gid in sorted({int(r[1]) for r in ledger}):
                seasons[gid] = await current_season(db, gid)
        names = await _rows(
            db,
            "SELECT u.user_id, u.first_name, u.last_name, u.username FROM users u "
            f"WHERE u.user_id IN (SELECT l.user_id FROM ledger l WHERE {where})",
            params,
        )
        self_drawn = await _rows(
            db,
            f"SELECT h.hand_id FROM hands h WHERE h.hand_id IN (SELECT l.hand_id FROM ledger l WHERE {where} "
            "AND l.won = 1) AND h.result LIKE ?",
            (*params, SELF_DRAW_RESULT),
        )
        declarations = await _rows(
            db,
            f"SELECT e.hand_id, e.data FROM events e WHERE e.hand_id IN (SELECT l.hand_id FROM ledger l WHERE {where}) "
            f"AND {DECLARED_EVENT}",
            params,
        )
        corrected = await _rows(
            db,
            "SELECT l.hand_id, l.seat, SUM(l.delta) FROM ledger l WHERE l.hand_id IN "
            f"(SELECT l.hand_id FROM ledger l WHERE {where} AND l.kind = 'correction') GROUP BY l.hand_id, l.seat",
            params,
        )
        options = await _rows(
            db,
            "SELECT t.table_id, t.options FROM tables t WHERE t.table_id IN "
            f"(SELECT l.table_id FROM ledger l WHERE {where})",
            params,
        )
    return StatsRows(
        _seat_hands(ledger, names, self_drawn, declarations, corrected, seasons),
        {int(r[0]): _options(r[1]) for r in options},
        seasons,
    )


def _options(text: str | None) -> dict[str, Any]:
    try:
        value = loads(text)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _declared_seats(declarations: Sequence[Sequence[Any]]) -> set[tuple[int, int]]:
    """``(hand_id, seat)`` of every declaring ``discarded`` event."""
    out = set()
    for hand_id, data in declarations:
        try:
            event = json.loads(data)
        except ValueError:
            continue
        if isinstance(event, dict) and event.get("liangdao") is True and isinstance(event.get("seat"), int):
            out.add((int(hand_id), event["seat"]))
    return out


def _seat_hands(
    ledger: Sequence[Sequence[Any]],
    names: Sequence[Sequence[Any]],
    self_drawn: Sequence[Sequence[Any]],
    declarations: Sequence[Sequence[Any]],
    corrected: Sequence[Sequence[Any]],
    seasons: dict[int, int],
) -> tuple[SeatHand, ...]:
    """The ledger rows (in entry order) as one :class:`SeatHand` per seat and hand, corrections added."""
    who = {int(r[0]): _name(r[1], r[2], r[3], int(r[0])) for r in names}
    drawn = {int(r[0]) for r in self_drawn}
    declared = _declared_seats(declarations)
    nets: dict[int, list[int]] = {}
    for hand_id, _seat, net in corrected:
        nets.setdefault(int(hand_id), []).append(int(net))
    voided = {h for h, seat_nets in nets.items() if not any(seat_nets)}
    seats: dict[tuple[int, int], SeatHand] = {}
    fixes: dict[tuple[int, int], int] = {}
    for hand_id, gid, season, seat, uid, kind, delta, hand_delta, won, dealt_in, multiplier, fans in ledger:
        if gid in seasons and season != seasons[gid]:
            continue
        key = (hand_id, seat)
        if kind != "hand":
            fixes[key] = fixes.get(key, 0) + delta
            continue
        seats[key] = SeatHand(
            hand_id, gid, season, seat, uid, "" if uid is None else who.get(uid, str(uid)), delta, hand_delta,
            bool(won), bool(dealt_in), multiplier, tuple(fans.split()) if fans else (), bool(won) and hand_id in drawn,
            key in declared, hand_id in voided,
        )  # fmt: skip
    return tuple(s._replace(points=s.points + fixes[k]) if k in fixes else s for k, s in seats.items())
