"""The service's side of the chat: every call goes to the edge's :class:`~.ports.Messenger`, and what
the result says about the world is then told to the service.

A 403 (``FORBIDDEN``) is a value the sender returns, not a call it makes: the outbox reads it and
awaits ``on_forbidden(chat_id)`` (the player is unreachable, or the bot left the group), and a
result that followed a group -> supergroup migration (``migrated_from``) awaits
``on_migrated(old, new)`` — both before the caller sees the result, as it always was.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable

from .buttons import Keyboard
from .ports import Messenger, Outcome, Sent

__all__ = ["Outbox"]

OnForbidden = Callable[[int], Awaitable[None]]
OnMigrated = Callable[[int, int], Awaitable[None]]


class Outbox:
    """A :class:`~.ports.Messenger` around another that reports refusals and migrations.  The two
    questions every delivery asks about the pace (``group_wait``, ``token_busy``) are the
    messenger's own methods: nothing to report, so no layer in between."""

    group_wait: Callable[[int, int], float]
    token_busy: Callable[[], bool]

    def __init__(self, messenger: Messenger, on_forbidden: OnForbidden, on_migrated: OnMigrated) -> None:
        self.messenger = messenger
        self.on_forbidden = on_forbidden
        self.on_migrated = on_migrated
        self.group_wait = messenger.group_wait
        self.token_busy = messenger.token_busy

    async def seen(self, sent: Sent) -> Sent:
        """Tell the service what ``sent`` says about the world (a refusal, a migration) and return it;
        the edge calls it too, through the service, for the replies it delivers (docs/architecture.md §4)."""
        if sent.migrated_from is not None and sent.chat_id is not None:
            await self.on_migrated(sent.migrated_from, sent.chat_id)
        if sent.outcome is Outcome.FORBIDDEN and sent.chat_id is not None:
            await self.on_forbidden(sent.chat_id)
        return sent

    def throttled(self, chats: Iterable[int], *, since: float) -> float:
        """See :meth:`.ports.Messenger.throttled`."""
        return self.messenger.throttled(chats, since=since)

    @property
    def username(self) -> str:
        """The bot's username."""
        return self.messenger.username

    async def send_text(
        self, chat_id: int, text: str, markup: Keyboard | None = None, *, notify: bool = True,
        reply_to: int | None = None,
    ) -> Sent:  # fmt: skip
        """See :meth:`.ports.Messenger.send_text`."""
        return await self.seen(await self.messenger.send_text(chat_id, text, markup, notify=notify, reply_to=reply_to))

    async def send_photo(
        self, chat_id: int, photo: bytes | str, caption: str, markup: Keyboard | None = None, *,
        notify: bool = True, filename: str | None = None,
    ) -> Sent:  # fmt: skip
        """See :meth:`.ports.Messenger.send_photo`."""
        return await self.seen(
            await self.messenger.send_photo(chat_id, photo, caption, markup, notify=notify, filename=filename)
        )

    async def send_document(
        self, chat_id: int, data: bytes, filename: str, caption: str = "", *, notify: bool = False
    ) -> Sent:
        """See :meth:`.ports.Messenger.send_document`."""
        return await self.seen(await self.messenger.send_document(chat_id, data, filename, caption, notify=notify))

    async def member_status(self, chat_id: int, user_id: int) -> Sent:
        """See :meth:`.ports.Messenger.member_status`."""
        return await self.seen(await self.messenger.member_status(chat_id, user_id))

    async def membership(self, chat_id: int, user_id: int) -> Sent:
        """See :meth:`.ports.Messenger.membership`."""
        return await self.seen(await self.messenger.membership(chat_id, user_id))

    async def is_member(self, chat_id: int, user_id: int) -> bool | None:
        """See :meth:`.ports.Messenger.is_member` (a refusal is told to the service)."""
        return (await self.membership(chat_id, user_id)).member

    async def edit_text(self, chat_id: int, message_id: int, text: str, markup: Keyboard | None = None) -> Sent:
        """See :meth:`.ports.Messenger.edit_text`."""
        return await self.seen(await self.messenger.edit_text(chat_id, message_id, text, markup))

    async def edit_caption(
        self, chat_id: int, message_id: int, caption: str, markup: Keyboard | None = None, *, can_wait: bool = False
    ) -> Sent:
        """See :meth:`.ports.Messenger.edit_caption`."""
        return await self.seen(
            await self.messenger.edit_caption(chat_id, message_id, caption, markup, can_wait=can_wait)
        )

    async def edit_media(
        self, chat_id: int, message_id: int, photo: bytes | str, caption: str, markup: Keyboard | None = None,
        *, filename: str | None = None, can_wait: bool = False,
    ) -> Sent:  # fmt: skip
        """See :meth:`.ports.Messenger.edit_media`."""
        return await self.seen(
            await self.messenger.edit_media(
                chat_id, message_id, photo, caption, markup, filename=filename, can_wait=can_wait
            )
        )

    async def edit_markup(
        self, chat_id: int, message_id: int, markup: Keyboard | None, *, can_wait: bool = False
    ) -> Sent:
        """See :meth:`.ports.Messenger.edit_markup`."""
        return await self.seen(await self.messenger.edit_markup(chat_id, message_id, markup, can_wait=can_wait))

    async def delete(self, chat_id: int, message_id: int, *, can_wait: bool = False) -> Sent:
        """See :meth:`.ports.Messenger.delete`."""
        return await self.seen(await self.messenger.delete(chat_id, message_id, can_wait=can_wait))
