"""Test-side world helpers: make users and groups, and act as those users.

Mixed into :class:`~fakebot.core.FakeBotAPI`. Every action a user takes produces the update
Telegram would deliver to the bot (a ``message`` with ``bot_command`` entities, a
``callback_query``, a ``my_chat_member`` change, migration service messages), queued for the
bot's next ``getUpdates``. Typical use::

    alice = fake.create_user("Alice", language_code="zh-hans")
    group = fake.create_group("Mahjong night", members=[alice, bob, carol])
    fake.start_bot(alice)                        # /start in private: the bot may now DM Alice
    fake.user_command(alice, group, "new")       # "/new@<bot>" in the group
    lobby = await fake.wait_for_message(group, contains="Join")
    fake.press(alice, lobby, "Join")             # a callback_query update
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .methods import member_json
from .model import (
    ANONYMOUS_ADMIN_ID,
    CallbackQueryRecord,
    ChatType,
    FakeChat,
    FakeMessage,
    FakeUser,
    MemberStatus,
)

if TYPE_CHECKING:
    from .clock import FakeClock
    from .core import ChatRef, Signal


class Actors:
    """World-building and user-simulation helpers (mixed into ``FakeBotAPI``)."""

    if TYPE_CHECKING:  # provided by FakeBotAPI (fakebot/core.py), which mixes this class in
        bot: FakeUser
        clock: FakeClock
        privacy_mode: bool
        users: dict[int, FakeUser]
        chats: dict[int, FakeChat]
        callback_queries: dict[str, CallbackQueryRecord]
        _signal: Signal

        def chat(self, ref: ChatRef) -> FakeChat: ...
        def _push_update(self, kind: str, payload: dict[str, Any]) -> dict[str, Any]: ...
        def _next(self, counter: str) -> int: ...
        def _world_seq(self) -> int: ...
        def _now_date(self) -> int: ...
        def _add_message(self, chat: FakeChat, from_user: FakeUser, **fields: Any) -> FakeMessage: ...

    # ------------------------------------------------------------------ users & chats

    def create_user(
        self,
        first_name: str = "User",
        *,
        last_name: str | None = None,
        username: str | None = None,
        language_code: str | None = "en",
        user_id: int | None = None,
        started: bool = False,
    ) -> FakeUser:
        """Add a user. ``started=True`` marks them as having pressed Start already (no update)."""
        if user_id is None:
            user_id = 100000 + self._next("user")
        if user_id in self.users or user_id == self.bot.id:
            raise ValueError(f"user id {user_id} is taken")
        user = FakeUser(user_id, first_name, last_name, username, language_code, started=started)
        self.users[user_id] = user
        return user

    def private_chat(self, user: FakeUser) -> FakeChat:
        """The one-to-one chat between ``user`` and the bot (id = user id)."""
        chat = self.chats.get(user.id)
        if chat is None:
            chat = FakeChat(
                user.id,
                ChatType.PRIVATE,
                user=user,
                members={user.id: MemberStatus.MEMBER, self.bot.id: MemberStatus.MEMBER},
            )
            self.chats[user.id] = chat
        return chat

    def can_see(self, user: FakeUser, chat: ChatRef) -> bool:
        """Whether ``user``'s Telegram client shows ``chat``: their own private chat with the bot, or a
        group they are present in (member, administrator, creator, restricted) — never another
        user's private chat. The same rule :meth:`press` enforces for buttons."""
        try:
            target = self.chat(chat)
        except LookupError:
            return False
        if target.is_private:
            return target.user is user
        return target.status_of(user.id).is_present

    def visible_chats(self, user: FakeUser) -> list[FakeChat]:
        """The chats ``user`` can see (:meth:`can_see`): groups first (by id), then their private chat."""
        groups = [c for c in self.chats.values() if not c.is_private and self.can_see(user, c)]
        return [*sorted(groups, key=lambda c: c.id), self.private_chat(user)]

    def create_group(
        self,
        title: str = "Test group",
        *,
        members: Iterable[FakeUser] = (),
        admins: Iterable[FakeUser] = (),
        creator: FakeUser | None = None,
        supergroup: bool = False,
        username: str | None = None,
        bot_status: MemberStatus | str = MemberStatus.MEMBER,
        chat_id: int | None = None,
    ) -> FakeChat:
        """Add a group (or supergroup) the bot is already in (no update is queued).

        ``creator`` defaults to the first member; ``admins`` become administrators; the bot's
        own status is ``bot_status`` (``"administrator"`` lifts privacy mode).
        """
        if chat_id is None:
            number = self._next("group")
            chat_id = -(1000000000000 + 100 + number) if supergroup else -(400000000 + number)
        if chat_id in self.chats:
            raise ValueError(f"chat id {chat_id} is taken")
        chat = FakeChat(chat_id, ChatType.SUPERGROUP if supergroup else ChatType.GROUP, title=title, username=username)
        members = list(members)
        for user in members:
            chat.members[user.id] = MemberStatus.MEMBER
        for user in admins:
            chat.members[user.id] = MemberStatus.ADMINISTRATOR
        owner = creator or (members[0] if members else None)
        if owner is not None:
            chat.members[owner.id] = MemberStatus.CREATOR
        chat.members[self.bot.id] = MemberStatus(bot_status)
        self.chats[chat_id] = chat
        return chat

    def create_supergroup(self, title: str = "Test supergroup", **kwargs: Any) -> FakeChat:
        """:meth:`create_group` with ``supergroup=True``."""
        return self.create_group(title, supergroup=True, **kwargs)

    def set_member_status(self, chat: ChatRef, user: FakeUser, status: MemberStatus | str) -> None:
        """Change someone's status in a group (no update is queued; use for setup)."""
        self.chat(chat).members[user.id] = MemberStatus(status)

    # ------------------------------------------------------------------ messages from users

    def user_sends(
        self,
        user: FakeUser | None,
        chat: ChatRef,
        text: str,
        *,
        reply_to: FakeMessage | None = None,
        entities: list[dict[str, Any]] | None = None,
        anonymous_admin: bool = False,
    ) -> FakeMessage:
        """``user`` posts a text message in ``chat``; returns the message.

        A leading ``/command`` (or ``/command@bot``) gets its ``bot_command`` entity. The update
        is queued only if the bot would receive it: in groups with privacy mode on (and the bot
        not an admin), only commands for this bot or all bots, replies to the bot and service
        messages arrive. ``anonymous_admin=True`` posts as the group (``sender_chat``) via
        ``@GroupAnonymousBot``, as an anonymous administrator does.

        Raises:
            ValueError: if the user blocked the bot (unblock first) or is not in the group.
        """
        target = self.chat(chat)
        if anonymous_admin:
            sender = FakeUser(ANONYMOUS_ADMIN_ID, "Group", username="GroupAnonymousBot", is_bot=True)
        else:
            if user is None:
                raise ValueError("a message needs a sender (or anonymous_admin=True)")
            sender = user
            self._ensure_can_post(sender, target)
        if entities is None:
            entities = []
            command = text.split(maxsplit=1)[0] if text.startswith("/") else ""
            if len(command) > 1:
                entities.append({"type": "bot_command", "offset": 0, "length": len(command.encode("utf-16-le")) // 2})
        message = self._add_message(
            target,
            sender,
            text=text,
            entities=tuple(entities),
            source_text=text,
            reply_to=reply_to,
            sender_chat=target if anonymous_admin else None,
        )
        if target.is_private and user is not None:
            user.started = True
        if self._bot_receives(target, message):
            self._push_update("message", message.to_json())
        return message

    def user_command(
        self, user: FakeUser, chat: ChatRef, command: str, *args: str, mention: bool | None = None
    ) -> FakeMessage:
        """``user`` sends ``/command args...`` in ``chat``.

        ``mention``: append ``@<bot username>`` (default: yes in groups, no in private chats).
        """
        target = self.chat(chat)
        name = command.removeprefix("/")
        if mention is None:
            mention = not target.is_private
        if mention and "@" not in name:
            name = f"{name}@{self.bot.username}"
        return self.user_sends(user, target, " ".join([f"/{name}", *args]))

    def start_bot(self, user: FakeUser, payload: str | None = None) -> FakeMessage:
        """``user`` presses Start in the private chat (``/start`` or a deep link ``/start <payload>``).

        Afterwards the bot may send to the user.
        """
        if user.blocked:
            raise ValueError(f"{user!r} blocked the bot; unblock_bot() first")
        user.started = True
        return self.user_sends(user, self.private_chat(user), "/start" + (f" {payload}" if payload else ""))

    def _ensure_can_post(self, user: FakeUser, chat: FakeChat) -> None:
        if chat.is_private:
            if chat.user is not user:
                raise ValueError(f"{user!r} cannot post in {chat!r}")
            if user.blocked:
                raise ValueError(f"{user!r} blocked the bot; unblock_bot() first")
            return
        status = chat.status_of(user.id)
        if status is MemberStatus.KICKED:
            raise ValueError(f"{user!r} is banned from {chat!r}")
        if not status.is_present:
            chat.members[user.id] = MemberStatus.MEMBER

    def _bot_receives(self, chat: FakeChat, message: FakeMessage) -> bool:
        if chat.is_private:
            return True
        bot_status = chat.status_of(self.bot.id)
        if not bot_status.is_present or chat.migrated_to is not None:
            return False
        if message.service or not self.privacy_mode or bot_status.is_admin:
            return True
        if message.reply_to is not None and message.reply_to.from_user.id == self.bot.id:
            return True
        text = message.text or ""
        if text.startswith("/") and len(text) > 1:
            _, _, addressee = text.split(maxsplit=1)[0].partition("@")
            return not addressee or addressee.lower() == (self.bot.username or "").lower()
        return False

    # ------------------------------------------------------------------ buttons

    def press(
        self,
        user: FakeUser,
        message: FakeMessage,
        text: str | None = None,
        *,
        data: str | None = None,
    ) -> CallbackQueryRecord:
        """``user`` taps an inline button of ``message`` (found by label ``text`` and/or ``data``).

        Queues a ``callback_query`` update carrying the message's *current* state and returns the
        query record (``record.answer`` fills in when the bot answers).

        Raises:
            LookupError: if the message has no such button (a real client cannot press it).
            ValueError: if the message is deleted or the user cannot see it.
        """
        if text is None and data is None:
            raise ValueError("say which button: press(user, message, 'Label') or data='...'")
        button = message.find_button(text, data)
        if button.callback_data is None:
            raise ValueError(f"{button.text!r} is not a callback button ({button.raw})")
        return self._callback(user, message, button.callback_data)

    def forge_press(self, user: FakeUser, message: FakeMessage, data: str | None) -> CallbackQueryRecord:
        """A callback query with arbitrary ``data`` for ``message`` (what a modified client can
        send), bypassing the check that such a button exists."""
        return self._callback(user, message, data)

    def _callback(self, user: FakeUser, message: FakeMessage, data: str | None) -> CallbackQueryRecord:
        chat = message.chat
        if message.deleted:
            raise ValueError(f"{message!r} was deleted; nobody can press its buttons")
        if chat.is_private and chat.user is not user:
            raise ValueError(f"{user!r} cannot see {message!r} in someone else's private chat")
        if not chat.is_private and not chat.status_of(user.id).is_present:
            raise ValueError(f"{user!r} is not in {chat!r}")
        query_id = str(4_300_000_000_000_000_000 + self._next("query"))
        payload: dict[str, Any] = {
            "id": query_id,
            "from": user.to_json(),
            "chat_instance": chat.chat_instance,
            "message": message.to_json(),
        }
        if data is not None:
            payload["data"] = data
        update = self._push_update("callback_query", payload)
        record = CallbackQueryRecord(
            query_id, user, message, data, self.clock.monotonic(), update["update_id"], seq=self._world_seq()
        )
        self.callback_queries[query_id] = record
        return record

    # ------------------------------------------------------------------ membership & lifecycle

    def _push_my_chat_member(self, chat: FakeChat, by: FakeUser, old: MemberStatus, new: MemberStatus) -> None:
        self._push_update(
            "my_chat_member",
            {
                "chat": chat.to_json(),
                "from": by.to_json(),
                "date": self._now_date(),
                "old_chat_member": member_json(self.bot, old),
                "new_chat_member": member_json(self.bot, new),
            },
        )

    def block_bot(self, user: FakeUser) -> None:
        """``user`` blocks the bot: a ``my_chat_member`` (kicked) update, then 403 "bot was blocked
        by the user" for every call to their private chat."""
        user.blocked = True
        self._push_my_chat_member(self.private_chat(user), user, MemberStatus.MEMBER, MemberStatus.KICKED)

    def unblock_bot(self, user: FakeUser, *, restart: bool = False) -> FakeMessage | None:
        """``user`` unblocks the bot (``my_chat_member`` back to member). ``restart=True`` also
        presses the client's "Restart" button, which sends ``/start``."""
        user.blocked = False
        user.started = True
        self._push_my_chat_member(self.private_chat(user), user, MemberStatus.KICKED, MemberStatus.MEMBER)
        return self.start_bot(user) if restart else None

    def delete_private_chat(self, user: FakeUser) -> None:
        """``user`` deletes the chat history with the bot: every message there is gone (edits
        get "message to edit not found")."""
        for message in self.private_chat(user).messages.values():
            message.deleted = True
        self._signal.fire()

    def add_bot_to_group(self, chat: ChatRef, by: FakeUser, *, admin: bool = False) -> None:
        """``by`` adds the bot to a group: a ``my_chat_member`` update (and the bot can post)."""
        target = self.chat(chat)
        old = target.status_of(self.bot.id)
        new = MemberStatus.ADMINISTRATOR if admin else MemberStatus.MEMBER
        target.members[self.bot.id] = new
        self._push_my_chat_member(target, by, old, new)

    def remove_bot_from_group(self, chat: ChatRef, by: FakeUser, *, ban: bool = False) -> None:
        """``by`` removes (``ban``: bans) the bot from a group: a ``my_chat_member`` update, then
        403 for calls to that group."""
        target = self.chat(chat)
        old = target.status_of(self.bot.id)
        new = MemberStatus.KICKED if ban else MemberStatus.LEFT
        target.members[self.bot.id] = new
        self._push_my_chat_member(target, by, old, new)

    def migrate_group(self, chat: ChatRef, by: FakeUser | None = None) -> FakeChat:
        """Upgrade a group to a supergroup with a new id, as Telegram does.

        Queues the two service messages (``migrate_to_chat_id`` in the old group,
        ``migrate_from_chat_id`` in the new supergroup). Afterwards calls to the old id fail with
        400 "group chat was upgraded to a supergroup chat" + ``parameters.migrate_to_chat_id``
        (PTB raises ``ChatMigrated``). Returns the new supergroup.
        """
        old = self.chat(chat)
        if old.type is not ChatType.GROUP:
            raise ValueError(f"only basic groups migrate, not {old!r}")
        actor = by or next((self.users[u] for u, s in old.members.items() if s is MemberStatus.CREATOR), None)
        if actor is None:
            raise ValueError("say who upgrades the group: migrate_group(chat, by=user)")
        new = self.create_group(old.title or "", supergroup=True)
        new.members = dict(old.members)
        new.migrated_from = old.id
        migrate_to = self._add_message(old, actor, service={"migrate_to_chat_id": new.id})
        migrate_from = self._add_message(new, actor, service={"migrate_from_chat_id": old.id})
        self._push_update("message", migrate_to.to_json())
        self._push_update("message", migrate_from.to_json())
        old.migrated_to = new.id
        return new
