"""``python -m engine review``: a recorded hand in, the differing decisions out (one JSON object);
malformed input and refused actions answered as ``play`` answers them, never a traceback."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from typing import Any

import pytest

from engine.__main__ import main as engine_main
from engine.cli_review import main
from engine.game import legal_actions, replay, start, step
from engine.game.record import record
from engine.rules import RuleSet


def _hand(seed: int = 7) -> dict[str, Any]:
    rules = RuleSet()
    rng = random.Random(seed)
    events = start(rules, 0, seed=f"cli review {seed}")
    state = replay(events)
    while not state.over:
        seat = rng.choice(state.to_act())
        state, new = step(state, rng.choice(legal_actions(state, seat)))
        events.extend(new)
    return record(events)


def _run(argv: list[str], text: str) -> tuple[int, Any]:
    out = io.StringIO()
    code = main([*argv, "--playouts", "4"], io.StringIO(text), out)  # a few playouts: fast
    lines = out.getvalue().splitlines()
    assert len(lines) == 1  # one JSON object on one line
    return code, json.loads(lines[0])


def test_a_recorded_hand_gives_the_decisions_and_a_summary_per_seat() -> None:
    doc = _hand()
    code, out = _run([], json.dumps(doc))
    assert code == 0
    assert set(out) == {"decisions", "seats", "evaluator", "complete"}
    assert [s["seat"] for s in out["seats"]] == [0, 1, 2]
    assert out["decisions"], "random play differs from any AI somewhere"
    for d in out["decisions"]:
        assert {"index", "seat", "played", "suggested", "loss"} <= set(d)
        assert d["played"] == doc["actions"][d["index"]]
        assert d["played"] != d["suggested"] and d["suggested"]["seat"] == d["seat"]
        assert d["loss"] is None or d["loss"] >= 0
    for s in out["seats"]:
        assert s["differed"] == sum(1 for d in out["decisions"] if d["seat"] == s["seat"]) <= s["decisions"]


def test_seat_option_reviews_one_seat() -> None:
    doc = json.dumps(_hand())
    _code, whole = _run([], doc)
    code, one = _run(["--seat", "2"], doc)
    assert code == 0 and [s["seat"] for s in one["seats"]] == [2]
    assert one["decisions"] == [d for d in whole["decisions"] if d["seat"] == 2]


@pytest.mark.parametrize(
    ("argv", "text", "needle"),
    [
        ([], "", "empty input"),
        ([], "{", "invalid JSON"),
        ([], "[]", "a scenario is a JSON object"),
        (["--seat", "x"], "{}", "--seat must be a seat number"),
        (["--seat", "3"], None, "seat 3 is not at this table"),
        (["--playouts", "0"], "{}", "--playouts"),
        (["--frob"], "{}", "unknown argument"),
    ],
)
def test_malformed_input_is_one_line_exit_2(argv: list[str], text: str | None, needle: str) -> None:
    code, out = _run(argv, json.dumps(_hand()) if text is None else text)
    assert code == 2 and needle in out["error"]


def test_a_refused_action_is_reported_as_play_reports_it() -> None:
    doc = _hand()
    doc["actions"][2] = {"seat": doc["actions"][2]["seat"], "act": "kong"}
    code, out = _run([], json.dumps(doc))
    assert code == 2 and out["error"]["index"] == 2 and out["error"]["reason"]


def test_registered_with_the_other_commands_and_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert engine_main(["review", "--help"]) == 0
    text = capsys.readouterr().out
    assert "--seat S" in text and "normal" in text  # the fallback is said in --help
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "review", "--seat", "0", "--playouts", "4"],
        input=json.dumps(_hand()),
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0 and [s["seat"] for s in json.loads(proc.stdout)["seats"]] == [0]
