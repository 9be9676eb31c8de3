"""Writes that can wait do (docs/architecture.md §4 "Presentation"): while the bot token is busy, the
live table's edit is held back — at most ``TABLE_STALE_SECONDS`` after the last one — and a closed
claim window's buttons stay until the seat's next change, so the players' turns are shown first."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace

import pytest

from kwx_bot.service import group_table
from kwx_bot.service.buttons import Key, Op
from kwx_bot.service.game import RuleSet
from kwx_bot.service.ports import Outcome, Sent
from tests.e2e.test_table_sizes import dealer_wins_deal

from .conftest import ANN, BEN, CAT, GROUP, World
from .test_play import SCENARIO, deal, perform


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> float:
    """A short staleness bound for the test (seconds)."""
    monkeypatch.setattr(group_table, "TABLE_STALE_SECONDS", 0.6)
    monkeypatch.setattr(group_table, "TOKEN_RECHECK_SECONDS", 0.02)
    return 0.6


async def test_a_busy_token_holds_the_live_table_back_until_it_is_stale(world: World, quick: float) -> None:
    await deal(world)
    live = await world.table()
    assert live.row.table_msg_id is not None
    world.chat.busy = True
    live.table_last_edit = world.service.present.clock()  # the table was just shown
    calls_before = list(world.chat.calls)
    started = time.monotonic()
    await perform(world, SCENARIO["actions"][0])  # Ann discards (press waits for presentation)
    waited = time.monotonic() - started
    group_edits = [c for c in world.chat.calls[len(calls_before) :] if c[1] == GROUP]
    assert len(group_edits) == 1, group_edits  # one edit, made only once the picture was stale
    assert waited >= quick - 0.05, waited
    private = [c for c in world.chat.calls[len(calls_before) :] if c[1] != GROUP]
    assert private, "the hand messages were edited first"
    assert world.chat.calls.index(group_edits[0]) > world.chat.calls.index(private[-1])


async def test_an_idle_token_shows_the_live_table_at_once(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    held = 60.0  # held back, the edit would wait this long: "at once" is far below it, whatever the load
    monkeypatch.setattr(group_table, "TABLE_STALE_SECONDS", held)
    await deal(world)
    live = await world.table()
    live.table_last_edit = world.service.present.clock()
    calls_before = len(world.chat.calls)
    started = time.monotonic()
    await perform(world, SCENARIO["actions"][0])
    assert time.monotonic() - started < held / 2
    assert [c for c in world.chat.calls[calls_before:] if c[1] == GROUP], "the table was edited"
    assert ANN.user_id in {c[1] for c in world.chat.calls[calls_before:]}


async def test_a_busy_token_leaves_a_closed_claim_windows_buttons_until_the_seats_next_change(
    world: World, quick: float
) -> None:
    await deal(world)
    for action in SCENARIO["actions"][:8]:  # ... Cat discards 4p: Ben may claim it
        await perform(world, action)
    assert Op.PASS in {b.op for b in (await world.hand_message(BEN)).presses}
    world.chat.busy = True
    calls = len(world.chat.calls)
    await perform(world, SCENARIO["actions"][8])  # Ben passes; Ann draws
    assert BEN.user_id not in {chat for _, chat in world.chat.calls[calls:]}, "Ben's edit waits"
    assert ANN.user_id in {chat for _, chat in world.chat.calls[calls:]}, "Ann's turn is shown at once"
    ben, seq = await world.hand_message(BEN), (await world.table()).row.seq
    again = await world.press(BEN, ben, ben.press(Op.PASS))  # his left-over button changes nothing
    assert again.text == "Passed." and not again.alert  # a double tap's answer
    assert (await world.table()).row.seq == seq
    world.chat.busy = False
    await perform(world, SCENARIO["actions"][9])  # Ann discards 6z: Ben's message catches up
    assert Op.DISCARD not in {b.op for b in (await world.hand_message(BEN)).presses}


async def test_an_idle_token_takes_a_closed_claim_windows_buttons_away_at_once(world: World) -> None:
    await deal(world)
    for action in SCENARIO["actions"][:9]:  # ... Ben passes on Cat's 4p
        await perform(world, action)
    assert not (await world.hand_message(BEN)).presses


async def test_a_hand_message_is_edited_for_its_own_tiles_and_claim_windows_only(world: World) -> None:
    """The hand picture shows the table, but the others' moves alone edit no hand message; a claim
    window opening is one picture edit (the window's buttons need an edit anyway), and taking the
    tile (new tiles) another one."""
    await deal(world)
    cat = CAT.user_id

    def cats(since: int) -> list[str]:
        return [method for method, chat in world.chat.calls[since:] if chat == cat]

    mark = len(world.chat.calls)
    await perform(world, SCENARIO["actions"][0])  # Ann discards 3p: Ben's turn, nothing for Cat
    assert cats(mark) == []
    mark = len(world.chat.calls)
    await perform(world, SCENARIO["actions"][1])  # Ben discards 2p: Cat may 碰
    assert cats(mark) == ["edit_media"]
    mark = len(world.chat.calls)
    await perform(world, SCENARIO["actions"][2])  # Cat pongs 2p: her tiles change
    assert cats(mark) == ["edit_media"]


async def test_a_result_not_yet_in_the_group_is_announced_before_the_next_deal(world: World, monkeypatch) -> None:
    """The result's announcement failed (flood control outlasting the sender's retries) and the
    players deal on from a between-hands offer (``/new``): the deal announces the result first, so
    the group reads it before the next hand starts (Presenter.before_deal)."""
    world.service.present.retry_seconds = 3600.0  # no presentation retry within the test
    await world.start(ANN, BEN, CAT)
    await world.service.new(world.command(ANN, "new"))
    for user in (BEN, CAT):
        lobby = world.chat.last(GROUP)
        await world.press(user, lobby, lobby.press(Op.JOIN))
    live = await world.table()
    await world.service.prepare_deal(live.table_id, dealer_wins_deal(RuleSet()) | {"dealer": 0})
    lobby = world.chat.last(GROUP)
    await world.press(ANN, lobby, lobby.press(Op.START))
    real = world.chat.send_photo
    refusing = [True]

    async def send_photo(chat_id: int, photo: bytes | str, caption: str, markup=None, **kwargs) -> Sent:
        if chat_id == GROUP and refusing[0]:
            return Sent(Outcome.FAILED, chat_id=chat_id)
        return await real(chat_id, photo, caption, markup, **kwargs)

    monkeypatch.setattr(world.chat, "send_photo", send_photo)
    message = await world.hand_message(ANN)
    await world.press(ANN, message, message.press(Op.WIN))
    assert not [m for m in world.chat.in_chat(GROUP) if "Points:" in m.text]  # the result is not out
    refusing[0] = False
    await world.service.new(world.command(BEN, "new"))  # between hands: the offer to deal on
    offer = world.chat.last(GROUP)
    assert (await world.press(BEN, offer, offer.press(Op.NEXT_HAND))).text == "Dealing…"
    photos = [m.text for m in world.chat.in_chat(GROUP) if m.photo]
    results = [i for i, text in enumerate(photos) if "Points:" in text]
    second = [i for i, text in enumerate(photos) if text.startswith("<b>Hand 2</b>")]
    assert len(results) == 1 and len(second) == 1 and results[0] < second[0]


async def test_a_presentation_retry_is_pending_until_its_own_sync_is_done(world: World, monkeypatch) -> None:
    """A hand message edit fails (flood control outlasting the sender's retries): the retry is
    pending from then until the edit it makes is through, its own sync included — whoever waits
    for ``retry_pending`` to end finds the player's buttons there."""
    await deal(world)
    present = world.service.present
    present.retry_seconds = 0.01
    real = world.chat.edit_media
    refused, entered, gate = [True], asyncio.Event(), asyncio.Event()

    async def edit_media(chat_id: int, *args, **kwargs) -> Sent:
        if chat_id == BEN.user_id:
            if refused[0]:
                refused[0] = False
                return Sent(Outcome.FAILED, chat_id=chat_id)
            entered.set()  # the retry's edit, on its way (paced, or waiting out a 429)
            await gate.wait()
        return await real(chat_id, *args, **kwargs)

    monkeypatch.setattr(world.chat, "edit_media", edit_media)
    live = await world.table()
    await perform(world, SCENARIO["actions"][0])  # Ann discards 3p: Ben's turn, his edit refused
    assert not refused[0] and present.retry_pending(live.table_id)
    await asyncio.wait_for(entered.wait(), 5)
    assert present.retry_pending(live.table_id), "the retry is under way"
    assert Op.DISCARD not in {b.op for b in (await world.hand_message(BEN)).presses}
    gate.set()
    for _ in range(500):
        if not present.retry_pending(live.table_id):
            break
        await asyncio.sleep(0.01)
    assert not present.retry_pending(live.table_id)
    assert Op.DISCARD in {b.op for b in (await world.hand_message(BEN)).presses}


async def test_with_a_mini_app_the_hand_message_opens_it_and_the_group_links_to_it(world: World) -> None:
    """A ``web_app`` key on the private hand message (docs/architecture.md §4 "The Mini App"); the
    group's live table, where Telegram allows none, links to the bot's Main Mini App."""
    world.service.tables.settings = replace(world.service.tables.settings, webapp_url="https://kwx.example/webapp/")
    table_id = await deal(world)
    await perform(world, SCENARIO["actions"][0])
    hand = await world.hand_message(BEN)
    assert hand.markup is not None
    assert hand.markup[-1] == (Key("Open the table", web_app=f"https://kwx.example/webapp/?table={table_id}"),)
    await world.service.idle()
    live = await world.table()
    table = world.chat.messages[(GROUP, live.row.table_msg_id)]
    assert table.markup == ((Key("Open the table", url=f"https://t.me/kwx_test_bot?startapp=t{table_id}"),),)


async def test_without_a_mini_app_no_message_offers_it(world: World) -> None:
    await deal(world)
    await world.service.idle()
    live = await world.table()
    assert all(k.web_app is None and "startapp" not in (k.url or "")
               for m in world.chat.messages.values() for row in m.markup or () for k in row)  # fmt: skip
    assert world.chat.messages[(GROUP, live.row.table_msg_id)].markup is None


async def test_no_reminder_while_the_player_has_the_table_open_on_the_page(world: World) -> None:
    """A reminder is a Telegram write for the hand message: the page shows his turn instead."""
    world.service.present.remind_seconds = 0.05
    table_id = await deal(world)
    live = await world.table()
    to_act = [s.user_id for s in live.seats if s.seat == 0]
    world.service.open_pages.opened(table_id, to_act[0])
    await asyncio.sleep(0.2)
    assert ("send_text", to_act[0]) not in world.chat.calls
    world.service.open_pages.close()
    await perform(world, SCENARIO["actions"][0])  # Ann discards: Ben's turn, and he has no page open
    await asyncio.sleep(0.2)
    assert ("send_text", BEN.user_id) in world.chat.calls


async def test_the_live_table_follows_slowly_while_every_player_has_the_page_open(world: World) -> None:
    """The group's picture is then only the spectators' view: fewer Telegram writes a turn."""
    table_id = await deal(world)
    live = await world.table()
    group = world.service.present.group
    assert group.interval(live) == group.edit_seconds
    humans = [s.user_id for s in live.humans() if s.user_id is not None]
    for user in humans[:-1]:
        world.service.open_pages.opened(table_id, user)
    assert group.interval(live) == group.edit_seconds  # one player still plays in the chat
    world.service.open_pages.opened(table_id, humans[-1])
    assert group.interval(live) == max(group.edit_seconds, group_table.PAGE_EDIT_SECONDS)
    world.service.open_pages.close()
    assert group.interval(live) == group.edit_seconds


async def test_a_hand_played_on_the_page_ends_in_the_chat_once_the_player_leaves_it(world: World) -> None:
    """While Ann has the page open her hand message is not written; the hands that ended meanwhile
    end in the chat as played there — the hand over, no buttons —, with one write each, once she
    leaves the page (docs/architecture.md §4 "The Mini App")."""
    world.service.open_pages.grace = 0.05
    table_id = await deal(world)
    for action in SCENARIO["actions"][:-2]:
        await perform(world, action)
    world.service.open_pages.opened(table_id, ANN.user_id)  # from here on, Ann plays on the page
    old = await world.hand_message(ANN)
    assert old.presses  # her win is offered
    calls = len(world.chat.calls)
    for action in SCENARIO["actions"][-2:]:
        await perform(world, action)  # Ann and Cat win: the hand is over
    result = world.chat.last(GROUP)
    assert (await world.press(BEN, result, result.press(Op.NEXT_HAND))).text == "Dealing…"  # a random deal
    assert ANN.user_id not in {chat for _, chat in world.chat.calls[calls:]}  # no write for her meanwhile
    assert world.chat.messages[(ANN.user_id, old.message_id)].presses == old.presses
    world.service.open_pages.closed(table_id, ANN.user_id)
    await asyncio.sleep(0.2)
    await world.service.idle()
    ended = world.chat.messages[(ANN.user_id, old.message_id)]
    assert not ended.presses and "The hand is over" in ended.text, ended
    new = await world.hand_message(ANN)
    assert new.message_id != old.message_id  # the new hand's message
    writes = [c for c in world.chat.calls[calls:] if c[1] == ANN.user_id]
    assert len(writes) == 2, writes  # the old hand's end, the new hand's message


async def test_a_table_ended_while_a_player_has_the_page_open_ends_his_hand_message_too(world: World) -> None:
    """Once the table is closed nothing brings his message up to date when he leaves the page: the
    closing does, as the chat would have shown it (the hand over, no buttons)."""
    table_id = await deal(world)
    for action in SCENARIO["actions"][:-2]:
        await perform(world, action)
    world.service.open_pages.opened(table_id, ANN.user_id)
    old = await world.hand_message(ANN)
    for action in SCENARIO["actions"][-2:]:
        await perform(world, action)
    assert world.chat.messages[(ANN.user_id, old.message_id)].presses == old.presses  # the page showed the end
    result = world.chat.last(GROUP)
    await world.press(BEN, result, result.press(Op.CLOSE))
    await world.press(BEN, result, world.chat.messages[(GROUP, result.message_id)].press(Op.CLOSE_CONFIRM))
    assert (await world.store.get_table(table_id)).status == "closed"
    ended = world.chat.messages[(ANN.user_id, old.message_id)]
    assert not ended.presses and "The hand is over" in ended.text, ended
