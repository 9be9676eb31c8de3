"""The pictures' words come from the catalogs: one translation mechanism (docs/architecture.md §3)."""

from __future__ import annotations

import pytest

from engine.rules import Ruleset
from engine.tiles import Tile
from kwx_bot.words.i18n import PICTURE, PICTURE_KAXINWU, PICTURE_REVIEW, PICTURE_STATS, extract, translator
from kwx_bot.words.pictures import picture_msgids, picture_words
from kwx_bot.words.texts import tile_label
from render.labels import ENGLISH


def test_the_chinese_words_are_the_catalogs():
    zh = picture_words("zh_CN")
    plain, kaxinwu = zh.labels(Ruleset.KAWUXING), zh.labels(Ruleset.KAXINWU)
    assert (plain.dealer, plain.liangdao, plain.liangdao_of, plain.colon, plain.list_sep) == (
        "庄",
        "亮倒",
        "{name}亮倒",
        "：",
        "、",
    )
    assert (kaxinwu.liangdao, kaxinwu.liangdao_of) == ("廊起", "{name}廊起")
    assert kaxinwu.dealer == plain.dealer, "only the declaration's words differ per game"
    # one English word, two Chinese ones: a badge's 自摸, the stats column's 其中自摸 (their own contexts)
    assert plain.by_label["self_draw"] == "自摸" and zh.stats.self_draw == "其中自摸"
    assert zh.stats.declared_won.format(decl="亮倒") == "亮倒后胡"
    assert translator("zh_CN").pgettext(PICTURE, "Draw") == "荒庄" != translator("zh_CN").gettext("Draw")


def test_tiles_are_the_buttons_words_and_fans_the_engines():
    for lang in ("zh_CN", "en"):
        words = picture_words(lang).kawuxing
        assert list(words.tiles) == [tile_label(t, translator(lang)) for t in Tile]
    assert picture_words("zh_CN").kawuxing.fan("清一色") == "清一色"
    assert picture_words("en").kawuxing.fan("清一色") == "Pure one suit"


def test_english_draws_the_msgids_themselves():
    assert picture_words("en").kawuxing == ENGLISH.kawuxing == picture_words("en").kaxinwu
    assert picture_words("en").stats == ENGLISH.stats
    assert picture_words("en").review == ENGLISH.review
    assert picture_words("zh_CN").review.acts["liangdao"] == "{decl}打出"


def test_every_picture_word_is_extracted_for_the_translators():
    pot = extract()
    for context, text, given in picture_msgids():
        message = pot.get(text, context)
        assert message is not None, (context, text)
        assert [path for path, _ in message.locations] == ["render/labels.py"]
        assert bool(given) == any("placeholders also given" in c for c in message.auto_comments)
    contexts = {context for context, _text, _given in picture_msgids()}
    assert contexts == {PICTURE, PICTURE_STATS, PICTURE_KAXINWU, PICTURE_REVIEW}
    words = len(set(ENGLISH.kawuxing.words())) + len(ENGLISH.stats.strings()) + 2
    assert len(picture_msgids()) == words + len(ENGLISH.review.strings())


def test_an_unknown_language_is_a_clear_error():
    with pytest.raises(ValueError, match="language 'fr'"):
        picture_words("fr")
