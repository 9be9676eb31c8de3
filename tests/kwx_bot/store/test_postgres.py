"""The PostgreSQL store's own behaviour (its contract is tested with SQLite's in test_store.py):
the same schema as SQLite's after the same migrations, versions and failed migrations, one write
transaction at a time across processes, and a server that cannot be reached is one line."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from kwx_bot.store import SCHEMA_VERSION, PgStore, Store, StoreError, open_store
from kwx_bot.store import migrations as mig
from kwx_bot.store.base import TABLES
from kwx_bot.store.postgres import redact

from .conftest import BOT
from .test_store import REAL_LOOKING, _cli, _env


async def test_migrations_build_the_same_tables_and_columns_as_on_sqlite(postgres_url, tmp_path):
    sqlite = await Store.open(tmp_path / "kwx.sqlite3")
    pg = await open_store(postgres_url)
    try:
        assert isinstance(pg, PgStore)
        assert await pg.schema_version() == SCHEMA_VERSION == await sqlite.schema_version()
        assert await pg.migrate() == []  # idempotent
        for name in TABLES:
            ours = [r[1] for r in await sqlite._rows(f"PRAGMA table_info({name})")]
            theirs = [
                r[0]
                for r in await pg._rows(
                    "SELECT column_name FROM information_schema.columns "
                    "WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position",
                    (name,),
                )
            ]
            assert theirs == ours, name
        indexes = {r[0] for r in await pg._rows("SELECT indexname FROM pg_indexes WHERE schemaname = 'public'")}
        assert {"tables_one_open_per_group", "seats_one_open_table_per_user", "events_by_hand"} <= indexes
        assert await pg.integrity_check() == ["ok"]
    finally:
        await sqlite.close()
        await pg.close()


async def test_a_telegram_sized_id_fits(postgres_url):
    store = await PgStore.open(postgres_url)
    try:
        async with store.transaction() as tx:
            await tx.upsert_user(7_000_000_000, "Big")
            gid = await tx.ensure_group(-1_002_345_678_901, "supergroup")
        assert (await store.get_user(7_000_000_000, bot_id=BOT)).first_name == "Big"
        assert await store.chat_id_for_group(gid) == -1_002_345_678_901
    finally:
        await store.close()


async def test_a_newer_schema_is_refused(postgres_url):
    await (await PgStore.open(postgres_url)).close()  # migrated; then it claims a newer version
    conn = await asyncpg.connect(postgres_url)
    try:
        await conn.execute("UPDATE kwx_schema SET version = $1", SCHEMA_VERSION + 1)
    finally:
        await conn.close()
    with pytest.raises(StoreError, match="newer"):
        await PgStore.open(postgres_url)


async def test_a_failing_migration_rolls_back_ddl_and_version(postgres_url, monkeypatch):
    broken = (*mig.MIGRATIONS, ("CREATE TABLE extra (x INTEGER)", "THIS IS NOT SQL"))
    monkeypatch.setattr("kwx_bot.store.postgres.MIGRATIONS", broken)
    monkeypatch.setattr("kwx_bot.store.postgres.SCHEMA_VERSION", len(broken))
    with pytest.raises(asyncpg.PostgresSyntaxError):
        await PgStore.open(postgres_url)
    monkeypatch.undo()
    store = await PgStore.open(postgres_url, migrate=False)
    try:
        assert await store.schema_version() == SCHEMA_VERSION  # the good versions stay, the bad one left nothing
        assert await store._scalar("SELECT to_regclass('extra')") is None
    finally:
        await store.close()


async def test_write_transactions_of_two_processes_run_one_after_the_other(postgres_url):
    first, second = await PgStore.open(postgres_url), await PgStore.open(postgres_url)  # as two bot processes
    order: list[str] = []
    try:
        entered = asyncio.Event()

        async def a() -> None:
            async with first.transaction() as tx:
                await tx.upsert_user(1, "A")
                entered.set()
                await asyncio.sleep(0.3)
                order.append("a commits")

        async def b() -> None:
            await entered.wait()
            async with second.transaction() as tx:
                order.append("b begins")
                assert (await tx._scalar("SELECT first_name FROM users WHERE user_id = ?", (1,))) == "A"

        await asyncio.gather(a(), b())
        assert order == ["a commits", "b begins"]
    finally:
        await first.close()
        await second.close()


async def test_an_unreachable_server_is_one_line_without_the_password(postgres_server):
    port = int(postgres_server.url.rsplit(":", 1)[1].split("/")[0])
    url = f"postgresql://kwx:s3cret@127.0.0.1:{port + 1 if port < 65535 else port - 1}/kwx"
    with pytest.raises(StoreError) as err:
        await open_store(url)
    message = str(err.value)
    assert message.startswith("cannot connect to the PostgreSQL database at postgresql://kwx:***@127.0.0.1:")
    assert "s3cret" not in message and "\n" not in message
    assert redact("postgresql://u@h/d") == "postgresql://u@h/d"


async def test_a_version_3_database_moves_to_4_keeping_its_rows(postgres_url, monkeypatch):
    monkeypatch.setattr("kwx_bot.store.postgres.SCHEMA_VERSION", 3)  # a kwx of schema version 3
    old = await PgStore.open(postgres_url)
    try:
        async with old.transaction() as tx:
            await tx.upsert_user(11, "Ann")
            gid = await tx.ensure_group(-5, "g")
            tid = await tx._scalar(
                "INSERT INTO tables (group_id, status, rules, created_at, updated_at) "
                "VALUES (?, 'lobby', '\"standard\"', 0, 0) RETURNING table_id",
                (gid,),
            )
            await tx._exec(
                "INSERT INTO seats (table_id, seat, user_id, on_auto, timeouts, joined_at, last_press) "
                "VALUES (?, 0, 11, 1, 2, 5, '3:d1p')",
                (tid,),
            )
            with pytest.raises(asyncpg.CheckViolationError):  # version 3 has three chairs
                async with tx._db.guarded():
                    await tx._exec(
                        "INSERT INTO seats (table_id, seat, ai_level, joined_at) VALUES (?, 3, 'x', 0)", (tid,)
                    )
        assert await old.schema_version() == 3
    finally:
        await old.close()
    monkeypatch.undo()
    store = await PgStore.open(postgres_url)
    try:
        assert await store.schema_version() == SCHEMA_VERSION >= 4
        (seat,) = await store.seats(tid)
        assert (seat.user_id, seat.on_auto, seat.timeouts, seat.last_press) == (11, True, 2, "3:d1p")
        async with store.transaction() as tx:
            await tx.sit(tid, 3, ai_level="normal")  # a fourth chair
            hid = await tx.start_hand(tid, 1, 0, {"seed": 1}, sitting_out=11)
        assert (await store.current_hand(tid)).sitting_out == 11 and hid
        with pytest.raises(StoreError):  # a user still sits at one open table at a time
            async with store.transaction() as tx:
                other = await tx.create_table(await tx.ensure_group(-6, "h"), "standard", {}, None, bot_id=BOT)
                await tx.sit(other, 0, user_id=11)
    finally:
        await store.close()


@pytest.mark.fakebot(token=REAL_LOOKING)
async def test_run_on_a_database_of_something_else_exits_with_one_line(fakebot, fakebot_server, postgres_url):
    conn = await asyncpg.connect(postgres_url)
    try:
        await conn.execute("CREATE TABLE users (id TEXT)")  # another application's table of the same name
    finally:
        await conn.close()
    url = postgres_url.replace("postgresql://kwx@", "postgresql://kwx:pw-x1@")  # trust ignores the password
    env = _env({"TELEGRAM_BOT_TOKEN": fakebot.token, "TELEGRAM_API_BASE_URL": fakebot_server.url,
                "KWX_DATABASE_URL": url})  # fmt: skip
    code, _out, err = await _cli(["run"], env)
    assert code == 1 and "Traceback" not in err and "pw-x1" not in err and fakebot.token not in err
    assert err.endswith('relation "users" already exists\n') and "kwx-bot: database at postgresql://kwx:***@" in err
