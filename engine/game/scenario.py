"""``python -m engine play``: play one hand scenario given as JSON on stdin (fixed contract).

Input (one JSON object)::

    {"rules": "standard" | {"preset": ..., "<option>": ...},     # optional, read as by `score`
     "dealer": 0,                                               # optional, default 0; a seat
     "hands": ["<14 tiles, dealer>", "<13 tiles>", "<13 tiles>"],  # one per seat; the dealer's 14th
                                                                # tile is the last one written
     "wall": "<the remaining tiles in draw order>",             # draws from the front, kong
                                                                # replacements from the back
     "actions": [{"seat": 0, "act": "discard", "tile": "9p"}, {"seat": 1, "act": "pass"}, ...]}

Seats: ``rules.players`` (3 in the standard game; ``{"players": 2}`` / ``4`` or the presets
``two_seats`` / ``four_seats``): ``hands`` has one entry per seat, ``dealer`` is below ``players``,
and the result's deltas have one entry per seat.

``"seed": "<text>"`` may replace ``hands`` and ``wall`` (the deal of :mod:`engine.game.shuffle`).
``description`` / ``comment`` / ``expect`` (a test's expectations) keys are ignored; any other key is
malformed.  ``act`` is one of discard (tile), liangdao (tile: the discard made with the
declaration; optional ``"reveal": "<tiles>"``, the kept tiles shown under ``liangdao_reveal = kou``
/ ``minimal`` and in 卡心五 — docs/rules.md §A9.2, §E#48 — none = the whole hand), pong, kong (直杠
of the current discard), concealed_kong (tile), added_kong (tile), win, pass.  Draws and everything
the rules make automatic happen by themselves; a claim window waits for an answer from each seat
that can claim.

Output (one line; ``--pretty`` indents it)::

    {"events": [{"seq": 1, "type": "hand_started", ...}, ...],
     "state": {"phase": "turn", "to_act": [1], "legal_actions": {"1": [{"act": "discard", "tile": "5s"}, ...]}}}

while the hand is not over, or, when it is over, ``"result"`` instead of ``"state"``::

    {"outcome": "win" | "draw", "winners": [{"seat": 0, "fans": ["卡五星"], "multiplier": {"1": 2}}],
     "hand_deltas": [2, -2, 0], "kong_deltas": [0, 0, 0], "deltas": [2, -2, 0], "next_dealer": 0}

(卡心五, ``"rules": "kaxinwu"``, docs/rules.md §B: ``outcome`` may also be ``"guansi"`` with the 关死
seat in ``"guansi"``; a 流局 with some 廊起 seat lists the 被查叫 seats in ``"chajiao"``; both keys
appear only then.)

``legal_actions`` lists, for each seat that must act, every action it may take in the input's action
form; feeding any of them back is accepted.  Exit status: 0 when every action was accepted; 2 with
``{"error": {"index": i, "reason": "<code>", "message": "..."}}`` for the first illegal action (the
codes are :class:`engine.game.actions.Reason`); 2 with ``{"error": "<one line>"}`` for malformed input
(bad JSON, bad notation, bad rules, hands and wall that are not exactly the tile set); 1 with
``{"error": "internal error: ..."}`` if the engine itself fails.  Never a traceback.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TextIO

from ..cli_io import InputError as JsonInputError
from ..cli_io import emit, read_json
from ..rules import RuleSet
from ..tiles import parse_tiles
from .actions import Action, IllegalAction, action_from_json, seat_list
from .basics import kinds_for
from .events import Event
from .machine import legal_actions, replay, start, step
from .state import State

__all__ = ["InputError", "main", "parse_scenario", "result_json", "run", "state_json"]

USAGE = "usage: python -m engine play [--pretty] < scenario.json   (see engine/game/scenario.py)"

_KEYS = {"rules", "dealer", "hands", "wall", "seed", "actions", "description", "comment", "expect"}


class InputError(ValueError):
    """Malformed scenario input; the message is one line saying what is wrong."""


def parse_scenario(obj: object) -> tuple[list[Event], list[Action]]:
    """The start events and the actions of a scenario object; raises :class:`InputError`."""
    if not isinstance(obj, dict):
        raise InputError(f"a scenario is a JSON object, got {type(obj).__name__}")
    unknown = sorted(set(obj) - _KEYS)
    if unknown:
        raise InputError(f"unknown scenario key(s) {unknown}; known: {', '.join(sorted(_KEYS))}")
    try:
        rules = RuleSet.from_json(obj.get("rules"))
        players = rules.players
        dealer = obj.get("dealer", 0)
        if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < players:
            raise InputError(f"dealer must be {seat_list(players)}, got {dealer!r}")
        seed = obj.get("seed")
        if seed is not None:
            if not isinstance(seed, str):
                raise InputError(f"seed must be a string, got {seed!r}")
            if "hands" in obj or "wall" in obj:
                raise InputError("give either 'seed' or 'hands' and 'wall', not both")
            events = start(rules, dealer, seed=seed)
        else:
            hands = obj.get("hands")
            wall = obj.get("wall")
            if not isinstance(hands, list) or len(hands) != players or not all(isinstance(h, str) for h in hands):
                raise InputError(f"'hands' must be a list of {players} tile strings (seat order), or give a 'seed'")
            if not isinstance(wall, str):
                raise InputError("'wall' must be a tile string (the remaining tiles in draw order)")
            parsed = []
            for s, h in enumerate(hands):
                try:
                    parsed.append(parse_tiles(h))
                except ValueError as exc:
                    raise InputError(f"hand of seat {s}: {exc}") from None
            try:
                live = parse_tiles(wall, max_copies=4 * len(kinds_for(rules)))
            except ValueError as exc:
                raise InputError(f"wall: {exc}") from None
            events = start(rules, dealer, hands=parsed, wall=live)
        raw_actions = obj.get("actions", [])
        if not isinstance(raw_actions, list):
            raise InputError("'actions' must be a list of action objects")
        actions = []
        for i, raw in enumerate(raw_actions):
            try:
                actions.append(action_from_json(raw, players))
            except ValueError as exc:
                raise InputError(f"action {i}: {exc}") from None
    except InputError:
        raise
    except ValueError as exc:  # RuleError, NotationError, deal errors
        raise InputError(str(exc)) from None
    return events, actions


def state_json(state: State) -> dict[str, Any]:
    """``{"phase", "to_act", "legal_actions"}`` of a hand that is not over."""
    to_act = list(state.to_act())
    return {
        "phase": state.phase.value,
        "to_act": to_act,
        "legal_actions": {str(s): [a.to_json(with_seat=False) for a in legal_actions(state, s)] for s in to_act},
    }


def result_json(state: State) -> dict[str, Any]:
    """The ``result`` object of a finished hand."""
    r = state.result
    assert r is not None
    return (
        {
            "outcome": str(r.outcome),
            "winners": [
                {
                    "seat": w.seat,
                    "fans": [str(f) for f in w.fans],
                    "multiplier": {str(k): v for k, v in sorted(w.multiplier.items())},
                }
                for w in r.winners
            ],
            "hand_deltas": list(r.hand_deltas),
            "kong_deltas": list(r.kong_deltas),
            "deltas": list(r.deltas),
            "next_dealer": r.next_dealer,
        }
        | ({"guansi": r.guansi} if r.guansi is not None else {})
        | ({"chajiao": list(r.chajiao)} if r.chajiao else {})
    )


def run(obj: object) -> tuple[int, dict[str, Any]]:
    """Play a scenario object: ``(exit status, output object)``; raises :class:`InputError` when malformed."""
    events, actions = parse_scenario(obj)
    state = replay(events)
    for i, action in enumerate(actions):
        try:
            state, new = step(state, action)
        except IllegalAction as exc:
            return 2, {"error": {"index": i, "reason": exc.reason.value, "message": exc.message}}
        events.extend(new)
    out: dict[str, Any] = {"events": [e.to_json() for e in events]}
    if state.over:
        out["result"] = result_json(state)
    else:
        out["state"] = state_json(state)
    return 0, out


def _emit(stdout: TextIO, obj: object, pretty: bool = False) -> None:
    """Write one JSON answer (:func:`engine.cli_io.emit`; indented with ``--pretty``)."""
    emit(stdout, obj, indent=1 if pretty else None)


def main(argv: Sequence[str], stdin: TextIO, stdout: TextIO) -> int:
    """The ``play`` command: read one scenario from ``stdin``, write the answer to ``stdout``."""
    args = list(argv)
    pretty = "--pretty" in args
    rest = [a for a in args if a != "--pretty"]
    if rest:
        _emit(stdout, {"error": f"unknown argument(s) {' '.join(rest)!r}; {USAGE}"})
        return 2
    try:
        obj = read_json(stdin, f"one scenario object. {USAGE}")
    except JsonInputError as exc:
        _emit(stdout, {"error": str(exc)})
        return 2
    try:
        code, out = run(obj)
    except InputError as exc:
        _emit(stdout, {"error": " ".join(str(exc).split())})
        return 2
    except Exception as exc:  # never a traceback
        _emit(stdout, {"error": f"internal error: {type(exc).__name__}: {exc}"})
        return 1
    _emit(stdout, out, pretty)
    return code
