"""The table as those outside a claim window see it (docs/architecture.md §2 "Views are the only doors").

A claim window (docs/rules.md §A5, §E#40) or a rob window (§A6.6) opens only when some seat can
胡, 杠 or 碰 the tile: that it is open at all says that someone holds two of the tile or waits on
it, and its pending seats say who.  :func:`public_view` shows both (``phase`` CLAIM / ROB,
``to_act``), so it is the view of the seats that are asked.  :func:`spectator_view` is the view of
everyone else — the group, and the seats the window does not ask: **the table as it will be if
every seat the window asks passes**, which is exactly the table that seat would see had no window
opened (the next seat has drawn and is to play; after a 补杠 the kong stands and its replacement is
drawn).  A discard with a claimable tile and one without it look the same; the window's answers so
far are not shown either (they are taken back before passing, so a 碰 or 胡 already answered shows
only when the window resolves, as it does for the seats in it).

Where that table cannot be shown — every seat passing would end the hand (the last tile, 关死
after the draw, a 亮倒 seat's automatic 胡), a seat may not pass (卡心五's 有杠必杠), or the next seat
plays automatically (亮倒 / 廊起) and would discard the tile it draws, which is still in the wall
while the window is open — the window is shown as the tile on the table with nobody marked to act
(``to_act`` empty); the hand's next public move follows when the window closes.
"""

from __future__ import annotations

from dataclasses import replace

from ..views import PublicView
from .actions import Action, ActionKind, IllegalAction
from .decide import step
from .events import Discarded
from .state import Phase, State
from .views import public_view

__all__ = ["spectator_view"]

_WINDOWS = (Phase.CLAIM, Phase.ROB)


def _everyone_passes(state: State) -> State | None:
    """The state after every seat the open window asks passes, from the window's opening (its answers
    taken back); None when a seat may not pass, the hand ends, or the automatic play after the
    window discards a tile (one drawn from the wall: not public while the window is open)."""
    assert state.window is not None
    after = replace(state, window=replace(state.window, answers=()))
    for _ in range(4 * len(state.seats) + 4):  # each window asks at most every other seat
        if after.result is not None:
            return None
        if after.phase not in _WINDOWS:
            return after
        pending = after.to_act()
        if not pending:  # pragma: no cover - an open window always waits for someone
            return None
        try:
            after, events = step(after, Action(pending[0], ActionKind.PASS))
        except IllegalAction:
            return None
        if any(isinstance(e, Discarded) for e in events):
            return None
    return None  # pragma: no cover - the wall ends every chain of windows


def spectator_view(state: State) -> PublicView:
    """What a seat outside the open claim or rob window — and the group — may see (module docstring);
    :func:`public_view` when no window is open.  Never shows a concealed tile: the tile the next seat
    draws appears only as its count, as in any public view."""
    if state.window is None or state.phase not in _WINDOWS:
        return public_view(state)
    after = _everyone_passes(state)
    if after is not None:
        return public_view(after)
    return replace(public_view(state), to_act=())
