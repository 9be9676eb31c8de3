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


async def test_a_caption_after_an_opponents_discard_names_it_and_what_happened_since(kwx):
    scenario = load("h2_one_liangdao")  # Ann: 亮倒 with 9s; Ben discards 5s; then it is Cat's turn
    users = kwx.players("Ann", "Ben", "Cat")
    _ann, ben, cat = users
    group = kwx.group(users)
    async with kwx.running():
        await kwx.start_bot(*users)
        await deal_scenario(kwx, users, group, scenario)
        for action in scenario["actions"][:2]:
            await perform(kwx, users, action)
        await kwx.settle()
        caption = kwx.hand_message(cat).content
        assert kwx.game_buttons(cat), "Cat's turn"
        lines = caption.splitlines()
        assert "Ann declared liangdao." in lines
        assert "Last discard: 5 Bam by Ben." in lines
        assert any(line.startswith("<b>Your turn</b>") or line.startswith("Your turn") for line in lines), lines
        # Ben, who only waits now, is not told again (no edit for others' routine turns)
        assert "Last discard" not in kwx.hand_message(ben).content
