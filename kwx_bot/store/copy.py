"""``kwx-bot migrate-to-postgres``: copy an SQLite database into an empty PostgreSQL one, checked.

Everything is copied — users, groups and their settings, tables, seats, hands, events and the
ledger — with the same ids, so a restart on PostgreSQL resumes the open tables exactly where the
SQLite file left them.  The copy runs in one PostgreSQL transaction under the store's write lock and
commits only after its checks pass: every table holds as many rows as the file's, every hand's
ledger rows of each kind sum to zero, and every player's points per group and season are the
file's.  A target that already holds kwx rows is refused (nothing is merged or overwritten), and
so is a source whose ledger is not zero-sum.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import asyncpg

from . import Store
from .base import TABLES
from .postgres import WRITE_LOCK, PgStore
from .tx import StoreError

__all__ = ["CopyRefused", "CopyReport", "copy_to_postgres"]

_BATCH = 5000
_IDENTITIES = (("chats", "group_id"), ("tables", "table_id"), ("hands", "hand_id"), ("ledger", "entry_id"))
_NOT_ZERO_SUM = (
    "SELECT hand_id, kind, SUM(delta) FROM ledger GROUP BY hand_id, kind HAVING SUM(delta) <> 0 ORDER BY hand_id, kind"
)
_POINTS = "SELECT group_id, season, user_id, SUM(delta) FROM ledger GROUP BY group_id, season, user_id"


class CopyRefused(StoreError):
    """The copy was not made (a non-empty target, a source ledger that is not zero-sum) or was rolled
    back (a check failed); the message says which, in one line."""


@dataclass(frozen=True, slots=True)
class CopyReport:
    """What was copied: ``rows`` per table (equal in source and target), ``hands`` scored hands."""

    rows: dict[str, int]
    hands: int


def _points(rows: Sequence[Sequence[Any]]) -> list[tuple[int, int, int | None, int]]:
    return sorted(
        ((int(r[0]), int(r[1]), None if r[2] is None else int(r[2]), int(r[3])) for r in rows),
        key=lambda p: (p[0], p[1], -1 if p[2] is None else p[2]),
    )


async def copy_to_postgres(source: Store, target: PgStore) -> CopyReport:
    """Copy ``source`` (migrated to this kwx's schema) into ``target`` (migrated, empty).

    Raises :class:`CopyRefused` when the target holds rows, the source's ledger is not zero-sum, the
    two schemas differ, or a check after the copy fails (then nothing is committed)."""
    held = {name: n for name, n in (await _counts(target)).items() if n}
    if held:
        listed = ", ".join(f"{name} {n}" for name, n in held.items())
        raise CopyRefused(
            f"the PostgreSQL database at {target.path} already holds kwx data ({listed}); "
            "migrate-to-postgres copies into an empty database only — nothing was changed"
        )
    unbalanced = await source._rows(_NOT_ZERO_SUM)
    if unbalanced:
        which = ", ".join(str(r[0]) for r in unbalanced[:10])
        raise CopyRefused(f"the SQLite ledger is not zero-sum (hands {which}); nothing was copied")
    expected = await _counts(source)
    points = _points(await source._rows(_POINTS))
    async with target.connection() as conn, conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", WRITE_LOCK)
        for name in TABLES:
            info = await source._rows(f"PRAGMA table_info({name})")  # (cid, name, type, notnull, default, pk)
            columns = [str(r[1]) for r in info]
            key = [str(r[1]) for r in sorted((r for r in info if r[5]), key=lambda r: int(r[5]))]
            theirs = {
                str(r[0])
                for r in await conn.fetch(
                    "SELECT column_name FROM information_schema.columns "
                    "WHERE table_schema = current_schema() AND table_name = $1",
                    name,
                )
            }
            if set(columns) != theirs:
                raise CopyRefused(
                    f"table {name} has columns {sorted(columns)} in SQLite, {sorted(theirs)} in PostgreSQL"
                )
            await _copy_table(source, conn, name, columns, key)
        for name, column in _IDENTITIES:
            await conn.execute(
                f"SELECT setval(pg_get_serial_sequence('{name}', '{column}'), max({column})) FROM {name} "
                f"HAVING max({column}) IS NOT NULL"
            )
        copied = {name: int(await conn.fetchval(f"SELECT count(*) FROM {name}")) for name in TABLES}
        if copied != expected:
            raise CopyRefused(f"row counts differ after the copy (SQLite {expected}, PostgreSQL {copied}); rolled back")
        if await conn.fetch(_NOT_ZERO_SUM) or _points(await conn.fetch(_POINTS)) != points:
            raise CopyRefused("the copied ledger does not match the SQLite ledger; rolled back")
        hands = int(await conn.fetchval("SELECT count(DISTINCT hand_id) FROM ledger WHERE kind = 'hand'"))
    return CopyReport(copied, hands)


async def _counts(store: Store | PgStore) -> dict[str, int]:
    return {name: int(await store._scalar(f"SELECT count(*) FROM {name}")) for name in TABLES}


async def _copy_table(source: Store, conn: asyncpg.Connection, name: str, columns: list[str], key: list[str]) -> None:
    """Stream one table in primary-key order (the ledger's corrections after the rows they correct)."""
    async with source._db.execute(f"SELECT {', '.join(columns)} FROM {name} ORDER BY {', '.join(key)}") as cur:
        while batch := await cur.fetchmany(_BATCH):
            await conn.copy_records_to_table(name, records=[tuple(r) for r in batch], columns=columns)
