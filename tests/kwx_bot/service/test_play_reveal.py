"""The 廊起 / partial 亮倒 reveal choice in the service alone (docs/rules.md §A9.2, §B, §E#48): the
pick opens the choice with the whole hand shown, each toggle carries the whole new choice, the caption
gives the engine's waits or the broken rule, Confirm declares exactly the chosen reveal; a repeated or
forged press changes nothing; the choice is a cache (a reset shows the normal buttons) that the next
toggle restores; protected tiles answer why."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

from engine.tiles import Tile, parse_tiles
from kwx_bot.service import game
from kwx_bot.service.buttons import Button, Op
from kwx_bot.service.live import Menu
from kwx_bot.service.play import _reveal_discards

from .conftest import ANN, BEN, CAT, GROUP, World

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
PLAYERS = (ANN, BEN, CAT)


def load(name: str) -> dict[str, Any]:
    return json.loads((SCENARIOS / f"{name}.json").read_text(encoding="utf-8"))


async def deal(world: World, scenario: dict[str, Any]) -> int:
    await world.start(*PLAYERS)
    async with world.store.transaction() as tx:
        gid = await tx.ensure_group(GROUP, "Friends")
        await tx.set_setting(gid, "rules", scenario["rules"])
    await world.service.new(world.command(ANN, "new"))
    for user in PLAYERS[1:]:
        lobby = world.chat.last(GROUP)
        assert (await world.press(user, lobby, lobby.press(Op.JOIN))).text == "You took a seat."
    live = await world.table()
    await world.service.prepare_deal(live.table_id, {k: scenario[k] for k in ("hands", "wall", "dealer")})
    lobby = world.chat.last(GROUP)
    await world.press(ANN, lobby, lobby.press(Op.START))
    return live.table_id


def toggles(message) -> list[Button]:
    return [b for b in message.presses if b.op is Op.REVEAL]


async def test_the_reveal_choice_from_pick_to_confirm(world: World) -> None:
    await deal(world, load("kx3_langqi_self_draw"))
    msg = await world.hand_message(ANN)
    await world.press(ANN, msg, msg.press(Op.LIANGDAO_MENU))
    msg = await world.hand_message(ANN)
    await world.press(ANN, msg, msg.press(Op.LIANGDAO_PICK, Tile.S9))
    msg = await world.hand_message(ANN)
    # the whole hand: 13 toggles and Show the fewest, no Show all
    assert len(toggles(msg)) == 13 + 1 and "→ waiting on 7 Bam" in msg.text
    confirm = msg.press(Op.LIANGDAO, Tile.S9)
    assert confirm.shown == (1 << 13) - 1
    # hide 1 Dot: the engine's reason, no Confirm
    first = toggles(msg)[0]
    await world.press(ANN, msg, first)
    msg = await world.hand_message(ANN)
    assert "✗ Not allowed" in msg.text and not [b for b in msg.presses if b.op is Op.LIANGDAO]
    seq = (await world.table()).row.seq
    # the same press again (a double tap): a toast, nothing changes
    sent = len(world.chat.calls)
    reply = await world.press(ANN, msg, first)
    assert reply.text == "Already chosen: nothing changed." and len(world.chat.calls) == sent
    # forged: a mask beyond the 13 kept tiles; a confirm of the illegal choice; a discard without 廊起
    for forged in (replace(first, shown=1 << 13), Button(first.table_id, seq, Op.LIANGDAO, Tile.S9, first.shown),
                   Button(first.table_id, seq, Op.REVEAL, Tile.P1, 1)):  # fmt: skip
        reply = await world.press(ANN, msg, forged)
        assert reply.alert and reply.text, forged
    assert (await world.table()).row.seq == seq and len(world.chat.calls) == sent
    # a reset of the cache (as after a restart): the normal buttons; the old toggle restores the choice
    live = await world.table()
    live.seats[0].menu = Menu()
    live.seats[0].hand.forget()
    await world.service.present.sync(live)
    assert not toggles(await world.hand_message(ANN))
    show_all = Button(first.table_id, seq, Op.REVEAL, Tile.S9, (1 << 13) - 1)
    await world.press(ANN, msg, show_all)
    msg = await world.hand_message(ANN)
    assert len(toggles(msg)) == 13 + 1 and "→ waiting on 7 Bam" in msg.text
    # show only 6 8 Bam: the hidden 1-9 Dot and 2 2 Bam complete, the wait is 7 Bam (§E#48) — what
    # the one-tap Show the fewest (after the toggles) carries
    kept = parse_tiles("123456789p2268s")
    mask = sum(1 << i for i, t in enumerate(kept) if t in (Tile.S6, Tile.S8))
    assert toggles(msg)[13] == Button(first.table_id, seq, Op.REVEAL, Tile.S9, mask)
    await world.press(ANN, msg, toggles(msg)[13])
    msg = await world.hand_message(ANN)
    assert "Shown: 6 Bam 8 Bam" in msg.text and "→ waiting on 7 Bam" in msg.text
    reply = await world.press(ANN, msg, msg.press(Op.LIANGDAO, Tile.S9))
    assert not reply.alert
    state = (await world.table()).state
    assert state is not None and state.seats[0].liangdao and state.seats[0].waits == (Tile.S7,)
    assert sorted(state.seats[0].hidden) == sorted(parse_tiles("123456789p22s"))
    assert any("lays down!" in m.text and "11 tiles stay hidden" in m.text for m in world.chat.in_chat(GROUP))


async def test_a_protected_tile_answers_why_and_changes_nothing(world: World) -> None:
    scenario = load("kx3_chajiao")
    await deal(world, scenario)
    msg = await world.hand_message(ANN)
    await world.press(ANN, msg, msg.press(Op.LIANGDAO_MENU))
    msg = await world.hand_message(ANN)
    await world.press(ANN, msg, msg.press(Op.LIANGDAO_PICK, Tile.S9))
    msg = await world.hand_message(ANN)
    kept = parse_tiles("123456789p2268s")
    mask = sum(1 << i for i, t in enumerate(kept) if t in (Tile.S6, Tile.S8))
    await world.press(
        ANN, msg, Button(msg.presses[0].table_id, (await world.table()).row.seq, Op.REVEAL, Tile.S9, mask)
    )
    msg = await world.hand_message(ANN)
    await world.press(ANN, msg, msg.press(Op.LIANGDAO, Tile.S9))
    ben = await world.hand_message(BEN)  # Ben holds three 7 Bam, Ann's wait
    locked = ben.press(Op.PROTECTED, Tile.S7)
    assert Tile.S7 not in {b.tile for b in ben.presses if b.op is Op.DISCARD}
    seq = (await world.table()).row.seq
    reply = await world.press(BEN, ben, locked)
    assert "may not discard" in reply.text and (await world.table()).row.seq == seq


def test_a_reveal_discarding_1_dot_offers_the_choice_too() -> None:
    """1 Dot is tile 0: the discards that offer a reveal choice must not drop it as falsy."""
    rules = game.RuleSet.preset("kaxinwu")
    dealer = "156789p34445789s"  # discard 1p: 56789p 3444 5 789s waits on 4p 7p
    rest = Counter(parse_tiles("123456789p123456789s" * 4))
    rest.subtract(parse_tiles(dealer))
    tiles = "".join(str(t) for t in sorted(rest.elements()))
    others = [tiles[26 * i : 26 * i + 26] for i in range(rules.players - 1)]
    deal = game.Deal(hands=(dealer, *others), wall=tiles[26 * (rules.players - 1) :], dealer=0)
    state, _ = game.deal_events(rules, 0, deal)
    assert Tile.P1 in _reveal_discards(state, 0)
