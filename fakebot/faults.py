"""Flood control (HTTP 429 ``retry_after``) for the fake, injectable by tests.

A triggered flood puts a *penalty* on a key — the chat the call targeted, or the method name for
chat-less calls — and the fake then really refuses every call on that key with 429 and the
remaining ``retry_after`` (whole seconds, rounded up) until the penalty elapses on the fake's
clock. Tests choose between waiting for real (``retry_after=1``) and jumping ahead with
``fake.clock.advance(...)``.

Three ways to cause floods:

* :meth:`FaultInjector.flood` — deterministic: the next ``times`` matching calls (by method and/or
  chat) trigger a penalty.
* :meth:`FaultInjector.random_floods` — a seeded fraction of matching calls trigger one.
* :meth:`FaultInjector.group_rate_limit` — an organic limit like Telegram's "20 messages per minute
  per group": a sliding window per group chat over sends and edits.
* :meth:`FaultInjector.token_rate_limit` — the other organic limit, "about 30 messages per second"
  for the whole bot token: one sliding window over every chat's sends and edits.

The two organic limits refuse a call with 429 and the seconds until the window has room again
(whole seconds, at least 1); a refused call does not count in either window.
"""

from __future__ import annotations

import math
import random
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

WRITE_METHODS = frozenset(
    {
        "sendmessage",
        "sendphoto",
        "senddocument",
        "sendanimation",
        "editmessagetext",
        "editmessagecaption",
        "editmessagemedia",
        "editmessagereplymarkup",
        "deletemessage",
        "deletemessages",
        "sendchataction",
    }
)
"""Lower-cased chat-bound methods that random floods and rate limits apply to by default."""

PenaltyKey = int | str
"""A chat id, or ``"method:<name>"`` for calls without a chat."""


def _lower_set(methods: Iterable[str] | str | None) -> frozenset[str] | None:
    if methods is None:
        return None
    if isinstance(methods, str):
        methods = [methods]
    return frozenset(m.lower() for m in methods)


def _id_set(chats: Iterable[object] | object | None) -> frozenset[int] | None:
    if chats is None:
        return None
    if not isinstance(chats, Iterable) or isinstance(chats, str | bytes):
        chats = [chats]
    ids = set()
    for chat in chats:
        chat_id = getattr(chat, "id", chat)  # FakeChat / FakeUser (private chat) / int
        if not isinstance(chat_id, int):
            raise TypeError(f"a chat is a FakeChat, a FakeUser or an id, got {chat!r}")
        ids.add(chat_id)
    return frozenset(ids)


@dataclass(eq=False)
class FloodRule:
    """A flood trigger: matching calls (``methods``/``chats``; None = any) answer 429.

    ``times`` is how many more triggers remain (None = unlimited); ``probability`` the chance a
    matching call triggers. ``triggered`` counts triggers so far.
    """

    methods: frozenset[str] | None
    chats: frozenset[int] | None
    retry_after: int
    times: int | None
    probability: float = 1.0
    triggered: int = 0

    def matches(self, method: str, chat_id: int | None) -> bool:
        """True if the rule covers this call (method name lower-cased)."""
        if self.methods is not None and method not in self.methods:
            return False
        return not (self.chats is not None and chat_id not in self.chats)

    @property
    def exhausted(self) -> bool:
        """True once ``times`` triggers happened."""
        return self.times is not None and self.triggered >= self.times


@dataclass(eq=False)
class GroupRateLimit:
    """Sliding-window limit: at most ``max_calls`` write calls per ``period`` seconds per group."""

    max_calls: int
    period: float
    methods: frozenset[str]
    history: dict[int, deque[float]] = field(default_factory=dict)


@dataclass(eq=False)
class TokenRateLimit:
    """Sliding-window limit over the whole token: at most ``max_calls`` write calls per ``period``
    seconds, all chats together; ``refused`` counts the calls it answered with 429."""

    max_calls: int
    period: float
    methods: frozenset[str]
    history: deque[float] = field(default_factory=deque)
    refused: int = 0


class FaultInjector:
    """Decides whether a call gets 429, and remembers active penalties.

    ``seed`` seeds the RNG used by :meth:`random_floods` (reproducible runs).
    """

    def __init__(self, clock: Callable[[], float], seed: int = 0) -> None:
        self._now = clock
        self.rng = random.Random(seed)
        self.rules: list[FloodRule] = []
        self.penalties: dict[PenaltyKey, float] = {}
        self.rate_limit: GroupRateLimit | None = None
        self.token_limit: TokenRateLimit | None = None
        self.refusals = 0

    # ------------------------------------------------------------------ configuration

    def flood(
        self,
        *,
        methods: Iterable[str] | str | None = None,
        chats: Iterable[object] | object | None = None,
        retry_after: int = 1,
        times: int | None = 1,
    ) -> FloodRule:
        """Make the next ``times`` calls matching ``methods``/``chats`` answer 429.

        Example: ``fake.faults.flood(methods="sendMessage", chats=group, retry_after=3)``.
        """
        rule = FloodRule(_lower_set(methods), _id_set(chats), int(retry_after), times)
        self.rules.append(rule)
        return rule

    def random_floods(
        self,
        fraction: float,
        *,
        retry_after: int = 1,
        methods: Iterable[str] | str | None = WRITE_METHODS,
        chats: Iterable[object] | object | None = None,
        seed: int | None = None,
    ) -> FloodRule:
        """Make a seeded random ``fraction`` (0..1) of matching calls trigger a flood.

        By default only chat-bound write methods (sends, edits, deletes, chat actions) are hit,
        never ``getUpdates`` or ``answerCallbackQuery``.
        """
        if not 0 <= fraction <= 1:
            raise ValueError(f"fraction must be within 0..1, got {fraction}")
        if seed is not None:
            self.rng.seed(seed)
        rule = FloodRule(_lower_set(methods), _id_set(chats), int(retry_after), None, fraction)
        self.rules.append(rule)
        return rule

    def group_rate_limit(
        self, max_calls: int = 20, period: float = 60.0, *, methods: Iterable[str] | None = WRITE_METHODS
    ) -> GroupRateLimit:
        """Enforce Telegram's per-group limit (default 20 writes per 60 s) as real 429s."""
        self.rate_limit = GroupRateLimit(max_calls, period, _lower_set(methods) or WRITE_METHODS)
        return self.rate_limit

    def token_rate_limit(
        self, max_calls: int = 30, period: float = 1.0, *, methods: Iterable[str] | None = WRITE_METHODS
    ) -> TokenRateLimit:
        """Enforce Telegram's per-token limit (default 30 writes per second over all chats) as real 429s."""
        self.token_limit = TokenRateLimit(max_calls, period, _lower_set(methods) or WRITE_METHODS)
        return self.token_limit

    def clear(self) -> None:
        """Remove all rules, the rate limits and active penalties."""
        self.rules.clear()
        self.penalties.clear()
        self.rate_limit = None
        self.token_limit = None

    # ------------------------------------------------------------------ decision

    def penalty_remaining(self, key: PenaltyKey) -> float:
        """Seconds left on the penalty for ``key`` (0 if none)."""
        until = self.penalties.get(key)
        if until is None:
            return 0.0
        remaining = until - self._now()
        if remaining <= 0:
            del self.penalties[key]
            return 0.0
        return remaining

    def check(self, method: str, chat_id: int | None, *, group: bool) -> int | None:
        """Return a ``retry_after`` if this call must be refused, else None.

        ``method`` is lower-cased; ``group`` says whether ``chat_id`` is a group/supergroup.
        """
        key: PenaltyKey = chat_id if chat_id is not None else f"method:{method}"
        remaining = self.penalty_remaining(key)
        if remaining > 0:
            self.refusals += 1
            return max(1, math.ceil(remaining))
        for rule in self.rules:
            if rule.exhausted or not rule.matches(method, chat_id):
                continue
            if rule.probability < 1.0 and self.rng.random() >= rule.probability:
                continue
            rule.triggered += 1
            self.penalties[key] = self._now() + rule.retry_after
            self.refusals += 1
            return rule.retry_after
        now = self._now()
        token = self.token_limit
        counted = token is not None and method in token.methods
        if token is not None and counted:
            while token.history and token.history[0] <= now - token.period:
                token.history.popleft()
            if len(token.history) >= token.max_calls:
                token.refused += 1
                self.refusals += 1
                return max(1, math.ceil(token.history[0] + token.period - now))
        limit = self.rate_limit
        if limit is not None and group and chat_id is not None and method in limit.methods:
            window = limit.history.setdefault(chat_id, deque())
            while window and window[0] <= now - limit.period:
                window.popleft()
            if len(window) >= limit.max_calls:
                wait = window[0] + limit.period - now
                self.penalties[key] = now + wait
                self.refusals += 1
                return max(1, math.ceil(wait))
            window.append(now)
        if token is not None and counted:
            token.history.append(now)
        return None
