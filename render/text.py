"""The shipped CJK font, safe text for it, and fitting text into a width.

The font is ``render/fonts/KwxSansCJK-Bold.otf``, a subset of Noto Sans CJK SC Bold (SIL OFL 1.1,
licence in ``render/fonts/OFL.txt``); it covers exactly :func:`render.labels.font_charset`.  Emoji
(common in Telegram names) come from a second shipped font, ``render/fonts/KwxEmoji-Bold.ttf``, a
subset of the monochrome Noto Emoji Bold (SIL OFL 1.1, licence in ``render/fonts/OFL-NotoEmoji.txt``;
its characters are listed in ``emoji.txt``): a text is drawn as runs, each in the font that has its
characters (:func:`runs`), the emoji at :data:`EMOJI_SCALE` of the size so that they stand as tall as
a hanzi.  A character outside both would render as *nothing* (no .notdef box, docs/telegram.md §6), so:

- player names pass :func:`clean_name`: control and zero-width characters become spaces; an emoji
  sequence is drawn as its first emoji (skin tones, variation selectors and what a zero-width
  joiner adds are dropped: the basic layout has no ligatures); a run of characters neither font has
  (Arabic or Hebrew letters, a hanzi outside the ~10,200 of the subset) becomes one neutral
  placeholder ``□`` (:data:`render.labels.PLACEHOLDER`), so the name keeps its shape; a name with
  nothing drawable left becomes ``玩家N`` (``Player N``);
- other text passes :func:`safe_text`, which turns a missing character into ``?`` so a gap in the
  charset is visible instead of silent;
- :func:`fit` truncates with ``…`` to a width in pixels, :func:`wrap` breaks a sentence into lines.

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

__all__ = [
    "EMOJI_PATH",
    "EMOJI_SCALE",
    "FONT_PATH",
    "clean_name",
    "covered",
    "emoji_covered",
    "emoji_font",
    "fit",
    "font",
    "runs",
    "safe_text",
    "text_width",
    "wrap",
]

FONT_FILE = "KwxSansCJK-Bold.otf"
EMOJI_FILE = "KwxEmoji-Bold.ttf"
EMOJI_LIST = "emoji.txt"


def _font_path(name: str = FONT_FILE) -> Path:
    return Path(str(resources.files("render").joinpath("fonts", name)))


FONT_PATH: Path = _font_path()
"""Absolute path of the shipped font file."""
EMOJI_PATH: Path = _font_path(EMOJI_FILE)
"""Absolute path of the shipped emoji font file."""

EMOJI_SCALE = 0.85
"""An emoji is drawn at this fraction of the text's size: Noto Emoji's glyphs fill more of the em
than a hanzi does (about 1.05 em tall against 0.88), so at 0.85 both stand about as tall."""

ELLIPSIS = "…"


@functools.cache
def font(size: int) -> ImageFont.FreeTypeFont:
    """The shipped bold CJK font at ``size`` pixels (em size), cached per size."""
    return ImageFont.truetype(str(FONT_PATH), size, layout_engine=ImageFont.Layout.BASIC)


@functools.cache
def emoji_font(size: int) -> ImageFont.FreeTypeFont:
    """The shipped emoji font for text of ``size`` pixels: at :data:`EMOJI_SCALE` of it, cached."""
    return ImageFont.truetype(str(EMOJI_PATH), max(1, round(size * EMOJI_SCALE)), layout_engine=ImageFont.Layout.BASIC)


@functools.cache
def _charset() -> frozenset[str]:
    return frozenset(font_charset())


@functools.cache
def _emoji_charset() -> frozenset[str]:
    return frozenset(_font_path(EMOJI_LIST).read_text(encoding="utf-8").strip())


def emoji_covered(ch: str) -> bool:
    """True if ``ch`` is drawn from the emoji font: the CJK font lacks it and the emoji font has it
    (``render/fonts/emoji.txt``, checked against the font's cmap by a test)."""
    return ch in _emoji_charset() and not covered(ch)


def runs(text: str) -> list[tuple[str, bool]]:
    """``text`` cut into runs of one font: ``(run, is_emoji)`` in order, adjacent characters of
    the same font together.  Characters neither font has stay in the text font's runs."""
    out: list[tuple[str, bool]] = []
    for ch in text:
        emoji = emoji_covered(ch)
        if out and out[-1][1] == emoji:
            out[-1] = (out[-1][0] + ch, emoji)
        else:
            out.append((ch, emoji))
    return out


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
        elif covered(ch) or emoji_covered(ch):
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

    NFC-normalises; control, format and zero-width characters and separators become spaces; an
    emoji the emoji font has stays, without what belongs to its sequence (skin-tone modifiers,
    variation selectors, keycaps, and whatever a zero-width joiner adds: a family of joined emoji
    is drawn as its first person); a run of characters without a glyph (emoji the subset lacks,
    RTL scripts, rare hanzi) becomes one :data:`~render.labels.PLACEHOLDER` ``□``; white space is
    collapsed.  If nothing drawable is left (only spaces, placeholders and punctuation), returns
    ``fallback`` formatted with ``n`` = ``seat + 1`` (``玩家N``; ``Player N`` in English).
    """
    kept: list[str] = []
    gap = False  # the last character kept is a placeholder: what follows may belong to its run
    joined = False  # after an emoji and a zero-width joiner: the next emoji belongs to the sequence
    emoji = False  # the last character kept is an emoji
    for ch in unicodedata.normalize("NFC", name):
        if joined and emoji_covered(ch):
            joined = False
            continue  # what a zero-width joiner adds to an emoji: drawn as the first emoji alone
        joined = False
        if emoji and (ch == _ZWJ or _attaches(ch)):
            joined = ch == _ZWJ
            continue  # a modifier, variation selector or joiner of the emoji just kept
        if covered(ch) or emoji_covered(ch):
            kept.append(ch)
            gap = False
            emoji = emoji_covered(ch)
            continue
        emoji = False
        if gap and (ch == _ZWJ or _attaches(ch)):
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
    """Advance width of ``text`` in pixels at font ``size``, emoji runs in the emoji font (memoised:
    labels and names repeat from one picture to the next)."""
    return round(sum((emoji_font(size) if emoji else font(size)).getlength(run) for run, emoji in runs(text)))


def wrap(text: str, size: int, max_width: int) -> list[str]:
    """``text`` broken into lines of at most ``max_width`` pixels at ``size``: at spaces, or between
    any two characters of a run without spaces that is too long alone (Chinese has none); at least
    one line."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        candidate = f"{line} {word}" if line else word
        if text_width(candidate, size) <= max_width:
            line = candidate
            continue
        if line:
            lines.append(line)
        line = ""
        if text_width(word, size) <= max_width:
            line = word
            continue
        for ch in word:
            if line and text_width(line + ch, size) > max_width:
                lines.append(line)
                line = ""
            line += ch
    lines.append(line)
    return lines


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
