"""Read-only ledger queries for ``/score``, ``/score me``, ``/history``, ``/settle`` and ``/export``.

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
from .rows import GroupStanding, HandRecord, LedgerEntry, SeatResult, Standing

__all__ = [
    "GroupStanding",
    "HandRecord",
    "LedgerEntry",
    "SeatResult",
    "Standing",
    "current_season",
    "group_title",
    "hand_void_state",
    "ledger_entries",
    "open_readonly",
    "recent_hands",
    "scored_hands_numbered",
    "season_hands",
    "season_standings",
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
    SELECT user_id, multiplier, fans FROM (
        SELECT user_id, multiplier, fans,
               ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY multiplier DESC, hand_delta DESC, entry_id)
                   AS n
        FROM season_rows WHERE kind = 'hand' AND won = 1
    ) ranked WHERE n = 1
)
SELECT t.user_id, u.first_name, u.last_name, u.username, t.points, t.hands, t.wins, t.dealt_in,
       coalesce(b.multiplier, 0), coalesce(b.fans, '')
FROM totals t
LEFT JOIN best b ON b.user_id IS NOT DISTINCT FROM t.user_id
LEFT JOIN users u ON u.user_id = t.user_id
ORDER BY t.points DESC, t.wins DESC, t.dealt_in ASC, t.user_id IS NULL, t.user_id
"""


async def season_standings(db: Conn, group_id: int, season: int) -> list[Standing]:
    """Every party with a ledger row in the group's ``season``, most points first."""
    rows = await _rows(db, _STANDINGS_SQL, (group_id, season))
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
