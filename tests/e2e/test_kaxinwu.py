"""卡心五 through the fake Telegram at 2, 3 and 4 seats (docs/rules.md §B): a 廊起 chosen tile by tile in the
private chat, protected tiles as disabled buttons, automatic play after 廊起, and hands that end in a
win, in 查叫 and in 关死 — the bot's events and ledger equal ``python -m engine play``, the ledger is
zero-sum, the group gets the result's own words, and no hidden tile (the face-down part of a 廊起
hand included) reaches the group or another player."""

from __future__ import annotations

import pytest

from engine.tiles import Tile
from fakebot import MESSAGE_WRITE_METHODS
from kwx_bot.edge.codec import b36

from .leaks import SpyPictures
from .scenarios import choose_reveal, deal_scenario, engine_play, hand_record, load, perform, reveal_toggles
from .test_scenarios import assert_matches_engine, assert_no_hidden_tiles

WORDS = {
    "kx3_langqi_self_draw": "wins by self-draw on 7 Bam",
    "kx3_chajiao": "Ready check: Ben, Cat did not lay down",
    "kx3_guansi": "Hand 1: shut in",
    "kx2_langqi_self_draw": "wins by self-draw on 7 Bam",
    "kx2_chajiao": "Ready check: Ben did not lay down",
    "kx2_guansi": "Hand 1: shut in",
    "kx_dingchuan": "Cat wins on Ben's 5 Bam",  # 顶穿: one 廊起 player's automatic discard
    "kx_chajiao_one": "Ready check: Dan did not lay down",
    "kx_guansi": "Hand 1: shut in",
}
"""The scenarios (tests/scenarios) at 3, 2 and 4 seats and the words their result message must say."""
KONGS = {"kong", "concealed_kong", "added_kong"}


@pytest.mark.parametrize("name", list(WORDS))
async def test_kaxinwu_hand_matches_engine_play(kwx, name):
    scenario = load(name)
    expected = engine_play(scenario)
    kwx.pictures = spy = SpyPictures()
    users = kwx.players(*["Ann", "Ben", "Cat", "Dan"][: len(scenario["hands"])])
    langqi: set[int] = set()
    group = kwx.group(users)
    locked_seen = False
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        table_id = await deal_scenario(kwx, users, group, scenario)
        lobby = kwx.fake.bot_messages(group)[0]
        first = lobby.history[0].text if lobby.history else lobby.content
        assert "Ka Xin Wu table" in first and "Rules: Ka Xin Wu · base stake 1" in first
        for action in scenario["actions"]:
            if action["seat"] in langqi and action["act"] in KONGS:
                continue  # after 廊起 a permitted kong is mandatory, its only action: the bot makes it
            langqi |= {action["seat"]} if action["act"] == "liangdao" else set()
            user = users[action["seat"]]
            locked = [b for b in kwx.hand_message(user).iter_buttons() if b.text.startswith("🔒")]
            if locked and action["act"] == "discard":  # protection: shown, disabled, and saying why
                locked_seen = True
                before = (await service.store.get_table(table_id)).seq
                query = await kwx.press(user, kwx.hand_message(user), locked[0].text)
                assert query.answer.text == "You may not discard a tile that a player who laid down waits on."
                assert not query.answer.show_alert
                assert (await service.store.get_table(table_id)).seq == before
                assert "🔒 = another player's waiting tile" in kwx.hand_message(user).content
            await perform(kwx, users, action)
        await kwx.settle()
        stored, ledger, table = await hand_record(service, table_id)
    assert_matches_engine(expected, stored, ledger, table)
    final = kwx.fake.last_message(group)
    assert WORDS[name] in final.content and "Points:" in final.content
    assert final.button_texts == ["Next hand", "End the table"]
    reveals = [m for m in kwx.fake.bot_messages(group) if "lays down!" in m.content]
    assert len(reveals) == sum(e["type"] == "discarded" and e["liangdao"] for e in stored) >= 1
    partial = sum(e["type"] == "discarded" and e["liangdao"] and bool(e.get("hidden")) for e in stored)
    assert sum("stay hidden" in m.content for m in reveals) == partial  # a count, never which tiles
    assert kwx.fake.count_calls(MESSAGE_WRITE_METHODS, ok=False) == 0
    assert_no_hidden_tiles(kwx, spy, group, users, stored)
    if name == "kx3_guansi":  # the 直杠's money was paid and is void in the result and the ledger
        assert any(e["type"] == "konged" and any(e["money"]) for e in stored)
        assert all(r.kong_delta == 0 for r in ledger)
        assert "kong money of the hand is void" in final.content
    assert {g for _kind, g in spy.games} == {"kaxinwu"}  # every picture is drawn as 卡心五 (廊起 labels)
    if name == "kx3_chajiao":
        assert locked_seen  # Ben held 7 Bam, Ann's wait, on his turns
        assert (1, (Tile.S7,)) in spy.protected  # and his hand picture marks it


async def test_langqi_choice_refuses_forgeries_and_double_taps_and_survives_a_restart(kwx):
    """The reveal choice: every toggle edits the keyboard, an illegal choice says why and offers no
    Confirm; a double tap, forged masks and discards, a forged Confirm and another player's press
    are refused with a toast and change nothing; Back returns to the normal keyboard; after a restart
    the old message's toggles still work; the confirmed 廊起 plays automatically to a self-draw."""
    scenario = load("kx3_langqi_self_draw")
    expected = engine_play(scenario)
    kwx.pictures = spy = SpyPictures()
    users = kwx.players("Ann", "Ben", "Cat")
    ann, ben = users[0], users[1]
    group = kwx.group(users)
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        table_id = await deal_scenario(kwx, users, group, scenario)
        seq = (await service.store.get_table(table_id)).seq
        s36 = b36(seq)
        assert "Lay down…" in kwx.hand_message(ann).button_texts
        await kwx.act(ann, "L")
        await kwx.act(ann, "P", "9s")
        msg = kwx.hand_message(ann)
        toggles = reveal_toggles(kwx, ann)
        assert len(toggles) == 13 and all(on for _, on, _ in toggles)
        assert "→ waiting on 7 Bam" in msg.content and any(t.startswith("Lay down, discard") for t in msg.button_texts)
        # hide 1 Dot alone: the hidden tile is no complete set -> the reason, no Confirm
        one_dot = next(d for t, _, d in toggles if str(t) == "1p")
        await kwx.press(ann, msg, data=one_dot)
        msg = kwx.hand_message(ann)
        assert "✗ Not allowed: The hidden tiles must split into complete sets and pairs" in msg.content
        assert not any(t.startswith("Lay down, discard") for t in msg.button_texts)
        shown_now = msg.button_texts
        edits = kwx.fake.count_calls("editMessageCaption") + kwx.fake.count_calls("editMessageReplyMarkup")
        # a double tap of the same toggle: a toast, nothing changes
        query = kwx.fake.forge_press(ann, msg, one_dot)  # the second delivery of the first tap's data
        await kwx.fake.wait_for_answer(query)
        await kwx.settle()
        assert query.answer.text == "Already chosen: nothing changed." and not query.answer.show_alert
        # forgeries: a mask beyond the hand, a discard without 廊起, a Confirm of an illegal reveal
        for data in (f"1:{s36}:r9s.{b36(1 << 13)}", f"1:{s36}:r1p.1", f"1:{s36}:l9s.{b36(1 << 11)}"):
            query = kwx.fake.forge_press(ann, kwx.hand_message(ann), data)
            await kwx.fake.wait_for_answer(query)
            await kwx.settle()
            assert query.answer.show_alert and query.answer.text, data
        # another player sends Ann's toggle from his own hand message: judged for his seat, refused
        query = kwx.fake.forge_press(ben, kwx.hand_message(ben), one_dot)
        await kwx.fake.wait_for_answer(query)
        await kwx.settle()
        assert query.answer.show_alert
        assert kwx.hand_message(ann).button_texts == shown_now
        after = kwx.fake.count_calls("editMessageCaption") + kwx.fake.count_calls("editMessageReplyMarkup")
        assert after == edits
        assert (await service.store.get_table(table_id)).seq == seq
        # Back: the normal keyboard again
        await kwx.act(ann, "B")
        assert any(t.endswith("9 Bam") for t in kwx.hand_message(ann).button_texts)
        assert not reveal_toggles(kwx, ann)
        await kwx.act(ann, "L")
        await kwx.act(ann, "P", "9s")
        await choose_reveal(kwx, ann, _counter("123p456p789p68s"))  # hides the pair 2 2 Bam: legal
        old = kwx.hand_message(ann)
        assert "Hidden: 2 Bam 2 Bam\n→ waiting on 7 Bam" in old.content
        hide_one_dot = next(d for t, on, d in reveal_toggles(kwx, ann) if str(t) == "1p" and on)
    # the bot is down; Ann taps a toggle of the message sent before the restart: the press carries the
    # whole choice, so the restarted bot restores it
    pressed = kwx.fake.press(ann, old, data=hide_one_dot)
    async with kwx.running() as service:
        await kwx.settle()
        assert pressed.answered and not pressed.answer.show_alert, pressed.answer
        assert kwx.hand_message(ann).message_id == old.message_id
        assert "Hidden: 1 Dot 2 Bam 2 Bam" in kwx.hand_message(ann).content
        taps = await choose_reveal(kwx, ann, _counter("68s"))
        assert taps > 0
        assert "→ waiting on 7 Bam" in kwx.hand_message(ann).content
        query = await kwx.act(ann, "l", "9s")
        assert not query.answer.show_alert and query.answer.text == "You laid down and discarded 9 Bam."
        for action in scenario["actions"][1:]:
            await perform(kwx, users, action)
        await kwx.settle()
        hand = await service.store.current_hand(table_id)
        stored = [e.data for e in await service.store.hand_events(hand.hand_id)]
    assert stored == expected["events"]
    assert_no_hidden_tiles(kwx, spy, group, users, stored)
    langqi = next(e for e in stored if e["type"] == "discarded" and e["liangdao"])
    assert langqi["hidden"] == "123456789p22s" and langqi["waits"] == "7s"


def _counter(text: str):
    from collections import Counter

    from engine.tiles import parse_tiles

    return Counter(parse_tiles(text))


async def test_a_forced_kong_after_langqi_is_made_automatically(kwx):
    """After 廊起 the seat plays automatically: a permitted kong is mandatory (有杠必杠, docs/rules.md
    §B), its only legal action, so the bot makes it without asking (no button, no press)."""
    scenario = load("kx3_langqi_forced_kong")
    expected = engine_play(scenario)
    users = kwx.players("Ann", "Ben", "Cat")
    group = kwx.group(users)
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        table_id = await deal_scenario(kwx, users, group, scenario)
        for action in scenario["actions"]:
            if action["seat"] == 0 and action["act"] == "concealed_kong":
                continue  # automatic
            await perform(kwx, users, action)
        await kwx.settle()
        hand = await service.store.current_hand(table_id)
        stored = await service.store.hand_events(hand.hand_id)
    assert [e.data for e in stored] == expected["events"]
    kong = next(e for e in stored if e.data["type"] == "konged" and e.data["seat"] == 0)
    assert kong.data["kind"] == "concealed_kong" and kong.actor is None
    datas = []
    for m in kwx.fake.bot_messages(kwx.fake.private_chat(users[0])):
        datas += [b.callback_data or "" for b in m.iter_buttons()]
        for v in m.history:
            rows = (v.reply_markup or {}).get("inline_keyboard", [])
            datas += [b.get("callback_data", "") for row in rows for b in row]
    assert datas and not any(d.split(":")[2:3] and d.split(":")[2].startswith("c") for d in datas)


@pytest.mark.parametrize(("size", "seed"), [("4", "kx-ai-4"), ("2", "kx-ai-2")])
async def test_kaxinwu_with_ai_seats_plays_whole_hands(kwx, size, seed):
    """/new kaxinwu 4 (and 2): people and AI seats (廊起, forced kongs, protection: every AI choice
    is one of the engine's legal actions) play a shuffled hand to its end; the ledger is zero-sum and
    no hidden tile reaches the group or another player."""
    import random

    from .test_table_sizes import _lobby
    from .test_table_sizes import assert_no_hidden_tiles as assert_no_hidden_tiles_at

    kwx.pictures = spy = SpyPictures()
    users = kwx.players("Ann", "Ben")
    ann, ben = users
    group = kwx.group(users)
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        lobby = await _lobby(kwx, ann, group, "kaxinwu", size)
        assert "Ka Xin Wu table" in lobby.content and f"· {size} seats" in lobby.content
        if size == "4":
            await kwx.press(ben, lobby, "Join")
            for _ in range(2):
                await kwx.press(ann, kwx.fake.message(group, lobby.message_id), "Add AI")
        else:
            await kwx.press(ann, lobby, "Leave")  # Ben and an AI play
            await kwx.press(ben, kwx.fake.message(group, lobby.message_id), "Join")
            await kwx.press(ann, kwx.fake.message(group, lobby.message_id), "Add AI")
        table = await service.store.open_table_of_group(
            await service.store.group_id_for_chat(group.id), bot_id=service.tables.bot_id
        )
        await service.prepare_deal(table.table_id, {"seed": seed})
        await kwx.press(ben, kwx.fake.message(group, lobby.message_id), "Start")
        await kwx.play_randomly(users, group, random.Random(seed))
        await kwx.settle()
        hand = await service.store.current_hand(table.table_id)
        events = [e.data for e in await service.store.hand_events(hand.hand_id)]
        seats = {s.seat: u for s in await service.store.seats(table.table_id) for u in users if s.user_id == u.id}
        assert_no_hidden_tiles_at(kwx, spy, group, seats, events)
        rows = await service.store.ledger_of_table(table.table_id)
    assert len(rows) == int(size) and sum(r.delta for r in rows) == 0
    assert events[0]["rules"]["ruleset"] == "kaxinwu" and events[-1]["type"] == "hand_ended"
    assert any(e["type"] == "discarded" and e["liangdao"] for e in events)  # these deals see a 廊起
