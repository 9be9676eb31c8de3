"""The Mini App's open pages (kwx_bot/service/open_pages.py): who has a table open on the page, and
the change signal the page's streams wait on."""

from __future__ import annotations

import asyncio

from kwx_bot.service.open_pages import OpenPages


async def test_a_viewer_while_a_stream_is_open_and_for_the_grace_after_the_last() -> None:
    left: list[tuple[int, int]] = []
    pages = OpenPages(lambda t, u: left.append((t, u)), grace=0.05)
    pages.opened(1, 7)
    pages.opened(1, 7)  # a second tab
    pages.opened(1, 8)
    pages.closed(1, 7)
    assert pages.viewers(1) == {7, 8} and pages.viewers(2) == frozenset()
    pages.closed(1, 7)
    assert pages.viewers(1) == {7, 8}  # the grace
    await asyncio.sleep(0.1)
    assert pages.viewers(1) == {8} and left == [(1, 7)]
    pages.closed(1, 8)
    await asyncio.sleep(0.1)
    assert pages.viewers(1) == frozenset() and left == [(1, 7), (1, 8)]


async def test_a_reconnect_within_the_grace_is_no_leaving() -> None:
    left: list[tuple[int, int]] = []
    pages = OpenPages(lambda t, u: left.append((t, u)), grace=0.05)
    pages.opened(1, 7)
    pages.closed(1, 7)
    pages.opened(1, 7)  # the page reconnected (a drop, a restart of the bot)
    await asyncio.sleep(0.1)
    assert pages.viewers(1) == {7} and left == [] and pages.streams() == 1
    pages.close()
    assert pages.viewers(1) == frozenset()


async def test_a_change_wakes_the_waiters_taken_before_it_and_names_the_viewers() -> None:
    pages = OpenPages(lambda t, u: None)
    before = pages.signal(1)
    other = pages.signal(2)
    pages.opened(1, 7)
    assert pages.changed(1) == {7}
    assert before.is_set() and not other.is_set()
    after = pages.signal(1)
    assert not after.is_set()  # a new signal for the next change
    assert pages.changed(3) == frozenset()  # nobody waits: nothing kept
    assert not pages.signal(3).is_set()
    pages.close()


async def test_a_signal_wakes_futures_and_forgets_what_was_made_under_it() -> None:
    """A stream's look waits on one future woken by the change or its timer (``wake`` / ``forget``);
    the screens kept under a signal go at the change (kwx_bot/service/open_pages.py)."""
    loop = asyncio.get_running_loop()
    changes = OpenPages(lambda t, u: None)
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
