"""Two bots (two tokens, two PTB Applications) over one ledger (docs/architecture.md §8): each runs
the tables of its own groups, a restart of one does not touch the other's table, a join link or a
button of one bot's table that reaches the other is refused politely and changes nothing, a group
has one open table whichever bot runs it, a player ``/start``s each bot they play with, and
``/score me`` covers the player's groups of both bots.

Each bot sees Telegram through its own fake Bot API (``FakeBotAPI``, one per token): the same
people have the same user ids in both, and a group that added both bots has the same chat id in
both.  Once on SQLite (one file), once on PostgreSQL (one database)."""

from __future__ import annotations

from fakebot import MESSAGE_WRITE_METHODS, FakeBotAPI, FakeChat, FakeMessage, FakeUser
from fakebot.ptb import application_builder

from .harness import Kwx
from .scenarios import load, perform

SECOND_TOKEN = "987654321:TEST-kwx-second-fake-token"
OTHER_BOT = "belongs to another bot"
SCENARIO = load("d57_double_ron")
"""The hand each bot deals (standard rules, dealer 0, 14 actions ending in two wins)."""
DEAL = {"hands": SCENARIO["hands"], "wall": SCENARIO["wall"], "dealer": SCENARIO["dealer"]}
HALF = len(SCENARIO["actions"]) // 2


def second_bot(first: Kwx) -> Kwx:
    """Another bot (its own token and @username) on ``first``'s database."""
    fake = FakeBotAPI(token=SECOND_TOKEN, bot_username="kwx_second_bot", bot_first_name="KWX Second Bot")
    return Kwx(fake, lambda: application_builder(fake), first.db_path, database_url=first.database_url)


def same_person(fake: FakeBotAPI, user: FakeUser) -> FakeUser:
    """``user`` as the other bot sees them (the same Telegram user id)."""
    return fake.create_user(user.first_name, user_id=user.id, language_code=user.language_code)


def with_button(kwx: Kwx, chat: FakeChat, label: str) -> FakeMessage:
    """The newest bot message in ``chat`` that has a button labelled ``label``."""
    return next(m for m in reversed(kwx.fake.bot_messages(chat)) if label in m.button_texts)


async def two_bots_over_one_ledger(a: Kwx, b: Kwx) -> None:
    ann, ben, cat, gus, dan, eve = a.players("Ann", "Ben", "Cat", "Gus", "Dan", "Eve")
    night_a = a.group([ann, ben, cat, gus], "Night A")
    ann_b, gus_b, dan_b, eve_b = (same_person(b.fake, u) for u in (ann, gus, dan, eve))
    night_a_b = b.fake.create_group("Night A", members=[ann_b, gus_b], chat_id=night_a.id)  # it added B too
    night_b = b.fake.create_group("Night B", members=[ann_b, dan_b, eve_b], chat_id=-400_000_777)
    async with b.running() as sb:
        async with a.running() as sa:
            bot_a, bot_b = sa.tables.bot_id, sb.tables.bot_id
            assert (bot_a, bot_b) == (123456789, 987654321)
            await a.start_bot(ann, ben, cat)  # Gus has no private chat with bot A
            await b.start_bot(gus_b, dan_b, eve_b)  # Ann has none with bot B
            a.fake.user_command(ann, night_a, "new")
            await a.settle()
            lobby = a.fake.last_message(night_a)
            query = await a.press(gus, lobby, "Join")  # a join link with A's secret, join remembered at A
            assert query.answer.url.startswith("https://t.me/kwx_test_bot?start=j")
            gid_a = await sa.store.group_id_for_chat(night_a.id)
            table_a = (await sa.store.open_table_of_group(gid_a, bot_id=bot_a)).table_id
            assert (await sa.store.get_table(table_a)).bot_id == bot_a

            # A's join link, A's button and /new in A's group, all sent to bot B: refused, nothing changed
            before = (await sa.store.get_table(table_a), await sa.store.seats(table_a))
            b.fake.start_bot(gus_b, query.answer.url.split("start=", 1)[1])
            await b.settle()
            refusal = b.fake.last_message(b.fake.private_chat(gus_b))
            assert OTHER_BOT in refusal.content
            join_data = next(k.callback_data for k in lobby.iter_buttons() if k.text == "Join")
            forged = b.fake.forge_press(gus_b, refusal, join_data)  # a modified client
            await b.fake.wait_for_answer(forged)
            assert OTHER_BOT in forged.answer.text and forged.answer.show_alert
            b.fake.user_command(ann_b, night_a_b, "new")
            await b.settle()
            assert "Another bot runs this group's table" in b.fake.last_message(night_a_b).content
            b.fake.user_command(ann_b, night_a_b, "kill")  # /kill agrees: the table is there, another bot's
            await b.settle()
            assert "Another bot runs this group's table" in b.fake.last_message(night_a_b).content
            assert (await sa.store.get_table(table_a), await sa.store.seats(table_a)) == before
            assert [s.user_id for s in before[1]] == [ann.id]
            assert (await sa.store.get_user(gus.id, bot_id=bot_a)).pending_table_id == table_a
            gus_at_b = await sb.store.get_user(gus.id, bot_id=bot_b)
            assert gus_at_b.can_pm and gus_at_b.pending_table_id is None
            assert await sb.store.open_tables(bot_id=bot_b) == [] and sb.tables.cached() == []

            # bot A plays a hand in its group, and its table ends
            for user in (ben, cat):
                await a.press(user, a.fake.message(night_a, lobby.message_id), "Join")
            await sa.prepare_deal(table_a, DEAL)
            await a.press(ann, a.fake.message(night_a, lobby.message_id), "Start")
            for action in SCENARIO["actions"]:
                await perform(a, [ann, ben, cat], action)
            assert "Points:" in a.fake.bot_messages(night_a)[-1].content
            await a.press(ann, with_button(a, night_a, "End the table"), "End the table")
            await a.press(ann, with_button(a, night_a, "Yes, end the table"), "Yes, end the table")
            assert await sa.store.open_tables(bot_id=bot_a) == []

            # bot B: Ann must /start bot B too (her private chat with A does not count); B deals a hand
            b.fake.user_command(dan_b, night_b, "new")
            await b.settle()
            lobby_b = b.fake.last_message(night_b)
            query = await b.press(ann_b, lobby_b, "Join")
            assert query.answer.url.startswith("https://t.me/kwx_second_bot?start=j")
            b.fake.start_bot(ann_b, query.answer.url.split("start=", 1)[1])
            await b.settle()
            await b.press(eve_b, b.fake.message(night_b, lobby_b.message_id), "Join")
            table_b = (await sb.store.open_tables(bot_id=bot_b))[0].table_id
            assert [s.user_id for s in await sb.store.seats(table_b)] == [dan.id, ann.id, eve.id]
            await sb.prepare_deal(table_b, DEAL)
            await b.press(dan_b, b.fake.message(night_b, lobby_b.message_id), "Start")
            for action in SCENARIO["actions"][:HALF]:
                await perform(b, [dan_b, ann_b, eve_b], action)
            assert (await sb.store.current_hand(table_b)).status == "playing"

        # bot A restarts while bot B's hand is in play: A loads, arms and presents nothing of B's
        row_b = await sb.store.get_table(table_b)
        mark_a = a.fake.mark()
        async with a.running() as sa:
            await a.settle()
            assert sa.tables.cached() == []
            assert a.fake.count_calls(MESSAGE_WRITE_METHODS, since=mark_a) == 0  # not a message sent or edited
            assert await sb.store.get_table(table_b) == row_b
            for action in SCENARIO["actions"][HALF:]:  # B plays on
                await perform(b, [dan_b, ann_b, eve_b], action)
            assert (await sb.store.current_hand(table_b)).status == "over"

            # one ledger: /score me at either bot covers Ann's groups of both bots
            for kwx, user in ((a, ann), (b, ann_b)):
                chat = kwx.fake.private_chat(user)
                mark = kwx.fake.mark()
                kwx.fake.user_command(user, chat, "score", "me")
                await kwx.settle()
                (mine,) = kwx.fake.bot_messages(chat, since=mark)
                assert "Night A" in mine.text and "Night B" in mine.text, mine.text
    for kwx in (a, b):
        assert kwx.fake.count_calls(ok=False) == 0, [c for c in kwx.fake.calls if c.status != 200]
        assert kwx.fake.internal_errors == []


async def test_two_bots_over_one_sqlite_file(kwx):
    await two_bots_over_one_ledger(kwx, second_bot(kwx))


async def test_two_bots_over_one_postgresql_database(fakebot, fakebot_inprocess_builder, tmp_path, postgres_url):
    a = Kwx(fakebot, fakebot_inprocess_builder, tmp_path / "unused.sqlite3", database_url=postgres_url)
    await two_bots_over_one_ledger(a, second_bot(a))
    assert not (tmp_path / "unused.sqlite3").exists()
