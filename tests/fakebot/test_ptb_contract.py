"""Contract tests: a real python-telegram-bot 22.8 ``Application`` / ``Bot`` against the fake.

A tiny bot (``MiniBot``) uses the same methods kwx does; the scenario runs over both transports:
/start -> reply with buttons -> press -> edit -> photo -> editMessageMedia -> admin check -> 403
-> stale query -> 429 with retry_after -> group migration. Every response is parsed by PTB, so a
wrong JSON shape in the fake fails here.
"""

from __future__ import annotations

import datetime as dtm
import io
from collections.abc import Callable

import pytest
from PIL import Image
from telegram import (
    BotCommand,
    BotCommandScopeChat,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaDocument,
    InputMediaPhoto,
    MessageEntity,
    Update,
)
from telegram.constants import ChatMemberStatus, ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden, RetryAfter, TelegramError
from telegram.ext import (
    AIORateLimiter,
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from fakebot import FakeBotAPI, application_builder, fake_bot, run_application


def retry_seconds(error: RetryAfter) -> float:
    """``retry_after`` in seconds (an int in PTB 22, a timedelta with PTB_TIMEDELTA=1)."""
    value = error.retry_after
    return value.total_seconds() if isinstance(value, dtm.timedelta) else float(value)


def png(width: int, height: int, color: str = "green") -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), color).save(buffer, "PNG")
    return buffer.getvalue()


pytestmark = pytest.mark.filterwarnings("ignore:Deprecated since version v22.2:telegram.warnings.PTBDeprecationWarning")

LOBBY_KEYBOARD = InlineKeyboardMarkup(
    [[InlineKeyboardButton("Join", callback_data="t:join"), InlineKeyboardButton("Deal", callback_data="t:deal")]]
)
HAND_KEYBOARD = InlineKeyboardMarkup([[InlineKeyboardButton("Redraw", callback_data="t:redraw")]])


class MiniBot:
    """A small PTB bot using the Bot API methods kwx relies on; records errors and migrations."""

    def __init__(self) -> None:
        self.players: list[str] = []
        self.errors: list[BaseException] = []
        self.migrations: list[tuple[int, int]] = []

    def build(self, builder: ApplicationBuilder) -> Application:
        app = builder.post_init(self.post_init).build()
        app.add_handler(CommandHandler("start", self.start))
        app.add_handler(CommandHandler("ping", self.ping))
        app.add_handler(CommandHandler("dm", self.dm))
        app.add_handler(CommandHandler("close", self.close))
        app.add_handler(CallbackQueryHandler(self.button, pattern=r"^t:"))
        app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, self.migrated))
        app.add_error_handler(self.on_error)
        return app

    async def post_init(self, app: Application) -> None:
        await app.bot.set_my_commands([BotCommand("start", "Open a table"), BotCommand("ping", "Ping")])

    async def start(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await update.message.reply_html("<b>Table</b> &amp; friends: nobody yet", reply_markup=LOBBY_KEYBOARD)

    async def ping(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await update.message.reply_text("pong")

    async def dm(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await context.bot.send_message(int(context.args[0]), "psst")

    async def close(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        member = await context.bot.get_chat_member(update.effective_chat.id, update.effective_user.id)
        admin = member.status in (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR)
        await update.message.reply_text("Table closed" if admin else "Only admins can close the table")

    async def button(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        name = query.from_user.first_name
        if query.data == "t:join":
            if name in self.players:
                await query.answer("You are already seated")
                return
            await query.answer("Seated")
            self.players.append(name)
            await query.edit_message_text(
                f"<b>Table</b> &amp; friends: {', '.join(self.players)}",
                parse_mode=ParseMode.HTML,
                reply_markup=LOBBY_KEYBOARD,
            )
        elif query.data == "t:deal":
            await query.answer()
            await context.bot.send_photo(
                query.message.chat.id, png(640, 480), caption="Your hand", reply_markup=HAND_KEYBOARD
            )
        elif query.data == "t:redraw":
            await query.answer()
            await query.edit_message_media(
                InputMediaPhoto(png(320, 240, "red"), caption="Redrawn"), reply_markup=HAND_KEYBOARD
            )

    async def migrated(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        if message.migrate_to_chat_id:
            self.migrations.append((message.chat.id, message.migrate_to_chat_id))

    async def on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        self.errors.append(context.error)


@pytest.fixture(params=["http", "inprocess"])
def builder_factory(request, fakebot: FakeBotAPI) -> Callable[[], ApplicationBuilder]:
    if request.param == "http":
        return request.getfixturevalue("fakebot_builder")
    return request.getfixturevalue("fakebot_inprocess_builder")


async def test_full_scenario(fakebot: FakeBotAPI, builder_factory):
    fake = fakebot
    alice = fake.create_user("Alice", language_code="zh-hans")
    bob = fake.create_user("Bob")
    group = fake.create_group("Mahjong night", members=[alice, bob])
    minibot = MiniBot()
    app = minibot.build(builder_factory())

    async with run_application(app):
        assert [c.method for c in fake.calls[:3]] == ["getMe", "setMyCommands", "deleteWebhook"]
        assert fake.bot_commands()[0] == {"command": "start", "description": "Open a table"}

        # /start -> reply with buttons (HTML parsed, reply to the command)
        command = fake.user_command(alice, group, "start")
        lobby = await fake.wait_for_message(group, contains="friends")
        assert lobby.text == "Table & friends: nobody yet"
        assert lobby.entity_texts("bold") == ["Table"]
        assert lobby.button_texts == ["Join", "Deal"] and lobby.reply_to is command

        # press -> answer first, then edit
        mark = fake.mark()
        query = fake.press(alice, lobby, "Join")
        await fake.wait_for(lambda: lobby.edit_count == 1)
        assert query.answer.text == "Seated"
        assert lobby.text == "Table & friends: Alice" and lobby.button_texts == ["Join", "Deal"]
        assert [c.method for c in fake.calls_to(since=mark)] == ["answerCallbackQuery", "editMessageText"]

        # a repeated press answers without an edit
        again = fake.press(alice, lobby, "Join")
        await fake.wait_for_answer(again)
        await fake.wait_idle()
        assert again.answer.text == "You are already seated" and lobby.edit_count == 1

        # photo upload (multipart) and editMessageMedia (attach://)
        fake.press(bob, lobby, data="t:deal")
        hand = await fake.wait_for_message(group, lambda m: m.photo is not None)
        assert hand.photo_size == (640, 480) and hand.caption == "Your hand"
        assert hand.photo.image().getpixel((0, 0)) == (0, 128, 0)
        fake.press(bob, hand, "Redraw")
        await fake.wait_for(lambda: hand.edit_count == 1)
        assert hand.photo_size == (320, 240) and hand.caption == "Redrawn" and hand.button_texts == ["Redraw"]
        assert hand.history[0].media.width == 640
        assert [f.width for f in fake.seen_photos(group)] == [640, 320]

        # getChatMember-based admin check
        fake.user_command(bob, group, "close")
        assert (await fake.wait_for_message(group, contains="close")).text == "Only admins can close the table"
        fake.user_command(alice, group, "close")
        await fake.wait_for_message(group, contains="Table closed")

        # 403: the bot cannot DM a user who never pressed Start
        fake.user_command(alice, group, "dm", str(bob.id))
        forbidden = await fake.wait_for(lambda: [e for e in minibot.errors if isinstance(e, Forbidden)])
        assert "bot can't initiate conversation with a user" in str(forbidden[0]).lower()

        # stale callback query: answering too late fails, the edit does not happen
        fake.callback_query_ttl = 0.0
        fake.press(bob, lobby, "Join")
        stale = await fake.wait_for(lambda: [e for e in minibot.errors if isinstance(e, BadRequest)])
        assert "query is too old" in str(stale[0]).lower()
        assert lobby.edit_count == 1 and "Bob" not in minibot.players
        fake.callback_query_ttl = 15.0

        # 429: the chat is refused until retry_after elapses on the fake's clock
        fake.faults.flood(methods="sendMessage", chats=group, retry_after=30)
        fake.user_command(alice, group, "ping")
        flood = await fake.wait_for(lambda: [e for e in minibot.errors if isinstance(e, RetryAfter)])
        assert retry_seconds(flood[0]) == 30
        fake.user_command(alice, group, "ping")
        await fake.wait_for(lambda: len([e for e in minibot.errors if isinstance(e, RetryAfter)]) == 2)
        fake.clock.advance(30)
        fake.user_command(alice, group, "ping")
        await fake.wait_for_message(group, contains="pong")

        # group -> supergroup migration: service update, then ChatMigrated for the old id
        supergroup = fake.migrate_group(group, by=alice)
        await fake.wait_for(lambda: minibot.migrations)
        assert minibot.migrations == [(group.id, supergroup.id)]
        with pytest.raises(ChatMigrated) as migrated:
            await app.bot.send_message(group.id, "hello?")
        assert migrated.value.new_chat_id == supergroup.id
        await app.bot.send_message(supergroup.id, "hello again")
        assert fake.last_message(supergroup).text == "hello again"

    seen = fake.seen_texts(group)
    assert "Table & friends: nobody yet" in seen and "Table & friends: Alice" in seen and "Redraw" in seen
    assert not [e for e in minibot.errors if not isinstance(e, Forbidden | BadRequest | RetryAfter)]
    assert fake.internal_errors == []


async def test_presses_made_while_the_bot_is_down_reach_the_restarted_bot(fakebot, fakebot_inprocess_builder):
    fake = fakebot
    alice = fake.create_user("Alice")
    group = fake.create_group("G", members=[alice])
    first = MiniBot()
    async with run_application(first.build(fakebot_inprocess_builder())):
        fake.user_command(alice, group, "start")
        lobby = await fake.wait_for_message(group, contains="friends")
    query = fake.press(alice, lobby, "Join")  # nobody is polling now
    second = MiniBot()
    async with run_application(second.build(fakebot_inprocess_builder())):
        await fake.wait_for_answer(query)
        await fake.wait_for(lambda: lobby.edit_count == 1)
    assert second.players == ["Alice"] and first.players == []


async def test_rate_limiter_retries_after_the_real_retry_after(fakebot, fakebot_inprocess_builder):
    fake = fakebot
    alice = fake.create_user("Alice")
    group = fake.create_group("G", members=[alice])
    minibot = MiniBot()
    app = minibot.build(fakebot_inprocess_builder().rate_limiter(AIORateLimiter(max_retries=1)))
    fake.faults.flood(methods="sendMessage", chats=group, retry_after=1)
    async with run_application(app):
        fake.user_command(alice, group, "ping")
        await fake.wait_for_message(group, contains="pong", timeout=5)
    refused, accepted = fake.calls_to("sendMessage", chat=group)
    assert (refused.status, accepted.status) == (429, 200)
    assert accepted.time - refused.time >= 1.0
    assert minibot.errors == []


async def test_every_endpoint_roundtrips_through_a_ptb_bot(fakebot: FakeBotAPI, fakebot_bot):
    fake, bot = fakebot, fakebot_bot
    alice = fake.create_user("Alice", username="alice", started=True)
    bob, carol, dave = fake.create_user("Bob"), fake.create_user("Carol"), fake.create_user("Dave")
    group = fake.create_supergroup("S", members=[alice, bob, carol], admins=[bob], bot_status="administrator")
    fake.set_member_status(group, carol, "restricted")
    fake.set_member_status(group, dave, "kicked")

    me = await bot.get_me()
    assert me.username == "kwx_test_bot" and me.can_join_groups
    scope = BotCommandScopeChat(group.id)
    assert await bot.set_my_commands([BotCommand("new", "开桌")], scope=scope, language_code="zh")
    assert (await bot.get_my_commands(scope=scope, language_code="zh"))[0].description == "开桌"
    assert await bot.delete_my_commands(scope=scope, language_code="zh")
    assert await bot.get_my_commands(scope=scope, language_code="zh") == ()

    text = await bot.send_message(
        group.id,
        "hello world",
        entities=[MessageEntity("bold", 0, 5)],
        reply_markup=LOBBY_KEYBOARD,
        disable_notification=True,
    )
    assert text.entities[0].type == "bold" and text.reply_markup == LOBBY_KEYBOARD
    assert (await bot.edit_message_text("hello", group.id, text.message_id)).text == "hello"
    assert (await bot.edit_message_reply_markup(group.id, text.message_id, reply_markup=HAND_KEYBOARD)).reply_markup
    photo = await bot.send_photo(alice.id, png(800, 400), caption="hand")
    assert photo.photo[-1].width == 800 and len(photo.photo) == 3
    resent = await bot.send_photo(alice.id, photo.photo[-1].file_id)
    assert resent.photo[-1].file_unique_id == photo.photo[-1].file_unique_id
    assert (await bot.edit_message_caption(alice.id, photo.message_id, caption="hand 2")).caption == "hand 2"
    edited = await bot.edit_message_media(InputMediaPhoto(png(100, 50)), alice.id, photo.message_id)
    assert edited.photo[-1].width == 100 and edited.caption is None
    document = await bot.send_document(alice.id, b"seed=42\n", filename="replay.txt")
    assert document.document.file_name == "replay.txt"
    swapped = await bot.edit_message_media(InputMediaDocument(b"v2", filename="v2.txt"), alice.id, document.message_id)
    assert swapped.document.file_name == "v2.txt"
    file = await bot.get_file(edited.photo[-1].file_id)
    downloaded = bytes(await file.download_as_bytearray())
    assert downloaded == fake.message(alice, photo.message_id).photo.data
    assert Image.open(io.BytesIO(downloaded)).size == (100, 50)

    full = await bot.get_chat(group.id)
    assert full.title == "S" and full.type == "supergroup"
    statuses = {u: (await bot.get_chat_member(group.id, u.id)).status for u in (alice, bob, carol, dave)}
    assert list(statuses.values()) == ["creator", "administrator", "restricted", "kicked"]
    assert (await bot.get_chat_member(group.id, fake.bot.id)).status == "administrator"
    admins = await bot.get_chat_administrators(group.id)
    assert {a.user.id for a in admins} == {alice.id, bob.id, fake.bot.id}
    assert await bot.get_chat_member_count(group.id) == 4
    assert await bot.send_chat_action(group.id, "typing")

    theirs = fake.user_sends(bob, group, "/x@kwx_test_bot")
    assert await bot.delete_message(group.id, theirs.message_id)
    assert await bot.delete_messages(alice.id, [photo.message_id, resent.message_id, 9999])
    assert [m.message_id for m in fake.bot_messages(alice)] == [document.message_id]

    query = fake.press(alice, fake.message(group, text.message_id), "Redraw")
    updates = await bot.get_updates(timeout=0)
    assert updates[-1].callback_query.id == query.id and updates[-1].callback_query.data == "t:redraw"
    assert await bot.answer_callback_query(query.id, text="ok", show_alert=True)
    with pytest.raises(BadRequest, match=r"(?i)query is too old"):
        await bot.answer_callback_query(query.id)
    assert (await bot.get_webhook_info()).pending_update_count == len(fake.updates)
    assert await bot.delete_webhook(drop_pending_updates=True)
    assert await bot.get_updates(timeout=0) == ()
    assert await bot.leave_chat(group.id)
    with pytest.raises(Forbidden, match=r"(?i)not a member of the supergroup"):
        await bot.send_message(group.id, "bye")
    with pytest.raises(TelegramError, match=r"(?i)fake: method 'logOut' is not implemented"):
        await bot.log_out()


async def test_plain_bot_over_the_in_process_transport(fakebot: FakeBotAPI):
    alice = fakebot.create_user("Alice", started=True)
    async with fake_bot(fakebot) as bot:
        message = await bot.send_photo(alice.id, png(64, 64), caption="<b>x</b>", parse_mode="HTML")
        file = await bot.get_file(message.photo[-1].file_id)
        assert Image.open(io.BytesIO(bytes(await file.download_as_bytearray()))).size == (64, 64)
        assert message.caption == "x" and message.caption_entities[0].type == "bold"


async def test_application_builder_without_server_uses_in_process_transport(fakebot: FakeBotAPI):
    app = application_builder(fakebot).build()
    async with run_application(app):
        assert app.bot.username == "kwx_test_bot"
    assert fakebot.poll_count >= 1
