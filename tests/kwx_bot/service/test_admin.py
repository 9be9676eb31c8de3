"""``/kick`` at a table of four members and three seats, in the service alone (docs/rules.md §A2.1
"A member removed from a table of four"): the member of the hand leaves his seat to an AI that
finishes it and leaves at the next deal; the member sitting out leaves at once; the three people
left play on without a rotation; two removals leave an AI seat, as at any table."""

from __future__ import annotations

from dataclasses import replace

from kwx_bot.service import UserInfo
from kwx_bot.service.buttons import Op
from kwx_bot.service.game import RuleSet
from kwx_bot.store import TableStatus
from tests.e2e.test_table_sizes import dealer_wins_deal

from .conftest import ANN, BEN, CAT, GROUP, World

DAN = UserInfo(4, "Dan")
MEMBERS = (ANN, BEN, CAT, DAN)


async def four_at_three(world: World) -> int:
    """Ann, Ben, Cat and Dan sit down in that order; hand 1 is dealt (Dan sits it out) with Ann
    dealing a hand she can win at once."""
    await world.start(*MEMBERS)
    await world.service.new(world.command(ANN, "new"))
    for user in MEMBERS[1:]:
        lobby = world.chat.last(GROUP)
        answer = (await world.press(user, lobby, lobby.press(Op.JOIN))).text
        fourth = "You are four at a three-seat table: each hand one of you sits out."
        assert answer == ("You took a seat. " + fourth if user is DAN else "You took a seat.")
    live = await world.table()
    await world.service.prepare_deal(live.table_id, dealer_wins_deal(RuleSet()) | {"dealer": 0})
    lobby = world.chat.last(GROUP)
    assert (await world.press(ANN, lobby, lobby.press(Op.START))).text == "Dealing…"
    hand = await world.store.current_hand(live.table_id)
    assert hand is not None and hand.sitting_out == DAN.user_id
    return live.table_id


async def kick(world: World, *args: str, by: UserInfo = ANN, admin: bool = True) -> str:
    """``/kick args`` in the group: by an anonymous administrator (posting as the group), or by ``by``."""
    cmd = world.command(by, "kick", *args)
    if admin:
        cmd = replace(cmd, sender_chat_id=GROUP)
    response = await world.service.admin.kick(cmd)
    await world.service.idle()
    (out,) = response.outs
    return out.text


async def win_and_deal_on(world: World, winner: UserInfo, table_id: int) -> None:
    """``winner`` takes the win his hand offers; the next hand is dealt (the winner deals it again)."""
    message = await world.hand_message(winner)
    assert not (await world.press(winner, message, message.press(Op.WIN))).alert
    await world.service.prepare_deal(table_id, dealer_wins_deal(RuleSet()))
    result = world.chat.last(GROUP)
    assert (await world.press(CAT, result, result.press(Op.NEXT_HAND))).text == "Dealing…"


async def seating(world: World, table_id: int) -> list[int | None]:
    return [s.user_id for s in await world.store.seats(table_id)]


async def test_a_member_of_the_hand_is_replaced_by_an_ai_until_the_next_deal(world: World) -> None:
    table_id = await four_at_three(world)
    refused = await kick(world, "Ben", by=CAT, admin=False)
    assert refused == "Sorry, only the group's administrators can use /kick."
    assert await seating(world, table_id) == [ANN.user_id, BEN.user_id, CAT.user_id, DAN.user_id]
    said = await kick(world, "Ben")
    assert said == (
        "Ben left the table: an AI finishes this hand for the seat. "
        "From the next hand the other three play, and nobody sits out."
    )
    assert await seating(world, table_id) == [ANN.user_id, None, CAT.user_id, DAN.user_id]
    assert await world.store.open_seat_of_user(BEN.user_id, bot_id=world.service.tables.bot_id) is None
    message = await world.hand_message(ANN)
    assert not (await world.press(ANN, message, message.press(Op.WIN))).alert
    first = await world.store.current_hand(table_id)
    assert first is not None
    rows = await world.store.ledger_of_hand(first.hand_id)  # scored as any /kick: the AI's row, no person
    assert [r.user_id for r in rows] == [ANN.user_id, None, CAT.user_id] and sum(r.delta for r in rows) == 0
    result = world.chat.last(GROUP).text
    assert "Next dealer: Ann" in result and "Sitting out next hand" not in result
    await world.service.prepare_deal(table_id, dealer_wins_deal(RuleSet()))
    await world.press(CAT, world.chat.last(GROUP), world.chat.last(GROUP).press(Op.NEXT_HAND))
    # the AI seat left with the deal: Ann, Cat and Dan (back from sitting out) in their order
    assert await seating(world, table_id) == [ANN.user_id, CAT.user_id, DAN.user_id]
    hand = await world.store.current_hand(table_id)
    assert hand is not None and (hand.hand_no, hand.sitting_out, hand.dealer) == (2, None, 0)
    live = await world.table()
    assert live.sitting_out is None and not any(s.is_ai for s in live.seats)
    # and the three play every hand from now on: nobody sits out, no rotation
    await win_and_deal_on(world, ANN, table_id)
    assert await seating(world, table_id) == [ANN.user_id, CAT.user_id, DAN.user_id]
    hand = await world.store.current_hand(table_id)
    assert hand is not None and (hand.hand_no, hand.sitting_out) == (3, None)


async def test_the_member_sitting_out_is_found_and_removed_at_once(world: World) -> None:
    table_id = await four_at_three(world)
    said = await kick(world, "dan")
    assert said == "Dan left the table. From the next hand the other three play, and nobody sits out."
    assert await seating(world, table_id) == [ANN.user_id, BEN.user_id, CAT.user_id]
    assert (await world.table()).sitting_out is None
    assert world.chat.last(DAN.user_id).text.startswith("An administrator removed you from the table")
    message = await world.hand_message(ANN)
    await world.press(ANN, message, message.press(Op.WIN))
    assert "Sitting out next hand" not in world.chat.last(GROUP).text
    await world.service.prepare_deal(table_id, dealer_wins_deal(RuleSet()))
    reply = await world.press(DAN, world.chat.last(GROUP), world.chat.last(GROUP).press(Op.NEXT_HAND))
    assert reply.text == "Only players at the table can do that."  # he is no member any more
    await world.press(BEN, world.chat.last(GROUP), world.chat.last(GROUP).press(Op.NEXT_HAND))
    hand = await world.store.current_hand(table_id)
    assert hand is not None and (hand.hand_no, hand.sitting_out, hand.dealer) == (2, None, 0)
    assert await seating(world, table_id) == [ANN.user_id, BEN.user_id, CAT.user_id]


async def test_a_member_removed_between_hands_leaves_with_the_deal(world: World) -> None:
    table_id = await four_at_three(world)
    message = await world.hand_message(ANN)
    await world.press(ANN, message, message.press(Op.WIN))  # Ann sits hand 2 out, Ben deals it
    assert (await world.table()).row.status == TableStatus.BETWEEN
    said = await kick(world, "Cat")
    assert said == "Cat left the table. From the next hand the other three play, and nobody sits out."
    assert await seating(world, table_id) == [ANN.user_id, BEN.user_id, None, DAN.user_id]  # until the deal
    await world.service.prepare_deal(table_id, dealer_wins_deal(RuleSet()))
    await world.press(BEN, world.chat.last(GROUP), world.chat.last(GROUP).press(Op.NEXT_HAND))
    assert await seating(world, table_id) == [ANN.user_id, BEN.user_id, DAN.user_id]
    hand = await world.store.current_hand(table_id)
    # Ann won as dealer and deals again (A15.1): nobody sits out, so no winner rests
    assert hand is not None and (hand.sitting_out, hand.dealer) == (None, 0)


async def test_two_removals_leave_an_ai_seat_as_at_any_table(world: World) -> None:
    table_id = await four_at_three(world)
    assert (await kick(world, "Ben")).startswith("Ben left the table: an AI finishes this hand")
    assert await kick(world, "Cat") == "Cat left the table: an AI plays the seat."
    assert await kick(world, "Dan") == "Dan left the table."
    assert await seating(world, table_id) == [ANN.user_id, None, None]
    message = await world.hand_message(ANN)
    await world.press(ANN, message, message.press(Op.WIN))
    await world.service.prepare_deal(table_id, dealer_wins_deal(RuleSet()))
    await world.press(ANN, world.chat.last(GROUP), world.chat.last(GROUP).press(Op.NEXT_HAND))
    live = await world.table()
    assert [s.is_ai for s in live.seats] == [False, True, True] and live.sitting_out is None
    hand = await world.store.current_hand(table_id)
    assert hand is not None and hand.sitting_out is None and live.row.status == TableStatus.PLAYING


async def test_one_removal_from_the_hand_and_one_from_the_bench_keeps_one_ai(world: World) -> None:
    table_id = await four_at_three(world)
    await kick(world, "Cat")
    assert await kick(world, "Dan") == "Dan left the table."  # two people left: the AI seat stays
    message = await world.hand_message(ANN)
    await world.press(ANN, message, message.press(Op.WIN))
    await world.service.prepare_deal(table_id, dealer_wins_deal(RuleSet()))
    await world.press(BEN, world.chat.last(GROUP), world.chat.last(GROUP).press(Op.NEXT_HAND))
    assert await seating(world, table_id) == [ANN.user_id, BEN.user_id, None]
    hand = await world.store.current_hand(table_id)
    assert hand is not None and (hand.hand_no, hand.sitting_out) == (2, None)
