"""AI decisions off the event loop (kwx_bot.service.thinking) and the table's AI level: a strong
decision runs in a worker process while the loop goes on, decides what the engine decides in
place, and a press at a strong table is answered before any AI seat thinks — its follow-up makes
the AI seats' moves."""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import replace
from typing import Any

import pytest

from engine.ai import Level, choose_action
from engine.ai.strong import candidates
from engine.game import Action, legal_actions, replay, start, step, view_for
from engine.rules import RuleSet
from engine.views import SeatView
from kwx_bot.service import game
from kwx_bot.service.buttons import Op
from kwx_bot.service.thinking import Thinker

from .conftest import ANN, GROUP, World


def _a_searched_decision() -> tuple[SeatView, list[Action]]:
    """A decision the strong AI searches (several candidates), from a hand the normal AI plays."""
    rules = RuleSet()
    state = replay(start(rules, 0, seed="thinking"))
    rng = random.Random(0)
    while not state.over:
        seat = state.to_act()[0]
        view, legal = view_for(state, seat), legal_actions(state, seat)
        prior = choose_action(view, legal, Level.NORMAL, rng, rules=rules)
        if len(candidates(view, legal, prior, rules)) > 1:
            return view, legal
        state, _ = step(state, prior)
    raise AssertionError("no searched decision in the hand")  # pragma: no cover


async def test_a_strong_decision_runs_in_a_worker_and_the_loop_goes_on() -> None:
    view, legal = _a_searched_decision()
    thinker = Thinker(1)
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.005)
            ticks += 1

    ticker = asyncio.create_task(tick())
    try:
        await thinker.choose(view, legal, "strong", random.Random(1), RuleSet())  # the worker starts
        began, ticks = time.monotonic(), 0
        chosen = await thinker.choose(view, legal, "strong", random.Random(2), RuleSet())
        spent = time.monotonic() - began
    finally:
        ticker.cancel()
        thinker.close()
    assert chosen == game.choose_action(view, legal, "strong", random.Random(2), RuleSet())  # the same, in place
    assert ticks >= 0.3 * spent / 0.005  # the loop kept running while the worker searched
    assert Thinker.slow("strong") and not Thinker.slow("normal") and not Thinker.slow("easy")


async def _table_with_two_ai(world: World, level: str | None) -> None:
    await world.start(ANN)
    await world.service.new(world.command(ANN, "new"))
    gid = await world.store.group_id_for_chat(GROUP)
    assert gid is not None
    if level is not None:
        async with world.store.transaction() as tx:
            await tx.set_setting(gid, "ai_level", level)
    for _ in range(2):
        lobby = world.chat.last(GROUP)
        await world.press(ANN, lobby, lobby.press(Op.ADD_AI))
    await world.service.prepare_deal((await world.table()).table_id, {"seed": "thinking", "dealer": 0})  # Ann first
    lobby = world.chat.last(GROUP)
    assert (await world.press(ANN, lobby, lobby.press(Op.START))).text == "Dealing…"


@pytest.mark.parametrize(("level", "before_answer"), [("strong", False), ("normal", True)])
async def test_a_press_is_answered_before_a_strong_ai_thinks(
    world: World, monkeypatch: pytest.MonkeyPatch, level: str, before_answer: bool
) -> None:
    await _table_with_two_ai(world, level)
    live = await world.table()
    assert world.service.tables.ai_level(live) == level and live.row.options["ai_level"] == level
    thought: list[str] = []
    choose = world.service.thinker.choose

    async def spy(*args: Any) -> Any:
        thought.append(args[2])
        return await choose(*args)

    monkeypatch.setattr(world.service.thinker, "choose", spy)
    message = await world.hand_message(ANN)
    discard = next(b for b in message.presses if b.op is Op.DISCARD)
    response = await world.service.press(ANN, message.chat_id, message.message_id, discard)
    assert response.reply is not None and response.then is not None
    assert bool(thought) is before_answer  # strong: nobody thought before the answer
    await world.service.follow(response.then)
    await world.service.idle()
    assert thought and set(thought) == {level}  # the AI seats moved, at the table's level
    live = await world.table()
    assert live.state is not None and (game.is_over(live.state) or 0 in game.to_act(live.state))


async def test_the_level_is_the_groups_from_the_deal_and_the_operators_before(world: World) -> None:
    await _table_with_two_ai(world, None)
    live = await world.table()
    assert world.service.tables.ai_level(live) == "normal"  # the operator's default (these tests: normal)
    gid = await world.store.group_id_for_chat(GROUP)
    assert gid is not None
    async with world.store.transaction() as tx:
        await tx.set_setting(gid, "ai_level", "easy")
    assert world.service.tables.ai_level(await world.table()) == "normal"  # never during a hand
    options = {k: v for k, v in live.row.options.items() if k != "ai_level"}  # a table made before the setting
    old = replace(live, row=replace(live.row, options=options))
    assert world.service.tables.ai_level(old) == world.service.settings.ai_level
