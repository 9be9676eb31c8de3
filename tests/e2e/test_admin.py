"""Admin /kill and /kick, and the bot removed from a group mid-hand."""

from __future__ import annotations

import random

from fakebot import MemberStatus
from kwx_bot.edge.codec import b36

from .scenarios import open_table


async def _send(kwx, user, chat, *words, reply_to=None):
    mark = kwx.fake.mark()
    if reply_to is not None:
        kwx.fake.user_sends(user, chat, f"/{words[0]}@{kwx.fake.bot.username}", reply_to=reply_to)
    else:
        kwx.fake.user_command(user, chat, *words)
    await kwx.settle()
    return kwx.fake.bot_messages(chat, since=mark)


async def _start_hand(kwx, service, users, group, seed):
    table_id = await open_table(kwx, users, group)
    lobby = kwx.fake.last_message(group)
    await service.prepare_deal(table_id, {"seed": seed, "dealer": 0})
    await kwx.press(users[0], lobby, "Start")
    return table_id


async def _press_some(kwx, users, rng, presses):
    for _ in range(presses):
        movers = [(u, kwx.game_buttons(u)) for u in users]
        movers = [(u, b) for u, b in movers if b]
        if not movers:
            return
        user, buttons = rng.choice(movers)
        await kwx.press(user, kwx.hand_message(user), data=rng.choice(buttons)[1])


async def test_kill_ends_the_table_unscored_and_frees_the_players(kwx):
    users = kwx.players("Ann", "Ben", "Cat")
    ann, ben, cat = users
    group = kwx.group(users)
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        table_id = await _start_hand(kwx, service, users, group, "kill-1")
        await _press_some(kwx, users, random.Random(1), 4)
        (refused,) = await _send(kwx, ben, group, "kill")
        assert "only the group's administrators" in refused.text
        assert (await service.store.get_table(table_id)).status == "playing"
        (busy,) = await _send(kwx, ben, group, "new")  # /new while the table plays says how to end it
        assert "already open" in busy.text and "end it at once with /kill" in busy.text
        (done,) = await _send(kwx, ann, group, "kill")
        assert "ended the table" in done.text and "not scored" in done.text
        table = await service.store.get_table(table_id)
        assert table.status == "closed" and table.deadline_at is None
        hand = await service.store.current_hand(table_id)
        assert hand.status == "aborted" and hand.result is None
        assert await service.store.ledger_of_table(table_id) == []  # the ledger is untouched
        for u in users:
            assert await service.store.open_seat_of_user(u.id, bot_id=service.tables.bot_id) is None
            assert kwx.hand_message(u).buttons == []  # stale hand buttons are gone
            caption = kwx.hand_message(u).caption  # and the message says why, not whose turn it was
            assert "The table was ended by an administrator (/kill); no points were scored." in caption
            assert "turn" not in caption and "tiles left" not in caption
        query = kwx.fake.forge_press(cat, kwx.hand_message(cat), f"1:{b36(table.seq)}:x")  # an old button
        await kwx.fake.wait_for_answer(query)
        assert "closed" in query.answer.text
        # the players are free: a new table opens at once
        await _send(kwx, ben, group, "new")
        assert "1. Ben" in kwx.fake.last_message(group).text
        (nothing,) = await _send(kwx, ann, kwx.fake.private_chat(ann), "kill")
        assert "in your group" in nothing.text


async def test_kick_by_reply_and_by_name_gives_the_seat_to_an_ai(kwx):
    users = kwx.players("Ann", "Ben", "Cat")
    ann, ben, _cat = users
    group = kwx.group(users)
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        table_id = await _start_hand(kwx, service, users, group, "kick-1")
        said = kwx.fake.user_sends(ben, group, "I have to go")
        (kicked,) = await _send(kwx, ann, group, "kick", reply_to=said)
        assert "Ben left the table: an AI plays the seat" in kicked.text
        assert "removed you" in kwx.fake.last_message(kwx.fake.private_chat(ben)).text
        assert await service.store.open_seat_of_user(ben.id, bot_id=service.tables.bot_id) is None
        seats = await service.store.seats(table_id)
        assert seats[1].user_id is None and seats[1].ai_level == "normal"
        (unknown,) = await _send(kwx, ann, group, "kick", "Zed")
        assert "No player at this table is called “Zed”" in unknown.text and "Cat" in unknown.text
        (bare,) = await _send(kwx, ann, group, "kick")
        assert "Reply to a message" in bare.text
        (kicked,) = await _send(kwx, ann, group, "kick", "cat")
        assert "Cat left the table" in kicked.text
        # Ann plays on against two AI seats until the hand ends; it is scored for the AI seats
        rng = random.Random(2)
        while not any("Points:" in m.content for m in kwx.fake.bot_messages(group)):
            buttons = kwx.game_buttons(ann)
            if buttons:
                await kwx.press(ann, kwx.hand_message(ann), data=rng.choice(buttons)[1])
            else:
                await kwx.fake.wait_for(lambda: kwx.game_buttons(ann) or any(
                    "Points:" in m.content for m in kwx.fake.bot_messages(group)), 5)  # fmt: skip
        await kwx.settle()
        rows = await service.store.ledger_of_table(table_id)
        assert [r.user_id for r in rows] == [ann.id, None, None] and sum(r.delta for r in rows) == 0
    assert kwx.fake.count_calls(ok=False) == 0


async def test_a_refused_reply_tells_the_service_the_bot_has_left_the_group(kwx):
    """The edge delivers a press's replies itself; a 403 on one (the bot left the group and the
    my_chat_member update has not arrived yet) still reaches the service, which closes the group's
    table as when it is told of the removal."""
    users = kwx.players("Ann", "Ben", "Cat")
    ann = users[0]
    group = kwx.group(users)
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        table_id = await _start_hand(kwx, service, users, group, "removed-2")
        mark = kwx.fake.mark()
        kwx.fake.user_command(ann, group, "settings")
        await kwx.settle()
        (menu,) = kwx.fake.bot_messages(group, since=mark)
        group.members[kwx.fake.bot.id] = MemberStatus.LEFT  # the update telling the bot is still on its way
        await kwx.press(ann, menu, "Group language")
        await kwx.settle()
        assert [c.status for c in kwx.fake.calls if c.chat_id == group.id and c.method == "editMessageText"][-1] == 403
        assert (await service.store.get_table(table_id)).status == "closed"
        assert (await service.store.current_hand(table_id)).status == "aborted"
        assert not service.tables.cached()


async def test_bot_removed_from_the_group_mid_hand_closes_the_table_unscored(kwx):
    users = kwx.players("Ann", "Ben", "Cat")
    ann = users[0]
    group = kwx.group(users)
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        table_id = await _start_hand(kwx, service, users, group, "removed-1")
        await _press_some(kwx, users, random.Random(3), 3)
        kwx.fake.remove_bot_from_group(group, ann)
        await kwx.settle()
        table = await service.store.get_table(table_id)
        assert table.status == "closed"
        assert (await service.store.current_hand(table_id)).status == "aborted"
        assert await service.store.ledger_of_table(table_id) == []
        assert not service.tables.cached()
        for u in users:
            assert await service.store.open_seat_of_user(u.id, bot_id=service.tables.bot_id) is None
            assert "removed from Mahjong night" in kwx.fake.last_message(kwx.fake.private_chat(u)).text
            caption = kwx.hand_message(u).caption
            assert "I was removed from the group; no points were scored" in caption and "turn" not in caption
            assert kwx.hand_message(u).buttons == []
        # nothing more is sent to the group the bot left
        assert not [c for c in kwx.fake.calls if c.chat_id == group.id and c.status != 200]
