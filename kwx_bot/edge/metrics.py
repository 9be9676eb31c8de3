"""Optional Prometheus metrics (``KWX_METRICS_PORT``; off by default) behind no-op hooks (docs/architecture.md §4).

The edge calls a :class:`Metrics` everywhere; :data:`NO_METRICS` does nothing, so the hooks cost a
method call when metrics are off.  :class:`PrometheusMetrics` (``prometheus-client``, imported only
when metrics are on) keeps its own registry and serves it as ``GET /metrics``.  The table service
never sees this module: renders are timed around the :class:`~kwx_bot.service.pictures.Pictures` it
is given (:class:`TimedPictures`), commits through the store's ``on_commit`` hook and statements
through its ``statements`` hook.

=====================================  ======================================================
metric                                 meaning
=====================================  ======================================================
``kwx_updates_total``                  updates processed (handled or failed into the error handler)
``kwx_presses_total``                  button presses (callback queries) handled
``kwx_sends_total{outcome}``           Telegram calls by how each attempt ended: ``ok``, ``403``,
                                       ``429``, ``not_modified``, ``gone``, ``failed`` (a call
                                       retried after a 429 counts once per attempt)
``kwx_flood_wait_seconds_total``       seconds waited out on 429 ``retry_after``
``kwx_render_seconds``                 histogram: drawing and encoding one picture
``kwx_commit_seconds``                 histogram: one write transaction, ``BEGIN`` to ``COMMIT``
``kwx_live_tables``                    gauge: tables loaded in memory (open tables being played)
``kwx_sql_statements_total{kind}``     SQL statements run by the store: ``select`` (reads),
                                       ``write`` (INSERT, UPDATE, DELETE), ``other`` (BEGIN,
                                       COMMIT, the write lock, PRAGMA)
=====================================  ======================================================
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Sequence
from typing import Any

from ..service.pictures import Pictures

__all__ = ["NO_METRICS", "Metrics", "PrometheusMetrics", "TimedPictures"]

SEND_OUTCOMES = ("ok", "403", "429", "not_modified", "gone", "failed")
STATEMENT_KINDS = ("select", "write", "other")


class Metrics:
    """The hooks, doing nothing (metrics off).  Durations are in seconds."""

    enabled = False

    def update(self) -> None:
        """An update was processed."""

    def press(self) -> None:
        """A button press was handled."""

    def send(self, outcome: str) -> None:
        """A Telegram call attempt ended with ``outcome`` (one of :data:`SEND_OUTCOMES`)."""

    def flood_wait(self, seconds: float) -> None:
        """The sender waits ``seconds`` on a 429."""

    def paced(self, priority: str, seconds: float) -> None:
        """A write of ``priority`` (``own``, ``announce``, ``background``) waited ``seconds`` for its
        turn in the pacing rate limiter (docs/architecture.md §4 "Rate limits")."""

    def render(self, seconds: float) -> None:
        """A picture took ``seconds`` to draw and encode."""

    def commit(self, seconds: float) -> None:
        """A write transaction took ``seconds``."""

    def statement(self, kind: str) -> None:
        """The store ran one SQL statement of ``kind`` (one of :data:`STATEMENT_KINDS`; called from
        the SQLite worker thread too)."""

    def live_tables(self, count: Callable[[], int]) -> None:
        """Where the gauge of live tables reads its value."""

    def exposition(self) -> tuple[bytes, str]:
        """The text exposition and its content type (empty when off)."""
        return b"", "text/plain"


NO_METRICS = Metrics()
"""Metrics off."""


class PrometheusMetrics(Metrics):
    """:class:`Metrics` recorded with ``prometheus-client`` in a registry of its own."""

    enabled = True

    def __init__(self) -> None:
        from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

        self.registry = CollectorRegistry()
        r = self.registry
        self._updates = Counter("kwx_updates", "Updates processed", registry=r)
        self._presses = Counter("kwx_presses", "Button presses handled", registry=r)
        self._sends = Counter("kwx_sends", "Telegram call attempts by outcome", ["outcome"], registry=r)
        for outcome in SEND_OUTCOMES:
            self._sends.labels(outcome)
        self._flood = Counter("kwx_flood_wait_seconds", "Seconds waited out on 429 retry_after", registry=r)
        pacing_buckets = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
        self._paced = Histogram("kwx_pacing_wait_seconds", "A write's wait for its turn in the pacer", ["priority"],
                                buckets=pacing_buckets, registry=r)  # fmt: skip
        picture_buckets = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
        self._render = Histogram("kwx_render_seconds", "Drawing and encoding one picture", buckets=picture_buckets,
                                 registry=r)  # fmt: skip
        commit_buckets = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)
        self._commit = Histogram("kwx_commit_seconds", "One write transaction", buckets=commit_buckets, registry=r)
        self._live = Gauge("kwx_live_tables", "Tables loaded in memory", registry=r)
        self._statements = Counter("kwx_sql_statements", "SQL statements run by kind", ["kind"], registry=r)
        for kind in STATEMENT_KINDS:
            self._statements.labels(kind)

    def update(self) -> None:
        self._updates.inc()

    def press(self) -> None:
        self._presses.inc()

    def send(self, outcome: str) -> None:
        self._sends.labels(outcome).inc()

    def flood_wait(self, seconds: float) -> None:
        self._flood.inc(seconds)

    def paced(self, priority: str, seconds: float) -> None:
        self._paced.labels(priority).observe(seconds)

    def render(self, seconds: float) -> None:
        self._render.observe(seconds)

    def commit(self, seconds: float) -> None:
        self._commit.observe(seconds)

    def statement(self, kind: str) -> None:
        self._statements.labels(kind).inc()

    def live_tables(self, count: Callable[[], int]) -> None:
        self._live.set_function(lambda: float(count()))

    def exposition(self) -> tuple[bytes, str]:
        from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

        return generate_latest(self.registry), CONTENT_TYPE_LATEST


class TimedPictures:
    """A :class:`~kwx_bot.service.pictures.Pictures` that reports each picture's time to ``metrics``."""

    def __init__(self, inner: Pictures, metrics: Metrics) -> None:
        self.inner = inner
        self.metrics = metrics

    async def _timed(self, draw: Any, *args: Any, **options: Any) -> bytes:
        started = time.perf_counter()
        try:
            data: bytes = await draw(*args, **options)
            return data
        finally:
            self.metrics.render(time.perf_counter() - started)

    async def hand(
        self,
        view: Any,
        lang: str = "zh_CN",
        protected: Collection[Any] = (),
        game: str = "kawuxing",
        names: Sequence[str] = (),
    ) -> bytes:
        """See :meth:`Pictures.hand`."""
        return await self._timed(self.inner.hand, view, lang, protected, game, names)

    async def table(
        self,
        view: Any,
        names: Sequence[str],
        lang: str = "zh_CN",
        totals: Sequence[int] | None = None,
        game: str = "kawuxing",
    ) -> bytes:
        """See :meth:`Pictures.table`."""
        return await self._timed(self.inner.table, view, names, lang, totals, game)

    async def reveal(
        self, view: Any, seat: int, names: Sequence[str], lang: str = "zh_CN", game: str = "kawuxing"
    ) -> bytes:
        """See :meth:`Pictures.reveal`."""
        return await self._timed(self.inner.reveal, view, seat, names, lang, game)

    async def result(
        self,
        view: Any,
        names: Sequence[str],
        lang: str = "zh_CN",
        hands: Sequence[Any] | None = None,
        game: str = "kawuxing",
    ) -> bytes:
        """See :meth:`Pictures.result`."""
        return await self._timed(self.inner.result, view, names, lang, hands, game)

    async def replay(
        self,
        views: Sequence[Any],
        names: Sequence[str],
        lang: str = "zh_CN",
        game: str = "kawuxing",
        hands: Sequence[Any] | None = None,
    ) -> bytes:
        """See :meth:`Pictures.replay`."""
        return await self._timed(self.inner.replay, views, names, lang, game, hands)

    async def stats(self, sheet: Any, lang: str = "zh_CN") -> bytes:
        """See :meth:`Pictures.stats`."""
        return await self._timed(self.inner.stats, sheet, lang)

    def stopping(self) -> None:
        """Tell the inner pictures the bot is stopping, if they care (see ``RenderPictures.stopping``)."""
        stopping = getattr(self.inner, "stopping", None)
        if callable(stopping):
            stopping()

    def close(self) -> None:
        """Close the inner pictures (their worker processes), if they have anything to close."""
        close = getattr(self.inner, "close", None)
        if callable(close):
            close()
