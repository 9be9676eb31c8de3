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


def test_render_phone_measures_every_language_of_the_catalogs(monkeypatch: pytest.MonkeyPatch) -> None:
    """``python -m render phone`` alone has render's English words; ``kwx-bot render-phone`` gives it
    every catalog's (the bars hold for the smaller of Chinese and English, docs/telegram.md §6)."""
    import render.__main__ as render_cli

    asked: list[tuple[list[int], list[str]]] = []
    monkeypatch.setattr(
        render_cli, "print_phone_sizes", lambda seats, words: asked.append((seats, [w.lang for w in words]))
    )
    assert main(["render-phone", "--seats", "2"]) == 0
    assert render_cli.main(["phone", "--seats", "3"]) == 0
    assert asked == [([2], ["zh_CN", "en"]), ([3], ["en"])]


def test_the_heap_is_settled_before_the_bot_serves() -> None:
    """``kwx-bot run`` freezes what start-up made and collects the young generation less often
    (kwx_bot/__main__.py ``settle_heap``): full collections walk less, less often."""
    import gc

    from kwx_bot.__main__ import GC_YOUNG, settle_heap

    before = gc.get_threshold()
    try:
        settle_heap()
        assert gc.get_freeze_count() > 1000 and gc.get_threshold() == (GC_YOUNG, *before[1:])
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
