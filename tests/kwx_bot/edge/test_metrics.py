"""Prometheus metrics: the sender's outcomes and flood waits, timed pictures, the exposition."""

from __future__ import annotations

import pytest
from prometheus_client.parser import text_string_to_metric_families
from telegram.error import BadRequest, Forbidden, RetryAfter

from kwx_bot.edge.metrics import NO_METRICS, PrometheusMetrics, TimedPictures
from kwx_bot.edge.sender import Sender
from kwx_bot.edge.throttle import PacingRateLimiter, Priority

from .test_sender import ScriptedBot


def samples(metrics: PrometheusMetrics) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    body, content_type = metrics.exposition()
    assert content_type.startswith("text/plain")
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(body.decode())
        for s in family.samples
    }


async def test_every_attempt_is_counted_by_outcome_and_flood_waits_add_up():
    async def no_sleep(seconds: float) -> None:
        pass

    metrics = PrometheusMetrics()
    bot = ScriptedBot(
        None, RetryAfter(3), RetryAfter(2), None, Forbidden("bot was blocked by the user"),
        BadRequest("Message is not modified: x"), BadRequest("Message to edit not found"), BadRequest("odd"),
    )  # fmt: skip
    sender = Sender(bot, sleep=no_sleep, metrics=metrics)  # type: ignore[arg-type]
    assert (await sender.send_text(1, "a")).ok
    assert (await sender.send_text(-5, "b")).ok  # two 429s, then ok
    for _ in range(4):
        await sender.send_text(2, "c")
    values = samples(metrics)
    by_outcome = {dict(k[1])["outcome"]: v for k, v in values.items() if k[0] == "kwx_sends_total"}
    assert by_outcome == {"ok": 2, "429": 2, "403": 1, "not_modified": 1, "gone": 1, "failed": 1}
    assert values[("kwx_flood_wait_seconds_total", ())] == 5
    sender.stop()
    await sender.send_text(1, "after the stop")  # not made: not counted
    assert samples(metrics)[("kwx_sends_total", (("outcome", "failed"),))] == 1


async def test_timed_pictures_observe_each_picture_and_close_the_inner_ones():
    class Drawn:
        closed = False

        async def hand(self, view, lang="zh_CN", protected=(), game="kawuxing", names=()):
            return b"hand" + "".join(names).encode()

        async def table(self, view, names, lang="zh_CN", totals=None, game="kawuxing"):
            return b"table" + bytes(totals or ())

        async def reveal(self, view, seat, names, lang="zh_CN", game="kawuxing"):
            return b"reveal"

        async def result(self, view, names, lang="zh_CN", hands=None, game="kawuxing"):
            raise ValueError("boom")

        def close(self):
            self.closed = True

    metrics = PrometheusMetrics()
    inner = Drawn()
    pictures = TimedPictures(inner, metrics)  # type: ignore[arg-type]
    assert await pictures.hand(None) == b"hand"
    assert await pictures.table(None, ["a"], "en", [1, 2]) == b"table\x01\x02"  # totals passed through
    assert await pictures.reveal(None, 1, ["a"]) == b"reveal"
    with pytest.raises(ValueError):
        await pictures.result(None, ["a"])
    assert samples(metrics)[("kwx_render_seconds_count", ())] == 4
    assert await pictures.hand(None, "en", (), "kawuxing", ["Ann", "Ben"]) == b"handAnnBen"  # names passed through
    pictures.close()
    assert inner.closed


def test_gauges_read_their_source_and_no_metrics_records_nothing():
    metrics = PrometheusMetrics()
    tables = [1, 2]
    metrics.live_tables(lambda: len(tables))
    metrics.commit(0.002)
    metrics.update()
    metrics.press()
    tables.append(3)
    values = samples(metrics)
    assert values[("kwx_live_tables", ())] == 3
    assert values[("kwx_commit_seconds_count", ())] == 1 and values[("kwx_commit_seconds_sum", ())] == 0.002
    assert values[("kwx_updates_total", ())] == 1 and values[("kwx_presses_total", ())] == 1
    assert not NO_METRICS.enabled and NO_METRICS.exposition() == (b"", "text/plain")


async def test_each_writes_wait_in_the_pacer_is_observed_by_priority():
    metrics = PrometheusMetrics()
    limiter = PacingRateLimiter(on_wait=lambda p, s: metrics.paced(p.name.lower(), s))

    async def call():
        return True

    for chat_id, priority in ((7, None), (-5, None), (-5, Priority.BACKGROUND)):
        await limiter.process_request(call, (), {}, "editMessageMedia", {"chat_id": chat_id}, priority)
    await limiter.process_request(call, (), {}, "getChatMember", {"chat_id": -5}, None)  # a read: not paced
    values = samples(metrics)
    counts = {dict(k[1])["priority"]: v for k, v in values.items() if k[0] == "kwx_pacing_wait_seconds_count"}
    assert counts == {"own": 1, "announce": 1, "background": 1}
    await limiter.shutdown()
