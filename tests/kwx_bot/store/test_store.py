"""The store: migrations, pragmas, transactions, uniqueness rules, append-only logs — the contract on
SQLite and PostgreSQL alike (the ``store`` fixture, tests/kwx_bot/store/conftest.py); a database
that is not ours, or cannot be created, is one clear line (no traceback, no hang)."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import sys
import threading
import time

import aiosqlite
import pytest

from kwx_bot.store import SCHEMA_VERSION, Conflict, LedgerRow, StaleSeq, Store, StoreError
from kwx_bot.store import migrations as mig
from kwx_bot.store.db import INTEGRITY_ERRORS

from .conftest import BOT

SQLITE_ONLY = pytest.mark.parametrize("store", ["sqlite"], indirect=True)


async def _group_with_table(store: Store, chat_id: int = -100) -> tuple[int, int]:
    async with store.transaction() as tx:
        gid = await tx.ensure_group(chat_id, "friends")
        tid = await tx.create_table(gid, "standard", {}, None, bot_id=BOT)
    return gid, tid


async def test_open_applies_all_migrations_and_pragmas(tmp_path):
    path = tmp_path / "sub" / "dir" / "kwx.sqlite3"
    store = await Store.open(path)
    try:
        assert path.exists()
        assert await store.schema_version() == SCHEMA_VERSION
        assert await store._scalar("PRAGMA journal_mode") == "wal"
        assert await store._scalar("PRAGMA foreign_keys") == 1
        assert await store._scalar("PRAGMA synchronous") == 1  # NORMAL
        assert await store.integrity_check() == ["ok"]
        assert await store.migrate() == []  # idempotent
    finally:
        await store.close()


async def test_join_tokens_are_random_and_an_old_database_gets_them_for_its_open_tables(tmp_path):
    path = tmp_path / "v1.sqlite3"
    with sqlite3.connect(path) as db:  # a version-1 database with a closed and an open table
        for statement in mig.sql_for(mig.MIGRATIONS[0], "sqlite"):
            db.execute(statement)
        db.execute("PRAGMA user_version = 1")
        db.execute("INSERT INTO chats (group_id, chat_id, title, created_at) VALUES (1, -5, 'g', 0)")
        for status in ("closed", "lobby"):
            db.execute(
                "INSERT INTO tables (group_id, status, rules, created_at, updated_at) "
                "VALUES (1, ?, '\"standard\"', 0, 0)",
                (status,),
            )
    store = await Store.open(path)
    try:
        closed, lobby = await store.get_table(1), await store.get_table(2)
        assert closed.join_token is None
        assert len(lobby.join_token) == 24 and int(lobby.join_token, 16) >= 0
        async with store.transaction() as tx:
            await tx.set_status(2, "closed", "test")
        _, third = await _group_with_table(store, -6)
        _, fourth = await _group_with_table(store, -7)
        tokens = {lobby.join_token} | {(await store.get_table(t)).join_token for t in (third, fourth)}
        assert len(tokens) == 3  # one secret per table, never derived from the id
    finally:
        await store.close()


async def test_newer_schema_is_refused(tmp_path):
    path = tmp_path / "kwx.sqlite3"
    async with aiosqlite.connect(path) as db:
        await db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
        await db.commit()
    with pytest.raises(StoreError, match="newer"):
        await Store.open(path)


async def test_failing_migration_rolls_back_ddl_and_version(tmp_path, monkeypatch):
    broken = (*mig.MIGRATIONS, ("CREATE TABLE extra (x INTEGER)", "THIS IS NOT SQL"))
    monkeypatch.setattr("kwx_bot.store.MIGRATIONS", broken)
    monkeypatch.setattr("kwx_bot.store.SCHEMA_VERSION", len(broken))
    path = tmp_path / "kwx.sqlite3"
    with pytest.raises(sqlite3.OperationalError):
        await Store.open(path)
    monkeypatch.undo()
    store = await Store.open(path)
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        assert await store._scalar("SELECT count(*) FROM sqlite_master WHERE name = 'extra'") == 0
    finally:
        await store.close()


async def test_transaction_rolls_back_everything_on_error(store):
    with pytest.raises(RuntimeError):
        async with store.transaction() as tx:
            await tx.upsert_user(1, "Ann")
            raise RuntimeError("boom")
    assert await store.get_user(1, bot_id=BOT) is None


@pytest.mark.parametrize("store", ["sqlite"], indirect=True)
async def test_sqlite_holds_a_transactions_writes_back_to_one_trip_with_its_commit(store, monkeypatch):
    """The BEGIN, the writes nobody reads the result of and the checks go to aiosqlite's thread with
    the next read or the COMMIT, in order (kwx_bot/store/db.py ``SqliteDb``): a move is one trip,
    not one per statement."""
    _, tid = await _group_with_table(store)
    trips = []
    execute = store._db._execute

    async def counted(fn, *args, **kwargs):
        trips.append(getattr(fn, "__name__", "?"))
        return await execute(fn, *args, **kwargs)

    async with store.transaction() as tx:
        hid = await tx.start_hand(tid, 1, 0, {"seed": "x"})
    monkeypatch.setattr(store._db, "_execute", counted)
    async with store.transaction() as tx:
        await tx.set_messages(tid, lobby_msg_id=11)
        await tx.set_deadline(tid, 1234.5, 3, "turn")
        seq = await tx.append_events(tid, hid, 0, [("deal", {"a": 1}, None)])  # its check of the seq too
        assert seq == 1 and trips == []  # the BEGIN, the writes and the check are held back
        assert await tx._scalar("SELECT seq FROM tables WHERE table_id = ?", (tid,)) == 1  # a read: after them
        assert trips == ["_held_then_fetch"]
        await tx.set_next_deal(tid, {"seed": "abc"})
    assert trips == ["_held_then_fetch", "_held_then_commit"]  # the rest and the COMMIT: two trips in all
    t = await store.get_table(tid)
    assert (t.lobby_msg_id, t.deadline_at, t.seq, t.next_deal) == (11, 1234.5, 1, {"seed": "abc"})


@pytest.mark.parametrize("store", ["sqlite"], indirect=True)
async def test_sqlite_a_held_write_that_fails_at_the_commit_rolls_the_whole_transaction_back(store):
    with pytest.raises(sqlite3.IntegrityError):
        async with store.transaction() as tx:
            await tx.upsert_user(1, "Ann")
            await tx._exec("INSERT INTO seats (table_id, seat, joined_at) VALUES (999999, 0, 0)")  # no such table
    assert await store.get_user(1, bot_id=BOT) is None
    async with store.transaction() as tx:  # no transaction was left open
        await tx.upsert_user(2, "Ben")
    assert (await store.get_user(2, bot_id=BOT)).first_name == "Ben"


async def test_concurrent_transactions_do_not_interleave(store):
    # Task A writes then fails after yielding; task B commits meanwhile: A's write must not survive.
    started = asyncio.Event()

    async def a():
        with pytest.raises(RuntimeError):
            async with store.transaction() as tx:
                await tx.upsert_user(1, "A")
                started.set()
                await asyncio.sleep(0.01)
                raise RuntimeError("abort A")

    async def b():
        await started.wait()
        async with store.transaction() as tx:
            await tx.upsert_user(2, "B")

    await asyncio.gather(a(), b())
    assert await store.get_user(1, bot_id=BOT) is None
    assert (await store.get_user(2, bot_id=BOT)).first_name == "B"


async def test_users_upsert_keeps_can_pm_and_language(store):
    async with store.transaction() as tx:
        await tx.upsert_user(7, "Ann", "Lee", "ann", "zh-hans")
        await tx.set_can_pm(7, True, bot_id=BOT)
        await tx.upsert_user(7, "Annie", None, None, None)
    user = await store.get_user(7, bot_id=BOT)
    assert user.first_name == "Annie" and user.can_pm and user.language_code == "zh-hans"
    assert user.display_name == "Annie"


async def test_group_migration_keeps_group_id_and_alias(store):
    async with store.transaction() as tx:
        gid = await tx.ensure_group(-5, "old")
        await tx.set_setting(gid, "language", "en")
    async with store.transaction() as tx:
        assert await tx.migrate_chat(-5, -1005) == gid
        assert await tx.migrate_chat(-5, -1005) == gid  # idempotent
    assert await store.group_id_for_chat(-1005) == gid
    assert await store.group_id_for_chat(-5) == gid
    assert await store.chat_id_for_group(gid) == -1005
    assert await store.group_settings(gid) == {"language": "en"}
    async with store.transaction() as tx:
        assert await tx.ensure_group(-5) == gid  # an old id still maps to the same group


async def test_one_open_table_per_group(store):
    gid, tid = await _group_with_table(store)
    with pytest.raises(Conflict) as err:
        async with store.transaction() as tx:
            await tx.create_table(gid, "standard", {}, None, bot_id=BOT)
    assert err.value.what == "open_table"
    async with store.transaction() as tx:
        await tx.set_status(tid, "closed", "test")
        assert await tx.create_table(gid, "standard", {}, None, bot_id=BOT) != tid
    assert (await store.open_table_of_group(gid, bot_id=BOT)).status == "lobby"


async def test_a_user_sits_at_one_open_table(store):
    _, t1 = await _group_with_table(store, -1)
    _, t2 = await _group_with_table(store, -2)
    async with store.transaction() as tx:
        await tx.upsert_user(9, "Bo")
        await tx.sit(t1, 0, user_id=9)
    with pytest.raises(Conflict) as err:
        async with store.transaction() as tx:
            await tx.sit(t2, 0, user_id=9)
    assert err.value.what == "seated"
    with pytest.raises(Conflict) as err:
        async with store.transaction() as tx:
            await tx.sit(t1, 0, ai_level="easy")
    assert err.value.what == "seat_taken"
    assert (await store.open_seat_of_user(9, bot_id=BOT)).table_id == t1
    async with store.transaction() as tx:
        await tx.set_status(t1, "closed")
        await tx.sit(t2, 1, user_id=9)
    assert (await store.open_seat_of_user(9, bot_id=BOT)).table_id == t2


async def test_events_are_keyed_by_seq_and_append_only(store):
    _, tid = await _group_with_table(store)
    async with store.transaction() as tx:
        hid = await tx.start_hand(tid, 1, 0, {"seed": "x"})
        seq = await tx.append_events(tid, hid, 0, [("deal", {"a": 1}, None), ("draw", {"b": 2}, 5)])
    assert seq == 2
    with pytest.raises(StaleSeq):
        async with store.transaction() as tx:
            await tx.append_events(tid, hid, 1, [("discard", {}, 5)])  # a double tap with an old seq
    events = await store.hand_events(hid)
    assert [(e.seq, e.kind, e.data, e.actor) for e in events] == [(1, "deal", {"a": 1}, None), (2, "draw", {"b": 2}, 5)]
    for sql in ("UPDATE events SET kind = 'x'", "DELETE FROM events"):
        with pytest.raises(INTEGRITY_ERRORS, match="append-only"):
            async with store.transaction() as tx:
                await tx._exec(sql)
    table = await store.get_table(tid)
    assert table.seq == 2 and table.status == "playing" and table.hand_no == 1


async def test_ledger_zero_sum_and_append_only(store):
    gid, tid = await _group_with_table(store)
    async with store.transaction() as tx:
        hid = await tx.start_hand(tid, 1, 0, {"seed": "x"})
    bad = [LedgerRow(hid, 0, None, 2, 0, 2), LedgerRow(hid, 1, None, -1, 0, -1), LedgerRow(hid, 2, None, 0, 0, 0)]
    with pytest.raises(StoreError, match="zero"):
        async with store.transaction() as tx:
            await tx.record_ledger(gid, 1, tid, bad)
    good = [
        LedgerRow(hid, 0, None, 4, 2, 6, won=True, multiplier=4, fans="卡五星"),
        LedgerRow(hid, 1, None, -4, -1, -5, dealt_in=True),
        LedgerRow(hid, 2, None, 0, -1, -1),
    ]
    async with store.transaction() as tx:
        await tx.record_ledger(gid, 1, tid, good)
    assert await store.ledger_of_hand(hid) == good
    with pytest.raises(INTEGRITY_ERRORS, match="append-only"):
        async with store.transaction() as tx:
            await tx._exec("DELETE FROM ledger")


async def test_deadline_and_messages_roundtrip(store):
    _, tid = await _group_with_table(store)
    async with store.transaction() as tx:
        await tx.set_messages(tid, lobby_msg_id=11)
        await tx.set_messages(tid, table_msg_id=12)
        await tx.set_deadline(tid, 1234.5, 3, "turn")
        await tx.set_next_deal(tid, {"seed": "abc"})
    t = await store.get_table(tid)
    assert (t.lobby_msg_id, t.table_msg_id, t.deadline_at, t.deadline_seq, t.deadline_kind) == (
        11,
        12,
        1234.5,
        3,
        "turn",
    )
    assert t.next_deal == {"seed": "abc"}
    async with store.transaction() as tx:
        await tx.set_status(tid, "closed")
    t = await store.get_table(tid)
    assert t.deadline_at is None and not t.is_open
    assert await store.open_tables(bot_id=BOT) == []


async def test_group_writes_are_kept_per_bot_and_replaced_at_each_stop(store):
    async with store.transaction() as tx:
        await tx.keep_group_writes(BOT, {-100: [10.0, 12.5], -200: [11.0]})
        await tx.keep_group_writes(BOT + 1, {-100: [13.0]})  # another bot's own minute
    assert await store.group_writes(bot_id=BOT) == {-100: [10.0, 12.5], -200: [11.0]}
    async with store.transaction() as tx:
        await tx.keep_group_writes(BOT, {-200: [20.0]})
    assert await store.group_writes(bot_id=BOT) == {-200: [20.0]}
    assert await store.group_writes(bot_id=BOT + 1) == {-100: [13.0]}
    assert await store.group_writes(bot_id=BOT + 2) == {}


@SQLITE_ONLY
async def test_backup_is_a_consistent_copy(store, tmp_path):
    gid, _ = await _group_with_table(store)
    target = tmp_path / "backup" / "copy.sqlite3"
    await store.backup(target)
    copy = await Store.open(target, migrate=False)
    try:
        assert await copy.schema_version() == SCHEMA_VERSION
        assert (await copy.counts())["tables"] == 1
        assert await copy.chat_id_for_group(gid) == -100
    finally:
        await copy.close()


async def test_corrections_are_compensating_rows(store):
    gid, tid = await _group_with_table(store)
    async with store.transaction() as tx:
        hid = await tx.start_hand(tid, 1, 0, {"seed": "x"})
        await tx.record_ledger(gid, 1, tid, [
            LedgerRow(hid, 0, None, 4, 2, 6, won=True), LedgerRow(hid, 1, None, -4, -1, -5),
            LedgerRow(hid, 2, None, 0, -1, -1),
        ])  # fmt: skip
    with pytest.raises(StoreError, match="zero"):
        async with store.transaction() as tx:
            await tx.record_correction(hid, {0: -1, 1: 2})
    async with store.transaction() as tx:
        await tx.record_correction(hid, {0: -2, 2: 2})
    async with store.transaction() as tx:
        ids = await tx.reverse_hand(hid)
    assert len(ids) == 3  # each seat's remaining net (6-2, -5, -1+2) is cancelled
    rows = await store._rows(
        "SELECT seat, kind, delta, corrects FROM ledger WHERE hand_id = ? ORDER BY entry_id", (hid,)
    )
    assert [tuple(r) for r in rows[:3]] == [(0, "hand", 6, None), (1, "hand", -5, None), (2, "hand", -1, None)]
    assert [(r[0], r[1], r[2]) for r in rows[3:]] == [
        (0, "correction", -2),
        (2, "correction", 2),
        (0, "correction", -4),
        (1, "correction", 5),
        (2, "correction", -1),
    ]
    assert all(r[3] is not None for r in rows[3:])  # each points at the corrected hand row
    net = await store._rows("SELECT SUM(delta) FROM ledger WHERE hand_id = ? GROUP BY seat", (hid,))
    assert [r[0] for r in net] == [0, 0, 0]
    async with store.transaction() as tx:
        assert await tx.reverse_hand(hid) == []  # nothing left to cancel
    with pytest.raises(StoreError, match="no ledger rows"):
        async with store.transaction() as tx:
            await tx.record_correction(hid + 1, {0: 1, 1: -1})
    assert [r.delta for r in await store.ledger_of_hand(hid)] == [6, -5, -1]  # the hand rows are unchanged


@SQLITE_ONLY
async def test_reports_read_through_a_separate_read_only_connection(store):
    _gid, tid = await _group_with_table(store)
    async with store.reader() as db:
        assert db is not store._db
        async with db.execute("SELECT count(*) FROM tables") as cur:
            assert (await cur.fetchone())[0] == 1
        with pytest.raises(sqlite3.OperationalError):
            await db.execute("DELETE FROM settings")
    async with store.transaction() as tx:
        await tx.set_rules(tid, {"preset": "standard", "cap": "16"})
    assert (await store.get_table(tid)).rules == {"preset": "standard", "cap": "16"}


async def test_in_memory_reports_use_the_main_connection():
    store = await Store.open(":memory:")
    try:
        async with store.reader() as db:
            assert db is store._db
    finally:
        await store.close()


def _worker_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if "_connection_worker_thread" in t.name and t.is_alive()]


def _no_workers_left(before: int) -> bool:
    deadline = time.monotonic() + 5
    while len(_worker_threads()) > before and time.monotonic() < deadline:
        time.sleep(0.01)
    return len(_worker_threads()) <= before


@pytest.mark.parametrize("content", [b"hello, this is not SQLite\n" * 20, bytes(range(256)) * 16])
async def test_a_file_that_is_not_sqlite_is_one_clear_error_and_closed(tmp_path, content):
    path = tmp_path / "kwx.sqlite3"
    path.write_bytes(content)
    before = len(_worker_threads())
    for migrate in (True, False):
        with pytest.raises(StoreError) as err:
            await Store.open(path, migrate=migrate)
        message = str(err.value)
        assert message.startswith(f"database at {path} is not a kwx SQLite database (") and "\n" not in message
        assert _no_workers_left(before)  # the connection's thread would keep the process alive
    assert path.read_bytes() == content  # never overwritten


async def test_a_database_directory_that_cannot_be_created_is_one_line(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StoreError) as err:
        await Store.open(blocker / "sub" / "kwx.sqlite3")
    assert str(err.value).startswith(f"cannot create the database directory {blocker / 'sub'}")
    assert "\n" not in str(err.value)


async def test_a_directory_as_the_database_is_one_line(tmp_path):
    before = len(_worker_threads())
    with pytest.raises(StoreError) as err:
        await Store.open(tmp_path)
    assert str(err.value).startswith(f"cannot open the database at {tmp_path}") and "\n" not in str(err.value)
    assert _no_workers_left(before)


def _env(extra: dict[str, str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "KWX_"))}
    env.update(extra, NO_PROXY="127.0.0.1,localhost")
    return env


async def _cli(args: list[str], env: dict[str, str]) -> tuple[int, str, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "kwx_bot", *args, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    try:
        out, err = await asyncio.wait_for(proc.communicate(), 60)
    except TimeoutError:
        proc.kill()
        await proc.wait()
        raise AssertionError(f"kwx-bot {' '.join(args)} hangs") from None
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


def _one_line(err: str) -> str:
    assert "Traceback" not in err and err.count("\n") == 1, err
    return err


async def test_check_db_on_a_corrupt_file_prints_one_line(tmp_path):
    db = tmp_path / "kwx.sqlite3"
    db.write_bytes(b"garbage" * 100)
    code, out, err = await _cli(["check-db"], _env({"KWX_DB_PATH": str(db)}))
    assert code == 1 and out == ""
    assert _one_line(err) == f"kwx-bot: database at {db} is not a kwx SQLite database (file is not a database)\n"


REAL_LOOKING = "123456789:AA" + "fake" * 9  # built at run time: no token-shaped literal in the repo


@pytest.mark.fakebot(token=REAL_LOOKING)
async def test_run_on_a_corrupt_file_exits_with_one_line(fakebot, fakebot_server, tmp_path):
    db = tmp_path / "kwx.sqlite3"
    db.write_bytes(b"garbage" * 100)
    env = _env({"TELEGRAM_BOT_TOKEN": fakebot.token, "TELEGRAM_API_BASE_URL": fakebot_server.url,
                "KWX_DB_PATH": str(db)})  # fmt: skip
    code, _out, err = await _cli(["run"], env)
    assert code == 1
    assert err.endswith(f"kwx-bot: database at {db} is not a kwx SQLite database (file is not a database)\n")
    assert "Traceback" not in err and fakebot.token not in err


@pytest.mark.fakebot(token=REAL_LOOKING)
async def test_run_with_an_uncreatable_database_directory_exits_with_one_line(fakebot, fakebot_server, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    env = _env({"TELEGRAM_BOT_TOKEN": fakebot.token, "TELEGRAM_API_BASE_URL": fakebot_server.url,
                "KWX_DB_PATH": str(blocker / "db" / "kwx.sqlite3")})  # fmt: skip
    code, _out, err = await _cli(["run"], env)
    assert code == 1 and "Traceback" not in err
    assert err.endswith(f"kwx-bot: cannot create the database directory {blocker / 'db'}: Not a directory\n")


async def test_hands_numbered_finds_a_groups_hands_of_any_status_newest_first(store):
    gid, first = await _group_with_table(store)
    other_gid, elsewhere = await _group_with_table(store, chat_id=-200)
    async with store.transaction() as tx:
        h1 = await tx.start_hand(first, 1, 0, {"seed": "a"})
        await tx.finish_hand(h1, "over", None)
        await tx.set_status(first, "closed")
    async with store.transaction() as tx:
        second = await tx.create_table(gid, "standard", {}, None, bot_id=BOT)
        h2 = await tx.start_hand(second, 1, 2, {"seed": "b"})  # playing
        await tx.start_hand(elsewhere, 1, 0, {"seed": "c"})  # another group's
    rows = await store.hands_numbered(gid, 1)
    assert [(r.hand_id, r.table_id, r.status, r.deal) for r in rows] == [
        (h2, second, "playing", {"seed": "b"}), (h1, first, "over", {"seed": "a"})]  # fmt: skip
    assert [r.hand_id for r in await store.hands_numbered(gid)] == [h2, h1]
    assert await store.hands_numbered(gid, 2) == []
    assert len(await store.hands_numbered(other_gid)) == 1


async def test_a_refused_write_leaves_its_transaction_usable(store):
    """A :class:`Conflict` caught inside a transaction (PostgreSQL: under a savepoint) does not undo
    or block the transaction's other writes."""
    gid, tid = await _group_with_table(store)
    async with store.transaction() as tx:
        await tx.upsert_user(3, "Cy")
        await tx.sit(tid, 0, user_id=3)
        with pytest.raises(Conflict):
            await tx.create_table(gid, "standard", {}, None, bot_id=BOT)
        with pytest.raises(Conflict):
            await tx.sit(tid, 0, ai_level="easy")
        await tx.sit(tid, 1, ai_level="easy")
    assert [(s.seat, s.user_id, s.ai_level) for s in await store.seats(tid)] == [(0, 3, None), (1, None, "easy")]


async def test_version_3_database_moves_to_4_keeping_its_rows_and_takes_a_fourth_chair(tmp_path):
    path = tmp_path / "v3.sqlite3"
    with sqlite3.connect(path) as db:  # a version-3 database with a table in play, its seats, a hand and a ledger
        for statement in (s for m in mig.MIGRATIONS[:3] for s in mig.sql_for(m, "sqlite")):
            db.execute(statement)
        db.execute("PRAGMA user_version = 3")
        db.execute("INSERT INTO chats (group_id, chat_id, title, created_at) VALUES (1, -5, 'g', 0)")
        for uid in (11, 12):
            db.execute("INSERT INTO users (user_id, first_name, updated_at) VALUES (?, 'u', 0)", (uid,))
        db.execute(
            "INSERT INTO tables (group_id, status, rules, created_at, updated_at, join_token) "
            "VALUES (1, 'between', '\"standard\"', 0, 0, 'abc')"
        )
        db.execute(
            "INSERT INTO seats (table_id, seat, user_id, ai_level, on_auto, timeouts, hand_msg_id, joined_at, "
            "last_press, shown_digest) VALUES (1, 0, 11, NULL, 1, 2, 77, 5, '3:d1p', 'dig'), "
            "(1, 1, 12, NULL, 0, 0, NULL, 6, NULL, NULL), (1, 2, NULL, 'normal', 0, 0, NULL, 7, NULL, NULL)"
        )
        db.execute(
            "INSERT INTO hands (table_id, hand_no, dealer, deal, first_seq, status, started_at) "
            "VALUES (1, 1, 0, '{}', 1, 'over', 0)"
        )
        db.execute(
            "INSERT INTO ledger (group_id, table_id, hand_id, seat, user_id, hand_delta, kong_delta, delta, "
            "created_at) "
            "VALUES (1, 1, 1, 0, 11, 4, 0, 4, 0), (1, 1, 1, 1, 12, -2, 0, -2, 0), (1, 1, 1, 2, NULL, -2, 0, -2, 0)"
        )
        with pytest.raises(sqlite3.IntegrityError):  # version 3 has three chairs
            db.execute("INSERT INTO seats (table_id, seat, user_id, joined_at) VALUES (1, 3, 13, 0)")
    store = await Store.open(path)
    try:
        assert await store.schema_version() == SCHEMA_VERSION >= 4
        seats = await store.seats(1)
        assert [(s.seat, s.user_id, s.ai_level) for s in seats] == [(0, 11, None), (1, 12, None), (2, None, "normal")]
        first = seats[0]
        assert (first.on_auto, first.timeouts, first.hand_msg_id, first.last_press, first.shown_digest) == (
            True, 2, 77, "3:d1p", "dig")  # fmt: skip
        assert [r.delta for r in await store.ledger_of_table(1)] == [4, -2, -2]
        assert (await store.current_hand(1)).sitting_out is None
        assert await store.integrity_check() == ["ok"]
        async with store.transaction() as tx:
            await tx.upsert_user(13, "Dan")
            await tx.sit(1, 3, user_id=13)  # a fourth chair
        with pytest.raises(Conflict):  # a user still sits at one open table at a time
            async with store.transaction() as tx:
                gid = await tx.ensure_group(-6, "h")
                tid = await tx.create_table(gid, "standard", {}, None, bot_id=BOT)
                await tx.sit(tid, 0, user_id=13)
        with pytest.raises(Conflict):  # and there is no fifth chair
            async with store.transaction() as tx:
                await tx.sit(1, 4, ai_level="normal")
    finally:
        await store.close()


async def test_a_transaction_cancelled_while_it_begins_leaves_none_open(store):
    """A task cancelled inside its transaction (a reminder or a retry cancelled at shutdown) leaves
    no transaction open behind it: the next one begins and commits.  Cancelled before its
    statements went to the database, nothing of it is kept; cancelled while they run (on SQLite its
    BEGIN, writes and COMMIT go in one trip, as a COMMIT under way always ran on), all of it is."""

    async def write(name: str, pause: float | None) -> None:
        async with store.transaction() as tx:
            await tx.upsert_user(1, name)
            if pause is not None:
                await asyncio.sleep(pause)  # not yet sent (SQLite) or not committed (PostgreSQL)

    for name, pause in [("A", 10.0), ("A", None), ("C", 10.0), ("C", None), ("E", 10.0)]:
        before = await store.get_user(1, bot_id=BOT)
        task = asyncio.get_running_loop().create_task(write(name, pause))
        await asyncio.sleep(0)  # the task now waits: on its pause, or on the database
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        async with store.transaction() as tx:
            await tx.upsert_user(2, "B")
        after = await store.get_user(1, bot_id=BOT)
        if pause is not None:
            assert after == before  # nothing of it
        else:
            assert after is None or after.first_name == name  # all of it, or nothing
    assert (await store.get_user(2, bot_id=BOT)).first_name == "B"


async def test_reseat_moves_members_between_chairs_keeping_their_rows(store):
    _, tid = await _group_with_table(store)
    async with store.transaction() as tx:
        for seat, uid in enumerate((21, 22, 23, 24)):
            await tx.upsert_user(uid, f"u{uid}")
            await tx.sit(tid, seat, user_id=uid)
        await tx.set_seat_auto(tid, 1, on_auto=True, timeouts=2)
        await tx.set_reminder(tid, 1, 77, 5)
        await tx.reseat(tid, [1, 2, 3, 0])  # chair 0's member sits out in chair 3
    seats = await store.seats(tid)
    assert [(s.seat, s.user_id) for s in seats] == [(0, 22), (1, 23), (2, 24), (3, 21)]
    assert (seats[0].on_auto, seats[0].timeouts) == (True, 2)
    assert (seats[0].reminder_msg_id, seats[0].reminder_seq) == (77, 5)  # a reminder moves with its seat
    for bad in ([0, 1, 2], [0, 0, 1, 2], [0, 1, 2, 4]):
        with pytest.raises(StoreError):
            async with store.transaction() as tx:
                await tx.reseat(tid, bad)
    assert [(s.seat, s.user_id) for s in await store.seats(tid)] == [(0, 22), (1, 23), (2, 24), (3, 21)]


def test_statement_kinds_tell_reads_from_writes():
    from kwx_bot.store.db import statement_kind

    assert statement_kind("  select 1") == "select"
    assert statement_kind("WITH x AS (SELECT 1) SELECT * FROM x") == "select"
    assert statement_kind("INSERT INTO t VALUES (1)") == statement_kind("update t SET a = 1") == "write"
    assert statement_kind("DELETE FROM t") == "write"
    assert statement_kind("SELECT pg_advisory_xact_lock($1)") == "other"  # the write lock is no read
    assert statement_kind("BEGIN IMMEDIATE") == statement_kind("PRAGMA user_version") == statement_kind("") == "other"


async def test_the_store_tells_every_statement_it_runs(store):
    told: list[str] = []
    store.statements.told = told.append
    gid, _ = await _group_with_table(store)
    assert "write" in told and "other" in told  # the inserts, BEGIN / COMMIT or the write lock
    told.clear()
    assert await store.group_id_for_chat(-100) == gid
    assert told.count("select") == 1 and "write" not in told  # (PostgreSQL resets a pooled connection)
    store.statements.told = None
    told.clear()
    await store.group_id_for_chat(-100)
    assert told == []
