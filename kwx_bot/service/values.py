"""Plain values passed between handlers and the table service (never Telegram objects)."""

from __future__ import annotations

from dataclasses import dataclass

from .buttons import Keyboard

__all__ = ["Command", "Out", "UserInfo"]


@dataclass(frozen=True, slots=True)
class UserInfo:
    """The Telegram user behind an update (plain values)."""

    user_id: int
    first_name: str
    last_name: str | None = None
    username: str | None = None
    language_code: str | None = None


@dataclass(frozen=True, slots=True)
class Command:
    """A command message: who sent it where, and its arguments.

    ``sender_chat_id``: set when the message was sent on behalf of a chat (an anonymous group
    administrator posts as the group itself); ``reply_to``: the author of the message it replies to
    (``/kick`` by reply); ``text``: the whole message text.
    """

    chat_id: int
    title: str
    private: bool
    user: UserInfo
    args: tuple[str, ...] = ()
    text: str = ""
    message_id: int | None = None
    sender_chat_id: int | None = None
    reply_to: UserInfo | None = None

    @property
    def anonymous_admin(self) -> bool:
        """Sent on behalf of the group itself (an anonymous administrator)."""
        return not self.private and self.sender_chat_id == self.chat_id


@dataclass(frozen=True, slots=True)
class Out:
    """One message to send in reply: HTML ``text`` (a caption for a document or an animation),
    optional buttons, an optional ``document`` or ``animation`` (file name, bytes; an animation is a
    GIF, sent with sendAnimation), and whether it replies to the command."""

    text: str
    markup: Keyboard | None = None
    document: tuple[str, bytes] | None = None
    reply: bool = False
    animation: tuple[str, bytes] | None = None
