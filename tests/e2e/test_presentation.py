"""Presentation heals itself: a lost group announcement, live table message or hand-message edit
is sent again once Telegram lets it through, so no table is stuck on a failed send; a presenter
failure for one seat never skips the others; forged 亮倒 picks change nothing."""

from __future__ import annotations

import asyncio
import logging

import kwx_bot.service.present as present_module
from engine.game import Discarded, events_from_json, replay, spectator_view
from engine.tiles import parse_tile
from kwx_bot.edge.codec import b36, decode
from kwx_bot.edge.sender import Outcome, Sent
from kwx_bot.service.buttons import Op

from .leaks import SpyPictures
from .scenarios import deal_scenario, hand_record, load, perform


def _results(kwx, group):
    return [m for m in kwx.fake.bot_messages(group) if "Points:" in m.content]


def _fast_retries(service) -> None:
    service.present.retry_seconds = 0.2  # the production default is 1 s, doubling up to 60 s


async def test_a_flooded_result_is_sent_when_the_flood_ends(kwx):
    """Reproduction: 429 on the group's sendPhoto three times right before the win."""
    scenario = load("d57_double_ron")
    users = kwx.players("Ann", "Ben", "Cat")
    group = kwx.group(users)
    async with kwx.running() as service:
        _fast_retries(service)
        await kwx.start_bot(*users)
        await deal_scenario(kwx, users, group, scenario)
        for action in scenario["actions"][:-1]:
            await perform(kwx, users, action)
        kwx.fake.faults.flood(methods="sendPhoto", chats=group, retry_after=1, times=3)
        await perform(kwx, users, scenario["actions"][-1])
        result = await kwx.fake.wait_for(lambda: _results(kwx, group), 15)
        await kwx.settle()
        assert len(_results(kwx, group)) == 1  # sent once, not once per attempt
        assert result[0].photo is not None and result[0].button_texts == ["Next hand", "End the table"]
        assert kwx.fake.count_calls("sendPhoto", chat=group, ok=False) >= 3
        table = await service.store.get_table(1)
        assert table.status == "between" and table.announced_seq == table.seq
        await kwx.press(users[1], result[0], "Next hand")  # and the table goes on
        assert (await service.store.get_table(1)).hand_no == 2


async def test_the_presenter_retries_when_the_sender_gives_up(kwx):
    """The sender's own flood retries exhausted at once: the presenter's retry delivers, in order."""
    scenario = load("d57_double_ron")
    users = kwx.players("Ann", "Ben", "Cat")
    group = kwx.group(users)
    async with kwx.running() as service:
        _fast_retries(service)
        kwx.sender.flood_retries = 0
        await kwx.start_bot(*users)
        await deal_scenario(kwx, users, group, scenario)
        for action in scenario["actions"][:-1]:
            await perform(kwx, users, action)
        kwx.fake.faults.flood(methods="sendPhoto", chats=group, retry_after=1, times=2)
        await perform(kwx, users, scenario["actions"][-1])
        assert not _results(kwx, group) and service.present.retry_pending(1)
        result = await kwx.fake.wait_for(lambda: _results(kwx, group), 15)
        await kwx.fake.wait_for(lambda: not service.present.retry_pending(1), 15)
        await kwx.settle()
        assert len(_results(kwx, group)) == 1
        assert result[0].button_texts == ["Next hand", "End the table"]
        table_msg = kwx.fake.message(group, (await service.store.get_table(1)).table_msg_id)
        assert "The hand is over." in table_msg.content  # the final live-table edit arrived too


async def test_a_lost_hand_start_announcement_is_sent_later_and_the_table_lives(kwx):
    scenario = load("d57_double_ron")
    users = kwx.players("Ann", "Ben", "Cat")
    group = kwx.group(users)
    async with kwx.running() as service:
        _fast_retries(service)
        kwx.sender.flood_retries = 0
        await kwx.start_bot(*users)
        kwx.fake.faults.flood(methods="sendPhoto", chats=group, retry_after=1, times=1)
        await deal_scenario(kwx, users, group, scenario)
        assert (await service.store.get_table(1)).table_msg_id is None
        await kwx.fake.wait_for(lambda: any("starts" in m.content for m in kwx.fake.bot_messages(group)), 10)
        for action in scenario["actions"]:
            await perform(kwx, users, action)
        await kwx.fake.wait_for(lambda: _results(kwx, group), 10)
        await kwx.settle()
        table = await service.store.get_table(1)
        live_msg = kwx.fake.message(group, table.table_msg_id)
        assert live_msg.edit_count > 0 and "The hand is over." in live_msg.content
        starts = [c for c in kwx.fake.calls_to("sendPhoto", chat=group, ok=True) if "starts" in c.param("caption")]
        assert len(starts) == 1


async def test_a_late_reveal_picture_shows_the_hand_as_it_was_at_the_liangdao(kwx):
    """The group's 亮倒 announcement fails and is sent only after Ben's next discard: its picture is
    still drawn from the table right after Ann's 亮倒 (docs/architecture.md §4 "The screen model") —
    not Ben's discard since, nor a wall count or unseen copies of later."""
    scenario = load("h2_one_liangdao")  # Ann: 亮倒 with 9s; Ben discards 5s; then it is Cat's turn
    kwx.pictures = spy = SpyPictures()
    users = kwx.players("Ann", "Ben", "Cat")
    group = kwx.group(users)
    async with kwx.running() as service:
        service.present.retry_seconds = 60.0  # the next press, not a retry, sends it
        kwx.sender.flood_retries = 0
        await kwx.start_bot(*users)
        await deal_scenario(kwx, users, group, scenario)
        kwx.fake.faults.flood(methods="sendPhoto", chats=group, retry_after=1, times=1)
        await perform(kwx, users, scenario["actions"][0])  # Ann's 亮倒: its announcement is refused
        await kwx.settle()
        assert not _reveals(kwx, group)
        kwx.fake.faults.clear()  # the flood is over
        await perform(kwx, users, scenario["actions"][1])  # Ben discards 5s: the announcement goes now
        reveal = (await kwx.fake.wait_for(lambda: _reveals(kwx, group), 15))[0]
        stored, _ledger, _table = await hand_record(service, 1)
        events = events_from_json(stored)
        declared = next(i for i, e in enumerate(events) if isinstance(e, Discarded) and e.liangdao)
        kind, view = spy.origin(reveal.photo.data)
        assert kind == "reveal" and len(events) > declared + 1  # the hand went on before it was sent
        assert view == spectator_view(replay(events[: declared + 1]))
        assert parse_tile("5s") not in [d.tile for d in view.seats[1].discards]


def _reveals(kwx, group):
    return [m for m in kwx.fake.bot_messages(group) if m.photo is not None and "lays down" in m.content]


async def test_a_flooded_private_chat_gets_its_buttons_back(kwx):
    """The hand-message edit that gives the next player their buttons fails; nobody presses
    anything, yet the buttons arrive once the flood is over."""
    scenario = load("d57_double_ron")
    users = kwx.players("Ann", "Ben", "Cat")
    group = kwx.group(users)
    async with kwx.running() as service:
        _fast_retries(service)
        kwx.sender.flood_retries = 0
        await kwx.start_bot(*users)
        await deal_scenario(kwx, users, group, scenario)
        ben = users[scenario["actions"][1]["seat"]]
        kwx.fake.faults.flood(chats=kwx.fake.private_chat(ben), retry_after=1, times=2)
        await perform(kwx, users, scenario["actions"][0])
        assert not kwx.game_buttons(ben)  # the edit was refused
        await kwx.fake.wait_for(lambda: kwx.game_buttons(ben), 15)
        await perform(kwx, users, scenario["actions"][1])


async def test_a_hand_message_whose_edits_keep_failing_is_replaced(kwx):
    scenario = load("d57_double_ron")
    users = kwx.players("Ann", "Ben", "Cat")
    group = kwx.group(users)
    async with kwx.running() as service:
        _fast_retries(service)
        await kwx.start_bot(*users)
        await deal_scenario(kwx, users, group, scenario)
        ben = users[1]
        old = kwx.hand_message(ben)
        sender = service.sender

        def failing(method):
            async def edit(chat_id, *args, **kwargs):
                if chat_id == ben.id:
                    return Sent(Outcome.FAILED)
                return await method(chat_id, *args, **kwargs)

            return edit

        for attr in ("edit_media", "edit_caption"):
            setattr(sender, attr, failing(getattr(sender, attr)))
        await perform(kwx, users, scenario["actions"][0])
        await kwx.fake.wait_for(lambda: kwx.hand_message(ben).message_id != old.message_id, 15)
        assert kwx.game_buttons(ben) and not kwx.fake.message(ben, old.message_id).buttons
        await perform(kwx, users, scenario["actions"][1])


async def test_a_presenter_error_for_one_seat_does_not_skip_the_others(kwx, caplog, monkeypatch):
    scenario = load("d57_double_ron")
    users = kwx.players("Ann", "Ben", "Cat")
    group = kwx.group(users)
    async with kwx.running() as service:
        _fast_retries(service)
        await kwx.start_bot(*users)
        await deal_scenario(kwx, users, group, scenario)
        present = service.present
        real = present_module.hand_screen
        broken = {"on": True}

        def hand_screen(live, seat):
            if seat.seat == 0 and broken["on"]:
                raise RuntimeError("boom")
            return real(live, seat)

        monkeypatch.setattr(present_module, "hand_screen", hand_screen)
        with caplog.at_level(logging.ERROR, logger="kwx"):
            await perform(kwx, users, scenario["actions"][0])  # Ann discards; Ben's turn
        assert "boom" in caplog.text
        assert kwx.game_buttons(users[1])  # seats 1 and 2 were presented all the same
        assert "Ann discards" not in kwx.hand_message(users[0]).content
        broken["on"] = False
        await kwx.fake.wait_for(lambda: not present.retry_pending(1), 10)
        await kwx.settle()
        assert "Waiting for the other players" in kwx.hand_message(users[0]).content  # healed


async def test_forged_liangdao_picks_are_refused_and_change_nothing(kwx, caplog):
    users = kwx.players("Ann", "Ben", "Cat")
    group = kwx.group(users)
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        await deal_scenario(kwx, users, group, load("g1_concealed_kong"))
        ann = users[0]
        before = kwx.hand_message(ann)
        seq = b36((await service.store.get_table(1)).seq)
        with caplog.at_level(logging.ERROR):
            for data in (f"1:{seq}:P7z", f"1:{seq}:P1p"):  # 中 is not in hand; 1p keeps nothing ready
                query = kwx.fake.forge_press(ann, kwx.hand_message(ann), data)
                await kwx.fake.wait_for_answer(query)
                await kwx.settle()
                assert query.answer.show_alert and query.answer.text
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
        after = kwx.hand_message(ann)
        assert after.message_id == before.message_id and after.button_texts == before.button_texts
        # the real 亮倒 flow still works for her
        await kwx.act(ann, "L")
        pick = kwx.hand_message(ann).callback_datas[0]
        await kwx.press(ann, kwx.hand_message(ann), data=pick)
        confirm = kwx.hand_message(ann)
        assert confirm.button_texts[0].startswith("Lay down, discard")
        assert "You will wait on" in confirm.content
        query = await kwx.press(ann, confirm, confirm.button_texts[0])
        assert not query.answer.show_alert
        assert any("lays down!" in m.content for m in kwx.fake.bot_messages(group))


async def test_a_press_is_answered_at_once_while_the_last_ones_sends_wait_out_a_429(kwx):
    """A press's presentation runs after its update ends: a 429 on another player's chat holds up
    the sends it makes there, never the next update in the presser's own chat (updates of one chat
    run one after another, docs/architecture.md §4)."""
    scenario = load("d57_double_ron")
    users = kwx.players("Ann", "Ben", "Cat")
    ann, ben = users[0], users[1]
    group = kwx.group(users)
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        await deal_scenario(kwx, users, group, scenario)
        hand = kwx.hand_message(ann)
        (data,) = [d for _, d in kwx.game_buttons(ann) if (b := decode(d)).op is Op.DISCARD and str(b.tile) == "3p"]
        kwx.fake.faults.flood(methods="editMessageMedia", chats=ben, retry_after=2, times=1)  # Ben's draw
        pressed = kwx.fake.mark()
        first = kwx.fake.press(ann, hand, data=data)  # Ann discards 3 Dot: Ben draws
        await kwx.fake.wait_for_answer(first, 5)
        mark = kwx.fake.mark()
        kwx.fake.user_command(ann, kwx.fake.private_chat(ann), "help")  # her chat's next update
        await kwx.fake.wait_for(lambda: kwx.fake.bot_messages(kwx.fake.private_chat(ann), since=mark), 10)
        # answered while Ben's picture still waited out its 429 (whatever the machine's load)
        shown_to_ben = kwx.fake.count_calls("editMessageMedia", chat=ben, ok=True, since=pressed)
        assert shown_to_ben == 0, "her next update waited for the press's sends"
        await kwx.settle()
        live = await service.tables.get(1)
        assert [d.tile for d in live.state.seats[0].discards] == [parse_tile("3p")]  # applied once
        assert kwx.fake.count_calls("editMessageMedia", chat=ben, ok=False) == 1  # the 429 was met
        assert kwx.fake.count_calls("editMessageMedia", chat=ben, ok=True, since=pressed) == 1  # then waited out
        assert any(decode(d).op is Op.DISCARD for _, d in kwx.game_buttons(ben))  # Ben's turn is shown


class FloodGate:
    """The bot's flood-control waits, held by the test: a 429's ``retry_after`` is waited out (on
    the fake's clock) only once the gate opens, so a group edit stays in flight as long as a test
    needs.  ``async with gate:`` opens it on the way out, whatever happened."""

    def __init__(self, kwx) -> None:
        self.fake = kwx.fake
        self.open = asyncio.Event()
        self.waiting = 0
        kwx.flood_sleep = self.sleep

    async def sleep(self, seconds: float) -> None:
        self.waiting += 1
        try:
            await self.open.wait()
        finally:
            self.waiting -= 1
        self.fake.clock.advance(seconds)

    async def __aenter__(self) -> FloodGate:
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.open.set()


def _hand_no(kwx, user) -> str:
    msg = kwx.hand_message(user)
    return msg.content.split(" ", 2)[1] if msg is not None else ""


async def test_a_deal_does_not_wait_for_a_group_edit_held_by_flood_control(kwx):
    """Reproduction: the lobby's edit after the last join meets a 429 and waits it out; Start is
    pressed meanwhile.  The deal once waited for that edit (it held the table's picture lock), and
    with it every press (the deal held the table's lock).  Now the hands go out at once, and the
    players' presses are answered, while the group's edit is still waiting (docs/architecture.md §4
    "Presentation")."""
    gate = FloodGate(kwx)
    users = kwx.players("Ann", "Ben", "Cat")
    ann, ben, cat = users
    group = kwx.group(users)
    async with kwx.running(), gate:
        await kwx.start_bot(*users)
        kwx.fake.user_command(ann, group, "new")
        await kwx.settle()
        lobby = kwx.fake.last_message(group)
        await kwx.press(ben, lobby, "Join")
        kwx.fake.faults.flood(methods="editMessageText", chats=group, retry_after=5)
        joined = kwx.fake.press(cat, kwx.fake.message(group, lobby.message_id), "Join")
        await kwx.fake.wait_for_answer(joined, 5)
        await kwx.fake.wait_for(lambda: gate.waiting, 5, message="the lobby edit to meet flood control")
        start = kwx.fake.press(ann, kwx.fake.message(group, lobby.message_id), "Start")
        await kwx.fake.wait_for_answer(start, 5)
        await kwx.fake.wait_for(lambda: all(_hand_no(kwx, u) == "1" for u in users), 5, message="the hands")
        late = kwx.fake.press(ben, kwx.fake.message(group, lobby.message_id), "Leave")
        await kwx.fake.wait_for_answer(late, 5)
        assert late.answer.text == "This table has already started."
        mover = next(u for u in users if kwx.game_buttons(u))
        _label, data = next(b for b in kwx.game_buttons(mover) if decode(b[1]).op is Op.DISCARD)
        before = kwx.hand_message(mover).edit_count
        move = kwx.fake.press(mover, kwx.hand_message(mover), data=data)
        await kwx.fake.wait_for_answer(move, 5)
        await kwx.fake.wait_for(lambda: kwx.hand_message(mover).edit_count > before, 5, message="the move shown")
        assert gate.waiting  # all of it while the group's edit still waits out its 429
        gate.open.set()
        await kwx.settle()
        assert "The game is on" in kwx.fake.message(group, lobby.message_id).content


async def test_the_next_hand_does_not_wait_for_the_last_table_edit_held_by_flood_control(kwx):
    """The last hand's final live-table edit meets a 429 and waits it out: the result is in the
    group already, Next hand is pressed, and the new hand's hand messages go out at once."""
    gate = FloodGate(kwx)
    scenario = load("d57_double_ron")
    users = kwx.players("Ann", "Ben", "Cat")
    group = kwx.group(users)
    async with kwx.running() as service, gate:
        gate.open.set()
        await kwx.start_bot(*users)
        await deal_scenario(kwx, users, group, scenario)
        for action in scenario["actions"][:-1]:
            await perform(kwx, users, action)
        await kwx.settle()
        old_table = (await service.store.get_table(1)).table_msg_id
        gate.open.clear()
        kwx.fake.faults.flood(methods=["editMessageMedia", "editMessageCaption"], chats=group, retry_after=5)
        user, message, data = _last_press(kwx, users, scenario["actions"][-1])
        kwx.fake.press(user, message, data=data)
        result = await kwx.fake.wait_for(lambda: _results(kwx, group), 5, message="the result")
        await kwx.fake.wait_for(lambda: gate.waiting, 5, message="the table edit to meet flood control")
        nxt = kwx.fake.press(users[1], result[0], "Next hand")
        await kwx.fake.wait_for_answer(nxt, 5)
        await kwx.fake.wait_for(lambda: all(_hand_no(kwx, u) == "2" for u in users), 5, message="hand 2")
        assert gate.waiting
        gate.open.set()
        await kwx.settle()
        # the old edit went through on the old hand's message and was not taken for the new hand's
        assert "The hand is over." in kwx.fake.message(group, old_table).content
        live = service.tables.cached()[0]
        assert live.row.table_msg_id != old_table and live.hand.hand_no == 2
        assert kwx.fake.message(group, live.row.table_msg_id).source_caption == live.table_shown.caption


def _last_press(kwx, users, action):
    """(user, hand message, data) of a scenario's one-press action (a win)."""
    user = users[action["seat"]]
    (data,) = [d for _, d in kwx.game_buttons(user) if decode(d).op.value == "w"]
    return user, kwx.hand_message(user), data
