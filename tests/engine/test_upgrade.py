"""Stored event logs (engine.game.upgrade): ``evolve`` applies the facts stored in the events, and a log
written before a fact was stored is upgraded once at load (docs/architecture.md §2 "decide / evolve")."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from engine.game import Discarded, Event, event_from_json, events_from_json, replay, upgrade_events
from engine.game.record import record
from engine.game.scenario import run
from engine.tiles import Tile

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
DECLINED = "guohu_declined_self_draw"  # a 亮倒 seat discards a 自摸 it could declare (过胡翻番)
KONG_CHOICE = "h2_one_liangdao"  # a 亮倒 seat that could kong discards instead: no win declined


def played(name: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A scenario and the event JSON ``python -m engine play`` prints for it."""
    scenario = json.loads((SCENARIOS / f"{name}.json").read_text(encoding="utf-8"))
    code, out = run(scenario)
    assert code == 0, out
    return scenario, out["events"]


def legacy(data: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The same log as an engine that did not store ``declined`` wrote it."""
    return [{k: v for k, v in d.items() if k != "declined"} for d in data]


def test_a_declined_win_is_stored_in_the_discard() -> None:
    _, data = played(DECLINED)
    choices = [d for d in data if d["type"] == "discarded" and "declined" in d]
    assert [(d["seat"], d["tile"], d["declined"]) for d in choices] == [(0, "5s", True)]
    events = [event_from_json(d) for d in data]
    assert replay(events).seats[0].declined == 1


def test_evolve_applies_the_stored_fact() -> None:
    _, data = played(DECLINED)
    events = [event_from_json(d) for d in data]
    cut = next(i for i, e in enumerate(events) if isinstance(e, Discarded) and e.declined) + 1
    assert replay(events[:cut]).seats[0].declined == 1
    flipped = [*events[: cut - 1], dataclasses.replace(events[cut - 1], declined=False)]
    assert replay(flipped).seats[0].declined == 0  # the stored fact decides, no rule is asked again


@pytest.mark.parametrize("name", [DECLINED, KONG_CHOICE])
def test_a_log_written_before_the_fact_is_upgraded_at_load(name: str) -> None:
    scenario, data = played(name)
    current = [event_from_json(d) for d in data]
    old = legacy(data)
    assert old != data
    loaded = events_from_json(old)
    assert loaded == current
    assert replay(loaded) == replay(current)
    # the hand's record (/export) still finds the actions that replay the old log
    assert record(loaded)["actions"] == scenario["actions"]


def test_an_old_log_without_the_upgrade_would_lose_the_declined_win() -> None:
    _, data = played(DECLINED)
    raw = [event_from_json(d) for d in legacy(data)]
    choice = next(e for e in raw if isinstance(e, Discarded) and e.seat == 0 and e.tile is Tile.S5)
    assert choice.declined is None  # unknown in an old log: not taken for False
    assert replay(raw).seats[0].declined == 0
    assert replay(upgrade_events(raw)).seats[0].declined == 1


def test_every_current_log_passes_unchanged() -> None:
    checked = 0
    for path in sorted(SCENARIOS.glob("*.json")):
        if path.name.endswith(".out.json"):
            continue
        code, out = run(json.loads(path.read_text(encoding="utf-8")))
        if code != 0:
            continue
        events: list[Event] = [event_from_json(d) for d in out["events"]]
        assert upgrade_events(events) == events, path.name
        assert events_from_json(out["events"]) == events, path.name
        checked += 1
    assert checked > 80


def test_the_json_form_of_the_fact() -> None:
    plain = Discarded(5, 1, Tile.S5)
    assert "declined" not in plain.to_json()
    for value in (True, False):
        e = dataclasses.replace(plain, declined=value)
        assert e.to_json()["declined"] is value
        assert event_from_json(e.to_json()) == e
    with pytest.raises(ValueError, match="declined"):
        event_from_json({**plain.to_json(), "declined": "yes"})
