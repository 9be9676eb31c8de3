"""``python -m engine review``: where an AI would have played a recorded hand otherwise.

Usage::

    python -m engine review [--seat S] [--playouts N] [--pretty] < hand.json

Input: one ``python -m engine play`` scenario (a whole recorded hand, as ``/export N`` sends it;
:mod:`engine.game.scenario`).  Every decision — a point where the acting seat had more than one legal
action — is judged from that seat's view at that moment (:func:`engine.review.decision_view`: its own
tiles and the table as it could see it, never hidden tiles).

* ``--seat S``: review seat S only (default: every seat).
* ``--playouts N``: the ``strong`` evaluator's playouts per decision (default 64; more is slower
  and less noisy).  The review depends on its input only, not on the machine's speed.
* ``--pretty``: indent the JSON.

The evaluator is the ``strong`` AI (:func:`engine.ai.strong.evaluate`, expected points per action)
when this build has it; a difference below 0.1 points is within its noise and not reported.  A
build without it falls back to ranking by the ``normal`` AI: it lists where the normal AI would
have chosen otherwise, ``"evaluator": "normal"``, and every ``loss`` is null (the normal AI ranks,
it does not estimate points).

Output (one line)::

    {"decisions": [{"index": 7, "seq": 12, "seat": 1, "played": {"seat": 1, "act": "discard", "tile": "9p"},
                    "suggested": {"seat": 1, "act": "discard", "tile": "1s"}, "loss": 0.42,
                    "values": [{"action": {"act": "discard", "tile": "1s"}, "points": 0.31}, ...]}, ...],
     "seats": [{"seat": 0, "decisions": 18, "differed": 2, "loss": 0.6}, ...],
     "evaluator": "strong", "complete": true}

``index`` is the action's position in the input's ``actions``; ``seq`` the events applied before it;
``loss`` the expected points (of 底金) lost against the suggestion, >= 0, or null; ``values`` the
evaluator's expected points of each action it estimated, best first; ``seats`` one summary per
reviewed seat (``loss``: the sum of the known losses).  Exit status: 0; 2 with ``{"error": "<one
line>"}`` for malformed input or arguments, or ``{"error": {"index": i, "reason": ..., "message":
...}}`` for an action the engine refuses (as ``play``); 1 with ``{"error": "internal error: ..."}``.
Never a traceback.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TextIO

from .cli_io import ArgumentError, InputError, emit, options, read_json
from .game.scenario import InputError as ScenarioError
from .numerals import whole_number
from .review import REVIEW_PLAYOUTS, ActionRefused, review_scenario

__all__ = ["main", "parse_args"]

USAGE = "usage: python -m engine review [--seat S] [--playouts N] [--pretty] < hand.json"


def parse_args(argv: Sequence[str]) -> tuple[int | None, int, bool]:
    """``(seat or None, playouts, pretty)`` of ``argv``; raises :class:`ArgumentError` (one line)."""
    seat: int | None = None
    playouts = REVIEW_PLAYOUTS
    pretty = False
    for name, value in options(argv, flags=("--pretty",), valued=("--seat", "--playouts"), usage=USAGE):
        if value is None:
            pretty = True
        elif name == "--seat":
            seat = whole_number(value, minimum=0, maximum=3)
            if seat is None:
                raise ArgumentError(f"--seat must be a seat number (0 to 3), got {value!r}")
        else:
            count = whole_number(value, minimum=1, maximum=100_000)
            if count is None:
                raise ArgumentError(f"--playouts must be a whole number (1 to 100000), got {value!r}")
            playouts = count
    return seat, playouts, pretty


def main(argv: Sequence[str], stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    """Run the command; returns the exit status (module docstring)."""
    if list(argv) in (["-h"], ["--help"]):
        stdout.write(f"{USAGE}\n\n{(__doc__ or '').strip()}\n")
        return 0
    try:
        seat, playouts, pretty = parse_args(argv)
        obj = read_json(stdin, f"one scenario object (python -m engine play input). {USAGE}")
    except (ArgumentError, InputError) as exc:
        emit(stdout, {"error": str(exc)})
        return 2
    try:
        result = review_scenario(obj, seats=None if seat is None else (seat,), playouts=playouts)
    except ScenarioError as exc:
        emit(stdout, {"error": " ".join(str(exc).split())})
        return 2
    except ActionRefused as exc:
        emit(stdout, {"error": {"index": exc.index, "reason": exc.reason.value, "message": exc.message}})
        return 2
    except Exception as exc:  # never a traceback
        emit(stdout, {"error": f"internal error: {type(exc).__name__}: {exc}"})
        return 1
    emit(stdout, result.to_json(), indent=1 if pretty else None)
    return 0
