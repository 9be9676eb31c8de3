"""Bot latency and message budget under load (docs/architecture.md §7), against the fake Bot API.

Runs ``--tables`` tables at once (three human players each, the production renderer unless
``--tiny``), every table's players pressing random legal buttons as soon as their buttons show.
Reports, over all presses: press -> callback answered (the "reply"), and press -> the handler done
(commit plus every resulting send/edit), as median / p90 / p99 in ms; and chat messages sent or
edited per turn (per discard) over whole hands.  The fake answers instantly and there is no rate
limiter, so this measures the bot itself.  Bar: p99 press -> reply <= 200 ms with 50 live tables.

    python benchmarks/bench_bot.py [--tables 50] [--presses 40] [--think 1.0] [--tiny]

``--think S``: each player waits uniform(0, 2S) seconds before pressing (0 = press at once, a load
far beyond people: 50 tables then make ~100 presses per second).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fakebot import MESSAGE_WRITE_METHODS, FakeBotAPI, application_builder
from kwx_bot.edge.codec import decode
from kwx_bot.service.pictures import RenderPictures
from tests.e2e.harness import Kwx

os.environ.setdefault("NO_PROXY", "127.0.0.1,localhost")


def _pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))]


async def main(tables: int, presses: int, tiny: bool, think: float = 0.0, processes: int = 1, fmt: str = "png") -> None:
    fake = FakeBotAPI(callback_query_ttl=3600)
    kwx = Kwx(
        fake, lambda: application_builder(fake), Path(tempfile.mkdtemp()) / "bench.sqlite3", table_edit_seconds=3.0
    )
    if not tiny:
        kwx.pictures = RenderPictures(fmt, processes=processes)
    groups = []
    for t in range(tables):
        users = kwx.players(f"A{t}", f"B{t}", f"C{t}")
        groups.append((users, kwx.group(users, f"Table {t}")))
    reply_ms: list[float] = []
    done_ms: list[float] = []
    async with kwx.running() as service:
        await kwx.start_bot(*[u for users, _ in groups for u in users])
        for users, group in groups:
            fake.user_command(users[0], group, "new")
        await kwx.settle()
        for users, group in groups:
            lobby = fake.last_message(group)
            for u in users[1:]:
                fake.press(u, lobby, "Join")
        await kwx.settle()
        for t, (users, group) in enumerate(groups):
            table = await service.store.open_table_of_group(await service.store.group_id_for_chat(group.id))
            await service.prepare_deal(table.table_id, {"seed": f"bench-{t}"})
            fake.press(users[0], fake.bot_messages(group)[0], "Start")
        await kwx.settle()
        mark = fake.mark()
        turns_before = 0

        async def play(users, seed: int) -> None:
            rng = random.Random(seed)
            for _ in range(presses):
                live = next((x for x in service.tables.cached() if x.seat_of(users[0].id)), None)
                if live is None or live.state is None or live.state.result is not None:
                    return
                seq = live.row.seq
                movers = [(u, [(lbl, d) for lbl, d in kwx.game_buttons(u) if decode(d).seq == seq]) for u in users]
                movers = [(u, b) for u, b in movers if b]
                if not movers:
                    await asyncio.sleep(0.005)
                    continue
                user, buttons = rng.choice(movers)
                if think:
                    await asyncio.sleep(rng.uniform(0, 2 * think))
                    if live.row.seq != seq:
                        continue
                msg = kwx.hand_message(user)
                start = time.monotonic()
                query = fake.press(user, msg, data=rng.choice(buttons)[1])
                await fake.wait_for_answer(query, timeout=30)
                reply_ms.append((query.answer.at - query.created_at) * 1000)
                await fake.wait_for(
                    lambda live=live, seq=seq: live.row.seq != seq and not live.present_lock.locked(), 30
                )
                done_ms.append((time.monotonic() - start) * 1000)

        t0 = time.monotonic()
        await asyncio.gather(*(play(users, i) for i, (users, _) in enumerate(groups)))
        wall = time.monotonic() - t0
        await kwx.settle()
        turns = 0
        for live in service.tables.cached():
            turns += sum(1 for e in live.events if e.type == "discarded")
        writes = fake.count_calls(MESSAGE_WRITE_METHODS, since=mark)
        turns -= turns_before
    kind = "stand-in" if tiny else f"real {fmt}, {processes} render process(es)"
    print(f"{tables} tables, {len(reply_ms)} presses in {wall:.1f} s ({kind} pictures, think {think} s)")
    for label, values in (("press -> reply (answerCallbackQuery)", reply_ms), ("press -> all sends done", done_ms)):
        print(f"  {label}: median {statistics.median(values):.1f} ms, p90 {_pct(values, 0.9):.1f} ms, "
              f"p99 {_pct(values, 0.99):.1f} ms")  # fmt: skip
    if turns:
        print(f"  messages sent or edited per turn: {writes / turns:.2f} ({writes} over {turns} discards)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--presses", type=int, default=40, help="presses per table")
    parser.add_argument("--tiny", action="store_true", help="stand-in pictures instead of the renderer")
    parser.add_argument("--think", type=float, default=0.0, help="mean seconds a player waits before pressing")
    parser.add_argument("--processes", type=int, default=1, help="render worker processes (0 = a thread)")
    parser.add_argument("--format", choices=("png", "jpeg"), default="png", help="picture encoding")
    args = parser.parse_args()
    asyncio.run(main(args.tables, args.presses, args.tiny, args.think, args.processes, args.format))
