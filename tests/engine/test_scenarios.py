"""Scenario files (tests/scenarios) through the ``play`` runner: golden outputs and hand-derived expectations.

Each ``<name>.json`` is an exact ``python -m engine play`` input (plus ``description`` and ``expect``,
which the runner ignores); ``<name>.out.json`` is the checked-in output, diffed here.  ``expect`` holds
what docs/rules.md says must happen (the G/H/K/L vectors, the numbered rules), checked independently of
the golden file: ``result`` / ``error`` / ``state`` (subset match; error index -1 = the last action),
``events_include`` (each must match some event), ``events_exclude`` (none may match),
``state.legal_actions_include``.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.game.scenario import main as play_main

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
FILES = sorted(p for p in SCENARIOS.glob("*.json") if not p.name.endswith(".out.json"))


def run_play(obj: object, argv: list[str] | None = None) -> tuple[int, dict[str, Any]]:
    stdout = io.StringIO()
    text = obj if isinstance(obj, str) else json.dumps(obj, ensure_ascii=False)
    code = play_main(argv or [], io.StringIO(text), stdout)
    lines = stdout.getvalue().splitlines()
    assert len(lines) == 1, "the answer is one line"
    return code, json.loads(lines[0])


def matches(expected: Any, actual: Any) -> bool:
    """Subset match: dict keys of ``expected`` must match; lists match element-wise (same length)."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(k in actual and matches(v, actual[k]) for k, v in expected.items())
    if isinstance(expected, list):
        return (
            isinstance(actual, list)
            and len(expected) == len(actual)
            and all(matches(e, a) for e, a in zip(expected, actual, strict=True))
        )
    return bool(expected == actual)


def check_expect(name: str, scenario: dict[str, Any], code: int, out: dict[str, Any]) -> None:
    expect = scenario["expect"]
    assert expect, f"{name} has no expectations"
    if "error" in expect:
        want = dict(expect["error"])
        if want.get("index") == -1:
            want["index"] = len(scenario["actions"]) - 1
        assert code == 2, out
        assert matches(want, out.get("error")), (want, out)
        return
    assert code == 0, out
    events = out["events"]
    for ev in expect.get("events_include", []):
        assert any(matches(ev, e) for e in events), f"{name}: no event matches {ev}"
    for ev in expect.get("events_exclude", []):
        hits = [e for e in events if matches(ev, e)]
        assert not hits, f"{name}: unexpected event {hits[0]}"
    if "result" in expect:
        assert "result" in out, f"{name}: hand not over: {out.get('state')}"
        assert matches(expect["result"], out["result"]), (expect["result"], out["result"])
    if "state" in expect:
        assert "state" in out, f"{name}: hand is over: {out.get('result')}"
        want = dict(expect["state"])
        include = want.pop("legal_actions_include", {})
        assert matches(want, out["state"]), (want, out["state"])
        for seat, actions in include.items():
            for a in actions:
                assert a in out["state"]["legal_actions"][seat], (seat, a)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario(path: Path) -> None:
    scenario = json.loads(path.read_text(encoding="utf-8"))
    code, out = run_play(scenario)
    golden = json.loads(path.with_name(path.stem + ".out.json").read_text(encoding="utf-8"))
    assert out == {k: v for k, v in golden.items() if k != "exit"}, f"{path.name}: output differs from golden"
    assert code == golden["exit"]
    check_expect(path.stem, scenario, code, out)


def test_every_vector_has_a_scenario() -> None:
    """docs/rules.md §D G, H, K and L vectors each have a scenario file."""
    names = {p.stem.split("_")[0] for p in FILES}
    for vector in ("g1", "g2", "g3", "g6", "h1", "h2", "h4", "h5", "k2", "l1", "l3", "l4", "l5"):
        assert vector in names, vector


def test_legal_actions_fed_back_are_accepted() -> None:
    """Every action listed in a scenario's final state is accepted when appended to the scenario."""
    checked = 0
    for path in FILES:
        scenario = json.loads(path.read_text(encoding="utf-8"))
        code, out = run_play(scenario)
        if code != 0 or "state" not in out:
            continue
        for seat, actions in out["state"]["legal_actions"].items():
            for a in actions:
                longer = dict(scenario, actions=[*scenario["actions"], {"seat": int(seat), **a}])
                code2, out2 = run_play(longer)
                assert code2 == 0, (path.name, a, out2)
                checked += 1
    assert checked > 20


def test_illegal_action_leaves_error_only() -> None:
    code, out = run_play({"seed": "x", "actions": [{"seat": 2, "act": "pass"}]})
    assert code == 2
    assert out == {"error": {"index": 0, "reason": "no_claim_pending", "message": out["error"]["message"]}}
    assert out["error"]["message"]


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("{not json", "invalid JSON"),
        ("", "empty input"),
        ("[1, 2]", "scenario is a JSON object"),
        (json.dumps({"hands": ["123p", "456p", "789p"], "wall": ""}), "hand of seat 0 has 3 tiles"),
        (json.dumps({"seed": "x", "actions": [{"seat": 0, "act": "discard", "tile": "0p"}]}), "action 0"),
        (json.dumps({"seed": "x", "actions": [{"seat": 0, "act": "chow"}]}), "unknown act"),
        (json.dumps({"seed": "x", "rules": {"louhu": "sometimes"}}), "louhu"),
        (json.dumps({"seed": "x", "hands": ["1p"]}), "either"),
        (json.dumps({"seed": 5}), "seed must be a string"),
        (json.dumps({"seed": "x", "dealer": 3}), "dealer"),
        (json.dumps({"seed": "x", "action": []}), "unknown scenario key"),
    ],
)
def test_malformed_input(text: str, needle: str) -> None:
    code, out = run_play(text)
    assert code == 2
    assert isinstance(out["error"], str) and needle in out["error"], out


def test_wall_must_complete_the_tile_set() -> None:
    scenario = json.loads((SCENARIOS / "g1_concealed_kong.json").read_text(encoding="utf-8"))
    scenario["wall"] = scenario["wall"][:-2]  # drop the last tile
    code, out = run_play(scenario)
    assert code == 2 and "exactly 4 of each tile" in out["error"], out
    scenario["wall"] += "1m"
    code, out = run_play(scenario)
    assert code == 2 and "1m is not in play" in out["error"], out


def test_command_line_subprocess() -> None:
    """``python -m engine play`` end to end: stdout JSON, exit status, no traceback."""
    scenario = (SCENARIOS / "d57_double_ron.json").read_text(encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "play"], input=scenario, capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["result"]["hand_deltas"] == [2, -4, 2]
    bad = subprocess.run(
        [sys.executable, "-m", "engine", "play"], input="{", capture_output=True, text=True, check=False
    )
    assert bad.returncode == 2 and "Traceback" not in bad.stdout + bad.stderr
    assert len(bad.stdout.splitlines()) == 1 and "error" in json.loads(bad.stdout)
