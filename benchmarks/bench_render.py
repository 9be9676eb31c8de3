"""Render + encode speed of the pictures (docs/architecture.md §7: hand <= 15 ms, table <= 40 ms).

Usage: ``python benchmarks/bench_render.py [--runs N]``.  Builds the demo views
(:func:`render.demo.demo_views`), warms the sprite cache once (as the bot should at start-up), then
prints per picture the median over N runs (ms) of render alone, render + PNG encode and render +
JPEG encode, and the encoded sizes (KiB).  The bars apply to the slower of the two encodings.
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


def median_ms(fn: Callable[[], object], runs: int) -> float:
    """Median wall time of ``fn()`` over ``runs`` calls, in milliseconds."""
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def measure(name: str, render: Callable[[], Image.Image], runs: int) -> bool:
    """Print one picture's line; True if it meets its bar (or has none)."""
    img = render()
    render_ms = median_ms(render, runs)
    png_ms = median_ms(lambda: encode(render(), "png"), runs)
    jpeg_ms = median_ms(lambda: encode(render(), "jpeg"), runs)
    png_kib = len(encode(img, "png")) / 1024
    jpeg_kib = len(encode(img, "jpeg")) / 1024
    bar = BARS_MS.get(name)
    ok = bar is None or max(png_ms, jpeg_ms) <= bar
    verdict = "" if bar is None else f"<= {bar:.0f} ms: {'ok' if ok else 'MISSED'}"
    size = f"{img.width}x{img.height}"
    timing = f"{render_ms:8.2f} {png_ms:8.2f} {jpeg_ms:8.2f}"
    print(f"{name:8} {size:>9} {timing} {png_kib:8.1f} {jpeg_kib:9.1f}  {verdict}")
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=50)
    args = parser.parse_args(argv)
    d = demo_views()
    t0 = time.perf_counter()
    warm_cache()
    print(f"warm_cache: {(time.perf_counter() - t0) * 1000:.0f} ms (once, at start-up)")
    print(f"{'picture':8} {'size':>9} {'render':>8} {'+png':>8} {'+jpeg':>8} {'png KiB':>8} {'jpeg KiB':>9}  bar")
    ok = measure("hand", lambda: render_hand(d.hand), args.runs)
    ok &= measure("table", lambda: render_table(d.table, d.names, totals=d.totals), args.runs)
    ok &= measure("reveal", lambda: render_reveal(d.reveal, d.reveal_seat, d.names), args.runs)
    ok &= measure("result", lambda: render_result(d.result, d.names, hands=d.hands), args.runs)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
