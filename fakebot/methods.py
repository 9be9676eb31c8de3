"""Bot API method implementations of the fake (a mixin of :class:`~fakebot.core.FakeBotAPI`).

Each ``@api_method("name")`` function takes the fake and the call's :class:`~.params.Params` and
returns the ``result`` JSON or raises :class:`~.errors.ApiError`. Implemented: getMe, getUpdates,
deleteWebhook, setWebhook, getWebhookInfo, setMyCommands, getMyCommands, deleteMyCommands,
sendMessage, sendPhoto, sendDocument, sendAnimation, editMessageText, editMessageCaption, editMessageMedia,
editMessageReplyMarkup, deleteMessage, deleteMessages, answerCallbackQuery, getChatMember,
getChatAdministrators, getChatMemberCount, getChat, sendChatAction, leaveChat, getFile.

Behaviour worth knowing when writing the bot (all as on the real Telegram):

* An edit without ``reply_markup`` *removes* the inline keyboard; an edit without ``caption``
  removes the caption.
* An edit that changes nothing (text + entities / caption / media and markup) is refused with
  "message is not modified: ...".
* Only the bot's own messages can be edited; in groups, deleting other people's messages needs
  the bot to be an administrator; messages older than 48 h cannot be deleted.
* ``reply_parameters`` to a missing message fails unless ``allow_sending_without_reply``.
"""

from __future__ import annotations

import asyncio
import json
import mimetypes
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from .errors import (
    BLOCKED_BY_USER,
    CANT_INITIATE,
    GETUPDATES_CONFLICT,
    MESSAGE_NOT_MODIFIED,
    QUERY_TOO_OLD,
    ApiError,
    bad_request,
    conflict,
    fake_limitation,
    forbidden,
)
from .limits import (
    CHAT_ACTIONS,
    MAX_UPLOAD_BYTES,
    check_answer_text,
    inspect_photo,
    normalize_reply_markup,
    parse_message_text,
    validate_commands,
)
from .model import CallbackAnswer, ChatType, FakeChat, FakeMessage, FakeUser, MemberStatus, StoredFile
from .webhook import WebhookDelivery

if TYPE_CHECKING:
    from .clock import FakeClock
    from .core import FakeBotAPI, Signal
    from .model import ApiCall
    from .params import Params

API_METHODS: dict[str, Callable[[FakeBotAPI, Params], Any]] = {}
"""Lower-cased Bot API method name -> implementation."""

DELETE_WINDOW_SECONDS = 48 * 3600
_SCOPES = frozenset(
    {
        "default",
        "all_private_chats",
        "all_group_chats",
        "all_chat_administrators",
        "chat",
        "chat_administrators",
        "chat_member",
    }
)
_ADMIN_RIGHTS = {
    "can_be_edited": False,
    "is_anonymous": False,
    "can_manage_chat": True,
    "can_delete_messages": True,
    "can_manage_video_chats": True,
    "can_restrict_members": True,
    "can_promote_members": False,
    "can_change_info": True,
    "can_invite_users": True,
    "can_post_stories": False,
    "can_edit_stories": False,
    "can_delete_stories": False,
    "can_pin_messages": True,
}
_RESTRICTED_FIELDS = {
    "is_member": True,
    "can_change_info": False,
    "can_invite_users": False,
    "can_pin_messages": False,
    "can_send_messages": True,
    "can_send_polls": False,
    "can_send_other_messages": False,
    "can_add_web_page_previews": False,
    "can_manage_topics": False,
    "until_date": 0,
    "can_send_audios": False,
    "can_send_documents": False,
    "can_send_photos": False,
    "can_send_videos": False,
    "can_send_video_notes": False,
    "can_send_voice_notes": False,
    "can_edit_tag": False,
    "can_react_to_messages": True,
}
_KEEP: Any = object()


def api_method(name: str) -> Callable[[Callable[[FakeBotAPI, Params], Any]], Callable[[FakeBotAPI, Params], Any]]:
    """Register a method implementation under its Bot API name (case-insensitive)."""

    def register(function: Callable[[FakeBotAPI, Params], Any]) -> Callable[[FakeBotAPI, Params], Any]:
        API_METHODS[name.lower()] = function
        return function

    return register


def member_json(user: FakeUser, status: MemberStatus) -> dict[str, Any]:
    """Bot API ``ChatMember`` for a status, with every field PTB requires for it."""
    data: dict[str, Any] = {"status": str(status), "user": user.to_json()}
    if status is MemberStatus.CREATOR:
        data["is_anonymous"] = False
    elif status is MemberStatus.ADMINISTRATOR:
        data.update(_ADMIN_RIGHTS)
    elif status is MemberStatus.KICKED:
        data["until_date"] = 0
    elif status is MemberStatus.RESTRICTED:
        data.update(_RESTRICTED_FIELDS)
    return data


class ApiMethods:
    """Shared helpers used by the method implementations (mixed into ``FakeBotAPI``)."""

    if TYPE_CHECKING:  # provided by FakeBotAPI (fakebot/core.py), which mixes this class in
        bot: FakeUser
        clock: FakeClock
        files: dict[str, StoredFile]
        files_by_path: dict[str, StoredFile]
        _current_call: ApiCall | None
        _signal: Signal

        def _lookup_chat(self, raw: Any) -> FakeChat | None: ...
        def _next(self, counter: str) -> int: ...
        def _now_date(self) -> int: ...
        def _add_message(self, chat: FakeChat, from_user: FakeUser, **fields: Any) -> FakeMessage: ...

    # ------------------------------------------------------------------ chats

    def _chat_param(self, p: Params, *, write: bool = True, name: str = "chat_id") -> FakeChat:
        """Resolve ``chat_id`` and, for ``write``, check that the bot may act in the chat.

        Raises:
            ApiError: ``chat_id is empty``, ``chat not found``, ``group chat was upgraded to a
                supergroup chat`` (with ``migrate_to_chat_id``), 403s for blocked / not started
                private chats and for groups the bot is not in.
        """
        raw = p.raw.get(name)
        if raw is None or raw == "":
            raise bad_request("chat_id is empty")
        chat = self._lookup_chat(raw)
        if chat is None:
            raise bad_request("chat not found")
        if self._current_call is not None:
            self._current_call.chat_id = chat.id
        if chat.migrated_to is not None:
            raise bad_request("group chat was upgraded to a supergroup chat", {"migrate_to_chat_id": chat.migrated_to})
        if write:
            self._check_write_access(chat)
        return chat

    def _check_write_access(self, chat: FakeChat) -> None:
        if chat.is_private:
            assert chat.user is not None
            if chat.user.blocked:
                raise forbidden(BLOCKED_BY_USER)
            if not chat.user.started:
                raise forbidden(CANT_INITIATE)
            return
        status = chat.status_of(self.bot.id)
        kind = "supergroup chat" if chat.type is ChatType.SUPERGROUP else "group chat"
        if status is MemberStatus.KICKED:
            raise forbidden(f"bot was kicked from the {kind}")
        if not status.is_present:
            raise forbidden(f"bot is not a member of the {kind}")

    # ------------------------------------------------------------------ messages

    def _reply_target(self, p: Params, chat: FakeChat) -> FakeMessage | None:
        parameters = p.json("reply_parameters")
        if parameters is not None:
            if not isinstance(parameters, dict):
                raise bad_request("can't parse reply parameters JSON object")
            if "message_id" not in parameters:
                raise bad_request('can\'t find field "message_id"')
            message_id = int(parameters["message_id"])
            allow = bool(parameters.get("allow_sending_without_reply", False))
            if parameters.get("chat_id") not in (None, ""):
                target_chat = self._lookup_chat(parameters["chat_id"])
                if target_chat is None:
                    raise bad_request("chat not found")
                chat = target_chat
        else:
            reply_to = p.int("reply_to_message_id")
            if reply_to is None:
                return None
            message_id = reply_to
            allow = p.bool("allow_sending_without_reply")
        target = chat.messages.get(message_id)
        if target is None or target.deleted:
            if allow:
                return None
            raise bad_request("message to be replied not found")
        return target

    def _message_param(self, p: Params, *, missing: str) -> tuple[FakeChat, FakeMessage | None]:
        if p.has("inline_message_id"):
            raise fake_limitation("inline messages (inline_message_id) are not supported")
        chat = self._chat_param(p)
        message_id = p.int("message_id", error="message identifier is not specified")
        if message_id is None:
            raise bad_request("message identifier is not specified")
        message = chat.messages.get(message_id)
        if message is None or message.deleted:
            raise bad_request(missing)
        return chat, message

    def _message_for_edit(self, p: Params) -> FakeMessage:
        _, message = self._message_param(p, missing="message to edit not found")
        assert message is not None
        if not message.from_bot or message.from_user.id != self.bot.id or message.service:
            raise bad_request("message can't be edited")
        return message

    def _commit_edit(
        self,
        message: FakeMessage,
        method: str,
        *,
        text: Any = _KEEP,
        caption: Any = _KEEP,
        media: Any = _KEEP,
        reply_markup: dict[str, Any] | None,
    ) -> dict[str, Any]:
        """Apply an edit, refusing one that changes nothing; returns the edited Message JSON."""
        new_text = message.text if text is _KEEP else text.text
        new_entities = message.entities if text is _KEEP else text.entities
        new_source = message.source_text if text is _KEEP else text.source
        new_caption = message.caption if caption is _KEEP else (caption.text or None)
        new_caption_entities = message.caption_entities if caption is _KEEP else caption.entities
        new_caption_source = message.source_caption if caption is _KEEP else caption.source
        new_media = message.media if media is _KEEP else media
        unchanged = (
            new_text == message.text
            and list(new_entities) == list(message.entities)
            and new_caption == message.caption
            and list(new_caption_entities) == list(message.caption_entities)
            and new_media is message.media
            and reply_markup == message.reply_markup
        )
        if unchanged:
            raise bad_request(MESSAGE_NOT_MODIFIED)
        message.history.append(message.snapshot(method))
        message.text, message.entities, message.source_text = new_text, tuple(new_entities), new_source
        message.caption, message.caption_entities = new_caption, tuple(new_caption_entities)
        message.source_caption = new_caption_source
        if media is not _KEEP:
            if media.kind == "photo":
                message.photo, message.document = media, None
            else:
                message.photo, message.document = None, media
        message.reply_markup = reply_markup
        message.edit_date = self._now_date()
        self._signal.fire()
        return message.to_json()

    def _send(self, p: Params, chat: FakeChat, **content: Any) -> dict[str, Any]:
        reply_to = self._reply_target(p, chat)
        markup = normalize_reply_markup(
            p.json("reply_markup", error="can't parse reply keyboard markup JSON object"), private=chat.is_private
        )
        message = self._add_message(
            chat,
            self.bot,
            reply_to=reply_to,
            reply_markup=markup,
            silent=p.bool("disable_notification"),
            message_thread_id=p.int("message_thread_id"),
            **content,
        )
        return message.to_json()

    # ------------------------------------------------------------------ files

    def _new_file(self, kind: str, data: bytes, filename: str | None, mime: str | None) -> StoredFile:
        number = self._next("file")
        prefix = "AgACAgIAAxk" if kind == "photo" else "BQACAgIAAxk"
        if kind == "photo":
            extension = ".jpg"
        else:
            extension = (mimetypes.guess_extension(mime or "") or "") if not filename else ""
            if filename and "." in filename:
                extension = "." + filename.rsplit(".", 1)[1]
        stored = StoredFile(
            file_id=f"{prefix}{number:06d}fake{self.bot.id % 10000:04d}",
            file_unique_id=f"AQAD{number:06d}",
            kind=kind,
            data=data,
            file_path=f"{'photos' if kind == 'photo' else 'documents'}/file_{number}{extension}",
            filename=filename,
            mime_type=mime,
        )
        self.files[stored.file_id] = stored
        self.files_by_path[stored.file_path] = stored
        return stored

    def _store_photo(self, data: bytes, filename: str | None) -> StoredFile:
        info = inspect_photo(data)
        stored = self._new_file("photo", data, filename, f"image/{info.format.lower()}")
        stored.width, stored.height, stored.image_format = info.width, info.height, info.format
        sizes: list[dict[str, Any]] = []
        longest = max(info.width, info.height)
        for index, bound in enumerate((90, 320, 800)):
            if longest <= bound:
                break
            scale = bound / longest
            alias = f"{stored.file_id}_s{index}"
            self.files[alias] = stored
            sizes.append(
                {
                    "file_id": alias,
                    "file_unique_id": f"{stored.file_unique_id}s{index}",
                    "width": max(1, round(info.width * scale)),
                    "height": max(1, round(info.height * scale)),
                }
            )
        sizes.append(
            {
                "file_id": stored.file_id,
                "file_unique_id": stored.file_unique_id,
                "width": info.width,
                "height": info.height,
                "file_size": len(data),
            }
        )
        stored.photo_sizes = sizes
        return stored

    def _media_source(self, p: Params, ref: Any, kind: str, *, field: str) -> StoredFile:
        """Resolve an uploaded part, ``attach://name``, or an existing file_id into a file."""
        if ref is None or ref == "":
            upload = p.files.get(field)
            if upload is None:
                raise bad_request(f"there is no {kind} in the request")
            return self._store_upload(upload, kind)
        if not isinstance(ref, str):
            raise bad_request(f"there is no {kind} in the request")
        if ref.startswith("attach://"):
            name = ref[len("attach://") :]
            upload = p.files.get(name)
            if upload is None:
                raise bad_request(f'can\'t find attached file "{name}"')
            return self._store_upload(upload, kind)
        if re.match(r"^https?://", ref):
            raise fake_limitation("the fake cannot download files from URLs; upload bytes or reuse a file_id")
        stored = self.files.get(ref)
        if stored is None:
            raise bad_request("wrong file identifier/HTTP URL specified")
        if stored.kind != kind:
            raise bad_request(f"can't use file of type {stored.kind.capitalize()} as {kind.capitalize()}")
        return stored

    def _store_upload(self, upload: tuple[str, bytes, str], kind: str) -> StoredFile:
        filename, data, mime = upload
        if len(data) > MAX_UPLOAD_BYTES:
            raise ApiError(413, "Request Entity Too Large")
        if kind == "photo":
            return self._store_photo(data, filename)
        if not data:
            raise bad_request("file must be non-empty")
        return self._new_file("document", data, filename, mime or "application/octet-stream")

    def file_bytes(self, file_path: str) -> bytes | None:
        """Content of a file by its ``file_path`` (what ``getFile`` returned), for downloads."""
        stored = self.files_by_path.get(file_path.lstrip("/"))
        return stored.data if stored else None

    # ------------------------------------------------------------------ commands

    def _scope_key(self, scope: Any) -> str:
        if not isinstance(scope, dict) or scope.get("type") not in _SCOPES:
            raise bad_request("can't parse BotCommandScope JSON object")
        key: dict[str, Any] = {"type": scope["type"]}
        if scope["type"] in ("chat", "chat_administrators", "chat_member"):
            chat = self._lookup_chat(scope.get("chat_id"))
            if chat is None:
                raise bad_request("chat not found")
            key["chat_id"] = chat.id
        if scope["type"] == "chat_member":
            try:
                key["user_id"] = int(scope.get("user_id", ""))
            except (TypeError, ValueError):
                raise bad_request("invalid user_id specified") from None
        return json.dumps(key, sort_keys=True)

    def _commands_key(self, p: Params) -> tuple[str, str]:
        language = p.str("language_code") or ""
        if language and not re.fullmatch(r"[a-z]{2}", language):
            raise bad_request("LANG_CODE_INVALID")
        return self._scope_key(p.json("scope") or {"type": "default"}), language


class _Text:
    """Parsed text plus its source, handed to ``_commit_edit``."""

    def __init__(self, source: str | None, parse_mode: str | None, entities: Any, *, caption: bool) -> None:
        parsed = parse_message_text(source, parse_mode, entities, caption=caption)
        self.text, self.entities, self.source = parsed.text, parsed.entities, source


def _text(p: Params, field: str, *, caption: bool) -> _Text:
    entities_field = "caption_entities" if caption else "entities"
    return _Text(p.str(field), p.str("parse_mode"), p.json(entities_field), caption=caption)


# ====================================================================== bot & updates


@api_method("getMe")
def get_me(fake: FakeBotAPI, p: Params) -> dict[str, Any]:
    """The bot's own User with its capabilities."""
    data = fake.bot.to_json()
    data.update(
        can_join_groups=True,
        can_read_all_group_messages=not fake.privacy_mode,
        supports_inline_queries=False,
        can_connect_to_business=False,
        has_main_web_app=False,
    )
    return data


@api_method("deleteWebhook")
async def delete_webhook(fake: FakeBotAPI, p: Params) -> bool:
    """Remove the webhook (delivery stops); ``drop_pending_updates`` clears the update queue."""
    fake.webhook_url = ""
    if fake.webhook is not None:
        delivery, fake.webhook = fake.webhook, None
        await delivery.stop()
    if p.bool("drop_pending_updates"):
        fake.dropped_updates.extend(fake.updates)
        fake.updates = []
    return True


@api_method("setWebhook")
async def set_webhook(fake: FakeBotAPI, p: Params) -> bool:
    """Set the webhook: queued updates are then POSTed to ``url`` with the ``secret_token`` header
    (:mod:`fakebot.webhook`); getUpdates answers 409 while it is set. An empty URL removes it."""
    url = p.str("url") or ""
    if url and not url.startswith("https://"):
        raise bad_request("bad webhook: An HTTPS URL must be provided for webhook")
    if url and (urlsplit(url).port or 443) not in (443, 80, 88, 8443):
        raise bad_request("bad webhook: Webhook can be set up only on ports 80, 88, 443 or 8443")
    secret = p.str("secret_token") or None
    if secret is not None and not re.fullmatch(r"[A-Za-z0-9_-]{1,256}", secret):
        raise bad_request("secret token contains unallowed characters")
    allowed = p.json("allowed_updates")
    if allowed is not None:
        fake.allowed_updates = frozenset(allowed) if allowed else None
    if fake.webhook is not None:
        delivery, fake.webhook = fake.webhook, None
        await delivery.stop()
    fake.webhook_url = url
    if p.bool("drop_pending_updates"):
        fake.updates = []
    if url:
        fake.webhook = WebhookDelivery(fake, url, secret)
    return True


@api_method("getWebhookInfo")
def get_webhook_info(fake: FakeBotAPI, p: Params) -> dict[str, Any]:
    """WebhookInfo with the pending update count and the last delivery error."""
    info: dict[str, Any] = {
        "url": fake.webhook_url, "has_custom_certificate": False, "pending_update_count": len(fake.updates),
    }  # fmt: skip
    if fake.webhook is not None and fake.webhook.last_error_date is not None:
        info.update(last_error_date=fake.webhook.last_error_date, last_error_message=fake.webhook.last_error_message)
    if fake.allowed_updates is not None:
        info["allowed_updates"] = sorted(fake.allowed_updates)
    return info


@api_method("getUpdates")
async def get_updates(fake: FakeBotAPI, p: Params) -> list[dict[str, Any]]:
    """Long polling: confirm updates below ``offset``, then return up to ``limit`` (1-100, default
    100), waiting up to ``timeout`` seconds for one to arrive. A newer concurrent getUpdates
    terminates an older one with 409 Conflict, as on Telegram."""
    if fake.webhook_url:
        raise conflict(
            "can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first"
        )
    offset = p.int("offset", 0) or 0
    limit = min(100, max(1, p.int("limit", 100) or 100))
    timeout = max(0.0, p.float("timeout", 0.0) or 0.0)
    allowed = p.json("allowed_updates")
    if allowed is not None:
        fake.allowed_updates = frozenset(allowed) if allowed else None
    fake._confirm_updates(offset)
    fake._poll_generation += 1
    generation = fake._poll_generation
    fake._signal.fire()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        batch = fake._deliverable(limit)
        if batch or fake.closed:
            break
        remaining = deadline - loop.time()
        if remaining <= 0:
            break
        await fake._signal.wait(remaining)
        if generation != fake._poll_generation:
            raise conflict(GETUPDATES_CONFLICT)
    fake.poll_count += 1
    if batch:
        fake._delivered_up_to = max(fake._delivered_up_to, batch[-1]["update_id"])
    return [json.loads(json.dumps(update)) for update in batch]


# ====================================================================== commands


@api_method("setMyCommands")
def set_my_commands(fake: FakeBotAPI, p: Params) -> bool:
    """Register commands for a scope + language (an empty list deletes them)."""
    commands = validate_commands(p.json("commands", [], error="can't parse BotCommand array JSON object"))
    key = fake._commands_key(p)
    if commands:
        fake.commands[key] = commands
    else:
        fake.commands.pop(key, None)
    return True


@api_method("getMyCommands")
def get_my_commands(fake: FakeBotAPI, p: Params) -> list[dict[str, str]]:
    """Commands of exactly this scope + language."""
    return list(fake.commands.get(fake._commands_key(p), []))


@api_method("deleteMyCommands")
def delete_my_commands(fake: FakeBotAPI, p: Params) -> bool:
    """Forget the commands of this scope + language."""
    fake.commands.pop(fake._commands_key(p), None)
    return True


# ====================================================================== sending


@api_method("sendMessage")
def send_message(fake: FakeBotAPI, p: Params) -> dict[str, Any]:
    """Send a text message (1-4096 characters after entity parsing)."""
    chat = fake._chat_param(p)
    text = _text(p, "text", caption=False)
    return fake._send(p, chat, text=text.text, entities=text.entities, source_text=text.source)


@api_method("sendPhoto")
def send_photo(fake: FakeBotAPI, p: Params) -> dict[str, Any]:
    """Send a photo: a multipart upload (part ``photo``), ``attach://`` or an existing file_id."""
    chat = fake._chat_param(p)
    return _send_with_caption(fake, p, chat, photo=fake._media_source(p, p.raw.get("photo"), "photo", field="photo"))


def _send_with_caption(fake: FakeBotAPI, p: Params, chat: FakeChat, **media: Any) -> dict[str, Any]:
    """Send a media message (``photo=`` or ``document=`` a stored file) with the call's caption."""
    caption = _text(p, "caption", caption=True)
    return fake._send(
        p,
        chat,
        caption=caption.text or None,
        caption_entities=caption.entities,
        source_caption=caption.source,
        **media,
    )


@api_method("sendDocument")
def send_document(fake: FakeBotAPI, p: Params) -> dict[str, Any]:
    """Send a file as a document (multipart part ``document`` or a file_id)."""
    chat = fake._chat_param(p)
    document = fake._media_source(p, p.raw.get("document"), "document", field="document")
    return _send_with_caption(fake, p, chat, document=document)


@api_method("sendAnimation")
def send_animation(fake: FakeBotAPI, p: Params) -> dict[str, Any]:
    """Send an animation (multipart part ``animation`` or a file_id): a GIF, or H.264 MP4 without
    sound, up to the upload limit.  The fake keeps the file as the message's ``document`` (Telegram
    sends both ``animation`` and ``document``) and checks that a GIF decodes and fits the photo
    dimension limits; anything but a GIF or an MP4 is refused."""
    chat = fake._chat_param(p)
    animation = fake._media_source(p, p.raw.get("animation"), "document", field="animation")
    if animation.data[:6] in (b"GIF87a", b"GIF89a"):
        info = inspect_photo(animation.data)
        animation.width, animation.height, animation.image_format = info.width, info.height, info.format
    elif animation.data[4:8] != b"ftyp":
        raise bad_request("wrong file type: an animation is a GIF or an MP4 video")
    animation.animation = True
    return _send_with_caption(fake, p, chat, document=animation)


@api_method("sendChatAction")
def send_chat_action(fake: FakeBotAPI, p: Params) -> bool:
    """Record a chat action ("typing", "upload_photo", ...)."""
    chat = fake._chat_param(p)
    action = p.str("action")
    if action not in CHAT_ACTIONS:
        raise bad_request("wrong parameter action in request")
    chat.chat_actions.append((fake.clock.monotonic(), action))
    return True


# ====================================================================== editing


@api_method("editMessageText")
def edit_message_text(fake: FakeBotAPI, p: Params) -> dict[str, Any]:
    """Replace a text message's text (and keyboard: omitted = removed)."""
    message = fake._message_for_edit(p)
    if message.text is None:
        raise bad_request("there is no text in the message to edit")
    text = _text(p, "text", caption=False)
    markup = normalize_reply_markup(p.json("reply_markup"), inline_only=True, private=message.chat.is_private)
    return fake._commit_edit(message, "editMessageText", text=text, reply_markup=markup)


@api_method("editMessageCaption")
def edit_message_caption(fake: FakeBotAPI, p: Params) -> dict[str, Any]:
    """Replace a media message's caption (omitted = removed) and keyboard (omitted = removed)."""
    message = fake._message_for_edit(p)
    if message.media is None:
        raise bad_request("there is no caption in the message to edit")
    caption = _text(p, "caption", caption=True)
    markup = normalize_reply_markup(p.json("reply_markup"), inline_only=True, private=message.chat.is_private)
    return fake._commit_edit(message, "editMessageCaption", caption=caption, reply_markup=markup)


@api_method("editMessageMedia")
def edit_message_media(fake: FakeBotAPI, p: Params) -> dict[str, Any]:
    """Replace a media message's photo/document (``attach://`` uploads or file_ids), its caption
    (from the InputMedia) and keyboard."""
    message = fake._message_for_edit(p)
    if message.media is None:
        raise bad_request("there is no media in the message to edit")
    media = p.json("media", error="can't parse InputMedia JSON object")
    if not isinstance(media, dict) or "type" not in media:
        raise bad_request("can't parse InputMedia JSON object")
    kind = media["type"]
    if kind not in ("photo", "document"):
        raise fake_limitation(f"InputMedia type {kind!r} is not supported (photo and document are)")
    if "media" not in media:
        raise bad_request("can't parse InputMedia: Can't find field \"media\"")
    stored = fake._media_source(p, media["media"], kind, field="media")
    caption = _Text(media.get("caption"), media.get("parse_mode"), media.get("caption_entities"), caption=True)
    markup = normalize_reply_markup(p.json("reply_markup"), inline_only=True, private=message.chat.is_private)
    return fake._commit_edit(message, "editMessageMedia", media=stored, caption=caption, reply_markup=markup)


@api_method("editMessageReplyMarkup")
def edit_message_reply_markup(fake: FakeBotAPI, p: Params) -> dict[str, Any]:
    """Replace (or, when omitted, remove) a message's inline keyboard."""
    message = fake._message_for_edit(p)
    markup = normalize_reply_markup(p.json("reply_markup"), inline_only=True, private=message.chat.is_private)
    return fake._commit_edit(message, "editMessageReplyMarkup", reply_markup=markup)


# ====================================================================== deleting


def _check_deletable(fake: FakeBotAPI, chat: FakeChat, message: FakeMessage) -> None:
    if fake.clock.monotonic() - message.sent_at > DELETE_WINDOW_SECONDS and not chat.is_private:
        raise bad_request("message can't be deleted for everyone")
    if chat.is_private or message.from_user.id == fake.bot.id:
        return
    if not chat.status_of(fake.bot.id).is_admin:
        raise bad_request("message can't be deleted")


@api_method("deleteMessage")
def delete_message(fake: FakeBotAPI, p: Params) -> bool:
    """Delete a message (the bot's own anywhere; others' in groups only as an admin)."""
    chat, message = fake._message_param(p, missing="message to delete not found")
    assert message is not None
    _check_deletable(fake, chat, message)
    message.deleted = True
    fake._signal.fire()
    return True


@api_method("deleteMessages")
def delete_messages(fake: FakeBotAPI, p: Params) -> bool:
    """Delete several messages; ones that cannot be deleted are skipped, as on Telegram."""
    chat = fake._chat_param(p)
    ids = p.json("message_ids")
    if not isinstance(ids, list) or not 1 <= len(ids) <= 100:
        raise bad_request("message identifiers are not specified")
    for message_id in ids:
        message = chat.messages.get(int(message_id))
        if message is None or message.deleted:
            continue
        try:
            _check_deletable(fake, chat, message)
        except ApiError:
            continue
        message.deleted = True
    fake._signal.fire()
    return True


# ====================================================================== callback queries


@api_method("answerCallbackQuery")
def answer_callback_query(fake: FakeBotAPI, p: Params) -> bool:
    """Answer a button press once, within ``fake.callback_query_ttl`` seconds; ``text`` <= 200
    characters; ``url`` only as a ``t.me/<bot>?start=...`` deep link."""
    query = fake.callback_queries.get(p.str("callback_query_id") or "")
    if query is None:
        raise bad_request(QUERY_TOO_OLD)
    query.answer_attempts += 1
    if fake._current_call is not None:
        fake._current_call.chat_id = query.message.chat.id
    if query.answered or fake.clock.monotonic() - query.created_at > fake.callback_query_ttl:
        raise bad_request(QUERY_TOO_OLD)
    text = p.str("text")
    check_answer_text(text)
    url = p.str("url")
    if url:
        username = re.escape(fake.bot.username or "")
        if not re.match(rf"^(https?://)?(t|telegram)\.me/{username}\?start=[A-Za-z0-9_\-]{{1,64}}$", url, re.I):
            raise bad_request("URL_INVALID")
    query.answer = CallbackAnswer(
        text or None, p.bool("show_alert"), url or None, p.int("cache_time", 0) or 0, fake.clock.monotonic()
    )
    fake._signal.fire()
    return True


# ====================================================================== chats & members


@api_method("getChat")
def get_chat(fake: FakeBotAPI, p: Params) -> dict[str, Any]:
    """ChatFullInfo (with the fields PTB 22.8 requires)."""
    chat = fake._chat_param(p, write=False)
    data = chat.to_json()
    data.update(
        accent_color_id=0,
        max_reaction_count=11,
        accepted_gift_types={
            "unlimited_gifts": False,
            "limited_gifts": False,
            "unique_gifts": False,
            "premium_subscription": False,
            "gifts_from_channels": False,
        },
    )
    return data


@api_method("getChatMember")
def get_chat_member(fake: FakeBotAPI, p: Params) -> dict[str, Any]:
    """A user's membership in a chat ("left" if never there)."""
    chat = fake._chat_param(p, write=False)
    user_id = p.int("user_id", error="invalid user_id specified")
    if user_id is None:
        raise bad_request("invalid user_id specified")
    user = fake.bot if user_id == fake.bot.id else fake.users.get(user_id)
    if user is None:
        raise bad_request("user not found")
    if chat.is_private:
        assert chat.user is not None
        if user_id not in (chat.user.id, fake.bot.id):
            raise bad_request("user not found")
        return member_json(user, MemberStatus.MEMBER)
    return member_json(user, chat.status_of(user_id))


@api_method("getChatAdministrators")
def get_chat_administrators(fake: FakeBotAPI, p: Params) -> list[dict[str, Any]]:
    """The creator and administrators of a group."""
    chat = fake._chat_param(p, write=False)
    if chat.is_private:
        raise bad_request("there are no administrators in the private chat")
    result = []
    for user_id, status in chat.members.items():
        if status.is_admin:
            user = fake.bot if user_id == fake.bot.id else fake.users[user_id]
            result.append(member_json(user, status))
    return result


@api_method("getChatMemberCount")
def get_chat_member_count(fake: FakeBotAPI, p: Params) -> int:
    """Number of members present (the bot included)."""
    chat = fake._chat_param(p, write=False)
    if chat.is_private:
        return 2
    return sum(1 for status in chat.members.values() if status.is_present)


@api_method("leaveChat")
def leave_chat(fake: FakeBotAPI, p: Params) -> bool:
    """The bot leaves a group (a ``my_chat_member`` update follows)."""
    chat = fake._chat_param(p, write=False)
    if chat.is_private:
        raise bad_request("chat member status can't be changed in private chats")
    old = chat.status_of(fake.bot.id)
    if not old.is_present:
        raise forbidden(f"bot is not a member of the {chat.type.value} chat")
    chat.members[fake.bot.id] = MemberStatus.LEFT
    fake._push_my_chat_member(chat, fake.bot, old, MemberStatus.LEFT)
    return True


# ====================================================================== files


@api_method("getFile")
def get_file(fake: FakeBotAPI, p: Params) -> dict[str, Any]:
    """File info with a ``file_path`` that can be downloaded by GET from the file URL."""
    file_id = p.str("file_id") or ""
    stored = fake.files.get(file_id)
    if stored is None:
        raise bad_request("wrong file_id or the file is temporarily unavailable")
    return {
        "file_id": file_id,
        "file_unique_id": stored.file_unique_id,
        "file_size": stored.size,
        "file_path": stored.file_path,
    }
