"""Bot API calls per turn (docs/architecture.md §7: chat messages sent or edited per discard, over whole hands,
<= 2.5 on average; answerCallbackQuery not counted) with the production table-edit interval (3 s).

Players press as fast as the bot answers, so consecutive group-table changes coalesce; the numbers
are printed (run with ``-s``) for the report.  deleteMessage is counted too.
"""

from __future__ import annotations

import asyncio
import random

import pytest

from fakebot import MESSAGE_WRITE_METHODS

WRITES = MESSAGE_WRITE_METHODS | {"deleteMessage"}


@pytest.mark.slow
@pytest.mark.parametrize("humans", [3, 2, 1])
async def test_calls_per_turn_over_whole_hands(kwx, humans):
    kwx.table_edit_seconds = 3.0
    users = kwx.players(*["Ann", "Ben", "Cat"][:humans])
    group = kwx.group(users)
    rng = random.Random(humans)
    totals = {"turns": 0, "writes": 0, "private": 0, "group": 0, "hands": 0}
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        kwx.fake.user_command(users[0], group, "new")
        await kwx.settle()
        lobby = kwx.fake.last_message(group)
        for u in users[1:]:
            await kwx.press(u, lobby, "Join")
        for _ in range(3 - humans):
            await kwx.press(users[0], kwx.fake.message(group, lobby.message_id), "Add AI")
        table = await service.store.open_table_of_group(
            await service.store.group_id_for_chat(group.id), bot_id=service.tables.bot_id
        )
        for hand_no in range(1, 4):
            await service.prepare_deal(table.table_id, {"seed": f"budget-{humans}-{hand_no}"})
            mark = kwx.fake.mark()
            if hand_no == 1:
                await kwx.press(users[0], kwx.fake.message(group, lobby.message_id), "Start")
            else:
                await kwx.press(users[0], kwx.fake.last_message(group), "Next hand")
            await kwx.play_randomly(users, group, rng)
            await kwx.settle()
            hand = await service.store.current_hand(table.table_id)
            turns = sum(e.kind == "discarded" for e in await service.store.hand_events(hand.hand_id))
            calls = kwx.fake.calls_to(WRITES, since=mark)
            totals["turns"] += turns
            totals["writes"] += len(calls)
            totals["group"] += sum(c.chat_id is not None and c.chat_id < 0 for c in calls)
            totals["private"] += sum(c.chat_id is not None and c.chat_id > 0 for c in calls)
            totals["hands"] += 1
    per_turn = totals["writes"] / totals["turns"]
    print(
        f"\n{humans} human(s): {totals['hands']} hands, {totals['turns']} turns, {totals['writes']} writes "
        f"({totals['private']} private, {totals['group']} group): {per_turn:.2f} per turn, "
        f"{totals['writes'] / totals['hands']:.1f} per hand"
    )
    assert per_turn <= 2.5


@pytest.mark.slow
async def test_a_busy_hand_keeps_the_group_within_its_budget_in_every_window(kwx):
    """Three humans at a brisk pace, on a time scale of 1:10 (a 6 s window for Telegram's 20
    messages a minute, 0.3 s between table edits, a press every 0.15 s): every 6 s window of the
    group's writes, edits and deletions included, holds at most 20, the result is announced, and
    the live table shows the final state."""
    scale = 0.1
    kwx.table_edit_seconds = 3.0 * scale
    kwx.group_messages, kwx.group_window_seconds = 20, 60.0 * scale
    users = kwx.players("Ann", "Ben", "Cat")
    group = kwx.group(users)
    rng = random.Random(11)
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        kwx.fake.user_command(users[0], group, "new")
        await kwx.settle()
        lobby = kwx.fake.last_message(group)
        for u in users[1:]:
            await kwx.press(u, lobby, "Join")
        table = await service.store.open_table_of_group(
            await service.store.group_id_for_chat(group.id), bot_id=service.tables.bot_id
        )
        await service.prepare_deal(table.table_id, {"seed": "budget-busy-1"})
        mark = kwx.fake.mark()
        await kwx.press(users[0], kwx.fake.message(group, lobby.message_id), "Start")
        for _ in range(400):
            if any("Points:" in m.content for m in kwx.fake.bot_messages(group)):
                break
            movers = [(u, bs) for u in users if (bs := kwx.game_buttons(u))]
            if movers:
                user, buttons = rng.choice(movers)
                kwx.fake.press(user, kwx.hand_message(user), data=rng.choice(buttons)[1])
            await asyncio.sleep(0.15)
        else:
            raise AssertionError("the hand did not end")
        # the live table catches up: its coalesced edit waits out the group's budget, then goes out
        await asyncio.wait_for(service.idle(), 60)
        await kwx.settle()
        live = service.tables.cached()[0]
        assert kwx.fake.message(group, live.row.table_msg_id).source_caption == live.table_shown.caption
    times = sorted(c.time for c in kwx.fake.calls_to(WRITES, chat=group, since=mark) if c.ok)
    window = 60.0 * scale
    peak = max(sum(1 for u in times if t <= u < t + window) for t in times)
    print(f"\ngroup writes in a busy hand: {len(times)}; peak in any {window:.0f} s window (1:10 scale): {peak}")
    assert peak <= 20
    assert len(times) > 20  # the hand was long enough to need the budget
