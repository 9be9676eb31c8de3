"""The words of verifiable hands: commitment and seed lines, the /verify answer, the shell command."""

from __future__ import annotations

import re
import shlex

from kwx_bot.words.i18n import translator
from kwx_bot.words.verify_text import add_line, commitment_line, deal_command, seed_line, verify_text

EN = translator("en")
ZH = translator("zh_CN")
DIGEST = "ab" * 32


def test_the_command_is_quoted_for_a_shell_and_names_only_non_standard_rules() -> None:
    assert deal_command("3f9a", 1, "standard") == "python -m engine deal --seed 3f9a --dealer 1"
    cmd = deal_command("it's <odd>", 0, {"preset": "standard", "cap": "16"})
    assert shlex.split(cmd) == [
        "python", "-m", "engine", "deal", "--seed", "it's <odd>", "--dealer", "0", "--rules",
        '{"preset":"standard","cap":"16"}',
    ]  # fmt: skip
    assert shlex.split(deal_command("s", 2, "nocap"))[-2:] == ["--rules", "nocap"]


def test_a_hand_in_play_shows_its_commitment_and_never_its_seed() -> None:
    text = verify_text(EN, hand_no=3, over=False, seed="SECRET", commitment=DIGEST, dealer=0, rules="standard")
    assert DIGEST in text and "SECRET" not in text and "still in play" in text
    over = verify_text(EN, hand_no=3, over=True, seed="SECRET", commitment=DIGEST, dealer=0, rules="standard")
    assert "<code>python -m engine deal --seed SECRET --dealer 0</code>" in over and DIGEST in over
    zh = verify_text(ZH, hand_no=3, over=True, seed="s&t", commitment=DIGEST, dealer=1, rules="standard", table_id=4)
    assert "第3局" in zh and "第 4 桌" in zh and "种子：<code>s&amp;t</code>" in zh


def test_a_prepared_deal_says_it_has_no_seed() -> None:
    text = verify_text(EN, hand_no=1, over=True, seed=None, commitment=None, dealer=0, rules="standard")
    assert "prepared hands and wall" in text and "engine deal" not in text
    assert "Prepared deal" in commitment_line(EN, None, 1) and seed_line(EN, None, 1) is None
    assert "/verify 5" in (seed_line(ZH, "x", 5) or "")


def test_the_caption_shows_a_prefix_of_the_commitment_and_verify_the_whole() -> None:
    digest = "0123456789ab" + "cd" * 26
    for tr in (EN, ZH):
        line = commitment_line(tr, digest, 4)
        assert "<code>0123456789ab…</code>" in line and "cd" not in line and "/verify 4" in line
        assert len(re.sub("<[^>]+>", "", line)) <= 40  # about one line of a phone's caption (the 64 digits took three)
    text = verify_text(EN, hand_no=4, over=False, seed="S", commitment=digest, dealer=0, rules="standard")
    assert f"<code>{digest}</code>" in text and "first 12 characters" in text
    assert "前12位" in verify_text(ZH, hand_no=4, over=False, seed="S", commitment=digest, dealer=0, rules="standard")


def test_a_line_is_added_only_when_the_caption_still_fits() -> None:
    assert add_line("a", "b") == "a\nb"
    assert add_line("a", None) == "a"
    assert add_line("x" * 1000, "y" * 30) == "x" * 1000  # 1031 > 1024: the caption stays whole
    assert add_line("x" * 993, "y" * 30) == "x" * 993 + "\n" + "y" * 30
