"""The ``simulate`` command (engine.cli_simulate): output, JSON form, rule errors, bad arguments."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

import engine.ai.selfplay as selfplay
from engine.__main__ import main as engine_main
from engine.ai import Level
from engine.cli_simulate import main


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    status = main(list(argv), io.StringIO(), out)
    return status, out.getvalue()


def test_table_output() -> None:
    status, text = run("--hands", "12", "--seed", "cli", "--players", "normal,easy,greedy")
    assert status == 0
    lines = text.splitlines()
    assert lines[0].startswith("simulate: 12 hands, seed 'cli', rules standard, players normal,easy,greedy")
    rows = [line.split() for line in lines[2:5]]
    assert [r[1] for r in rows] == ["normal", "easy", "greedy"]
    assert any(line.startswith("荒庄 (draw) rate:") for line in lines)
    assert any(line.startswith("speed:") and "hands/s" in line for line in lines)
    assert lines[-1] == "rule errors: 0"


def test_json_output_is_consistent() -> None:
    status, text = run("--hands", "18", "--seed", "j", "--players", "normal,random,easy", "--json", "--check")
    assert status == 0
    data = json.loads(text)
    assert data["hands"] == 18 and data["seed"] == "j" and data["rule_errors"] == []
    players = data["players"]
    assert [p["level"] for p in players] == ["normal", "random", "easy"]
    assert sum(p["total_points"] for p in players) == 0  # zero-sum, kong money included
    wins = sum(p["wins"] for p in players)
    assert data["draws"] + wins >= 18  # every hand is a draw or has a winner (two on 一炮双响)
    for p in players:
        assert p["mean_points"] == pytest.approx(p["total_points"] / 18)
        assert p["ci95"] >= 0 and 0 <= p["win_rate"] <= 1
        assert p["forced_feeds"] <= p["feeds"]


def test_same_seed_same_result_and_rules_option() -> None:
    args = (
        "--hands",
        "12",
        "--seed",
        "rep",
        "--players",
        "easy,greedy,normal",
        "--json",
        "--rules",
        '{"preset": "standard", "liangdao_protect": true}',
    )
    a, b = run(*args), run(*args)
    da, db = json.loads(a[1]), json.loads(b[1])
    for d in (da, db):
        d.pop("seconds")
        d.pop("hands_per_second")
    assert da == db
    assert all(p["feeds"] == 0 for p in da["players"])  # liangdao_protect: only forced feeds possible


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        ([], "--hands is required"),
        (["--hands", "5"], "--seed is required"),
        (["--hands", "0", "--seed", "s"], "--hands must be at least 1"),
        (["--hands", "x", "--seed", "s"], "--hands must be a whole number"),
        (["--hands", "5", "--seed", "s", "--players", "normal,easy"], "three levels"),
        (["--hands", "5", "--seed", "s", "--players", "normal,easy,expert"], "unknown player level 'expert'"),
        (["--hands", "5", "--seed", "s", "--rules", "nonesuch"], "--rules"),
        (["--hands", "5", "--seed", "s", "--rules", "{bad json"], "not valid JSON"),
        (["--hands", "5", "--seed", "s", "--rules", '{"cap": "7"}'], "cap"),
        (["--hands", "5", "--seed", "s", "--frobnicate"], "unknown argument '--frobnicate'"),
        (["--hands", "5", "--seed"], "--seed needs a value"),
        (["--hands", "5", "--seed", "s", "--json=yes"], "--json takes no value"),
    ],
)
def test_malformed_arguments_exit_2_with_one_line(argv: list[str], fragment: str) -> None:
    status, text = run(*argv)
    assert status == 2
    assert text.count("\n") == 1 and text.startswith("error: ")
    assert fragment in text


def test_strong_is_a_level_of_simulate() -> None:
    """``strong`` is accepted like the other levels (docs/architecture.md §2 AI) and plays legal hands."""
    status, text = run("--hands", "2", "--seed", "st", "--players", "strong,normal,easy", "--json", "--check")
    assert status == 0
    data = json.loads(text)
    assert [p["level"] for p in data["players"]] == ["strong", "normal", "easy"]
    assert data["rule_errors"] == [] and sum(p["total_points"] for p in data["players"]) == 0
    _, again = run("--hands", "2", "--seed", "st", "--players", "strong,normal,easy", "--json", "--check")
    assert json.loads(again)["players"] == data["players"]  # bounded by playout moves, not by time: replays
    status, text = run("--hands", "5", "--seed", "s", "--players", "normal,easy,expert")
    assert status == 2 and "use one of random, greedy, easy, normal, strong" in text


def test_equals_form_of_options() -> None:
    status, text = run("--hands=6", "--seed=eq", "--players=easy,easy,easy")
    assert status == 0 and "6 hands" in text


def test_rule_errors_are_reported_and_exit_1(monkeypatch: pytest.MonkeyPatch) -> None:
    real_step = selfplay.step
    calls = {"n": 0}

    def flaky_step(state, action):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        if calls["n"] == 7:
            raise RuntimeError("boom")
        return real_step(state, action)

    monkeypatch.setattr(selfplay, "step", flaky_step)
    status, text = run("--hands", "6", "--seed", "err", "--players", "easy,easy,easy")
    assert status == 1
    assert "RULE ERRORS: 1" in text
    assert "step raised RuntimeError for listed action" in text and "boom" in text


def test_unbalanced_payments_are_a_rule_error(monkeypatch: pytest.MonkeyPatch) -> None:
    real_step = selfplay.step

    def skewed_step(state, action):  # type: ignore[no-untyped-def]
        new, events = real_step(state, action)
        if new.result is not None:
            from engine.game.state import updated

            result = updated(new.result, deltas=(new.result.deltas[0] + 1, *new.result.deltas[1:]))
            new = updated(new, result=result)
        return new, events

    monkeypatch.setattr(selfplay, "step", skewed_step)
    sim = selfplay.simulate((Level.EASY, Level.EASY, Level.EASY), 6, "skew")
    assert len(sim.errors) == 6
    assert all("do not sum to 0" in message for _seed, _seats, message in sim.errors)


def test_an_illegal_ai_answer_is_a_rule_error() -> None:
    from engine.game import Action, ActionKind

    def cheat(view, legal, rng):  # type: ignore[no-untyped-def]
        return Action(view.seat, ActionKind.PASS) if legal[0].kind is not ActionKind.PASS else legal[0]

    sim = selfplay.simulate((Level.EASY,) * 3, 6, "cheat", agents=[cheat] * 3, labels=["x", "y", "z"])
    assert len(sim.errors) == 6
    assert "not among the legal actions" in sim.errors[0][2]


def test_dispatch_through_python_m_engine() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "simulate", "--hands", "6", "--seed", "sub", "--players", "easy,easy,greedy"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "rule errors: 0" in proc.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "engine", "simulate", "--hands", "-3", "--seed", "s"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert bad.returncode == 2 and bad.stdout.strip().startswith("error:") and "Traceback" not in bad.stderr


def test_engine_main_dispatches() -> None:
    assert engine_main(["simulate", "--hands", "oops", "--seed", "s"]) == 2
