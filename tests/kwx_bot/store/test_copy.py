"""``kwx-bot migrate-to-postgres``: an SQLite ledger with open and closed tables, corrections and a
migrated group arrives whole in PostgreSQL (every read of the store answers the same), checked, and
the bot's next writes get fresh ids; a non-empty target and an unbalanced source are refused."""

from __future__ import annotations

import sqlite3

from kwx_bot.store import LedgerRow, PgStore, Store
from kwx_bot.store.base import TABLES

from .conftest import BOT
from .test_store import _cli, _env


async def _ledger_file(path) -> dict[str, int]:
    """An SQLite database with a scored and corrected hand at a closed table and a hand in play at
    an open one; returns its ids."""
    store = await Store.open(path)
    try:
        async with store.transaction() as tx:
            for uid, name in ((1, "Ann"), (2, "Ben"), (7_000_000_000, "Cat")):
                await tx.upsert_user(uid, name)
            await tx.set_can_pm(1, True, bot_id=BOT)
            gid = await tx.ensure_group(-5, "friends")
            await tx.set_setting(gid, "language", "en")
            closed = await tx.create_table(gid, "standard", {"discard_seconds": 20}, 1, bot_id=BOT)
            for seat, uid in enumerate((1, 2, 7_000_000_000)):
                await tx.sit(closed, seat, user_id=uid)
            hid = await tx.start_hand(closed, 1, 0, {"seed": "a"})
            await tx.append_events(closed, hid, 0, [("dealt", {"dealer": 0}, None), ("discarded", {"seat": 0}, 1)])
            await tx.record_ledger(gid, 1, closed, [
                LedgerRow(hid, 0, 1, 8, 2, 10, won=True, multiplier=4, fans="卡五星"),
                LedgerRow(hid, 1, 2, -8, -1, -9, dealt_in=True), LedgerRow(hid, 2, 7_000_000_000, 0, -1, -1),
            ])  # fmt: skip
            await tx.finish_hand(hid, "over", {"winners": [{"seat": 0, "by": "discard"}]})
            await tx.set_status(closed, "closed", "done")
        async with store.transaction() as tx:
            await tx.record_correction(hid, {0: -2, 1: 2})
            await tx.migrate_chat(-5, -1_005)
            table = await tx.create_table(gid, "standard", {}, 2, bot_id=BOT)
            await tx.sit(table, 0, user_id=1)
            await tx.sit(table, 1, user_id=2)
            await tx.sit(table, 2, ai_level="normal")
            playing = await tx.start_hand(table, 1, 1, {"seed": "b"})
            await tx.append_events(table, playing, 0, [("dealt", {"dealer": 1}, None)])
            await tx.set_deadline(table, 1234.5, 1, "turn")
            await tx.set_last_press(table, 0, "d:5s")
        return {"group": gid, "closed": closed, "table": table, "hand": hid, "playing": playing}
    finally:
        await store.close()


async def _everything(store, ids: dict[str, int]) -> list:
    gid = ids["group"]
    return [
        await store.get_user(1, bot_id=BOT), await store.get_user(7_000_000_000, bot_id=BOT),
        await store.group_id_for_chat(-5),
        await store.group_id_for_chat(-1_005), await store.group_settings(gid), await store.open_tables(bot_id=BOT),
        await store.get_table(ids["closed"]), await store.seats(ids["table"]), await store.seats(ids["closed"]),
        await store.open_seat_of_user(1, bot_id=BOT), await store.current_hand(ids["table"]),
        await store.hands_numbered(gid),
        await store.hand_events(ids["hand"]), await store.hand_events(ids["playing"]),
        await store.ledger_of_table(ids["closed"]), await store.season_report(gid), await store.user_standings(2),
        await store.recent_hands(gid, 5), await store.ledger_entries(gid), await store.hand_void_state(ids["hand"]),
        await store.scored_hands_numbered(gid, 1), await store.counts(),
    ]  # fmt: skip


async def test_the_copy_holds_everything_and_the_bot_writes_on(tmp_path, postgres_url):
    path = tmp_path / "kwx.sqlite3"
    ids = await _ledger_file(path)
    code, out, err = await _cli(
        ["migrate-to-postgres", "--sqlite", str(path)], _env({"KWX_DATABASE_URL": postgres_url})
    )
    assert code == 0, err
    assert "rows (equal in both): users 3, chats 1, chat_aliases 1, settings 1, tables 2, seats 6, hands 2" in out
    assert "ledger: zero-sum over 1 scored hands" in out
    code, out, err = await _cli(["check-db"], _env({"KWX_DATABASE_URL": postgres_url}))
    assert code == 0, err
    assert "integrity: ok (ledger zero-sum per hand)" in out and "rows: users 3, chats 1, tables 2" in out
    assert "open tables: 1" in out
    sqlite, pg = await Store.open(path), await PgStore.open(postgres_url)
    try:
        assert await _everything(pg, ids) == await _everything(sqlite, ids)
        async with pg.transaction() as tx:  # new rows get ids after the copied ones
            assert await tx.ensure_group(-77, "new") == ids["group"] + 1
            assert await tx.create_table(ids["group"] + 1, "standard", {}, None, bot_id=BOT) == ids["table"] + 1
            assert (await tx.record_correction(ids["hand"], {0: 1, 2: -1}))[0] > 0
        assert await pg.integrity_check() == ["ok"]
    finally:
        await sqlite.close()
        await pg.close()


async def test_a_target_with_kwx_rows_is_refused_and_left_alone(tmp_path, postgres_url):
    path = tmp_path / "kwx.sqlite3"
    await _ledger_file(path)
    env = _env({"KWX_DATABASE_URL": postgres_url})
    assert (await _cli(["migrate-to-postgres", "--sqlite", str(path)], env))[0] == 0
    pg = await PgStore.open(postgres_url)
    try:
        before = {name: await pg._scalar(f"SELECT count(*) FROM {name}") for name in TABLES}
        code, out, err = await _cli(["migrate-to-postgres", "--sqlite", str(path)], env)
        assert code == 1 and out == ""
        assert err.count("\n") == 1 and "Traceback" not in err
        assert "already holds kwx data (users 3, chats 1," in err and "copies into an empty database only" in err
        assert {name: await pg._scalar(f"SELECT count(*) FROM {name}") for name in TABLES} == before
    finally:
        await pg.close()


async def test_an_unbalanced_sqlite_ledger_is_not_copied(tmp_path, postgres_url):
    path = tmp_path / "kwx.sqlite3"
    ids = await _ledger_file(path)
    with sqlite3.connect(path) as db:  # a row written past the store's zero-sum check
        db.execute(
            "INSERT INTO ledger (group_id, season, table_id, hand_id, seat, user_id, hand_delta, kong_delta, delta, "
            "kind, created_at) VALUES (?, 1, ?, ?, 0, 1, 5, 0, 5, 'correction', 0)",
            (ids["group"], ids["closed"], ids["hand"]),
        )
    code, _out, err = await _cli(
        ["migrate-to-postgres", "--sqlite", str(path)], _env({"KWX_DATABASE_URL": postgres_url})
    )
    assert code == 1 and f"the SQLite ledger is not zero-sum (hands {ids['hand']})" in err
    pg = await PgStore.open(postgres_url)
    try:
        assert sum((await pg.counts()).values()) == 0
    finally:
        await pg.close()


async def test_the_command_needs_a_postgresql_url_and_a_file(tmp_path):
    code, _out, err = await _cli(["migrate-to-postgres", "--sqlite", str(tmp_path / "x.sqlite3")], _env({}))
    assert code == 2 and "set KWX_DATABASE_URL or pass --to" in err
    code, _out, err = await _cli(["migrate-to-postgres", "--to", "mysql://x/y"], _env({}))
    assert code == 2 and "must be a postgresql://" in err
    code, _out, err = await _cli(
        ["migrate-to-postgres", "--sqlite", str(tmp_path / "missing.sqlite3"), "--to", "postgresql://u@127.0.0.1/d"],
        _env({}),
    )
    assert code == 1 and "no SQLite database at" in err
