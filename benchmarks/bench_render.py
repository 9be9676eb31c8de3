"""Render + encode speed of the pictures (docs/architecture.md §7: hand <= 15 ms, table <= 40 ms).

Usage: ``python benchmarks/bench_render.py [--runs N]``.  Builds the demo views
(:func:`render.demo.demo_views`), warms the sprite cache once (as the bot should at start-up), then
prints per picture the median over N runs (ms) of render alone and render + each encoding of
:data:`FORMATS` (the palette PNG the bot sends, RGB PNG, JPEG), and the encoded sizes (KiB).  The bars
apply to render + the palette PNG, what the bot sends unless ``KWX_PICTURE_FORMAT`` says otherwise
(the RGB PNG and JPEG columns are for reference).  ``benchmarks/bench_pictures.py`` compares more
encodings.
Exit status 1 if a bar is missed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image

from render import encode, render_hand, render_result, render_reveal, render_table, warm_cache
from render.demo import demo_views

BARS_MS = {"hand": 15.0, "table": 40.0}
"""Bars on render + encode in the :data:`SENT` format (docs/architecture.md §7)."""

SENT = "palette"
"""The encoding the bot sends by default (``KWX_PICTURE_FORMAT``)."""


def median_ms(fn: Callable[[], object], runs: int) -> float:
    """Median wall time of ``fn()`` over ``runs`` calls, in milliseconds."""
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


FORMATS = ("palette", "png", "jpeg")
"""The encodings of :func:`render.encode` (``palette`` is what the bot sends by default)."""


def measure(name: str, render: Callable[[], Image.Image], runs: int) -> bool:
    """Print one picture's line; True if it meets its bar (or has none)."""
    img = render()
    render_ms = median_ms(render, runs)
    ms = [median_ms(lambda fmt=fmt: encode(render(), fmt), runs) for fmt in FORMATS]  # type: ignore[misc]
    kib = [len(encode(img, fmt)) / 1024 for fmt in FORMATS]
    bar = BARS_MS.get(name)
    ok = bar is None or ms[FORMATS.index(SENT)] <= bar
    verdict = "" if bar is None else f"<= {bar:.0f} ms: {'ok' if ok else 'MISSED'}"
    size = f"{img.width}x{img.height}"
    timing = f"{render_ms:8.2f} " + " ".join(f"{t:9.2f}" for t in ms)
    sizes = " ".join(f"{k:9.1f}" for k in kib)
    print(f"{name:8} {size:>9} {timing} {sizes}  {verdict}")
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=50)
    args = parser.parse_args(argv)
    d = demo_views()
    t0 = time.perf_counter()
    warm_cache()
    print(f"warm_cache: {(time.perf_counter() - t0) * 1000:.0f} ms (once, at start-up)")
    head = " ".join(f"{'+' + f:>9}" for f in FORMATS) + " " + " ".join(f"{f + ' KiB':>9}" for f in FORMATS)
    print(f"{'picture':8} {'size':>9} {'render':>8} {head}  bar")
    ok = measure("hand", lambda: render_hand(d.hand), args.runs)
    ok &= measure("table", lambda: render_table(d.table, d.names, totals=d.totals), args.runs)
    ok &= measure("reveal", lambda: render_reveal(d.reveal, d.reveal_seat, d.names), args.runs)
    ok &= measure("result", lambda: render_result(d.result, d.names, hands=d.hands), args.runs)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
