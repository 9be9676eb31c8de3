"""The fake Telegram world: users, chats, messages, files, callback queries and the call log.

These are mutable records owned by :class:`~fakebot.core.FakeBotAPI`; tests read them (and
may tweak them) but normally change the world through the fake's helper methods. Each record can
render itself as Bot API JSON (``to_json``) exactly as PTB 22.8 expects it (all required fields
present, see docs/telegram.md §1.3).
"""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .entities import entity_text

if TYPE_CHECKING:
    from collections.abc import Iterator

ANONYMOUS_ADMIN_ID = 1087968824
"""User id of ``@GroupAnonymousBot``, the sender of anonymous admins' group messages."""


class ChatType(enum.StrEnum):
    """Chat kinds the fake models (channels are not modelled)."""

    PRIVATE = "private"
    GROUP = "group"
    SUPERGROUP = "supergroup"


class MemberStatus(enum.StrEnum):
    """``ChatMember.status`` values."""

    CREATOR = "creator"
    ADMINISTRATOR = "administrator"
    MEMBER = "member"
    RESTRICTED = "restricted"
    LEFT = "left"
    KICKED = "kicked"

    @property
    def is_present(self) -> bool:
        """True for statuses that are inside the chat."""
        return self in (MemberStatus.CREATOR, MemberStatus.ADMINISTRATOR, MemberStatus.MEMBER, MemberStatus.RESTRICTED)

    @property
    def is_admin(self) -> bool:
        """True for the creator and administrators."""
        return self in (MemberStatus.CREATOR, MemberStatus.ADMINISTRATOR)


@dataclass(eq=False)
class FakeUser:
    """A Telegram user (or the bot itself when ``is_bot``).

    ``started``: the user pressed Start in the private chat (the bot may write to them).
    ``blocked``: the user blocked the bot (every call to their private chat gets 403).
    """

    id: int
    first_name: str
    last_name: str | None = None
    username: str | None = None
    language_code: str | None = None
    is_bot: bool = False
    started: bool = False
    blocked: bool = False
    bot_extras: dict[str, Any] = field(default_factory=dict)

    @property
    def full_name(self) -> str:
        """First and last name joined by a space."""
        return f"{self.first_name} {self.last_name}" if self.last_name else self.first_name

    def to_json(self) -> dict[str, Any]:
        """Bot API ``User``."""
        data: dict[str, Any] = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        if self.last_name:
            data["last_name"] = self.last_name
        if self.username:
            data["username"] = self.username
        if self.language_code and not self.is_bot:
            data["language_code"] = self.language_code
        data.update(self.bot_extras)
        return data

    def __repr__(self) -> str:
        return f"FakeUser({self.id}, {self.full_name!r})"


@dataclass(eq=False)
class FakeChat:
    """A private chat, group or supergroup, with its members and messages.

    ``members`` maps user id -> :class:`MemberStatus` (the bot's own status is under the bot's
    id). ``messages`` holds every message by id in sending order, deleted ones included (flagged).
    ``migrated_to`` is set on a group upgraded to a supergroup (sending there fails with
    ``migrate_to_chat_id``).
    """

    id: int
    type: ChatType
    title: str | None = None
    username: str | None = None
    user: FakeUser | None = None
    members: dict[int, MemberStatus] = field(default_factory=dict)
    messages: dict[int, FakeMessage] = field(default_factory=dict)
    migrated_to: int | None = None
    migrated_from: int | None = None
    next_message_id: int = 1
    chat_actions: list[tuple[float, str]] = field(default_factory=list)

    @property
    def is_private(self) -> bool:
        """True for a one-to-one chat with a user."""
        return self.type is ChatType.PRIVATE

    @property
    def chat_instance(self) -> str:
        """A stable ``chat_instance`` string for callback queries from this chat."""
        return str(abs(self.id) * 7919 + 104729)

    def to_json(self) -> dict[str, Any]:
        """Bot API ``Chat`` (the short form embedded in messages)."""
        data: dict[str, Any] = {"id": self.id, "type": str(self.type)}
        if self.type is ChatType.PRIVATE and self.user is not None:
            data["first_name"] = self.user.first_name
            if self.user.last_name:
                data["last_name"] = self.user.last_name
            if self.user.username:
                data["username"] = self.user.username
        else:
            data["title"] = self.title or ""
            if self.username:
                data["username"] = self.username
        return data

    def allocate_message_id(self) -> int:
        """Next message id in this chat."""
        message_id = self.next_message_id
        self.next_message_id += 1
        return message_id

    def status_of(self, user_id: int) -> MemberStatus:
        """Membership status of a user (``left`` if unknown)."""
        return self.members.get(user_id, MemberStatus.LEFT)

    def __repr__(self) -> str:
        name = self.title or (self.user.full_name if self.user else "")
        return f"FakeChat({self.id}, {self.type.value}, {name!r})"


@dataclass(eq=False)
class StoredFile:
    """An uploaded file: raw ``data`` bytes plus, for photos, Pillow-decoded ``width``/``height``.

    ``kind`` is ``"photo"`` or ``"document"``. ``aliases`` are the other file_ids (smaller photo
    sizes) that refer to this file.  ``animation``: sent with sendAnimation (kept as a document, as
    Telegram sends both), which a client shows inline, playing.
    """

    file_id: str
    file_unique_id: str
    kind: str
    data: bytes
    file_path: str
    filename: str | None = None
    mime_type: str | None = None
    width: int | None = None
    height: int | None = None
    image_format: str | None = None
    photo_sizes: list[dict[str, Any]] = field(default_factory=list)
    animation: bool = False

    @property
    def size(self) -> int:
        """File size in bytes."""
        return len(self.data)

    def image(self) -> Any:
        """The photo decoded by Pillow (``PIL.Image.Image``), for pixel checks in tests."""
        import io

        from PIL import Image

        return Image.open(io.BytesIO(self.data))

    def document_json(self) -> dict[str, Any]:
        """Bot API ``Document``."""
        data: dict[str, Any] = {"file_id": self.file_id, "file_unique_id": self.file_unique_id, "file_size": self.size}
        if self.filename:
            data["file_name"] = self.filename
        if self.mime_type:
            data["mime_type"] = self.mime_type
        return data

    def __repr__(self) -> str:
        dims = f" {self.width}x{self.height}" if self.width else ""
        return f"StoredFile({self.kind}{dims}, {self.size} bytes, {self.file_id})"


@dataclass(frozen=True, slots=True)
class InlineButton:
    """One inline keyboard button as sent by the bot (``raw`` is its JSON)."""

    text: str
    callback_data: str | None
    url: str | None
    row: int
    column: int
    raw: dict[str, Any]


@dataclass(frozen=True, slots=True)
class MessageVersion:
    """A snapshot of a message's content before an edit (see :attr:`FakeMessage.history`)."""

    text: str | None
    entities: tuple[dict[str, Any], ...]
    caption: str | None
    caption_entities: tuple[dict[str, Any], ...]
    media: StoredFile | None
    reply_markup: dict[str, Any] | None
    edit_date: int | None
    replaced_by: str
    """The method that replaced this version (``editMessageText``, ...)."""


@dataclass(eq=False)
class FakeMessage:
    """A message in a chat, in its *current* state (edits update it in place).

    ``text``/``caption`` are plain text (entities parsed out); ``source_text``/``source_caption``
    keep what the bot sent (with HTML/Markdown markup). ``photo``/``document`` is the attached
    file; ``history`` lists earlier versions, oldest first.
    """

    chat: FakeChat
    message_id: int
    from_user: FakeUser
    date: int
    text: str | None = None
    entities: tuple[dict[str, Any], ...] = ()
    source_text: str | None = None
    caption: str | None = None
    caption_entities: tuple[dict[str, Any], ...] = ()
    source_caption: str | None = None
    photo: StoredFile | None = None
    document: StoredFile | None = None
    reply_markup: dict[str, Any] | None = None
    reply_to: FakeMessage | None = None
    edit_date: int | None = None
    history: list[MessageVersion] = field(default_factory=list)
    deleted: bool = False
    silent: bool = False
    sender_chat: FakeChat | None = None
    message_thread_id: int | None = None
    service: dict[str, Any] = field(default_factory=dict)
    sent_at: float = 0.0
    """Clock monotonic time when it was sent."""
    seq: int = 0
    """Call sequence number when it was created (compare with ``fake.mark()``)."""

    # ------------------------------------------------------------------ reading helpers

    @property
    def from_bot(self) -> bool:
        """True if the bot sent it."""
        return self.from_user.is_bot and self.from_user.id != ANONYMOUS_ADMIN_ID

    @property
    def media(self) -> StoredFile | None:
        """The attached photo or document."""
        return self.photo or self.document

    @property
    def content(self) -> str:
        """Text or caption (empty string if neither)."""
        return self.text if self.text is not None else (self.caption or "")

    @property
    def photo_size(self) -> tuple[int, int] | None:
        """(width, height) in pixels of the attached photo."""
        if self.photo is None or self.photo.width is None or self.photo.height is None:
            return None
        return (self.photo.width, self.photo.height)

    @property
    def edit_count(self) -> int:
        """How many times the message was edited."""
        return len(self.history)

    @property
    def buttons(self) -> list[list[InlineButton]]:
        """Inline keyboard rows (empty if the message has none)."""
        markup = self.reply_markup or {}
        rows = markup.get("inline_keyboard") or []
        return [
            [InlineButton(b.get("text", ""), b.get("callback_data"), b.get("url"), r, c, b) for c, b in enumerate(row)]
            for r, row in enumerate(rows)
        ]

    def iter_buttons(self) -> Iterator[InlineButton]:
        """All inline buttons, row by row."""
        for row in self.buttons:
            yield from row

    @property
    def button_texts(self) -> list[str]:
        """Labels of all inline buttons, row by row."""
        return [b.text for b in self.iter_buttons()]

    @property
    def callback_datas(self) -> list[str]:
        """``callback_data`` of all callback buttons, row by row."""
        return [b.callback_data for b in self.iter_buttons() if b.callback_data is not None]

    def find_button(self, text: str | None = None, data: str | None = None) -> InlineButton:
        """The button with this exact label and/or callback_data.

        Raises:
            LookupError: listing the buttons that exist.
        """
        for button in self.iter_buttons():
            if (text is None or button.text == text) and (data is None or button.callback_data == data):
                return button
        listing = [(b.text, b.callback_data) for b in self.iter_buttons()]
        raise LookupError(f"no button text={text!r} data={data!r} on {self!r}; buttons: {listing}")

    def entity_texts(self, kind: str | None = None) -> list[str]:
        """Texts covered by entities (of one ``kind`` if given), e.g. the bold parts."""
        result = []
        for source, entities in ((self.text, self.entities), (self.caption, self.caption_entities)):
            for entity in entities:
                if source is not None and (kind is None or entity["type"] == kind):
                    result.append(entity_text(source, entity))
        return result

    def snapshot(self, replaced_by: str) -> MessageVersion:
        """The current content as an immutable version record."""
        return MessageVersion(
            self.text,
            self.entities,
            self.caption,
            self.caption_entities,
            self.media,
            self.reply_markup,
            self.edit_date,
            replaced_by,
        )

    # ------------------------------------------------------------------ JSON

    def to_json(self, *, with_reply: bool = True) -> dict[str, Any]:
        """Bot API ``Message``."""
        data: dict[str, Any] = {
            "message_id": self.message_id,
            "date": self.date,
            "chat": self.chat.to_json(),
            "from": self.from_user.to_json(),
        }
        if self.sender_chat is not None:
            data["sender_chat"] = self.sender_chat.to_json()
        if self.message_thread_id is not None:
            data["message_thread_id"] = self.message_thread_id
        if self.edit_date is not None:
            data["edit_date"] = self.edit_date
        if self.reply_to is not None and with_reply:
            data["reply_to_message"] = self.reply_to.to_json(with_reply=False)
        if self.text is not None:
            data["text"] = self.text
            if self.entities:
                data["entities"] = [dict(e) for e in self.entities]
        if self.photo is not None:
            data["photo"] = [dict(size) for size in self.photo.photo_sizes]
        if self.document is not None:
            data["document"] = self.document.document_json()
        if self.caption:
            data["caption"] = self.caption
            if self.caption_entities:
                data["caption_entities"] = [dict(e) for e in self.caption_entities]
        if self.reply_markup and "inline_keyboard" in self.reply_markup:
            data["reply_markup"] = json.loads(json.dumps(self.reply_markup))
        data.update(self.service)
        return data

    def __repr__(self) -> str:
        kind = "photo" if self.photo else "document" if self.document else "text"
        content = self.content if len(self.content) <= 60 else self.content[:57] + "..."
        flags = " deleted" if self.deleted else ""
        sender = self.from_user.first_name
        return f"FakeMessage({self.chat.id}/{self.message_id} {kind} from {sender!r}: {content!r}{flags})"


@dataclass(frozen=True, slots=True)
class CallbackAnswer:
    """What the bot answered to a callback query (``answerCallbackQuery``)."""

    text: str | None
    show_alert: bool
    url: str | None
    cache_time: int
    at: float


@dataclass(eq=False)
class CallbackQueryRecord:
    """A button press the fake delivered: who pressed what on which message, and the answer."""

    id: str
    user: FakeUser
    message: FakeMessage
    data: str | None
    created_at: float
    update_id: int
    answer: CallbackAnswer | None = None
    answer_attempts: int = 0
    seq: int = 0

    @property
    def answered(self) -> bool:
        """True once the bot answered it successfully."""
        return self.answer is not None

    def __repr__(self) -> str:
        state = f"answered {self.answer.text!r}" if self.answer else "unanswered"
        return f"CallbackQuery({self.id} by {self.user.first_name!r} data={self.data!r} {state})"


@dataclass(eq=False)
class ApiCall:
    """One Bot API call the bot made, as the fake saw it.

    ``params`` are as received (wire strings, or native values for direct calls); ``files`` maps
    multipart part names to (filename, size in bytes). ``chat_id`` is the chat the call targeted
    (resolved after migration aliases; None for chat-less methods). ``time`` is clock monotonic
    seconds at arrival.
    """

    seq: int
    method: str
    params: dict[str, Any]
    files: dict[str, tuple[str, int]]
    time: float
    chat_id: int | None = None
    status: int = 0
    result: Any = None
    error: str | None = None
    retry_after: int | None = None

    @property
    def ok(self) -> bool:
        """True if the call succeeded (HTTP 200)."""
        return self.status == 200

    def param(self, name: str, default: Any = None) -> Any:
        """A parameter JSON-decoded when possible (``reply_markup`` -> dict, ``"5"`` -> 5)."""
        value = self.params.get(name, default)
        if isinstance(value, str):
            try:
                return json.loads(value)
            except json.JSONDecodeError:
                return value
        return value

    def __repr__(self) -> str:
        outcome = "ok" if self.ok else f"{self.status} {self.error}"
        return f"ApiCall(#{self.seq} {self.method} chat={self.chat_id} -> {outcome})"
