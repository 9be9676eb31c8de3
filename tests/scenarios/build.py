"""Build the scenario files of tests/scenarios from compact specs (a developer tool, not a test).

    python tests/scenarios/build.py            # rewrite every <name>.json and its golden <name>.out.json
    python tests/scenarios/build.py --check    # exit 1 if a checked-in file differs from the rebuild

A spec names the interesting tiles and actions only; the builder completes the deal and the action list:

* ``hands``: per seat, the tiles written (the dealer's 14th last).  A hand with fewer tiles is
  completed with filler tiles (appended; for the dealer the 14th is then a filler tile).
* ``draws``: the front of the wall in draw order; ``tail``: kong replacements in order (``tail[0]``
  is the wall's last tile).  ``?`` = any filler tile.  Filler = the remaining tiles, shuffled with a
  generator seeded by the scenario name.
* ``actions``: ``"<seat> <act> [tile]"`` applied when that seat is to act (``*`` = the tile just
  drawn; suffix ``@wN`` = only when N tiles remain in the wall; prefix ``!`` = apply at once, e.g. to
  record an illegal action).  Between them the builder plays automatically: a seat on its turn
  discards the tile it drew, a seat asked in a claim window passes.  ``finish``: keep playing
  automatically until the hand is over; ``stop_at``: keep playing automatically until that seat is to act.

The scenario file is the exact ``python -m engine play`` input (plus ``description`` and ``expect``,
which the runner ignores); ``<name>.out.json`` is the runner's output (golden).  ``expect`` holds the
hand-derived expectations (from docs/rules.md vectors) that tests/engine/test_scenarios.py checks.
"""

from __future__ import annotations

import io
import json
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parents[1]))

from engine.game import Action, ActionKind, IllegalAction, kinds_for, legal_actions, replay, start, step  # noqa: E402
from engine.game.scenario import main as play_main  # noqa: E402
from engine.game.state import Phase  # noqa: E402
from engine.rules import RuleSet  # noqa: E402
from engine.tiles import Tile, format_tiles, parse_tile, parse_tiles  # noqa: E402


@dataclass
class Spec:
    name: str
    description: str
    hands: list[str]
    draws: str = ""
    tail: str = ""
    actions: list[str] = field(default_factory=list)
    rules: Any = "standard"
    dealer: int = 0
    finish: bool = False
    stop_at: int | None = None
    seed: str | None = None
    expect: dict[str, Any] = field(default_factory=dict)


def _tokens(text: str) -> list[str]:
    out: list[str] = []
    for part in text.split():
        if part == "?":
            out.append("?")
        else:
            out.extend(str(t) for t in parse_tiles(part))
    return out


def _deal(spec: Spec) -> tuple[list[list[Tile]], list[Tile]]:
    rules = RuleSet.from_json(spec.rules)
    pool = [t for t in kinds_for(rules) for _ in range(4)]

    def take(t: Tile) -> Tile:
        try:
            pool.remove(t)
        except ValueError:
            raise SystemExit(f"{spec.name}: more than 4 copies of {t}") from None
        return t

    hands = [[take(t) for t in parse_tiles(h)] for h in spec.hands]
    draws = _tokens(spec.draws)
    tail = _tokens(spec.tail)
    fixed_draws = [take(parse_tile(t)) if t != "?" else None for t in draws]
    fixed_tail = [take(parse_tile(t)) if t != "?" else None for t in tail]
    rng = random.Random(spec.name)
    rng.shuffle(pool)
    for s, h in enumerate(hands):
        want = 14 if s == spec.dealer else 13
        while len(h) < want:
            h.append(pool.pop())
    front = [t if t is not None else pool.pop() for t in fixed_draws]
    back = [t if t is not None else pool.pop() for t in fixed_tail]
    wall = front + pool + back[::-1]
    return hands, wall


def _parse_action(text: str) -> tuple[str, bool, int | None]:
    now = text.startswith("!")
    body = text.lstrip("!")
    cond = None
    if "@w" in body:
        body, c = body.split("@w")
        cond = int(c)
    return body.strip(), now, cond


def _make(body: str, state: Any) -> Action:
    """``"0 discard 5s"``; ``*`` = the drawn tile; ``"0 liangdao 8s show 22s"`` names a 亮倒 reveal."""
    parts = body.split()
    seat = int(parts[0])
    kind = ActionKind(parts[1])
    tile = None
    if len(parts) > 2:
        tile = state.drawn if parts[2] == "*" else parse_tile(parts[2])
    if len(parts) > 4 and parts[3] == "show":
        return Action(seat, kind, tile, tuple(sorted(parse_tiles(parts[4]))))
    return Action(seat, kind, tile)


def _auto(state: Any) -> Action:
    """The automatic answer between spec actions: pass a claim window, discard the drawn tile; when the
    rules forbid that (卡心五's 有胡必胡 / 有杠必杠, protection) the first legal action of its kind."""
    if state.phase in (Phase.CLAIM, Phase.ROB):
        action = Action(state.to_act()[0], ActionKind.PASS)
    else:
        if state.drawn is None:
            raise SystemExit(f"seat {state.turn} must discard after 碰; give its action")
        action = Action(state.turn, ActionKind.DISCARD, state.drawn)
    legal = legal_actions(state, action.seat)
    if action in legal:
        return action
    discards = [a for a in legal if a.kind is ActionKind.DISCARD]
    return (discards or legal)[0]


def expand(spec: Spec) -> dict[str, Any]:
    """The scenario object of a spec (explicit deal and action list)."""
    rules = RuleSet.from_json(spec.rules)
    if spec.seed is not None:
        state = replay(start(rules, spec.dealer, seed=spec.seed))
        hands, wall = [], []
    else:
        hands, wall = _deal(spec)
        state = replay(start(rules, spec.dealer, hands=hands, wall=wall))
    out: list[dict[str, Any]] = []
    pending = [_parse_action(a) for a in spec.actions]
    guard = 0

    def more() -> bool:
        if pending or (spec.finish and not state.over):
            return True
        return spec.stop_at is not None and not state.over and spec.stop_at not in state.to_act()

    while more():
        guard += 1
        if guard > 500:
            raise SystemExit(f"{spec.name}: does not converge; next spec action {pending[:1]}")
        if state.over:
            raise SystemExit(f"{spec.name}: hand over with spec actions left: {pending}")
        if pending:
            body, now, cond = pending[0]
            seat = int(body.split()[0])
            action = _make(body, state)
            turn_act = action.kind.takes_tile or (action.kind is ActionKind.WIN and state.window is None)
            fits = seat in state.to_act() and turn_act == (state.phase is Phase.TURN)
            if fits and not now:
                may_fail = len(pending) == 1 and "error" in spec.expect
                fits = may_fail or action in legal_actions(state, seat)
            if now or (fits and (cond is None or state.wall_remaining == cond)):
                out.append(action.to_json())
                pending.pop(0)
                try:
                    state, _ = step(state, action)
                except IllegalAction:
                    if pending:
                        raise SystemExit(f"{spec.name}: illegal action {body!r} before the end") from None
                    break
                continue
        try:
            action = _auto(state)
        except SystemExit as exc:
            raise SystemExit(f"{spec.name}: {exc}") from None
        out.append(action.to_json())
        state, _ = step(state, action)
    head: dict[str, Any] = {
        "description": spec.description,
        "expect": spec.expect,
        "rules": spec.rules,
        "dealer": spec.dealer,
    }
    if spec.seed is not None:
        return {**head, "seed": spec.seed, "actions": out}
    written = []
    for s, h in enumerate(hands):
        if s == spec.dealer:
            written.append(format_tiles(h[:-1]) + format_tiles(h[-1:]))
        else:
            written.append(format_tiles(h))
    return {
        **head,
        "hands": written,
        "wall": format_tiles(wall, sort=False),
        "actions": out,
    }


def golden(scenario: dict[str, Any]) -> dict[str, Any]:
    """The runner's output for a scenario object (through the command's main)."""
    stdout = io.StringIO()
    code = play_main([], io.StringIO(json.dumps(scenario, ensure_ascii=False)), stdout)
    result: dict[str, Any] = json.loads(stdout.getvalue())
    result["exit"] = code
    return result


def dump(obj: dict[str, Any]) -> str:
    """The checked-in JSON layout: one top-level key, action or event per line."""
    lines = []
    for key, value in obj.items():
        if isinstance(value, list) and value and isinstance(value[0], dict):
            items = ",\n".join("  " + json.dumps(v, ensure_ascii=False) for v in value)
            lines.append(f" {json.dumps(key)}: [\n{items}\n ]")
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def main() -> int:
    from specs import SPECS

    check = "--check" in sys.argv
    names = set()
    bad = 0
    for spec in SPECS:
        if spec.name in names:
            raise SystemExit(f"duplicate scenario {spec.name}")
        names.add(spec.name)
        scenario = expand(spec)
        out = golden(scenario)
        for path, text in ((ROOT / f"{spec.name}.json", dump(scenario)), (ROOT / f"{spec.name}.out.json", dump(out))):
            if check:
                if not path.exists() or path.read_text(encoding="utf-8") != text:
                    print(f"differs: {path.name}")
                    bad += 1
            else:
                path.write_text(text, encoding="utf-8")
    if not check:
        print(f"wrote {len(names)} scenarios")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
