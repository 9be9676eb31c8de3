"""``FakeBotAPI``: an in-memory Telegram Bot API server for end-to-end tests.

One object holds the whole world (bot, users, chats, messages, files, pending updates, callback
queries, registered commands, the call log) and answers Bot API calls through one entry point::

    status, body = await fake.handle("sendMessage", {"chat_id": "42", "text": "hi"}, files={})

Transports (:mod:`.http` — a real aiohttp server; :mod:`.inprocess` — a PTB ``BaseRequest``) only
translate to and from that call. Tests drive the world with the helpers from :mod:`.actors`
(users send commands, press buttons, block the bot, ...) and read it with the helpers below
(messages per chat, the call log, ``await fake.wait_for(...)``).

Method implementations live in :mod:`.methods`, limits in :mod:`.limits`, formatting in
:mod:`.entities`, flood control in :mod:`.faults`.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from .actors import Actors
from .clock import FakeClock
from .errors import ApiError, fake_limitation, too_many_requests
from .faults import FaultInjector
from .methods import API_METHODS, ApiMethods
from .model import ApiCall, CallbackQueryRecord, ChatType, FakeChat, FakeMessage, FakeUser, StoredFile
from .params import Params, UploadedFile
from .webhook import WebhookDelivery

_log = logging.getLogger("fakebot")

T = TypeVar("T")
ChatRef = FakeChat | FakeUser | int
"""A chat given as the chat itself, a user (= their private chat) or a chat id."""

DEFAULT_TOKEN = "123456789:TEST-kwx-fake-token"
MESSAGE_WRITE_METHODS = frozenset(
    {
        "sendMessage",
        "sendPhoto",
        "sendDocument",
        "sendAnimation",
        "editMessageText",
        "editMessageCaption",
        "editMessageMedia",
        "editMessageReplyMarkup",
    }
)
"""Methods that send or edit a chat message (docs/architecture.md §7 counts these per turn)."""
DEFAULT_EXCLUDED_UPDATES = frozenset({"chat_member", "message_reaction", "message_reaction_count"})
"""Update kinds Telegram does not send unless ``allowed_updates`` names them."""


class WaitTimeout(AssertionError):
    """``wait_for`` gave up; the message explains what was awaited and what the bot last did."""


class Signal:
    """Wakes every waiter when the world changes.

    A future-based broadcast rather than ``asyncio.Condition`` because the world also changes
    from synchronous test helpers (``fake.press(...)``), which cannot acquire a Condition's lock.
    The future is re-created per event loop, so one fake survives several test loops.
    """

    def __init__(self) -> None:
        self._future: asyncio.Future[None] | None = None

    def fire(self) -> None:
        future, self._future = self._future, None
        if future is not None and not future.done():
            future.set_result(None)

    async def wait(self, timeout: float) -> None:
        loop = asyncio.get_running_loop()
        if self._future is None or self._future.done() or self._future.get_loop() is not loop:
            self._future = loop.create_future()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(self._future), max(0.0, timeout))


class FakeBotAPI(ApiMethods, Actors):
    """The fake Bot API server's state and behaviour.

    Args:
        token: bot token; the bot id is the part before ``:``.
        bot_username: the bot's @username (``/cmd@<bot_username>`` is addressed to it).
        bot_first_name: the bot's display name.
        clock: time source (a :class:`FakeClock` by default; ``fake.clock.advance(s)`` jumps).
        seed: seed for random flood injection.
        callback_query_ttl: seconds after which an unanswered callback query can no longer be
            answered ("query is too old ..."); Telegram's is undocumented, 15 s is a fair guess.
        privacy_mode: group privacy mode (on by default, as on Telegram): in groups the bot only
            receives commands (addressed to it or to all bots), replies to its own messages and
            service messages — unless it is an administrator.
        latency: seconds every call waits before being handled (0 = instant).
        record_get_updates: also log ``getUpdates`` calls in :attr:`calls` (off: they would
            swamp call counting; :attr:`poll_count` counts them anyway).

    Attributes (read freely in tests):
        bot, users, chats, files, calls, callback_queries, updates (pending), update_log (every
        update ever queued), commands, faults (:class:`FaultInjector`), clock, internal_errors.
    """

    def __init__(
        self,
        *,
        token: str = DEFAULT_TOKEN,
        bot_username: str = "kwx_test_bot",
        bot_first_name: str = "KWX Test Bot",
        clock: FakeClock | None = None,
        seed: int = 0,
        callback_query_ttl: float = 15.0,
        privacy_mode: bool = True,
        latency: float = 0.0,
        record_get_updates: bool = False,
    ) -> None:
        bot_id_text, _, secret = token.partition(":")
        if not bot_id_text.isdigit() or not secret:
            raise ValueError(f"a bot token looks like '123456:ABC...', got {token!r}")
        self.token = token
        self.clock = clock or FakeClock()
        self.bot = FakeUser(int(bot_id_text), bot_first_name, username=bot_username, is_bot=True)
        self.privacy_mode = privacy_mode
        self.callback_query_ttl = callback_query_ttl
        self.latency = latency
        self.record_get_updates = record_get_updates
        self.users: dict[int, FakeUser] = {}
        self.chats: dict[int, FakeChat] = {}
        self.files: dict[str, StoredFile] = {}
        self.files_by_path: dict[str, StoredFile] = {}
        self.calls: list[ApiCall] = []
        self.callback_queries: dict[str, CallbackQueryRecord] = {}
        self.commands: dict[tuple[str, str], list[dict[str, str]]] = {}
        self.updates: list[dict[str, Any]] = []
        self.update_log: list[dict[str, Any]] = []
        self.dropped_updates: list[dict[str, Any]] = []
        self.faults = FaultInjector(self.clock.monotonic, seed)
        self.internal_errors: list[BaseException] = []
        self.webhook_url = ""
        self.webhook: WebhookDelivery | None = None
        """The running delivery while a webhook is set (``.delivered``, ``.last_error_message``)."""
        self.webhook_routes: dict[str, str] = {}
        """A reverse proxy: public ``https://`` URL prefix -> local URL prefix the fake posts to."""
        self.allowed_updates: frozenset[str] | None = None
        self.poll_count = 0
        self.closed = False
        self._signal = Signal()
        self._call_seq = 0
        self._next_update_id = 1
        self._delivered_up_to = 0
        self._poll_generation = 0
        self._current_call: ApiCall | None = None
        self._last_activity = 0.0
        self._counters: dict[str, int] = {}

    # ================================================================== the one entry point

    async def handle(
        self, method: str, params: Mapping[str, Any] | None = None, files: Mapping[str, UploadedFile] | None = None
    ) -> tuple[int, dict[str, Any]]:
        """Answer one Bot API call: ``(HTTP status, JSON body)``.

        ``params`` are wire strings (JSON for non-strings) or native values; ``files`` maps
        multipart part names to ``(filename, bytes, mime type)``. Never raises for Bot API
        errors; a bug inside the fake answers 500 and is kept in :attr:`internal_errors`.
        """
        files = dict(files or {})
        lname = method.lower()
        self._call_seq += 1
        call = ApiCall(
            self._call_seq,
            method,
            dict(params or {}),
            {name: (f[0], len(f[1])) for name, f in files.items()},
            self.clock.monotonic(),
        )
        if lname != "getupdates":
            self._last_activity = asyncio.get_running_loop().time()
        if self.latency:
            await asyncio.sleep(self.latency)
        body: dict[str, Any]
        try:
            implementation = API_METHODS.get(lname)
            if implementation is None:
                raise fake_limitation(f"method {method!r} is not implemented by the fake Bot API")
            p = Params(params, files)
            flood_chat = self._flood_chat(p)
            retry_after = self.faults.check(
                lname, flood_chat.id if flood_chat else None, group=flood_chat is not None and not flood_chat.is_private
            )
            if retry_after is not None:
                call.chat_id = flood_chat.id if flood_chat else None
                raise too_many_requests(retry_after)
            self._current_call = call
            try:
                result = implementation(self, p)
            finally:
                self._current_call = None
            if inspect.isawaitable(result):
                result = await result
            call.status, call.result = 200, result
            body = {"ok": True, "result": result}
        except ApiError as exc:
            call.status, call.error = exc.status, exc.description
            call.retry_after = (exc.parameters or {}).get("retry_after")
            body = exc.body()
        except Exception as exc:  # a bug in the fake: make it loud, never hide it
            _log.exception("fake Bot API crashed in %s", method)
            self.internal_errors.append(exc)
            call.status, call.error = 500, f"fake internal error: {exc!r}"
            body = {"ok": False, "error_code": 500, "description": f"Internal Server Error: fake: {exc!r}"}
        finally:
            if lname != "getupdates" or self.record_get_updates:
                self.calls.append(call)
            if lname != "getupdates":
                self._last_activity = asyncio.get_running_loop().time()
            self._signal.fire()
        _log.debug("%s -> %s", method, call.status)
        return call.status, body

    def _flood_chat(self, p: Params) -> FakeChat | None:
        raw = p.raw.get("chat_id")
        if raw is None or raw == "":
            return None
        return self._lookup_chat(raw)

    # ================================================================== updates

    def _push_update(self, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
        update = {"update_id": self._next_update_id, kind: payload}
        self._next_update_id += 1
        self.updates.append(update)
        self.update_log.append(update)
        self._signal.fire()
        return update

    def _confirm_updates(self, offset: int) -> None:
        if offset > 0:
            self.updates = [u for u in self.updates if u["update_id"] >= offset]
        elif offset < 0:
            self.updates = self.updates[offset:]

    def _deliverable(self, limit: int) -> list[dict[str, Any]]:
        allowed = self.allowed_updates
        kept: list[dict[str, Any]] = []
        for update in self.updates:
            kind = next(k for k in update if k != "update_id")
            if (kind in allowed) if allowed is not None else (kind not in DEFAULT_EXCLUDED_UPDATES):
                kept.append(update)
            else:
                self.dropped_updates.append(update)
        self.updates = kept
        return kept[:limit]

    @property
    def pending_updates(self) -> list[dict[str, Any]]:
        """Queued updates the bot has not fetched yet."""
        return [u for u in self.updates if u["update_id"] > self._delivered_up_to]

    async def close(self) -> None:
        """Stop serving long polls: waiting ``getUpdates`` return ``[]`` at once, and later ones
        do not wait. Call before tearing down a server so it does not wait for orphaned polls."""
        self.closed = True
        self._signal.fire()
        if self.webhook is not None:
            delivery, self.webhook = self.webhook, None
            await delivery.stop()
        await asyncio.sleep(0)

    def reopen(self) -> None:
        """Serve long polls again after :meth:`close` (e.g. to start a second application)."""
        self.closed = False

    # ================================================================== reading the world

    def chat(self, ref: ChatRef) -> FakeChat:
        """Resolve a chat reference (chat, user -> private chat, or id).

        Raises:
            LookupError: for an unknown id.
        """
        if isinstance(ref, FakeChat):
            return ref
        if isinstance(ref, FakeUser):
            return self.private_chat(ref)
        chat = self._lookup_chat(ref)
        if chat is None:
            raise LookupError(f"no chat with id {ref!r}")
        return chat

    def messages(
        self,
        chat: ChatRef,
        *,
        from_bot: bool | None = None,
        include_deleted: bool = False,
        since: int | None = None,
    ) -> list[FakeMessage]:
        """Messages of a chat in sending order (current state after edits).

        ``from_bot``: True = only the bot's, False = only users', None = all. ``since``: only
        messages created at or after a :meth:`mark`.
        """
        result = []
        for message in self.chat(chat).messages.values():
            if message.deleted and not include_deleted:
                continue
            if from_bot is not None and message.from_bot != from_bot:
                continue
            if since is not None and message.seq < since:
                continue
            result.append(message)
        return result

    def bot_messages(
        self, chat: ChatRef, *, include_deleted: bool = False, since: int | None = None
    ) -> list[FakeMessage]:
        """The bot's messages in a chat (what a member sees the bot post), oldest first."""
        return self.messages(chat, from_bot=True, include_deleted=include_deleted, since=since)

    def last_message(self, chat: ChatRef, *, from_bot: bool | None = True) -> FakeMessage:
        """The newest (non-deleted) message in a chat, by default the bot's.

        Raises:
            LookupError: if there is none.
        """
        found = self.messages(chat, from_bot=from_bot)
        if not found:
            raise LookupError(f"no {'bot ' if from_bot else ''}message in {self.chat(chat)!r}")
        return found[-1]

    def last_messages(self, chat: ChatRef, n: int, *, from_bot: bool | None = True) -> list[FakeMessage]:
        """The newest ``n`` messages in a chat (oldest first)."""
        return self.messages(chat, from_bot=from_bot)[-n:]

    def message(self, chat: ChatRef, message_id: int) -> FakeMessage:
        """A message by id (its current state, deleted ones too).

        Raises:
            LookupError: for an unknown id.
        """
        found = self.chat(chat).messages.get(message_id)
        if found is None:
            raise LookupError(f"no message {message_id} in {self.chat(chat)!r}")
        return found

    def seen_texts(self, chat: ChatRef, *, include_buttons: bool = True) -> list[str]:
        """Every text, caption (and button label) the bot ever showed in ``chat``: all versions of
        every message, edited-away and deleted ones included. Use it to prove that nothing secret
        (e.g. a concealed tile) ever reached a chat, not just that the final state is clean."""
        texts: list[str] = []
        for message in self.chat(chat).messages.values():
            if not message.from_bot:
                continue
            versions = [(v.text, v.caption, v.reply_markup) for v in message.history]
            versions.append((message.text, message.caption, message.reply_markup))
            for text, caption, markup in versions:
                texts.extend(t for t in (text, caption) if t)
                if include_buttons and markup:
                    texts.extend(b.get("text", "") for row in markup.get("inline_keyboard", []) for b in row)
        return texts

    def seen_photos(self, chat: ChatRef) -> list[StoredFile]:
        """Every photo/document the bot ever showed in ``chat`` (all versions, deleted included)."""
        files: list[StoredFile] = []
        for message in self.chat(chat).messages.values():
            if message.from_bot:
                files.extend(v.media for v in message.history if v.media is not None)
                if message.media is not None:
                    files.append(message.media)
        return files

    def mark(self) -> int:
        """A position in time: pass it as ``since=`` to count calls/messages from now on."""
        return self._call_seq + 1

    def calls_to(
        self,
        methods: str | Iterable[str] | None = None,
        *,
        chat: ChatRef | None = None,
        since: int = 0,
        ok: bool | None = None,
    ) -> list[ApiCall]:
        """Logged calls filtered by method name(s), target chat, ``since`` a :meth:`mark`, success."""
        wanted = None if methods is None else {m.lower() for m in ([methods] if isinstance(methods, str) else methods)}
        chat_id = self.chat(chat).id if chat is not None else None
        return [
            c
            for c in self.calls
            if c.seq >= since
            and (wanted is None or c.method.lower() in wanted)
            and (chat_id is None or c.chat_id == chat_id)
            and (ok is None or c.ok == ok)
        ]

    def count_calls(
        self,
        methods: str | Iterable[str] | None = None,
        *,
        chat: ChatRef | None = None,
        since: int = 0,
        ok: bool | None = None,
    ) -> int:
        """How many calls match (see :meth:`calls_to`). ``count_calls(MESSAGE_WRITE_METHODS,
        since=m)`` counts sends and edits, the docs/architecture.md §7 per-turn budget."""
        return len(self.calls_to(methods, chat=chat, since=since, ok=ok))

    def callback_queries_since(self, since: int = 0) -> list[CallbackQueryRecord]:
        """Callback queries (button presses) created since a :meth:`mark`, oldest first."""
        return [q for q in self.callback_queries.values() if q.seq >= since]

    def bot_commands(self, scope: Mapping[str, Any] | None = None, language_code: str = "") -> list[dict[str, str]]:
        """Commands registered with ``setMyCommands`` for an exact scope and language."""
        return list(self.commands.get((self._scope_key(scope or {"type": "default"}), language_code), []))

    # ================================================================== waiting

    async def wait_for(
        self,
        predicate: Callable[[], T | None],
        timeout: float = 5.0,
        *,
        message: str | None = None,
        interval: float = 0.01,
    ) -> T:
        """Wait until ``predicate()`` returns something truthy, and return it.

        Re-checked after every API call / world change and every ``interval`` seconds (state the
        bot changes after a call, e.g. in an error handler, does not notify).

        Raises:
            WaitTimeout: after ``timeout`` seconds, with the last calls the bot made.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                what = message or str(getattr(predicate, "__name__", "condition"))
                raise WaitTimeout(self._timeout_report(what, timeout))
            await self._signal.wait(min(interval, remaining))

    def _timeout_report(self, what: str, timeout: float) -> str:
        recent = "\n  ".join(repr(c) for c in self.calls[-12:]) or "(none)"
        return (
            f"{what!s} not met within {timeout} s.\n last calls:\n  {recent}\n pending updates: "
            f"{len(self.pending_updates)}; polls: {self.poll_count}; internal errors: {self.internal_errors}"
        )

    async def wait_for_message(
        self,
        chat: ChatRef,
        predicate: Callable[[FakeMessage], bool] | None = None,
        *,
        contains: str | None = None,
        since: int | None = None,
        timeout: float = 5.0,
    ) -> FakeMessage:
        """Wait for a bot message in ``chat`` created since ``since`` (default: now) that
        contains ``contains`` (in text or caption) and satisfies ``predicate``; return it."""
        start = self.mark() if since is None else since

        def found() -> FakeMessage | None:
            for candidate in self.bot_messages(chat, since=start):
                if contains is not None and contains not in candidate.content:
                    continue
                if predicate is None or predicate(candidate):
                    return candidate
            return None

        what = f"a bot message in {self.chat(chat)!r}" + (f" containing {contains!r}" if contains else "")
        return await self.wait_for(found, timeout, message=what)

    async def wait_for_call(
        self,
        method: str,
        predicate: Callable[[ApiCall], bool] | None = None,
        *,
        chat: ChatRef | None = None,
        since: int | None = None,
        timeout: float = 5.0,
    ) -> ApiCall:
        """Wait for a logged call to ``method`` (since ``since``, default now) and return it."""
        start = self.mark() if since is None else since

        def found() -> ApiCall | None:
            for call in self.calls_to(method, chat=chat, since=start):
                if predicate is None or predicate(call):
                    return call
            return None

        return await self.wait_for(found, timeout, message=f"a {method} call")

    async def wait_for_answer(self, query: CallbackQueryRecord, timeout: float = 5.0) -> CallbackQueryRecord:
        """Wait until the bot answered a pressed button's callback query; return the record."""
        await self.wait_for(lambda: query.answered, timeout, message=f"an answer to {query!r}")
        return query

    async def wait_idle(self, quiet: float = 0.05, timeout: float = 5.0) -> None:
        """Wait until the bot fetched every queued update and made no call for ``quiet`` s.

        The way to assert that something did *not* happen, without a fixed sleep.
        """
        loop = asyncio.get_running_loop()

        def idle() -> bool:
            return not self.pending_updates and loop.time() - self._last_activity >= quiet

        await self.wait_for(idle, timeout, message=f"the bot idle for {quiet} s")

    # ================================================================== internal helpers

    def _next(self, counter: str) -> int:
        value = self._counters.get(counter, 0) + 1
        self._counters[counter] = value
        return value

    def _world_seq(self) -> int:
        """The seq stamped on new world objects: the current call's, else the next call's."""
        return self._current_call.seq if self._current_call is not None else self._call_seq + 1

    def _now_date(self) -> int:
        return int(self.clock.time())

    def _lookup_chat(self, raw: Any) -> FakeChat | None:
        if isinstance(raw, str):
            text = raw.strip()
            if text.startswith("@"):
                name = text[1:].lower()
                for chat in self.chats.values():
                    if chat.username and chat.username.lower() == name and chat.type is not ChatType.PRIVATE:
                        return chat
                return None
            try:
                chat_id = int(text)
            except ValueError:
                return None
        elif isinstance(raw, bool) or not isinstance(raw, int):
            return None
        else:
            chat_id = raw
        found = self.chats.get(chat_id)
        if found is None and chat_id in self.users:
            found = self.private_chat(self.users[chat_id])
        return found

    def _add_message(self, chat: FakeChat, from_user: FakeUser, **fields: Any) -> FakeMessage:
        message = FakeMessage(
            chat=chat,
            message_id=chat.allocate_message_id(),
            from_user=from_user,
            date=self._now_date(),
            sent_at=self.clock.monotonic(),
            seq=self._world_seq(),
            **fields,
        )
        chat.messages[message.message_id] = message
        self._signal.fire()
        return message
