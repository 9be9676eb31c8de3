"""``/stats`` on a group of 10,000 hands: query + aggregate + render + encode, beside ``/score``.

Usage: ``python benchmarks/bench_stats.py [--hands N] [--runs N] [--players N] [--db PATH_OR_URL]``.

Builds a database — SQLite (a temporary file, or the file ``--db``), or PostgreSQL (``--db
postgresql://...``, an empty database) — reused when it already holds the hands, with one group of
``--players`` people playing ``--hands`` scored hands at 3-seat tables of 100 hands each, written
through the store's own transactions (:class:`kwx_bot.store.Tx`: hand rows, every event, ledger rows,
results) — the events and results of a few dozen real self-played hands (``engine.ai``), dealt out
again to random players, so the rows are the size and shape a real group's are (about 64 events a
hand, about one hand in two with a 亮倒).  Then prints the median over ``--runs`` of:

* ``/score``'s query (:meth:`~kwx_bot.store.SqlStore.season_report`), the reference;
* ``/stats``: the query (:meth:`~kwx_bot.store.SqlStore.stats_rows`), the aggregation
  (:func:`kwx_bot.service.stats.aggregate`), the picture (:func:`render.render_stats`) and its
  encoding as the bot sends it (the palette PNG), each and in total — for the group, and for one
  player's own record (``/stats me``).

The bar (docs/architecture.md §7): ``/stats`` of a group of 10,000 hands answers in under a second.
Exit status 1 if it is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.ai.players import Level
from engine.ai.selfplay import ai_agent, play_hand
from engine.rules import RuleSet
from kwx_bot.service.stats import aggregate
from kwx_bot.store import LedgerRow, SqlStore, open_store
from render import encode, render_stats, warm_cache
from render.stats import StatsSheet

BAR_SECONDS = 1.0
"""``/stats`` of a group of 10,000 hands, query to encoded picture."""
PER_TABLE = 100
SAMPLES = 48


def sample_hands(count: int) -> list[list[dict[str, Any]]]:
    """The events (JSON) of ``count`` self-played 卡五星 hands."""
    rules = RuleSet()
    agents = [ai_agent(Level.NORMAL, rules)] * rules.players
    return [[e.to_json() for e in play_hand(rules, agents, f"bench-{i}", random.Random(i))[1]] for i in range(count)]


def _ledger(hand_id: int, result: dict[str, Any], users: list[int]) -> list[LedgerRow]:
    dealt = {w["from_seat"] for w in result["winners"] if w["by"] != "self_draw"}
    rows = []
    for seat, user in enumerate(users):
        wins = [w for w in result["winners"] if w["seat"] == seat]
        rows.append(
            LedgerRow(
                hand_id, seat, user, result["hand_deltas"][seat], result["kong_deltas"][seat], result["deltas"][seat],
                won=bool(wins), dealt_in=seat in dealt,
                multiplier=max((m for w in wins for m in w["multiplier"].values()), default=0),
                fans=" ".join(f for w in wins for f in w["fans"]),
            )
        )  # fmt: skip
    return rows


async def build(store: SqlStore, hands: int, players: int) -> tuple[int, float]:
    """One group of ``hands`` hands in ``store``; returns (group id, seconds taken)."""
    started = time.perf_counter()
    samples = sample_hands(SAMPLES)
    rng = random.Random(1)
    async with store.transaction() as tx:
        for user in range(1, players + 1):
            await tx.upsert_user(user, f"Player {user}")
        group = await tx.ensure_group(-100, "Bench night")
    done = 0
    while done < hands:
        async with store.transaction() as tx:
            table = await tx.create_table(group, "standard", {"game": "kawuxing", "seats": 3}, 1, bot_id=1)
            seq = 0
            for number in range(1, min(PER_TABLE, hands - done) + 1):
                events = samples[rng.randrange(SAMPLES)]
                hand = await tx.start_hand(table, number, 0, {"seed": f"bench-{done}"})
                seq = await tx.append_events(table, hand, seq, [(e["type"], e, None) for e in events])
                await tx.record_ledger(group, 1, table, _ledger(hand, events[-1], rng.sample(range(1, players + 1), 3)))
                await tx.finish_hand(hand, "over", events[-1])
                done += 1
            await tx.set_status(table, "closed")
    return group, time.perf_counter() - started


async def median(fn: Callable[[], Awaitable[object]], runs: int) -> float:
    """Median seconds of ``await fn()`` over ``runs`` calls (after one warm-up call)."""
    await fn()
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        await fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


async def measure(store: SqlStore, group: int, runs: int) -> bool:
    """Print the timings; True if ``/stats`` of the group meets the bar."""
    rows = await store.stats_rows(group_id=group)
    players, hands = aggregate(rows.seats)
    sheet = StatsSheet("Bench night", players, hands, season=1)
    image = render_stats(sheet, "en")
    size = f"{image.size[0]}x{image.size[1]}, {len(encode(image, 'palette')) / 1024:.1f} KiB"
    print(f"{hands} hands, {len(rows.seats)} seats, {len(players)} players; picture {size}")

    async def whole(user: int | None = None) -> None:
        got = await store.stats_rows(group_id=None if user else group, user_id=user)
        shown, count = aggregate(got.seats)
        encode(
            render_stats(StatsSheet("Bench night", shown, count, season=1, personal=user is not None), "en"),
            "palette",
        )

    async def only(fn: Callable[[], object]) -> None:
        fn()

    score = await median(lambda: store.season_report(group), runs)
    query = await median(lambda: store.stats_rows(group_id=group), runs)
    summed = await median(lambda: only(lambda: aggregate(rows.seats)), runs)
    drawn = await median(lambda: only(lambda: render_stats(sheet, "en")), runs)
    encoded = await median(lambda: only(lambda: encode(image, "palette")), runs)
    total = await median(whole, runs)
    mine = await median(lambda: whole(1), runs)
    ok = total < BAR_SECONDS
    print(f"/score query (reference)        {score * 1000:8.1f} ms")
    print(f"/stats query                    {query * 1000:8.1f} ms  ({query / score:.1f}x /score)")
    print(f"       aggregate                {summed * 1000:8.1f} ms")
    print(f"       render                   {drawn * 1000:8.1f} ms")
    print(f"       encode (palette PNG)     {encoded * 1000:8.1f} ms")
    verdict = f"< {BAR_SECONDS * 1000:.0f} ms: {'ok' if ok else 'MISSED'}"
    print(f"/stats total                    {total * 1000:8.1f} ms  {verdict}")
    print(f"/stats me total (one player)    {mine * 1000:8.1f} ms")
    return ok


async def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--db", default=None, help="SQLite file or postgresql:// URL (built if empty, else reused)")
    args = parser.parse_args(argv)
    warm_cache()
    with tempfile.TemporaryDirectory() as tmp:
        store = await open_store(args.db or Path(tmp) / "bench.sqlite3")
        try:
            print(f"database: {store.path}")
            if (await store.counts())["hands"] >= args.hands:
                group = 1
            else:
                group, seconds = await build(store, args.hands, args.players)
                print(f"built {args.hands} hands in {seconds:.1f} s")
            return 0 if await measure(store, group, args.runs) else 1
        finally:
            await store.close()


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
