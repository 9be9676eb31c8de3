"""Build ``render/fonts/KwxSansCJK-Bold.otf``: a subset of Noto Sans CJK SC Bold (SIL OFL 1.1).

How the shipped font was made (run at development time; the output is committed)::

    apt-get update && apt-get install -y fonts-noto-cjk unicode-data   # Debian 1:20220127+repack1-1, 15.0.0-1
    python render/fonts/build_subset.py --tghz-from /usr/share/unicode/Unihan_Readings.txt.bz2
                                                               # needs fontTools (test extra)

Steps:

0. With ``--tghz-from``: write ``tghz2013.txt`` beside the font, the 8,105 hanzi of the 通用规范汉字表
   (2013) — every code point with a ``kTGHZ2013`` field in the Unicode Unihan database (Debian's
   ``unicode-data`` ships it as ``Unihan_Readings.txt.bz2``; plain or ``.bz2``).  The file is
   committed: :func:`render.labels.tghz_hanzi` reads it at run time.
1. Take face 2 (``Noto Sans CJK SC Bold``, mainland glyph forms) of
   ``/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc``.
2. Keep exactly the characters of :func:`render.labels.font_charset` (every label, 番 name and tile
   character the renderer draws, plus ASCII / Latin / Cyrillic letters, punctuation, the placeholder
   □ and about 10,200 hanzi for player names: GB 2312, the 通用规范汉字表, Big5 level 1), drop all
   OpenType layout features (``--layout-features=''``: the renderer uses Pillow's basic layout;
   docs/telegram.md §6 measured this pixel-identical), drop the hints (``hinting =
   False``: 2,403 KiB instead of 2,904 KiB; glyphs at the 22-30 px the pictures use look the same),
   keep every name record.
3. Rename the family to ``Kwx Sans CJK`` (a subset is a Modified Version under the OFL; renaming keeps
   clear of Reserved Font Name questions) and note the origin in the version string.

The licence text is ``OFL.txt`` beside the font (copied from the Debian package's copyright file).
Run with ``--check`` to verify the committed font covers the current charset without rewriting it.
"""

from __future__ import annotations

import argparse
import bz2
import sys
from pathlib import Path

from fontTools import subset  # type: ignore[import-untyped]
from fontTools.ttLib import TTFont  # type: ignore[import-untyped]

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from render.labels import TGHZ_FILE, font_charset  # noqa: E402

SOURCE = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc")
FACE = 2  # 0 JP, 1 KR, 2 SC, 3 TC, 4 HK
OUTPUT = HERE / "KwxSansCJK-Bold.otf"
FAMILY = "Kwx Sans CJK"
STYLE = "Bold"
PS_NAME = "KwxSansCJK-Bold"


def write_tghz(unihan_readings: Path, output: Path) -> int:
    """Write the hanzi with a ``kTGHZ2013`` field of ``unihan_readings`` (``Unihan_Readings.txt``,
    plain or ``.bz2``) to ``output``, one line in code point order; returns how many (8,105)."""
    opener = bz2.open if unihan_readings.suffix == ".bz2" else open
    found = set()
    with opener(unihan_readings, "rt", encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("U+") and "\tkTGHZ2013\t" in line:
                found.add(chr(int(line.split("\t", 1)[0][2:], 16)))
    output.write_text("".join(sorted(found)) + "\n", encoding="utf-8")
    return len(found)


def build(source: Path, output: Path, chars: str) -> None:
    """Subset ``source`` face :data:`FACE` to ``chars`` and write the renamed font to ``output``."""
    options = subset.Options()
    options.font_number = FACE
    options.layout_features = []
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.name_legacy = True
    options.notdef_outline = True
    options.hinting = False
    font = subset.load_font(str(source), options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=chars)
    subsetter.subset(font)
    name = font["name"]
    version = name.getDebugName(5) or ""
    for rec in list(name.names):
        if rec.nameID in (16, 17, 18, 21, 22):
            name.removeNames(nameID=rec.nameID)
    for plat, enc, lang in ((3, 1, 0x409), (1, 0, 0)):
        name.setName(FAMILY, 1, plat, enc, lang)
        name.setName(STYLE, 2, plat, enc, lang)
        name.setName(f"{PS_NAME};subset of Noto Sans CJK SC Bold", 3, plat, enc, lang)
        name.setName(f"{FAMILY} {STYLE}", 4, plat, enc, lang)
        name.setName(f"{version}; kwx subset of Noto Sans CJK SC Bold", 5, plat, enc, lang)
        name.setName(PS_NAME, 6, plat, enc, lang)
    # Localised family names of the original (e.g. Chinese "思源黑体") would still say Noto: drop them.
    for rec in list(name.names):
        if rec.nameID in (1, 3, 4, 6) and rec.toUnicode() not in (
            FAMILY,
            STYLE,
            f"{FAMILY} {STYLE}",
            PS_NAME,
            f"{PS_NAME};subset of Noto Sans CJK SC Bold",
        ):
            name.removeNames(nameID=rec.nameID, platformID=rec.platformID, langID=rec.langID)
    if "CFF " in font:
        cff = font["CFF "].cff
        cff.fontNames = [PS_NAME]
        top = cff.topDictIndex[0]
        top.FullName = f"{FAMILY} {STYLE}"
        top.FamilyName = FAMILY
    subset.save_font(font, str(output), options)


def missing(font_path: Path, chars: str) -> list[str]:
    """Characters of ``chars`` without a glyph in the font at ``font_path``."""
    cmap = TTFont(str(font_path)).getBestCmap()
    return [c for c in chars if ord(c) not in cmap]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--source", type=Path, default=SOURCE)
    parser.add_argument("--output", type=Path, default=OUTPUT)
    parser.add_argument("--check", action="store_true", help="only verify the committed font's coverage")
    parser.add_argument("--tghz-from", type=Path, help="Unihan_Readings.txt[.bz2]: rewrite tghz2013.txt first")
    args = parser.parse_args(argv)
    if args.tghz_from is not None:
        print(f"{TGHZ_FILE}: {write_tghz(args.tghz_from, HERE / TGHZ_FILE)} hanzi")
    chars = font_charset()
    if not args.check:
        if not args.source.exists():
            print(f"{args.source} not found: apt-get install -y fonts-noto-cjk", file=sys.stderr)
            return 2
        build(args.source, args.output, chars)
    lacking = missing(args.output, chars)
    size = args.output.stat().st_size
    print(f"{args.output.name}: {len(chars)} characters, {size / 1024:.1f} KiB, missing {''.join(lacking)!r}")
    return 1 if lacking else 0


if __name__ == "__main__":
    raise SystemExit(main())
