"""Catalogs: complete, consistent with the source, and used for every visible string."""

from __future__ import annotations

import pytest

from engine.game import Reason
from engine.tiles import Tile
from kwx_bot.words.i18n import check_catalogs, extract, translator
from kwx_bot.words.texts import fan_label, reason_text, tile_label


def test_catalogs_match_the_source():
    assert check_catalogs(("zh_CN",)) == []


def test_every_msgid_is_extracted_from_code():
    ids = {m.id for m in extract() if m.id}
    assert "Join" in ids and "{n} Bam" in ids and "Open a table in this group" in ids
    assert len(ids) > 150


@pytest.mark.parametrize(("lang", "join", "tile"), [("zh_CN", "加入", "5条"), ("en", "Join", "5 Bam")])
def test_languages(lang, join, tile):
    tr = translator(lang)
    assert tr.gettext("Join") == join
    assert tile_label(Tile.S5, tr) == tile


def test_unknown_language_falls_back_to_english():
    assert translator("xx").gettext("Join") == "Join"


def test_tile_labels_match_the_engine_chinese_names():
    tr = translator("zh_CN")
    for t in Tile:
        assert tile_label(t, tr) == t.chinese


def test_every_illegal_reason_has_its_own_sentence():
    tr = translator("zh_CN")
    generic = reason_text.__defaults__ if reason_text.__defaults__ else None
    texts = {r: reason_text(r, tr) for r in Reason}
    fallback = tr.gettext("That move is not allowed now.")
    missing = [
        r
        for r, t in texts.items()
        if t == fallback and r not in (Reason.BAD_SEAT, Reason.MISSING_TILE, Reason.UNEXPECTED_TILE)
    ]
    assert missing == [] and generic is None


@pytest.mark.parametrize("fan", ["卡五星", "清一色", "亮倒", "杠上开花", "七对", "屁胡"])
def test_fan_names(fan):
    assert fan_label(fan, translator("zh_CN")) == fan
    assert fan_label(fan, translator("en")).isascii()
    assert fan_label("<unknown>", translator("en")) == "&lt;unknown&gt;"
