"""Joining: a join remembered for a user who had no private chat with the bot is dropped once it can
no longer happen (a later bare /start greets instead of refusing a started table forever); the
lobby's "Open a private chat with me" button opens the chat without seating a spectator."""

from __future__ import annotations

WELCOME = "I host Ka Wu Xing mahjong tables"


async def test_a_stale_pending_join_is_cleared_and_start_greets_normally(kwx):
    ann, ben, dave = kwx.players("Ann", "Ben", "Dave")
    group = kwx.group([ann, ben, dave])
    async with kwx.running() as service:
        await kwx.start_bot(ann, ben)
        kwx.fake.user_command(ann, group, "new")
        await kwx.settle()
        lobby = kwx.fake.last_message(group)
        query = await kwx.press(dave, lobby, "Join")  # no private chat yet: a deep link, join remembered
        token = (await service.store.get_table(1)).join_token
        assert query.answer.url == f"https://t.me/kwx_test_bot?start=j1_{token}"
        assert (await service.store.get_user(dave.id, bot_id=service.tables.bot_id)).pending_table_id == 1
        await kwx.press(ben, kwx.fake.message(group, lobby.message_id), "Join")
        await kwx.press(ann, kwx.fake.message(group, lobby.message_id), "Add AI")
        await kwx.press(ann, kwx.fake.message(group, lobby.message_id), "Start")
        chat = kwx.fake.private_chat(dave)
        for _ in range(2):  # a bare /start greets (every time), it does not refuse a started table
            kwx.fake.start_bot(dave)
            await kwx.settle()
            assert WELCOME in kwx.fake.last_message(chat).content
        assert (await service.store.get_user(dave.id, bot_id=service.tables.bot_id)).pending_table_id is None


async def test_a_refused_join_link_also_drops_the_pending_join(kwx):
    ann, ben, dave = kwx.players("Ann", "Ben", "Dave")
    group = kwx.group([ann, ben, dave])
    async with kwx.running() as service:
        await kwx.start_bot(ann, ben)
        kwx.fake.user_command(ann, group, "new")
        await kwx.settle()
        lobby = kwx.fake.last_message(group)
        query = await kwx.press(dave, lobby, "Join")
        for _ in range(2):
            await kwx.press(ann, kwx.fake.message(group, lobby.message_id), "Add AI")
        await kwx.press(ann, kwx.fake.message(group, lobby.message_id), "Start")
        kwx.fake.start_bot(dave, query.answer.url.split("start=", 1)[1])  # the link expired with the lobby
        await kwx.settle()
        assert "does not work for you" in kwx.fake.last_message(kwx.fake.private_chat(dave)).content
        assert (await service.store.get_user(dave.id, bot_id=service.tables.bot_id)).pending_table_id is None


async def test_the_lobby_private_chat_button_does_not_join_a_spectator(kwx):
    ann, ben, dave = kwx.players("Ann", "Ben", "Dave")
    group = kwx.group([ann, ben, dave])
    async with kwx.running() as service:
        await kwx.start_bot(ann)
        kwx.fake.user_command(ann, group, "new")
        await kwx.settle()
        lobby = kwx.fake.last_message(group)
        url = next(b.url for row in lobby.buttons for b in row if b.url)
        assert url.startswith("https://t.me/kwx_test_bot?start=") and "start=j" not in url
        payload = url.split("start=", 1)[1]
        kwx.fake.start_bot(dave, payload)  # a spectator just opening the chat
        await kwx.settle()
        assert WELCOME in kwx.fake.last_message(kwx.fake.private_chat(dave)).content
        assert await service.store.open_seat_of_user(dave.id, bot_id=service.tables.bot_id) is None
        # who pressed Join first is seated by the same link
        await kwx.press(ben, kwx.fake.message(group, lobby.message_id), "Join")
        kwx.fake.start_bot(ben, payload)
        await kwx.settle()
        assert "You took a seat" in kwx.fake.last_message(kwx.fake.private_chat(ben)).content
        assert (await service.store.open_seat_of_user(ben.id, bot_id=service.tables.bot_id)).seat == 1
