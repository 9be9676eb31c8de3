"""Pictures for messages: :mod:`render` off the event loop.

Rendering and encoding are CPU-bound (a few to 20 ms), so they never run on the event loop: by
default in a worker *process* (``KWX_RENDER_PROCESSES``, default 1 on machines with 2+ cores;
started with ``spawn``, sprite cache warmed once), so drawing does not hold the bot's GIL — with 50
busy tables, drawing in threads made the p99 press -> answer latency several times longer — else in
a thread (``asyncio.to_thread``, docs/telegram.md §6).  A broken worker pool falls back to threads.

What to draw is a render request of the screen model (:mod:`.screen.pictures`: its key decides
whether a message needs a new picture); delivery asks for it by its kind
(:meth:`.delivery.Delivery.deliver`).  ``game`` is the hand's
:class:`~engine.rules.Ruleset` (卡心五 labels the declaration 廊起).

Encoding: ``palette`` by default (a 48-colour PNG, :func:`render.encode`), chosen by
``benchmarks/bench_pictures.py``: about 40 KiB uploaded per turn against 165-190 KiB as JPEG
(docs/telegram.md §6).

Languages: a private hand picture is drawn in its player's language, the group's pictures (table,
亮倒 reveal, result) in the group's language (``lang``: a catalog name of
:data:`kwx_bot.settings.LANGUAGES`); render draws the words it is given, which the worker takes
from the catalogs (:func:`kwx_bot.words.pictures.picture_words`).  The language
travels with each job to the worker process.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import time
from collections.abc import Callable, Collection, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol

from render.stats import StatsSheet

from ..words.pictures import picture_words
from .game import HandTiles, PublicView, Ruleset, SeatView, Tile

__all__ = [
    "HandTiles",
    "Pictures",
    "RenderPictures",
    "default_render_processes",
    "warm_worker",
]

log = logging.getLogger("kwx.pictures")

KAWUXING = Ruleset.KAWUXING
"""The default ``game`` of every picture: 卡五星 (the hand's :class:`~engine.rules.Ruleset`)."""


def default_render_processes() -> int:
    """1 worker process on a machine with at least 2 cores, else 0 (render in a thread)."""
    return 1 if (os.cpu_count() or 1) >= 2 else 0


def _render(
    fmt: str, name: str, args: tuple[Any, ...], lang: str = "zh_CN", options: dict[str, Any] | None = None
) -> bytes:
    """Draw and encode one picture in ``lang`` (runs in a worker process or thread): the job is
    ``render.<name>(*args, words=picture_words(lang), **options)`` encoded as ``fmt``."""
    import render

    image = getattr(render, name)(*args, words=picture_words(lang), **(options or {}))
    data: bytes = render.encode(image, fmt)
    return data


def _render_replay(
    views: Sequence[PublicView], names: Sequence[str], lang: str, game: str, hands: Sequence[HandTiles] | None = None
) -> bytes:
    """Draw a replay (runs in a worker process or thread): :func:`render.replay.render_replay`."""
    from render.replay import render_replay

    return render_replay(views, names, picture_words(lang), game=game, hands=hands)


ORPHAN_POLL_SECONDS = 1.0
"""How often a render worker checks that the bot process that started it is still alive."""


def warm_worker(parent: int, pictures: bool = True) -> None:
    """A render worker's start: ignore SIGINT and SIGTERM, warm the font and tile caches (unless
    not ``pictures``: a worker that only thinks), and leave when the bot process ``parent`` is gone
    (killed with SIGKILL it cannot stop its workers, which would linger).

    Ctrl-C and systemd signal the whole process group; the worker leaves the stop to its parent,
    which finishes the pictures in hand and then shuts the pool down, so a stop is never mistaken
    for a dead worker."""
    import signal
    import threading

    import render

    def watch() -> None:
        while True:
            time.sleep(ORPHAN_POLL_SECONDS)
            if os.getppid() != parent:
                os._exit(0)

    for stop in (signal.SIGINT, signal.SIGTERM):
        signal.signal(stop, signal.SIG_IGN)
    threading.Thread(target=watch, name="kwx-orphan-watch", daemon=True).start()
    if pictures:
        render.warm_cache()


class Pictures(Protocol):
    """What the presenter needs: encoded pictures (PNG or JPEG bytes) for each kind of message, with labels
    in ``lang`` (the player's language for a hand, the group's for the others)."""

    async def hand(
        self,
        view: SeatView,
        lang: str = "zh_CN",
        protected: Collection[Tile] = (),
        game: Ruleset = KAWUXING,
        names: Sequence[str] = (),
    ) -> bytes:
        """A player's private hand picture, the table as ``view.public`` shows it above the tiles
        (``names``: the players' names by seat); ``protected``: tiles the seat may not discard
        because a 亮倒 / 廊起 player waits on them (the discards missing from the engine's legal
        actions, docs/rules.md §A9.8, §B), marked in the picture; ``game``: the hand's
        ``rules.ruleset`` (``"kaxinwu"`` labels the declaration 廊起)."""
        ...

    async def table(
        self,
        view: PublicView,
        names: Sequence[str],
        lang: str = "zh_CN",
        totals: Sequence[int] | None = None,
        game: Ruleset = KAWUXING,
    ) -> bytes:
        """The group's live table picture, with each seat's running match total (``totals``)."""
        ...

    async def reveal(
        self, view: PublicView, seat: int, names: Sequence[str], lang: str = "zh_CN", game: Ruleset = KAWUXING
    ) -> bytes:
        """The public 亮倒 reveal picture of ``seat``."""
        ...

    async def result(
        self,
        view: PublicView,
        names: Sequence[str],
        lang: str = "zh_CN",
        hands: Sequence[HandTiles] | None = None,
        game: Ruleset = KAWUXING,
    ) -> bytes:
        """The end-of-hand result picture, with every seat's hand face up (``hands``, one per seat)."""
        ...

    async def replay(
        self,
        views: Sequence[PublicView],
        names: Sequence[str],
        lang: str = "zh_CN",
        game: Ruleset = KAWUXING,
        hands: Sequence[HandTiles] | None = None,
    ) -> bytes:
        """A finished hand's replay, one frame per public moment (``views``, labels for ``game``),
        then its result picture (with every seat's hand face up, ``hands``): an animated GIF."""
        ...

    async def stats(self, sheet: StatsSheet, lang: str = "zh_CN") -> bytes:
        """The ``/stats`` picture of ``sheet`` (a group's or a player's record)."""
        ...


class RenderPictures:
    """:class:`Pictures` drawn by :mod:`render`, encoded as ``fmt`` (:func:`render.encode`:
    ``"palette"``, the default -- a 48-colour PNG, about a sixth of the bytes of ``"jpeg"`` per turn,
    docs/telegram.md §6 --, ``"jpeg"`` or ``"png"``), in ``processes`` worker processes (0: a thread)."""

    def __init__(self, fmt: str = "palette", processes: int = 0) -> None:
        self.fmt = fmt
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None
        self._stopping = False

    def stopping(self) -> None:
        """The bot is stopping (SIGINT/SIGTERM): a worker that dies from now on was stopped with
        it -- the pictures still in hand are drawn in threads, and nothing is logged as an error."""
        self._stopping = True

    def _executor(self) -> ProcessPoolExecutor | None:
        if self.processes <= 0:
            return None
        if self._pool is None:
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                self.processes, mp_context=context, initializer=warm_worker, initargs=(os.getpid(),)
            )
        return self._pool

    async def _run(self, name: str, lang: str, *args: object, **options: object) -> bytes:
        return await self._call(_render, self.fmt, name, args, lang, options)

    async def _call(self, fn: Callable[..., bytes], *args: object) -> bytes:
        """``fn(*args)`` in the worker process, or in a thread (no workers, or they died)."""
        pool = self._executor()
        if pool is not None:
            try:
                return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)
            except BrokenProcessPool:
                if self._stopping:
                    log.info("the render worker process stopped with the bot; drawing in threads")
                else:
                    log.error("the render worker process died; rendering in threads from now on")
                self.processes = 0
                self._pool = None
        return await asyncio.to_thread(fn, *args)

    def close(self) -> None:
        """Stop the worker processes (shutdown)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    async def hand(
        self,
        view: SeatView,
        lang: str = "zh_CN",
        protected: Collection[Tile] = (),
        game: Ruleset = KAWUXING,
        names: Sequence[str] = (),
    ) -> bytes:
        """See :func:`render.render_hand`."""
        guard = tuple(sorted(protected))
        return await self._run("render_hand", lang, view, protected=guard, game=str(game), names=list(names))

    async def table(
        self,
        view: PublicView,
        names: Sequence[str],
        lang: str = "zh_CN",
        totals: Sequence[int] | None = None,
        game: Ruleset = KAWUXING,
    ) -> bytes:
        """See :func:`render.render_table`."""
        listed = None if totals is None else list(totals)
        return await self._run("render_table", lang, view, list(names), totals=listed, game=str(game))

    async def reveal(
        self, view: PublicView, seat: int, names: Sequence[str], lang: str = "zh_CN", game: Ruleset = KAWUXING
    ) -> bytes:
        """See :func:`render.render_reveal`."""
        return await self._run("render_reveal", lang, view, seat, list(names), game=str(game))

    async def result(
        self,
        view: PublicView,
        names: Sequence[str],
        lang: str = "zh_CN",
        hands: Sequence[HandTiles] | None = None,
        game: Ruleset = KAWUXING,
    ) -> bytes:
        """See :func:`render.render_result`."""
        listed = None if hands is None else list(hands)
        return await self._run("render_result", lang, view, list(names), hands=listed, game=str(game))

    async def replay(
        self,
        views: Sequence[PublicView],
        names: Sequence[str],
        lang: str = "zh_CN",
        game: Ruleset = KAWUXING,
        hands: Sequence[HandTiles] | None = None,
    ) -> bytes:
        """See :func:`render.replay.render_replay` (a GIF, whatever ``fmt`` the photos use)."""
        listed = None if hands is None else list(hands)
        return await self._call(_render_replay, list(views), list(names), lang, str(game), listed)

    async def stats(self, sheet: StatsSheet, lang: str = "zh_CN") -> bytes:
        """See :func:`render.stats.render_stats`."""
        return await self._run("render_stats", lang, sheet)
