"""Scripted hands through the fake Telegram: the bot's events and ledger equal the engine's.

Each scenario (tests/scenarios) is dealt by the bot from the same hands and wall and played by three
people pressing buttons in their private chats.  Afterwards the stored events are exactly those of
``python -m engine play`` on the same scenario, the ledger rows equal its payments (hand, kong money,
total) and sum to zero, and the group got the result message.  Between them the scenarios cover
碰, 暗杠 / 补杠 / 直杠, 亮倒 with its public reveal, 包胡, 一炮双响, 抢杠胡, 海底, 荒庄 with and
without 亮倒 penalties, and 漏胡.
"""

from __future__ import annotations

import pytest

from engine.views import PublicView, SeatView
from fakebot import MESSAGE_WRITE_METHODS

from .leaks import SpyPictures, assert_public_view, leaked, public_and_own
from .scenarios import FINISHING, deal_scenario, engine_play, hand_record, load, perform


@pytest.mark.parametrize("name", FINISHING)
async def test_scenario_matches_engine_play(kwx, name):
    scenario = load(name)
    expected = engine_play(scenario)
    kwx.pictures = spy = SpyPictures()
    users = kwx.players("Ann", "Ben", "Cat")
    group = kwx.group(users)
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        table_id = await deal_scenario(kwx, users, group, scenario)
        for action in scenario["actions"]:
            await perform(kwx, users, action)
        await kwx.settle()
        stored, ledger, table = await hand_record(service, table_id)
    assert_matches_engine(expected, stored, ledger, table)
    final = kwx.fake.last_message(group)
    assert "Points:" in final.content and final.button_texts == ["Next hand", "End the table"]
    if any(a["act"] == "liangdao" for a in scenario["actions"]):
        assert any("lays down!" in m.content for m in kwx.fake.bot_messages(group))
    assert kwx.fake.count_calls(MESSAGE_WRITE_METHODS, ok=False) == 0
    # new group messages: the lobby, then only hand start, each 亮倒 reveal and the result
    reveals = sum(e["type"] == "discarded" and e["liangdao"] for e in stored)
    assert kwx.fake.count_calls("sendMessage", chat=group) == 1
    assert kwx.fake.count_calls("sendPhoto", chat=group) == 2 + reveals
    assert_no_hidden_tiles(kwx, spy, group, users, stored)


def assert_matches_engine(expected, stored, ledger, table):
    """The bot's stored events, its ledger rows (hand, kong money, total; zero-sum; who won) and the
    table's next dealer equal ``python -m engine play``'s."""
    assert stored == expected["events"]
    result = expected["result"]
    assert [r.hand_delta for r in ledger] == result["hand_deltas"]
    assert [r.kong_delta for r in ledger] == result["kong_deltas"]
    assert [r.delta for r in ledger] == result["deltas"]
    assert sum(r.delta for r in ledger) == 0
    assert [r.won for r in ledger] == [any(w["seat"] == s for w in result["winners"]) for s in range(len(ledger))]
    assert table.status == "between" and table.next_dealer == result["next_dealer"]


def assert_no_hidden_tiles(kwx, spy, group, users, events):
    """Group: only public tiles in any text, only public pictures; players: public or own tiles."""
    public, own = public_and_own(events)
    assert leaked(kwx.fake.seen_texts(group), public) == set()
    for photo in kwx.fake.seen_photos(group):
        kind, view = spy.origin(photo.data)
        assert kind in ("table", "reveal", "result") and isinstance(view, PublicView)
        assert_public_view(view, events)
    for seat, user in enumerate(users):
        chat = kwx.fake.private_chat(user)
        assert leaked(kwx.fake.seen_texts(chat), public | own[seat], own_waits=True) == set()
        for photo in kwx.fake.seen_photos(chat):
            kind, view = spy.origin(photo.data)
            assert kind == "hand" and isinstance(view, SeatView) and view.seat == seat
            assert_public_view(view.public, events, skip=seat)  # the table in the hand picture


async def test_logs_name_no_hidden_tile_and_no_seed(kwx, caplog):
    """One INFO line per table event with table id and seat; never the seed or a concealed tile."""
    import logging

    caplog.set_level(logging.INFO, logger="kwx")
    scenario = load("d48_gangshang_kaihua")  # has a 暗杠
    users = kwx.players("Ann", "Ben", "Cat")
    group = kwx.group(users)
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        table_id = await deal_scenario(kwx, users, group, scenario)
        for action in scenario["actions"]:
            await perform(kwx, users, action)
        await kwx.settle()
        stored = [e.data for e in await service.store.hand_events(1)]
        await service.prepare_deal(table_id, {"seed": "secret-seed-123"})
        await kwx.press(users[0], kwx.fake.last_message(group), "Next hand")
        assert (await service.store.current_hand(table_id)).deal["seed"] == "secret-seed-123"
    lines = [r.getMessage() for r in caplog.records if r.name == "kwx.table"]
    assert sum(f"table {table_id}: " in line for line in lines) >= len(stored)
    assert not any("secret-seed" in line or kwx.fake.token in line for line in caplog.messages)
    kong = next(e for e in stored if e["type"] == "konged")
    assert kong["kind"] == "concealed_kong"
    assert any("konged (concealed)" in line for line in lines)
    assert not any(f"konged {kong['tile']}" in line for line in lines)
