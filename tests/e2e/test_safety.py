"""Every press is safe: stale, foreign, forged, illegal or doubled presses change nothing and are
answered politely; every callback query gets exactly one answer."""

from __future__ import annotations

import pytest

from engine.tiles import Tile
from kwx_bot.edge.codec import Button, Op, encode

from .leaks import leaked
from .scenarios import deal_scenario, load, perform


async def _table(kwx, scenario_name="d57_double_ron"):
    scenario = load(scenario_name)
    users = kwx.players("Ann", "Ben", "Cat")
    group = kwx.group(users)
    await kwx.start_bot(*users)
    table_id = await deal_scenario(kwx, users, group, scenario)
    return scenario, users, group, table_id


async def _seq(kwx, table_id):
    return (await kwx.service.store.get_table(table_id)).seq


async def test_double_tap_acts_once(kwx):
    async with kwx.running():
        scenario, users, _group, table_id = await _table(kwx)
        first = scenario["actions"][0]
        user = users[first["seat"]]
        msg = kwx.hand_message(user)
        data = next(b.callback_data for b in msg.iter_buttons() if b.callback_data.endswith("d" + first["tile"]))
        before = await _seq(kwx, table_id)
        q1 = kwx.fake.press(user, msg, data=data)
        q2 = kwx.fake.press(user, msg, data=data)  # the second tap, before the bot answered the first
        await kwx.settle()
        # both taps are told what the first did (the second is not "outdated": it is the same press)
        assert q1.answer.text == q2.answer.text and q1.answer.text.startswith("You discarded")
        after = await _seq(kwx, table_id)
        discards = [e for e in await kwx.service.store.hand_events(1) if e.seq > before and e.kind == "discarded"]
        assert len(discards) == 1 and after > before
        # the rest of the hand still plays normally
        for action in scenario["actions"][1:]:
            await perform(kwx, users, action)
        assert "Points:" in kwx.fake.last_message(_group).content


async def test_stale_foreign_forged_and_illegal_presses_change_nothing(kwx):
    dave = kwx.players("Dave")[0]
    async with kwx.running():
        scenario, users, group, table_id = await _table(kwx)
        await kwx.start_bot(dave)
        first = scenario["actions"][0]
        mover = users[first["seat"]]
        old_msg = kwx.hand_message(mover)
        old_data = next(
            b.callback_data for b in old_msg.iter_buttons() if b.callback_data.endswith("d" + first["tile"])
        )
        old_other = next(
            b.callback_data for b in old_msg.iter_buttons() if ":d" in b.callback_data and b.callback_data != old_data
        )
        await perform(kwx, users, first)
        seq = await _seq(kwx, table_id)
        other = users[(first["seat"] + 1) % 3]
        other_msg = kwx.hand_message(other)
        dave_msg = kwx.fake.last_message(kwx.fake.private_chat(dave))
        cases = [
            (mover, kwx.hand_message(mover), old_data, "You discarded"),  # the same press again: its toast
            (mover, kwx.hand_message(mover), old_other, "outdated"),  # another button of the old seq
            (other, other_msg, encode(Button(table_id, seq, Op.DISCARD, Tile.P9)), None),  # not this seat's move
            (dave, dave_msg, encode(Button(table_id, seq, Op.PASS)), "another player"),  # not at the table
            (other, other_msg, "garbage", "not one of mine"),
            (other, other_msg, "1:0:dd5s", "not one of mine"),
            (other, other_msg, "x" * 64, "not one of mine"),
            (other, other_msg, encode(Button(999, 0, Op.WIN)), "closed"),  # no such table
            (other, other_msg, encode(Button(table_id, seq + 5, Op.PASS)), "outdated"),  # a future seq
            (other, other_msg, None, "not one of mine"),  # no data at all
        ]
        for user, message, data, expect in cases:
            query = kwx.fake.forge_press(user, message, data)
            await kwx.fake.wait_for_answer(query, timeout=10)
            await kwx.settle()
            assert query.answer is not None and query.answer_attempts == 1
            if expect is not None:
                assert expect in (query.answer.text or ""), (data, query.answer.text)
            assert await _seq(kwx, table_id) == seq, data
        # an illegal action (a win with a hand that does not win) gets the engine's reason as a popup
        illegal = kwx.fake.forge_press(other, other_msg, encode(Button(table_id, seq, Op.WIN)))
        await kwx.fake.wait_for_answer(illegal)
        await kwx.settle()
        assert illegal.answer.show_alert and await _seq(kwx, table_id) == seq
        # the hand continues as scripted
        for action in scenario["actions"][1:]:
            await perform(kwx, users, action)
        assert "Points:" in kwx.fake.last_message(group).content
        assert all(q.answered for q in kwx.fake.callback_queries.values())


async def test_hand_command_replaces_the_hand_message(kwx):
    async with kwx.running():
        scenario, users, _group, _table_id = await _table(kwx)
        first = scenario["actions"][0]
        user = users[first["seat"]]
        old = kwx.hand_message(user)
        old_data = [b.callback_data for b in old.iter_buttons()]
        kwx.fake.user_command(user, kwx.fake.private_chat(user), "hand")
        await kwx.settle()
        new = kwx.hand_message(user)
        assert new.message_id != old.message_id and new.button_texts
        assert kwx.fake.message(kwx.fake.private_chat(user), old.message_id).buttons == []  # old buttons removed
        query = kwx.fake.forge_press(user, old, old_data[0])
        await kwx.fake.wait_for_answer(query)
        assert "old hand message" in query.answer.text
        for action in scenario["actions"]:
            await perform(kwx, users, action)
        assert "Points:" in kwx.fake.last_message(_group).content


async def test_start_during_a_hand_resends_it(kwx):
    async with kwx.running():
        _scenario, users, _group, _ = await _table(kwx)
        before = kwx.hand_message(users[1])
        kwx.fake.start_bot(users[1])
        await kwx.settle()
        assert kwx.hand_message(users[1]).message_id != before.message_id


@pytest.mark.parametrize("text", ["3 Dot", "打出 3筒", "中"])
def test_the_leak_detector_detects(text):
    assert leaked([text], set()) != set()
    assert leaked([text], {Tile.P3, Tile.RED}) == set()
