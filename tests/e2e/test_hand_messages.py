"""Hand messages: no stale "Waiting on" after the hand; /hand makes no useless edit of an old
message that has no buttons."""

from __future__ import annotations

from .scenarios import deal_scenario, load, perform


async def test_no_stale_waits_after_the_hand_and_hand_needs_no_useless_edit(kwx):
    scenario = load("d57_double_ron")
    users = kwx.players("Ann", "Ben", "Cat")
    ann, ben, cat = users
    group = kwx.group(users)
    async with kwx.running():
        await kwx.start_bot(*users)
        await deal_scenario(kwx, users, group, scenario)
        # Ben waits (no buttons): /hand sends his hand afresh and needs no edit of the old one
        assert kwx.hand_message(ben).buttons == []
        mark = kwx.fake.mark()
        kwx.fake.user_command(ben, kwx.fake.private_chat(ben), "hand")
        await kwx.settle()
        assert kwx.fake.count_calls("editMessageReplyMarkup", since=mark) == 0
        assert kwx.fake.count_calls(ok=False, since=mark) == 0
        for action in scenario["actions"]:
            await perform(kwx, users, action)
        for winner in (ann, cat):
            caption = kwx.hand_message(winner).content
            assert "The hand is over." in caption and "Waiting on" not in caption
