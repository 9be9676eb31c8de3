"""Bidi control characters in player names and titles are dropped: they would flip the text that
follows them in the same message."""

from __future__ import annotations

from kwx_bot.words.captions import lobby_text
from kwx_bot.words.i18n import translator
from kwx_bot.words.texts import BIDI_CONTROLS, clean, name

BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f"


def test_every_listed_bidi_control_is_dropped():
    assert set(BIDI) <= BIDI_CONTROLS
    for ch in BIDI:
        assert name(f"A{ch}nn") == "Ann" and clean(f"{ch}Ann{ch}") == "Ann"
    assert name(BIDI) == "?"


def test_a_right_to_left_override_cannot_flip_the_following_text():
    tr = translator("en")
    evil = "\u202eمرحبا\u2066 x"
    text = lobby_text(tr, title=evil, seats=[evil, "Bob", None], rules="Standard", base=1, state="open")
    assert not set(text) & BIDI_CONTROLS
    assert "مرحبا x" in text  # the letters themselves are kept
