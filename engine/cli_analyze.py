"""``python -m engine analyze``: wait sets, completeness and shanten of hands in the notation.

Input: one hand per line on stdin, or one hand as the argument.  Output: one JSON object per hand
(``tiles`` echoes the input line),
``{"tiles": "123p789p234s46s88s", "complete": false, "waits": ["5s"], "shanten": 0}``:

* ``waits`` for a 13 - 3k tile hand (k implied melds, so no 七对), ``complete`` for 14 - 3k tiles;
* ``shanten`` counts 七对 (when k = 0): -1 complete, 0 ready; for 14 - 3k tiles it is the value after
  the best discard.  Standard rules (docs/rules.md §A7), no melds declared.

A malformed line prints ``{"tiles": "<line>", "error": "..."}``; the exit status is 2 if any line
was malformed, else 0.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TextIO

from .analysis import is_complete_keys, keys_of, mask_to_tiles, shanten_keys, waits_mask
from .cli_io import emit
from .tiles import NotationError, counts_of, parse_tiles


def analyze_line(text: str) -> dict[str, object]:
    """The JSON object for one hand; raises :class:`NotationError` for bad notation or size."""
    tiles = parse_tiles(text)
    n = len(tiles)
    if n == 0 or n > 14 or n % 3 == 0:
        raise NotationError(f"{n} tiles: a hand has 13 - 3k tiles (waits) or 14 - 3k tiles (complete)")
    melds = (14 - n) // 3
    keys = keys_of(counts_of(tiles))
    out: dict[str, object] = {"tiles": text.strip()}
    if n % 3 == 1:
        out["complete"] = False
        out["waits"] = [str(t) for t in mask_to_tiles(waits_mask(keys, melds))]
    else:
        out["complete"] = is_complete_keys(keys, melds)
    out["shanten"] = shanten_keys(keys, melds)
    return out


def main(argv: Sequence[str], stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    """Run the command; returns the exit status (0 ok, 2 when a line was malformed)."""
    lines = [" ".join(argv)] if argv else [line for line in stdin.read().splitlines() if line.strip()]
    status = 0
    for line in lines:
        try:
            obj = analyze_line(line)
        except NotationError as exc:
            obj = {"tiles": line.strip(), "error": str(exc)}
            status = 2
        emit(stdout, obj)
    return status
