"""``kwx-bot``: the operator's command line runs the engine's and the renderer's commands under its own name."""

from __future__ import annotations

import pytest

from kwx_bot.__main__ import main


def test_render_demo_help_names_kwx_bot(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["render-demo", "--help"])
    assert stopped.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: kwx-bot render-demo") and "--lang {zh_CN,en}" in out and "python -m" not in out
