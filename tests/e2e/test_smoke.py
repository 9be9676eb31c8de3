"""A first whole hand through the fake Telegram."""

from __future__ import annotations

import random


async def test_three_players_play_a_random_hand(kwx):
    alice, bob, carol = kwx.players("Alice", "Bob", "Carol")
    group = kwx.group([alice, bob, carol])
    async with kwx.running():
        await kwx.start_bot(alice, bob, carol)
        kwx.fake.user_command(alice, group, "new")
        await kwx.settle()
        lobby = kwx.fake.last_message(group)
        assert "Alice" in lobby.content
        await kwx.press(bob, lobby, "Join")
        await kwx.press(carol, lobby, "Join")
        await kwx.press(alice, lobby, "Start")
        for u in (alice, bob, carol):
            assert kwx.hand_message(u) is not None
        presses = await kwx.play_randomly([alice, bob, carol], group, random.Random(1))
        assert presses > 5
