"""The shipped CJK font, safe text for it, and fitting text into a width.

The font is ``render/fonts/KwxSansCJK-Bold.otf``, a subset of Noto Sans CJK SC Bold (SIL OFL 1.1,
licence in ``render/fonts/OFL.txt``); it covers exactly :func:`render.labels.font_charset`.
A character outside the subset would render as *nothing* (no .notdef box, docs/telegram.md §6), so:

- player names pass :func:`clean_name`: control and zero-width characters become spaces; a run of
  characters the font lacks (an emoji with its modifiers and joiners, Arabic or Hebrew letters, a
  hanzi outside the ~10,200 of the subset) becomes one neutral placeholder ``□``
  (:data:`render.labels.PLACEHOLDER`), so the name keeps its shape; a name with nothing drawable
  left becomes ``玩家N`` (``Player N``);
- other text passes :func:`safe_text`, which turns a missing character into ``?`` so a gap in the
  charset is visible instead of silent;
- :func:`fit` truncates with ``…`` to a width in pixels.

Text is laid out with Pillow's basic layout engine (no raqm, no bidi): results do not depend on
which optional libraries Pillow was built with.
"""

from __future__ import annotations

import functools
import unicodedata
from importlib import resources
from pathlib import Path

from PIL import ImageFont

from .labels import PLACEHOLDER, SEAT_FALLBACK, font_charset

__all__ = ["FONT_PATH", "clean_name", "covered", "fit", "font", "safe_text", "text_width"]

FONT_FILE = "KwxSansCJK-Bold.otf"


def _font_path() -> Path:
    return Path(str(resources.files("render").joinpath("fonts", FONT_FILE)))


FONT_PATH: Path = _font_path()
"""Absolute path of the shipped font file."""

ELLIPSIS = "…"


@functools.cache
def font(size: int) -> ImageFont.FreeTypeFont:
    """The shipped bold CJK font at ``size`` pixels (em size), cached per size."""
    return ImageFont.truetype(str(FONT_PATH), size, layout_engine=ImageFont.Layout.BASIC)


@functools.cache
def _charset() -> frozenset[str]:
    return frozenset(font_charset())


def covered(ch: str) -> bool:
    """True if the shipped font has a glyph for the single character ``ch``.

    The font was subset to exactly :func:`render.labels.font_charset` (the coverage test checks the
    font's cmap against it), so membership in that set is the answer, without parsing the font.
    """
    return ch in _charset()


def safe_text(text: str) -> str:
    """``text`` with every character the font lacks replaced by ``?`` (line breaks become spaces)."""
    out = []
    for ch in unicodedata.normalize("NFC", text):
        if ch in "\r\n\t":
            out.append(" ")
        elif covered(ch):
            out.append(ch)
        else:
            out.append("?")
    return "".join(out)


_ZWJ = "\u200d"


def _attaches(ch: str) -> bool:
    """``ch`` belongs to the character before it: a combining mark, a variation selector, an emoji
    skin-tone modifier, a keycap or tag character (parts of one emoji or one accented letter)."""
    cp = ord(ch)
    return (
        unicodedata.category(ch).startswith("M")
        or 0xFE00 <= cp <= 0xFE0F
        or 0xE0100 <= cp <= 0xE01EF
        or 0x1F3FB <= cp <= 0x1F3FF
        or 0xE0020 <= cp <= 0xE007F
    )


def clean_name(name: str, seat: int, fallback: str = SEAT_FALLBACK) -> str:
    """A player name reduced to drawable characters.

    NFC-normalises; control, format and zero-width characters and separators become spaces; a run
    of characters without a glyph (emoji — with their modifiers, variation selectors and zero-width
    joiners —, RTL scripts, rare hanzi) becomes one :data:`~render.labels.PLACEHOLDER` ``□``; white
    space is collapsed.  If nothing drawable is left (only spaces, placeholders and punctuation),
    returns ``fallback`` formatted with ``n`` = ``seat + 1`` (``玩家N``; ``Player N`` in English).
    """
    kept: list[str] = []
    gap = False  # the last character kept is a placeholder: what follows may belong to its run
    for ch in unicodedata.normalize("NFC", name):
        if covered(ch):
            kept.append(ch)
            gap = False
        elif gap and (ch == _ZWJ or _attaches(ch)):
            continue  # part of the same emoji sequence
        elif unicodedata.category(ch)[0] in "CZ":
            kept.append(" ")
            gap = False
        elif _attaches(ch):
            continue  # a mark the font lacks on a drawable letter: the letter stays
        elif not gap:
            kept.append(PLACEHOLDER)
            gap = True
    cleaned = " ".join("".join(kept).split())
    return cleaned if cleaned.strip(" ?.-_·" + PLACEHOLDER) else fallback.format(n=seat + 1)


@functools.lru_cache(maxsize=8192)
def text_width(text: str, size: int) -> int:
    """Advance width of ``text`` in pixels at font ``size`` (memoised: labels and names repeat from
    one picture to the next)."""
    return round(font(size).getlength(text))


def fit(text: str, size: int, max_width: int) -> str:
    """``text`` unchanged if it fits in ``max_width`` pixels at ``size``, else cut and ended by ``…``."""
    if text_width(text, size) <= max_width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # the longest prefix that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if text_width(text[:mid].rstrip() + ELLIPSIS, size) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + ELLIPSIS if lo else ""
