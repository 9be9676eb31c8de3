"""Time to think (docs/rules.md §E#33): a move's own time, then the seat's time bank, a warning at
the first time-out, and 托管 only for a player who is away — in the service, on a hand-driven clock."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from engine.tiles import Tile
from kwx_bot.service import TableService
from kwx_bot.service.buttons import Button, Op
from kwx_bot.service.time_control import TimeControl, goes_on_auto
from kwx_bot.settings import Settings
from kwx_bot.store import Store

from .conftest import ANN, GROUP, World
from .fakes import RecordingMessenger, TinyPictures
from .test_play import SCENARIO, deal, perform


class Clock:
    """Unix time that moves only when a test says so."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


class HeldTimers:
    """Timers that remember the armed time and never fire by themselves."""

    def __init__(self) -> None:
        self.armed: dict[int, float] = {}

    def arm(self, table_id: int, at: float) -> None:
        self.armed[table_id] = at

    def cancel(self, table_id: int) -> None:
        self.armed.pop(table_id, None)


@pytest.fixture
async def timed(tmp_path: Path) -> AsyncIterator[tuple[World, Clock, HeldTimers]]:
    """A service whose tables have 20 s to discard, 10 s to claim and a 30 s bank per hand."""
    clock, timers = Clock(), HeldTimers()
    store = await Store.open(":memory:")
    chat = RecordingMessenger()
    settings = Settings(
        token="1:unit", db_path=tmp_path / "unused.db", default_language="en", discard_seconds=20,
        claim_seconds=10, bank_seconds=30, table_edit_seconds=0, remind_seconds=0, rate_limit=False,
        ai_level="normal",
    )  # fmt: skip
    service = TableService(store, chat, TinyPictures(), settings, clock=clock, timers=lambda fire: timers)
    assert service.play.timers is timers and service.lobby.timers is timers  # one set, given when made
    await service.startup()
    try:
        yield World(service, chat, store), clock, timers
    finally:
        await service.shutdown()
        await store.close()


def test_the_bank_is_spent_only_past_a_moves_own_time() -> None:
    control = TimeControl(discard=20, claim=10, bank=30)
    assert control.due("turn", 100, 30) == 150 and control.due("claim", 100, 30) == 140
    assert control.spent("turn", 100, 115, 30) == 0  # within the move's own time
    assert control.spent("turn", 100, 128, 30) == 8
    assert control.spent("turn", 100, 999, 30) == 30  # never more than was left
    assert control.bank_of_hand(1) == 60 and control.bank_of_hand(2) == 30  # the first hand: twice
    assert control.bank_left(2, 25) == 5 and control.bank_left(2, 45) == 0


def test_taking_seats_on_auto_needs_repeated_time_outs_of_someone_away() -> None:
    assert not goes_on_auto(1, 3600)
    assert goes_on_auto(2, 60) and goes_on_auto(3, 600)
    assert not goes_on_auto(2, 59) and not goes_on_auto(5, 0)  # pressed within the last minute


def test_old_tables_without_a_bank_get_the_default() -> None:
    options = {"discard_seconds": 45, "claim_seconds": 0}
    assert TimeControl.of(options, discard=30, claim=15, bank=60) == TimeControl(45, 0, 60)
    assert TimeControl.of({"bank_seconds": True}, discard=30, claim=15, bank=60).bank == 60  # malformed


async def test_a_first_turn_lasts_its_own_time_plus_the_doubled_first_hand_bank(timed) -> None:
    world, clock, timers = timed
    table_id = await deal(world)
    live = await world.table()
    assert live.row.deadline_kind == "turn" and live.row.deadline_start == clock.now
    assert timers.armed[table_id] == clock.now + 20 + 60  # hand 1: a 60 s bank
    clock.now += 20 + 45  # Ann thinks 65 s: 45 s of her bank
    await perform(world, SCENARIO["actions"][0])
    seats = {s.seat: s.bank_used for s in await world.store.seats(table_id)}
    assert seats[0] == pytest.approx(45)
    assert (await world.table()).seat(0).bank_used == pytest.approx(45)


async def test_a_seat_with_bank_left_is_waited_for(timed) -> None:
    world, clock, timers = timed
    table_id = await deal(world)
    clock.now += 21  # past the move's own time, inside the bank: the timer fired early (a restart)
    await world.service.on_timer(table_id)
    live = await world.table()
    assert live.state is not None and live.state.seats[0].discards == ()  # nothing was played
    assert timers.armed[table_id] == pytest.approx(clock.now - 21 + 80)


async def test_a_time_out_warns_the_player_and_spends_the_whole_bank(timed) -> None:
    world, clock, _timers = timed
    table_id = await deal(world)
    clock.now += 80
    await world.service.on_timer(table_id)
    live = await world.table()
    assert live.state is not None and len(live.state.seats[0].discards) == 1  # the time-out discarded
    warning = world.chat.last(ANN.user_id)
    assert "Time ran out" in warning.text and "If time runs out again while you are away" in warning.text
    seat = next(s for s in await world.store.seats(table_id) if s.seat == 0)
    assert seat.timeouts == 1 and not seat.on_auto and seat.bank_used == pytest.approx(60)


async def _run_until_ann_timed_out_twice(world: World, clock: Clock, table_id: int, *, pressing: bool) -> None:
    """Nobody plays: each deadline passes in turn (Ann's, then Ben's and Cat's) until Ann has timed
    out twice or gone on auto-play.  ``pressing``: Ann taps a button before each of them (she is
    there, only slow)."""
    for _ in range(20):
        live = await world.table()
        seat = live.seat(0)
        assert seat is not None and live.state is not None
        if seat.timeouts >= 2 or seat.on_auto or live.state.result is not None or live.row.deadline_at is None:
            return
        if pressing:  # a 🔒 tile's button: it only says why, and changes nothing
            message = await world.hand_message(ANN)
            await world.press(ANN, message, Button(live.table_id, live.row.seq, Op.PROTECTED, Tile.P1))
        clock.now = live.row.deadline_at + 0.1
        await world.service.on_timer(table_id)


async def test_someone_away_goes_on_auto_after_two_time_outs(timed) -> None:
    world, clock, _timers = timed
    table_id = await deal(world)
    await _run_until_ann_timed_out_twice(world, clock, table_id, pressing=False)
    seat = next(s for s in await world.store.seats(table_id) if s.seat == 0)
    assert seat.on_auto and seat.timeouts == 2
    assert any("Ann keeps timing out" in m.text for m in world.chat.in_chat(GROUP))
    assert "The AI plays your seat now" in world.chat.last(ANN.user_id).text


async def test_someone_who_pressed_in_the_last_minute_is_not_put_on_auto(timed) -> None:
    world, clock, _timers = timed
    table_id = await deal(world)
    await _run_until_ann_timed_out_twice(world, clock, table_id, pressing=True)
    seat = next(s for s in await world.store.seats(table_id) if s.seat == 0)
    assert seat.timeouts == 2 and not seat.on_auto
    assert not any("Ann keeps timing out" in m.text for m in world.chat.in_chat(GROUP))
    assert "If time runs out again while you are away" in world.chat.last(ANN.user_id).text
