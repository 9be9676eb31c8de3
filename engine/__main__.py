"""``python -m engine <command>``: the engine's command-line contracts.

Commands: ``score`` (one win, JSON in/out), ``analyze`` (waits/shanten per line), ``play`` (a hand
scenario, JSON in/out), ``simulate`` (AI self-play statistics), ``deal`` (re-derive a hand's deal
from its shuffle seed, JSON out), ``review`` (where an AI would have played a recorded hand
otherwise, JSON in/out).  Unknown commands exit 2 with a one-line message; no command ever prints
a traceback for bad input.
"""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

_COMMANDS = {
    "score": "engine.cli_score",
    "analyze": "engine.cli_analyze",
    "play": "engine.game.scenario",
    "simulate": "engine.cli_simulate",
    "deal": "engine.cli_deal",
    "review": "engine.cli_review",
}


def main(argv: Sequence[str] | None = None) -> int:
    """Dispatch to a command module's ``main(argv, stdin, stdout) -> int``."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args in (["-h"], ["--help"]):
        print(f"usage: python -m engine {{{','.join(_COMMANDS)}}} ...\n\n{(__doc__ or '').strip()}")
        return 0
    if not args or args[0] not in _COMMANDS:
        sys.stderr.write(f"usage: python -m engine {{{','.join(_COMMANDS)}}} ...\n")
        print(json.dumps({"error": f"unknown command {args[0] if args else ''!r}"}))
        return 2
    try:
        module = importlib.import_module(_COMMANDS[args[0]])
    except ModuleNotFoundError:
        print(json.dumps({"error": f"command {args[0]!r} is not available in this build"}))
        return 2
    run: Callable[[Sequence[str], TextIO, TextIO], int] = module.main
    return run(args[1:], sys.stdin, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
