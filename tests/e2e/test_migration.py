"""A group upgraded to a supergroup keeps its table, settings and ledger under the same group id; a
database of the previous schema keeps its table, seats and ledger after the bot's upgrade."""

from __future__ import annotations

import random


async def test_group_to_supergroup_migration(kwx):
    users = kwx.players("Ann", "Ben", "Cat")
    ann, ben, cat = users
    group = kwx.group(users)
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        kwx.fake.user_command(ann, group, "new")
        await kwx.settle()
        await kwx.press(ben, kwx.fake.last_message(group), "Join")
        gid = await service.store.group_id_for_chat(group.id)
        supergroup = kwx.fake.migrate_group(group, by=ann)
        await kwx.settle()
        assert await service.store.chat_id_for_group(gid) == supergroup.id
        assert await service.store.group_id_for_chat(group.id) == gid  # the old id still maps
        # /new in the supergroup brings the open lobby over (same table), and play goes on there
        kwx.fake.user_command(cat, supergroup, "new")
        await kwx.settle()
        lobby = kwx.fake.last_message(supergroup)
        assert "1. Ann" in lobby.content and "2. Ben" in lobby.content
        await kwx.press(cat, lobby, "Join")
        await service.prepare_deal(1, {"seed": "migrated", "dealer": 0})
        await kwx.press(ann, kwx.fake.message(supergroup, lobby.message_id), "Start")
        await kwx.play_randomly(users, supergroup, random.Random(2))
        await kwx.settle()
        hand = await service.store.current_hand(1)
        rows = await service.store.ledger_of_hand(hand.hand_id)
        assert len(rows) == 3 and sum(r.delta for r in rows) == 0
        table = await service.store.get_table(1)
        assert table.group_id == gid and table.chat_id == supergroup.id
        assert not [c for c in kwx.fake.calls if c.chat_id == group.id and c.seq > lobby.seq]


def downgrade_to_version_5(path) -> None:
    """Turn a database of this version back into schema version 5 (no reminders kept with the seats,
    no index of the declaring events, no time bank, no group writes kept), keeping every row."""
    import sqlite3

    with sqlite3.connect(path) as db:
        db.execute("ALTER TABLE seats DROP COLUMN reminder_msg_id")
        db.execute("ALTER TABLE seats DROP COLUMN reminder_seq")
        db.execute("DROP TABLE group_writes")
        db.execute("DROP INDEX events_declared")
        db.execute("ALTER TABLE seats DROP COLUMN bank_used")
        db.execute("ALTER TABLE tables DROP COLUMN deadline_start")
        db.execute("PRAGMA user_version = 5")


def downgrade_to_version_4(path) -> None:
    """Turn a database of this version back into schema version 4 (no owning bot; ``can_pm`` and the
    pending join in ``users``), keeping every row: what a bot of the release before ownership left."""
    import sqlite3

    downgrade_to_version_5(path)
    with sqlite3.connect(path) as db:
        db.execute("ALTER TABLE users ADD COLUMN can_pm INTEGER NOT NULL DEFAULT 0")
        db.execute("ALTER TABLE users ADD COLUMN pending_table_id INTEGER")
        db.execute("ALTER TABLE users ADD COLUMN pending_at REAL")
        for column in ("can_pm", "pending_table_id", "pending_at"):
            db.execute(
                f"UPDATE users SET {column} = coalesce((SELECT b.{column} FROM bot_users b "
                f"WHERE b.user_id = users.user_id), users.{column})"
            )
        db.execute("DROP TABLE bot_users")
        db.execute("DROP INDEX tables_open_by_bot")
        db.execute("ALTER TABLE tables DROP COLUMN bot_id")
        db.execute("PRAGMA user_version = 4")


def _downgrade_to_version_3(path) -> None:
    """Turn a database of this version back into schema version 3 (seats 0..2, no hands.sitting_out),
    keeping every row: what a bot of the previous release left behind."""
    import sqlite3

    from kwx_bot.store import migrations as mig

    downgrade_to_version_4(path)
    v3_seats = next(s for s in mig.MIGRATIONS[0] if s.startswith("CREATE TABLE seats"))
    with sqlite3.connect(path) as db:
        db.execute("ALTER TABLE seats RENAME TO seats_new")
        db.execute(v3_seats)
        db.execute("ALTER TABLE seats ADD COLUMN last_press TEXT")
        db.execute("ALTER TABLE seats ADD COLUMN shown_digest TEXT")
        db.execute("INSERT INTO seats SELECT * FROM seats_new")
        db.execute("DROP TABLE seats_new")
        db.execute(
            "CREATE UNIQUE INDEX seats_one_open_table_per_user ON seats(user_id) "
            "WHERE active = 1 AND user_id IS NOT NULL"
        )
        db.execute("ALTER TABLE hands DROP COLUMN sitting_out")
        db.execute("PRAGMA user_version = 3")


async def test_a_version_3_database_keeps_its_table_seats_and_ledger_after_the_upgrade(kwx):
    from kwx_bot.store import SCHEMA_VERSION

    users = kwx.players("Ann", "Ben", "Cat")
    ann, ben, cat = users
    group = kwx.group(users)
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        kwx.fake.user_command(ann, group, "new")
        await kwx.settle()
        lobby = kwx.fake.last_message(group)
        await kwx.press(ben, lobby, "Join")
        await kwx.press(cat, lobby, "Join")
        await service.prepare_deal(1, {"seed": "before-upgrade", "dealer": 0})
        await kwx.press(ann, kwx.fake.message(group, lobby.message_id), "Start")
        await kwx.play_randomly(users, group, random.Random(3))
        await kwx.settle()
        before = await service.store.ledger_of_table(1)
        seats_before = [(s.seat, s.user_id) for s in await service.store.seats(1)]
    _downgrade_to_version_3(kwx.db_path)
    async with kwx.running() as service:
        assert await service.store.schema_version() == SCHEMA_VERSION
        assert await service.store.ledger_of_table(1) == before
        assert [(s.seat, s.user_id) for s in await service.store.seats(1)] == seats_before
        assert (await service.store.current_hand(1)).sitting_out is None
        assert (await service.store.get_table(1)).bot_id == service.tables.bot_id  # adopted at start
        await service.prepare_deal(1, {"seed": "after-upgrade"})
        await kwx.press(ben, kwx.fake.last_message(group), "Next hand")  # the table plays on
        await kwx.play_randomly(users, group, random.Random(5))
        await kwx.settle()
        after = await service.store.ledger_of_table(1)
        assert after[: len(before)] == before and len(after) == 2 * len(before) == 6
        assert sum(r.delta for r in after) == 0
