"""What ``/stats`` reads (:func:`kwx_bot.store.ledger_queries.stats_rows`): a group's or a user's
seats of scored hands, with what the hands' stored results and events say of them — on SQLite and
PostgreSQL alike."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

from kwx_bot.store import SCHEMA_VERSION, LedgerRow, SeatHand, SqlStore, Store
from kwx_bot.store.db import PgDb
from kwx_bot.store.ledger_queries import DECLARED_EVENT

from .conftest import BACKENDS, BOT, open_backend

ANN, BEN = 1, 2


def _discard(seq: int, seat: int, tile: str, liangdao: bool = False) -> dict[str, Any]:
    return {"seq": seq, "type": "discarded", "seat": seat, "tile": tile, "liangdao": liangdao,
            "waits": "5s" if liangdao else "", "auto": False}  # fmt: skip


def _win(seat: int, by: str, from_seat: int | None) -> dict[str, Any]:
    return {"seat": seat, "by": by, "from_seat": from_seat, "fans": [], "multiplier": {}, "baohu": False}


async def _hand(
    store: SqlStore,
    gid: int,
    tid: int,
    season: int,
    seats: tuple[int | None, ...],
    deltas: tuple[tuple[int, int], ...],
    *,
    winners: tuple[dict[str, Any], ...] = (),
    declared: tuple[int, ...] = (),
    fans: dict[int, str] | None = None,
) -> int:
    """One scored hand: its events (two discards, one declaring per seat in ``declared``), its
    result, its ledger rows (``deltas``: (hand, kong) per seat)."""
    fans = fans or {}
    async with store.transaction() as tx:
        table = await store.get_table(tid)
        no = table.hand_no + 1
        hid = await tx.start_hand(tid, no, 0, {"seed": str(no)})
        events = [("discarded", _discard(1, 0, "1p")), ("discarded", _discard(2, 1, "2p"))]
        events += [("discarded", _discard(3 + i, s, "9s", liangdao=True)) for i, s in enumerate(declared)]
        seq = await tx.append_events(tid, hid, table.seq, [(k, d, None) for k, d in events])
        assert seq > table.seq
        won = {w["seat"] for w in winners}
        dealt = {w["from_seat"] for w in winners if w["by"] != "self_draw"}
        await tx.record_ledger(gid, season, tid, [
            LedgerRow(hid, s, uid, h, k, h + k, won=s in won, dealt_in=s in dealt,
                      multiplier=4 if s in won else 0, fans=fans.get(s, ""))
            for s, (uid, (h, k)) in enumerate(zip(seats, deltas, strict=True))
        ])  # fmt: skip
        await tx.finish_hand(hid, "over", {"outcome": "win" if winners else "draw", "winners": list(winners)})
        await tx.set_status(tid, "between")
    return hid


@pytest.fixture(params=BACKENDS)
async def world(request, tmp_path):
    """Group "Friends" (season 1 then 2) and group "Work", where Ann plays with Ben and an AI seat."""
    async for store in open_backend(request, tmp_path):
        async with store.transaction() as tx:
            await tx.upsert_user(ANN, "Ann")
            await tx.upsert_user(BEN, "Ben", "B.")
            gid = await tx.ensure_group(-100, "Friends")
            work = await tx.ensure_group(-200, "Work")
            tid = await tx.create_table(gid, "standard", {"game": "kawuxing", "seats": 3}, ANN, bot_id=BOT)
        seats = (ANN, BEN, None)
        ids = {
            # 1: Ann self-draws after her 亮倒 (the 亮倒 doubles: her win lists it)
            "self": await _hand(store, gid, tid, 1, seats, ((8, 0), (-4, 0), (-4, 0)),
                                winners=(_win(0, "self_draw", None),), declared=(0,), fans={0: "碰碰胡 亮倒"}),
            # 2: Ben wins on Ann's discard; kong money to Ann
            "ron": await _hand(store, gid, tid, 1, seats, ((-2, 2), (2, -1), (0, -1)),
                               winners=(_win(1, "discard", 0),), fans={1: "卡五星"}),
            # 3: voided by /void: Ann's win cancelled
            "void": await _hand(store, gid, tid, 1, seats, ((16, 0), (-8, 0), (-8, 0)),
                                winners=(_win(0, "self_draw", None),), fans={0: "清一色"}),
            # 4: a draw (荒庄) after Ben's declaration, then a partial correction
            "draw": await _hand(store, gid, tid, 1, seats, ((0, 0), (0, 0), (0, 0)), declared=(1,)),
        }  # fmt: skip
        async with store.transaction() as tx:
            await tx.reverse_hand(ids["void"])
            await tx.record_correction(ids["draw"], {0: 3, 1: -3})
            await tx.set_setting(gid, "season", 2)
        ids["next"] = await _hand(store, gid, tid, 2, seats, ((-1, 0), (2, 0), (-1, 0)),
                                  winners=(_win(1, "discard", 0),))  # fmt: skip
        async with store.transaction() as tx:
            await tx.set_status(tid, "closed")
            other = await tx.create_table(work, {"preset": "kaxinwu"}, {"game": "kaxinwu", "seats": 3}, ANN, bot_id=BOT)
        ids["work"] = await _hand(store, work, other, 1, (None, ANN, None), ((-2, 0), (4, 0), (-2, 0)),
                                  winners=(_win(1, "self_draw", None),), declared=(1,))  # fmt: skip
        yield store, gid, work, tid, other, ids


def _by_hand(rows: tuple[SeatHand, ...]) -> dict[tuple[int, int], SeatHand]:
    return {(r.hand_id, r.seat): r for r in rows}


async def test_a_groups_current_season_is_every_seat_of_its_hands(world) -> None:
    store, gid, _work, tid, _other, ids = world
    got = await store.stats_rows(group_id=gid)
    assert got.seasons == {gid: 2} and got.options == {tid: {"game": "kawuxing", "seats": 3}}
    assert got.seats == (
        SeatHand(ids["next"], gid, 2, 0, ANN, "Ann", -1, -1, dealt_in=True),
        SeatHand(ids["next"], gid, 2, 1, BEN, "Ben B.", 2, 2, won=True, multiplier=4),
        SeatHand(ids["next"], gid, 2, 2, None, "", -1, -1),
    )


async def test_every_season_counts_results_declarations_kong_money_and_corrections(world) -> None:
    store, gid, _work, _tid, _other, ids = world
    got = await store.stats_rows(group_id=gid, all_seasons=True)
    assert got.seasons == {}
    assert [(r.hand_id, r.seat) for r in got.seats] == [(h, s) for h in sorted(ids.values())[:5] for s in range(3)]
    rows = _by_hand(got.seats)
    self_draw = rows[ids["self"], 0]
    assert (self_draw.won, self_draw.self_draw, self_draw.declared, self_draw.fans) == (
        True,
        True,
        True,
        ("碰碰胡", "亮倒"),
    )
    assert not rows[ids["self"], 1].declared and not rows[ids["self"], 1].self_draw
    ron = rows[ids["ron"], 1]
    assert (ron.won, ron.self_draw, ron.points, ron.hand_points) == (True, False, 1, 2)
    assert rows[ids["ron"], 0].dealt_in and rows[ids["ron"], 0].points == 0  # -2 for the hand, +2 kong money
    assert all(rows[ids["void"], s].voided and rows[ids["void"], s].points == 0 for s in range(3))
    assert not any(r.voided for r in got.seats if r.hand_id != ids["void"])
    draw = [rows[ids["draw"], s] for s in range(3)]
    assert [(r.points, r.declared, r.won) for r in draw] == [(3, False, False), (-3, True, False), (0, False, False)]


async def test_a_users_record_across_groups_takes_each_groups_current_season(world) -> None:
    store, gid, work, tid, other, ids = world
    got = await store.stats_rows(user_id=ANN)
    assert got.seasons == {gid: 2, work: 1}
    assert [(r.hand_id, r.group_id, r.seat, r.points) for r in got.seats] == [
        (ids["next"], gid, 0, -1), (ids["work"], work, 1, 4),
    ]  # fmt: skip
    work_row = got.seats[1]
    assert work_row.self_draw and work_row.declared and work_row.name == "Ann"
    assert got.options == {tid: {"game": "kawuxing", "seats": 3}, other: {"game": "kaxinwu", "seats": 3}}
    every = await store.stats_rows(user_id=ANN, all_seasons=True)
    assert len(every.seats) == 6 and {r.user_id for r in every.seats} == {ANN}
    in_group = await store.stats_rows(user_id=ANN, group_id=gid, all_seasons=True)
    assert [r.hand_id for r in in_group.seats] == sorted(ids.values())[:5]
    assert await store.stats_rows(user_id=99) == type(got)((), {}, {})


async def test_the_declarations_are_read_through_their_partial_index(world) -> None:
    store, gid, *_ = world
    sql = (
        "SELECT e.hand_id, e.data FROM events e WHERE e.hand_id IN "
        f"(SELECT l.hand_id FROM ledger l WHERE l.group_id = ?) AND {DECLARED_EVENT}"
    )
    async with store.reader() as db:
        if isinstance(db, PgDb):  # a table this small is read whole unless told otherwise
            await db.execute("SET enable_seqscan = off")
            plan = "\n".join(str(r[0]) for r in await db.fetch("EXPLAIN " + sql, (gid,)))
            await db.execute("RESET enable_seqscan")
        else:
            async with db.execute("EXPLAIN QUERY PLAN " + sql, (gid,)) as cur:
                plan = "\n".join(str(r[-1]) for r in await cur.fetchall())
    assert "events_declared" in plan


async def test_without_a_group_or_a_user_it_refuses(world) -> None:
    store, *_ = world
    with pytest.raises(ValueError, match="a group or a user"):
        await store.stats_rows()


@pytest.mark.parametrize("world", ["sqlite"], indirect=True)
async def test_a_version_6_database_gets_the_index_of_its_declarations(world) -> None:
    store, gid, *_ = world
    before = await store.stats_rows(group_id=gid, all_seasons=True)
    await store.close()
    with sqlite3.connect(store.path) as db:  # as the release before this one left it
        db.execute("DROP TABLE group_writes")  # and what came after version 6
        db.execute("ALTER TABLE seats DROP COLUMN reminder_msg_id")
        db.execute("ALTER TABLE seats DROP COLUMN reminder_seq")
        db.execute("DROP INDEX events_declared")
        db.execute("PRAGMA user_version = 6")
    again = await Store.open(store.path)
    try:
        assert await again.migrate() == [] and await again.schema_version() == SCHEMA_VERSION
        assert await again._scalar("SELECT count(*) FROM sqlite_master WHERE name = 'events_declared'") == 1
        assert await again.stats_rows(group_id=gid, all_seasons=True) == before
    finally:
        await again.close()


async def test_history_knows_who_declared(world) -> None:
    # /history names whose 亮倒 a win's 亮倒 番 stands for (a payer's doubles only that payer)
    store, gid, _work, _tid, _other, ids = world
    hands = {h.hand_id: h for h in await store.recent_hands(gid, 10)}
    assert [s.declared for s in hands[ids["self"]].seats] == [True, False, False]
    assert [s.declared for s in hands[ids["draw"]].seats] == [False, True, False]
    assert [s.declared for s in hands[ids["ron"]].seats] == [False, False, False]


async def test_the_best_win_of_score_knows_whose_lay_down_it_was(world) -> None:
    # /score's "best ×4 Laid down" read as the winner's own 亮倒; the best win comes with its hand,
    # read as /history reads it (the declaring discards), so the words can name Ann
    store, _gid, _work, _tid, _other, _ids = world
    async with store.transaction() as tx:
        group = await tx.ensure_group(-300, "Lay-downs")
        table = await tx.create_table(group, "standard", {"game": "kawuxing", "seats": 3}, ANN, bot_id=BOT)
    hid = await _hand(store, group, table, 1, (ANN, None, BEN), ((-4, 0), (8, 0), (-4, 0)),
                      winners=(_win(1, "self_draw", None),), declared=(0,), fans={1: "亮倒"})  # fmt: skip
    report = await store.season_report(group)
    best = {s.user_id: s for s in report.standings}[None]
    assert best.best_multiplier == 4 and best.best_fans == ("亮倒",) and best.best_seat == 1
    assert best.best_hand is not None and best.best_hand.hand_id == hid
    assert [(s.seat, s.name, s.declared, s.won) for s in best.best_hand.seats] == [
        (0, "Ann", True, False), (1, "", False, True), (2, "Ben B.", False, False),
    ]  # fmt: skip
    assert {s.user_id: s.best_hand for s in report.standings}[ANN] is None
