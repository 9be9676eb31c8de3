"""Picture encodings side by side: bytes and encode time per picture and per turn (docs/telegram.md §6).

Usage: ``python benchmarks/bench_pictures.py [--runs N] [--out DIR]``.

A representative set of pictures is drawn from hands the engine's AI plays (:func:`render.demo.play_states`)
at 3 seats (the standard game) and 4 seats (preset ``four_seats``): a hand picture, the table early
(after the first round of discards) and late (the last turn), and the result with every hand face
up.  Each is encoded by every candidate in :data:`CANDIDATES` (the JPEG settings, palette PNGs of
32 / 48 / 64 / 128 colours by Pillow's quantize methods and zlib levels, WebP for reference --
Telegram's sendPhoto takes JPEG or PNG, so WebP is measured, not chosen) and the median encode time over ``--runs`` is
printed with the size.  *Per turn* is what a turn uploads: one hand picture and one table picture
(the mean of early and late).  With ``--out`` every encoding of every picture is written there,
plus a copy scaled to 330 px wide (a phone, :data:`render.phone.PHONE_WIDTH`) for judging readability by eye.
"""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image

from benchmarks.bench_render import median_ms
from engine.game import public_view, view_for
from engine.game.state import Phase
from engine.rules import RuleSet
from render import encode, render_hand, render_result, render_table, warm_cache
from render.demo import _whole_hands, play_states
from render.phone import PHONE_WIDTH

NAMES = ("Lǐ Míng", "Wáng Fāng", "Zhang_San", "Anna")


def _jpeg(quality: int, subsampling: int) -> Callable[[Image.Image], bytes]:
    def run(img: Image.Image) -> bytes:
        buf = io.BytesIO()
        img.save(buf, "JPEG", quality=quality, subsampling=subsampling)
        return buf.getvalue()

    return run


def _palette(colors: int, method: Image.Quantize, level: int = 1) -> Callable[[Image.Image], bytes]:
    def run(img: Image.Image) -> bytes:
        buf = io.BytesIO()
        img.quantize(colors, method=method, dither=Image.Dither.NONE).save(buf, "PNG", compress_level=level)
        return buf.getvalue()

    return run


def _webp(quality: int, lossless: bool = False) -> Callable[[Image.Image], bytes]:
    def run(img: Image.Image) -> bytes:
        buf = io.BytesIO()
        img.save(buf, "WEBP", quality=quality, lossless=lossless, method=0 if lossless else 4)
        return buf.getvalue()

    return run


CANDIDATES: dict[str, Callable[[Image.Image], bytes]] = {
    "jpeg q90 444 (old)": _jpeg(90, 0),
    "jpeg q85 420": _jpeg(85, 2),
    "jpeg q80 444": _jpeg(80, 0),
    "jpeg q75 420": _jpeg(75, 2),
    "png rgb level 1": lambda img: encode(img, "png"),
    "png 128 octree l1": _palette(128, Image.Quantize.FASTOCTREE),
    "png 64 octree l1": _palette(64, Image.Quantize.FASTOCTREE),
    "png 128 octree l6": _palette(128, Image.Quantize.FASTOCTREE, 6),
    "png 64 octree l6": _palette(64, Image.Quantize.FASTOCTREE, 6),
    "png 48 octree l6": _palette(48, Image.Quantize.FASTOCTREE, 6),
    "png 32 octree l6": _palette(32, Image.Quantize.FASTOCTREE, 6),
    "png 128 mediancut": _palette(128, Image.Quantize.MEDIANCUT),
    "png 64 mediancut": _palette(64, Image.Quantize.MEDIANCUT),
    "encode(palette)": lambda img: encode(img, "palette"),
    "webp lossless": _webp(0, lossless=True),
    "webp q80": _webp(80),
}


def pictures() -> dict[str, Image.Image]:
    """The representative set: ``hand3``, ``table3_early``, ``table3_late``, ``result3`` and the same at 4 seats."""
    out: dict[str, Image.Image] = {}
    for n, rules in ((3, RuleSet()), (4, RuleSet.preset("four_seats"))):
        for attempt in range(50):
            states = [st for st, _ in play_states(f"bench-pictures-{n}-{attempt}", rules)]
            final = states[-1]
            if final.result is None or final.result.outcome != "win":
                continue
            turns = [st for st in states if st.phase is Phase.TURN and st.drawn is not None]
            early = turns[min(len(turns) - 1, n + 1)]
            late = turns[-1]
            names = NAMES[:n]
            out[f"hand{n}"] = render_hand(view_for(late, late.turn))
            out[f"table{n}_early"] = render_table(public_view(early), names, totals=[0] * n)
            out[f"table{n}_late"] = render_table(public_view(late), names, totals=[0] * n)
            out[f"result{n}"] = render_result(public_view(final), names, hands=_whole_hands(final))
            break
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--out", type=Path, help="write every encoding (and a 330 px wide copy) here")
    args = parser.parse_args(argv)
    warm_cache()
    pics = pictures()
    print("pictures: " + ", ".join(f"{k} {v.width}x{v.height}" for k, v in pics.items()))
    cols = list(pics)
    print(f"{'encoding':20}" + "".join(f"{k:>13}" for k in cols) + f"{'turn3':>9}{'turn4':>9}")
    for name, fn in CANDIDATES.items():
        sizes = {k: len(fn(img)) for k, img in pics.items()}
        times = {k: median_ms(lambda img=img, fn=fn: fn(img), args.runs) for k, img in pics.items()}  # type: ignore[misc]
        cells = "".join(f"{sizes[k] / 1024:6.1f}K{times[k]:5.1f}ms" for k in cols)
        turn = {n: sizes[f"hand{n}"] + (sizes[f"table{n}_early"] + sizes[f"table{n}_late"]) / 2 for n in (3, 4)}
        print(f"{name:20}{cells}{turn[3] / 1024:8.1f}K{turn[4] / 1024:8.1f}K")
        if args.out:
            args.out.mkdir(parents=True, exist_ok=True)
            slug = name.replace(" ", "_").replace("(", "").replace(")", "")
            for k, img in pics.items():
                decoded = Image.open(io.BytesIO(fn(img))).convert("RGB")
                phone = decoded.resize(
                    (PHONE_WIDTH, round(decoded.height * PHONE_WIDTH / decoded.width)), Image.LANCZOS
                )
                phone.save(args.out / f"{k}-{slug}-phone.png")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
