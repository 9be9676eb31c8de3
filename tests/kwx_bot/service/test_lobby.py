"""The lobby, in the service alone: /new posts it, Join needs a private chat first, Join and Leave
change the seats, Start deals; a refused private chat (403) is a value the service acts on."""

from __future__ import annotations

from kwx_bot.service.buttons import Op, StartKind, encode_start
from kwx_bot.store import TableStatus

from .conftest import ANN, BEN, GROUP, World


async def test_new_posts_a_lobby_with_its_buttons_and_a_private_chat_link(world: World) -> None:
    assert (await world.service.new(world.command(ANN, "new"))).outs == ()
    lobby = world.chat.last(GROUP)
    assert {b.op for b in lobby.presses} == {
        Op.JOIN, Op.LEAVE, Op.LANG_ZH, Op.ADD_AI, Op.START,
        Op.GAME_KAWUXING, Op.GAME_KAXINWU, Op.SEATS_2, Op.SEATS_3, Op.SEATS_4}  # fmt: skip
    urls = [k.url for row in lobby.markup or () for k in row if k.url]
    table_id = (await world.table()).table_id
    assert urls == ["https://t.me/kwx_test_bot?start=hello"]  # opens the private chat, joins nothing
    assert encode_start(StartKind.JOIN, table_id) not in urls[0]
    assert (await world.table()).row.status == TableStatus.LOBBY


async def test_join_without_a_private_chat_opens_it_instead(world: World) -> None:
    await world.service.new(world.command(ANN, "new"))
    lobby = world.chat.last(GROUP)
    reply = await world.press(BEN, lobby, lobby.press(Op.JOIN))
    assert reply.url is not None and reply.url.startswith("https://t.me/kwx_test_bot?start=")
    assert (await world.table()).seat_of(BEN.user_id) is None


async def test_join_then_leave(world: World) -> None:
    await world.start(BEN)
    await world.service.new(world.command(ANN, "new"))
    lobby = world.chat.last(GROUP)
    reply = await world.press(BEN, lobby, lobby.press(Op.JOIN))
    assert reply.text == "You took a seat." and not reply.alert
    assert (await world.table()).seat_of(BEN.user_id) is not None
    assert "You took a seat" in world.chat.last(BEN.user_id).text  # told privately where they sit
    assert "Ben" in world.chat.last(GROUP).text  # the lobby shows the new player
    lobby = world.chat.last(GROUP)
    reply = await world.press(BEN, lobby, lobby.press(Op.LEAVE))
    assert reply.text == "You left the table."
    assert (await world.table()).seats == []


async def test_a_refused_private_chat_unseats_the_player(world: World) -> None:
    await world.start(BEN)
    world.chat.refused.add(BEN.user_id)  # Ben blocked the bot after /start
    await world.service.new(world.command(ANN, "new"))
    lobby = world.chat.last(GROUP)
    await world.press(BEN, lobby, lobby.press(Op.JOIN))
    assert (await world.table()).seat_of(BEN.user_id) is None
    user = await world.store.get_user(BEN.user_id, bot_id=world.service.tables.bot_id)
    assert user is not None and not user.can_pm  # the 403 reached the service as a value


async def test_start_with_ai_players_deals_a_hand(world: World) -> None:
    await world.start(ANN)
    await world.service.new(world.command(ANN, "new"))  # the opener sits down
    for _ in range(2):
        lobby = world.chat.last(GROUP)
        await world.press(ANN, lobby, lobby.press(Op.ADD_AI))
    lobby = world.chat.last(GROUP)
    reply = await world.press(ANN, lobby, lobby.press(Op.START))
    assert reply.text == "Dealing…"
    live = await world.table()
    assert live.row.status == TableStatus.PLAYING and live.state is not None
    hand = await world.hand_message(ANN)
    assert hand.photo


async def test_a_double_tap_on_add_ai_adds_one_ai(world: World) -> None:
    """Add AI carries the seating it was drawn for: the second tap of a double tap (the same old
    keyboard) changes nothing, and the lobby shown afterwards offers a fresh button that works."""
    await world.start(ANN)
    await world.service.new(world.command(ANN, "new"))
    lobby = world.chat.last(GROUP)
    button = lobby.press(Op.ADD_AI)
    await world.press(ANN, lobby, button)
    reply = await world.press(ANN, lobby, button)
    assert reply.text == "The seats have changed meanwhile: nothing done."
    assert [s.is_ai for s in (await world.table()).seats] == [False, True]
    lobby = world.chat.last(GROUP)
    await world.press(ANN, lobby, lobby.press(Op.ADD_AI))
    assert [s.is_ai for s in (await world.table()).seats] == [False, True, True]
