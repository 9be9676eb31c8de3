"""Ledger queries: the read-only SQL of the reports over a database built by the store's own
migrations, through the store's report methods too — on SQLite and PostgreSQL alike."""

from __future__ import annotations

import csv
import io
import sqlite3

import pytest

from engine.rules import RuleSet
from kwx_bot.service.calc import calc
from kwx_bot.store import LedgerRow, SqlStore
from kwx_bot.store.ledger_queries import (
    current_season,
    group_title,
    ledger_entries,
    open_readonly,
    recent_hands,
    season_hands,
    season_standings,
    user_standings,
)
from kwx_bot.words.i18n import translator
from kwx_bot.words.ledger_text import (
    format_history,
    format_standings,
    ledger_csv,
)

from .conftest import BACKENDS, BOT, open_backend

EN = translator("en")


async def _play(store: SqlStore, gid: int, tid: int, no: int, season: int, rows: list[tuple], result: dict) -> int:
    async with store.transaction() as tx:
        hid = await tx.start_hand(tid, no, 0, {"seed": no})
        ledger = [LedgerRow(hid, seat, uid, hd, kd, hd + kd, won=won, dealt_in=di, multiplier=m, fans=f)
                  for seat, uid, hd, kd, won, di, m, f in rows]  # fmt: skip
        await tx.record_ledger(gid, season, tid, ledger)
        await tx.finish_hand(hid, "over", result)
        await tx.set_status(tid, "between")
    return hid


def _calc_rows(text: str, seats: tuple[int | None, ...]) -> tuple[list[tuple], dict]:
    """Ledger rows for a win scored by the engine (via /calc): W = seat 0, D = seat 1."""
    r = calc(text, RuleSet())
    by = r.query.win_by.value
    rows = [
        (
            s,
            seats[s],
            r.score.deltas[s],
            0,
            s == 0,
            by != "self_draw" and s == 1,
            max(r.score.multiplier.values()) if s == 0 else 0,
            " ".join(r.score.fans) if s == 0 else "",
        )
        for s in range(3)
    ]
    result = {"winners": [{"seat": 0, "by": by, "baohu": r.score.baohu, "fans": list(r.score.fans)}]}
    return rows, result


async def _world(store: SqlStore):
    async with store.transaction() as tx:
        await tx.upsert_user(1, "Alice")
        await tx.upsert_user(2, "<b>Bob", "&Co")
        await tx.upsert_user(3, "", None, "carol")
        gid = await tx.ensure_group(-100, "Friends")
        other = await tx.ensure_group(-200, "Work")
        tid = await tx.create_table(gid, "standard", {}, 1, bot_id=BOT)
        tid2 = await tx.create_table(other, "standard", {}, 1, bot_id=BOT)
    seats = (1, 2, None)
    # Season 1: one 卡五星 on Bob's discard (the engine's numbers), then a 荒庄 with kong money.
    rows, result = _calc_rows("123p789p234s46s88s 5s discard", seats)
    await _play(store, gid, tid, 1, 1, rows, result)
    await _play(
        store,
        gid,
        tid,
        2,
        1,
        [(0, 1, 0, 4, False, False, 0, ""), (1, 2, 0, -2, False, False, 0, ""), (2, None, 0, -2, False, False, 0, "")],
        {"winners": []},
    )
    # Season 2: Bob's 龙七对 self-draw, Alice's 包胡 to Bob.
    async with store.transaction() as tx:
        await tx.set_setting(gid, "season", 2)
    rows, result = _calc_rows("1111p33p77p22s88s6z 6z self", (2, 1, None))
    await _play(store, gid, tid, 3, 2, rows, result)
    rows, result = _calc_rows("123p789p234s46s88s 5s discard liangdao", (1, 2, None))
    hid4 = await _play(store, gid, tid, 4, 2, rows, result)
    # A correction of hand 4 (compensating rows; the store has no API for it yet).
    async with store.transaction() as tx:
        for seat, uid, d in ((0, 1, -1), (1, 2, 1)):
            await tx._exec(
                "INSERT INTO ledger (group_id, season, table_id, hand_id, seat, user_id, hand_delta, kong_delta, "
                "delta, kind, corrects, created_at) VALUES (?, 2, ?, ?, ?, ?, ?, 0, ?, 'correction', NULL, ?)",
                (gid, tid, hid4, seat, uid, d, d, tx.now),
            )
    # Another group where Alice plays with Carol.
    rows, result = _calc_rows("123p456p234s78s99p 9s self", (3, 1, None))
    await _play(store, other, tid2, 1, 1, rows, result)
    async with store.reader() as db:  # SQLite: a read-only connection (open_readonly); PostgreSQL: pooled
        yield store, db, gid, other


@pytest.fixture(params=BACKENDS)
async def world(request, tmp_path):
    async for store in open_backend(request, tmp_path):
        async for built in _world(store):
            yield built


async def test_seasons_and_standings(world) -> None:
    _, db, gid, other = world
    assert await current_season(db, gid) == 2 and await current_season(db, other) == 1
    assert await group_title(db, gid) == "Friends" and await group_title(db, 999) == ""
    s1 = await season_standings(db, gid, 1)
    assert [(s.user_id, s.name, s.points, s.hands, s.wins, s.dealt_in, s.best_multiplier, s.best_fans)
            for s in s1] == [(1, "Alice", 6, 2, 1, 0, 2, ("卡五星",)), (None, "", -2, 2, 0, 0, 0, ()),
                             (2, "<b>Bob &Co", -4, 2, 0, 1, 0, ())]  # fmt: skip
    s2 = await season_standings(db, gid, 2)
    by = {s.user_id: s for s in s2}
    assert sum(s.points for s in s2) == 0
    assert by[2].points == 16 - 8 + 1 and by[2].best_multiplier == 8 and by[2].best_fans == ("龙七对",)
    assert by[1].points == -8 + 8 - 1 and by[1].best_fans == ("卡五星", "亮倒") and by[1].best_multiplier == 4
    assert by[2].dealt_in == 1 and by[None].hands == 2
    assert await season_hands(db, gid, 2) == 2 and await season_hands(db, gid, 3) == 0
    (page,) = format_standings(s2, EN, season=2, hands=2)
    assert "1. <b>&lt;b&gt;Bob &amp;Co</b> +9" in page


async def test_user_standings(world) -> None:
    _, db, _, _ = world
    mine = await user_standings(db, 1)
    assert [(g.title, g.season, g.rank, g.players, g.standing.points) for g in mine] == [
        ("Friends", 2, 2, 3, -1),
        ("Work", 1, 2, 3, -1),  # tied with the AI seats: same rank
    ]
    carol = await user_standings(db, 3)
    assert [(g.title, g.standing.name, g.rank) for g in carol] == [("Work", "carol", 1)]
    assert await user_standings(db, 99) == []


async def test_recent_hands(world) -> None:
    _, db, gid, _ = world
    hands = await recent_hands(db, gid, 10)
    assert [h.hand_no for h in hands] == [4, 3, 2, 1]
    h4 = hands[0]
    assert h4.season == 2 and h4.winners[0].by == "discard" and h4.winners[0].baohu
    assert [(s.delta, s.correction) for s in h4.seats] == [(8, -1), (-8, 1), (0, 0)]
    assert hands[2].winners == () and [s.kong_delta for s in hands[2].seats] == [4, -2, -2]
    assert [h.hand_no for h in await recent_hands(db, gid, 2)] == [4, 3]
    assert [h.hand_no for h in await recent_hands(db, gid, 10, season=1)] == [2, 1]
    pages = format_history(hands, EN)
    assert "Alice wins on &lt;b&gt;Bob &amp;Co's discard" in pages[0] and "pays for all (包胡)" in pages[0]


async def test_ledger_entries_and_export(world) -> None:
    _, db, gid, _ = world
    entries = await ledger_entries(db, gid)
    assert len(entries) == 4 * 3 + 2
    assert [e.entry_id for e in entries] == sorted(e.entry_id for e in entries)
    assert sum(e.delta for e in entries) == 0
    assert {e.kind for e in entries} == {"hand", "correction"}
    assert len(await ledger_entries(db, gid, season=1)) == 6
    rows = list(csv.reader(io.StringIO(ledger_csv(entries, EN).decode("utf-8-sig"))))
    assert len(rows) == 15 and rows[1][8] == "Alice"


@pytest.mark.parametrize("world", ["sqlite"], indirect=True)
async def test_the_report_connection_is_read_only(world) -> None:
    store, db, gid, _ = world
    with pytest.raises(sqlite3.OperationalError):
        await db.execute("DELETE FROM settings")
    # The store's own connection works too (no read transaction is opened on it).
    assert [s.user_id for s in await season_standings(store._db, gid, 1)] == [1, None, 2]
    assert len(await user_standings(store._db, 1)) == 2
    with pytest.raises(sqlite3.OperationalError):
        await open_readonly(store.path + ".missing")
