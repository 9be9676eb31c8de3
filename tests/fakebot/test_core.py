"""The fake's behaviour through its single entry point ``handle(method, params, files)``."""

from __future__ import annotations

import asyncio
import io
import json

import pytest
from PIL import Image

from fakebot import MESSAGE_WRITE_METHODS, FakeBotAPI, WaitTimeout
from fakebot.errors import MESSAGE_NOT_MODIFIED, QUERY_TOO_OLD

NOT_MODIFIED = f"Bad Request: {MESSAGE_NOT_MODIFIED}"
TOO_OLD = f"Bad Request: {QUERY_TOO_OLD}"


def png(width: int = 64, height: int = 48, color: str = "red", mode: str = "RGB") -> bytes:
    buffer = io.BytesIO()
    Image.new(mode, (width, height), color if mode == "RGB" else 0).save(buffer, "PNG")
    return buffer.getvalue()


def keyboard(*rows: list[tuple[str, str]]) -> str:
    return json.dumps({"inline_keyboard": [[{"text": t, "callback_data": d} for t, d in row] for row in rows]})


async def call(fake: FakeBotAPI, method: str, files: dict | None = None, **params):
    """(status, result-or-description, body)."""
    status, body = await fake.handle(method, params, files)
    return status, body.get("result", body.get("description")), body


async def ok(fake: FakeBotAPI, method: str, files: dict | None = None, **params):
    status, result, body = await call(fake, method, files, **params)
    assert status == 200, body
    return result


async def error(fake: FakeBotAPI, method: str, files: dict | None = None, **params) -> str:
    status, description, body = await call(fake, method, files, **params)
    assert status != 200, body
    return description


@pytest.fixture
def world(fakebot: FakeBotAPI):
    alice = fakebot.create_user("Alice", username="alice")
    bob = fakebot.create_user("Bob")
    group = fakebot.create_group("Table", members=[alice, bob])
    fakebot.start_bot(alice)
    return fakebot, alice, bob, group


# ------------------------------------------------------------------------------ basics


async def test_get_me_and_unknown_method(fakebot):
    me = await ok(fakebot, "getMe")
    assert me["id"] == 123456789 and me["is_bot"] and me["username"] == "kwx_test_bot"
    assert me["can_read_all_group_messages"] is False  # privacy mode on
    status, description, _ = await call(fakebot, "sendSticker", chat_id=1)
    assert status == 400 and "sendSticker" in description and "not implemented by the fake" in description


async def test_method_names_are_case_insensitive_and_wire_strings_accepted(world):
    fake, alice, _, _ = world
    result = await ok(fake, "SENDMESSAGE", chat_id=str(alice.id), text="hi", disable_notification="true")
    assert result["text"] == "hi"
    assert fake.last_message(alice).silent


# ------------------------------------------------------------------------------ text limits


async def test_text_length_counts_characters_after_entity_parsing(world):
    fake, _, _, group = world
    assert await error(fake, "sendMessage", chat_id=group.id, text="x" * 4097) == "Bad Request: message is too long"
    await ok(fake, "sendMessage", chat_id=group.id, text="中" * 4096)
    await ok(fake, "sendMessage", chat_id=group.id, text="<b>" + "x" * 4096 + "</b>", parse_mode="HTML")
    assert await error(fake, "sendMessage", chat_id=group.id, text="") == "Bad Request: message text is empty"
    assert await error(fake, "sendMessage", chat_id=group.id) == "Bad Request: message text is empty"
    assert await error(fake, "sendMessage", chat_id=group.id, text="  \n") == "Bad Request: text must be non-empty"
    assert (
        await error(fake, "sendMessage", chat_id=group.id, text="<b>x", parse_mode="HTML")
        == "Bad Request: can't parse entities: Can't find end tag corresponding to start tag \"b\""
    )
    assert (
        await error(fake, "sendMessage", chat_id=group.id, text="x", parse_mode="BBCode")
        == "Bad Request: unsupported parse_mode"
    )


async def test_html_message_stores_plain_text_entities_and_source(world):
    fake, _, _, group = world
    result = await ok(fake, "sendMessage", chat_id=group.id, text="  <b>East</b> &amp; wind\n", parse_mode="HTML")
    assert result["text"] == "East & wind"
    assert result["entities"] == [{"type": "bold", "offset": 0, "length": 4}]
    message = fake.last_message(group)
    assert message.source_text == "  <b>East</b> &amp; wind\n"
    assert message.entity_texts("bold") == ["East"]


async def test_caption_limit(world):
    fake, _, _, group = world
    photo = {"photo": ("p.png", png(), "image/png")}
    await ok(fake, "sendPhoto", files=photo, chat_id=group.id, caption="c" * 1024)
    assert (
        await error(fake, "sendPhoto", files=photo, chat_id=group.id, caption="c" * 1025)
        == "Bad Request: message caption is too long"
    )


# ------------------------------------------------------------------------------ keyboards


@pytest.mark.parametrize(
    ("markup", "description"),
    [
        (keyboard([("ok", "x" * 65)]), "Bad Request: BUTTON_DATA_INVALID"),
        (keyboard([("ok", "中" * 22)]), "Bad Request: BUTTON_DATA_INVALID"),  # 66 UTF-8 bytes
        (
            keyboard([("ok", "")]),
            "Bad Request: can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard",
        ),
        (
            json.dumps({"inline_keyboard": [[{"text": "plain"}]]}),
            "Bad Request: can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard",
        ),
        (
            json.dumps({"inline_keyboard": [[{"callback_data": "x"}]]}),
            "Bad Request: can't parse inline keyboard button: Can't find field \"text\"",
        ),
        (
            json.dumps({"inline_keyboard": [[{"text": "l", "url": "ftp://x.org"}]]}),
            "Bad Request: inline keyboard button URL 'ftp://x.org' is invalid: Unsupported URL protocol",
        ),
        (keyboard(*[[(str(i), str(i))] for i in range(101)]), "Bad Request: REPLY_MARKUP_TOO_LONG"),
        (
            keyboard([(str(i), str(i)) for i in range(9)]),
            "Bad Request: fake: a row of 9 inline buttons exceeds the undocumented limit of 8 per row",
        ),
        ('{"inline_keyboard": ', "Bad Request: can't parse reply keyboard markup JSON object"),
    ],
)
async def test_inline_keyboard_limits(world, markup, description):
    fake, _, _, group = world
    assert await error(fake, "sendMessage", chat_id=group.id, text="t", reply_markup=markup) == description


async def test_callback_data_of_exactly_64_bytes_is_accepted(world):
    fake, _, _, group = world
    data = "d:" + "z" * 62
    result = await ok(fake, "sendMessage", chat_id=group.id, text="t", reply_markup=keyboard([("ok", data)]))
    assert result["reply_markup"]["inline_keyboard"][0][0]["callback_data"] == data
    assert fake.last_message(group).callback_datas == [data]


def web_app(url: str) -> str:
    return json.dumps({"inline_keyboard": [[{"text": "Open", "web_app": {"url": url}}]]})


async def test_web_app_buttons_only_in_private_chats_and_with_https(world):
    fake, alice, _, group = world
    url = "https://kwx.example/webapp/?table=1"
    sent = await ok(fake, "sendMessage", chat_id=alice.id, text="t", reply_markup=web_app(url))
    assert sent["reply_markup"]["inline_keyboard"][0][0]["web_app"] == {"url": url}
    refused = await error(fake, "sendMessage", chat_id=group.id, text="t", reply_markup=web_app(url))
    assert refused == "Bad Request: BUTTON_TYPE_INVALID"
    in_group = await ok(fake, "sendMessage", chat_id=group.id, text="t", reply_markup=keyboard([("ok", "x")]))
    edit = {"chat_id": group.id, "message_id": in_group["message_id"], "reply_markup": web_app(url)}
    assert await error(fake, "editMessageReplyMarkup", **edit) == "Bad Request: BUTTON_TYPE_INVALID"
    plain = "http://kwx.example/webapp/"
    assert await error(fake, "sendMessage", chat_id=alice.id, text="t", reply_markup=web_app(plain)) == (
        f"Bad Request: inline keyboard button Web App URL '{plain}' is invalid: Only HTTPS links are allowed"
    )
    # the fake's one allowance: the playground's own page on this machine
    await ok(fake, "sendMessage", chat_id=alice.id, text="t", reply_markup=web_app("http://127.0.0.1:8080/webapp/"))


# ------------------------------------------------------------------------------ photos & files


@pytest.mark.parametrize(
    ("width", "height", "accepted"),
    [(2000, 100, True), (2100, 100, False), (5000, 5000, True), (5000, 5001, False)],
)
async def test_photo_dimension_limits(world, width, height, accepted):
    fake, _, _, group = world
    bilevel = png(width, height, mode="1")  # cheap to encode even at 5000x5000
    status, result, _ = await call(
        fake, "sendPhoto", files={"photo": ("p.png", bilevel, "image/png")}, chat_id=group.id
    )
    if accepted:
        assert status == 200
        assert result["photo"][-1]["width"] == width and result["photo"][-1]["height"] == height
        assert fake.last_message(group).photo_size == (width, height)
    else:
        assert (status, result) == (400, "Bad Request: PHOTO_INVALID_DIMENSIONS")


async def test_photo_size_and_content_checks(world):
    fake, _, _, group = world
    too_big = b"\x89PNG" + bytes(10 * 1024 * 1024)
    assert (
        await error(fake, "sendPhoto", files={"photo": ("p.png", too_big, "image/png")}, chat_id=group.id)
        == f"Bad Request: file of size {len(too_big)} bytes is too big for a photo; the maximum size is "
        "10485760 bytes"
    )
    assert (
        await error(fake, "sendPhoto", files={"photo": ("p.png", b"not an image", "image/png")}, chat_id=group.id)
        == "Bad Request: IMAGE_PROCESS_FAILED"
    )
    assert await error(fake, "sendPhoto", chat_id=group.id) == "Bad Request: there is no photo in the request"
    assert (
        await error(fake, "sendPhoto", chat_id=group.id, photo="nope")
        == "Bad Request: wrong file identifier/HTTP URL specified"
    )


async def test_photo_sizes_file_id_resend_get_file_and_download(world):
    fake, _, _, group = world
    data = png(1280, 640)
    first = await ok(fake, "sendPhoto", files={"photo": ("p.png", data, "image/png")}, chat_id=group.id)
    sizes = first["photo"]
    assert [(s["width"], s["height"]) for s in sizes] == [(90, 45), (320, 160), (800, 400), (1280, 640)]
    again = await ok(fake, "sendPhoto", chat_id=group.id, photo=sizes[0]["file_id"])
    assert again["photo"][-1]["file_id"] == sizes[-1]["file_id"]
    info = await ok(fake, "getFile", file_id=sizes[-1]["file_id"])
    assert info["file_size"] == len(data)
    assert fake.file_bytes(info["file_path"]) == data
    assert fake.last_message(group).photo.image().size == (1280, 640)
    document = await ok(fake, "sendDocument", files={"document": ("log.txt", b"abc", "text/plain")}, chat_id=group.id)
    assert document["document"]["file_name"] == "log.txt" and document["document"]["file_size"] == 3
    assert (
        await error(fake, "sendPhoto", chat_id=group.id, photo=document["document"]["file_id"])
        == "Bad Request: can't use file of type Document as Photo"
    )


# ------------------------------------------------------------------------------ editing


async def test_edit_text_not_modified_and_keyboard_removal(world):
    fake, _, _, group = world
    markup = keyboard([("Join", "t:1:join")])
    sent = await ok(fake, "sendMessage", chat_id=group.id, text="<b>Lobby</b>", parse_mode="HTML", reply_markup=markup)
    mid = sent["message_id"]
    same = {"chat_id": group.id, "message_id": mid, "text": "<b>Lobby</b>", "parse_mode": "HTML"}
    assert await error(fake, "editMessageText", **same, reply_markup=markup) == NOT_MODIFIED
    # same text but bold -> plain: entities differ, so it is an edit
    await ok(fake, "editMessageText", chat_id=group.id, message_id=mid, text="Lobby", reply_markup=markup)
    # omitting reply_markup removes the keyboard (a real Telegram gotcha)
    edited = await ok(fake, "editMessageText", chat_id=group.id, message_id=mid, text="Lobby")
    assert "reply_markup" not in edited and "edit_date" in edited
    message = fake.message(group, mid)
    assert message.buttons == [] and message.edit_count == 2
    assert [v.replaced_by for v in message.history] == ["editMessageText", "editMessageText"]
    assert message.history[0].entities == ({"type": "bold", "offset": 0, "length": 5},)
    assert await error(fake, "editMessageReplyMarkup", chat_id=group.id, message_id=mid) == NOT_MODIFIED
    await ok(fake, "editMessageReplyMarkup", chat_id=group.id, message_id=mid, reply_markup=markup)
    assert message.button_texts == ["Join"]


async def test_edit_errors(world):
    fake, alice, _, group = world
    user_message = fake.user_sends(alice, group, "hello")
    text = (await ok(fake, "sendMessage", chat_id=group.id, text="t"))["message_id"]
    photo = (
        await ok(fake, "sendPhoto", files={"photo": ("p.png", png(), "image/png")}, chat_id=group.id, caption="cap")
    )["message_id"]
    assert (
        await error(fake, "editMessageText", chat_id=group.id, message_id=999, text="x")
        == "Bad Request: message to edit not found"
    )
    assert (
        await error(fake, "editMessageText", chat_id=group.id, message_id=user_message.message_id, text="x")
        == "Bad Request: message can't be edited"
    )
    assert (
        await error(fake, "editMessageText", chat_id=group.id, message_id=photo, text="x")
        == "Bad Request: there is no text in the message to edit"
    )
    assert (
        await error(fake, "editMessageCaption", chat_id=group.id, message_id=text, caption="x")
        == "Bad Request: there is no caption in the message to edit"
    )
    media = json.dumps({"type": "photo", "media": "attach://pic"})
    assert (
        await error(
            fake,
            "editMessageMedia",
            files={"pic": ("p.png", png(), "image/png")},
            chat_id=group.id,
            message_id=text,
            media=media,
        )
        == "Bad Request: there is no media in the message to edit"
    )
    assert (
        await error(fake, "editMessageCaption", chat_id=group.id, message_id=photo, caption="c" * 1025)
        == "Bad Request: message caption is too long"
    )


async def test_edit_caption_and_media(world):
    fake, _, _, group = world
    sent = await ok(
        fake,
        "sendPhoto",
        files={"photo": ("p.png", png(), "image/png")},
        chat_id=group.id,
        caption="<i>hand</i>",
        parse_mode="HTML",
    )
    mid, file_id = sent["message_id"], sent["photo"][-1]["file_id"]
    assert (
        await error(
            fake, "editMessageCaption", chat_id=group.id, message_id=mid, caption="<i>hand</i>", parse_mode="HTML"
        )
        == NOT_MODIFIED
    )
    await ok(fake, "editMessageCaption", chat_id=group.id, message_id=mid, caption="hand 2")
    same_media = json.dumps({"type": "photo", "media": file_id, "caption": "hand 2"})
    assert await error(fake, "editMessageMedia", chat_id=group.id, message_id=mid, media=same_media) == NOT_MODIFIED
    new_media = json.dumps({"type": "photo", "media": "attach://attachedabc", "caption": "hand 3"})
    edited = await ok(
        fake,
        "editMessageMedia",
        files={"attachedabc": ("a.png", png(200, 100, "blue"), "image/png")},
        chat_id=group.id,
        message_id=mid,
        media=new_media,
    )
    assert edited["caption"] == "hand 3" and edited["photo"][-1]["width"] == 200
    message = fake.message(group, mid)
    assert message.photo_size == (200, 100) and message.photo.image().getpixel((0, 0)) == (0, 0, 255)
    assert [v.caption for v in message.history] == ["hand", "hand 2"]
    missing = json.dumps({"type": "photo", "media": "attach://gone"})
    assert (
        await error(fake, "editMessageMedia", chat_id=group.id, message_id=mid, media=missing)
        == 'Bad Request: can\'t find attached file "gone"'
    )


# ------------------------------------------------------------------------------ replies & deletes


async def test_reply_to_missing_message(world):
    fake, alice, _, group = world
    command = fake.user_sends(alice, group, "/new@kwx_test_bot")
    reply = await ok(
        fake,
        "sendMessage",
        chat_id=group.id,
        text="ok",
        reply_parameters=json.dumps({"message_id": command.message_id}),
    )
    assert reply["reply_to_message"]["message_id"] == command.message_id
    assert (
        await error(fake, "sendMessage", chat_id=group.id, text="x", reply_parameters='{"message_id": 999}')
        == "Bad Request: message to be replied not found"
    )
    await ok(
        fake,
        "sendMessage",
        chat_id=group.id,
        text="x",
        reply_parameters='{"message_id": 999, "allow_sending_without_reply": true}',
    )
    assert (
        await error(fake, "sendMessage", chat_id=group.id, text="x", reply_to_message_id=999)
        == "Bad Request: message to be replied not found"
    )


async def test_delete_rules(world):
    fake, alice, _, group = world
    own = (await ok(fake, "sendMessage", chat_id=group.id, text="bot"))["message_id"]
    theirs = fake.user_sends(alice, group, "/x@kwx_test_bot").message_id
    assert await ok(fake, "deleteMessage", chat_id=group.id, message_id=own) is True
    assert fake.message(group, own).deleted and fake.bot_messages(group) == []
    assert (
        await error(fake, "deleteMessage", chat_id=group.id, message_id=own)
        == "Bad Request: message to delete not found"
    )
    assert (
        await error(fake, "deleteMessage", chat_id=group.id, message_id=theirs)
        == "Bad Request: message can't be deleted"
    )
    fake.set_member_status(group, fake.bot, "administrator")
    await ok(fake, "deleteMessage", chat_id=group.id, message_id=theirs)
    old = (await ok(fake, "sendMessage", chat_id=group.id, text="old"))["message_id"]
    fake.clock.advance(48 * 3600 + 1)
    assert (
        await error(fake, "deleteMessage", chat_id=group.id, message_id=old)
        == "Bad Request: message can't be deleted for everyone"
    )


# ------------------------------------------------------------------------------ 403 & membership


async def test_private_chat_needs_start_and_blocks_are_403(world):
    fake, alice, bob, _ = world
    assert (
        await error(fake, "sendMessage", chat_id=bob.id, text="hi")
        == "Forbidden: bot can't initiate conversation with a user"
    )
    fake.start_bot(bob)
    await ok(fake, "sendMessage", chat_id=bob.id, text="hi")
    sent = await ok(fake, "sendMessage", chat_id=alice.id, text="hand")
    fake.block_bot(alice)
    assert await error(fake, "sendMessage", chat_id=alice.id, text="x") == "Forbidden: bot was blocked by the user"
    assert (
        await error(fake, "editMessageText", chat_id=alice.id, message_id=sent["message_id"], text="y")
        == "Forbidden: bot was blocked by the user"
    )
    update = fake.update_log[-1]["my_chat_member"]
    assert update["new_chat_member"]["status"] == "kicked" and update["from"]["id"] == alice.id
    with pytest.raises(ValueError, match="blocked the bot"):
        fake.user_sends(alice, alice, "hello?")
    fake.unblock_bot(alice, restart=True)
    assert fake.update_log[-1]["message"]["text"] == "/start"
    await ok(fake, "sendMessage", chat_id=alice.id, text="welcome back")


async def test_bot_removed_from_group_and_leave_chat(world):
    fake, alice, _, group = world
    fake.remove_bot_from_group(group, alice)
    not_member = "Forbidden: bot is not a member of the group chat"
    assert await error(fake, "sendMessage", chat_id=group.id, text="x") == not_member
    fake.add_bot_to_group(group, alice)
    assert fake.update_log[-1]["my_chat_member"]["new_chat_member"]["status"] == "member"
    await ok(fake, "leaveChat", chat_id=group.id)
    assert fake.update_log[-1]["my_chat_member"]["new_chat_member"]["status"] == "left"
    fake.remove_bot_from_group(group, alice, ban=True)
    kicked = "Forbidden: bot was kicked from the group chat"
    assert await error(fake, "sendMessage", chat_id=group.id, text="x") == kicked
    assert await error(fake, "sendMessage", chat_id=-5, text="x") == "Bad Request: chat not found"
    assert await error(fake, "sendMessage", text="x") == "Bad Request: chat_id is empty"


async def test_chat_member_queries(world):
    fake, alice, bob, group = world
    carol = fake.create_user("Carol")
    fake.set_member_status(group, bob, "administrator")
    assert (await ok(fake, "getChatMember", chat_id=group.id, user_id=alice.id))["status"] == "creator"
    admin = await ok(fake, "getChatMember", chat_id=group.id, user_id=bob.id)
    assert admin["status"] == "administrator" and admin["can_delete_messages"] is True
    assert (await ok(fake, "getChatMember", chat_id=group.id, user_id=carol.id))["status"] == "left"
    assert await error(fake, "getChatMember", chat_id=group.id, user_id=77) == "Bad Request: user not found"
    admins = await ok(fake, "getChatAdministrators", chat_id=group.id)
    assert {(m["user"]["id"], m["status"]) for m in admins} == {(alice.id, "creator"), (bob.id, "administrator")}
    assert (
        await error(fake, "getChatAdministrators", chat_id=alice.id)
        == "Bad Request: there are no administrators in the private chat"
    )
    assert await ok(fake, "getChatMemberCount", chat_id=group.id) == 3
    info = await ok(fake, "getChat", chat_id=group.id)
    assert info["type"] == "group" and info["title"] == "Table" and "accepted_gift_types" in info


# ------------------------------------------------------------------------------ callback queries


async def test_callback_query_answer_once_and_ttl(world):
    fake, alice, bob, group = world
    await ok(fake, "sendMessage", chat_id=group.id, text="lobby", reply_markup=keyboard([("Join", "j")]))
    lobby = fake.last_message(group)
    query = fake.press(alice, lobby, "Join")
    update = fake.update_log[-1]["callback_query"]
    assert update["data"] == "j" and update["from"]["id"] == alice.id and update["message"]["text"] == "lobby"
    assert update["chat_instance"] == group.chat_instance
    assert await error(fake, "answerCallbackQuery", callback_query_id=query.id, text="x" * 201) == (
        "Bad Request: MESSAGE_TOO_LONG"
    )
    assert await ok(fake, "answerCallbackQuery", callback_query_id=query.id, text="joined", show_alert="true")
    assert query.answer.text == "joined" and query.answer.show_alert
    assert await error(fake, "answerCallbackQuery", callback_query_id=query.id) == TOO_OLD
    assert await error(fake, "answerCallbackQuery", callback_query_id="123") == TOO_OLD
    late = fake.press(bob, lobby, data="j")
    fake.clock.advance(fake.callback_query_ttl + 1)
    assert await error(fake, "answerCallbackQuery", callback_query_id=late.id) == TOO_OLD
    assert late.answer is None and late.answer_attempts == 1


async def test_callback_answer_url_only_as_deep_link(world):
    fake, alice, _, group = world
    await ok(fake, "sendMessage", chat_id=group.id, text="lobby", reply_markup=keyboard([("Join", "j")]))
    first = fake.press(alice, fake.last_message(group), "Join")
    assert (
        await error(fake, "answerCallbackQuery", callback_query_id=first.id, url="https://example.com")
        == "Bad Request: URL_INVALID"
    )
    await ok(fake, "answerCallbackQuery", callback_query_id=first.id, url="https://t.me/kwx_test_bot?start=j_42")
    assert first.answer.url == "https://t.me/kwx_test_bot?start=j_42"


async def test_press_requires_a_real_button(world):
    fake, alice, bob, group = world
    await ok(fake, "sendMessage", chat_id=group.id, text="lobby", reply_markup=keyboard([("Join", "j")]))
    lobby = fake.last_message(group)
    with pytest.raises(LookupError, match="no button"):
        fake.press(alice, lobby, "Start")
    forged = fake.forge_press(alice, lobby, "d:1:999:discard:5z")
    assert fake.update_log[-1]["callback_query"]["data"] == "d:1:999:discard:5z" and forged.data.endswith("5z")
    hand = await ok(fake, "sendMessage", chat_id=alice.id, text="hand", reply_markup=keyboard([("5s", "d")]))
    with pytest.raises(ValueError, match="someone else's private chat"):
        fake.press(bob, fake.message(alice, hand["message_id"]), "5s")


# ------------------------------------------------------------------------------ migration


async def test_group_migration(world):
    fake, alice, _, group = world
    supergroup = fake.migrate_group(group)
    status, description, body = await call(fake, "sendMessage", chat_id=group.id, text="x")
    assert status == 400 and description == "Bad Request: group chat was upgraded to a supergroup chat"
    assert body["parameters"] == {"migrate_to_chat_id": supergroup.id}
    assert str(supergroup.id).startswith("-100")
    assert fake.updates[-2]["message"]["migrate_to_chat_id"] == supergroup.id
    assert fake.updates[-1]["message"]["migrate_from_chat_id"] == group.id
    sent = await ok(fake, "sendMessage", chat_id=supergroup.id, text="moved")
    assert sent["chat"]["type"] == "supergroup"
    assert supergroup.status_of(alice.id).value == "creator"


# ------------------------------------------------------------------------------ flood control


async def test_injected_flood_refuses_the_chat_until_retry_after_elapses(world):
    fake, alice, _, group = world
    fake.faults.flood(methods="sendMessage", chats=group, retry_after=3)
    status, description, body = await call(fake, "sendMessage", chat_id=group.id, text="x")
    assert (status, body["parameters"]) == (429, {"retry_after": 3})
    assert description == "Too Many Requests: retry after 3"
    fake.clock.advance(1.5)
    status, _, body = await call(fake, "editMessageText", chat_id=group.id, message_id=1, text="y")
    assert (status, body["parameters"]) == (429, {"retry_after": 2})  # any call to that chat, remaining time
    await ok(fake, "sendMessage", chat_id=alice.id, text="other chats are fine")
    fake.clock.advance(1.6)
    await ok(fake, "sendMessage", chat_id=group.id, text="again")
    assert [c.retry_after for c in fake.calls_to(chat=group, ok=False)] == [3, 2]


async def test_random_floods_are_seeded_and_reproducible(world):
    fake, _, _, group = world

    async def pattern(seed: int) -> list[int]:
        fake.faults.clear()
        fake.faults.random_floods(0.3, seed=seed, retry_after=1)
        statuses = []
        for _ in range(30):
            status, _, _ = await call(fake, "sendMessage", chat_id=group.id, text="x")
            statuses.append(status)
            fake.clock.advance(1.01)
        return statuses

    first = await pattern(7)
    assert await pattern(7) == first
    assert 3 <= first.count(429) <= 18


async def test_group_rate_limit(world):
    fake, alice, _, group = world
    fake.faults.group_rate_limit(max_calls=20, period=60)
    for i in range(20):
        await ok(fake, "sendMessage", chat_id=group.id, text=str(i))
    status, _, body = await call(fake, "sendMessage", chat_id=group.id, text="21")
    assert status == 429 and 59 <= body["parameters"]["retry_after"] <= 60
    await ok(fake, "sendMessage", chat_id=alice.id, text="private chats are not group-limited")
    fake.clock.advance(61)
    await ok(fake, "sendMessage", chat_id=group.id, text="later")


async def test_token_rate_limit_counts_every_chat_and_only_accepted_calls(world):
    fake, alice, _bob, group = world
    limit = fake.faults.token_rate_limit(max_calls=30, period=1.0)
    fake.faults.group_rate_limit(max_calls=20, period=60)
    for i in range(30):
        await ok(fake, "sendMessage", chat_id=alice.id if i % 2 else group.id, text=str(i))
    status, _, body = await call(fake, "sendMessage", chat_id=group.id, text="31st")
    assert status == 429 and body["parameters"]["retry_after"] == 1 and limit.refused == 1
    assert len(fake.faults.rate_limit.history[group.id]) == 15  # the refused call used no group budget
    fake.clock.advance(1.01)
    await ok(fake, "sendMessage", chat_id=group.id, text="next second")
    assert len(fake.faults.rate_limit.history[group.id]) == 16


async def test_send_animation_takes_a_gif_and_refuses_other_files(world):
    import io

    from PIL import Image

    fake, alice, _bob, group = world
    buf = io.BytesIO()
    frames = [Image.new("RGB", (40, 30), (i * 40, 0, 0)) for i in range(3)]
    frames[0].save(buf, "GIF", save_all=True, append_images=frames[1:])
    gif = {"animation": ("r.gif", buf.getvalue(), "image/gif")}
    sent = await ok(fake, "sendAnimation", gif, chat_id=group.id, caption="replay")
    assert sent["document"]["file_name"] == "r.gif" and sent["caption"] == "replay"
    message = fake.last_message(group)
    assert message.document is not None and message.document.image().n_frames == 3
    text = {"animation": ("x.txt", b"not a picture", "text/plain")}
    status, _, body = await call(fake, "sendAnimation", text, chat_id=alice.id)
    assert status == 400 and "GIF or an MP4" in body["description"]


# ------------------------------------------------------------------------------ updates


async def test_get_updates_offset_limit_and_negative_offset(fakebot):
    alice = fakebot.create_user("Alice")
    for i in range(5):
        fakebot.user_sends(alice, alice, f"m{i}")
    first = await ok(fakebot, "getUpdates", limit=2)
    assert [u["message"]["text"] for u in first] == ["m0", "m1"]
    again = await ok(fakebot, "getUpdates", limit=2)
    assert again == first  # not confirmed yet
    rest = await ok(fakebot, "getUpdates", offset=first[-1]["update_id"] + 1)
    assert [u["message"]["text"] for u in rest] == ["m2", "m3", "m4"]
    last = await ok(fakebot, "getUpdates", offset=-1)
    assert [u["message"]["text"] for u in last] == ["m4"]
    assert await ok(fakebot, "getUpdates", offset=last[0]["update_id"] + 1) == []


async def test_long_poll_wakes_on_new_update_and_on_close(fakebot):
    alice = fakebot.create_user("Alice")
    poll = asyncio.create_task(fakebot.handle("getUpdates", {"timeout": "30"}))
    await asyncio.sleep(0)
    assert not poll.done()
    fakebot.user_sends(alice, alice, "wake up")
    status, body = await asyncio.wait_for(poll, 2)
    assert status == 200 and body["result"][0]["message"]["text"] == "wake up"
    poll = asyncio.create_task(fakebot.handle("getUpdates", {"timeout": "30", "offset": "999"}))
    await asyncio.sleep(0)
    await fakebot.close()
    assert (await asyncio.wait_for(poll, 2))[1]["result"] == []


async def test_concurrent_get_updates_conflict(fakebot):
    older = asyncio.create_task(fakebot.handle("getUpdates", {"timeout": "30"}))
    await asyncio.sleep(0)
    newer = asyncio.create_task(fakebot.handle("getUpdates", {"timeout": "0"}))
    status, body = await asyncio.wait_for(older, 2)
    assert status == 409
    assert body["description"] == (
        "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running"
    )
    assert (await newer)[0] == 200


async def test_allowed_updates_and_webhook_drop(fakebot):
    alice = fakebot.create_user("Alice")
    group = fakebot.create_group("G", members=[alice])
    fakebot.user_sends(alice, group, "/new@kwx_test_bot")
    fakebot.block_bot(alice)
    fakebot._push_update("chat_member", {"chat": group.to_json()})
    result = await ok(fakebot, "getUpdates", allowed_updates='["message"]')
    assert [next(k for k in u if k != "update_id") for u in result] == ["message"]
    assert len(fakebot.dropped_updates) == 2
    fakebot.user_sends(alice, group, "/again@kwx_test_bot")
    assert await ok(fakebot, "deleteWebhook", drop_pending_updates="true") is True
    assert fakebot.updates == []
    await ok(fakebot, "setWebhook", url="https://example.com/hook")
    assert (await error(fakebot, "getUpdates")).startswith("Conflict: can't use getUpdates method while webhook")


async def test_privacy_mode_filters_group_messages(fakebot):
    alice = fakebot.create_user("Alice")
    group = fakebot.create_group("G", members=[alice])
    bot_message = fakebot._add_message(group, fakebot.bot, text="table")
    delivered = {
        "plain chat": fakebot.user_sends(alice, group, "good game"),
        "command for all bots": fakebot.user_sends(alice, group, "/score"),
        "command for us": fakebot.user_command(alice, group, "score"),
        "command for another bot": fakebot.user_sends(alice, group, "/score@other_bot"),
        "reply to the bot": fakebot.user_sends(alice, group, "nice", reply_to=bot_message),
    }
    texts = [u["message"]["text"] for u in fakebot.updates]
    assert texts == ["/score", "/score@kwx_test_bot", "nice"]
    assert len(fakebot.messages(group, from_bot=False)) == len(delivered)
    fakebot.updates.clear()
    fakebot.set_member_status(group, fakebot.bot, "administrator")
    fakebot.user_sends(alice, group, "admins see everything")
    assert [u["message"]["text"] for u in fakebot.updates] == ["admins see everything"]
    entity = fakebot.update_log[1]["message"]["entities"][0]
    assert entity == {"type": "bot_command", "offset": 0, "length": len("/score@kwx_test_bot")}


async def test_anonymous_admin_message(fakebot):
    alice = fakebot.create_user("Alice")
    group = fakebot.create_supergroup("S", members=[alice])
    fakebot.user_sends(None, group, "/kill@kwx_test_bot", anonymous_admin=True)
    message = fakebot.updates[-1]["message"]
    assert message["from"]["id"] == 1087968824 and message["sender_chat"]["id"] == group.id


# ------------------------------------------------------------------------------ commands


async def test_commands_per_scope_and_language(world):
    fake, _, _, group = world
    default = json.dumps([{"command": "new", "description": "Open a table"}])
    chinese = json.dumps([{"command": "new", "description": "开桌"}])
    await ok(fake, "setMyCommands", commands=default)
    await ok(fake, "setMyCommands", commands=chinese, language_code="zh")
    await ok(fake, "setMyCommands", commands=default, scope=json.dumps({"type": "chat", "chat_id": group.id}))
    assert await ok(fake, "getMyCommands") == [{"command": "new", "description": "Open a table"}]
    assert (await ok(fake, "getMyCommands", language_code="zh"))[0]["description"] == "开桌"
    assert fake.bot_commands({"type": "chat", "chat_id": group.id}) == json.loads(default)
    assert await ok(fake, "getMyCommands", scope='{"type": "all_group_chats"}') == []
    await ok(fake, "deleteMyCommands", language_code="zh")
    assert await ok(fake, "getMyCommands", language_code="zh") == []
    bad = json.dumps([{"command": "New Table", "description": "x"}])
    assert await error(fake, "setMyCommands", commands=bad) == "Bad Request: BOT_COMMAND_INVALID"
    long = json.dumps([{"command": "new", "description": "d" * 257}])
    assert await error(fake, "setMyCommands", commands=long) == "Bad Request: BOT_COMMAND_DESCRIPTION_INVALID"


async def test_chat_action(world):
    fake, _, _, group = world
    assert await ok(fake, "sendChatAction", chat_id=group.id, action="upload_photo") is True
    assert group.chat_actions[-1][1] == "upload_photo"
    assert (
        await error(fake, "sendChatAction", chat_id=group.id, action="dancing")
        == "Bad Request: wrong parameter action in request"
    )


# ------------------------------------------------------------------------------ reading & waiting


async def test_call_log_counting(world):
    fake, alice, _, group = world
    await ok(fake, "sendMessage", chat_id=group.id, text="a")
    mark = fake.mark()
    await ok(fake, "sendMessage", chat_id=group.id, text="b")
    await ok(fake, "editMessageText", chat_id=group.id, message_id=2, text="b2")
    await ok(fake, "sendMessage", chat_id=alice.id, text="c")
    await call(fake, "sendMessage", chat_id=group.id, text="")
    assert fake.count_calls(MESSAGE_WRITE_METHODS, since=mark) == 4
    assert fake.count_calls(MESSAGE_WRITE_METHODS, since=mark, ok=True) == 3
    assert fake.count_calls("sendMessage", chat=group, since=mark) == 2  # "b" and the refused empty one
    assert [m.content for m in fake.bot_messages(group, since=mark)] == ["b2"]
    assert fake.calls_to("editMessageText")[0].param("message_id") == 2
    assert fake.last_messages(group, 2)[0].content == "a"


async def test_wait_for_times_out_with_a_report(fakebot):
    with pytest.raises(WaitTimeout, match=r"the impossible not met within 0\.05 s"):
        await fakebot.wait_for(lambda: False, 0.05, message="the impossible")
    await fakebot.wait_idle(quiet=0.01, timeout=1)


async def test_a_crash_inside_the_fake_answers_500_and_is_recorded(monkeypatch):
    from fakebot import methods

    fake = FakeBotAPI()

    def broken(fake, p):
        raise RuntimeError("boom")

    monkeypatch.setitem(methods.API_METHODS, "getme", broken)
    status, body = await fake.handle("getMe")
    assert status == 500 and "boom" in body["description"]
    assert isinstance(fake.internal_errors[0], RuntimeError)


async def test_seen_texts_include_edit_history_buttons_and_deleted_messages(world):
    fake, alice, _, group = world
    sent = await ok(
        fake,
        "sendMessage",
        chat_id=group.id,
        text="<b>secret</b> 5z",
        parse_mode="HTML",
        reply_markup=keyboard([("1s", "x")]),
    )
    await ok(fake, "editMessageText", chat_id=group.id, message_id=sent["message_id"], text="clean")
    gone = await ok(fake, "sendMessage", chat_id=group.id, text="gone")
    await ok(fake, "deleteMessage", chat_id=group.id, message_id=gone["message_id"])
    fake.user_sends(alice, group, "users' messages are not the bot's output")
    assert fake.seen_texts(group) == ["secret 5z", "1s", "clean", "gone"]
    assert fake.seen_texts(group, include_buttons=False) == ["secret 5z", "clean", "gone"]
    assert [m.content for m in fake.bot_messages(group)] == ["clean"]


@pytest.mark.fakebot(privacy_mode=False, bot_username="other_test_bot", callback_query_ttl=2.0)
async def test_fixture_marker_configures_the_fake(fakebot):
    assert (fakebot.privacy_mode, fakebot.bot.username, fakebot.callback_query_ttl) == (False, "other_test_bot", 2.0)
    alice = fakebot.create_user("Alice")
    group = fakebot.create_group("G", members=[alice])
    fakebot.user_sends(alice, group, "plain talk reaches a bot without privacy mode")
    assert len(fakebot.updates) == 1


def test_a_user_sees_their_own_private_chat_and_their_groups_only() -> None:
    fake = FakeBotAPI()
    ann, ben, eve = fake.create_user("Ann"), fake.create_user("Ben"), fake.create_user("Eve")
    group = fake.create_group("Table", members=[ann, ben])
    assert fake.can_see(ann, group) and fake.can_see(ann, ann) and not fake.can_see(ann, ben)
    assert not fake.can_see(eve, group) and not fake.can_see(ann, 999)
    assert [c.id for c in fake.visible_chats(ben)] == [group.id, ben.id]
    assert [c.id for c in fake.visible_chats(eve)] == [eve.id]
