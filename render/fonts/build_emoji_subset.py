"""Build ``render/fonts/KwxEmoji-Bold.ttf``: a subset of Noto Emoji Bold (monochrome; SIL OFL 1.1).

How the shipped font was made (run at development time; the output and ``emoji.txt`` are committed)::

    npm pack @fontsource/noto-emoji@5.3.2 && tar xzf fontsource-noto-emoji-5.3.2.tgz
    python render/fonts/build_emoji_subset.py --source package/files/noto-emoji-emoji-700-normal.woff
                                                               # needs fontTools (test extra)

Steps:

1. Take the ``emoji`` subset of Noto Emoji at weight 700 as Fontsource ships it (a static WOFF of
   every emoji of the font, 1,464 code points): monochrome outlines, drawn in the text's colour like
   every other character of a name, so the 48-colour pictures keep their palette.
2. Keep every emoji code point from U+203C up, except the parts of sequences that the renderer never
   draws alone (the zero-width joiner, variation selectors, skin-tone modifiers, tag characters):
   Pillow's basic layout has no ligatures, so a sequence is drawn as its first emoji
   (:func:`render.text.clean_name`).  Drop the layout tables and the hints (unused without ligatures;
   the pictures draw emoji at 25-40 px).
3. Rename the family to ``Kwx Emoji`` (a subset is a Modified Version under the OFL) and write the
   covered characters to ``emoji.txt`` (one line), which :func:`render.text.emoji_covered` reads at
   run time (fontTools is not a run-time dependency).

The licence text is ``OFL-NotoEmoji.txt`` beside the font (the package's ``LICENSE``).
Run with ``--check`` to verify that ``emoji.txt`` matches the committed font's cmap.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from fontTools import subset  # type: ignore[import-untyped]
from fontTools.ttLib import TTFont  # type: ignore[import-untyped]

HERE = Path(__file__).resolve().parent
OUTPUT = HERE / "KwxEmoji-Bold.ttf"
LIST = HERE / "emoji.txt"
FAMILY = "Kwx Emoji"
STYLE = "Bold"
PS_NAME = "KwxEmoji-Bold"


def wanted(codepoint: int) -> bool:
    """An emoji code point the subset keeps (see step 2)."""
    return codepoint >= 0x203C and not (
        codepoint in (0x200D, 0x20E3)
        or 0xFE00 <= codepoint <= 0xFE0F
        or 0x1F3FB <= codepoint <= 0x1F3FF
        or codepoint >= 0xE0000
    )


def build(source: Path, output: Path) -> str:
    """Subset ``source`` to :func:`wanted` code points, rename it, write ``output``; returns the
    covered characters in code point order."""
    keep = sorted(c for c in TTFont(str(source)).getBestCmap() if wanted(c))
    options = subset.Options()
    options.layout_features = []
    options.hinting = False
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.flavor = None
    font = subset.load_font(str(source), options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=keep)
    subsetter.subset(font)
    name = font["name"]
    version = name.getDebugName(5) or ""
    for rec in list(name.names):
        if rec.nameID in (1, 3, 4, 6, 16, 17, 18, 21, 22):
            name.removeNames(nameID=rec.nameID)
    for plat, enc, lang in ((3, 1, 0x409), (1, 0, 0)):
        name.setName(FAMILY, 1, plat, enc, lang)
        name.setName(STYLE, 2, plat, enc, lang)
        name.setName(f"{PS_NAME};subset of Noto Emoji Bold", 3, plat, enc, lang)
        name.setName(f"{FAMILY} {STYLE}", 4, plat, enc, lang)
        name.setName(f"{version}; kwx subset of Noto Emoji Bold", 5, plat, enc, lang)
        name.setName(PS_NAME, 6, plat, enc, lang)
    subset.save_font(font, str(output), options)
    return "".join(chr(c) for c in sorted(TTFont(str(output)).getBestCmap()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--source", type=Path, help="noto-emoji-emoji-700-normal.woff of @fontsource/noto-emoji")
    parser.add_argument("--check", action="store_true", help="only verify emoji.txt against the committed font")
    args = parser.parse_args(argv)
    if args.check or args.source is None:
        covered = "".join(chr(c) for c in sorted(TTFont(str(OUTPUT)).getBestCmap()))
        ok = LIST.read_text(encoding="utf-8").strip() == covered
        print(f"{OUTPUT.name}: {len(covered)} characters, emoji.txt {'matches' if ok else 'DIFFERS'}")
        return 0 if ok else 1
    chars = build(args.source, OUTPUT)
    LIST.write_text(chars + "\n", encoding="utf-8")
    print(f"{OUTPUT.name}: {len(chars)} characters, {OUTPUT.stat().st_size / 1024:.1f} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
