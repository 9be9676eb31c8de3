"""Whole numbers as people type them: the one reader of a number in a command's text.

Every number a person types — a command's argument in a chat (``/new 3``, ``/history 20``,
``/void 7``, ``/settings cap 16``, ``/calc … base:2``), an option of the engine's command line
(``--dealer 1``), an operator's setting — is read by :func:`whole_number`, so they all accept and
refuse the same spellings (docs/security.md §7.1):

* **ASCII digits** ``0``–``9``, at most :data:`MAX_DIGITS` of them, with a leading ``-`` only where
  negative numbers are allowed.  Python's ``str.isdigit`` and ``int`` accept far more — ``int('٣')``
  is 3, ``'²'.isdigit()`` is true while ``int('²')`` raises, and a 5000-digit string makes ``int``
  raise too — so neither is ever asked directly.
* **Full-width digits** (``０``–``９``, U+FF10–U+FF19; what a Chinese or Japanese input method types
  in full-width mode, as in ``／new ３``) are read as their ASCII digits: :func:`fold_width` maps the
  whole full-width ASCII block (U+FF01–U+FF5E) and the ideographic space to ASCII, which is exactly
  the width part of Unicode's NFKC normalisation.  NFKC itself is not used: it would also read
  superscripts and circled numbers (``²``, ``①``) as digits, which nobody types as a number.
* Every other digit — another script's (``٣``, ``३``), a superscript, a circled number — is no
  number: the caller answers its polite usage message.
"""

from __future__ import annotations

import re

__all__ = ["MAX_DIGITS", "fold_width", "is_ascii_digit", "whole_number"]

MAX_DIGITS = 18
"""The most digits a typed number may have (any 18-digit number fits a signed 64-bit integer)."""

_WIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)} | {0x3000: 0x20}
_NUMBER = re.compile(rf"(-?)([0-9]{{1,{MAX_DIGITS}}})")


def fold_width(text: str) -> str:
    """``text`` with full-width ASCII forms (U+FF01–U+FF5E: ``０``–``９``, ``ａ``–``ｚ``, ``：``, ``／`` …)
    and the ideographic space (U+3000) replaced by their ASCII characters; nothing else changes."""
    return text.translate(_WIDTH)


def is_ascii_digit(char: str) -> bool:
    """``char`` is one of the ten ASCII digits (unlike ``str.isdigit``, which also accepts ``²``, ``٣`` …)."""
    return len(char) == 1 and "0" <= char <= "9"


def whole_number(text: str, *, minimum: int | None = 0, maximum: int | None = None) -> int | None:
    """The whole number ``text`` spells (surrounding white space ignored; full-width digits read as
    ASCII, module docstring), or None when it is not one or lies outside ``minimum``..``maximum``
    (inclusive; None: no bound on that side).  A leading ``-`` is read only when ``minimum`` is
    None or negative.  Never raises."""
    m = _NUMBER.fullmatch(fold_width(text).strip())
    if m is None or (m.group(1) and minimum is not None and minimum >= 0):
        return None
    value = int(m.group(0))
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        return None
    return value
