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


def test_no_text_assumes_a_players_gender():
    """Players are "they" in English and never 他/她 in Chinese (the 托管 notice once said 他)."""
    from babel.messages.pofile import read_po

    from kwx_bot.words.i18n import LOCALE_DIR

    with (LOCALE_DIR / "zh_CN" / "LC_MESSAGES" / "kwx.po").open("rb") as fh:
        catalog = read_po(fh, locale="zh_CN")
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert not {"他", "她"} & set("".join(strings).replace("其他", "")), ids  # 其他 = "other"
        words = set(" ".join(ids).replace(",", " ").replace(".", " ").split())
        assert not {"he", "his", "him", "she", "her"} & words, ids


def test_sentences_are_joined_as_each_language_writes_them():
    from kwx_bot.words.texts import sentences

    assert sentences(translator("zh_CN"), "牌桌结束了。", "", "再来一局。") == "牌桌结束了。再来一局。"
    assert sentences(translator("en"), "It ended.", "", "Play again.") == "It ended. Play again."
