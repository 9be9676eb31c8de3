"""What the table service needs from the world outside it, as ``Protocol``\\ s of plain values.

:class:`Messenger` is the chat: the Telegram edge's :class:`~kwx_bot.edge.sender.Sender` implements
it (tests use a recording one).  Every call returns a :class:`Sent` instead of raising; the
service reads the :class:`Outcome` (docs/telegram.md): a message that is ``GONE`` is sent afresh, a
``FORBIDDEN`` chat marks the player unreachable.  Keyboards are :data:`~kwx_bot.service.buttons.Keyboard`
values, never Telegram objects.

:class:`Page` is the Mini App's page as the presenter sees it (the page's server reports to it;
:class:`~kwx_bot.service.open_pages.OpenPages` is it): told at every presentation that a table's
screens may have changed, it answers who has the table open — no Telegram write is spent on their
hand messages (docs/architecture.md §4 "The Mini App").
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from .buttons import Keyboard

__all__ = ["Messenger", "Outcome", "Page", "Sent"]


class Outcome(enum.Enum):
    """How a call ended.

    ``NOT_MODIFIED``: the message already shows that (harmless); ``GONE``: the message to edit or
    delete is gone or no longer editable (callers send a new one); ``FORBIDDEN``: 403 (the user
    never started the bot, blocked it, or the bot left the group), or "chat not found" for a private
    chat; ``FAILED``: anything else, logged by the sender.
    """

    OK = "ok"
    NOT_MODIFIED = "not_modified"
    GONE = "gone"
    FORBIDDEN = "forbidden"
    FAILED = "failed"


@dataclass(frozen=True, slots=True)
class Sent:
    """Result of one call: the message id of a sent message, the largest photo's ``file_id``, the
    chat it went to (the new id after a group -> supergroup migration: ``migrated_from`` is then the
    old one), a member's ``status`` (:meth:`Messenger.member_status`) or ``member``ship
    (:meth:`Messenger.membership`)."""

    outcome: Outcome
    message_id: int | None = None
    file_id: str | None = None
    chat_id: int | None = None
    migrated_from: int | None = None
    status: str | None = None
    member: bool | None = None

    @property
    def ok(self) -> bool:
        """The message shows what was asked (sent, edited, or already identical)."""
        return self.outcome in (Outcome.OK, Outcome.NOT_MODIFIED)


class Messenger(Protocol):
    """The chat, as the service uses it (texts are HTML; see :mod:`kwx_bot.words.texts`)."""

    @property
    def username(self) -> str:
        """The bot's own username (for ``t.me`` deep links)."""
        ...

    def throttled(self, chats: Iterable[int], *, since: float) -> float:
        """Seconds since ``since`` during which sends to ``chats`` were held back by flood control
        (time a player must not be charged for)."""
        ...

    def group_wait(self, chat_id: int, reserve: int) -> float:
        """Seconds until a write to the group ``chat_id`` would leave ``reserve`` writes of its
        per-minute budget free (0: now) — Telegram allows about 20 a minute per group."""
        ...

    def token_busy(self) -> bool:
        """The bot's demand for writes over all chats is near what Telegram lets one token make
        (about 30 a second): writes that can wait should (docs/architecture.md §4 "Presentation")."""
        ...

    async def send_text(
        self,
        chat_id: int,
        text: str,
        markup: Keyboard | None = None,
        *,
        notify: bool = True,
        reply_to: int | None = None,
    ) -> Sent:
        """Send a text message (``reply_to``: the message it answers)."""
        ...

    async def send_photo(
        self,
        chat_id: int,
        photo: bytes | str,
        caption: str,
        markup: Keyboard | None = None,
        *,
        notify: bool = True,
        filename: str | None = None,
    ) -> Sent:
        """Send a picture (PNG/JPEG bytes or a known ``file_id``) with a caption."""
        ...

    async def send_document(
        self, chat_id: int, data: bytes, filename: str, caption: str = "", *, notify: bool = False
    ) -> Sent:
        """Send a file."""
        ...

    async def member_status(self, chat_id: int, user_id: int) -> Sent:
        """``status``: a user's status in a group (``creator``, ``administrator``, ``member``, ...),
        or None."""
        ...

    async def membership(self, chat_id: int, user_id: int) -> Sent:
        """``member``: the user is a member of the group now (creator, administrator, member, or
        restricted but still a member); False if not; None if Telegram would not answer."""
        ...

    async def is_member(self, chat_id: int, user_id: int) -> bool | None:
        """:meth:`membership`'s ``member`` alone."""
        ...

    async def edit_text(self, chat_id: int, message_id: int, text: str, markup: Keyboard | None = None) -> Sent:
        """Replace a text message's text and buttons (``None``: no buttons)."""
        ...

    async def edit_caption(
        self, chat_id: int, message_id: int, caption: str, markup: Keyboard | None = None, *, can_wait: bool = False
    ) -> Sent:
        """Replace a picture's caption and buttons.  ``can_wait``: a write that can wait (the live
        table, stale buttons removed): the edge lets the players' own messages and the group's
        announcements go first (docs/architecture.md §4 "Rate limits")."""
        ...

    async def edit_media(
        self,
        chat_id: int,
        message_id: int,
        photo: bytes | str,
        caption: str,
        markup: Keyboard | None = None,
        *,
        filename: str | None = None,
        can_wait: bool = False,
    ) -> Sent:
        """Replace a picture, its caption and buttons (``can_wait``: see :meth:`edit_caption`)."""
        ...

    async def edit_markup(
        self, chat_id: int, message_id: int, markup: Keyboard | None, *, can_wait: bool = False
    ) -> Sent:
        """Replace a message's buttons (``None`` removes them; ``can_wait``: see :meth:`edit_caption`)."""
        ...

    async def delete(self, chat_id: int, message_id: int, *, can_wait: bool = False) -> Sent:
        """Delete a message (``can_wait``: see :meth:`edit_caption`)."""
        ...


class Page(Protocol):
    """The Mini App's page, as presentation sees it (:class:`~kwx_bot.service.open_pages.OpenPages`)."""

    def changed(self, table_id: int) -> frozenset[int]:
        """The table's screens may have changed (its open pages look again); returns the ids of the
        users who have the table open now (a live events stream, or closed less than the grace
        period ago): the page shows them the change."""
        ...

    def viewers(self, table_id: int) -> frozenset[int]:
        """The users who have the table open now, as :meth:`changed` answers, telling nothing."""
        ...
