"""Whole hands through the fake Telegram: in-process, and over HTTP with the real pictures."""

from __future__ import annotations

import random

from kwx_bot.service.pictures import RenderPictures


async def _play_one_hand(kwx, seed: str):
    alice, bob, carol = kwx.players("Alice", "Bob", "Carol")
    group = kwx.group([alice, bob, carol])
    async with kwx.running() as service:
        await kwx.start_bot(alice, bob, carol)
        kwx.fake.user_command(alice, group, "new")
        await kwx.settle()
        lobby = kwx.fake.last_message(group)
        assert "Alice" in lobby.content
        await kwx.press(bob, lobby, "Join")
        await kwx.press(carol, lobby, "Join")
        await service.prepare_deal(1, {"seed": seed})
        await kwx.press(alice, lobby, "Start")
        for u in (alice, bob, carol):
            assert kwx.hand_message(u) is not None
        presses = await kwx.play_randomly([alice, bob, carol], group, random.Random(1))
        assert presses > 5
        await kwx.settle()
    return group


async def test_three_players_play_a_random_hand(kwx):
    await _play_one_hand(kwx, "smoke-1")
    assert kwx.fake.count_calls(ok=False) == 0


async def test_over_http_with_real_pictures(kwx_http):
    kwx_http.pictures = RenderPictures()
    group = await _play_one_hand(kwx_http, "smoke-2")
    assert kwx_http.fake.count_calls(ok=False) == 0
    photos = kwx_http.fake.seen_photos(group)
    assert photos and all(p.width and p.height and p.width + p.height <= 10000 for p in photos)
    table = kwx_http.fake.bot_messages(group)[1]
    assert table.photo.width > 400  # a real table picture, not a stand-in
