"""Several bots over one database (docs/architecture.md §8), the store's contract on SQLite and
PostgreSQL alike: every read over open tables and a user's private facts sees only the asking bot's
rows, the uniqueness rules hold across bots, and the rows of a database made before tables had an
owner are adopted, once, by the first bot to start."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from kwx_bot.store import SCHEMA_VERSION, Conflict, SqlStore, open_store
from tests.pgserver import PgServer, drop_database, fresh_database

from .conftest import BACKENDS

A, B = 111_111, 222_222
"""Two bots (their Telegram user ids)."""


@pytest.fixture(params=BACKENDS)
async def target(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """Where one database is, for opening it from several stores (as several bot processes do)."""
    if request.param == "sqlite":
        yield str(tmp_path / "kwx.sqlite3")
        return
    server: PgServer = request.getfixturevalue("postgres_server")
    name, url = await fresh_database(server)
    try:
        yield url
    finally:
        await drop_database(server, name)


async def test_each_bot_reads_only_its_own_open_tables(store):
    async with store.transaction() as tx:
        for uid, name in ((1, "Ann"), (2, "Ben")):
            await tx.upsert_user(uid, name)
        g1, g2 = await tx.ensure_group(-1, "one"), await tx.ensure_group(-2, "two")
        ta = await tx.create_table(g1, "standard", {}, 1, bot_id=A)
        tb = await tx.create_table(g2, "standard", {}, 2, bot_id=B)
        await tx.sit(ta, 0, user_id=1)
        await tx.sit(tb, 0, user_id=2)
    assert [t.table_id for t in await store.open_tables(bot_id=A)] == [ta]
    assert [t.table_id for t in await store.open_tables(bot_id=B)] == [tb]
    assert (await store.get_table(ta)).bot_id == A and (await store.get_table(tb)).bot_id == B
    assert (await store.open_table_of_group(g1, bot_id=A)).table_id == ta
    assert await store.open_table_of_group(g1, bot_id=B) is None
    assert (await store.open_table_bot(g1), await store.open_table_bot(g2)) == (A, B)  # whose it is, for any bot
    assert (await store.open_seat_of_user(1, bot_id=A)).table_id == ta
    assert await store.open_seat_of_user(1, bot_id=B) is None
    assert await store.open_table_count() == 2


async def test_one_open_table_per_group_and_per_player_whichever_bot(store):
    async with store.transaction() as tx:
        await tx.upsert_user(1, "Ann")
        g1, g2 = await tx.ensure_group(-1, "one"), await tx.ensure_group(-2, "two")
        ta = await tx.create_table(g1, "standard", {}, 1, bot_id=A)
        tb = await tx.create_table(g2, "standard", {}, None, bot_id=B)
        await tx.sit(ta, 0, user_id=1)
    for bot, what in ((B, "other_bot"), (A, "open_table")):
        with pytest.raises(Conflict) as refused:
            async with store.transaction() as tx:
                await tx.create_table(g1, "standard", {}, None, bot_id=bot)
        assert refused.value.what == what
    with pytest.raises(Conflict) as refused:
        async with store.transaction() as tx:
            await tx.sit(tb, 0, user_id=1)
    assert refused.value.what == "seated"
    assert await store.seats(tb) == [] and len(await store.open_tables(bot_id=B)) == 1


async def test_what_a_bot_knows_of_a_user_privately_is_that_bots(store):
    async with store.transaction() as tx:
        await tx.upsert_user(7, "Ann", language_code="en")
        await tx.set_can_pm(7, True, bot_id=A)
        await tx.set_pending_join(7, 42, bot_id=B)
        await tx.set_can_pm(8, True, bot_id=A)  # never seen: nothing to record
    ann_a, ann_b = await store.get_user(7, bot_id=A), await store.get_user(7, bot_id=B)
    assert (ann_a.can_pm, ann_a.pending_table_id) == (True, None)
    assert (ann_b.can_pm, ann_b.pending_table_id) == (False, 42)
    assert ann_a.first_name == ann_b.first_name == "Ann"  # names and language are shared
    async with store.transaction() as tx:
        await tx.upsert_user(7, "Annie")  # a rename through either bot keeps both bots' facts
        await tx.set_can_pm(7, False, bot_id=A)
        await tx.set_pending_join(7, None, bot_id=B)
        await tx.set_can_pm(7, True, bot_id=B)
    ann_a, ann_b = await store.get_user(7, bot_id=A), await store.get_user(7, bot_id=B)
    assert (ann_a.first_name, ann_a.can_pm, ann_b.can_pm, ann_b.pending_table_id) == ("Annie", False, True, None)
    assert await store.get_user(8, bot_id=A) is None
    assert (await store.users([7, 8], bot_id=B)) == {7: ann_b}


async def _open_at_version_4(target: str, monkeypatch: pytest.MonkeyPatch) -> SqlStore:
    """A database of schema version 4, as a kwx of the release before ownership made it."""
    monkeypatch.setattr("kwx_bot.store.SCHEMA_VERSION", 4)
    monkeypatch.setattr("kwx_bot.store.postgres.SCHEMA_VERSION", 4)
    store = await open_store(target)
    monkeypatch.undo()
    return store


async def test_a_version_4_database_moves_to_5_and_the_first_bot_adopts_its_rows(target, monkeypatch):
    old = await _open_at_version_4(target, monkeypatch)
    try:
        assert await old.schema_version() == 4
        async with old.transaction() as tx:
            await tx._exec(
                "INSERT INTO users (user_id, first_name, can_pm, pending_table_id, pending_at, updated_at) "
                "VALUES (11, 'Ann', 1, 3, 5, 0), (12, 'Ben', 0, NULL, NULL, 0), (13, 'Cat', 1, NULL, NULL, 0)"
            )
            g1, g2 = await tx.ensure_group(-5, "g"), await tx.ensure_group(-6, "h")
            for group, status in ((g1, "closed"), (g1, "between"), (g2, "lobby")):
                await tx._exec(
                    "INSERT INTO tables (group_id, status, rules, created_at, updated_at, join_token) "
                    "VALUES (?, ?, '\"standard\"', 0, 0, 'abc')",
                    (group, status),
                )
            await tx._exec("INSERT INTO seats (table_id, seat, user_id, joined_at) VALUES (2, 0, 11, 0), (2, 1, 12, 0)")
    finally:
        await old.close()
    store = await open_store(target)
    try:
        assert await store.schema_version() == SCHEMA_VERSION >= 5  # and on through the later migrations
        assert [(await store.get_table(t)).bot_id for t in (1, 2, 3)] == [0, 0, 0]  # made before ownership
        assert await store.open_tables(bot_id=A) == [] and not (await store.get_user(11, bot_id=A)).can_pm
        async with store.transaction() as tx:
            assert await tx.adopt(A) == 3
        assert [t.table_id for t in await store.open_tables(bot_id=A)] == [2, 3]
        assert (await store.open_seat_of_user(11, bot_id=A)).table_id == 2
        ann, ben, cat = [await store.get_user(u, bot_id=A) for u in (11, 12, 13)]
        assert (ann.first_name, ann.can_pm, ann.pending_table_id) == ("Ann", True, 3)
        assert (ben.can_pm, cat.can_pm) == (False, True)
        async with store.transaction() as tx:
            assert await tx.adopt(B) == 0  # the second bot finds nothing left to adopt
        assert await store.open_tables(bot_id=B) == [] and not (await store.get_user(11, bot_id=B)).can_pm
        assert await store.integrity_check() == ["ok"]
    finally:
        await store.close()


async def test_of_two_bots_starting_together_exactly_one_adopts(target):
    first = await open_store(target)
    second = await open_store(target)  # another bot process on the same database
    try:
        async with first.transaction() as tx:
            await tx.upsert_user(1, "Ann")
            for chat in (-1, -2, -3):
                await tx.create_table(await tx.ensure_group(chat, "g"), "standard", {}, None, bot_id=0)
            await tx.set_can_pm(1, True, bot_id=0)

        async def adopt(store: SqlStore, bot: int) -> int:
            async with store.transaction() as tx:
                return await tx.adopt(bot)

        got = await asyncio.gather(adopt(first, A), adopt(second, B))
        assert sorted(got) == [0, 3]
        winner = A if got[0] else B
        assert len(await first.open_tables(bot_id=winner)) == 3 and await first.open_table_count() == 3
        assert (await second.get_user(1, bot_id=winner)).can_pm
        assert not (await second.get_user(1, bot_id=A if winner == B else B)).can_pm
    finally:
        await first.close()
        await second.close()
