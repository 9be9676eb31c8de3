"""Who has a table open on the page (kwx_bot/service/presence.py) and the change signal the page's
streams wait on (kwx_bot/service/changes.py)."""

from __future__ import annotations

import asyncio

from kwx_bot.service.changes import TableChanges
from kwx_bot.service.presence import PagePresence


async def test_present_while_a_stream_is_open_and_for_the_grace_after_the_last() -> None:
    left: list[tuple[int, int]] = []
    presence = PagePresence(lambda t, u: left.append((t, u)), grace=0.05)
    presence.opened(1, 7)
    presence.opened(1, 7)  # a second tab
    presence.closed(1, 7)
    assert presence.present(1, 7) and not presence.present(2, 7) and not presence.present(1, 8)
    presence.closed(1, 7)
    assert presence.present(1, 7)  # the grace
    await asyncio.sleep(0.1)
    assert not presence.present(1, 7) and left == [(1, 7)]


async def test_a_reconnect_within_the_grace_is_no_leaving() -> None:
    left: list[tuple[int, int]] = []
    presence = PagePresence(lambda t, u: left.append((t, u)), grace=0.05)
    presence.opened(1, 7)
    presence.closed(1, 7)
    presence.opened(1, 7)  # the page reconnected (a drop, a restart of the bot)
    await asyncio.sleep(0.1)
    assert presence.present(1, 7) and left == [] and presence.streams() == 1
    presence.close()
    assert not presence.present(1, 7)


async def test_a_change_wakes_the_waiters_taken_before_it() -> None:
    changes = TableChanges()
    before = changes.signal(1)
    other = changes.signal(2)
    changes.changed(1)
    assert before.is_set() and not other.is_set()
    after = changes.signal(1)
    assert not after.is_set()  # a new signal for the next change
    changes.changed(3)  # nobody waits: nothing kept
    assert not changes.signal(3).is_set()


async def test_a_signal_wakes_futures_and_forgets_what_was_made_under_it() -> None:
    """A stream's look waits on one future woken by the change or its timer (``wake`` / ``forget``);
    the screens kept under a signal go at the change (kwx_bot/service/changes.py)."""
    loop = asyncio.get_running_loop()
    changes = TableChanges()
    signal = changes.signal(1)
    signal.screens["view"] = "made"
    woken, gone = loop.create_future(), loop.create_future()
    signal.wake(woken)
    signal.wake(gone)
    signal.forget(gone)  # its waiter was woken by its timer meanwhile
    assert not woken.done()
    changes.changed(1)
    assert woken.done() and not gone.done() and signal.screens == {}
    late = loop.create_future()
    signal.wake(late)  # set already: at once
    assert late.done()
    assert changes.signal(1) is not signal and changes.signal(1).screens == {}
