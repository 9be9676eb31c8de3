"""Shared input/output of the engine's commands (``score``, ``analyze``, ``play``, ``simulate``,
``deal``).

Every command answers with JSON lines on stdout and never prints a traceback for bad input:
:func:`emit` falls back to ``\\u`` escapes when the stream cannot encode Chinese
(e.g. ``PYTHONIOENCODING=ascii``), and :func:`read_json` turns every way ``json.loads`` can refuse a
text (not only ``JSONDecodeError``: >4300-digit integers, deep nesting) into one :class:`InputError`.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterator, Sequence
from typing import TextIO

from .rules import RuleError, RuleSet

__all__ = ["ArgumentError", "InputError", "emit", "options", "read_json", "rules_argument"]


class InputError(ValueError):
    """Unreadable or undecodable input; ``str(e)`` is one line for the ``{"error": ...}`` answer."""


def emit(stdout: TextIO, obj: object, *, indent: int | None = None) -> None:
    """Write ``obj`` as one JSON answer (UTF-8 text, or ``\\u`` escapes when the stream needs them)."""
    try:
        stdout.write(json.dumps(obj, ensure_ascii=False, indent=indent) + "\n")
    except UnicodeEncodeError:
        stdout.write(json.dumps(obj, indent=indent) + "\n")
    stdout.flush()


def read_json(stdin: TextIO, expected: str) -> object:
    """The JSON value on ``stdin``; raises :class:`InputError` ("empty input; expected <expected>",
    "invalid JSON: <why>; expected <expected>", "cannot read stdin: ...")."""
    try:
        text = stdin.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read stdin: {exc}") from None
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        problem = "nested too deeply" if isinstance(exc, RecursionError) else " ".join(str(exc).split())
        what = "empty input" if not text.strip() else f"invalid JSON: {problem}"
        raise InputError(f"{what}; expected {expected}") from None


class ArgumentError(ValueError):
    """Malformed command-line arguments; the message is one line."""


def options(
    argv: Sequence[str], *, flags: Collection[str], valued: Collection[str], usage: str
) -> Iterator[tuple[str, str | None]]:
    """``(name, value)`` of each option of ``argv`` in order: ``--flag`` gives None; ``--name value``
    and ``--name=value`` give the value.  Raises :class:`ArgumentError` (one line) for an unknown
    option, a flag given a value, or a valued option without one."""
    args = list(argv)
    i = 0
    while i < len(args):
        arg = args[i]
        name, eq, inline = arg.partition("=")
        if name in flags:
            if eq:
                raise ArgumentError(f"{name} takes no value")
            yield name, None
            i += 1
        elif name not in valued:
            raise ArgumentError(f"unknown argument {arg!r}; {usage}")
        elif eq:
            yield name, inline
            i += 1
        elif i + 1 >= len(args):
            raise ArgumentError(f"{name} needs a value")
        else:
            yield name, args[i + 1]
            i += 2


def rules_argument(text: str) -> RuleSet:
    """``--rules``: a preset name or a JSON object (docs/rules.md §C); :class:`ArgumentError` if not."""
    value: object = text
    if text.lstrip().startswith("{"):
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ArgumentError(f"--rules is not valid JSON: {exc.msg} at column {exc.colno}") from None
    try:
        return RuleSet.from_json(value)
    except (RuleError, ValueError, TypeError) as exc:
        raise ArgumentError(f"--rules: {exc}") from None
