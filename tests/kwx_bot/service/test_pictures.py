"""Pictures off the event loop: a worker process or a thread, JPEG or PNG, same picture."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time

import pytest
from PIL import Image

import render
from engine.game import public_view, replay, start, view_for
from engine.rules import RuleSet
from kwx_bot.service.pictures import RenderPictures
from kwx_bot.service.screen.pictures import hand_key, table_key
from kwx_bot.words.pictures import picture_words

ZH, EN = picture_words("zh_CN"), picture_words("en")


@pytest.fixture(scope="module")
def state():
    return replay(start(RuleSet(), 0, seed="pictures"))


@pytest.mark.parametrize(("fmt", "processes", "magic"), [("jpeg", 1, b"\xff\xd8"), ("png", 0, b"\x89PNG")])
async def test_render_in_a_process_or_a_thread(state, fmt, processes, magic):
    pictures = RenderPictures(fmt, processes=processes)
    try:
        hand = await pictures.hand(view_for(state, 0))
        table = await pictures.table(public_view(state), ["A", "B", "C"])
    finally:
        pictures.close()
    assert hand[:4].startswith(magic) and table[:4].startswith(magic)
    w, h = Image.open(io.BytesIO(table)).size
    assert w > 400 and h > 400 and w + h <= 10000


async def test_hand_pictures_carry_the_names_to_the_table_part(state):
    view = view_for(state, 0)
    pictures = RenderPictures("png", processes=0)
    try:
        named = await pictures.hand(view, names=["Ann", "Ben", "Cat"])
    finally:
        pictures.close()
    assert named == render.encode(render.render_hand(view, ZH, names=["Ann", "Ben", "Cat"]), "png")
    assert named != render.encode(render.render_hand(view, ZH, names=["Ann", "Bob", "Cat"]), "png")


async def test_hand_pictures_in_the_players_language(state):
    """An English player's hand picture differs from a Chinese player's for the same view, in a thread
    and through the worker process (the job carries the language)."""
    import render

    view = view_for(state, 0)
    expected = render.encode(render.render_hand(view, EN), "png")
    for processes in (0, 1):
        pictures = RenderPictures("png", processes=processes)
        try:
            zh = await pictures.hand(view)
            en = await pictures.hand(view, lang="en")
            table_en = await pictures.table(public_view(state), ["A", "B", "C"], lang="en")
        finally:
            pictures.close()
        assert zh != en and en == expected
        assert zh == render.encode(render.render_hand(view, ZH), "png")
        assert table_en == render.encode(render.render_table(public_view(state), ["A", "B", "C"], EN), "png")


async def test_table_pictures_carry_the_match_totals(state):
    view = public_view(state)
    assert table_key(view, ["A", "B", "C"], "en", [3, -3, 0]) != table_key(view, ["A", "B", "C"], "en", [0, 0, 0])
    pictures = RenderPictures("png", processes=0)
    plain = await pictures.table(view, ["A", "B", "C"])
    with_totals = await pictures.table(view, ["A", "B", "C"], totals=[3, -3, 0])
    a = Image.open(io.BytesIO(plain)).convert("RGB")
    b = Image.open(io.BytesIO(with_totals)).convert("RGB")
    assert a.size == b.size and a.tobytes() != b.tobytes()


async def test_protected_tiles_reach_the_hand_picture_and_its_key(state):
    """Tiles the seat may not discard (protection, docs/rules.md §A9.8) are marked in the picture, so
    they are part of its photo key; the job carries them to the worker."""
    import render

    view = view_for(state, 0)
    guard = {view.concealed[0]}
    assert hand_key(view, protected=guard) != hand_key(view)
    assert hand_key(view, protected=()) == hand_key(view)
    pictures = RenderPictures("png", processes=0)
    try:
        marked = await pictures.hand(view, protected=guard)
        plain = await pictures.hand(view)
    finally:
        pictures.close()
    assert marked == render.encode(render.render_hand(view, ZH, protected=guard), "png") != plain


async def test_the_game_reaches_the_pictures_and_the_keys(state):
    """卡心五 labels the declaration 廊起: the game travels with the job and is part of the keys."""
    import render

    view = public_view(state)
    assert table_key(view, ["A", "B", "C"], ruleset="kaxinwu") != table_key(view, ["A", "B", "C"])
    assert hand_key(view_for(state, 0), ruleset="kaxinwu") != hand_key(view_for(state, 0))
    pictures = RenderPictures("png", processes=0)
    try:
        table = await pictures.table(view, ["A", "B", "C"], game="kaxinwu")
    finally:
        pictures.close()
    assert table == render.encode(render.render_table(view, ["A", "B", "C"], ZH, game="kaxinwu"), "png")


def _ignored_signals(pid: int) -> set[int]:
    """The signals process ``pid`` ignores (the ``SigIgn`` mask of ``/proc/<pid>/status``)."""
    with open(f"/proc/{pid}/status") as f:
        mask = int(next(line for line in f if line.startswith("SigIgn:")).split()[1], 16)
    return {n for n in range(1, 65) if mask & (1 << (n - 1))}


async def test_a_render_worker_leaves_the_process_groups_stop_signals_to_the_bot(state, caplog):
    """Ctrl-C / systemd signal the whole process group: the worker ignores SIGINT and SIGTERM and
    keeps drawing until the bot itself shuts the pool down."""
    pictures = RenderPictures("png", processes=1)
    try:
        first = await pictures.hand(view_for(state, 0))
        [worker] = [p.pid for p in pictures._pool._processes.values()]
        assert {signal.SIGINT, signal.SIGTERM} <= _ignored_signals(worker)
        os.kill(worker, signal.SIGTERM)
        os.kill(worker, signal.SIGINT)
        assert await pictures.hand(view_for(state, 0)) == first
        assert [p.pid for p in pictures._pool._processes.values()] == [worker]
        assert _state_of(worker) != "Z"
    finally:
        pictures.close()
    assert not [r for r in caplog.records if r.levelname == "ERROR"]


@pytest.mark.parametrize(("stopping", "level"), [(False, "ERROR"), (True, "INFO")])
async def test_a_worker_that_dies_while_the_bot_stops_is_no_error(state, caplog, stopping, level):
    """A worker killed while the bot runs is an error (drawing goes on in threads); one that dies
    after the bot began to stop was stopped with it."""
    caplog.set_level("INFO", logger="kwx.pictures")
    pictures = RenderPictures("png", processes=1)
    try:
        first = await pictures.hand(view_for(state, 0))
        [worker] = [p.pid for p in pictures._pool._processes.values()]
        if stopping:
            pictures.stopping()
        os.kill(worker, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while _state_of(worker) != "Z" and time.monotonic() < deadline:
            time.sleep(0.05)
        assert await pictures.hand(view_for(state, 0)) == first  # drawn in a thread
    finally:
        pictures.close()
    [record] = [r for r in caplog.records if r.name == "kwx.pictures"]
    assert record.levelname == level and "render worker" in record.getMessage()


CHILD = """
import asyncio, os, sys
from engine.game import replay, start, view_for
from engine.rules import RuleSet
from kwx_bot.service.pictures import RenderPictures

async def main():
    pictures = RenderPictures("png", processes=1)
    await pictures.hand(view_for(replay(start(RuleSet(), 0, seed="orphan")), 0))
    workers = [p.pid for p in pictures._pool._processes.values()]
    print(*workers, flush=True)
    await asyncio.sleep(60)

asyncio.run(main())
"""


def test_a_render_worker_leaves_when_the_bot_is_killed():
    """A bot killed with SIGKILL cannot stop its render worker; the worker notices and exits."""
    bot = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, text=True)
    try:
        workers = [int(p) for p in bot.stdout.readline().split()]
        assert workers
    finally:
        bot.send_signal(signal.SIGKILL)
        bot.wait()
    deadline = time.monotonic() + 10
    alive = workers
    while alive and time.monotonic() < deadline:
        time.sleep(0.2)
        alive = [p for p in alive if os.path.exists(f"/proc/{p}") and "Z" not in _state_of(p)]
    assert not alive


def _state_of(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "Z"
