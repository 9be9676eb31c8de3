"""Only members of a group sit at its table: join links carry the table's secret and expire with the
lobby, membership is asked of Telegram (``getChatMember``) before seating, and a refused stranger
learns nothing — not the group's title, not whether the table exists."""

from __future__ import annotations

import secrets

from fakebot.model import MemberStatus

TITLE = "Secret family group"
REFUSAL = "does not work for you"


async def _open_lobby(kwx, creator, group):
    kwx.fake.user_command(creator, group, "new")
    await kwx.settle()
    return kwx.fake.last_message(group)


def _seen_by(kwx, user) -> str:
    return "\n".join(kwx.fake.seen_texts(kwx.fake.private_chat(user)))


async def _link_payload(service, table_id: int = 1) -> str:
    token = (await service.store.get_table(table_id)).join_token
    return f"j{table_id}_{token}"


async def test_an_outsider_with_a_valid_guessed_or_old_style_link_is_never_seated(kwx):
    ann, ben, mallory = kwx.players("Ann", "Ben", "Mallory")
    group = kwx.group([ann, ben], TITLE)
    async with kwx.running() as service:
        await kwx.start_bot(ann, ben)
        lobby = await _open_lobby(kwx, ann, group)
        valid = await _link_payload(service)  # a member forwarded the real link to a stranger
        guessed = f"j1_{secrets.token_hex(12)}"
        for payload in (valid, guessed, "j1", "j2", "j1_" + "0" * 24):
            kwx.fake.start_bot(mallory, payload)
            await kwx.settle()
            reply = kwx.fake.last_message(kwx.fake.private_chat(mallory)).content
            assert REFUSAL in reply
            assert await service.store.open_seat_of_user(mallory.id, bot_id=service.tables.bot_id) is None
        assert TITLE not in _seen_by(kwx, mallory) and "Secret" not in _seen_by(kwx, mallory)
        assert "Mallory" not in kwx.fake.message(group, lobby.message_id).content
        # the refusal does not tell a real table from a made-up one
        replies = {m for m in kwx.fake.seen_texts(kwx.fake.private_chat(mallory)) if REFUSAL in m}
        assert len(replies) == 1
        assert (await service.store.get_user(mallory.id, bot_id=service.tables.bot_id)).pending_table_id is None


async def test_a_member_with_the_link_is_seated_and_an_expired_link_is_refused(kwx):
    ann, ben, cat = kwx.players("Ann", "Ben", "Cat")
    group = kwx.group([ann, ben, cat], TITLE)
    async with kwx.running() as service:
        await kwx.start_bot(ann)
        lobby = await _open_lobby(kwx, ann, group)
        payload = await _link_payload(service)
        kwx.fake.start_bot(ben, payload)
        await kwx.settle()
        assert "You took a seat" in kwx.fake.last_message(kwx.fake.private_chat(ben)).content
        assert "2. Ben" in kwx.fake.message(group, lobby.message_id).content
        await kwx.press(ann, kwx.fake.message(group, lobby.message_id), "Add AI")
        await kwx.press(ann, kwx.fake.message(group, lobby.message_id), "Start")
        kwx.fake.start_bot(cat, payload)  # the lobby is gone: the link expired with it
        await kwx.settle()
        assert REFUSAL in kwx.fake.last_message(kwx.fake.private_chat(cat)).content
        assert await service.store.open_seat_of_user(cat.id, bot_id=service.tables.bot_id) is None


async def test_the_link_of_a_closed_table_is_refused(kwx):
    ann, ben = kwx.players("Ann", "Ben")
    group = kwx.group([ann, ben], TITLE)
    async with kwx.running() as service:
        await kwx.start_bot(ann, ben)
        await _open_lobby(kwx, ann, group)
        payload = await _link_payload(service)
        kwx.fake.user_command(ann, group, "kill")
        await kwx.settle()
        assert not await service.store.open_tables(bot_id=service.tables.bot_id)
        kwx.fake.start_bot(ben, payload)
        await kwx.settle()
        assert REFUSAL in kwx.fake.last_message(kwx.fake.private_chat(ben)).content
        assert await service.store.open_seat_of_user(ben.id, bot_id=service.tables.bot_id) is None


async def test_a_member_who_left_the_group_cannot_join(kwx):
    ann, ben, dave = kwx.players("Ann", "Ben", "Dave")
    group = kwx.group([ann, ben, dave], TITLE)
    async with kwx.running() as service:
        await kwx.start_bot(ann, ben)
        lobby = await _open_lobby(kwx, ann, group)
        # Dave (no private chat yet) presses Join: the join is remembered, he gets the link
        query = await kwx.press(dave, lobby, "Join")
        assert query.answer.url.endswith(await _link_payload(service))
        kwx.fake.set_member_status(group, dave, MemberStatus.LEFT)
        kwx.fake.start_bot(dave)  # a bare /start would complete the remembered join
        await kwx.settle()
        assert await service.store.open_seat_of_user(dave.id, bot_id=service.tables.bot_id) is None
        kwx.fake.start_bot(dave, await _link_payload(service))
        await kwx.settle()
        assert REFUSAL in kwx.fake.last_message(kwx.fake.private_chat(dave)).content
        assert await service.store.open_seat_of_user(dave.id, bot_id=service.tables.bot_id) is None
        assert TITLE not in _seen_by(kwx, dave)
        # Ben was banned: his press of a (still visible) Join button is refused too
        kwx.fake.set_member_status(group, ben, MemberStatus.RESTRICTED)  # still a member: he may join
        query = await kwx.press(ben, kwx.fake.message(group, lobby.message_id), "Join")
        assert "You took a seat" in query.answer.text
        await kwx.press(ben, kwx.fake.message(group, lobby.message_id), "Leave")
        kwx.fake.set_member_status(group, ben, MemberStatus.KICKED)
        kwx.fake.start_bot(ben, await _link_payload(service))
        await kwx.settle()
        assert await service.store.open_seat_of_user(ben.id, bot_id=service.tables.bot_id) is None


async def test_a_forged_join_button_for_another_groups_table_is_refused(kwx):
    ann, mallory = kwx.players("Ann", "Mallory")
    family = kwx.group([ann], TITLE)
    other = kwx.group([mallory], "Mallory's own group")
    async with kwx.running() as service:
        await kwx.start_bot(ann, mallory)
        family_lobby = await _open_lobby(kwx, ann, family)
        await kwx.settle()
        own_lobby = await _open_lobby(kwx, mallory, other)  # Mallory sits at table 2, in her group
        await kwx.press(mallory, own_lobby, "Leave")
        join = next(b.callback_data for row in family_lobby.buttons for b in row if b.text == "Join")
        query = kwx.fake.forge_press(mallory, kwx.fake.message(other, own_lobby.message_id), join)
        await kwx.fake.wait_for_answer(query, timeout=10)
        await kwx.settle()
        assert "Only members" in query.answer.text
        assert await service.store.open_seat_of_user(mallory.id, bot_id=service.tables.bot_id) is None
        assert "Mallory" not in kwx.fake.message(family, family_lobby.message_id).content
