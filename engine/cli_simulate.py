"""``python -m engine simulate``: AI-only hands with statistics and rule checks.

Usage::

    python -m engine simulate --hands N --seed S [--players normal,normal,easy]
                              [--rules PRESET-OR-JSON] [--check] [--json]

* ``--hands N`` (required, >= 1): hands to play.  ``--seed S`` (required): any text; the same seed,
  players and rules replay the same hands.
* ``--players``: one level (random, greedy, easy, normal, strong) per seat, comma-separated: 2, 3 or 4 of
  them, as many as the rules' ``players`` (a mismatch is an error, exit 2); default ``normal`` on
  every seat.  The players are *not* fixed to seats: hands come in blocks (6 at 3 seats, 2 at 2,
  24 at 4) that share a deal and rotate the seating through every order (see
  :mod:`engine.ai.selfplay`).
* ``--rules``: a preset name (``standard``, ...) or a JSON object ``{"preset": ..., "<option>": ...}``
  as accepted by :meth:`engine.rules.RuleSet.from_json`; default standard (3 seats); ``two_seats``
  and ``four_seats`` are the 2- and 4-player tables.
* ``--check``: also verify the engine's invariants after every event (tile conservation, decide ==
  step, replay(events) == state, kong money); slower.
* ``--json``: one JSON object instead of the table.

Output: per player — win rate (share of hands won; 自摸 share), 点炮 (dealt into a win), 亮倒 rate,
feeds (discards of a 亮倒 player's winning tile by a player who had not declared, A9.7; forced =
no other tile was legal), 包胡 paid, and average points of 底金 per hand with the 95% confidence
interval (kong money included); then the 荒庄 rate, hands per second (one process) and every rule
error.  Exit status: 0 when no rule error occurred, 1 when any did, 2 with a one-line ``error: ...``
for malformed arguments.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import TextIO

from .ai import Level
from .ai.selfplay import SimSummary, seatings, simulate
from .cli_io import ArgumentError, options, rules_argument
from .game import check_rules
from .numerals import whole_number
from .rules import RuleSet

__all__ = ["ArgumentError", "main", "parse_args", "render"]

USAGE = (
    "usage: python -m engine simulate --hands N --seed S [--players normal,normal,easy] "
    "[--rules PRESET-OR-JSON] [--check] [--json]"
)
_LEVELS = ", ".join(level.value for level in Level)


_WORDS = {2: "two", 3: "three", 4: "four"}


def _parse_players(text: str) -> tuple[Level, ...]:
    names = [n.strip() for n in text.split(",")]
    if len(names) not in _WORDS:
        raise ArgumentError(
            f"--players takes 2, 3 or 4 levels separated by commas (e.g. normal,normal,easy), got {text!r}"
        )
    out = []
    for n in names:
        try:
            out.append(Level(n))
        except ValueError:
            raise ArgumentError(f"unknown player level {n!r} in --players; use one of {_LEVELS}") from None
    return tuple(out)


def _parse_rules(text: str) -> RuleSet:
    rules = rules_argument(text)
    try:
        check_rules(rules)
    except ValueError as exc:
        raise ArgumentError(f"--rules: {exc}") from None
    return rules


def parse_args(argv: Sequence[str]) -> dict[str, object]:
    """The options of ``argv`` as a dict (hands, seed, players, rules, check, json); raises
    :class:`ArgumentError` with a one-line message."""
    opts: dict[str, object] = {
        "hands": None,
        "seed": None,
        "players": None,
        "rules": RuleSet(),
        "check": False,
        "json": False,
    }
    valued = ("--hands", "--seed", "--players", "--rules")
    for name, value in options(argv, flags=("--check", "--json"), valued=valued, usage=USAGE):
        if value is None:  # --check, --json
            opts[name[2:]] = True
            continue
        if name == "--hands":
            hands = whole_number(value, minimum=None)
            if hands is None:
                raise ArgumentError(f"--hands must be a whole number, got {value!r}")
            if hands < 1:
                raise ArgumentError(f"--hands must be at least 1, got {hands}")
            opts["hands"] = hands
        elif name == "--seed":
            if not value:
                raise ArgumentError("--seed must not be empty")
            opts["seed"] = value
        elif name == "--players":
            opts["players"] = _parse_players(value)
        else:
            opts["rules"] = _parse_rules(value)
    if opts["hands"] is None:
        raise ArgumentError(f"--hands is required; {USAGE}")
    if opts["seed"] is None:
        raise ArgumentError(f"--seed is required; {USAGE}")
    rules = opts["rules"]
    assert isinstance(rules, RuleSet)
    n = rules.players
    levels = opts["players"]
    if levels is None:
        opts["players"] = (Level.NORMAL,) * n
    else:
        assert isinstance(levels, tuple)
        if len(levels) != n:
            example = ",".join(["normal"] * (n - 1) + ["easy"])
            raise ArgumentError(
                f"--players needs {_WORDS[n]} levels separated by commas (e.g. {example}), one per seat of "
                f"the rules (players = {n}; --rules two_seats / four_seats for 2 / 4 seats), "
                f"got {','.join(level.value for level in levels)!r}"
            )
    return opts


def _pct(n: int, d: int) -> str:
    return f"{100.0 * n / d:5.1f}%" if d else "   - "


def render(summary: SimSummary, seed: str, rules: RuleSet) -> str:
    """The human-readable report of a simulation."""
    name = rules.preset_name() or "custom"
    levels = ",".join(p.level for p in summary.players)
    lines = [
        f"simulate: {summary.hands} hands, seed {seed!r}, rules {name}, players {levels} "
        f"(seating rotated: {len(seatings(rules.players))} seat orders per deal)",
        "player level    win%  (自摸)   点炮%  亮倒%  feeds (forced)  包胡  points/hand  95% CI",
    ]
    for p in summary.players:
        n = p.hands
        lines.append(
            f"{p.player:>6} {p.level:<7} {_pct(p.wins, n)} ({_pct(p.self_draws, n).strip():>6}) "
            f"{_pct(p.dealt_in, n)} {_pct(p.liangdao, n)} {p.feeds:>6} ({p.forced_feeds:>5}) "
            f"{p.baohu:>5}  {p.mean_points:+11.3f}  ±{p.ci95:.3f}"
        )
    lines.append(
        f"荒庄 (draw) rate: {_pct(summary.draws, summary.hands).strip()}   "
        f"decisions/hand: {summary.actions / summary.hands if summary.hands else 0:.1f}"
    )
    lines.append(f"speed: {summary.hands_per_second:.0f} hands/s ({summary.seconds:.1f} s, one process)")
    if summary.errors:
        lines.append(f"RULE ERRORS: {len(summary.errors)}")
        for seed_text, seats, message in summary.errors[:20]:
            lines.append(f"  deal {seed_text!r} seats {list(seats)}: {message}")
        if len(summary.errors) > 20:
            lines.append(f"  ... and {len(summary.errors) - 20} more")
    else:
        lines.append("rule errors: 0")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str], stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    """Run the command; returns the exit status (0 ok, 1 rule errors, 2 malformed arguments)."""
    if list(argv) in (["-h"], ["--help"]):
        stdout.write(f"{USAGE}\n\n{(__doc__ or '').strip()}\n")
        return 0
    try:
        opts = parse_args(argv)
    except ArgumentError as exc:
        stdout.write(f"error: {exc}\n")
        return 2
    hands = opts["hands"]
    seed = opts["seed"]
    players = opts["players"]
    rules = opts["rules"]
    assert isinstance(hands, int) and isinstance(seed, str) and isinstance(rules, RuleSet)
    assert isinstance(players, tuple)
    sim = simulate(players, hands, seed, rules, check=bool(opts["check"]))
    summary = sim.summary()
    if opts["json"]:
        out = summary.to_json()
        out["seed"] = seed
        stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
    else:
        stdout.write(render(summary, seed, rules))
    return 1 if summary.errors else 0
