"""All outgoing Telegram calls, with every failure handled in one place (docs/architecture.md §4).

Each method returns a :class:`Sent` instead of raising:

* ``message is not modified`` -> ``NOT_MODIFIED`` (harmless: the message already shows that);
* the message to edit/delete is gone or no longer editable -> ``GONE`` (callers send a new one);
* 403 (the user never started the bot, blocked it, or the bot left the group), and "chat not found"
  for a private chat -> ``FORBIDDEN`` with the chat's id (the table service, told by its
  :class:`~kwx_bot.service.outbox.Outbox`, marks the player unreachable);
* 429 ``RetryAfter`` -> waited out (``sleep``, real time by default) and retried ``flood_retries``
  times, then ``FAILED``.  This is the bot's one retry layer (the rate limiter only paces): one
  WARNING line per wait, never a traceback.  The ``retry_after`` is honoured for the chat: while it
  runs, every other call to that chat waits too (:attr:`Sender.holds`, a
  :class:`~kwx_bot.edge.throttle.Holds`), and a 429 without a chat (a press's answer: the token's
  limit) holds every chat; other chats are never held up by a chat's 429.
  Each wait is recorded per chat in :attr:`Sender.throttle` (a
  :class:`~kwx_bot.edge.throttle.ThrottleLog`: time a player must not be charged for) and added to
  :attr:`Sender.throttled_seconds`;
* after :meth:`Sender.stop` (the process is shutting down) every wait ends at once and no new call
  is made (``FAILED``): a stop is never held up by Telegram; what was not shown is shown after the
  next start, from the state in the database;
* ``ChatMigrated`` -> one retry against the new chat id; the result names both (``chat_id``,
  ``migrated_from``);
* anything else (network errors, other 400s) -> logged with method and chat, ``FAILED``.

Reads (``getChatMember``) take their own path, :meth:`Sender._read`: asked once, never paced or
counted as writes, and a 429 is not waited out — the caller says "try again".

The sender never calls back into the service: what happened is in the :class:`Sent` it returns.
Callback queries are answered through :meth:`Sender.answer`, which ignores "query is too old" (a
press answered late, e.g. across a restart) and never raises.  All texts use HTML parse mode: every
user-provided string must be passed through :func:`html.escape` by the caller (see ``texts``).
"""

from __future__ import annotations

import asyncio
import logging
import warnings
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import replace
from typing import Any

from telegram import (
    Bot,
    CallbackQuery,
    ChatMember,
    ChatMemberRestricted,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    LinkPreviewOptions,
    Message,
    ReplyParameters,
    WebAppInfo,
)
from telegram.constants import ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden, RetryAfter, TelegramError

from ..service.buttons import Key, Keyboard
from ..service.ports import Outcome, Sent
from .codec import encode_press
from .metrics import NO_METRICS, Metrics
from .throttle import WRITE_PRIORITY, GroupBudget, Holds, Priority, ThrottleLog, TokenLoad

__all__ = ["Outcome", "Sender", "Sent", "markup", "retry_seconds"]

log = logging.getLogger("kwx.sender")

_GONE = (
    "message to edit not found",
    "message can't be edited",
    "message to delete not found",
    "message can't be deleted",
    "there is no caption in the message to edit",
    "there is no text in the message to edit",
    "there is no media in the message to edit",
    "message_id_invalid",
)
_NO_PREVIEW = LinkPreviewOptions(is_disabled=True)
_QUERY_OLD = ("query is too old", "query id is invalid", "query_id_invalid")


def retry_seconds(error: RetryAfter) -> float:
    """``retry_after`` in seconds (PTB 22 deprecates the int form; read it without warnings)."""
    value = getattr(error, "_retry_after", None)
    if value is not None and hasattr(value, "total_seconds"):
        return float(value.total_seconds())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        raw = error.retry_after
    return float(raw.total_seconds() if hasattr(raw, "total_seconds") else raw)


def _button(key: Key) -> InlineKeyboardButton:
    """One key as Telegram's button: a callback (its press encoded), a Mini App, or a link."""
    if key.press is not None:
        return InlineKeyboardButton(key.text, callback_data=encode_press(key.press))
    if key.web_app is not None:
        return InlineKeyboardButton(key.text, web_app=WebAppInfo(key.web_app))
    return InlineKeyboardButton(key.text, url=key.url)


def markup(keyboard: Keyboard) -> InlineKeyboardMarkup:
    """A :data:`~kwx_bot.service.buttons.Keyboard` as Telegram's inline keyboard (presses encoded
    by :func:`~kwx_bot.edge.codec.encode_press`)."""
    return InlineKeyboardMarkup([[_button(key) for key in row] for row in keyboard])


def markup_of(keyboard: Keyboard | None) -> InlineKeyboardMarkup | None:
    """:func:`markup`, or None for no buttons."""
    return None if keyboard is None else markup(keyboard)


def _filename(photo: bytes | str) -> str | None:
    """An upload's file name from its bytes (JPEG or PNG); None for a file_id."""
    if isinstance(photo, str):
        return None
    return "kwx.jpg" if photo[:2] == b"\xff\xd8" else "kwx.png"


WRITE_METHODS = frozenset(
    {"sendMessage", "sendPhoto", "sendDocument", "sendAnimation", "editMessageText", "editMessageCaption",
     "editMessageMedia", "editMessageReplyMarkup", "deleteMessage"}
)  # fmt: skip
"""Calls that count against a group's 20 messages a minute (:class:`~kwx_bot.edge.throttle.GroupBudget`)."""

Sleep = Callable[[float], Awaitable[None]]
_METRIC_OUTCOME = {
    Outcome.OK: "ok", Outcome.NOT_MODIFIED: "not_modified", Outcome.GONE: "gone", Outcome.FORBIDDEN: "403",
    Outcome.FAILED: "failed",
}  # fmt: skip


class Calls:
    """One call to Telegram made with the failure policy of the module docstring: waits, holds,
    retries and outcomes (:meth:`_call`); :class:`Sender` builds every Bot API call on it."""

    def __init__(
        self,
        bot: Bot,
        *,
        flood_retries: int = 3,
        max_flood_wait: float = 60.0,
        throttle: ThrottleLog | None = None,
        sleep: Sleep | None = None,
        budget: GroupBudget | None = None,
        load: TokenLoad | None = None,
        metrics: Metrics = NO_METRICS,
        holds: Holds | None = None,
        paced: bool = False,
    ) -> None:
        self.bot = bot
        self.metrics = metrics
        """Told how every call attempt ended and every flood wait (:mod:`kwx_bot.edge.metrics`)."""
        self.flood_retries = flood_retries
        self.max_flood_wait = max_flood_wait
        self.throttle = throttle or ThrottleLog()
        self.budget = budget or GroupBudget()
        """Writes per group in the last minute (every write Telegram took, edits included): recorded
        here, or, when ``paced``, by the :class:`~kwx_bot.edge.throttle.PacingRateLimiter` in front
        of the bot that shares it."""
        self.paced = paced
        self.holds = holds or Holds()
        """Chats (and the whole token) held by a 429 being waited out: their calls wait."""
        self._held: set[asyncio.Task[None]] = set()
        self.load = load or TokenLoad()
        """Writes asked for over all chats in the last seconds (the demand on the token)."""
        self.group_wait = self.budget.wait
        """``group_wait(chat_id, reserve)``: :meth:`GroupBudget.wait` over the writes this sender made
        (the pace questions every delivery asks are the throttle's own methods, no layer in between)."""
        self.token_busy = self.load.busy
        """``token_busy()``: :meth:`TokenLoad.busy` over the writes this sender was asked for."""
        self.sleep: Sleep = sleep or asyncio.sleep
        self.throttled_seconds = 0.0
        self._stopping = asyncio.Event()

    def stop(self) -> None:
        """The process is stopping: end every flood wait now and make no more calls."""
        self._stopping.set()

    @property
    def stopping(self) -> bool:
        """:meth:`stop` was called."""
        return self._stopping.is_set()

    async def _wait(self, seconds: float) -> None:
        """Sleep ``seconds`` (through :attr:`sleep`), or less if :meth:`stop` is called meanwhile."""
        await self._unless_stopped(self.sleep(seconds))

    async def _unless_stopped(self, waiting: Awaitable[Any]) -> None:
        """Await ``waiting``, or stop awaiting it (cancelled) when :meth:`stop` is called."""
        if self._stopping.is_set():
            waiting.close() if asyncio.iscoroutine(waiting) else None
            return
        ends = asyncio.ensure_future(waiting)
        stopping = asyncio.ensure_future(self._stopping.wait())
        try:
            await asyncio.wait({ends, stopping}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (ends, stopping):
                task.cancel()

    @property
    def username(self) -> str:
        """The bot's username (``"bot"`` before ``getMe``)."""
        return self.bot.username or "bot"

    def throttled(self, chats: Iterable[int], *, since: float) -> float:
        """Seconds of flood-control waits for ``chats`` since ``since`` (see :class:`ThrottleLog`)."""
        return self.throttle.blocked(chats, since=since)

    async def _honour_holds(self, chat_id: int | None) -> None:
        """Wait while a 429 holds ``chat_id`` or the whole token (or until :meth:`stop`); the wait
        is time the chat was held back by Telegram (:attr:`throttle`)."""
        if not self.holds.held(chat_id) or self._stopping.is_set():
            return
        token = self.throttle.begin(chat_id) if chat_id is not None else None
        try:
            await self._unless_stopped(self.holds.wait(chat_id))
        finally:
            if token is not None and chat_id is not None:
                self.throttle.end(chat_id, token)

    def _hold_later(self, chat_id: int | None, seconds: float) -> None:
        """Hold ``chat_id`` (None: every chat) for ``seconds`` in the background: a 429 whose call is
        not retried still makes the chat's other calls wait it out."""
        task = asyncio.get_running_loop().create_task(self.holds.hold_for(chat_id, lambda: self._wait(seconds)))
        self._held.add(task)
        task.add_done_callback(self._held.discard)

    async def _call(
        self, what: str, chat_id: int, fn: Callable[[int], Awaitable[Any]], *, can_wait: bool = False
    ) -> tuple[Sent, Any]:
        """Run ``fn(chat_id)`` under the failure policy: the outcome (with the chat and, after a
        migration, the old chat) and what the call returned (None unless OK).  ``can_wait``: a
        write that can wait (:attr:`~kwx_bot.edge.throttle.Priority.BACKGROUND` for the pacer)."""
        write = what in WRITE_METHODS
        if write:
            self.load.record()
        priority = WRITE_PRIORITY.set(Priority.BACKGROUND if can_wait else None)
        try:
            return await self._attempts(what, chat_id, fn, write)
        finally:
            WRITE_PRIORITY.reset(priority)

    async def _attempts(
        self, what: str, first: int, fn: Callable[[int], Awaitable[Any]], write: bool
    ) -> tuple[Sent, Any]:
        """The attempts of :meth:`_call` (a migration's retry, the 429 retries)."""
        chat_id = first
        floods = 0
        count = write and not self.paced  # with pacing, the rate limiter counts the group's writes

        def done(outcome: Outcome, value: Any = None, *, made: bool = True) -> tuple[Sent, Any]:
            if made:
                self.metrics.send(_METRIC_OUTCOME[outcome])
            return Sent(outcome, chat_id=chat_id, migrated_from=first if chat_id != first else None), value

        while True:
            await self._honour_holds(chat_id)
            if self._stopping.is_set():
                return done(Outcome.FAILED, made=False)
            try:
                result = await fn(chat_id)
                if count:
                    self.budget.record(chat_id)
                return done(Outcome.OK, result)
            except RetryAfter as e:
                wait = min(retry_seconds(e), self.max_flood_wait)
                if floods >= self.flood_retries:  # this last 429 counts as the call's "failed"
                    log.warning("%s to chat %s: flood control, giving up after %d retries", what, chat_id, floods)
                    self._hold_later(chat_id, wait)
                    return done(Outcome.FAILED)
                floods += 1
                self.metrics.send("429")
                self.metrics.flood_wait(wait)
                self.throttled_seconds += wait
                log.warning("%s to chat %s: flood control, waiting %.1f s (retry %d)", what, chat_id, wait, floods)
                token = self.throttle.begin(chat_id)
                self.holds.begin(chat_id)  # the chat's other calls wait it out too
                try:
                    await self._wait(wait + 0.05)
                finally:
                    self.holds.end(chat_id)
                    self.throttle.end(chat_id, token)
            except ChatMigrated as e:
                if chat_id != first:
                    return done(Outcome.FAILED)
                log.info("chat %s migrated to %s", chat_id, e.new_chat_id)
                chat_id = e.new_chat_id
            except Forbidden as e:
                log.info("%s to chat %s forbidden: %s", what, chat_id, e)
                return done(Outcome.FORBIDDEN)
            except BadRequest as e:
                if count:  # Telegram took the call (and may count it)
                    self.budget.record(chat_id)
                text = str(e).lower()
                if "not modified" in text:
                    return done(Outcome.NOT_MODIFIED)
                if any(g in text for g in _GONE):
                    return done(Outcome.GONE)
                if "chat not found" in text and chat_id > 0:
                    return done(Outcome.FORBIDDEN)
                log.error("%s to chat %s refused: %s", what, chat_id, e)
                return done(Outcome.FAILED)
            except TelegramError as e:
                if self._stopping.is_set():  # the rate limiter let go of the call: we are stopping
                    log.debug("%s to chat %s not made: stopping", what, chat_id)
                    return done(Outcome.FAILED, made=False)
                log.warning("%s to chat %s failed: %s: %s", what, chat_id, type(e).__name__, e)
                return done(Outcome.FAILED)

    @staticmethod
    def _message_sent(sent: Sent, msg: Any) -> Sent:
        if sent.outcome is not Outcome.OK or not isinstance(msg, Message):
            return sent
        file_id = msg.photo[-1].file_id if msg.photo else None
        return replace(sent, message_id=msg.message_id, file_id=file_id, chat_id=msg.chat_id)


class Sender(Calls):
    """Wraps a PTB ``Bot``: every call the bot makes (answers, sends, edits, deletions, reads),
    each through :meth:`Calls._call`; see the module docstring for the failure policy."""

    async def answer(
        self, query: CallbackQuery, text: str | None = None, *, alert: bool = False, url: str | None = None
    ) -> bool:
        """Answer a callback query (toast ``text``, popup if ``alert``, or open ``url``); never raises.
        It is no message write (never paced) but waits while a 429 holds the whole token; a 429 for
        it (it has no chat: the token's limit) holds every chat for its ``retry_after``."""
        await self._honour_holds(None)
        try:
            await query.answer(text=text[:200] if text else None, show_alert=alert, url=url)
            return True
        except RetryAfter as e:
            wait = min(retry_seconds(e), self.max_flood_wait)
            log.warning("answerCallbackQuery: flood control, every chat waits %.1f s", wait)
            self.metrics.send("429")
            self._hold_later(None, wait + 0.05)
        except BadRequest as e:
            if any(q in str(e).lower() for q in _QUERY_OLD):
                log.debug("callback query %s too old to answer", query.id)
            else:
                log.warning("answerCallbackQuery refused: %s", e)
        except TelegramError as e:
            log.warning("answerCallbackQuery failed: %s: %s", type(e).__name__, e)
        return False

    async def send_text(
        self,
        chat_id: int,
        text: str,
        markup: Keyboard | None = None,
        *,
        notify: bool = True,
        reply_to: int | None = None,
    ) -> Sent:
        """sendMessage (HTML, no link previews)."""
        reply = ReplyParameters(reply_to, allow_sending_without_reply=True) if reply_to else None

        async def call(cid: int) -> Any:
            return await self.bot.send_message(
                cid, text, parse_mode=ParseMode.HTML, reply_markup=markup_of(markup), disable_notification=not notify,
                reply_parameters=reply, link_preview_options=_NO_PREVIEW,
            )  # fmt: skip

        return self._message_sent(*await self._call("sendMessage", chat_id, call))

    async def send_photo(
        self,
        chat_id: int,
        photo: bytes | str,
        caption: str,
        markup: Keyboard | None = None,
        *,
        notify: bool = True,
        filename: str | None = None,
        reply_to: int | None = None,
    ) -> Sent:
        """sendPhoto from PNG/JPEG bytes or a known ``file_id``; returns the largest size's file_id.
        ``reply_to``: the message it answers (sent anyway if that message is gone)."""
        reply = ReplyParameters(reply_to, allow_sending_without_reply=True) if reply_to else None

        async def call(cid: int) -> Any:
            return await self.bot.send_photo(
                cid, photo, caption=caption, parse_mode=ParseMode.HTML, reply_markup=markup_of(markup),
                disable_notification=not notify, filename=filename or _filename(photo), reply_parameters=reply,
            )  # fmt: skip

        return self._message_sent(*await self._call("sendPhoto", chat_id, call))

    async def send_document(
        self, chat_id: int, data: bytes, filename: str, caption: str = "", *, notify: bool = False
    ) -> Sent:
        """sendDocument of ``data`` (bytes) named ``filename`` with an HTML caption."""
        return await self._send_file("sendDocument", self.bot.send_document, chat_id, data, filename, caption, notify)

    async def send_animation(
        self,
        chat_id: int,
        data: bytes,
        filename: str,
        caption: str = "",
        markup: Keyboard | None = None,
        *,
        notify: bool = False,
    ) -> Sent:
        """sendAnimation of ``data`` (GIF bytes) named ``filename`` with an HTML caption and optional
        buttons (docs/telegram.md §7)."""
        return await self._send_file(
            "sendAnimation", self.bot.send_animation, chat_id, data, filename, caption, notify, markup
        )

    async def _send_file(
        self,
        what: str,
        method: Callable[..., Awaitable[Any]],
        chat_id: int,
        data: bytes,
        filename: str,
        caption: str,
        notify: bool,
        markup: Keyboard | None = None,
    ) -> Sent:
        """One file upload (``what``: the Bot API method, ``method``: the PTB ``Bot`` call taking the
        chat id and the file) under the failure policy of :meth:`_call`."""

        async def call(cid: int) -> Any:
            return await method(
                cid, data, filename=filename, caption=caption or None, parse_mode=ParseMode.HTML,
                disable_notification=not notify, reply_markup=markup_of(markup),
            )  # fmt: skip

        return self._message_sent(*await self._call(what, chat_id, call))

    async def _read(self, what: str, chat_id: int, fn: Callable[[int], Awaitable[Any]]) -> tuple[Sent, Any]:
        """Run the read ``fn(chat_id)`` (``getChatMember``) once: not paced as a write (the rate
        limiter passes reads, :class:`~kwx_bot.edge.throttle.PacingRateLimiter`), not counted as one,
        and never waited for — a 429 is ``FAILED`` at once and the caller asks the user to try again,
        so a read never holds up its chat's next update.  A migrated group is asked under its new id
        (the result names both, as :meth:`_call`'s); a 403 is ``FORBIDDEN``; anything else ``FAILED``."""
        first = chat_id
        while not self._stopping.is_set():
            value, outcome, label = None, Outcome.FAILED, None
            try:
                value, outcome = await fn(chat_id), Outcome.OK
            except ChatMigrated as e:
                if chat_id == first:
                    chat_id = e.new_chat_id
                    continue
            except RetryAfter as e:
                label = "429"
                log.warning("%s in chat %s: flood control (%.0f s); not waited for", what, chat_id, retry_seconds(e))
            except Forbidden as e:
                log.info("%s in chat %s forbidden: %s", what, chat_id, e)
                outcome = Outcome.FORBIDDEN
            except TelegramError as e:
                log.warning("%s in chat %s failed: %s: %s", what, chat_id, type(e).__name__, e)
            self.metrics.send(label or _METRIC_OUTCOME[outcome])
            return Sent(outcome, chat_id=chat_id, migrated_from=first if chat_id != first else None), value
        return Sent(Outcome.FAILED, chat_id=chat_id), None

    async def member_status(self, chat_id: int, user_id: int) -> Sent:
        """``getChatMember`` (a read, :meth:`_read`): ``status`` = the user's status in a group
        (``creator``, ``administrator``, ``member``, ``restricted``, ``left``, ``kicked``), None if
        Telegram would not say."""

        async def call(cid: int) -> Any:
            return await self.bot.get_chat_member(cid, user_id)

        sent, member = await self._read("getChatMember", chat_id, call)
        return replace(sent, status=str(member.status)) if isinstance(member, ChatMember) else sent

    async def membership(self, chat_id: int, user_id: int) -> Sent:
        """``getChatMember`` (a read, :meth:`_read`): ``member`` = whether the user is a member of the
        group now (creator, administrator, member, or restricted but still a member); False if they
        left, were banned or are unknown to the group; None if Telegram would not answer (flood,
        network), so the caller can refuse and ask to try again instead of guessing."""

        async def call(cid: int) -> Any:
            try:
                return await self.bot.get_chat_member(cid, user_id)
            except BadRequest as e:  # "user not found": never seen in the group — an answer, not a failure
                if "not found" in str(e).lower() and "chat not found" not in str(e).lower():
                    return False
                raise

        sent, member = await self._read("getChatMember", chat_id, call)
        if sent.outcome is not Outcome.OK:
            return sent
        if isinstance(member, ChatMemberRestricted):
            return replace(sent, member=bool(member.is_member))
        if isinstance(member, ChatMember):
            return replace(
                sent, member=member.status in (ChatMember.OWNER, ChatMember.ADMINISTRATOR, ChatMember.MEMBER)
            )
        return replace(sent, member=False)

    async def is_member(self, chat_id: int, user_id: int) -> bool | None:
        """:meth:`membership`'s answer alone."""
        return (await self.membership(chat_id, user_id)).member

    async def edit_text(self, chat_id: int, message_id: int, text: str, markup: Keyboard | None = None) -> Sent:
        """editMessageText (HTML); ``markup=None`` removes the buttons."""

        async def call(cid: int) -> Any:
            return await self.bot.edit_message_text(
                text, cid, message_id, parse_mode=ParseMode.HTML, reply_markup=markup_of(markup)
            )

        return self._message_sent(*await self._call("editMessageText", chat_id, call))

    async def edit_caption(
        self, chat_id: int, message_id: int, caption: str, markup: Keyboard | None = None, *, can_wait: bool = False
    ) -> Sent:
        """editMessageCaption (HTML); ``markup=None`` removes the buttons; ``can_wait``: a write that can
        wait (paced after the others, docs/architecture.md §4 "Rate limits")."""

        async def call(cid: int) -> Any:
            return await self.bot.edit_message_caption(
                cid, message_id, caption=caption, parse_mode=ParseMode.HTML, reply_markup=markup_of(markup)
            )

        return self._message_sent(*await self._call("editMessageCaption", chat_id, call, can_wait=can_wait))

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
        """editMessageMedia with a new photo (bytes or file_id) and caption (``can_wait``: see
        :meth:`edit_caption`)."""
        media = InputMediaPhoto(
            photo, caption=caption, parse_mode=ParseMode.HTML, filename=filename or _filename(photo)
        )

        async def call(cid: int) -> Any:
            return await self.bot.edit_message_media(media, cid, message_id, reply_markup=markup_of(markup))

        return self._message_sent(*await self._call("editMessageMedia", chat_id, call, can_wait=can_wait))

    async def edit_markup(
        self, chat_id: int, message_id: int, markup: Keyboard | None, *, can_wait: bool = False
    ) -> Sent:
        """editMessageReplyMarkup; ``None`` removes the buttons (``can_wait``: see :meth:`edit_caption`)."""

        async def call(cid: int) -> Any:
            return await self.bot.edit_message_reply_markup(cid, message_id, reply_markup=markup_of(markup))

        return self._message_sent(*await self._call("editMessageReplyMarkup", chat_id, call, can_wait=can_wait))

    async def delete(self, chat_id: int, message_id: int, *, can_wait: bool = False) -> Sent:
        """deleteMessage (a message already gone counts as ``GONE``; ``can_wait``: see :meth:`edit_caption`)."""

        async def call(cid: int) -> Any:
            return await self.bot.delete_message(cid, message_id)

        sent, _ = await self._call("deleteMessage", chat_id, call, can_wait=can_wait)
        return sent
