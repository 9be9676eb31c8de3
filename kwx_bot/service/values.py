"""Plain values passed between handlers and the table service (never Telegram objects).

What the service hands back for an update is one :class:`Response`: the answer to a button press
(:class:`Reply`), the messages to send or edit in the update's chat (:class:`Out`, :class:`Edit`) and
at most one follow-up (:data:`FollowUp`) that the edge hands back to the service
(``TableService.follow``) once the press is answered — so the answer always comes before slow
presentation work (docs/architecture.md §4, docs/telegram.md §3).
"""

from __future__ import annotations

from dataclasses import dataclass

from .buttons import Keyboard

__all__ = [
    "CloseTable", "Command", "DealHand", "Edit", "FollowUp", "Out", "Present", "Reply", "Response", "ShowLobby",
    "UserInfo",
]  # fmt: skip


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
    """One message to send in reply: HTML ``text`` (a caption for a document, an animation or a
    photo), optional buttons, an optional ``document`` or ``animation`` (file name, bytes; an
    animation is a GIF, sent with sendAnimation) or ``photo`` (PNG bytes, sent with sendPhoto), and
    whether it replies to the command."""

    text: str
    markup: Keyboard | None = None
    document: tuple[str, bytes] | None = None
    reply: bool = False
    animation: tuple[str, bytes] | None = None
    photo: bytes | None = None


@dataclass(frozen=True, slots=True)
class Edit:
    """A message to change in place: ``text`` (HTML; None keeps the text and changes only the
    buttons) and ``markup`` (None removes the buttons) of message ``message_id`` in ``chat_id``."""

    chat_id: int
    message_id: int
    text: str | None
    markup: Keyboard | None = None


@dataclass(frozen=True, slots=True)
class Reply:
    """How to answer a button press: a toast (``alert`` = popup) and optionally a URL to open."""

    text: str | None = None
    alert: bool = False
    url: str | None = None


@dataclass(frozen=True, slots=True)
class Present:
    """Follow-up: bring table ``table_id``'s messages up to date (only the hand messages of
    ``seats`` when set: a change seen by one player only)."""

    table_id: int
    seats: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class ShowLobby:
    """Follow-up: show table ``table_id``'s lobby message as it is now; ``confirm``: first tell
    this newly seated user privately where they sit."""

    table_id: int
    confirm: int | None = None


@dataclass(frozen=True, slots=True)
class DealHand:
    """Follow-up: deal table ``table_id``'s next hand (``user_id`` pressed Start or Next hand) if
    the table is still where the press found it — in its lobby (``first``) or between hands —
    at event ``seq``; then present it."""

    table_id: int
    user_id: int
    seq: int
    first: bool


@dataclass(frozen=True, slots=True)
class CloseTable:
    """Follow-up: end table ``table_id`` between hands (its player ``user_id`` confirmed it), if it
    is still between hands at event ``seq``."""

    table_id: int
    seq: int
    user_id: int | None = None


FollowUp = Present | ShowLobby | DealHand | CloseTable
"""Work the edge asks the service for after answering a press (plain values, never callables)."""


@dataclass(frozen=True, slots=True)
class Response:
    """The service's whole outcome for one update: ``reply`` answers a button press (None for a
    command), ``outs`` are sent (:class:`Out`, to the update's chat) or edited (:class:`Edit`) in
    order after it, and ``then`` is handed back to the service afterwards."""

    reply: Reply | None = None
    outs: tuple[Out | Edit, ...] = ()
    then: FollowUp | None = None

    @classmethod
    def of(cls, *outs: Out | Edit) -> Response:
        """Only messages (a command's replies): ``Response.of(Out(text))``."""
        return cls(outs=outs)
