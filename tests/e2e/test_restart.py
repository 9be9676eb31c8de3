"""Restarts: every open table is rebuilt from its events, deadlines are re-armed, and presses made
while the bot was down (or on messages sent before the restart) still work."""

from __future__ import annotations

import pytest

from .scenarios import ACT_OPS, deal_scenario, engine_play, load, perform


@pytest.mark.parametrize("name", ["liangdao_direct_kong", "d57_double_ron"])
async def test_restart_mid_hand_finishes_with_the_same_result(kwx, name):
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
