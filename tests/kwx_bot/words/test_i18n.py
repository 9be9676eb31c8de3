"""Catalogs: complete, consistent with the source, and used for every visible string."""

from __future__ import annotations

import re

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


def test_a_text_marked_per_game_has_a_kaxinwu_form_in_chinese_and_one_english_msgid():
    """亮倒 and 廊起 are one act, "lay down" in English; Chinese names each game's (docs/glossary.md)."""
    from kwx_bot.words.i18n import KAXINWU

    pot = extract()
    for msgid in ("Lay down…", "You may not discard a tile that a player who laid down waits on."):
        assert pot.get(msgid) is not None and pot.get(msgid, KAXINWU) is not None
    assert pot.get("Join", KAXINWU) is None  # only the texts marked per game
    zh, en = translator("zh_CN"), translator("en")
    assert (zh.gettext_for(False, "Lay down…"), zh.gettext_for(True, "Lay down…")) == ("亮倒…", "廊起…")
    assert en.gettext_for(False, "Lay down…") == en.gettext_for(True, "Lay down…") == "Lay down…"
    assert zh.gettext_for(True, "Join") == zh.gettext("Join") == "加入"  # no 卡心五 form: the plain one


@pytest.mark.parametrize("reason", [Reason.PROTECTED_TILE, Reason.ALREADY_LIANGDAO, Reason.LIANGDAO_CANNOT_PONG])
def test_a_refusal_names_the_games_declaration(reason):
    """Tapping 🔒 at a 卡心五 table: 廊起 in Chinese, "laid down" in English, never pinyin."""
    zh, en = translator("zh_CN"), translator("en")
    assert "廊起" in reason_text(reason, zh, kaxinwu=True) and "亮倒" not in reason_text(reason, zh, kaxinwu=True)
    assert "亮倒" in reason_text(reason, zh) and "廊起" not in reason_text(reason, zh)
    assert reason_text(reason, en, kaxinwu=True) == reason_text(reason, en)
    assert (
        re.search(r"\bla(id|ying) down\b", reason_text(reason, en))
        and "liangdao" not in reason_text(reason, en).lower()
    )
    assert reason_text(Reason.HAND_OVER, zh, kaxinwu=True) == reason_text(Reason.HAND_OVER, zh)
