"""Pictures for messages: :mod:`render` in a worker thread, plus the keys that decide re-uploads.

Rendering and encoding are CPU-bound (10-40 ms), so they run in ``asyncio.to_thread`` and never
block the event loop (TELEGRAM.md §6).  A *photo key* names what a picture shows: a message is only
given a new photo when its key changes, otherwise its caption or buttons are edited alone (cheaper,
and no re-upload).  The hand picture's key is the seat's own tiles (concealed, drawn, melds, waits,
亮倒): the wall count and unseen-copy numbers drawn in it are a snapshot of the last time the seat's
tiles changed.  The table picture's key is the whole public view plus the names.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Sequence
from typing import Protocol

from engine.views import PublicView, SeatView

__all__ = ["Pictures", "RenderPictures", "hand_key", "table_key"]


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=10).hexdigest()


def hand_key(view: SeatView) -> str:
    """Photo key of a hand picture (see module docstring)."""
    own = view.public.seats[view.seat]
    return "h" + _digest(repr((view.concealed, view.drawn, view.melds, view.waits, own.liangdao)))


def table_key(view: PublicView, names: Sequence[str]) -> str:
    """Photo key of a table picture."""
    return "t" + _digest(repr((view, tuple(names))))


class Pictures(Protocol):
    """What the presenter needs: encoded pictures (PNG bytes) for each kind of message."""

    async def hand(self, view: SeatView) -> bytes:
        """A player's private hand picture."""
        ...

    async def table(self, view: PublicView, names: Sequence[str]) -> bytes:
        """The group's live table picture."""
        ...

    async def reveal(self, view: PublicView, seat: int, names: Sequence[str]) -> bytes:
        """The public 亮倒 reveal picture of ``seat``."""
        ...

    async def result(self, view: PublicView, names: Sequence[str]) -> bytes:
        """The end-of-hand result picture."""
        ...


class RenderPictures:
    """:class:`Pictures` drawn by :mod:`render` (PNG) in a worker thread."""

    def __init__(self, fmt: str = "png") -> None:
        self.fmt = fmt

    async def _run(self, name: str, *args: object) -> bytes:
        import render

        def work() -> bytes:
            return render.encode(getattr(render, name)(*args), self.fmt)

        return await asyncio.to_thread(work)

    async def hand(self, view: SeatView) -> bytes:
        """See :func:`render.render_hand`."""
        return await self._run("render_hand", view)

    async def table(self, view: PublicView, names: Sequence[str]) -> bytes:
        """See :func:`render.render_table`."""
        return await self._run("render_table", view, list(names))

    async def reveal(self, view: PublicView, seat: int, names: Sequence[str]) -> bytes:
        """See :func:`render.render_reveal`."""
        return await self._run("render_reveal", view, seat, list(names))

    async def result(self, view: PublicView, names: Sequence[str]) -> bytes:
        """See :func:`render.render_result`."""
        return await self._run("render_result", view, list(names))
