"""Shared input/output of the engine's commands (``score``, ``analyze``, ``play``).

Every command answers with JSON lines on stdout and never prints a traceback for bad input:
:func:`emit` falls back to ``\\u`` escapes when the stream cannot encode Chinese
(e.g. ``PYTHONIOENCODING=ascii``), and :func:`read_json` turns every way ``json.loads`` can refuse a
text (not only ``JSONDecodeError``: >4300-digit integers, deep nesting) into one :class:`InputError`.
"""

from __future__ import annotations

import json
from typing import TextIO

__all__ = ["InputError", "emit", "read_json"]


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
