"""engine.numerals: the one reader of typed whole numbers (docs/security.md §7.1)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.numerals import MAX_DIGITS, fold_width, is_ascii_digit, whole_number


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3", 3),
        (" 42 ", 42),
        ("007", 7),
        ("３", 3),  # full-width, as a Chinese input method types it
        ("１６", 16),
        ("1６", 16),
        ("　２　", 2),  # ideographic spaces around it
        ("9" * MAX_DIGITS, int("9" * MAX_DIGITS)),
    ],
)
def test_ascii_and_full_width_digits_are_numbers(text, expected):
    assert whole_number(text) == expected


@pytest.mark.parametrize(
    "text",
    ["", " ", "²", "¹6", "3²", "٣", "३", "①", "⑴", "𝟑", "3.0", "+3", "- 3", "--3", "3-", "0x10", "1_000", "9" * 5000,
     "9" * (MAX_DIGITS + 1), "3\u202e", "\u200b3", "三"],
)  # fmt: skip
def test_everything_else_is_no_number_and_never_raises(text):
    assert whole_number(text) is None
    assert whole_number(text, minimum=None) is None


def test_bounds_and_signs():
    assert whole_number("-3") is None  # no sign unless negatives are allowed
    assert whole_number("-3", minimum=None) == -3
    assert whole_number("－３", minimum=-5) == -3
    assert whole_number("-6", minimum=-5) is None
    assert whole_number("0", minimum=1) is None
    assert whole_number("4", minimum=2, maximum=4) == 4
    assert whole_number("5", minimum=2, maximum=4) is None


def test_fold_width_maps_the_full_width_ascii_block_only():
    assert fold_width("／ｎｅｗ　３：ＡＢ") == "/new 3:AB"
    assert fold_width("²①٣三、") == "²①٣三、"


@given(st.text(max_size=30))
def test_never_raises_and_reads_only_ascii_spellings(text):
    value = whole_number(text, minimum=None)
    if value is not None:
        assert int(fold_width(text).strip()) == value
        assert all(is_ascii_digit(c) or c in "-" for c in fold_width(text).strip())


def test_is_ascii_digit():
    assert [c for c in "0123456789²٣３a" if is_ascii_digit(c)] == list("0123456789")
    assert not is_ascii_digit("") and not is_ascii_digit("12")
