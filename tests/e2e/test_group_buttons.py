"""Stale group buttons are removed (Next hand / End the table once the next hand starts or the table
closes, Resume in private chat once the player is back); End the table takes two presses by a
seated player."""

from __future__ import annotations

from .scenarios import deal_scenario, load, open_table, perform


async def test_next_hand_buttons_are_removed_when_the_next_hand_starts(kwx):
    scenario = load("dealer_complete_hand")
    users = kwx.players("Ann", "Ben", "Cat")
    group = kwx.group(users)
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        table_id = await deal_scenario(kwx, users, group, scenario)
        for action in scenario["actions"]:
            await perform(kwx, users, action)
        result = kwx.fake.last_message(group)
        kwx.fake.user_command(users[1], group, "new")  # a second offer of the next hand
        await kwx.settle()
        offer = kwx.fake.last_message(group)
        assert offer.button_texts == ["Next hand", "End the table"]
        await service.prepare_deal(table_id, {"seed": "robust-next"})
        await kwx.press(users[2], result, "Next hand")
        assert (await service.store.current_hand(table_id)).hand_no == 2
        assert kwx.fake.message(group, result.message_id).buttons == []
        assert kwx.fake.message(group, offer.message_id).buttons == []


async def test_ending_the_table_takes_two_presses_by_a_seated_player(kwx):
    scenario = load("dealer_complete_hand")
    users = kwx.players("Ann", "Ben", "Cat")
    dave = kwx.players("Dave")[0]
    group = kwx.group([*users, dave])
    async with kwx.running() as service:
        await kwx.start_bot(*users, dave)
        table_id = await deal_scenario(kwx, users, group, scenario)
        for action in scenario["actions"]:
            await perform(kwx, users, action)
        result = kwx.fake.last_message(group)
        query = await kwx.press(dave, result, "End the table")  # not at the table
        assert query.answer.show_alert
        assert kwx.fake.message(group, result.message_id).button_texts == ["Next hand", "End the table"]
        await kwx.press(users[1], result, "End the table")
        asked = kwx.fake.message(group, result.message_id)
        assert asked.button_texts == ["Yes, end the table", "Back"]
        assert (await service.store.get_table(table_id)).status == "between"
        query = await kwx.press(dave, asked, "Yes, end the table")
        assert query.answer.show_alert and (await service.store.get_table(table_id)).status == "between"
        await kwx.press(users[1], asked, "Back")
        assert kwx.fake.message(group, result.message_id).button_texts == ["Next hand", "End the table"]
        await kwx.press(users[2], kwx.fake.message(group, result.message_id), "End the table")
        mark = kwx.fake.mark()
        await kwx.press(users[2], kwx.fake.message(group, result.message_id), "Yes, end the table")
        await kwx.settle()
        assert (await service.store.get_table(table_id)).status == "closed"
        assert kwx.fake.message(group, result.message_id).buttons == []
        # the group reads who ended it, as after /kill: one message
        said = [m for m in kwx.fake.bot_messages(group) if m.message_id > result.message_id]
        assert [m.text for m in said] == [f"{users[2].first_name} ended the table. Send /new to play again."]
        assert kwx.fake.count_calls("sendMessage", since=mark) == 1
        assert kwx.fake.count_calls(ok=False) == 0


async def test_the_resume_button_is_removed_when_the_player_is_back(kwx):
    users = kwx.players("Ann", "Ben", "Cat")
    ann, ben, _cat = users
    group = kwx.group(users)
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        table_id = await open_table(kwx, users, group)
        await service.prepare_deal(table_id, {"seed": "blocked-1", "dealer": 0})
        await kwx.press(ann, kwx.fake.bot_messages(group)[0], "Start")
        kwx.fake.block_bot(ben)
        await kwx.settle()
        notice = next(m for m in kwx.fake.bot_messages(group) if "cannot message Ben" in m.content)
        assert notice.buttons[0][0].text == "Resume in private chat"
        kwx.fake.unblock_bot(ben)
        kwx.fake.start_bot(ben, f"h{table_id}")
        await kwx.settle()
        assert kwx.fake.message(group, notice.message_id).buttons == []
