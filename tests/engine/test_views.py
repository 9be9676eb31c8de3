"""engine.views: the views answer in enums (Phase, Outcome, WinBy, Fan, ActionKind answers), and the
event log's JSON form stays the command line's strings."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from engine.fans import Fan
from engine.game import ActionKind, Answered, HandEnded, event_from_json, public_view, replay
from engine.game.scenario import main as play_main
from engine.scoring import WinBy
from engine.tiles import Tile
from engine.views import HandResultView, Outcome, Phase, PublicView, WinView

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


def _events(name: str) -> list[object]:
    out = io.StringIO()
    assert play_main([], io.StringIO((SCENARIOS / name).read_text(encoding="utf-8")), out) == 0
    return [event_from_json(e) for e in json.loads(out.getvalue())["events"]]


def test_a_finished_hand_answers_in_enums() -> None:
    events = _events("a12_4_rob_baohu.json")
    answers = [e for e in events if isinstance(e, Answered)]
    assert answers and all(type(a.answer) is ActionKind for a in answers)
    assert answers[-1].answer is ActionKind.WIN
    view = public_view(replay(events))  # type: ignore[arg-type]
    assert view.phase is Phase.OVER
    assert view.result is not None and view.result.outcome is Outcome.WIN
    (win,) = view.result.winners
    assert win.by is WinBy.ROB_KONG
    assert win.fans == (Fan.QIANGGANG, Fan.LIANGDAO)
    assert all(type(f) is Fan for f in win.fans)


def test_the_json_form_keeps_the_strings() -> None:
    events = _events("a12_4_rob_baohu.json")
    ended = events[-1]
    assert isinstance(ended, HandEnded)
    text = json.dumps(ended.to_json(), ensure_ascii=False)
    assert '"outcome": "win"' in text and '"by": "rob_kong"' in text and '"fans": ["抢杠胡", "亮倒"]' in text
    assert event_from_json(json.loads(text)) == ended


def test_strings_given_to_a_view_are_converted() -> None:
    win = WinView(0, (), (), Tile.S5, "discard", 1, ("卡五星",), {1: 2}, False, "")  # type: ignore[arg-type]
    assert win.by is WinBy.DISCARD and win.fans == (Fan.KAWUXING,)
    result = HandResultView("draw", (), (0, 0, 0), (0, 0, 0), (0, 0, 0), 0)  # type: ignore[arg-type]
    assert result.outcome is Outcome.DRAW
    view = PublicView(0, 0, 0, "claim", (), 0, (), None)  # type: ignore[arg-type]
    assert view.phase is Phase.CLAIM and view.phase == "claim"


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [("outcome", "lost", "unknown outcome"), ("by", "magic", "unknown win 'by'"), ("fans", ["买马"], "unknown 番")],
)
def test_unknown_names_in_a_stored_result_are_refused(field: str, value: object, message: str) -> None:
    ended = _events("a12_4_rob_baohu.json")[-1]
    assert isinstance(ended, HandEnded)
    data = ended.to_json()
    if field == "outcome":
        data["outcome"] = value
    else:
        data["winners"][0][field] = value
    with pytest.raises(ValueError, match=message):
        event_from_json(data)


def test_the_seat_view_names_the_tiles_whose_discard_is_baohu() -> None:
    """``SeatView.danger``: every other 亮倒 seat's waits when the rules have 包胡 and the seat has not
    declared itself (docs/rules.md §A9.7) — the one source of the ⚠ marks."""
    import dataclasses

    from engine.game import Discarded, view_for

    events = _events("h2_one_liangdao.json")  # Ann (seat 0) declares 亮倒 first
    declared = next(i for i, e in enumerate(events) if isinstance(e, Discarded) and e.liangdao)
    state = replay(events[: declared + 1])  # type: ignore[arg-type]
    waits = public_view(state).seats[0].waits
    assert waits and view_for(state, 1).danger == view_for(state, 2).danger == tuple(sorted(waits))
    assert view_for(state, 0).danger == ()  # a 亮倒 seat pays no 包胡
    before = replay(events[:declared])  # type: ignore[arg-type]
    assert view_for(before, 1).danger == ()  # before the declaration: none
    no_baohu = dataclasses.replace(state, rules=dataclasses.replace(state.rules, baohu=False))
    assert view_for(no_baohu, 1).danger == ()
