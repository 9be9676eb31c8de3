"""Every write to a group fits Telegram's 20 a minute in any sliding window, across a clean restart
too (docs/architecture.md §4 "Rate limits", §7), with the production pacing on and the fake
refusing a 21st write with 429 as Telegram does.

Played on a time scale of 1:10 (a 6 s window for the minute, 0.3 s between live-table edits, a press
every 0.1 s) with AI seats, whose moves come at once, so short hands follow each other fast: hand
starts, results and stale buttons on top of the live table.
"""

from __future__ import annotations

import asyncio
import random
import time

import pytest

from fakebot import FakeChat, FakeUser
from fakebot.faults import WRITE_METHODS

from .harness import Kwx

SCALE = 0.1
WINDOW = 60.0 * SCALE


def peak(times: list[float], window: float) -> int:
    """The most of ``times`` within any half-open ``window``."""
    times = sorted(times)
    return max((sum(1 for u in times if t <= u < t + window) for t in times), default=0)


def paced_like_production(kwx: Kwx) -> None:
    """The production rate limiter and group budget, on the 1:10 time scale; the fake refuses a
    group's 21st write within its window."""
    kwx.rate_limit = True
    kwx.table_edit_seconds = 3.0 * SCALE
    kwx.group_messages, kwx.group_window_seconds = 20, WINDOW
    kwx.fake.faults.group_rate_limit(20, WINDOW)


async def play_hands(kwx: Kwx, users: list[FakeUser], group: FakeChat, hands: int, seconds: float) -> int:
    """Press random game buttons (one every 0.1 s) and "Next hand" until ``hands`` results were
    announced or ``seconds`` passed; returns the results announced."""
    rng = random.Random(5)
    pressed: set[int] = set()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        results = [m for m in kwx.fake.bot_messages(group) if "Points:" in m.content]
        if len(results) >= hands:
            break
        offer = next((m for m in results if "Next hand" in m.button_texts and m.message_id not in pressed), None)
        if offer is not None:
            pressed.add(offer.message_id)
            kwx.fake.press(users[0], offer, "Next hand")
        movers = [(u, bs) for u in users if (bs := kwx.game_buttons(u))]
        if movers:
            user, buttons = rng.choice(movers)
            kwx.fake.press(user, kwx.hand_message(user), data=rng.choice(buttons)[1])
        await asyncio.sleep(0.1)
    return sum("Points:" in m.content for m in kwx.fake.bot_messages(group))


def one_player(kwx: Kwx) -> tuple[FakeUser, FakeChat]:
    """Ann, who started the bot, and her group."""
    (ann,) = kwx.players("Ann")
    return ann, kwx.group([ann])


@pytest.mark.parametrize(("command", "ai"), [(("kaxinwu", "2"), 1), ((), 2)], ids=["kaxinwu-2-seats", "3-seats"])
async def test_a_groups_writes_fit_twenty_in_every_sliding_minute(kwx, command, ai):
    paced_like_production(kwx)
    ann, group = one_player(kwx)
    async with kwx.running():
        await kwx.start_bot(ann)
        mark = kwx.fake.mark()
        kwx.fake.user_command(ann, group, "new", *command)
        await kwx.settle()
        lobby = kwx.fake.last_message(group)
        for _ in range(ai):
            await kwx.press(ann, kwx.fake.message(group, lobby.message_id), "Add AI")
        await kwx.press(ann, kwx.fake.message(group, lobby.message_id), "Start")
        played = await play_hands(kwx, [ann], group, hands=6, seconds=40)
        await kwx.settle()
    writes = kwx.fake.calls_to(WRITE_METHODS, chat=group, since=mark)
    refused = [c for c in writes if c.status == 429]
    most = peak([c.time for c in writes], WINDOW)
    print(f"\n{len(writes)} group writes over {played} hands; peak in any {WINDOW:.0f} s (1:10): {most}")
    assert played >= 3 and len(writes) > 30  # more than one window can take
    assert not refused, f"{len(refused)} group writes refused with 429"
    assert most <= 20


async def test_a_groups_last_minute_is_kept_across_a_clean_restart(kwx):
    """Twenty replies fill the group's minute; after a clean restart the twenty-first waits for the
    first to leave the window instead of drawing a 429."""
    paced_like_production(kwx)
    ann, group = one_player(kwx)
    async with kwx.running():
        await kwx.start_bot(ann)
        mark = kwx.fake.mark()
        for _ in range(20):
            kwx.fake.user_command(ann, group, "help")
        await kwx.fake.wait_for(lambda: kwx.fake.count_calls("sendMessage", chat=group, since=mark, ok=True) == 20)
    async with kwx.running():
        kwx.fake.user_command(ann, group, "help")
        await kwx.fake.wait_for(
            lambda: kwx.fake.count_calls("sendMessage", chat=group, since=mark, ok=True) == 21, timeout=WINDOW + 5
        )
    writes = kwx.fake.calls_to(WRITE_METHODS, chat=group, since=mark)
    assert [c.status for c in writes] == [200] * 21  # no 429
    assert writes[20].time >= writes[0].time + WINDOW
