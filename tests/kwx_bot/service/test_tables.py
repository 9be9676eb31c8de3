"""The registry of open tables holds only its own bot's tables (docs/architecture.md §8): another
bot's table in the same database is never loaded, and a /new or a press about it is refused
politely without a change; a table made before ownership is adopted at start-up."""

from __future__ import annotations

from dataclasses import replace

from kwx_bot.service import TableService
from kwx_bot.service.buttons import Button, Op

from .conftest import ANN, BEN, CAT, GROUP, World
from .fakes import RecordingMessenger, TinyPictures
from .test_play import SCENARIO, deal, perform

OTHER = 2
"""Another bot on the same database (the world's bot is 1, from its token "1:...")."""


async def _table_of(world: World, bot_id: int) -> int:
    async with world.store.transaction() as tx:
        await tx.upsert_user(ANN.user_id, ANN.first_name)
        gid = await tx.ensure_group(GROUP, "Friends")
        return await tx.create_table(gid, "standard", {}, ANN.user_id, bot_id=bot_id)


async def test_another_bots_table_is_neither_loaded_nor_touched(world: World) -> None:
    assert world.service.tables.bot_id == 1
    table_id = await _table_of(world, OTHER)
    before = (await world.store.get_table(table_id), await world.store.seats(table_id))
    assert await world.service.tables.get(table_id) is None
    assert (await world.service.tables.foreign(table_id)).bot_id == OTHER
    assert await world.service.tables.resume_all() == []
    response = await world.service.new(world.command(BEN, "new"))
    assert "Another bot runs this group's table" in response.outs[0].text
    await world.start(BEN)
    reply = (await world.service.press(BEN, GROUP, 1, Button(table_id, 0, Op.JOIN))).reply
    assert reply is not None and "belongs to another bot" in reply.text and reply.alert
    assert (await world.store.get_table(table_id), await world.store.seats(table_id)) == before
    assert world.service.tables.cached() == [] and world.chat.in_chat(GROUP) == []


async def test_a_table_made_before_ownership_is_adopted_at_start(world: World) -> None:
    table_id = await _table_of(world, 0)
    assert await world.service.tables.get(table_id) is None  # not the bot's until it is adopted
    resumed = await world.service.tables.resume_all()
    assert [live.table_id for live in resumed] == [table_id]
    assert (await world.store.get_table(table_id)).bot_id == 1
    assert (await world.table()).table_id == table_id


async def _restart(world: World, *, forget: bool) -> RecordingMessenger:
    """The service stopped cleanly and started again on the same store, against chats that lost
    every message (``forget``: told so, ``KWX_FORGET_MESSAGES``); returns the new chats."""
    await world.service.shutdown()
    chat = RecordingMessenger()
    settings = replace(world.service.settings, forget_messages=forget)
    world.service = TableService(world.store, chat, TinyPictures(), settings)
    world.chat = chat
    await world.service.startup()
    await world.service.idle()
    return chat


async def test_a_start_told_the_chats_lost_the_messages_sends_them_anew(world: World) -> None:
    table_id = await deal(world)
    for action in SCENARIO["actions"]:
        await perform(world, action)  # the hand is over: between hands
    assert (await world.store.get_table(table_id)).status == "between"
    quiet = await _restart(world, forget=False)  # trusted: what each message showed at the clean stop
    assert [m for m in quiet.messages.values() if m.chat_id != GROUP] == []
    chat = await _restart(world, forget=True)
    for user in (ANN, BEN, CAT):
        (hand,) = chat.in_chat(user.user_id)  # her hand message, anew: the hand over
        assert hand.photo and "The hand is over" in hand.text and not hand.presses
    offer = chat.last(GROUP)  # the result's Next hand / End the table, lost with it, offered again
    assert {b.op for b in offer.presses} == {Op.NEXT_HAND, Op.CLOSE}
    assert (await world.press(BEN, offer, offer.press(Op.NEXT_HAND))).text == "Dealing…"


async def test_a_lobby_whose_message_the_chats_lost_is_posted_again(world: World) -> None:
    await world.start(ANN)
    await world.service.new(world.command(ANN, "new"))
    chat = await _restart(world, forget=True)
    lobby = chat.last(GROUP)
    assert "Ann" in lobby.text and Op.JOIN in {b.op for b in lobby.presses}
