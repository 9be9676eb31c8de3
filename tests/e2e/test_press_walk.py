"""The walk of one button press (docs/architecture.md §4 "Delivery"): how many of the bot's files and
functions one discard enters, from the update to the settled messages — measured, and held.

The figures are counted under ``sys.setprofile`` while the harness presses one discard button and
waits until the bot is quiet: every function of ``kwx_bot/`` entered (comprehensions included, as
Python 3.11 runs them as functions of their own), the files they are in, and how often the walk
moves from one file to another and comes back to a file it had left (a coroutine resumed after an
``await`` counts as entered again).  ``pytest tests/e2e/test_press_walk.py -s`` prints them, and
under each file its functions with how often each was entered.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from types import FrameType
from typing import Any

import kwx_bot
from kwx_bot.edge.codec import decode

from .harness import Kwx

PACKAGE = str(Path(kwx_bot.__file__).resolve().parent)
MAX_FILES = 36
MAX_FUNCTIONS = 206
MAX_MOVES = 362
MAX_RETURNS = 327
"""Today's walk (docs/architecture.md §4): a change that makes it longer says so there."""


async def _walk(kwx: Kwx) -> tuple[Counter[tuple[str, str]], list[str]]:
    ann, ben, cat = kwx.players("Ann", "Ben", "Cat")
    group = kwx.group([ann, ben, cat])
    async with kwx.running() as service:
        await kwx.start_bot(ann, ben, cat)
        kwx.fake.user_command(ann, group, "new")
        await kwx.settle()
        lobby = kwx.fake.last_message(group)
        await kwx.press(ben, lobby, "Join")
        await kwx.press(cat, lobby, "Join")
        await service.prepare_deal(1, {"seed": "walk"})
        await kwx.press(ann, lobby, "Start")
        mover = next(u for u in (ann, ben, cat) if any(decode(d).op.value == "d" for _, d in kwx.game_buttons(u)))
        message = kwx.hand_message(mover)
        assert message is not None
        data = next(d for _, d in kwx.game_buttons(mover) if decode(d).op.value == "d")
        entered: Counter[tuple[str, str]] = Counter()
        trail: list[str] = []

        def profile(frame: FrameType, event: str, _arg: Any) -> None:
            path = frame.f_code.co_filename
            if event == "call" and path.startswith(PACKAGE):
                entered[(path, frame.f_code.co_qualname)] += 1
                if not trail or trail[-1] != path:
                    trail.append(path)

        sys.setprofile(profile)
        try:
            await kwx.press(mover, message, data=data)
        finally:
            sys.setprofile(None)
    return entered, trail


async def test_one_press_walks_few_rooms(kwx: Kwx) -> None:
    entered, trail = await _walk(kwx)
    files = {path for path, _name in entered}
    returns = sum(1 for i, path in enumerate(trail) if path in trail[:i])
    print(f"\none discard: {len(files)} files, {len(entered)} functions, {len(trail) - 1} moves between files, "
          f"{returns} returns to a file left before")  # fmt: skip
    for path in sorted(files):
        print("  ", path.removeprefix(PACKAGE), sum(1 for p, _ in entered if p == path))
        for (p, name), calls in sorted(entered.items()):
            if p == path:
                print("      ", name, calls)
    assert any(name == "Play.press" for _path, name in entered), "the press was played"
    assert len(files) <= MAX_FILES and len(entered) <= MAX_FUNCTIONS, (len(files), len(entered))
    assert len(trail) - 1 <= MAX_MOVES and returns <= MAX_RETURNS, (len(trail) - 1, returns)
