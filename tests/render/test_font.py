"""The shipped font covers every string the pictures draw; names fall back cleanly (docs/telegram.md §6)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from engine.tiles import MeldKind, Tile
from render import labels
from render.text import EMOJI_PATH, FONT_PATH, clean_name, covered, emoji_covered, fit, font, safe_text, text_width

from .words import LANGUAGES, ZH, W

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def cmap() -> set[int]:
    return set(TTFont(str(FONT_PATH)).getBestCmap())


def missing(text: str, cmap: set[int]) -> str:
    return "".join(sorted({c for c in text if ord(c) not in cmap and not c.isspace()}))


def test_font_and_licence_ship_together() -> None:
    assert FONT_PATH.name == "KwxSansCJK-Bold.otf"
    # labels + ~10,200 name hanzi (GB 2312, 通用规范汉字表, Big5 level 1), unhinted: 2.35 MiB measured
    assert FONT_PATH.stat().st_size < 2.5 * 1024 * 1024, "the subset should stay small"
    licence = (FONT_PATH.parent / "OFL.txt").read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence
    assert "Adobe" in licence
    names = TTFont(str(FONT_PATH))["name"]
    assert names.getDebugName(1) == "Kwx Sans CJK"  # a Modified Version carries its own family name
    assert "Open Font License" in (names.getDebugName(13) or "")


@pytest.mark.parametrize(
    "text",
    [
        *labels.label_strings(),
        *labels.FAN_NAMES,
        "屁胡 碰碰胡 明四归一 暗四归一 七对 龙七对 双龙七对 三龙七对 大三元 小三元 杠上开花 杠上炮 抢杠胡 清一色",
        "手抓一 海底捞月 海底炮 亮倒 卡五星 荒庄 包胡 庄 听 托管 胡牌 杠钱 合计 自摸 点炮 抢杠 下局庄家：",
        "中發白萬一二三四五六七八九 +−×…0123456789",
    ],
)
def test_every_label_has_glyphs(text: str, cmap: set[int]) -> None:
    assert missing(text, cmap) == ""


def test_every_tile_label_has_glyphs(cmap: set[int]) -> None:
    for tile in Tile:
        for lang in LANGUAGES:
            assert missing(W(lang).kawuxing.tile(tile), cmap) == "", (lang, tile)
    for kind in MeldKind:
        assert missing(kind.chinese, cmap) == "", kind


def test_every_catalog_word_of_the_pictures_has_glyphs(cmap: set[int]) -> None:
    """The Chinese words come from the catalog, not from render: the font must still draw them all."""
    charset = set(labels.font_charset())
    for lang in LANGUAGES:
        words = W(lang)
        for text in (*words.kawuxing.strings(), *words.kaxinwu.strings(), *words.stats.strings()):
            assert missing(text, cmap) == "", (lang, text)
            assert all(ch in charset for ch in text if ch not in "{}"), (lang, text)


def test_font_covers_the_whole_charset(cmap: set[int]) -> None:
    """render.text.covered() trusts font_charset(); this is what makes that safe."""
    assert missing(labels.font_charset(), cmap) == ""


def engine_chinese_constants(relative: str) -> set[str]:
    tree = ast.parse((ROOT / relative).read_text(encoding="utf-8"))
    return {
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant)
        and isinstance(n.value, str)
        and n.value
        and all("\u4e00" <= c <= "\u9fff" for c in n.value)
    }


@pytest.mark.parametrize("module", ["engine/fans.py"])
def test_every_fan_name_the_engine_can_report_is_listed(module: str) -> None:
    """WinView.fans carries names from the scoring code (every name is a row of the engine's one 番
    table, engine.fans.Fan): each must be in FAN_NAMES (hence in the font)."""
    names = engine_chinese_constants(module)
    assert names, f"no Chinese constants found in {module}"
    assert names - set(labels.FAN_NAMES) == set()


def test_scoring_names_no_fan_of_its_own() -> None:
    """engine/scoring.py reports 番 only through engine.fans.Fan: no Chinese constant there can be a name
    the table lacks."""
    from engine.fans import Fan

    assert engine_chinese_constants("engine/scoring.py") <= {f.zh for f in Fan}
    assert {f.zh for f in Fan} <= set(labels.FAN_NAMES)


def test_fan_patterns_of_the_engine_are_listed() -> None:
    from engine.fans import PATTERNS

    assert {p.name for p in PATTERNS} <= set(labels.FAN_NAMES)


@pytest.mark.parametrize(
    ("name", "seat", "expected"),
    [
        ("Alice", 0, "Alice"),
        ("  Bob \n Smith\t", 1, "Bob Smith"),
        ("Lǐ Míng", 0, "Lǐ Míng"),
        ("Сергей", 2, "Сергей"),
        ("Wáng 🀄✨", 1, "Wáng 🀄✨"),  # emoji come from the emoji font
        ("🎉🎉🎉", 1, "🎉🎉🎉"),
        ("محمد", 0, "玩家1"),  # nothing drawable but placeholders: the seat's name
        ("שלום world", 2, "□ world"),  # a run neither font has: one neutral placeholder
        ("👨\u200d👩\u200d👧 Bob", 0, "👨 Bob"),  # a sequence joined by zero-width joiners: its first emoji
        ("👍🏽x 🇨🇳", 0, "👍x 🇨🇳"),  # the skin tone modifier is dropped; a flag is its two letters
        ("1\ufe0f\u20e3 ok", 0, "1 ok"),  # a keycap is its digit
        ("王\U00020000明", 1, "王□明"),  # a hanzi beyond the subset (CJK Extension B)
        ("a\u200bb\u200dc\u202e", 0, "a b c"),
        ("", 2, "玩家3"),
        ("???", 0, "玩家1"),
        ("e\u0301cole", 0, "école"),
        ("张伟", 1, "张伟"),  # Chinese names render (GB 2312 hanzi are in the subset)
        ("李小龍", 0, "李小龍"),  # common traditional forms too (Big5 level 1)
        ("张喆 堃 昇 玥 😀", 0, "张喆 堃 昇 玥 😀"),  # 通用规范汉字表 name characters outside GB 2312
    ],
)
def test_clean_name(name: str, seat: int, expected: str) -> None:
    cleaned = clean_name(name, seat, ZH.seat_fallback)
    assert cleaned == expected
    assert all(covered(c) or emoji_covered(c) for c in cleaned)


def test_safe_text_marks_missing_glyphs() -> None:
    assert safe_text("清一色") == "清一色"
    assert safe_text("清一色🀄") == "清一色🀄"  # the emoji font has it
    assert safe_text("清一色\U00020000") == "清一色?"
    assert safe_text("a\nb") == "a b"


@pytest.mark.parametrize("text", ["Zhang_San_with_a_rather_long_name_2024", "清一色" * 20, "W" * 300])
def test_fit_truncates_to_width(text: str) -> None:
    out = fit(text, 22, 200)
    assert text_width(out, 22) <= 200
    assert out.endswith("…")
    assert out[:-1] == text[: len(out) - 1]


def test_fit_keeps_short_text() -> None:
    assert fit("Bob", 22, 200) == "Bob"
    assert fit("Bob", 22, 1) == ""


def test_the_font_covers_the_general_standard_chinese_characters_and_common_traditional_ones(cmap: set[int]) -> None:
    tghz = labels.tghz_hanzi()
    assert len(tghz) == len(set(tghz)) == 8105  # 通用规范汉字表 (2013), from Unihan kTGHZ2013
    assert all("\u4e00" <= c <= "\u9fff" or 0x3400 <= ord(c) <= 0x4DBF or ord(c) >= 0x20000 for c in tghz)
    assert len(labels.big5_common_hanzi()) == 5401  # Big5 level 1 (常用字)
    for name_chars in ("喆堃昇玥", "龍鳳華國張劉陳", labels.PLACEHOLDER):
        assert missing(name_chars, cmap) == ""
    assert missing(tghz + labels.big5_common_hanzi() + labels.gb2312_hanzi(), cmap) == ""


def test_a_missing_character_draws_a_visible_placeholder() -> None:
    """The placeholder has ink where the emoji would have vanished (docs/telegram.md §6)."""
    from PIL import Image, ImageDraw

    def ink(text: str) -> int:
        img = Image.new("L", (400, 60), 0)
        ImageDraw.Draw(img).text((5, 5), text, fill=255, font=font(30))
        return sum(1 for v in img.tobytes() if v > 128)

    cleaned = clean_name("玥 \U00020000", 0)
    assert cleaned == "玥 □"
    assert ink(cleaned) > ink("玥 ") + 50  # the box is drawn
    assert ink("玥") > 100  # and the rare name character itself


@pytest.mark.parametrize("name", ["😀", "Wáng 🀄✨", "🐼 熊猫", "🇨🇳"])
def test_a_name_with_emoji_draws_the_emoji(name: str) -> None:
    """Emoji in a name are drawn from the shipped emoji font (docs/telegram.md §6), on the line of
    the text around them, not as a box and not as nothing."""
    from render.canvas import Canvas

    def ink(text: str) -> tuple[int, tuple[int, int, int, int]]:
        c = Canvas(600, 80, (0, 0, 0))
        box = c.text(10, 40, text, 40, (255, 255, 255), raw=True)
        return sum(1 for v in c.image.convert("L").tobytes() if v > 128), box

    emoji = "".join(ch for ch in name if emoji_covered(ch))
    assert emoji and clean_name(name, 0) == name
    alone, box = ink(emoji)
    assert alone > 300, "the emoji has ink"
    assert ink(name)[0] > ink(name.replace(emoji, "").strip())[0] + 300
    assert 40 - 30 < (box[1] + box[3]) / 2 < 40 + 30  # centred on the line as the anchor says
    assert text_width(emoji, 40) > 20 * len(emoji)


def test_the_emoji_font_ships_small_with_its_list_and_licence() -> None:
    """The emoji subset is package data beside its OFL licence, under 1 MiB, and ``emoji.txt`` lists
    exactly the characters of its cmap (render/fonts/build_emoji_subset.py)."""
    from fontTools.ttLib import TTFont  # type: ignore[import-untyped]

    fonts = EMOJI_PATH.parent
    assert EMOJI_PATH.stat().st_size < 1024 * 1024
    assert "SIL Open Font License" in (fonts / "OFL-NotoEmoji.txt").read_text(encoding="utf-8")
    cmap = "".join(chr(c) for c in sorted(TTFont(str(EMOJI_PATH)).getBestCmap()))
    assert (fonts / "emoji.txt").read_text(encoding="utf-8").strip() == cmap
    assert len(cmap) > 1300 and "😀" in cmap and "\u200d" not in cmap
