"""Rewrite old-style citations in the code into citations of the repository's ``docs/``.

The specification used to live outside the repository (``RULES.md``, ``DESIGN.md``, ``TELEGRAM.md``)
and docstrings also named issue numbers.  ``docs/`` keeps the section ids of those files, so the
rewrite is mechanical:

* ``RULES A8.2`` / ``RULES.md §A8.2``         -> ``docs/rules.md §A8.2``
* ``RULES A7.1, E#35`` / ``RULES §E #48``     -> ``docs/rules.md §A7.1, §E#35`` / ``docs/rules.md §E#48``
* ``RULES A10 F13`` / ``RULES F2′``           -> ``docs/rules.md §F13`` / ``docs/rules.md §F2′``
* ``RULES.md A8–A12 and Appendix 2``          -> ``docs/rules.md §A8–§A12 and Appendix 2``
* ``RULES is silent`` / ``RULES.md vectors``  -> ``docs/rules.md is silent`` / ``docs/rules.md vectors``
* ``DESIGN.md §5`` / ``DESIGN §7``            -> ``docs/architecture.md §5`` / ``docs/architecture.md §7``
* ``TELEGRAM.md §1.1-1.2``                    -> ``docs/telegram.md §1.1-§1.2``
* issue references are removed: ``(issue 6 item 6)``, ``(the AI players issue)``, ``(issue 3; x)``
  -> ``(x)``, ``contracts of issues 2 and 3 on`` -> ``contracts on``, ``The issue's reproduction`` ->
  ``Reproduction``.

Identifiers such as ``TELEGRAM_BOT_TOKEN``, ``SOAK_RULES`` or a constant ``RULES = ...`` are left alone.

Usage::

    python tools/cite_docs.py [PATH ...]          # rewrite in place (default: the code directories)
    python tools/cite_docs.py --check [PATH ...]  # list old-style citations; exit 1 if there are any

PATH may be a file or a directory (searched recursively for .py, .json, .md, .txt, .po and .pot
files).  The rewrite lengthens lines: it lists the Python lines it pushed over the line limit, to be
rewrapped by hand (``ruff check`` finds them too).
"""

from __future__ import annotations

import argparse
import re
import sys
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CODE_DIRS = ("engine", "render", "kwx_bot", "tests", "benchmarks")
SUFFIXES = {".py", ".json", ".md", ".txt", ".po", ".pot"}
LINE_LIMIT = 120
"""The project's line length (``[tool.ruff] line-length``); the rewrite lengthens lines."""

# -- section ids ---------------------------------------------------------------------------------------

# One rules id, with or without its §.  ``A10 F13`` names the 番 F13 of the A10 table.
_RULES_ITEM = re.compile(
    r"A10 (?P<fan>F\d+′?)"
    r"|(?:§ ?)?(?P<id>E ?#\d+|F\d+′?|[GHKL]\d+|D\d+|A\d+(?:\.\d+)*[a-z]?|0\.\d+)(?![\w.]\w)"
    r"|§(?P<part>[A-E])(?![\w#])"
    r"|(?P<appendix>Appendix \d+)"
)
# One section number of architecture.md / telegram.md.
_NUMBER_ITEM = re.compile(r"(?P<section>§) ?(?P<id>\d+(?:\.\d+)*)(?![\w])|(?P<bare>\d+(?:\.\d+)*)(?![\w])")
_SEPARATOR = re.compile(r", | / |/|–|-| and | or ")
_GAP = re.compile(r"[ \t]+")

_RULES_MARKER = re.compile(r"(?<![\w/])RULES(?:\.md)?(?![\w\[]|\s*=)")
_DESIGN_MARKER = re.compile(r"(?<![\w/])DESIGN(?:\.md\b|(?=[ \t]+§))")
_TELEGRAM_MARKER = re.compile(r"(?<![\w/])TELEGRAM(?:\.md\b|(?=[ \t]+§))")

# -- issue references ----------------------------------------------------------------------------------

_ISSUE = (
    r"(?:the(?: [\w'-]+){1,4}? issue(?=[),;.:])"
    r"|issues? \d+(?:(?:, | and )\d+)*(?:,? (?:item \d+|§\d+(?:(?:, | and )§\d+)*))?)"
)
_ISSUE_PATTERNS: tuple[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]], ...] = (
    (re.compile(rf"(\S)\n([ \t]*)\({_ISSUE}\)([:;,.]) ?"), r"\1\3\n\2"),  # "input\n(issue 2): x" -> "input:\nx"
    (re.compile(rf" ?\({_ISSUE}\)"), ""),  # "(issue 6 item 6)" alone
    (re.compile(rf"\({_ISSUE}(?:; |, |: )"), "("),  # "(issue 3; rest)"
    (re.compile(rf"(?:; |, ){_ISSUE}(?=\))"), ""),  # "(rest; the AI players issue)"
    (re.compile(r" of issues? \d+(?: and \d+)?(?= )"), ""),  # "contracts of issues 2 and 3 on"
    (re.compile(r"\b([Tt])he issue's (\w)"), lambda m: m[2].upper() if m[1] == "T" else m[2]),
)
_ISSUE_CHECK = re.compile(rf"\(\s*{_ISSUE}|{_ISSUE}\s*\)|\bissues? \d+|\b[Tt]he issue's\b")


def _rewrite_list(
    text: str, pos: int, item: re.Pattern[str], render: Callable[[re.Match[str]], str]
) -> tuple[int, str]:
    """Parse ``item (SEP item)*`` at ``pos``; return where it ends and its rewritten form ("" if none).

    A section number without its § (group ``bare``) is taken only after ``-``, ``–`` or ``/``, as the
    end of a range such as ``§1.1-1.2``."""
    m = item.match(text, pos)
    if m is None or _is_bare(m):
        return pos, ""
    out, end = [render(m)], m.end()
    while True:
        sep = _SEPARATOR.match(text, end)
        nxt = item.match(text, sep.end()) if sep else None
        if sep is None or nxt is None or (_is_bare(nxt) and sep[0] not in ("-", "–", "/")):
            break
        out += [sep[0], render(nxt)]
        end = nxt.end()
    return end, "".join(out)


def _is_bare(m: re.Match[str]) -> bool:
    return "bare" in m.re.groupindex and m["bare"] is not None


def _render_rules(m: re.Match[str]) -> str:
    if m["fan"]:
        return f"§{m['fan']}"
    if m["id"]:
        return "§" + m["id"].replace(" ", "")
    if m["part"]:
        return f"§{m['part']}"
    return str(m["appendix"])


def _render_number(m: re.Match[str]) -> str:
    return f"§{m['id'] or m['bare']}"


def _rewrite_marker(
    text: str, marker: re.Pattern[str], target: str, item: re.Pattern[str], render: Callable[[re.Match[str]], str]
) -> str:
    out: list[str] = []
    pos = 0
    for m in marker.finditer(text):
        out += [text[pos : m.start()], target]
        pos = m.end()
        gap = _GAP.match(text, pos)
        if gap is not None:
            end, ids = _rewrite_list(text, gap.end(), item, render)
            if ids:
                out.append(" " + ids)
                pos = end
    out.append(text[pos:])
    return "".join(out)


def rewrite(text: str) -> str:
    """``text`` with every old-style citation rewritten and issue references removed."""
    text = _rewrite_marker(text, _RULES_MARKER, "docs/rules.md", _RULES_ITEM, _render_rules)
    text = _rewrite_marker(text, _DESIGN_MARKER, "docs/architecture.md", _NUMBER_ITEM, _render_number)
    text = _rewrite_marker(text, _TELEGRAM_MARKER, "docs/telegram.md", _NUMBER_ITEM, _render_number)
    for pattern, replacement in _ISSUE_PATTERNS:
        text = pattern.sub(replacement, text)
    return text


def old_citations(text: str) -> Iterator[tuple[int, str]]:
    """``(line number, line)`` of every line that still holds an old-style citation."""
    checks = (_RULES_MARKER, _DESIGN_MARKER, _TELEGRAM_MARKER, _ISSUE_CHECK)
    for number, line in enumerate(text.splitlines(), 1):
        if any(c.search(line) for c in checks):
            yield number, line.strip()


def width(line: str) -> int:
    """Display width of ``line`` as ruff measures it for E501 (wide East Asian characters count 2)."""
    return sum(2 if unicodedata.east_asian_width(c) in ("W", "F") else 1 for c in line)


def long_lines(old: str, new: str) -> Iterator[tuple[int, str]]:
    """Lines of ``new`` over :data:`LINE_LIMIT` columns that were not already that long in ``old``."""
    before = old.splitlines()
    for number, line in enumerate(new.splitlines(), 1):
        was = before[number - 1] if number <= len(before) else ""
        if width(line) > LINE_LIMIT >= width(was):
            yield number, line


def files_under(paths: Iterable[Path]) -> Iterator[Path]:
    """Text files under ``paths`` (files or directories), skipping virtual environments and caches."""
    for path in paths:
        if path.is_file():
            yield path
            continue
        for f in sorted(path.rglob("*")):
            parts = set(f.relative_to(path).parts)
            if f.is_file() and f.suffix in SUFFIXES and not any(p.startswith(".") or p == "__pycache__" for p in parts):
                yield f


def main(argv: list[str] | None = None) -> int:
    """Rewrite (default) or ``--check``; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="list old-style citations; exit 1 if any")
    parser.add_argument("paths", nargs="*", type=Path, help=f"files or directories (default: {' '.join(CODE_DIRS)})")
    args = parser.parse_args(argv)
    paths = args.paths or [ROOT / d for d in CODE_DIRS if (ROOT / d).exists()]
    found = changed = 0
    for f in files_under(paths):
        text = f.read_text(encoding="utf-8")
        if args.check:
            for number, line in old_citations(text):
                print(f"{f}:{number}: {line}")
                found += 1
            continue
        new = rewrite(text)
        if new != text:
            f.write_text(new, encoding="utf-8")
            changed += 1
            print(f"rewrote {f}")
            if f.suffix == ".py":
                for number, line in long_lines(text, new):
                    print(f"{f}:{number}: now longer than {LINE_LIMIT} columns, rewrap: {line.strip()}")
    if args.check:
        print(f"{found} old-style citation(s)", file=sys.stderr)
        return 1 if found else 0
    print(f"{changed} file(s) changed", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
