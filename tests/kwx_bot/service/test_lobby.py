"""The lobby, in the service alone: /new posts it, Join needs a private chat first, Join and Leave
change the seats, Start deals; a refused private chat (403) is a value the service acts on."""

from __future__ import annotations

import asyncio

from kwx_bot.service import Reply, UserInfo
from kwx_bot.service.buttons import Op, StartKind, encode_start
from kwx_bot.service.ports import Sent
from kwx_bot.store import TableStatus

from .conftest import ANN, BEN, CAT, GROUP, World

DAN = UserInfo(4, "Dan")


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


async def test_the_private_confirmation_names_the_tables_game(world: World) -> None:
    await world.start(BEN)
    await world.start(CAT)
    await world.service.new(world.command(ANN, "new", "kaxinwu"))
    lobby = world.chat.last(GROUP)
    await world.press(BEN, lobby, lobby.press(Op.JOIN))
    assert "the Ka Xin Wu table in" in world.chat.last(BEN.user_id).text  # not Ka Wu Xing: 卡心五 was opened
    lobby = world.chat.last(GROUP)
    await world.press(ANN, lobby, lobby.press(Op.GAME_KAWUXING))  # the lobby switches to 卡五星
    lobby = world.chat.last(GROUP)
    await world.press(CAT, lobby, lobby.press(Op.JOIN))
    assert "the Ka Wu Xing table in" in world.chat.last(CAT.user_id).text


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


async def test_membership_is_asked_of_telegram_with_no_table_lock_held(world: World, monkeypatch) -> None:
    """``getChatMember`` is asked before the table is locked (docs/security.md §1), for a Join, a
    join link and the creator's buttons from outside a seat; the creator's second button uses the
    answer remembered from the first."""
    asked: list[tuple[int, bool]] = []
    real = world.chat.membership

    async def membership(chat_id: int, user_id: int) -> Sent:
        asked.append((user_id, any(t.lock.locked() for t in world.service.tables.cached())))
        return await real(chat_id, user_id)

    monkeypatch.setattr(world.chat, "membership", membership)
    await world.start(BEN, CAT)
    await world.service.new(world.command(ANN, "new"))  # Ann never opened the private chat: not seated
    lobby = world.chat.last(GROUP)
    assert (await world.press(BEN, lobby, lobby.press(Op.JOIN))).text == "You took a seat."
    lobby = world.chat.last(GROUP)
    await world.press(ANN, lobby, lobby.press(Op.ADD_AI))  # the creator, a member, from outside a seat
    lobby = world.chat.last(GROUP)
    assert "语言" in (await world.press(ANN, lobby, lobby.press(Op.LANG_ZH))).text
    live = await world.table()
    payload = encode_start(StartKind.JOIN, live.table_id, live.row.join_token)
    await world.service.start(world.command(CAT, "start", payload, chat_id=CAT.user_id))
    assert [s.user_id for s in (await world.table()).seats] == [BEN.user_id, None, CAT.user_id]
    assert asked == [(BEN.user_id, False), (ANN.user_id, False), (CAT.user_id, False)]


async def test_a_slow_membership_question_holds_up_no_other_press(world: World, monkeypatch) -> None:
    """While Telegram is slow to say whether Dan is a member, a seated player's press is answered
    and carried out; Dan is seated once the answer comes."""
    answer = asyncio.Event()
    real = world.chat.membership

    async def membership(chat_id: int, user_id: int) -> Sent:
        if user_id == DAN.user_id:
            await answer.wait()
        return await real(chat_id, user_id)

    monkeypatch.setattr(world.chat, "membership", membership)
    await world.start(ANN, DAN)
    await world.service.new(world.command(ANN, "new"))
    lobby = world.chat.last(GROUP)
    join = asyncio.ensure_future(world.service.press(DAN, GROUP, lobby.message_id, lobby.press(Op.JOIN)))
    await asyncio.sleep(0.01)
    assert not join.done()
    reply = await asyncio.wait_for(world.press(ANN, lobby, lobby.press(Op.ADD_AI)), 2)
    assert not reply.alert and [s.is_ai for s in (await world.table()).seats] == [False, True]
    answer.set()
    assert (await asyncio.wait_for(join, 2)).reply == Reply("You took a seat.")
    assert (await world.table()).seat_of(DAN.user_id) is not None


async def test_a_remembered_member_who_left_is_refused_a_seat(world: World) -> None:
    """Ben pressed Join without a private chat (a remembered "member" is enough for the link);
    he leaves the group, then opens the private chat: the seating asks Telegram again."""
    await world.service.new(world.command(ANN, "new"))
    lobby = world.chat.last(GROUP)
    assert (await world.press(BEN, lobby, lobby.press(Op.JOIN))).url is not None
    world.chat.outsiders.add(BEN.user_id)
    await world.start(BEN)  # a bare /start completes the remembered join: refused now
    assert (await world.table()).seat_of(BEN.user_id) is None
