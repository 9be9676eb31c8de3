"""Rules audit: the command-line contracts on hostile input (never a traceback).

``python -m engine score`` and ``python -m engine play`` must answer malformed input with exit status 2
and one JSON line ``{"error": ...}`` — also for JSON that Python's decoder rejects with something other
than ``JSONDecodeError`` (nesting deeper than the recursion limit, integers longer than 4300 digits) and
for numbers that are well-formed but absurd (a 杠上杠 chain of 10^8 kongs), and on a stdout that cannot
encode Chinese (``score``, ``analyze`` and ``play`` then write ASCII escapes, which is still JSON).
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cli_analyze import main as analyze_main
from engine.cli_score import main as score_main
from engine.game.scenario import main as play_main

KWX = {"concealed": "123p789p234s46s88s", "win_tile": "5s", "win_by": "self_draw"}


def _run(main: object, text: str) -> tuple[int, dict[str, object]]:
    stdout = io.StringIO()
    code = main([], io.StringIO(text), stdout)  # type: ignore[operator]
    lines = stdout.getvalue().splitlines()
    assert len(lines) == 1, lines
    return code, json.loads(lines[0])


HOSTILE_JSON = [
    "[" * 100_000,
    '{"a": ' + "[" * 100_000 + "]" * 100_000 + "}",
    '{"winner": ' + "9" * 5000 + "}",
    '{"dealer": ' + "9" * 5000 + "}",
]


@pytest.mark.parametrize("text", HOSTILE_JSON, ids=["deep", "deep-in-object", "long-int", "long-int-dealer"])
@pytest.mark.parametrize("command", ["score", "play"])
def test_json_the_decoder_rejects_is_a_one_line_error(command: str, text: str) -> None:
    code, out = _run(score_main if command == "score" else play_main, text)
    assert code == 2
    assert isinstance(out["error"], str) and out["error"]


@pytest.mark.parametrize(
    ("key", "value"),
    [("kong_chain", 100_000_000), ("declined_wins", 100_000_000), ("kong_chain", 10**30)],
)
def test_absurd_counts_are_rejected_not_crashed_on(key: str, value: int) -> None:
    rules = {"preset": "standard", "gangshang_chain_hu": "compound", "guohu_fanfan": True}
    question = {**KWX, "rules": rules, "after_kong": True, key: value}
    code, out = _run(score_main, json.dumps(question))
    assert code == 2
    assert key in str(out["error"])


def test_reasonable_counts_still_score() -> None:
    rules = {"preset": "standard", "gangshang_chain_hu": "compound", "cap": "none"}
    question = {**KWX, "rules": rules, "after_kong": True, "kong_chain": 3}
    code, out = _run(score_main, json.dumps(question))
    assert code == 0
    assert out["multiplier"] == {"1": 16, "2": 16}  # 卡五星 2 × 杠上开花 2 × 2^(3-1)


def test_no_traceback_through_the_real_command() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "score"], input="[" * 100_000, capture_output=True, text=True, check=False
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert "error" in json.loads(proc.stdout)


def _ascii_stdout() -> io.TextIOWrapper:
    """A stdout that cannot encode Chinese (e.g. PYTHONIOENCODING=ascii, a C-locale pipe)."""
    return io.TextIOWrapper(io.BytesIO(), encoding="ascii")


def _ascii_lines(stdout: io.TextIOWrapper) -> list[dict[str, object]]:
    stdout.flush()
    raw = stdout.buffer.getvalue()  # type: ignore[attr-defined]
    return [json.loads(line) for line in raw.decode("ascii").splitlines()]


def test_play_answers_on_a_stdout_that_cannot_encode_chinese() -> None:
    scenario = json.loads(
        (Path(__file__).resolve().parents[1] / "scenarios" / "d49_gangshang_pao.json").read_text(encoding="utf-8")
    )
    stdout = _ascii_stdout()
    code = play_main([], io.StringIO(json.dumps(scenario)), stdout)
    assert code == 0
    (out,) = _ascii_lines(stdout)
    assert out["result"]["winners"][0]["fans"] == ["杠上炮"]  # type: ignore[index]


def test_analyze_answers_on_a_stdout_that_cannot_encode_chinese() -> None:
    stdout = _ascii_stdout()
    code = analyze_main([], io.StringIO("8z\n123p789p234s46s88s\n"), stdout)
    assert code == 2
    bad, good = _ascii_lines(stdout)
    assert "卡五星" in str(bad["error"])
    assert good["waits"] == ["5s"]
