"""Restarts: every open table is rebuilt from its events, deadlines are re-armed, and presses made
while the bot was down (or on messages sent before the restart) still work."""

from __future__ import annotations

import asyncio

import pytest

from .harness import TinyPictures
from .scenarios import ACT_OPS, deal_scenario, engine_play, load, open_table, perform


@pytest.mark.parametrize("name", ["liangdao_direct_kong", "d57_double_ron"])
async def test_restart_mid_hand_finishes_with_the_same_result(kwx, name):
    await restart_mid_hand(kwx, name)


async def restart_mid_hand(kwx, name: str) -> None:
    """Play the first half of scenario ``name``, stop the bot, press a button of a message sent
    before the stop, start it again on the same database and finish: the same events, ledger and
    result as the engine's, one result and one hand-start message (tests/e2e/test_postgres.py runs
    it on PostgreSQL)."""
    scenario = load(name)
    expected = engine_play(scenario)
    users = kwx.players("Ann", "Ben", "Cat")
    group = kwx.group(users)
    actions = scenario["actions"]
    half = len(actions) // 2
    async with kwx.running():
        await kwx.start_bot(*users)
        table_id = await deal_scenario(kwx, users, group, scenario)
        for action in actions[:half]:
            await perform(kwx, users, action)
    # the bot is down; the next player presses a button of the message sent before the restart
    nxt = actions[half]
    pressed = None
    if nxt["act"] != "liangdao":
        user = users[nxt["seat"]]
        msg = kwx.hand_message(user)
        data = next(
            b.callback_data for b in msg.iter_buttons()
            if b.callback_data and b.callback_data.split(":")[2] == ACT_OPS[nxt["act"]] + (nxt.get("tile") or "")
        )  # fmt: skip
        pressed = kwx.fake.press(user, msg, data=data)
    async with kwx.running() as service:
        await kwx.settle()
        rest = actions[half + 1 :] if pressed is not None else actions[half:]
        if pressed is not None:
            assert pressed.answered and not pressed.answer.show_alert, pressed.answer
        for action in rest:
            await perform(kwx, users, action)
        await kwx.settle()
        hand = await service.store.current_hand(table_id)
        stored = [e.data for e in await service.store.hand_events(hand.hand_id)]
        ledger = await service.store.ledger_of_hand(hand.hand_id)
    assert stored == expected["events"]
    assert [r.delta for r in ledger] == expected["result"]["deltas"]
    assert "Points:" in kwx.fake.last_message(group).content
    # one result message and one hand-start message, even across the restart
    assert sum("Points:" in m.content for m in kwx.fake.bot_messages(group)) == 1
    first_versions = [(m.history[0].caption if m.history else m.content) or "" for m in kwx.fake.bot_messages(group)]
    assert sum("starts" in c for c in first_versions) == 1


async def test_deadline_is_rearmed_after_a_restart(kwx):
    kwx.discard_seconds = 0.5
    scenario = load("d57_double_ron")
    users = kwx.players("Ann", "Ben", "Cat")
    group = kwx.group(users)
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        table_id = await deal_scenario(kwx, users, group, scenario)
        table = await service.store.get_table(table_id)
        assert table.deadline_kind == "turn" and table.deadline_at is not None
        seq = table.seq
    async with kwx.running() as service:
        await kwx.fake.wait_for(lambda: service.tables.cached() and service.tables.cached()[0].row.seq > seq, 8)
        await kwx.settle()
        events = await service.store.hand_events(1)
        first_mover = scenario["dealer"]
        timed_out = [e for e in events if e.kind == "discarded" and e.data["seat"] == first_mover]
        assert timed_out and timed_out[0].actor is None  # discarded by the time-out, not a press


class SlowHandPictures(TinyPictures):
    """Hand pictures that take a while to draw, so a deal can happen in the middle of one."""

    async def hand(self, view, lang="zh_CN", protected=(), game="kawuxing", names=()):
        await asyncio.sleep(0.4)
        return await super().hand(view, lang, protected, game, names)


async def test_next_hand_pressed_while_a_restart_redraws_the_old_hands(kwx):
    """After a restart the old hand's messages are redrawn (slowly); "Next hand", pressed while the
    bot was down, deals meanwhile: no edit goes out without a message id, and no old picture lands
    on a new hand message."""
    scenario = load("d57_double_ron")
    users = kwx.players("Ann", "Ben", "Cat")
    group = kwx.group(users)
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        table_id = await deal_scenario(kwx, users, group, scenario)
        for action in scenario["actions"]:
            await perform(kwx, users, action)
        await kwx.settle()
        assert (await service.store.get_table(table_id)).status == "between"
        old_hand_msgs = {u.id: kwx.hand_message(u).message_id for u in users}
    offer = next(m for m in reversed(kwx.fake.bot_messages(group)) if any(
        b.text == "Next hand" for row in m.buttons for b in row))  # fmt: skip
    kwx.fake.press(users[0], offer, "Next hand")  # queued while the bot is down
    kwx.pictures = SlowHandPictures()
    mark = kwx.fake.mark()
    async with kwx.running() as service:
        await kwx.settle()
        assert (await service.store.current_hand(table_id)).hand_no == 2
        live = service.tables.cached()[0]
        edits = kwx.fake.calls_to(["editMessageMedia", "editMessageCaption", "editMessageReplyMarkup"], since=mark)
        assert [c for c in edits if not c.ok] == []
        assert all(c.params.get("message_id") is not None for c in edits)
        for user in users:
            seat = live.seat_of(user.id)
            new_msg = kwx.hand_message(user)
            assert new_msg.message_id == seat.hand_msg_id != old_hand_msgs[user.id]
            # nothing of the new hand was written onto the old message and vice versa
            old_edits = [c for c in edits if int(c.params["message_id"]) == old_hand_msgs[user.id]]
            new_edits = [c for c in edits if int(c.params["message_id"]) == new_msg.message_id]
            assert all("Hand 2" not in str(c.params.get("caption", "")) for c in old_edits)
            assert all("Hand 1" not in str(c.params.get("caption", "")) for c in new_edits)


async def _press_again(kwx, user, msg, data):
    """A press of a button the message showed earlier (its edit had not reached the client yet)."""
    query = kwx.fake.forge_press(user, kwx.fake.message(msg.chat, msg.message_id), data)
    await kwx.fake.wait_for_answer(query, timeout=10)
    await kwx.settle()
    return query


async def test_a_repeated_press_is_answered_like_the_first_also_after_a_restart(kwx):
    """A double tap, or a press Telegram delivers again after a restart (committed just before the
    stop), gets the toast of what it did — not "outdated" — and changes nothing."""
    scenario = load("d57_double_ron")
    users = kwx.players("Ann", "Ben", "Cat")
    group = kwx.group(users)
    first = scenario["actions"][0]
    user = users[first["seat"]]
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        table_id = await deal_scenario(kwx, users, group, scenario)
        msg = kwx.hand_message(user)
        shown = [b.callback_data for b in msg.iter_buttons() if b.callback_data]
        data = next(d for d in shown if d.split(":")[2] == ACT_OPS[first["act"]] + (first.get("tile") or ""))
        other = next(d for d in shown if d != data and d.split(":")[2].startswith("d"))
        query = await kwx.press(user, msg, data=data)
        toast = query.answer.text
        assert toast.startswith("You discarded")
        seq = (await service.store.get_table(table_id)).seq
        again = await _press_again(kwx, user, msg, data)  # the double tap, sent before the edit arrived
        assert again.answer.text == toast and not again.answer.show_alert
        assert (await service.store.get_table(table_id)).seq == seq
    async with kwx.running() as service:
        await kwx.settle()
        redelivered = await _press_again(kwx, user, msg, data)
        assert redelivered.answer.text == toast
        assert (await service.store.get_table(table_id)).seq == seq
        # another stale button of the same message is still "outdated"
        stale = await _press_again(kwx, user, msg, other)
        assert "outdated" in stale.answer.text


async def test_a_clean_restart_edits_no_message_that_already_shows_the_same(kwx):
    scenario = load("d57_double_ron")
    users = kwx.players("Ann", "Ben", "Cat")
    group = kwx.group(users)
    async with kwx.running():
        await kwx.start_bot(*users)
        await deal_scenario(kwx, users, group, scenario)
        await perform(kwx, users, scenario["actions"][0])
        await kwx.settle()
    mark = kwx.fake.mark()
    async with kwx.running():
        await kwx.settle()
    edits = kwx.fake.calls_to(["editMessageMedia", "editMessageCaption", "editMessageReplyMarkup"], since=mark)
    assert edits == []
    # after a crash (no clean stop) the digests are not reused: the next start edits once, as before
    async with kwx.running() as service:
        await kwx.settle()
        assert all(s.shown is not None for s in service.tables.cached()[0].humans())


async def test_a_reminder_sent_before_a_restart_is_deleted_after_it(kwx):
    """The turn reminder outlives a restart: the restarted bot deletes it once the player acts
    (and, still at the move it reminded of, does not remind again)."""
    kwx.remind_seconds = 0.2
    users = kwx.players("Ann", "Ben", "Cat")
    ann = users[0]
    group = kwx.group(users)
    chat = kwx.fake.private_chat(ann)
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        table_id = await open_table(kwx, users, group)
        await service.prepare_deal(table_id, {"seed": "remind-restart", "dealer": 0})
        await kwx.press(ann, kwx.fake.bot_messages(group)[0], "Start")
        reminder = await kwx.fake.wait_for_message(chat, contains="Your move", since=0, timeout=5)
        await kwx.settle()
    async with kwx.running() as service:
        await kwx.settle()
        assert not kwx.fake.message(chat, reminder.message_id).deleted  # the move it reminds of is still Ann's
        await kwx.fake.wait_for(lambda: not service.present._reminder_tasks, 5)
        assert sum("Your move" in m.content for m in kwx.fake.bot_messages(chat)) == 1  # not reminded twice
        _label, data = kwx.game_buttons(ann)[0]
        await kwx.press(ann, kwx.hand_message(ann), data=data)
        await kwx.settle()
        assert kwx.fake.message(chat, reminder.message_id).deleted
        seats = await service.store.seats(table_id)
        assert seats[0].reminder_msg_id is None
