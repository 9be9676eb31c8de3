"""``python -m engine``: dispatch to the command modules, and its own errors."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from engine.__main__ import main


def test_dispatches_analyze_in_process(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("123p789p234s46s88s\n"))
    assert main(["analyze"]) == 0
    assert json.loads(capsys.readouterr().out)["waits"] == ["5s"]


@pytest.mark.parametrize("argv", [[], ["frobnicate"]])
def test_unknown_command_is_one_line_and_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    out = capsys.readouterr()
    assert "error" in json.loads(out.out)
    assert "usage: python -m engine" in out.err


def test_module_entry_point() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "analyze", "123p456p234s78s99p"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0 and json.loads(proc.stdout)["waits"] == ["6s", "9s"]


def test_help_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    assert "score" in capsys.readouterr().out
    assert main(["simulate", "--help"]) == 0
    assert "--hands N --seed S" in capsys.readouterr().out
