"""A group upgraded to a supergroup keeps its table, settings and ledger under the same group id."""

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
