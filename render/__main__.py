"""``python -m render demo --out DIR [--seed N] [--source engine|scripted] [--lang LANG] [--rules NAME] [--jpeg]``.

Writes one of each picture for a look: ``hand.png``, ``table.png``, ``reveal.png``, ``result.png``,
``draw.png`` (荒庄) and ``stats.png`` (``/stats`` of a made-up season, :func:`render.demo.demo_stats`).
``--source engine`` (default) takes them from hands played by the engine's AI
(:func:`render.demo.engine_demo`); ``--source scripted`` from the hand-built scene
(:func:`render.demo.demo_views`).  With ``--jpeg`` also a ``.jpg`` of each at quality 80 (roughly
what Telegram delivers to phones).  ``--lang`` picks the labels' language among the words the
caller gives (``words``: ``kwx-bot render-demo`` gives every language of the bot's catalogs, default
``zh_CN``; ``python -m render`` alone has English only, :data:`render.ENGLISH`).  ``--rules`` names a
preset of the engine (``two_seats``, ``four_seats``, ``kaxinwu``..., engine source only); under
partial reveals (``liangdao_reveal`` ``kou`` / ``minimal``: 卡心五) seats 0 and 1 declare 亮倒 / 廊起
as soon as they can, showing as few tiles as the rules allow, and 卡心五 pictures say 廊起.
``kwx-bot render-demo`` runs the same command under its own name (``prog``); ``phone`` measures
every language it was given.
"""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from PIL import Image

from engine.rules import PRESETS, LiangdaoReveal, RuleSet, Ruleset

from . import ENGLISH, encode, render_hand, render_result, render_reveal, render_stats, render_table
from .demo import PICTURE_KINDS, demo_stats, demo_views, engine_demo, picture_canvases
from .labels import PictureWords
from .phone import phone_sizes


def main(
    argv: list[str] | None = None, *, demo_prog: str | None = None, words: Mapping[str, PictureWords] | None = None
) -> int:
    """Command-line entry point; returns the exit status.  ``demo_prog``: how usage and ``--help``
    name the demo command when another program runs it (default ``python -m render demo``);
    ``words``: the pictures' words by language (default English only), the first the default."""
    by_lang = dict(words) if words else {ENGLISH.lang: ENGLISH}
    parser = argparse.ArgumentParser(prog="python -m render", description="kwx pictures")
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser(
        "demo", help="write one of each picture for a seeded demo hand", prog=demo_prog or "python -m render demo"
    )
    demo.add_argument("--out", type=Path, required=True, help="directory to write the pictures to")
    demo.add_argument("--seed", type=int, default=7, help="seed of the demo deal (default 7)")
    demo.add_argument("--source", choices=("engine", "scripted"), default="engine", help="where the views come from")
    first = next(iter(by_lang))
    demo.add_argument("--lang", choices=list(by_lang), default=first, help=f"language of the labels (default {first})")
    demo.add_argument("--rules", choices=sorted(PRESETS), help="a rule preset (engine source): 2 or 4 seats, 卡心五")
    demo.add_argument("--jpeg", action="store_true", help="also write a JPEG q80 copy of each picture")
    phone = sub.add_parser("phone", help="how large every picture kind shows on a phone (render.phone)")
    phone.add_argument("--seats", type=int, nargs="+", default=[2, 3, 4], choices=(2, 3, 4))
    args = parser.parse_args(argv)
    if args.command == "phone":
        print_phone_sizes(args.seats, list(by_lang.values()))
        return 0
    try:
        args.out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        print(f"cannot create {args.out}: {exc.strerror}", file=sys.stderr)
        return 2
    rules = RuleSet.preset(args.rules) if args.rules else None
    if args.source == "engine":
        partial = rules is not None and rules.liangdao_reveal is not LiangdaoReveal.FULL
        d = engine_demo(args.seed, rules=rules, declare={0, 1} if partial else ())
    else:
        d = demo_views(args.seed)
    lang = by_lang[args.lang]
    game = rules.ruleset if rules is not None else Ruleset.KAWUXING
    pictures = {
        "hand": render_hand(d.hand, lang, game=game, names=d.names),
        "table": render_table(d.table, d.names, lang, totals=d.totals, game=game),
        "reveal": render_reveal(d.reveal, d.reveal_seat, d.names, lang, game=game),
        "result": render_result(d.result, d.names, lang, hands=d.hands, game=game),
        "draw": render_result(d.draw, d.names, lang, game=game),
        "stats": render_stats(demo_stats(args.seed), lang),
    }
    for name, image in pictures.items():
        path = args.out / f"{name}.png"
        path.write_bytes(encode(image, "png"))
        line = f"{path}  {image.width}x{image.height}"
        if args.jpeg:
            buf = io.BytesIO()
            image.save(buf, "JPEG", quality=80)
            (args.out / f"{name}.jpg").write_bytes(buf.getvalue())
            Image.open(io.BytesIO(buf.getvalue())).load()
            line += f"  (+ {name}.jpg, {len(buf.getvalue()) // 1024} KiB)"
        print(line)
    return 0


def print_phone_sizes(seats: list[int], words: Sequence[PictureWords] = (ENGLISH,)) -> None:
    """Print, per game, number of seats and picture kind (:data:`render.demo.PICTURE_KINDS`), how
    the picture shows 330 px wide (:func:`render.phone.phone_sizes`, the smallest of the languages of ``words``;
    a replay: its worst frame) as a Markdown table: smallest text, own and other tiles in phone
    pixels, height over width."""
    print("| game | seats | picture | size (px) | smallest text | own tiles | other tiles | height / width |")
    print("|---|---|---|---|---|---|---|---|")
    for game in (Ruleset.KAWUXING.value, Ruleset.KAXINWU.value):
        for n in seats:
            for kind in PICTURE_KINDS:
                drawn = [phone_sizes(c) for w in words for c in picture_canvases(kind, game, n, w)]
                tallest = max(drawn, key=lambda p: p.ratio)
                own = [p.own_tile for p in drawn if p.own_tile is not None]
                tiles = [p.tile for p in drawn if p.tile is not None]
                cells = (
                    f"{tallest.width}×{tallest.height}",
                    f"{min(p.text for p in drawn):.1f}",
                    f"{min(own):.1f}" if own else "–",
                    f"{min(tiles):.1f}" if tiles else "–",
                    f"{tallest.ratio:.2f}",
                )
                print(f"| {game} | {n} | {kind} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    raise SystemExit(main())
