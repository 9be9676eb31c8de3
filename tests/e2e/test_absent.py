"""Absent players: time-outs (discard the drawn tile / pass), 托管 after two in a row, taking the
seat back; a player who blocks the bot mid-hand is played by the AI and can come back."""

from __future__ import annotations

import asyncio
import random

from .scenarios import open_table


async def _press_random(kwx, users, rng) -> bool:
    movers = [(u, kwx.game_buttons(u)) for u in users]
    movers = [(u, b) for u, b in movers if b]
    if not movers:
        return False
    user, buttons = rng.choice(movers)
    await kwx.press(user, kwx.hand_message(user), data=rng.choice(buttons)[1])
    return True


def _over(kwx, group) -> bool:
    return any("Points:" in m.content for m in kwx.fake.bot_messages(group))


async def test_a_silent_player_goes_on_auto_play_and_takes_the_seat_back(kwx):
    kwx.discard_seconds = 0.3
    kwx.claim_seconds = 0.3
    users = kwx.players("Ann", "Ben", "Cat")
    ann, ben, cat = users
    group = kwx.group(users)
    rng = random.Random(7)
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        table_id = await open_table(kwx, users, group)
        await service.prepare_deal(table_id, {"seed": "absent-2", "dealer": 0})
        await kwx.press(ann, kwx.fake.bot_messages(group)[0], "Start")

        def notice():
            return any("Ben keeps timing out" in m.content for m in kwx.fake.bot_messages(group))

        while not notice() and not _over(kwx, group):
            if not await _press_random(kwx, [ann, cat], rng):
                await kwx.fake.wait_for(lambda: notice() or kwx.game_buttons(ann) or kwx.game_buttons(cat), 5)
        assert notice()
        await kwx.fake.wait_for(lambda: kwx.hand_message(ben).button_texts == ["I'm back: let me play"], 5)
        events = await service.store.hand_events(1)
        ben_moves = [e for e in events if e.data.get("seat") == 1 and e.kind in ("discarded", "answered")]
        assert ben_moves and all(e.actor is None for e in ben_moves)  # time-outs and the AI, never a press
        query = await kwx.press(ben, kwx.hand_message(ben), "I'm back: let me play")
        assert "Welcome back" in query.answer.text
        seat = (await service.store.seats(table_id))[1]
        assert not seat.on_auto and seat.timeouts == 0


async def test_everybody_silent_the_ai_finishes_and_the_next_dealer_is_back(kwx):
    kwx.discard_seconds = 0.2
    kwx.claim_seconds = 0.2
    users = kwx.players("Ann", "Ben", "Cat")
    group = kwx.group(users)
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        table_id = await open_table(kwx, users, group)
        await service.prepare_deal(table_id, {"seed": "absent-1", "dealer": 0})
        await kwx.press(users[0], kwx.fake.bot_messages(group)[0], "Start")
        await kwx.fake.wait_for(lambda: _over(kwx, group), 20)
        await kwx.settle()
        assert sum("keeps timing out" in m.content for m in kwx.fake.bot_messages(group)) == 3
        assert all(s.on_auto for s in await service.store.seats(table_id))
        assert all(e.actor is None for e in (await service.store.hand_events(1))[1:])
        chat = kwx.fake.private_chat(users[0])
        kwx.fake.user_command(users[0], chat, "back")
        await kwx.settle()
        assert "Welcome back" in kwx.fake.last_message(chat).content
        await kwx.press(users[2], kwx.fake.last_message(group), "Next hand")
        seats = await service.store.seats(table_id)
        assert [s.on_auto for s in seats] == [False, True, False]


async def test_a_player_who_blocks_the_bot_is_auto_played_and_comes_back(kwx):
    users = kwx.players("Ann", "Ben", "Cat")
    ann, ben, cat = users
    group = kwx.group(users)
    rng = random.Random(3)
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        table_id = await open_table(kwx, users, group)
        await service.prepare_deal(table_id, {"seed": "blocked-1", "dealer": 0})
        await kwx.press(ann, kwx.fake.bot_messages(group)[0], "Start")
        kwx.fake.block_bot(ben)
        await kwx.settle()
        notice = next(m for m in kwx.fake.bot_messages(group) if "cannot message Ben" in m.content)
        assert notice.buttons[0][0].url == f"https://t.me/kwx_test_bot?start=h{table_id}"
        for _ in range(12):  # Ann and Cat play on; Ben's turns are played by the AI
            if _over(kwx, group) or not await _press_random(kwx, [ann, cat], rng):
                break
        events = await service.store.hand_events(1)
        assert any(e.kind == "discarded" and e.data["seat"] == 1 and e.actor is None for e in events)
        # Ben unblocks and opens the chat from the notice's link: his hand comes back and he plays again
        kwx.fake.unblock_bot(ben)
        kwx.fake.start_bot(ben, f"h{table_id}")
        await kwx.settle()
        live = service.tables.cached()[0]
        assert live.seat_of(ben.id).can_pm and not live.seat_of(ben.id).automatic
        if live.state is not None and live.state.result is None:
            assert kwx.hand_message(ben) is not None


async def test_a_slow_player_gets_one_notifying_reminder_deleted_when_they_act(kwx):
    kwx.remind_seconds = 0.2
    users = kwx.players("Ann", "Ben", "Cat")
    ann = users[0]
    group = kwx.group(users)
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        table_id = await open_table(kwx, users, group)
        await service.prepare_deal(table_id, {"seed": "remind-1", "dealer": 0})
        await kwx.press(ann, kwx.fake.bot_messages(group)[0], "Start")
        chat = kwx.fake.private_chat(ann)
        reminder = await kwx.fake.wait_for_message(chat, contains="Your move", since=0, timeout=5)
        assert not reminder.silent and reminder.reply_to.message_id == kwx.hand_message(ann).message_id
        await kwx.settle()
        assert sum("Your move" in m.content for m in kwx.fake.bot_messages(chat)) == 1  # only one
        _label, data = kwx.game_buttons(ann)[0]
        await kwx.press(ann, kwx.hand_message(ann), data=data)
        assert kwx.fake.message(chat, reminder.message_id).deleted


async def test_one_block_gives_one_notice_and_coming_back_makes_no_useless_edit(kwx):
    users = kwx.players("Ann", "Ben", "Cat")
    ann, ben, cat = users
    group = kwx.group(users)
    rng = random.Random(5)
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        table_id = await open_table(kwx, users, group)
        await service.prepare_deal(table_id, {"seed": "blocked-2", "dealer": 0})
        await kwx.press(ann, kwx.fake.bot_messages(group)[0], "Start")
        kwx.fake.block_bot(ben)
        await kwx.settle()
        for _ in range(8):
            if _over(kwx, group) or not await _press_random(kwx, [ann, cat], rng):
                break
            await asyncio.sleep(0.3)
        notices = [m for m in kwx.fake.bot_messages(group) if "cannot message Ben" in m.content]
        assert len(notices) == 1
        kwx.fake.unblock_bot(ben)
        mark = kwx.fake.mark()
        kwx.fake.start_bot(ben, f"h{table_id}")
        await kwx.settle()
        useless = [c for c in kwx.fake.calls_to(None, since=mark, ok=False) if "not modified" in (c.error or "")]
        assert useless == []
