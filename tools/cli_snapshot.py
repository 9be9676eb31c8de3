"""Record what the engine's command-line contracts answer, to show that a refactoring changes none of it.

    python tools/cli_snapshot.py OUT_DIR          # write one file per command and input into OUT_DIR
    diff -r BEFORE_DIR AFTER_DIR                  # nothing printed = every answer is the same

Run it once on the commit before a change and once after (e.g. ``git stash`` or a second worktree),
into two directories outside the repository, then compare them.  Each file holds the exit status and
the exact stdout of one command on one input, run through the command's own ``main(argv, stdin,
stdout)`` (the code path of ``python -m engine <command>``, docs/architecture.md):

* ``play``: every scenario of tests/scenarios (its ``.json`` input);
* ``score``: every docs/rules.md §D vector of tests/engine/test_vectors_d.py, and every win of every
  scenario re-asked as a ``score`` question;
* ``analyze``: every hand dealt in a scenario, and every vector's concealed hand;
* ``deal``: the deal of every scenario that names a ``seed``, and a seed per preset and dealer;
* ``simulate``: a few short ``--json --check`` runs per preset, without the timing fields.
"""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.cli_analyze import main as analyze_main  # noqa: E402
from engine.cli_deal import main as deal_main  # noqa: E402
from engine.cli_score import main as score_main  # noqa: E402
from engine.cli_simulate import main as simulate_main  # noqa: E402
from engine.game.scenario import main as play_main  # noqa: E402
from engine.rules import PRESETS  # noqa: E402

Main = Callable[[Sequence[str], TextIO, TextIO], int]
_TIMING = ("hands_per_second", "seconds", "elapsed")


def _run(main: Main, argv: Sequence[str], text: str = "") -> str:
    out = io.StringIO()
    code = main(list(argv), io.StringIO(text), out)
    return f"exit {code}\n{out.getvalue()}"


def _strip_timing(text: str) -> str:
    head, _, body = text.partition("\n")
    try:
        obj = json.loads(body)
    except ValueError:
        return text
    if isinstance(obj, dict):
        for key in _TIMING:
            obj.pop(key, None)
    return f"{head}\n{json.dumps(obj, ensure_ascii=False, sort_keys=True)}\n"


def _scenarios() -> list[tuple[str, dict[str, Any]]]:
    files = sorted(p for p in (ROOT / "tests" / "scenarios").glob("*.json") if not p.name.endswith(".out.json"))
    return [(p.stem, json.loads(p.read_text(encoding="utf-8"))) for p in files]


def _vectors() -> list[tuple[str, dict[str, Any]]]:
    from tests.engine.test_vectors_d import VECTORS

    return [(v.id.replace("/", "__"), v.question()) for v in VECTORS]


def _win_questions(name: str, scenario: dict[str, Any], answer: str) -> list[tuple[str, dict[str, Any]]]:
    """Each win of a finished scenario as a ``score`` question (the winner's hand as the result shows it)."""
    body = answer.partition("\n")[2]
    try:
        events = json.loads(body).get("events", [])
    except ValueError:
        return []
    out = []
    for e in events:
        if e.get("type") != "hand_ended":
            continue
        for k, w in enumerate(e.get("winners", [])):
            q: dict[str, Any] = {
                "rules": scenario.get("rules", "standard"),
                "concealed": w["concealed"],
                "melds": [f"{m['kind']} {m['tile'] * 4 if m['kind'] != 'pong' else m['tile'] * 3}" for m in w["melds"]],
                "win_tile": w["win_tile"],
                "win_by": w["by"],
                "winner": w["seat"],
            }
            if w["from_seat"] is not None:
                q["discarder"] = w["from_seat"]
            out.append((f"{name}__win{k}", q))
    return out


def record(out_dir: Path) -> int:
    """Write every answer into ``out_dir`` (created); returns the number of files."""
    files: dict[str, str] = {}
    hands: set[str] = set()
    for name, scenario in _scenarios():
        answer = _run(play_main, [], json.dumps(scenario, ensure_ascii=False))
        files[f"play/{name}"] = answer
        for key, question in _win_questions(name, scenario, answer):
            files[f"score/{key}"] = _run(score_main, [], json.dumps(question, ensure_ascii=False))
        hands.update(scenario.get("hands", []))
        if "seed" in scenario:
            rules = json.dumps(scenario.get("rules", "standard"), ensure_ascii=False)
            argv = ["--seed", scenario["seed"], "--dealer", str(scenario.get("dealer", 0)), "--rules", rules]
            files[f"deal/{name}"] = _run(deal_main, argv)
    for name, question in _vectors():
        files[f"score/{name}"] = _run(score_main, [], json.dumps(question, ensure_ascii=False))
        hands.add(question["concealed"])
    for hand in sorted(hands):
        files[f"analyze/{hand}"] = _run(analyze_main, [], hand + "\n")
    for preset in sorted(PRESETS):
        players = PRESETS[preset].players
        for dealer in range(players):
            files[f"deal/{preset}_{dealer}"] = _run(
                deal_main, ["--seed", f"snap-{preset}", "--dealer", str(dealer), "--rules", preset]
            )
        hands_n = {2: 8, 3: 12, 4: 48}[players]
        for levels in ("normal", "random"):
            argv = ["--hands", str(hands_n), "--seed", f"snap-{preset}", "--rules", preset, "--json", "--check"]
            argv += ["--players", ",".join([levels] * players)]
            files[f"simulate/{preset}_{levels}"] = _strip_timing(_run(simulate_main, argv))
    for key, text in files.items():
        path = out_dir / f"{key}.txt"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return len(files)


def main(argv: Sequence[str]) -> int:
    """``cli_snapshot.py OUT_DIR``."""
    if len(argv) != 1:
        print(__doc__)
        return 2
    n = record(Path(argv[0]))
    print(f"wrote {n} answers into {argv[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
