"""One English word per concept: what English players read has no pinyin and no bare Chinese term.

docs/glossary.md chooses the English word players read for each concept (its column "English (what
players read)": 亮倒 and 廊起 are "lay down", 查叫 "ready check", 关死 "shut in", 包胡 "pays for all",
番 "pattern" …).  A Chinese term may follow that word in brackets ("Pays for all (包胡)"), and inside
such brackets an accepted input spelling may be listed (``/calc``'s "liangdao").  Everywhere else an
English text has neither pinyin nor Chinese characters: every msgid of the bot's catalogs (the
English catalog is the msgids; a msgstr of the English catalog too; the pictures' English words of
:mod:`render.labels` are msgids as well) and the engine's English 番 names (:class:`engine.fans.Fan`), which both
of them show.

The games' names (Ka Wu Xing, Ka Xin Wu, and the command words ``kawuxing`` / ``kaxinwu``) and
place names (Xiangyang …) are proper names, not pinyin for a concept.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from engine.fans import Fan
from kwx_bot.words.i18n import extract, po_path

GLOSSARY = Path(__file__).resolve().parent.parent / "docs" / "glossary.md"

PINYIN = (
    # the declaration and the endings of a hand
    "liangdao", "langqi", "chajiao", "guansi", "baohu", "louhu", "huangzhuang", "liuju", "dingchuan", "tuoguan",
    # how a tile is won, melds, money
    "zimo", "dianpao", "fangpao", "qianggang", "ankong", "bukong", "angang", "bugang", "zhigang", "minggang",
    "gangkai", "gangpao", "difen", "dijin", "fengding", "bawangzhuang", "qihu", "koupai",
    # the 番 (engine.fans.Fan ids) and the word itself: players read "pattern"
    "pihu", "pengpeng", "mingsigui", "ansigui", "sigui", "qidui", "longqidui", "shuanglong", "sanlong",
    "xiaosanyuan", "dasanyuan", "qingyise", "shouzhuayi", "haidilao", "haidipao", "guohu", "fanfan", "fan", "fans",
)  # fmt: skip
"""Pinyin a player must not read outside a Chinese term's brackets (case-insensitive, whole words)."""

_PINYIN = re.compile(r"(?<![A-Za-z])(" + "|".join(PINYIN) + r")(?![A-Za-z])", re.IGNORECASE)
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_PLACEHOLDER = re.compile(r"\{[a-z_0-9]*\}")
_BRACKETS = re.compile(r"[(（\[【][^()（）\[\]【】]*[)）\]】]")


def bare(text: str) -> str:
    """``text`` without its placeholders and without every bracket group that holds a Chinese term
    (innermost first); other brackets stay."""
    text = _PLACEHOLDER.sub("", text)
    while True:
        out = _BRACKETS.sub(lambda m: "" if _CJK.search(m.group()) else "<" + m.group()[1:-1] + ">", text)
        if out == text:
            return out
        text = out


def english_texts() -> list[tuple[str, str]]:
    """``(where, text)`` for every English text a player can read."""
    out: list[tuple[str, str]] = []
    for message in extract():
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, (tuple, list)) else (message.id,)
        where = "catalog " + ", ".join(sorted({path for path, _line in message.locations}))
        out.extend((where, str(text)) for text in ids)
    with po_path("en").open("rb") as fh:  # the English catalog's own texts, should it ever hold any
        english = read_po(fh, locale="en")
    for message in english:
        strings = message.string if isinstance(message.string, (tuple, list)) else (message.string,)
        out.extend(("kwx_bot/locale/en msgstr", str(text)) for text in strings if text)
    out.extend((f"engine.fans.Fan.{fan.name}.en", fan.en) for fan in Fan)
    return out


def test_the_scan_reads_every_kind_of_text():
    wheres = {where.split(" (")[0].split(" kwx_bot")[0] for where, _text in english_texts()}
    assert {"catalog", "catalog render/labels.py"} <= wheres  # the pictures' words are msgids too
    assert any(where.startswith("engine.fans.Fan.") for where in wheres)
    assert len(english_texts()) > 700


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Liangdao…", ["Liangdao"]),
        ("<b>{name} declares langqi!</b>", ["langqi"]),
        ("Top fan", ["fan"]),
        ("{text} (baohu)", ["baohu"]),  # brackets without a Chinese term do not excuse pinyin
        ("Pays for all (包胡)", []),
        ("Options: laid … (Also accepted: 亮倒 or liangdao for laid.)", []),
        ("{fans} · Ka Wu Xing (closed 5)", []),
        ("/new kaxinwu: Ka Xin Wu (卡心五)", []),
    ],
)
def test_the_pinyin_scan(text, found):
    assert [m.group() for m in _PINYIN.finditer(bare(text))] == found


def test_no_pinyin_in_english_texts():
    found = [(where, text) for where, text in english_texts() if _PINYIN.search(bare(text))]
    assert found == []


def test_chinese_only_in_brackets_after_the_english_word():
    """ "not doubled by 亮倒" is what an English player must not read; "Pays for all (包胡)" is fine."""
    found = [(where, text) for where, text in english_texts() if _CJK.search(bare(text))]
    assert found == []


def test_the_dragon_seven_pairs_keep_their_whole_name():
    """ "double dragon" alone (the Cap setting said "×8, double dragon ×16") reads like two dragon
    pongs: the 番 is "double / triple dragon seven pairs" (docs/glossary.md) wherever it is named."""
    short = re.compile(r"(?<![A-Za-z])(double|triple) dragon(?! seven pairs)", re.IGNORECASE)
    assert [(where, text) for where, text in english_texts() if short.search(text)] == []


def test_the_glossary_chooses_what_players_read():
    """Every table of the glossary has the column "English (what players read)", and no word in it is
    pinyin (the Chinese in its brackets aside)."""
    text = GLOSSARY.read_text(encoding="utf-8")
    headers = [line for line in text.splitlines() if line.startswith("| Chinese |")]
    assert headers and all("| English (what players read) |" in h for h in headers)
    rows = [line.split("|") for line in text.splitlines() if line.startswith("| ") and not line.startswith("| Chinese")]
    column = headers[0].split("|").index(" English (what players read) ")
    words = [row[column] for row in rows if len(row) > column]
    assert len(words) > 60
    assert [w for w in words if _PINYIN.search(bare(w.replace("`", "")))] == []
    for term, word in (("亮倒", "lay down"), ("查叫", "ready check"), ("关死", "shut in"), ("包胡", "pays for all")):
        assert any(row[1].strip().startswith(term) and word in row[column] for row in rows), term
