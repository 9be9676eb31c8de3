"""Imports point one way (docs/architecture.md §1): kwx_bot -> render -> engine, and kwx_bot -> engine.

`engine` never imports telegram, PIL, aiosqlite or asyncio; `render` never imports telegram or
aiosqlite.  Checked statically over every module's import statements.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = {
    "engine": {"telegram", "PIL", "aiosqlite", "asyncio", "render", "kwx_bot", "httpx", "sqlite3"},
    "render": {"telegram", "aiosqlite", "kwx_bot", "sqlite3", "httpx"},
}


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_imports_point_one_way(package: str) -> None:
    files = sorted((ROOT / package).rglob("*.py"))
    assert files, f"no modules found in {package}/"
    offenders = {
        str(f.relative_to(ROOT)): sorted(imported_roots(f) & FORBIDDEN[package])
        for f in files
        if imported_roots(f) & FORBIDDEN[package]
    }
    assert offenders == {}


def test_the_checker_sees_forbidden_imports(tmp_path: Path) -> None:
    sample = tmp_path / "m.py"
    sample.write_text("import asyncio\nfrom PIL import Image\nfrom .x import y\n", encoding="utf-8")
    assert imported_roots(sample) == {"asyncio", "PIL"}
