"""``python -m engine deal``: re-derive a hand's deal from its shuffle seed (docs/rules.md §A3.1).

Usage::

    python -m engine deal --seed S --dealer D [--rules PRESET-OR-JSON] [--pretty]

* ``--seed S`` (required): the hand's seed, as the bot reveals it after the hand (``/verify``).
* ``--dealer D`` (required): the dealer's seat (0 = the first seat).
* ``--rules``: a preset name or a JSON object ``{"preset": ..., "<option>": ...}`` as accepted by
  :meth:`engine.rules.RuleSet.from_json` (the rules decide the tiles in play); default standard.

Output: one JSON object — ``seed``, ``commitment`` (:func:`engine.game.shuffle.commitment`: the
SHA-256 the table published at the deal), ``dealer``, ``rules``, ``hands`` (per seat, in dealing
order, the dealer's 14th tile last) and ``wall`` (draw order) — with exactly the ``rules``,
``dealer``, ``seed``, ``hands`` and ``wall`` of the ``hand_started`` event that ``python -m engine
play`` prints for ``{"seed": S, "dealer": D, "rules": ...}``.  Exit status: 0; 2 with
``{"error": "<one line>"}`` for malformed arguments (no traceback).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any, TextIO

from .cli_io import ArgumentError, emit, options, rules_argument
from .game import commitment, start
from .numerals import whole_number
from .rules import RuleSet

__all__ = ["ArgumentError", "deal_json", "main", "parse_args"]

USAGE = "usage: python -m engine deal --seed S --dealer D [--rules PRESET-OR-JSON] [--pretty]"


def parse_args(argv: Sequence[str]) -> tuple[str, int, RuleSet, bool]:
    """``(seed, dealer, rules, pretty)`` of ``argv`` (``--name value`` or ``--name=value``); raises
    :class:`ArgumentError` with a one-line message."""
    seed: str | None = None
    dealer: int | None = None
    rules = RuleSet()
    pretty = False
    for name, value in options(argv, flags=("--pretty",), valued=("--seed", "--dealer", "--rules"), usage=USAGE):
        if value is None:  # --pretty
            pretty = True
            continue
        if name == "--seed":
            if not value:
                raise ArgumentError("--seed must not be empty")
            seed = value
        elif name == "--dealer":
            dealer = whole_number(value, minimum=None)
            if dealer is None:
                raise ArgumentError(f"--dealer must be a seat number, got {value!r}")
        else:
            rules = rules_argument(value)
    if seed is None:
        raise ArgumentError(f"--seed is required; {USAGE}")
    if dealer is None:
        raise ArgumentError(f"--dealer is required; {USAGE}")
    return seed, dealer, rules, pretty


def deal_json(seed: str, dealer: int, rules: RuleSet) -> dict[str, Any]:
    """The deal of ``seed`` as the output object (module docstring); raises ``ValueError`` (a dealer
    seat that does not exist, rules the game cannot deal) with a one-line message."""
    started = start(rules, dealer, seed=seed)[0].to_json()
    out: dict[str, Any] = {"seed": seed, "commitment": commitment(seed)}
    out.update({k: v for k, v in started.items() if k not in ("seq", "type", "seed")})
    return out


def main(argv: Sequence[str], stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    """Run the command; returns the exit status (0 ok, 2 malformed arguments)."""
    if list(argv) in (["-h"], ["--help"]):
        stdout.write(f"{USAGE}\n\n{(__doc__ or '').strip()}\n")
        return 0
    try:
        seed, dealer, rules, pretty = parse_args(argv)
        out = deal_json(seed, dealer, rules)
    except ValueError as exc:  # ArgumentError, RuleError, a dealer seat that does not exist
        emit(stdout, {"error": " ".join(str(exc).split()) or type(exc).__name__})
        return 2
    emit(stdout, out, indent=2 if pretty else None)
    return 0
