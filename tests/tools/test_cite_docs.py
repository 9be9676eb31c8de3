"""``tools/cite_docs.py``: the rewrite of old-style citations into ``docs/`` citations, and ``--check``.

The old forms are assembled at run time (``R``, ``DES``, ``TG``, ``ISS``), so that this file holds no
old-style citation itself and a rewrite of ``tests/`` leaves it unchanged.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent

R = "RULE" + "S"
DES = "DESIG" + "N"
TG = "TELEGRA" + "M"
ISS = "iss" + "ue"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("cite_docs", ROOT / "tools" / "cite_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


cite_docs = _load()


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (f"({R} A8.2)", "(docs/rules.md §A8.2)"),
        (f"({R} A7.1, E#35).", "(docs/rules.md §A7.1, §E#35)."),
        (f"{R}.md §E #48", "docs/rules.md §E#48"),
        (f"{R} A10 F13: four melds", "docs/rules.md §F13: four melds"),
        (f"{R} A10 F3 / F2′: W held", "docs/rules.md §F3 / §F2′: W held"),
        (
            f"{R}.md A8–A12 and Appendix 2 ({DES}.md §2 x",
            "docs/rules.md §A8–§A12 and Appendix 2 (docs/architecture.md §2 x",
        ),
        (f"{R}.md §A8–A12, A10 table, §C, §E.", "docs/rules.md §A8–§A12, §A10 table, §C, §E."),
        (f"{R} A4-A9", "docs/rules.md §A4-§A9"),
        (f"{R} §D G, H, K and L vectors", "docs/rules.md §D G, H, K and L vectors"),
        (f"{R}.md §0.3, A1", "docs/rules.md §0.3, §A1"),
        (f"{R} E#36, [TS]", "docs/rules.md §E#36, [TS]"),
        (f"where {R} is silent; {R}.md vectors", "where docs/rules.md is silent; docs/rules.md vectors"),
        (f"{DES} §7 counts", "docs/architecture.md §7 counts"),
        (f"({TG}.md §1.1-1.2): x", "(docs/telegram.md §1.1-§1.2): x"),
        (f"see {TG}.md §1.3/§4).", "see docs/telegram.md §1.3/§4)."),
        (f"stdin ({ISS} 2, item 6).", "stdin."),
        (f"checks (the AI players {ISS}).", "checks."),
        (f"view ({DES}.md §2; the AI players {ISS}).", "view (docs/architecture.md §2)."),
        (f"soak (the AI players {ISS}, {DES}.md §7).", "soak (docs/architecture.md §7)."),
        (f"stdin ({ISS} 3; fixed contract).", "stdin (fixed contract)."),
        (f"firing ({ISS} 6 §2; {R} E#33): x", "firing (docs/rules.md §E#33): x"),
        (f"lobbies ({DES}.md §5 step 1; {ISS} 5 §1).", "lobbies (docs/architecture.md §5 step 1)."),
        (f"(``/settings``, {ISS} 6 §3): the", "(``/settings``): the"),
        (f"admin ({ISS} 6 §1 and §3): x", "admin: x"),
        (f"bad input\n({ISS}s 2 and 3): :func:`emit`", "bad input:\n:func:`emit`"),
        (f"contracts of {ISS}s 2 and 3 on hostile input", "contracts on hostile input"),
        (f'"""The {ISS}\'s reproduction: 429', '"""Reproduction: 429'),
    ],
)
def test_rewrite(old: str, new: str) -> None:
    assert cite_docs.rewrite(old) == new
    assert list(cite_docs.old_citations(old)) != []
    assert list(cite_docs.old_citations(new)) == []
    assert cite_docs.rewrite(new) == new  # idempotent


@pytest.mark.parametrize(
    "text",
    [
        f"{R} = RuleSet(",
        f"{R}[i % 2]",
        f"SOAK_{R}: tuple[object, ...] = (",
        f'env["{TG}_BOT_TOKEN"]',
        f"def test_{ISS}_example() -> None:",
        f"quoted in client libraries' test suites and {ISS}\ntrackers",
        "docs/rules.md §A8.2",
    ],
)
def test_leaves_other_text_alone(text: str) -> None:
    assert cite_docs.rewrite(text) == text
    assert list(cite_docs.old_citations(text)) == []


def test_main_rewrites_files_and_check_reports(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    module = tmp_path / "pkg" / "mod.py"
    module.parent.mkdir()
    module.write_text(f'"""Scoring ({R} A8.2; {ISS} 2 item 6)."""\n', encoding="utf-8")
    (tmp_path / "pkg" / "data.bin").write_bytes(b"\xff" + R.encode())  # not a text suffix: skipped
    assert cite_docs.main(["--check", str(tmp_path)]) == 1
    assert "mod.py:1:" in capsys.readouterr().out
    assert cite_docs.main([str(tmp_path)]) == 0
    assert module.read_text(encoding="utf-8") == '"""Scoring (docs/rules.md §A8.2)."""\n'
    assert cite_docs.main(["--check", str(tmp_path)]) == 0
