"""Stand-ins for the service's ports: a recording :class:`~kwx_bot.service.ports.Messenger` and
pictures that cost nothing (rendering is tested in tests/render)."""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from kwx_bot.service.buttons import Button, Keyboard, Op
from kwx_bot.service.ports import Outcome, Sent


def _tiny_png() -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (96, 48), (20, 90, 40)).save(buf, "PNG")
    return buf.getvalue()


class TinyPictures:
    """Pictures stand-in: a small valid PNG."""

    async def hand(
        self, view: Any, lang: str = "zh_CN", protected: Any = (), game: str = "kawuxing", names: Any = ()
    ) -> bytes:
        return _tiny_png()

    async def table(
        self,
        view: Any,
        names: Sequence[str],
        lang: str = "zh_CN",
        totals: Sequence[int] | None = None,
        game: str = "kawuxing",
    ) -> bytes:
        return _tiny_png()

    async def reveal(
        self, view: Any, seat: int, names: Sequence[str], lang: str = "zh_CN", game: str = "kawuxing"
    ) -> bytes:
        return _tiny_png()

    async def result(
        self,
        view: Any,
        names: Sequence[str],
        lang: str = "zh_CN",
        hands: Sequence[Any] | None = None,
        game: str = "kawuxing",
    ) -> bytes:
        return _tiny_png()

    async def stats(self, sheet: Any, lang: str = "zh_CN") -> bytes:
        return _tiny_png()

    async def replay(
        self,
        views: Sequence[Any],
        names: Sequence[str],
        lang: str = "zh_CN",
        game: str = "",
        hands: Sequence[Any] | None = None,
    ) -> bytes:
        buf = io.BytesIO()
        frames = [Image.new("RGB", (96, 48), (20, 90 + i % 100, 40)) for i in range(len(views) + 1)]
        frames[0].save(buf, "GIF", save_all=True, append_images=frames[1:])
        return buf.getvalue()


@dataclass
class Message:
    """A message as the chat shows it now."""

    chat_id: int
    message_id: int
    text: str
    markup: Keyboard | None
    photo: bool = False

    @property
    def presses(self) -> list[Button]:
        """The table buttons on it, row by row."""
        return [k.press for row in self.markup or () for k in row if isinstance(k.press, Button)]

    def press(self, op: Op, tile: Any = None) -> Button:
        """The button with ``op`` (and ``tile``); AssertionError if the message has none."""
        found = [b for b in self.presses if b.op is op and (tile is None or b.tile == tile)]
        assert found, f"no {op.name} {tile or ''} button on {self.text[:60]!r}: {self.presses}"
        return found[0]


@dataclass
class RecordingMessenger:
    """Every call recorded; messages kept as the chat would show them.  Chats in ``refused``
    answer 403 (``FORBIDDEN``); users in ``outsiders`` are members of no group."""

    username: str = "kwx_test_bot"
    calls: list[tuple[str, int]] = field(default_factory=list)
    messages: dict[tuple[int, int], Message] = field(default_factory=dict)
    refused: set[int] = field(default_factory=set)
    outsiders: set[int] = field(default_factory=set)
    """Users who are not members of any group."""
    busy: bool = False
    """What :meth:`token_busy` answers (the token's demand near Telegram's limit)."""
    _next_id: int = 100

    def throttled(self, chats: Iterable[int], *, since: float) -> float:
        return 0.0

    def group_wait(self, chat_id: int, reserve: int) -> float:
        return 0.0

    def token_busy(self) -> bool:
        return self.busy

    def _new(self, method: str, chat_id: int, text: str, markup: Keyboard | None, photo: bool = False) -> Sent:
        self.calls.append((method, chat_id))
        if chat_id in self.refused:
            return Sent(Outcome.FORBIDDEN, chat_id=chat_id)
        self._next_id += 1
        self.messages[(chat_id, self._next_id)] = Message(chat_id, self._next_id, text, markup, photo)
        return Sent(Outcome.OK, self._next_id, "file-id" if photo else None, chat_id)

    def _edit(self, method: str, chat_id: int, message_id: int, **changes: Any) -> Sent:
        self.calls.append((method, chat_id))
        if chat_id in self.refused:
            return Sent(Outcome.FORBIDDEN, chat_id=chat_id)
        message = self.messages.get((chat_id, message_id))
        if message is None:
            return Sent(Outcome.GONE, chat_id=chat_id)
        for key, value in changes.items():
            setattr(message, key, value)
        return Sent(Outcome.OK, message_id, chat_id=chat_id)

    async def send_text(
        self, chat_id: int, text: str, markup: Keyboard | None = None, *, notify: bool = True,
        reply_to: int | None = None,
    ) -> Sent:  # fmt: skip
        return self._new("send_text", chat_id, text, markup)

    async def send_photo(
        self, chat_id: int, photo: bytes | str, caption: str, markup: Keyboard | None = None, *,
        notify: bool = True, filename: str | None = None,
    ) -> Sent:  # fmt: skip
        return self._new("send_photo", chat_id, caption, markup, photo=True)

    async def send_document(
        self, chat_id: int, data: bytes, filename: str, caption: str = "", *, notify: bool = False
    ) -> Sent:
        return self._new("send_document", chat_id, caption, None)

    async def member_status(self, chat_id: int, user_id: int) -> Sent:
        self.calls.append(("member_status", chat_id))
        return Sent(Outcome.OK, chat_id=chat_id, status="member")

    async def membership(self, chat_id: int, user_id: int) -> Sent:
        self.calls.append(("membership", chat_id))
        return Sent(Outcome.OK, chat_id=chat_id, member=user_id not in self.outsiders)

    async def is_member(self, chat_id: int, user_id: int) -> bool | None:
        return (await self.membership(chat_id, user_id)).member

    async def edit_text(self, chat_id: int, message_id: int, text: str, markup: Keyboard | None = None) -> Sent:
        return self._edit("edit_text", chat_id, message_id, text=text, markup=markup)

    async def edit_caption(
        self, chat_id: int, message_id: int, caption: str, markup: Keyboard | None = None, *, can_wait: bool = False
    ) -> Sent:
        return self._edit("edit_caption", chat_id, message_id, text=caption, markup=markup)

    async def edit_media(
        self, chat_id: int, message_id: int, photo: bytes | str, caption: str, markup: Keyboard | None = None,
        *, filename: str | None = None, can_wait: bool = False,
    ) -> Sent:  # fmt: skip
        return self._edit("edit_media", chat_id, message_id, text=caption, markup=markup)

    async def edit_markup(self, chat_id: int, message_id: int, markup: Keyboard | None, *, can_wait: bool = False
                          ) -> Sent:  # fmt: skip
        return self._edit("edit_markup", chat_id, message_id, markup=markup)

    async def delete(self, chat_id: int, message_id: int, *, can_wait: bool = False) -> Sent:
        sent = self._edit("delete", chat_id, message_id)
        self.messages.pop((chat_id, message_id), None)
        return sent

    def in_chat(self, chat_id: int) -> list[Message]:
        """The chat's messages, oldest first."""
        return [m for (c, _), m in sorted(self.messages.items()) if c == chat_id]

    def last(self, chat_id: int) -> Message:
        """The chat's newest message."""
        messages = self.in_chat(chat_id)
        assert messages, f"nothing was sent to chat {chat_id}"
        return messages[-1]
