"""Ledger report texts: standings, /score me, history pages, minimal settlement, CSV export."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kwx_bot.store.ledger_queries import (
    GroupStanding,
    HandRecord,
    LedgerEntry,
    SeatResult,
    Standing,
)
from kwx_bot.words.i18n import translator
from kwx_bot.words.ledger_text import (
    EXACT_LIMIT,
    MESSAGE_LIMIT,
    ReportArgError,
    Transfer,
    export_filename,
    format_history,
    format_my_standings,
    format_settlement,
    format_standings,
    ledger_csv,
    paginate,
    parse_history_count,
    settle,
    sort_standings,
    telegram_length,
)

EN = translator("en")


ZH = translator("zh_CN")


EVIL = "<b>&amp; *_[`"


def test_paginate_keeps_blocks_whole_and_under_the_limit() -> None:
    blocks = [f"block {i} " + "x" * 90 for i in range(100)]
    pages = paginate(blocks, limit=1000, header="HEAD")
    assert pages[0].startswith("HEAD\nblock 0 ")
    assert all(telegram_length(p) <= 1000 for p in pages)
    assert "\n".join(pages).split("\n")[1:] == blocks  # nothing lost, nothing split, order kept
    assert len(pages) == len(paginate(blocks, limit=1000, header="HEAD"))


def test_paginate_counts_utf16_units_and_cuts_an_oversized_block_outside_tags() -> None:
    assert telegram_length("中") == 1 and telegram_length("🀄") == 2
    pages = paginate(["🀄" * 3000], limit=MESSAGE_LIMIT)
    assert len(pages) == 1 and telegram_length(pages[0]) <= MESSAGE_LIMIT and pages[0].endswith("…")
    page = paginate(["a" * 4085 + "<b>bold words</b>"], limit=MESSAGE_LIMIT)[0]
    assert page.endswith("<b>bo…</b>") and telegram_length(page) <= MESSAGE_LIMIT
    page = paginate(["a" * 4093 + "<b>bold</b>"], limit=MESSAGE_LIMIT)[0]
    assert page.endswith("a…") and telegram_length(page) <= MESSAGE_LIMIT
    page = paginate(["a" * 4088 + "&amp;&lt;xyz"], limit=MESSAGE_LIMIT)[0]
    assert page.endswith("a&amp;…") and telegram_length(page) <= MESSAGE_LIMIT
    assert paginate([], header="H") == ["H"] and paginate([]) == []


@pytest.mark.parametrize(("text", "n"), [("", 10), ("  ", 10), ("1", 1), ("25", 25), ("100", 100)])
def test_history_count(text: str, n: int) -> None:
    assert parse_history_count(text) == n


@pytest.mark.parametrize("text", ["0", "101", "-3", "ten", "5 6", "2.5"])
def test_history_count_refuses_politely(text: str) -> None:
    with pytest.raises(ReportArgError) as info:
        parse_history_count(text)
    assert "/history" in info.value.render(EN) and "1" in info.value.render(EN)
    assert info.value.render(ZH) != info.value.render(EN)


ROWS = [
    Standing(2, EVIL, -10, 6, 1, 3),
    Standing(1, "Alice", 14, 6, 3, 1, 8, ("龙七对",)),
    Standing(None, "", -4, 6, 1, 1, 2, ("卡五星",)),
    Standing(3, "王 小明", 0, 6, 1, 1, 4, ("七对",)),
    Standing(4, "Dora", 0, 1, 0, 0),
]


def test_standings_sorted_and_ranked_with_ties() -> None:
    assert [r.user_id for r in sort_standings(ROWS)] == [1, 3, 4, None, 2]
    (page,) = format_standings(ROWS, EN, season=2, hands=6, title="Friends & <family>")
    lines = page.splitlines()
    assert lines[0] == "<b>Standings · season 2</b> · Friends &amp; &lt;family&gt;"
    assert lines[1] == "6 hands scored"
    assert lines[2] == "1. <b>Alice</b> +14"
    assert lines[3].strip() == "6 hands · 3 wins · 1 dealt in · best ×8 Dragon seven pairs"
    assert lines[4].startswith("2. <b>王 小明</b> 0") and lines[6].startswith("2. <b>Dora</b> 0")
    assert "1 hand · 0 wins · 0 dealt in" in lines[7]
    assert lines[8] == "4. <b>AI players</b> -4"
    assert lines[10] == "5. <b>&lt;b&gt;&amp;amp; *_[`</b> -10"


def test_standings_in_chinese_and_empty() -> None:
    (page,) = format_standings(ROWS, ZH, season=1)
    assert "第 1 赛季" in page and "点炮 1" in page and "龙七对" in page and "电脑" in page
    assert "hands" not in page
    (empty,) = format_standings([], EN, season=3)
    assert "No hands scored yet" in empty


def test_standings_of_many_players_are_paged() -> None:
    rows = [Standing(i, "名" * 40 + str(i), 1000 - i, 500, 100, 50, 16, ("清一色", "七对")) for i in range(300)]
    pages = format_standings(rows, ZH, season=1)
    assert len(pages) > 1 and all(telegram_length(p) <= MESSAGE_LIMIT for p in pages)
    assert sum(p.count("<b>名") for p in pages) == 300


def test_my_standings() -> None:
    rows = [
        GroupStanding(1, "Friends <3", 2, 1, 4, Standing(7, "Me", 12, 5, 2, 0, 4, ("卡五星", "亮倒"))),
        GroupStanding(2, "", 1, 3, 3, Standing(7, "Me", -2, 1, 0, 1)),
    ]
    (page,) = format_my_standings(rows, EN, who="<Me>")
    assert page.splitlines()[0] == "<b>Standings of &lt;Me&gt;</b>"
    assert "<b>Friends &lt;3</b> · season 2: #1 of 4, +12" in page
    assert "best ×4 Ka Wu Xing (closed 5) Laid down" in page
    assert "<b>a group</b> · season 1: #3 of 3, -2" in page
    (none,) = format_my_standings([], ZH)
    assert "你" in none


def _hand(n: int, seats: list[SeatResult], table: int = 1, ended: float | None = 1_700_000_000.0) -> HandRecord:
    return HandRecord(n, table, n, 1, ended, tuple(seats))


def _seat(seat: int, uid: int | None, nm: str, delta: int, **kw: object) -> SeatResult:
    return SeatResult(seat, uid, nm, delta, kw.pop("hand", delta), kw.pop("kong", 0), **kw)  # type: ignore[arg-type]


HISTORY = [
    _hand(
        3,
        [
            _seat(0, 1, "Alice", 8, won=True, multiplier=4, fans=("卡五星", "亮倒"), by="discard", baohu=True),
            _seat(1, 2, EVIL, -8, dealt_in=True),
            _seat(2, None, "", 0),
        ],
    ),
    _hand(
        2,
        [
            _seat(0, 1, "Alice", -2),
            _seat(1, 2, EVIL, 4, won=True, multiplier=2, fans=("海底捞月",), by="self_draw"),
            _seat(2, None, "", -2),
        ],
    ),
    _hand(
        1,
        [
            _seat(0, 1, "Alice", 4, hand=0, kong=4, correction=-1),
            _seat(1, 2, EVIL, -2, correction=1),
            _seat(2, None, "", -2),
        ],
    ),
]


def test_history_lines() -> None:
    (page,) = format_history(HISTORY, EN, tz=UTC)
    lines = page.splitlines()
    assert lines[0] == "<b>The last 3 hands</b>"
    assert lines[1] == "<b>Hand 3</b> · 11-14 22:13"
    assert lines[2] == (
        "Alice wins on &lt;b&gt;&amp;amp; *_[`'s discard: Ka Wu Xing (closed 5) · Laid down ×4; "
        "&lt;b&gt;&amp;amp; *_[` pays for all (包胡)"
    )
    assert lines[3] == "Alice +8 · &lt;b&gt;&amp;amp; *_[` -8 · AI 3 0"
    assert lines[5] == "&lt;b&gt;&amp;amp; *_[` wins by self-draw: Last tile self-draw ×2"
    assert lines[8] == "Draw, no winner"
    assert lines[10] == "Corrected: Alice -1, &lt;b&gt;&amp;amp; *_[` +1"
    assert "<b>&" not in page


def test_history_names_whose_lay_down_doubled() -> None:
    # Ann laid down and paid: "Laid down ×2" alone would read as if the winner had laid down
    payer = _hand(
        5,
        [
            _seat(0, 1, "Ann", -2, declared=True),
            _seat(1, None, "", 3, won=True, multiplier=2, fans=("亮倒",), by="self_draw"),
            _seat(2, None, "", -1),
        ],
    )
    winner = _hand(6, [_seat(0, 1, "Ann", 4, won=True, multiplier=2, fans=("亮倒",), by="self_draw", declared=True),
                       _seat(1, 2, "Ben", -2, declared=True), _seat(2, None, "", -2)])  # fmt: skip
    (page,) = format_history([payer, winner], EN)
    assert "AI 2 wins by self-draw: Laid down by Ann ×2" in page
    assert "Ann wins by self-draw: Laid down by Ann ×2" in page  # the winner's own, not Ben's as well
    (zh,) = format_history([payer], ZH)
    assert "Ann亮倒" in zh


def test_score_names_whose_lay_down_doubled_the_best_win() -> None:
    # /score's "best ×2 Laid down" for the AI players read as if an AI had laid down: it was Ann
    hand = _hand(5, [_seat(0, 1, "Ann", -2, declared=True),
                     _seat(1, None, "", 4, won=True, multiplier=2, fans=("碰碰胡", "亮倒"), by="self_draw"),
                     _seat(2, 2, "Ben", -2)])  # fmt: skip
    ai = Standing(None, "", 4, 1, 1, 0, 2, ("碰碰胡", "亮倒"), best_hand=hand, best_seat=1)
    own = Standing(1, "Ann", 8, 1, 1, 0, 2, ("亮倒",))  # no hand read: the 番 alone, as before
    (page,) = format_standings([ai, own], EN, season=1)
    lines = page.splitlines()
    assert lines[-1].endswith("best ×2 All pongs Laid down by Ann") and lines[-2] == "2. <b>AI players</b> +4"
    assert lines[2].endswith("best ×2 Laid down")
    (mine,) = format_my_standings([GroupStanding(1, "G", 1, 1, 3, ai)], ZH)
    assert "Ann亮倒" in mine


def test_history_rob_and_time_zone_and_tables() -> None:
    rob = _hand(
        9,
        [
            _seat(0, 1, "A", 2, won=True, multiplier=2, fans=("抢杠胡",), by="rob_kong"),
            _seat(1, 2, "B", -2, dealt_in=True),
            _seat(2, 3, "C", 0),
        ],
        table=2,
    )
    (page,) = format_history([rob, *HISTORY], EN, tz=timezone(timedelta(hours=8)))
    assert "A robs B's kong: Robbing a kong ×2" in page
    assert "<b>Hand 9</b> · table 2" in page and "11-15 06:13" in page
    (zh,) = format_history([rob], ZH)
    assert "抢杠胡" in zh and "robs" not in zh


def test_history_of_100_hands_with_long_names_is_paged() -> None:
    long = "龍" * 64
    fans = ("清一色", "七对", "亮倒", "杠上开花", "海底捞月")
    hands = [
        _hand(i, [_seat(s, s + 1, long + EVIL, 8 - 4 * s, won=s == 0, multiplier=16, fans=fans, by="self_draw")
                  for s in range(3)])
        for i in range(100)
    ]  # fmt: skip
    pages = format_history(hands, ZH)
    assert len(pages) > 1 and all(telegram_length(p) <= MESSAGE_LIMIT for p in pages)
    assert sum(p.count("<b>第") for p in pages) == 100
    assert format_history([], EN) == ["No hands scored yet in this group."]


def _apply(balances: dict[int, int], transfers: list[Transfer[int]]) -> dict[int, int]:
    out = dict(balances)
    for t in transfers:
        assert t.amount > 0 and t.payer != t.payee
        out[t.payer] += t.amount
        out[t.payee] -= t.amount
    return out


def _brute_force(values: list[int]) -> int:
    """The classic exhaustive search (each debt passed on to a later party of opposite sign)."""
    debts = [v for v in values if v]

    def search(i: int) -> int:
        while i < len(debts) and debts[i] == 0:
            i += 1
        if i == len(debts):
            return 0
        best = 10**9
        for j in range(i + 1, len(debts)):
            if debts[i] * debts[j] < 0:
                debts[j] += debts[i]
                best = min(best, 1 + search(i + 1))
                debts[j] -= debts[i]
        return best

    return search(0)


def _zero_sum(values: list[int]) -> dict[int, int]:
    return {i: v for i, v in enumerate([*values, -sum(values)])}


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(-12, 12), min_size=0, max_size=6))
def test_settle_is_minimal_on_small_groups(values: list[int]) -> None:
    balances = _zero_sum(values)
    transfers = settle(balances)
    assert all(v == 0 for v in _apply(balances, transfers).values())
    assert len(transfers) == _brute_force(list(balances.values()))
    payers, payees = {t.payer for t in transfers}, {t.payee for t in transfers}
    assert not payers & payees
    assert all(balances[p] < 0 for p in payers) and all(balances[p] > 0 for p in payees)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-50, 50), min_size=EXACT_LIMIT, max_size=30))
def test_settle_greedy_fallback_squares_everyone(values: list[int]) -> None:
    balances = _zero_sum(values)
    transfers = settle(balances)
    assert all(v == 0 for v in _apply(balances, transfers).values())
    nonzero = sum(1 for v in balances.values() if v)
    assert len(transfers) <= max(0, nonzero - 1)
    assert not {t.payer for t in transfers} & {t.payee for t in transfers}


def test_settle_examples() -> None:
    assert settle({}) == [] and settle({"a": 0, "b": 0}) == []
    # Two independent pairs + a triangle: 2 + 2 transfers (greedy over everyone could need 5).
    got = settle({"a": 5, "b": -5, "c": 3, "d": -2, "e": -1})
    assert got == [Transfer("b", "a", 5), Transfer("d", "c", 2), Transfer("e", "c", 1)]  # largest first
    tricky = {"p": 6, "q": 4, "r": -5, "s": -5}
    assert len(settle(tricky)) == 3
    split = {"a": 7, "b": 3, "c": -3, "d": -7}  # greedy largest-first finds 2 here as well
    assert settle(split) == [Transfer("d", "a", 7), Transfer("c", "b", 3)]
    with pytest.raises(ValueError, match="sum to zero"):
        settle({"a": 1})


def test_settlement_message() -> None:
    rows = [Standing(1, "Alice", 12, 5, 3, 0), Standing(2, EVIL, -8, 5, 1, 2), Standing(None, "", -4, 5, 1, 1)]
    text = format_settlement(rows, EN, season=4)
    assert text.splitlines() == [
        "<b>Settle season 4</b>",
        "2 transfers square everyone:",
        "&lt;b&gt;&amp;amp; *_[` → Alice: 8",
        "AI players → Alice: 4",
        "The AI players' share is listed only so that the numbers add up.",
    ]
    assert "不欠" in format_settlement([Standing(1, "A", 0, 1, 0, 0)], ZH, season=1)


def _entry(i: int, nm: str, uid: int | None, delta: int, **kw: object) -> LedgerEntry:
    base: dict[str, object] = dict(
        entry_id=i,
        created_at=1_700_000_000.0 + i,
        season=1,
        table_id=1,
        hand_id=1,
        hand_no=1,
        seat=i % 3,
        user_id=uid,
        name=nm,
        kind="hand",
        hand_delta=delta,
        kong_delta=0,
        delta=delta,
        won=delta > 0,
        dealt_in=False,
        multiplier=2 if delta > 0 else 0,
        fans="卡五星" if delta > 0 else "",
        corrects=None,
    )
    base.update(kw)
    return LedgerEntry(**base)  # type: ignore[arg-type]


def test_csv_export() -> None:
    entries = [_entry(1, "王小明", 1, 2), _entry(2, "=HYPERLINK(1)", 2, -2), _entry(3, "", None, 0),
               _entry(4, "王小明", 1, -1, kind="correction", corrects=1, hand_delta=-1)]  # fmt: skip
    data = ledger_csv(entries, ZH, tz=timezone(timedelta(hours=8)))
    assert data.startswith(b"\xef\xbb\xbf") and b"\r\n" in data
    rows = list(csv.reader(io.StringIO(data[3:].decode("utf-8"))))
    assert len(rows) == 1 + len(entries)
    header = rows[0]
    assert header[1] == "时间 (UTC+08:00)" and "番" in header[16]
    assert rows[1][1] == "2023-11-15 06:13:21" and rows[1][8] == "王小明" and rows[1][16] == "卡五星"
    assert rows[2][8] == "'=HYPERLINK(1)"
    assert rows[3][8] == "电脑1" and rows[3][7] == ""
    assert rows[4][9] == "更正" and rows[4][17] == "1"
    assert sum(int(r[12]) for r in rows[1:]) == -1
    en = list(csv.reader(io.StringIO(ledger_csv(entries, EN).decode("utf-8-sig"))))
    assert en[0][:3] == ["Entry", "Time (UTC+00:00)", "Season"] and en[1][13] == "yes"


def test_export_filename() -> None:
    assert export_filename(12, when=datetime(2026, 5, 1, tzinfo=UTC)) == "kwx-ledger-g12-2026-05-01.csv"
    assert export_filename(3, season=2, when=datetime(2026, 5, 1, tzinfo=UTC)) == "kwx-ledger-g3-s2-2026-05-01.csv"
