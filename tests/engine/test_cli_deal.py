"""``python -m engine deal``: a seed re-derives the deal that ``play`` starts from it (docs/rules.md §A3.1)."""

from __future__ import annotations

import hashlib
import io
import json
import subprocess
import sys
from typing import Any

import pytest

from engine.cli_deal import main
from engine.game import commitment
from engine.tiles import parse_tiles


def run(argv: list[str]) -> tuple[int, dict[str, Any]]:
    out = io.StringIO()
    code = main(argv, io.StringIO(""), out)
    text = out.getvalue()
    assert text.endswith("\n") and text.count("\n") == 1, text
    return code, json.loads(text)


def play_started(scenario: dict[str, Any]) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "play"], input=json.dumps(scenario), capture_output=True, text=True,
        check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    event: dict[str, Any] = json.loads(proc.stdout)["events"][0]
    assert event["type"] == "hand_started"
    return event


@pytest.mark.parametrize(
    ("seed", "dealer", "rules"),
    [("3f9a0c2e5b7d1846", 0, None), ("any text · 中文", 2, None), ("s", 1, {"preset": "standard", "cap": "16"})],
)
def test_the_deal_is_plays_hand_started(seed: str, dealer: int, rules: Any) -> None:
    argv = ["--seed", seed, "--dealer", str(dealer)] + (["--rules", json.dumps(rules)] if rules else [])
    code, out = run(argv)
    assert code == 0
    started = play_started({"seed": seed, "dealer": dealer, **({"rules": rules} if rules else {})})
    for key in ("hands", "wall", "dealer", "rules", "seed"):
        assert out[key] == started[key], key
    assert out["commitment"] == hashlib.sha256(seed.encode()).hexdigest() == commitment(seed)
    tiles = [t for h in out["hands"] for t in parse_tiles(h)] + list(parse_tiles(out["wall"], max_copies=84))
    assert len(tiles) == 84 and [len(parse_tiles(h)) for h in out["hands"]][dealer] == 14


def test_different_seeds_deal_differently() -> None:
    assert run(["--seed", "a", "--dealer", "0"])[1]["wall"] != run(["--seed", "b", "--dealer", "0"])[1]["wall"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--dealer", "0"], "--seed is required"),
        (["--seed", "x"], "--dealer is required"),
        (["--seed", "x", "--dealer", "first"], "--dealer must be a seat number"),
        (["--seed", "x", "--dealer", "7"], "dealer must be a seat"),
        (["--seed", "", "--dealer", "0"], "--seed must not be empty"),
        (["--seed", "x", "--dealer", "0", "--rules", "{bad"], "--rules is not valid JSON"),
        (["--seed", "x", "--dealer", "0", "--rules", "nonsense"], "--rules"),
        (["--seed", "x", "--dealer", "0", "--colour", "red"], "unknown argument"),
        (["--seed"], "--seed needs a value"),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(argv: list[str], message: str) -> None:
    code, out = run(argv)
    assert code == 2 and message in out["error"]


def test_module_entry_point_and_help() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "deal", "--seed=abc", "--dealer=1"], capture_output=True, text=True,
        check=False,
    )  # fmt: skip
    assert proc.returncode == 0 and json.loads(proc.stdout)["dealer"] == 1
    out = io.StringIO()
    assert main(["--help"], io.StringIO(""), out) == 0 and "--seed S --dealer D" in out.getvalue()
