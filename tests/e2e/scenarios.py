"""Drive an engine scenario file (``tests/scenarios/*.json``) through the bot by pressing buttons.

A scenario gives rules, dealer, the dealt hands, the wall and the explicit actions per seat (the
``python -m engine play`` contract).  Seat ``i`` is played by ``users[i]`` (joined in that order).
Each action becomes the button presses a person would make in their private chat: a discard
button; 碰/杠/胡/过; 暗杠/补杠 buttons; for 亮倒 the menu, the pick and the confirmation — and for a
亮倒 / 廊起 naming its ``reveal`` (docs/rules.md §A9.2, §E#48), between pick and confirmation, the
toggles that make the shown tiles the scenario's (:func:`choose_reveal`).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.tiles import Tile, parse_tiles
from fakebot import FakeChat, FakeUser
from kwx_bot.edge.codec import Op, decode
from kwx_bot.words.i18n import translator
from kwx_bot.words.texts import tile_label

from .harness import Kwx

_EN_TILES = {tile_label(t, translator("en")): t for t in Tile}

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"

ACT_OPS = {
    "discard": "d", "pong": "p", "kong": "k", "win": "w", "pass": "x", "concealed_kong": "c", "added_kong": "b",
}  # fmt: skip


def load(name: str) -> dict[str, Any]:
    return json.loads((SCENARIOS / f"{name}.json").read_text())


def engine_play(scenario: dict[str, Any]) -> dict[str, Any]:
    """``python -m engine play`` on the scenario (the reference the bot must match)."""
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "play"], input=json.dumps(scenario), capture_output=True, text=True,
        timeout=60, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)  # type: ignore[no-any-return]


async def open_table(kwx: Kwx, users: Sequence[FakeUser], group: FakeChat, rules: Any = "standard") -> int:
    """/new by users[0] (seated 0), the others join in order; returns the table id."""
    service = kwx.service
    if rules != "standard":
        async with service.store.transaction() as tx:
            gid = await tx.ensure_group(group.id, group.title or "")
            await tx.set_setting(gid, "rules", rules)
    kwx.fake.user_command(users[0], group, "new")
    await kwx.settle()
    lobby = kwx.fake.last_message(group)
    for u in users[1:]:
        query = await kwx.press(u, lobby, "Join")
        assert query.answer is not None and not query.answer.show_alert, query.answer
    table = await service.store.open_table_of_group(
        await service.store.group_id_for_chat(group.id), bot_id=service.tables.bot_id
    )
    assert table is not None
    return table.table_id


async def deal_scenario(kwx: Kwx, users: Sequence[FakeUser], group: FakeChat, scenario: dict[str, Any]) -> int:
    """Open a table with the scenario's rules, prepare its deal, press Start; returns the table id."""
    table_id = await open_table(kwx, users, group, scenario["rules"])
    deal = {"hands": scenario["hands"], "wall": scenario["wall"], "dealer": scenario["dealer"]}
    await kwx.service.prepare_deal(table_id, deal)
    lobby = kwx.fake.bot_messages(group)[0]
    await kwx.press(users[0], lobby, "Start")
    return table_id


async def play_scenarios(
    kwx: Kwx, users: Sequence[FakeUser], group: FakeChat, names: Sequence[str]
) -> tuple[int, list[dict[str, Any]]]:
    """The scripted hands ``names`` one after the other at one table ("Next hand" between them):
    returns the table id and each hand's stored result, whose payments must be the engine's."""
    service = kwx.service
    results: list[dict[str, Any]] = []
    table_id = None
    for name in names:
        scenario = load(name)
        if table_id is None:
            table_id = await deal_scenario(kwx, users, group, scenario)
        else:
            deal = {"hands": scenario["hands"], "wall": scenario["wall"], "dealer": scenario["dealer"]}
            await service.prepare_deal(table_id, deal)
            await kwx.press(users[0], kwx.fake.last_message(group), "Next hand")
        for action in scenario["actions"]:
            await perform(kwx, users, action)
        await kwx.settle()
        stored = (await service.store.current_hand(table_id)).result
        assert stored is not None and stored["deltas"] == engine_play(scenario)["result"]["deltas"]
        results.append(stored)
    assert table_id is not None
    return table_id, results


async def perform(kwx: Kwx, users: Sequence[FakeUser], action: dict[str, Any]) -> None:
    """One scenario action as button presses; every press must be accepted (no alert)."""
    user = users[action["seat"]]
    act, tile = action["act"], action.get("tile")
    if act == "liangdao" and action.get("reveal") is not None:
        for op, t in (("L", None), ("P", tile)):
            query = await kwx.act(user, op, t)
            assert query.answer is not None and not query.answer.show_alert, (action, query.answer)
        await choose_reveal(kwx, user, Counter(parse_tiles(action["reveal"])))
        query = await kwx.act(user, "l", tile)
        assert query.answer is not None and not query.answer.show_alert, (action, query.answer)
        return
    steps = [("L", None), ("P", tile), ("l", tile)] if act == "liangdao" else [(ACT_OPS[act], tile)]
    for op, t in steps:
        query = await kwx.act(user, op, t)
        assert query.answer is not None and not query.answer.show_alert, (action, query.answer)


async def hand_record(service: Any, table_id: int) -> tuple[list[dict[str, Any]], list[Any], Any]:
    """The table's current hand as stored: its event JSON, its ledger rows and the table row."""
    hand = await service.store.current_hand(table_id)
    stored = [e.data for e in await service.store.hand_events(hand.hand_id)]
    ledger = await service.store.ledger_of_hand(hand.hand_id)
    return stored, ledger, await service.store.get_table(table_id)


def reveal_toggles(kwx: Kwx, user: FakeUser) -> list[tuple[Tile, bool, str]]:
    """(tile, shown, callback data) of every toggle of the user's reveal choice (English labels)."""
    msg = kwx.hand_message(user)
    assert msg is not None
    out = []
    for b in msg.iter_buttons():
        if b.callback_data and decode(b.callback_data).op is Op.REVEAL and b.text[:1] in "☑☐":
            out.append((_EN_TILES[b.text[1:]], b.text[0] == "☑", b.callback_data))
    return out


async def choose_reveal(kwx: Kwx, user: FakeUser, target: Counter[Tile]) -> int:
    """Toggle the reveal choice until exactly ``target`` is shown, as a person would: one tap per tile
    to hide or show.  Returns the number of taps; every tap must be accepted (no alert)."""
    taps = 0
    while True:
        toggles = reveal_toggles(kwx, user)
        assert toggles, "no reveal choice on the hand message"
        shown = Counter(t for t, on, _ in toggles if on)
        if shown == target:
            return taps
        data = next(d for t, on, d in toggles if (on and shown[t] > target[t]) or (not on and shown[t] < target[t]))
        msg = kwx.hand_message(user)
        assert msg is not None
        query = await kwx.press(user, msg, data=data)
        assert query.answer is not None and not query.answer.show_alert, query.answer
        taps += 1
        assert taps <= 14, "the reveal choice does not converge"


FINISHING = [
    "d05_liangdao_baohu", "d48_gangshang_kaihua", "d49_gangshang_pao", "d50_qianggang", "d52_haidilao",
    "d54_last_discard_pihu", "d57_double_ron", "dealer_complete_hand", "h1_kong_money_stands", "h2_one_liangdao",
    "h5_chajiao", "l2_louhu_bigger", "l4_louhu_illegal_first", "last_discard_win", "liangdao_direct_kong",
]  # fmt: skip
