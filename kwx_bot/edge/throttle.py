"""Rate limits: the bot's own pacing (:class:`PacingRateLimiter`), Telegram's 429 ``retry_after`` per
chat (:class:`Holds`), and the time Telegram held the bot back, per chat (:class:`ThrottleLog`) —
time spent while the bot itself was rate-limited does not count against a player.

The limits (docs/telegram.md §4, docs/architecture.md §4 "Rate limits"): Telegram refuses a bot more
than about 30 message writes a second over all chats and 20 a minute in one group, counting sends,
edits and deletions; reads (``getChatMember``, ``getMe``) and ``answerCallbackQuery`` are no message
writes.  The bot paces itself to stay under both in *every* sliding window — never a burst — so its
own traffic causes no 429:

* :class:`SlidingWindow` counts a write from the moment it is let go until ``period`` seconds after
  Telegram answered it (Telegram received it somewhere in between), so no window of Telegram's own
  can hold more than the limit — of a slow call only its first :data:`CALL_GRACE_SECONDS` count;
* :class:`GroupBudget` is one window per group (20 per 60 s), shared by the pacer and presentation
  (which asks it before a write that can wait, keeping room for announcements); its last minute is
  kept across a clean restart (:meth:`GroupBudget.snapshot`, :meth:`GroupBudget.restore`);
* :class:`PacingRateLimiter` lets writes go in order of urgency (:class:`Priority`) while the
  token's window (:data:`TOKEN_PACE` a second) and the group's have room and no 429 holds the chat.

:class:`ThrottleLog` records intervals (unix seconds on the service clock) during which a send to a
chat was held back by Telegram: the sender's waits after a 429 ``RetryAfter`` (the one retry layer;
:class:`PacingRateLimiter` only paces and never retries) and the waits of other calls to the chat
meanwhile (:class:`Holds`).
A table's deadline is then extended by :meth:`ThrottleLog.blocked` — the length of the union of its
chats' intervals since the deadline started — so a player is never timed out while the bot could
not show them their turn.
"""

from __future__ import annotations

import asyncio
import bisect
import contextvars
import enum
import itertools
import math
import time
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from telegram.error import NetworkError, RetryAfter
from telegram.ext import BaseRateLimiter

__all__ = [
    "WRITE_PRIORITY", "GroupBudget", "Holds", "PacingRateLimiter", "Priority", "SlidingWindow", "ThrottleLog",
    "TokenLoad", "is_write",
]  # fmt: skip

KEEP_SECONDS = 3600.0
"""Intervals older than this are forgotten (no deadline is that long)."""

TOKEN_WRITES_PER_SECOND = 30
"""Writes a second Telegram lets one bot token make over all chats (docs/telegram.md §4)."""

TOKEN_PACE = 28
"""Writes the bot lets go in any one second over all chats: a little under Telegram's 30, which it
does not document exactly (docs/telegram.md §4)."""

MIN_INTERVAL = 0.01
"""Waits shorter than this (seconds) are scheduling noise, not throttling."""

CALL_GRACE_SECONDS = 0.25
"""Of a call still unanswered, this much counts towards the pacing windows (:class:`SlidingWindow`):
Telegram has a request by then (an upload of a hand picture takes milliseconds), so a slower answer
does not hold the pacing back."""

RECHECK_SECONDS = 0.25
"""How soon to ask a window again when only writes still in flight fill it (they count until answered)."""

_WRITE_PREFIXES = ("send", "edit", "delete", "copy", "forward", "stop", "pin", "unpin")


def is_write(endpoint: str, chat_id: int | None) -> bool:
    """A call that Telegram's message limits count: a chat-bound ``send*``, ``edit*``, ``delete*``
    (and copies, forwards, pins) — not a read such as ``getChatMember``, not ``answerCallbackQuery``
    or ``setMyCommands`` (no chat) (docs/telegram.md §4)."""
    return chat_id is not None and endpoint.startswith(_WRITE_PREFIXES)


class ThrottleLog:
    """Blocked intervals per chat id.  ``clock`` returns unix seconds (the table service's clock)."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self._done: dict[int, deque[tuple[float, float]]] = {}
        self._open: dict[int, dict[int, float]] = {}
        self._next_token = 0
        self.total = 0.0
        """Seconds of all finished intervals (all chats), for logs and tests."""

    def begin(self, chat_id: int) -> int:
        """A send to ``chat_id`` starts waiting; returns a token for :meth:`end`."""
        self._next_token += 1
        self._open.setdefault(chat_id, {})[self._next_token] = self.clock()
        return self._next_token

    def end(self, chat_id: int, token: int) -> None:
        """The wait started by :meth:`begin` is over."""
        start = self._open.get(chat_id, {}).pop(token, None)
        if start is not None:
            self.add(chat_id, start, self.clock())

    def add(self, chat_id: int, start: float, end: float) -> None:
        """Record that sends to ``chat_id`` were held back from ``start`` to ``end``."""
        if end - start < MIN_INTERVAL:
            return
        self.total += end - start
        done = self._done.setdefault(chat_id, deque())
        done.append((start, end))
        horizon = end - KEEP_SECONDS
        while done and done[0][1] < horizon:
            done.popleft()

    def blocked(self, chat_ids: Iterable[int], since: float, until: float | None = None) -> float:
        """Seconds within ``[since, until]`` (default: now) during which a send to any of
        ``chat_ids`` was held back (overlapping waits count once; waits still going on count up to
        ``until``)."""
        until = self.clock() if until is None else until
        spans: list[tuple[float, float]] = []
        for chat_id in set(chat_ids):
            spans.extend(self._done.get(chat_id, ()))
            spans.extend((start, until) for start in self._open.get(chat_id, {}).values())
        total = 0.0
        edge = since
        for start, end in sorted(spans):
            start, end = max(start, edge), min(end, until)
            if end > start:
                total += end - start
                edge = end
        return total


class SlidingWindow:
    """At most ``limit`` writes in any ``period`` seconds.

    A write counts from :meth:`take` (let go: in flight) until ``period`` seconds after
    :meth:`settle` (answered; a refused write — a 429 — need not count).  Telegram received it
    somewhere in between, so no ``period`` of Telegram's own holds more than ``limit`` of them.  Of
    a slow call only its first ``grace`` seconds count (by then Telegram has the request; the rest
    is its answer coming back), so slow answers do not slow the pacing down by more than that.
    Times are the caller's clock (seconds, never going back).
    """

    def __init__(self, limit: int, period: float, grace: float = math.inf) -> None:
        self.limit = limit
        self.period = period
        self.grace = grace
        self._flying: dict[int, float] = {}  # writes let go and not answered: token -> when let go
        self._tokens = itertools.count()
        self._done: deque[float] = deque()  # when each write stopped counting as in flight, in order

    @property
    def flying(self) -> int:
        """Writes let go and not answered yet."""
        return len(self._flying)

    def _forget(self, now: float) -> None:
        done = self._done
        while done and done[0] <= now - self.period:
            done.popleft()

    def _ends(self, now: float) -> list[float]:
        """When each write that counts at ``now`` leaves the window, soonest first (``math.inf``:
        in flight, and still within its grace)."""
        self._forget(now)
        flying = [t + self.grace + self.period for t in self._flying.values()]
        return sorted([t + self.period for t in self._done] + [t for t in flying if t > now])

    def used(self, now: float) -> int:
        """Writes that count at ``now`` (in flight, or answered within the last ``period``)."""
        return len(self._ends(now))

    def free_at(self, now: float, room: int = 1) -> float:
        """When ``room`` more writes fit: ``now`` if they do, else when enough writes have left the
        window; ``math.inf`` if only writes still in flight (within their grace) would have to leave."""
        ends = self._ends(now)
        over = len(ends) + room - self.limit
        return now if over <= 0 else ends[over - 1]

    def take(self, now: float) -> int:
        """A write is let go at ``now``; returns its token for :meth:`settle`."""
        token = next(self._tokens)
        self._flying[token] = now
        return token

    def started(self, token: int, now: float) -> None:
        """The write :meth:`take` let go at an earlier time starts only at ``now``: a busy event
        loop resumed its caller late, so Telegram may receive it late too.  Its grace (and so its
        place in the window while unanswered) counts from ``now``, never from before it was let go."""
        if token in self._flying:
            self._flying[token] = max(self._flying[token], now)

    def settle(self, token: int, now: float, *, counted: bool = True) -> None:
        """The write :meth:`take` let go was answered at ``now``; ``counted``: Telegram took it."""
        sent = self._flying.pop(token, now)
        if counted:
            self.record(min(now, sent + self.grace))

    def record(self, now: float) -> None:
        """A write Telegram took at ``now`` (not paced: never let go through :meth:`take`)."""
        bisect.insort(self._done, now)

    def times(self, now: float) -> list[float]:
        """When the writes that still count were answered (oldest first; in-flight ones as ``now``)."""
        self._forget(now)
        return [*self._done, *[now] * self.flying]


class GroupBudget:
    """Writes (sends, edits, deletions) per group chat in a sliding window: Telegram allows a bot
    about ``limit`` = 20 messages a minute in one group, edits included (docs/telegram.md §4).

    One :class:`SlidingWindow` per group (private chats are not counted).  With pacing, the
    :class:`PacingRateLimiter` lets a group's write go only while its window has room
    (:meth:`take`, :meth:`settle`); without, the :class:`~kwx_bot.edge.sender.Sender` records every
    write Telegram took (:meth:`record`).  Presentation asks :meth:`wait` before a write that can
    wait (the live table's picture) and keeps ``reserve`` writes of every window for those that
    cannot (a hand's start, 亮倒 reveals, the result, notices).  ``clock``: monotonic seconds;
    ``limit`` 0: no budget.
    """

    def __init__(
        self,
        limit: int = 20,
        window: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
        grace: float = CALL_GRACE_SECONDS,
    ) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self.grace = grace
        self._windows: dict[int, SlidingWindow] = {}

    def _of(self, chat_id: int) -> SlidingWindow:
        found = self._windows.get(chat_id)
        if found is None:
            if len(self._windows) > 1000:  # forget the groups with nothing in their window
                now = self.clock()
                self._windows = {k: w for k, w in self._windows.items() if w.used(now)}
            found = self._windows[chat_id] = SlidingWindow(self.limit, self.window, self.grace)
        return found

    def counts(self, chat_id: int) -> bool:
        """Writes to ``chat_id`` are budgeted: a group (negative id) while there is a budget."""
        return chat_id < 0 and self.limit > 0

    def record(self, chat_id: int) -> None:
        """A write to ``chat_id`` reached Telegram now (private chats are not counted)."""
        if chat_id < 0:
            self._of(chat_id).record(self.clock())

    def take(self, chat_id: int) -> int:
        """A write to the group ``chat_id`` is let go now; its token (see :meth:`SlidingWindow.take`)."""
        return self._of(chat_id).take(self.clock())

    def started(self, chat_id: int, token: int) -> None:
        """The write :meth:`take` let go starts only now (see :meth:`SlidingWindow.started`)."""
        self._of(chat_id).started(token, self.clock())

    def settle(self, chat_id: int, token: int, *, counted: bool = True) -> None:
        """The write :meth:`take` let go was answered now (see :meth:`SlidingWindow.settle`)."""
        self._of(chat_id).settle(token, self.clock(), counted=counted)

    def used(self, chat_id: int) -> int:
        """Writes to ``chat_id`` within the last ``window`` seconds (in flight ones included)."""
        found = self._windows.get(chat_id)
        return 0 if found is None else found.used(self.clock())

    def free_at(self, chat_id: int, room: int = 1, now: float | None = None) -> float:
        """When ``room`` more writes fit in the group's window (the clock's time, from ``now``:
        default the clock's; ``math.inf``: once writes in flight are answered)."""
        now = self.clock() if now is None else now
        found = self._windows.get(chat_id)
        return now if found is None or self.limit <= 0 else found.free_at(now, room)

    def wait(self, chat_id: int, reserve: int = 0) -> float:
        """Seconds until a write to ``chat_id`` leaves ``reserve`` writes of the window unused (0: now)."""
        if self.limit <= 0:  # no budget (tests that do not measure it)
            return 0.0
        allowed = max(1, self.limit - reserve)
        now = self.clock()
        at = self.free_at(chat_id, room=self.limit - allowed + 1, now=now)
        return RECHECK_SECONDS if at == math.inf else max(0.0, at - now)

    def snapshot(self, unix_now: float | None = None) -> dict[int, list[float]]:
        """Each group's writes that still count, as unix seconds (to keep across a restart)."""
        now = self.clock()
        shift = (time.time() if unix_now is None else unix_now) - now
        out = {chat: [t + shift for t in w.times(now)] for chat, w in self._windows.items()}
        return {chat: times for chat, times in out.items() if times}

    def restore(self, writes: Mapping[int, Iterable[float]], unix_now: float | None = None) -> None:
        """Count the writes of :meth:`snapshot` (unix seconds) made before this process started."""
        now = self.clock()
        shift = now - (time.time() if unix_now is None else unix_now)
        for chat_id, times in writes.items():
            recent = sorted(t + shift for t in times if t + shift > now - self.window)
            for t in recent:
                self._of(chat_id).record(min(t, now))


class TokenLoad:
    """The writes the bot asked Telegram for over all chats in the last ``window`` seconds: the
    demand on the bot token's ~``limit`` writes a second (docs/telegram.md §4), counted when a
    write is asked for, so writes still waiting in the pacing limiter count too.

    :meth:`busy` says whether that demand reached ``share`` of the limit; presentation then holds
    back writes that can wait (the group's live table picture) so that the token's capacity goes to
    the players' own hand messages first (docs/architecture.md §4 "Presentation").  ``clock``:
    monotonic seconds; ``limit`` 0: never busy.
    """

    def __init__(
        self,
        limit: float = TOKEN_WRITES_PER_SECOND,
        window: float = 5.0,
        share: float = 0.5,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limit = limit
        self.window = window
        self.share = share
        self.clock = clock
        self._asked: deque[float] = deque()

    def record(self) -> None:
        """A write (send, edit, deletion) is asked for now."""
        now = self.clock()
        self._forget(now)
        self._asked.append(now)

    def _forget(self, now: float) -> None:
        while self._asked and self._asked[0] <= now - self.window:
            self._asked.popleft()

    def demand(self) -> float:
        """Writes asked for per second over the last ``window`` seconds."""
        self._forget(self.clock())
        return len(self._asked) / self.window

    def busy(self) -> bool:
        """The demand reached ``share`` × ``limit`` writes a second."""
        return self.limit > 0 and self.demand() >= self.share * self.limit


class Holds:
    """Telegram's 429 ``retry_after``, honoured for the chat (docs/architecture.md §4 "Rate limits").

    While the call that got a 429 waits out its ``retry_after`` (:meth:`begin` … :meth:`end`), every
    other call to that chat waits too (:meth:`wait`); a 429 without a chat (``chat_id`` None: the
    token's limit, e.g. on ``answerCallbackQuery``) holds every chat.  No clock: a hold lasts as long
    as the wait that began it, on whatever clock that wait sleeps.  ``listeners`` are called when a
    hold ends (the pacer lets the chat's queued writes go).
    """

    def __init__(self) -> None:
        self._count: dict[int | None, int] = {}
        self._ended: dict[int | None, asyncio.Event] = {}
        self.listeners: list[Callable[[], None]] = []

    def begin(self, chat_id: int | None) -> None:
        """A 429 for ``chat_id`` (None: the whole token) is being waited out."""
        self._count[chat_id] = self._count.get(chat_id, 0) + 1
        self._ended.setdefault(chat_id, asyncio.Event())

    def end(self, chat_id: int | None) -> None:
        """The wait :meth:`begin` announced is over."""
        left = self._count.get(chat_id, 0) - 1
        if left > 0:
            self._count[chat_id] = left
            return
        self._count.pop(chat_id, None)
        ended = self._ended.pop(chat_id, None)
        if ended is not None:
            ended.set()
        for listener in self.listeners:
            listener()

    def held(self, chat_id: int | None) -> bool:
        """A call to ``chat_id`` must wait now (its own hold, or the token's)."""
        return None in self._count or (chat_id is not None and chat_id in self._count)

    async def wait(self, chat_id: int | None) -> None:
        """Until no hold covers ``chat_id``."""
        while self.held(chat_id):
            key = None if None in self._count else chat_id
            ended = self._ended.get(key)
            if ended is None:  # pragma: no cover - begin always makes one
                return
            await ended.wait()

    async def hold_for(self, chat_id: int | None, wait: Callable[[], Awaitable[None]]) -> None:
        """Hold ``chat_id`` while ``wait()`` runs (a 429 the caller does not retry, e.g. a press's answer)."""
        self.begin(chat_id)
        try:
            await wait()
        finally:
            self.end(chat_id)


class Priority(enum.IntEnum):
    """How urgent a write is, most urgent first (docs/architecture.md §4 "Rate limits"):
    ``OWN`` — a player's own messages (the hand message, replies in the private chat);
    ``ANNOUNCE`` — group messages that cannot wait (a hand's start, 亮倒 and result pictures,
    command replies, notices); ``BACKGROUND`` — writes that can wait (the live table picture,
    stale buttons removed).  ``answerCallbackQuery`` is no message write: it is never queued."""

    OWN = 1
    ANNOUNCE = 2
    BACKGROUND = 3


SLACK = {Priority.OWN: 0.0, Priority.ANNOUNCE: 1.0, Priority.BACKGROUND: 3.0}
"""Seconds a write of each priority yields: the pacer lets writes go in order of (queued at +
slack), so an urgent write overtakes every less urgent one queued less than the difference before
it, and a write that can wait is never starved (it waits at most its slack behind urgent ones)."""

WRITE_PRIORITY: contextvars.ContextVar[Priority | None] = contextvars.ContextVar("kwx_write_priority", default=None)
"""The priority of the write being made in this task (set by the
:class:`~kwx_bot.edge.sender.Sender` around one call; read by :class:`PacingRateLimiter`).  None:
by its chat — ``OWN`` for a private chat, ``ANNOUNCE`` for a group."""


@dataclass(order=True)
class _Queued:
    """A write waiting for its turn: ordered by ``due`` (queued at + its priority's slack), then ``seq``."""

    due: float
    seq: int
    chat_id: int = field(compare=False)
    released: asyncio.Future[None] = field(compare=False)
    token: int | None = field(default=None, compare=False)
    """Its slot in the token's window, once let go."""
    group: int | None = field(default=None, compare=False)
    """Its slot in its group's window, once let go (a group's write)."""


class PacingRateLimiter(BaseRateLimiter[Priority]):
    """PTB rate limiter that only paces, in strict sliding windows: at most ``overall_max_rate``
    message writes in any ``overall_time_period`` seconds over all chats and ``group_max_rate`` in
    any ``group_time_period`` per group (:class:`SlidingWindow`: never a burst over the limit, so
    the bot's own traffic causes no 429; docs/telegram.md §4).

    Queued writes go in order of urgency (:class:`Priority` from ``rate_limit_args`` or
    :data:`WRITE_PRIORITY`, with its :data:`SLACK`), each as soon as the token's window and its
    group's have room and no 429 holds its chat (:class:`Holds`); a write its group's window or a
    hold keeps back never keeps back another chat's.  Reads (``getChatMember``), calls without a
    chat (``answerCallbackQuery``) and ``getUpdates`` are not writes (:func:`is_write`) and pass at
    once.  The group windows are the shared :class:`GroupBudget` ``budget``.

    It never retries and never pauses the whole bot by itself: a 429 ``RetryAfter`` reaches the
    :class:`~kwx_bot.edge.sender.Sender`, the one retry layer, which holds that chat (or, without a
    chat, the token) in ``holds`` while it waits and logs one WARNING per wait.

    :meth:`stop` makes every pending and later wait end at once (the call then fails with
    ``NetworkError``), so a shutdown is never held up by pacing.  Pacing waits are the bot's own
    choice, not Telegram holding it back, so they are not recorded in the :class:`ThrottleLog`.
    ``clock`` and ``sleep`` (monotonic seconds) are the pacer's time (tests: a fake clock);
    ``on_wait`` is told every write's wait for its turn (metrics).

    Reads — Bot API methods named ``get…``, such as ``getChatMember`` — are not messages: they are
    not paced at all (:func:`is_write`; the sender asks each read once and never waits out a 429
    for it).
    """

    def __init__(
        self,
        *,
        overall_max_rate: int = TOKEN_PACE,
        overall_time_period: float = 1,
        group_max_rate: int = 20,
        group_time_period: float = 60,
        budget: GroupBudget | None = None,
        holds: Holds | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        on_wait: Callable[[Priority, float], None] | None = None,
    ) -> None:
        self.clock = clock
        self.on_wait = on_wait
        """Told each write's priority and its wait for its turn (seconds), e.g. for metrics."""
        self.sleep = sleep
        self.token = (
            SlidingWindow(overall_max_rate, overall_time_period, CALL_GRACE_SECONDS) if overall_max_rate > 0 else None
        )
        self.budget = budget or GroupBudget(group_max_rate, group_time_period, clock)
        self.holds = holds or Holds()
        self.holds.listeners.append(self._poke)
        self._queue: list[_Queued] = []
        self._seq = itertools.count()
        self._wake: asyncio.Event | None = None
        self._pump: asyncio.Task[None] | None = None
        self._stopping = asyncio.Event()

    async def initialize(self) -> None:
        """Nothing to set up (PTB calls it on start; the pacer starts with the first write)."""

    async def shutdown(self) -> None:
        """PTB calls it on shutdown: pending waits end."""
        self.stop()
        if self._pump is not None:
            self._pump.cancel()
            await asyncio.gather(self._pump, return_exceptions=True)
            self._pump = None

    def stop(self) -> None:
        """End every pending pacing wait now and skip later ones (the process is stopping)."""
        self._stopping.set()
        for queued in self._queue:
            if not queued.released.done():
                queued.released.set_exception(NetworkError("kwx is stopping"))
        self._queue.clear()
        self._poke()

    @property
    def queued(self) -> int:
        """Writes waiting for their turn."""
        return len(self._queue)

    def _poke(self) -> None:
        if self._wake is not None:
            self._wake.set()

    def _release(self) -> float:
        """Let go every queued write that may go now, most urgent first; returns when one of those
        left may go (``math.inf``: once a write in flight is answered or a hold ends)."""
        now = self.clock()
        wake = math.inf
        kept: list[_Queued] = []
        for i, queued in enumerate(self._queue):
            if queued.released.done():  # its caller gave up (cancelled)
                continue
            if self.token is not None:
                at = self.token.free_at(now)
                if at > now:  # the token's window is full: nothing else goes either
                    kept.extend(q for q in self._queue[i:] if not q.released.done())
                    wake = min(wake, at)
                    break
            chat = queued.chat_id
            if self.holds.held(chat):
                kept.append(queued)
                continue
            group = self.budget.counts(chat)
            if group:
                at = self.budget.free_at(chat, now=now)
                if at > now:
                    kept.append(queued)
                    wake = min(wake, at)
                    continue
                queued.group = self.budget.take(chat)
            if self.token is not None:
                queued.token = self.token.take(now)
            queued.released.set_result(None)
        self._queue = kept
        return wake

    async def _run(self) -> None:
        """The pacer's loop: let writes go, then sleep until one may go or something changed."""
        assert self._wake is not None
        while not self._stopping.is_set():
            self._wake.clear()
            wake = self._release()
            waits: set[asyncio.Future[Any]] = {asyncio.ensure_future(self._wake.wait())}
            if self._queue and wake < math.inf:
                waits.add(asyncio.ensure_future(self.sleep(max(0.0, wake - self.clock()))))
            try:
                await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for waiting in waits:
                    waiting.cancel()

    async def _turn(self, chat_id: int, priority: Priority) -> _Queued:
        """Wait until the write to ``chat_id`` may go (its windows taken); raises ``NetworkError``
        when stopping."""
        if self._stopping.is_set():
            raise NetworkError("kwx is stopping")
        loop = asyncio.get_running_loop()
        queued = _Queued(self.clock() + SLACK[priority], next(self._seq), chat_id, loop.create_future())
        bisect.insort(self._queue, queued)
        if self._wake is None:
            self._wake = asyncio.Event()
        if self._pump is None or self._pump.done():
            self._pump = loop.create_task(self._run())
        self._poke()
        try:
            await queued.released
        except asyncio.CancelledError:
            if queued.released.done() and not queued.released.cancelled() and queued.released.exception() is None:
                self._settle(queued, counted=False)  # let go, then abandoned: the call is not made
            raise
        return queued

    def _started(self, queued: _Queued) -> None:
        """The write ``queued`` starts now, when its caller resumed (a busy loop resumes it later
        than the pacer let it go): its windows count its grace from now."""
        if self.token is not None and queued.token is not None:
            self.token.started(queued.token, self.clock())
        if queued.group is not None:
            self.budget.started(queued.chat_id, queued.group)

    def _settle(self, queued: _Queued, *, counted: bool) -> None:
        """The write ``queued`` was answered (``counted``: Telegram took it) or not made."""
        if self.token is not None and queued.token is not None:
            self.token.settle(queued.token, self.clock(), counted=counted)
        if queued.group is not None:
            self.budget.settle(queued.chat_id, queued.group, counted=counted)
        self._poke()

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, Any]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: Priority | None,
    ) -> Any:
        """Writes wait for their turn (see the class docstring), then are called once; everything
        else is called at once."""
        chat_id = _chat_id(data.get("chat_id"))
        if self._stopping.is_set():
            raise NetworkError("kwx is stopping")
        if chat_id is None or not is_write(endpoint, chat_id):
            return await callback(*args, **kwargs)
        priority = rate_limit_args or WRITE_PRIORITY.get() or (Priority.OWN if chat_id > 0 else Priority.ANNOUNCE)
        asked = self.clock()
        queued = await self._turn(chat_id, priority)
        self._started(queued)
        if self.on_wait is not None:
            self.on_wait(priority, self.clock() - asked)
        counted = True
        try:
            return await callback(*args, **kwargs)
        except RetryAfter:
            counted = False  # Telegram refused it: it took nothing of its limits
            raise
        finally:
            self._settle(queued, counted=counted)


def _chat_id(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None
