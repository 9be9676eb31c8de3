"""Who is a member of which group: asked of Telegram (``getChatMember``) and remembered briefly
(docs/security.md §1).

A lobby's buttons must know whether someone who does not sit at the table is a member of the
table's group.  Asking Telegram on every press made a busy lobby crawl, so an answer is remembered
for a short while, per (group chat, user):

* "a member" for :data:`MEMBER_SECONDS` (60 s);
* "not a member" (left, banned, never there) for :data:`OUTSIDER_SECONDS` (5 s): long enough that
  one person pressing again and again costs one question every few seconds, short enough that
  someone who has just joined the group is not turned away for long;
* "Telegram could not say" (flood control, network) not at all: the next press asks again.

A seating never trusts a remembered "member": :meth:`Membership.check` with ``fresh=True`` asks
Telegram again, so someone who left the group a moment ago is refused a seat (a remembered "not a
member" may refuse one: a refusal is always safe).  What a remembered "member" still lets someone
do for at most 60 s after leaving the group is what a table's creator may do from outside a seat
at the table they opened — switch the lobby's language, add or remove AI seats, choose the game
and the size, deal the next hand — all of which the seated players may do too.

The answers are kept in memory (at most :data:`MAX_ENTRIES`, the oldest forgotten first); a
restart forgets them.  The caller asks before it locks its table: a question to Telegram never
holds a table up.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from .ports import Messenger

__all__ = ["MAX_ENTRIES", "MEMBER_SECONDS", "OUTSIDER_SECONDS", "Membership"]

MEMBER_SECONDS = 60.0
"""How long a "member" answer is used for a lobby button (never for a seating)."""
OUTSIDER_SECONDS = 5.0
"""How long a "not a member" answer is used (for refusals only)."""
MAX_ENTRIES = 10_000
"""Answers kept at most; past it the oldest are forgotten."""


class Membership:
    """Membership of users in group chats, asked through ``messenger`` and remembered (see the
    module docstring).  ``clock``: monotonic seconds."""

    def __init__(
        self,
        messenger: Messenger,
        *,
        member_seconds: float = MEMBER_SECONDS,
        outsider_seconds: float = OUTSIDER_SECONDS,
        size: int = MAX_ENTRIES,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.messenger = messenger
        self.member_seconds = member_seconds
        self.outsider_seconds = outsider_seconds
        self.size = size
        self.clock = clock
        self._answers: dict[tuple[int, int], tuple[float, bool]] = {}
        """(chat id, user id) -> (until, member), oldest first"""

    async def check(self, chat_id: int, user_id: int, *, fresh: bool = False) -> bool | None:
        """Whether ``user_id`` is a member of the group ``chat_id``; None if Telegram could not say
        (the caller refuses and asks to try again).  ``fresh``: for a seating — a remembered
        "member" is not enough, Telegram is asked (a remembered "not a member" still refuses)."""
        key = (chat_id, user_id)
        remembered = self.remembered(chat_id, user_id)
        if remembered is False or (remembered and not fresh):
            return remembered
        member = await self.messenger.is_member(chat_id, user_id)
        self._answers.pop(key, None)
        if member is not None:
            ttl = self.member_seconds if member else self.outsider_seconds
            self._answers[key] = (self.clock() + ttl, member)
            while len(self._answers) > self.size:
                del self._answers[next(iter(self._answers))]
        return member

    def remembered(self, chat_id: int, user_id: int) -> bool | None:
        """The answer still remembered for ``user_id`` in ``chat_id`` (None: none, or too old)."""
        key = (chat_id, user_id)
        entry = self._answers.get(key)
        if entry is None:
            return None
        until, member = entry
        if until <= self.clock():
            del self._answers[key]
            return None
        return member
