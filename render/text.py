"""The shipped CJK font, safe text for it, and fitting text into a width.

The font is ``render/fonts/KwxSansCJK-Bold.otf``, a subset of Noto Sans CJK SC Bold (SIL OFL 1.1,
licence in ``render/fonts/OFL.txt``); it covers exactly :func:`render.labels.font_charset`.
A character outside the subset would render as *nothing* (no .notdef box, docs/telegram.md §6), so:

- player names pass :func:`clean_name`: characters the font lacks (emoji, Arabic, Hebrew, rare
  control and zero-width characters, hanzi outside GB 2312) are dropped, and a name left empty
  becomes ``玩家N`` (``Player N``);
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

from .labels import SEAT_FALLBACK, font_charset

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


def clean_name(name: str, seat: int, fallback: str = SEAT_FALLBACK) -> str:
    """A player name reduced to drawable characters.

    NFC-normalises, drops every character without a glyph (emoji, RTL scripts, rare hanzi, control,
    format and zero-width characters), collapses white space.  If nothing is left, returns
    ``fallback`` formatted with ``n`` = ``seat + 1`` (``玩家N``; ``Player N`` in English pictures).
    """
    kept = []
    for ch in unicodedata.normalize("NFC", name):
        if unicodedata.category(ch)[0] in "CZ":
            kept.append(" ")
        elif covered(ch):
            kept.append(ch)
    cleaned = " ".join("".join(kept).split())
    return cleaned if cleaned.strip(" ?.-_·") else fallback.format(n=seat + 1)


def text_width(text: str, size: int) -> int:
    """Advance width of ``text`` in pixels at font ``size``."""
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
