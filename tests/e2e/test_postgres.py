"""The bot on PostgreSQL (``KWX_DATABASE_URL``) through the fake Telegram: a whole hand, and a
restart mid-hand that loses nothing (the server: tests/conftest.py's throwaway cluster)."""

from __future__ import annotations

import pytest

from kwx_bot.store import PgStore

from .harness import Kwx
from .scenarios import deal_scenario, engine_play, load, perform
from .test_restart import restart_mid_hand


@pytest.fixture
def kwx_pg(fakebot, fakebot_inprocess_builder, tmp_path, postgres_url) -> Kwx:
    """The bot over the in-process transport, on a fresh PostgreSQL database (no SQLite file)."""
    return Kwx(fakebot, fakebot_inprocess_builder, tmp_path / "unused.sqlite3", database_url=postgres_url)


async def test_a_whole_hand_on_postgres(kwx_pg, postgres_url, tmp_path):
    scenario = load("d57_double_ron")
    expected = engine_play(scenario)
    users = kwx_pg.players("Ann", "Ben", "Cat")
    group = kwx_pg.group(users)
    async with kwx_pg.running() as service:
        assert isinstance(service.store, PgStore)
        await kwx_pg.start_bot(*users)
        table_id = await deal_scenario(kwx_pg, users, group, scenario)
        for action in scenario["actions"]:
            await perform(kwx_pg, users, action)
        await kwx_pg.settle()
        kwx_pg.fake.user_command(users[0], group, "score")
        await kwx_pg.settle()
    assert "Points:" in kwx_pg.fake.bot_messages(group)[-2].content
    assert "Ann" in kwx_pg.fake.last_message(group).content  # /score read the ledger from PostgreSQL
    assert kwx_pg.fake.count_calls(ok=False) == 0
    assert not (tmp_path / "unused.sqlite3").exists()
    store = await PgStore.open(postgres_url, migrate=False)  # what is in the database, read anew
    try:
        hand = await store.current_hand(table_id)
        assert hand.status == "over"
        assert [e.data for e in await store.hand_events(hand.hand_id)] == expected["events"]
        ledger = await store.ledger_of_hand(hand.hand_id)
        assert [r.delta for r in ledger] == expected["result"]["deltas"] and sum(r.delta for r in ledger) == 0
        assert await store.integrity_check() == ["ok"]
    finally:
        await store.close()


@pytest.mark.parametrize("name", ["liangdao_direct_kong", "d57_double_ron"])
async def test_restart_mid_hand_on_postgres_loses_nothing(kwx_pg, name):
    await restart_mid_hand(kwx_pg, name)
