"""Lobbies: deep-link joins, one table per group and per player, AI seats, start rules, expiry."""

from __future__ import annotations

import re


async def _lobby(kwx, creator, group):
    kwx.fake.user_command(creator, group, "new")
    await kwx.settle()
    return kwx.fake.last_message(group)


async def test_a_user_who_never_started_the_bot_joins_via_the_deep_link(kwx):
    ann, dave, eve = kwx.players("Ann", "Dave", "Eve")
    group = kwx.group([ann, dave, eve])
    async with kwx.running() as service:
        await kwx.start_bot(ann)
        lobby = await _lobby(kwx, ann, group)
        assert "1. Ann" in lobby.content  # the creator sits at once
        query = await kwx.press(dave, lobby, "Join")
        token = (await service.store.get_table(1)).join_token
        assert query.answer.url == f"https://t.me/kwx_test_bot?start=j1_{token}"
        assert re.fullmatch(r"[0-9a-f]{24}", token)
        assert "Dave" not in kwx.fake.message(group, lobby.message_id).content
        # Dave follows the link: Telegram sends /start j1_<token> in the private chat
        kwx.fake.start_bot(dave, f"j1_{token}")
        await kwx.settle()
        assert "2. Dave" in kwx.fake.message(group, lobby.message_id).content
        assert "You took a seat" in kwx.fake.last_message(kwx.fake.private_chat(dave)).content
        # Eve presses Join, then opens the bot with a bare /start: the pending join completes
        await kwx.press(eve, lobby, "Join")
        kwx.fake.start_bot(eve)
        await kwx.settle()
        assert "3. Eve" in kwx.fake.message(group, lobby.message_id).content
        assert (await service.store.get_user(eve.id, bot_id=service.tables.bot_id)).pending_table_id is None
        await kwx.press(ann, kwx.fake.message(group, lobby.message_id), "Start")
        assert all(kwx.hand_message(u) is not None for u in (ann, dave, eve))


async def test_one_table_per_group_and_one_table_per_player(kwx):
    ann, ben = kwx.players("Ann", "Ben")
    g1 = kwx.group([ann, ben], "First")
    g2 = kwx.group([ann, ben], "Second")
    async with kwx.running() as service:
        await kwx.start_bot(ann, ben)
        lobby = await _lobby(kwx, ann, g1)
        again = await _lobby(kwx, ben, g1)  # /new again: the same lobby, posted anew
        assert again.message_id != lobby.message_id and "1. Ann" in again.content
        assert kwx.fake.message(g1, lobby.message_id).deleted
        assert len(await service.store.open_tables(bot_id=service.tables.bot_id)) == 1
        other = await _lobby(kwx, ben, g2)
        assert "1. Ben" in other.content
        query = await kwx.press(ann, other, "Join")
        assert "another open table" in query.answer.text
        query = await kwx.press(ann, again, "Join")
        assert "already sit" in query.answer.text


async def test_ai_seats_and_start_rules(kwx):
    ann, ben, zoe = kwx.players("Ann", "Ben", "Zoe")
    group = kwx.group([ann, ben, zoe])
    async with kwx.running():
        await kwx.start_bot(ann, ben, zoe)
        lobby = await _lobby(kwx, ann, group)
        query = await kwx.press(ann, lobby, "Start")
        assert query.answer.show_alert and "Three seats" in query.answer.text
        query = await kwx.press(zoe, lobby, "Add AI")
        assert query.answer.show_alert  # only players at the table
        await kwx.press(ann, lobby, "Add AI")
        await kwx.press(ann, kwx.fake.message(group, lobby.message_id), "Add AI")
        content = kwx.fake.message(group, lobby.message_id).content
        assert "2. AI 2" in content and "3. AI 3" in content
        await kwx.press(ann, kwx.fake.message(group, lobby.message_id), "Remove AI")
        await kwx.press(ben, kwx.fake.message(group, lobby.message_id), "Join")
        assert "Add AI" not in kwx.fake.message(group, lobby.message_id).button_texts  # full
        query = await kwx.press(ben, kwx.fake.message(group, lobby.message_id), "Leave")
        assert "left" in query.answer.text
        await kwx.press(ben, kwx.fake.message(group, lobby.message_id), "Join")
        await kwx.press(ben, kwx.fake.message(group, lobby.message_id), "Start")
        assert kwx.fake.message(group, lobby.message_id).buttons == []
        assert "The game is on" in kwx.fake.message(group, lobby.message_id).content
        assert kwx.hand_message(ann) is not None and kwx.hand_message(ben) is not None
        assert kwx.hand_message(zoe) is None


async def test_idle_lobby_expires(kwx):
    kwx.lobby_idle_seconds = 0.4
    ann = kwx.players("Ann")[0]
    group = kwx.group([ann])
    async with kwx.running() as service:
        await kwx.start_bot(ann)
        lobby = await _lobby(kwx, ann, group)
        await kwx.fake.wait_for(lambda: "expired" in kwx.fake.message(group, lobby.message_id).content, 10)
        await kwx.settle()
        assert kwx.fake.message(group, lobby.message_id).buttons == []
        assert await service.store.open_tables(bot_id=service.tables.bot_id) == []
        assert (
            await service.store.open_seat_of_user(ann.id, bot_id=service.tables.bot_id) is None
        )  # free to sit elsewhere


async def test_group_and_private_languages(kwx):
    kwx.default_language = "zh_CN"
    li = kwx.fake.create_user("李", language_code="zh-hans")
    bob = kwx.fake.create_user("Bob", language_code="en")
    group = kwx.group([li, bob])
    async with kwx.running():
        await kwx.start_bot(li, bob)
        lobby = await _lobby(kwx, li, group)
        assert "卡五星牌桌" in lobby.content and "加入" in lobby.button_texts
        await kwx.press(bob, lobby, "加入")
        assert "You took a seat" in kwx.fake.last_message(kwx.fake.private_chat(bob)).content
        await kwx.press(li, kwx.fake.message(group, lobby.message_id), "加电脑")
        await kwx.press(li, kwx.fake.message(group, lobby.message_id), "开始")
        assert kwx.hand_message(li).content.startswith("第1局")
        assert kwx.hand_message(bob).content.startswith("Hand 1")
        assert "第1局" in kwx.fake.bot_messages(group)[1].content


async def test_hostile_names_are_shown_as_typed(kwx):
    evil = kwx.fake.create_user("<b>&", last_name="*_[`")
    ann = kwx.fake.create_user("Ann")
    group = kwx.group([evil, ann], "<i>title</i>")
    async with kwx.running():
        await kwx.start_bot(evil, ann)
        lobby = await _lobby(kwx, evil, group)
        assert "1. <b>& *_[`" in lobby.content and "<i>title</i>" in lobby.content
        await kwx.press(ann, lobby, "Join")
        await kwx.press(ann, kwx.fake.message(group, lobby.message_id), "Add AI")
        await kwx.service.prepare_deal(1, {"seed": "names", "dealer": 0})
        await kwx.press(evil, kwx.fake.message(group, lobby.message_id), "Start")
        assert "dealer <b>& *_[`" in kwx.fake.bot_messages(group)[1].content
        assert "<i>title</i>" in kwx.hand_message(ann).content
        assert kwx.fake.count_calls(ok=False) == 0


async def test_new_between_hands_offers_the_next_hand_again(kwx):
    from .scenarios import deal_scenario, load, perform

    scenario = load("dealer_complete_hand")
    users = kwx.players("Ann", "Ben", "Cat")
    group = kwx.group(users)
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        table_id = await deal_scenario(kwx, users, group, scenario)
        for action in scenario["actions"]:
            await perform(kwx, users, action)
        kwx.fake.user_command(users[1], group, "new")
        await kwx.settle()
        offer = kwx.fake.last_message(group)
        assert offer.button_texts == ["Next hand", "End the table"]
        await kwx.press(users[1], offer, "End the table")  # asks first
        await kwx.press(users[1], kwx.fake.message(group, offer.message_id), "Yes, end the table")
        assert await service.store.open_tables(bot_id=service.tables.bot_id) == []
        assert (await service.store.get_table(table_id)).status == "closed"
        assert await service.store.open_seat_of_user(users[0].id, bot_id=service.tables.bot_id) is None


async def test_onlookers_pressing_lobby_buttons_never_hold_up_the_players(kwx):
    """Reproduction: members who do not sit at the table press its lobby buttons over and over
    (Join at a full table, the language, game and size buttons) while the production pacer runs.
    Each press once asked Telegram ``getChatMember``, paced 3 s apart like a write to the group and
    under the table's lock, so the lobby stalled and presses were answered after Telegram's 15 s.
    Now Start is answered and the hand dealt at once, and every press is answered within seconds
    (docs/security.md §1)."""
    from kwx_bot.edge.codec import Op, decode

    kwx.rate_limit, kwx.group_messages = True, 20  # production pacing: 20 writes a minute per group
    players = kwx.players("Ann", "Ben", "Cat", "Dan")  # four members at a 3-seat table: it is full
    onlookers = kwx.players(*[f"Onlooker {i}" for i in range(6)])
    group = kwx.group([*players, *onlookers])
    async with kwx.running():
        await kwx.start_bot(*players, *onlookers)
        lobby = await _lobby(kwx, players[0], group)
        for user in players[1:]:
            await kwx.press(user, kwx.fake.message(group, lobby.message_id), "Join")
        lobby = kwx.fake.message(group, lobby.message_id)
        datas = [
            b.callback_data for b in lobby.iter_buttons()
            if b.callback_data and decode(b.callback_data).op not in (Op.START, Op.LEAVE)
        ]  # fmt: skip
        assert len(datas) >= 7  # Join, 中文, two games, three sizes
        mark = kwx.fake.mark()
        presses = [kwx.fake.press(o, lobby, data=d) for _ in range(2) for o in onlookers for d in datas]
        start = kwx.fake.press(players[0], lobby, "Start")
        await kwx.fake.wait_for_answer(start, timeout=5)
        assert start.answer.text == "Dealing…"
        await kwx.fake.wait_for(lambda: sum(kwx.hand_message(u) is not None for u in players) == 3, 5)
        await kwx.fake.wait_for(lambda: all(q.answered for q in presses), 5)
        await kwx.settle()
    answered = {str(c.param("callback_query_id")): c.time for c in kwx.fake.calls_to("answerCallbackQuery", since=mark)}
    late = [answered[q.id] - q.created_at for q in [*presses, start] if answered[q.id] - q.created_at > 3.0]
    assert not late, f"{len(late)} presses answered more than 3 s late"
    refusals = {(q.answer.text, q.answer.show_alert) for q in presses}
    assert refusals == {("This table is full.", True), ("Only players at the table can do that.", True)}
    assert not any(o.first_name in kwx.fake.message(group, lobby.message_id).content for o in onlookers)
    # one question to Telegram per onlooker (their Join), remembered for the others
    assert kwx.fake.count_calls("getChatMember", since=mark) == len(onlookers)
