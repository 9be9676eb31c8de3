"""``python -m engine score``: score one win given as a JSON object on stdin.

Input (one JSON object; the contract is fixed, other programs use it)::

    {"rules": "standard" | {"preset": "standard", "<option>": <value>, ...},   # optional, docs/rules.md §C
     "concealed": "123p789p234s46s88s",   # winner's tiles in hand before the winning tile
     "melds": ["pong 111p", "kong 8888p", "concealed_kong 2222s", "added_kong 7777s"],  # optional
     "win_tile": "5s",
     "win_by": "self_draw" | "discard" | "rob_kong",
     "winner": 0, "discarder": 1,          # discarder: absent (or null) on self_draw
     "liangdao": [false, false, false],    # optional, one per seat; shorter lists are padded with false
     "after_kong": false, "last_tile": false}   # optional

Seats: ``rules.players`` (3 unless the rules say ``"players": 2`` or ``4``, or a preset such as
``two_seats`` / ``four_seats``); ``winner``, ``discarder`` and ``liangdao`` refer to those seats and
``deltas`` has one entry per seat.

Extensions (optional): ``"kong_chain": n`` (kongs in a 杠上杠 chain, for ``gangshang_chain_hu =
compound``; 1 to 16), ``"declined_wins": n`` (for ``guohu_fanfan``; 0 to 84).  ``winner`` defaults
to 0.  卡心五 (``"rules": "kaxinwu"``, docs/rules.md §B): a 廊起 winner's face-down tiles
``"hidden": "<tiles>"`` (a 4-of-a-kind with a hidden copy is not 龙七对) and his shown waits
``"waits": "<tiles>"`` (with them the hand is a 廊起 hand: its shown waits and shown tiles — the
concealed tiles less the hidden ones — decide 卡心五, docs/rules.md §B); other rule sets ignore both.  Any other key
is rejected as malformed.

Output (one line)::

    {"complete": true, "legal": true, "fans": ["卡五星", "亮倒"], "multiplier": {"1": 2},
     "deltas": [2, -2, 0], "reading": "123p 789p 234s 456s 88s"}

With ``"win_by": "rob_kong"``, ``after_kong`` and ``last_tile`` do not apply (a robbed 补杠's tile is
neither a kong's replacement nor the wall's last tile: docs/rules.md §A6.5, §A12.4) and are not
scored; the answer then also names them, ``"ignored": ["after_kong", "last_tile"]`` (those given as
true), instead of dropping them silently.

Exit status 0 for every well-formed question (also not complete / not legal); 2 with a one-line
``{"error": "..."}`` on stdout for malformed input (bad JSON, notation, tile count, 5 copies, unknown
rule option...); 1 with ``{"error": "internal error: ..."}`` if the scorer itself fails.  Never a
traceback.  :func:`answer` is the code path shared with the tests.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from .cli_io import InputError as JsonInputError
from .cli_io import emit, read_json
from .rules import RuleSet
from .scoring import WinBy, WinContext, score_win
from .tiles import parse_meld, parse_tile, parse_tiles

__all__ = ["InputError", "answer", "main", "parse_question"]

USAGE = "usage: python -m engine score < question.json   (one JSON object on stdin; see engine/cli_score.py)"

_KEYS = {
    "rules",
    "concealed",
    "melds",
    "win_tile",
    "win_by",
    "winner",
    "discarder",
    "liangdao",
    "after_kong",
    "last_tile",
    "kong_chain",
    "declined_wins",
    "hidden",
    "waits",
}


class InputError(ValueError):
    """The question is not shaped as the ``score`` contract says (missing key, wrong type...)."""


def _int(obj: dict[str, Any], key: str, default: int | None) -> int | None:
    value = obj.get(key, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"'{key}' must be an integer, got {json.dumps(value, ensure_ascii=False)}")
    return value


MAX_KONG_CHAIN = 16
"""Longest 杠上杠 chain ``kong_chain`` accepts: a hand has at most 21 tile kinds and far fewer kongs;
the bound keeps 2^(n-1) (``gangshang_chain_hu = compound``) a printable number."""

MAX_DECLINED_WINS = 84
"""Most wins ``declined_wins`` accepts (``guohu_fanfan`` multiplies by 2^n): one per tile of the set."""


def _bounded(obj: dict[str, Any], key: str, default: int, lo: int, hi: int) -> int:
    value = _int(obj, key, default)
    if value is None:
        return default
    if not lo <= value <= hi:
        raise InputError(f"'{key}' must be an integer from {lo} to {hi}, got {value}")
    return value


def _bool(obj: dict[str, Any], key: str) -> bool:
    value = obj.get(key, False)
    if not isinstance(value, bool):
        raise InputError(f"'{key}' must be true or false, got {json.dumps(value, ensure_ascii=False)}")
    return value


def _str(obj: dict[str, Any], key: str) -> str:
    if key not in obj:
        raise InputError(f"missing '{key}'")
    value = obj[key]
    if not isinstance(value, str):
        raise InputError(f"'{key}' must be a string, got {json.dumps(value, ensure_ascii=False)}")
    return value


def parse_question(obj: object) -> tuple[WinContext, RuleSet]:
    """The :class:`WinContext` and :class:`RuleSet` of a decoded ``score`` question.

    Raises :class:`InputError`, :class:`~engine.tiles.NotationError`, :class:`~engine.rules.RuleError`
    or :class:`~engine.scoring.ScoringError` (all ``ValueError``) for malformed input.
    """
    if not isinstance(obj, dict):
        raise InputError("the question must be a JSON object")
    unknown = sorted(set(obj) - _KEYS)
    if unknown:
        raise InputError(f"unknown key(s) {', '.join(map(repr, unknown))}; known: {', '.join(sorted(_KEYS))}")
    rules = RuleSet.from_json(obj.get("rules", "standard"))
    concealed = parse_tiles(_str(obj, "concealed"))
    melds_raw = obj.get("melds", [])
    if not isinstance(melds_raw, list) or not all(isinstance(m, str) for m in melds_raw):
        raise InputError("'melds' must be a list of strings such as \"pong 111p\"")
    melds = tuple(parse_meld(m) for m in melds_raw)
    win_tile = parse_tile(_str(obj, "win_tile"))
    how = _str(obj, "win_by")
    try:
        win_by = WinBy(how)
    except ValueError:
        raise InputError(f"'win_by' must be one of {', '.join(w.value for w in WinBy)}, got {how!r}") from None
    liangdao_raw = obj.get("liangdao", [])
    if not isinstance(liangdao_raw, list) or not all(isinstance(x, bool) for x in liangdao_raw):
        raise InputError("'liangdao' must be a list of true/false, one per seat")
    players = rules.players
    if len(liangdao_raw) > players:
        raise InputError(f"'liangdao' has {len(liangdao_raw)} entries; there are {players} seats")
    liangdao = tuple(liangdao_raw) + (False,) * (players - len(liangdao_raw))
    ctx = WinContext(
        concealed=tuple(concealed),
        melds=melds,
        win_tile=win_tile,
        win_by=win_by,
        winner=_int(obj, "winner", 0) or 0,
        discarder=_int(obj, "discarder", None),
        liangdao=liangdao,
        after_kong=_bool(obj, "after_kong"),
        last_tile=_bool(obj, "last_tile"),
        num_players=players,
        kong_chain=_bounded(obj, "kong_chain", 1, 1, MAX_KONG_CHAIN),
        declined_wins=_bounded(obj, "declined_wins", 0, 0, MAX_DECLINED_WINS),
        hidden=tuple(parse_tiles(_str(obj, "hidden"))) if "hidden" in obj else (),
        waits=tuple(parse_tiles(_str(obj, "waits"))) if "waits" in obj else None,
    )
    return ctx, rules


def answer(obj: object) -> dict[str, Any]:
    """The output object for a decoded question (raises ``ValueError`` subclasses when malformed)."""
    ctx, rules = parse_question(obj)
    score = score_win(ctx, rules)
    out: dict[str, Any] = {
        "complete": score.complete,
        "legal": score.legal,
        "fans": [str(f) for f in score.fans],
        "multiplier": {str(seat): m for seat, m in sorted(score.multiplier.items())},
        "deltas": list(score.deltas),
        "reading": score.reading,
    }
    if ctx.win_by is WinBy.ROB_KONG:
        ignored = [key for key, given in (("after_kong", ctx.after_kong), ("last_tile", ctx.last_tile)) if given]
        if ignored:
            out["ignored"] = ignored
    return out


def _emit(stdout: TextIO, obj: dict[str, Any]) -> None:
    emit(stdout, obj)


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Run the ``score`` command: ``argv`` are the arguments after ``score``; returns the exit status."""
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    args = list(argv or [])
    if args in (["-h"], ["--help"]):
        stdout.write(USAGE + "\n")
        return 0
    if args:
        _emit(stdout, {"error": f"score takes no arguments, got {' '.join(args)!r}; {USAGE}"})
        return 2
    try:
        obj = read_json(stdin, "one JSON object")
    except JsonInputError as exc:
        _emit(stdout, {"error": str(exc)})
        return 2
    try:
        result = answer(obj)
    except ValueError as exc:
        _emit(stdout, {"error": " ".join(str(exc).split()) or type(exc).__name__})
        return 2
    except Exception as exc:  # never a traceback to the user
        _emit(stdout, {"error": f"internal error: {type(exc).__name__}: {exc}"})
        return 1
    _emit(stdout, result)
    return 0
