"""The repository's ``docs/`` and the citations of them in the code.

* Every ``docs/<file>.md §<id>`` (and ``docs/rules.md Appendix <n>``) in engine/, render/, kwx_bot/,
  tests/ and benchmarks/ names a file in ``docs/`` and a section id that file defines; so does every
  cross-reference between the docs files (``rules.md §A5.2``).  Every bare ``E#n`` in the code is a
  decision of ``docs/rules.md §E``.
* No code directory cites a specification file kept outside the repository (:data:`OUTSIDE_FILES`)
  or an issue number: citations point into ``docs/``.
* ``docs/rules.md`` agrees with the code where it quotes it: Appendix 1 is ``RuleSet().to_json()``,
  and §C names every option ``RuleSet`` accepts.

A section id is the first word of a heading (``#### A8.2 …``, ``## §4 …``, ``## Appendix 2 …``) or
the first cell of a table row (``| F13 | …``, ``| D35 | …``), see docs/README.md.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytest

from engine.rules import KNOWN_OPTIONS, RuleSet

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
CODE_DIRS = ("engine", "render", "kwx_bot", "tests", "benchmarks")
SUFFIXES = {".py", ".json", ".md", ".txt", ".po", ".pot"}

CHECKED_DIRS = ("engine", "render", "kwx_bot", "fakebot", "tests", "benchmarks")
"""Directories that must cite only ``docs/`` (every code directory)."""

_ISSUE = (
    r"(?:the(?: [\w'-]+){1,4}? issue(?=[),;.:])"
    r"|issues? \d+(?:(?:, | and )\d+)*(?:,? (?:item \d+|§\d+(?:(?:, | and )§\d+)*))?)"
)
OUTSIDE_FILES = ("RULES", "DESIGN", "TELEGRAM")
"""The stems of the specification files kept beside the checkout, not in it (their ``.md`` files):
the code cites ``docs/`` instead."""
_RULES, _DESIGN, _TELEGRAM = OUTSIDE_FILES
_OLD_CITATIONS = (
    re.compile(rf"(?<![\w/]){_RULES}(?:\.md)?(?![\w\[]|\s*=)"),
    re.compile(rf"(?<![\w/]){_DESIGN}(?:\.md\b|(?=[ \t]+§))"),
    re.compile(rf"(?<![\w/]){_TELEGRAM}(?:\.md\b|(?=[ \t]+§))"),
    re.compile(rf"\(\s*{_ISSUE}|{_ISSUE}\s*\)|\bissues? \d+|\b[Tt]he issue's\b"),
)
"""A citation of a file outside the repository, or of an issue (the bot token's environment variable
and a constant named like a file's stem are not)."""

_ID = r"§(?:E#\d+|[A-Z]\d*(?:\.\d+)*[a-z]?′?|\d+(?:\.\d+)*)(?![\w#])|Appendix \d+"
_SEP = r", | / |/|–|-| and | or "
_CITATION = re.compile(rf"(?<![\w/])docs/(?P<file>[\w-]+)\.md(?P<ids>(?: (?:{_ID})(?:(?:{_SEP})(?:{_ID}))*)?)")
_CROSS_REFERENCE = re.compile(
    rf"(?<![\w/])(?:docs/)?(?P<file>[\w-]+)\.md(?P<ids>(?: (?:{_ID})(?:(?:{_SEP})(?:{_ID}))*)?)"
)
_ID_TOKEN = re.compile(_ID)
_BARE_DECISION = re.compile(r"(?<![\w#§])E#(\d+)\b")

_HEADING = re.compile(r"^#{1,6}\s+(?P<id>Appendix \d+|§?[^\s]+)")
_ROW = re.compile(r"^\|\s*(?P<id>[^|\s]+)\s*\|")


@cache
def anchors(name: str) -> frozenset[str]:
    """The section ids ``docs/<name>.md`` defines (empty if the file does not exist)."""
    path = DOCS / f"{name}.md"
    if not path.is_file():
        return frozenset()
    ids: set[str] = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        m = _HEADING.match(line) or _ROW.match(line)
        if m:
            ids.add(m["id"].removeprefix("§"))
    return frozenset(ids)


def resolves(name: str, section: str) -> bool:
    """Whether ``section`` (``§A8.2``, ``Appendix 2``) is defined in ``docs/<name>.md``.  A lettered
    sub-item (``§A9.6b``, ``§A4.1c``) resolves to its rule."""
    ids = anchors(name)
    key = section.removeprefix("§")
    return key in ids or (re.fullmatch(r"A\d+\.\d+[a-z]", key) is not None and key[:-1] in ids)


def source_files(dirs: tuple[str, ...]) -> list[Path]:
    """Text files of the code directories, without virtual environments and caches."""
    out = []
    for d in dirs:
        for f in sorted((ROOT / d).rglob("*")):
            rel = f.relative_to(ROOT).parts
            if f.is_file() and f.suffix in SUFFIXES and not any(p.startswith(".") or p == "__pycache__" for p in rel):
                out.append(f)
    return out


def unresolved(text: str, pattern: re.Pattern[str]) -> list[str]:
    """The citations in ``text`` that name a missing docs file or a section that file lacks."""
    bad = []
    for m in pattern.finditer(text):
        name = m["file"]
        if not anchors(name):
            if pattern is _CROSS_REFERENCE and not (DOCS / f"{name}.md").exists() and not m["ids"]:
                continue  # another file name in prose (README.md, …) without a section
            bad.append(m[0])
            continue
        bad += [f"{m[0]} ({token})" for token in _ID_TOKEN.findall(m["ids"]) if not resolves(name, token)]
    return bad


def test_docs_define_the_sections_the_code_cites_most() -> None:
    # the parser sees headings and table rows of every kind the docs use
    assert {"0.3", "A", "A8.2", "F13", "F2′", "D35", "H5", "E#48", "Appendix 2"} <= anchors("rules")
    assert {"1", "2", "4", "5", "8"} <= anchors("architecture")
    assert {"1.1", "1.2", "1.3", "3", "4", "5", "6"} <= anchors("telegram")
    assert resolves("rules", "§A9.6b") and not resolves("rules", "§A9.60")
    assert {f"E#{n}" for n in range(1, 50)} <= anchors("rules")


def test_the_parser_reads_lists_and_refuses_missing_sections() -> None:
    d = "docs/"  # built at run time, so this file holds no broken citation itself
    text = f"see {d}rules.md §A7.1, §E#35 and {d}rules.md §A8–§A12 and Appendix 2; {d}telegram.md §1.1-§9.9"
    assert unresolved(text, _CITATION) == [f"{d}telegram.md §1.1-§9.9 (§9.9)"]
    assert unresolved(f"({d}rules.md §A8.2 and Appendix 7)", _CITATION) == [
        f"{d}rules.md §A8.2 and Appendix 7 (Appendix 7)"
    ]
    assert unresolved(f"({d}nowhere.md §1)", _CITATION) == [f"{d}nowhere.md §1"]


@pytest.mark.parametrize("path", source_files(CODE_DIRS), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_docs_citation_in_the_code_resolves(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert unresolved(text, _CITATION) == []
    decisions = anchors("rules")
    assert [f"E#{n}" for n in _BARE_DECISION.findall(text) if f"E#{n}" not in decisions] == []


@pytest.mark.parametrize("name", sorted(p.stem for p in DOCS.glob("*.md")))
def test_cross_references_between_docs_resolve(name: str) -> None:
    assert unresolved((DOCS / f"{name}.md").read_text(encoding="utf-8"), _CROSS_REFERENCE) == []


def old_citations(text: str) -> list[tuple[int, str]]:
    """``(line number, line)`` of every line that cites a file outside the repository or an issue."""
    lines = enumerate(text.splitlines(), 1)
    return [(n, line.strip()) for n, line in lines if any(c.search(line) for c in _OLD_CITATIONS)]


def test_the_old_citation_check_sees_old_citations() -> None:
    number = 6
    sample = (
        f"x ({_RULES} A8.2)\nsee {_DESIGN}.md §5\n{_TELEGRAM} §1\n(issue {number} item {number})\n"
        f"{_TELEGRAM}_BOT_TOKEN\n{_RULES} = 1\n"
    )
    assert [n for n, _ in old_citations(sample)] == [1, 2, 3, 4]


@pytest.mark.parametrize(
    "path", [f for f in source_files(CHECKED_DIRS) if f != Path(__file__)], ids=lambda p: str(p.relative_to(ROOT))
)
def test_no_old_style_citations(path: Path) -> None:
    assert old_citations(path.read_text(encoding="utf-8")) == []


def _section(text: str, heading: str) -> str:
    start = text.index(f"\n## {heading}")
    end = text.find("\n## ", start + 1)
    return text[start : end if end >= 0 else None]


def test_appendix_1_is_the_default_rule_set() -> None:
    appendix = _section((DOCS / "rules.md").read_text(encoding="utf-8"), "Appendix 1")
    block = appendix.split("```json\n", 1)[1].split("```", 1)[0]
    assert json.loads(block) == RuleSet().to_json()


def test_section_c_names_every_option() -> None:
    section = _section((DOCS / "rules.md").read_text(encoding="utf-8"), "§C")
    named = set(re.findall(r"`([a-z_0-9]+)`", section))
    assert sorted(KNOWN_OPTIONS - named) == []


def test_section_c_defaults_are_the_code_defaults() -> None:
    section = _section((DOCS / "rules.md").read_text(encoding="utf-8"), "§C")
    table = section.split("### Options of the game", 1)[1].split("\n\n", 2)[1]
    defaults = RuleSet().to_json()
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in table.splitlines()[2:]]
    checked = []
    for option, _values, default, *_ in rows:
        name = option.strip("`")
        if name in ("values", "gang_values"):  # objects: Appendix 1 holds them whole
            continue
        text = default.strip("`")
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            value = text
        assert value == defaults[name], name
        checked.append(name)
    assert len(checked) == len(rows) - 2 >= 35
