"""Playing a hand, in the service alone: a discard, a claim (碰 pong, then 过 pass and 胡 win), and the
end of the hand written to the ledger — the D57 double-win scenario (docs/rules.md §D), pressed
button by button as the players' hand messages offer them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.tiles import parse_tile
from kwx_bot.service.buttons import Op
from kwx_bot.store import TableStatus

from .conftest import ANN, BEN, CAT, GROUP, World

SCENARIO: dict[str, Any] = json.loads(
    (Path(__file__).resolve().parents[2] / "scenarios" / "d57_double_ron.json").read_text(encoding="utf-8")
)
OPS = {"discard": Op.DISCARD, "pong": Op.PONG, "pass": Op.PASS, "win": Op.WIN}
PLAYERS = (ANN, BEN, CAT)


async def deal(world: World) -> int:
    """Ann, Ben and Cat sit in that order; the scenario's hands and wall are dealt."""
    await world.start(*PLAYERS)
    await world.service.new(world.command(ANN, "new"))
    for user in PLAYERS[1:]:
        lobby = world.chat.last(GROUP)
        assert (await world.press(user, lobby, lobby.press(Op.JOIN))).text == "You took a seat."
    live = await world.table()
    deal = {k: SCENARIO[k] for k in ("hands", "wall", "dealer")}
    await world.service.prepare_deal(live.table_id, deal)
    lobby = world.chat.last(GROUP)
    assert (await world.press(ANN, lobby, lobby.press(Op.START))).text == "Dealing…"
    return live.table_id


async def perform(world: World, action: dict[str, Any]) -> None:
    """One scenario action: the acting player presses its button on their hand message."""
    user = PLAYERS[action["seat"]]
    message = await world.hand_message(user)
    tile = parse_tile(action["tile"]) if "tile" in action else None
    reply = await world.press(user, message, message.press(OPS[action["act"]], tile))
    assert not reply.alert, (action, reply)


async def test_a_discard_passes_the_turn_on(world: World) -> None:
    await deal(world)
    before = (await world.table()).row.seq
    await perform(world, SCENARIO["actions"][0])  # Ann discards 3p
    live = await world.table()
    assert live.state is not None and live.row.seq > before
    assert [d.tile for d in live.state.seats[0].discards] == [parse_tile("3p")]
    assert Op.DISCARD in {b.op for b in (await world.hand_message(BEN)).presses}  # Ben's turn now
    assert not (await world.hand_message(ANN)).presses


async def test_a_claim_takes_the_discard(world: World) -> None:
    await deal(world)
    for action in SCENARIO["actions"][:2]:  # Ann discards 3p, Ben discards 2p
        await perform(world, action)
    assert {b.op for b in (await world.hand_message(CAT)).presses} >= {Op.PONG, Op.PASS}
    await perform(world, SCENARIO["actions"][2])  # Cat pongs 2p
    live = await world.table()
    assert live.state is not None and len(live.state.seats[2].melds) == 1
    assert Op.DISCARD in {b.op for b in (await world.hand_message(CAT)).presses}  # and must discard


async def test_the_end_of_a_hand_reaches_the_ledger(world: World) -> None:
    table_id = await deal(world)
    for action in SCENARIO["actions"]:
        await perform(world, action)
    hand = await world.store.current_hand(table_id)
    assert hand is not None and hand.result is not None
    deltas = SCENARIO["expect"]["result"]["hand_deltas"]
    assert hand.result["deltas"] == deltas
    assert [r.delta for r in await world.store.ledger_of_hand(hand.hand_id)] == deltas
    assert (await world.table()).row.status == TableStatus.BETWEEN
    result = world.chat.last(GROUP)
    assert {b.op for b in result.presses} == {Op.NEXT_HAND, Op.CLOSE}
