"""Text helpers: names escaped, truncated and freed of bidi controls, rule labels, and the tile and
番 labels that the pictures share with the buttons and /calc."""

from __future__ import annotations

import html

import pytest

from engine.game import ActionKind, legal_actions, replay, start, view_for
from engine.rules import RuleSet
from engine.tiles import Tile
from kwx_bot.edge.sender import markup_of
from kwx_bot.service.buttons import keyboard
from kwx_bot.service.keyboards import discard_rows
from kwx_bot.settings import LANGUAGES
from kwx_bot.words.captions import lobby_text
from kwx_bot.words.i18n import translator
from kwx_bot.words.pictures import picture_words
from kwx_bot.words.texts import BIDI_CONTROLS, QUOTE_CHARS, clean, name, quote, visible
from kwx_bot.words.texts import fan_label as bot_fan_label
from kwx_bot.words.texts import tile_label as bot_tile_label
from render.labels import ENGLISH, FAN_NAMES

HOSTILE = ["<b>&", "*_[`", "</i><script>", "A" * 80, "😀🀄 ‮RTL"]


@pytest.mark.parametrize("raw", HOSTILE)
def test_names_are_escaped_and_truncated(raw):
    out = name(raw)
    assert "<" not in out and "&<" not in out
    assert len(name("x" * 80)) == 24


def test_rules_in_words():
    from kwx_bot.words.texts import rules_label

    assert rules_label("standard", translator("zh_CN")) == "标准"
    assert rules_label({"preset": "shiyan", "base": 2}, translator("en")) == "Shiyan (changed)"
    assert rules_label("<odd>", translator("en")) == "&lt;odd&gt;"


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


INVISIBLE = "\u200b\u2060\u00ad\ufeff\u180e\u2061\U000e0001\U000e0041\u3164\u115f\uffa0\x00\x07\x7f\x9b\ud800"
"""Zero-width space, word joiner, soft hyphen, BOM, Mongolian vowel separator, function application,
language tag, a tag letter, the Hangul fillers, C0/C1 controls, a lone surrogate."""


def test_invisible_characters_are_dropped_like_bidi_controls():
    for ch in INVISIBLE + BIDI:
        assert visible(f"A{ch}nn") == "Ann", hex(ord(ch))
        assert name(f"{ch}Ann") == "Ann" and quote(f"x{ch}y") == "xy"
    assert name(INVISIBLE) == "?"


def test_joiners_white_space_and_marks_stay():
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # one emoji made with zero-width joiners
    assert visible(family) == family
    assert (
        visible("\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645")
        == "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"
    )
    assert visible("a\tb\nc") == "a\tb\nc" and clean("a\tb\nc") == "a b c"
    assert visible("\u2764\ufe0f e\u0301") == "\u2764\ufe0f e\u0301"  # a variation selector, a combining accent


def test_a_quote_is_short_escaped_and_visible():
    assert quote("<b>" + "\u202e" * 5 + "x" * 100) == "&lt;b&gt;" + "x" * (QUOTE_CHARS - 4) + "…"
    assert quote("abc", 2) == "a…"


def test_the_pictures_have_words_in_every_language_of_the_bot():
    assert [picture_words(lang).lang for lang in LANGUAGES] == list(LANGUAGES)
    assert picture_words("en").kawuxing == ENGLISH.kawuxing and picture_words("en").stats == ENGLISH.stats
    with pytest.raises(ValueError, match="'fr'"):
        picture_words("fr")


def tile_label(tile, lang):
    return picture_words(lang).kawuxing.tile(tile)


def fan_label(fan, lang):
    return picture_words(lang).kawuxing.fan(fan)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_tile_labels_match_the_buttons_for_all_tiles(lang):
    tr = translator(lang)
    assert [tile_label(t, lang) for t in Tile] == [bot_tile_label(t, tr) for t in Tile]
    if lang == "en":
        assert tile_label(Tile.S5, lang) == "5 Bam"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_hand_picture_labels_are_the_discard_button_texts(lang):
    state = replay(start(RuleSet(), 0, seed="labels"))
    view = view_for(state, 0)
    legal = legal_actions(state, 0)
    discards = [a.tile for a in legal if a.kind is ActionKind.DISCARD and a.tile is not None]
    kb = markup_of(keyboard(*discard_rows(translator(lang), 1, 1, discards, drawn=None, danger=(), protected=())))
    buttons = {b.text for row in kb.inline_keyboard for b in row}
    discards = {a.tile for a in legal if a.kind is ActionKind.DISCARD and a.tile is not None}
    assert discards and {tile_label(t, lang) for t in discards} <= buttons
    assert view.drawn is None or tile_label(view.drawn, lang) in buttons


@pytest.mark.parametrize("lang", LANGUAGES)
def test_fan_names_match_calc(lang):
    """Every 番 the pictures can show is named as the bot's /calc breakdown names it."""
    tr = translator(lang)
    for fan in FAN_NAMES:
        assert fan_label(fan, lang) == html.unescape(bot_fan_label(fan, tr)), fan
    if lang == "en":
        assert fan_label("清一色", lang) == "Pure one suit"
