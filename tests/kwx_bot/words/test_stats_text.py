"""The words of ``/stats``: its arguments and the picture's caption, in both languages."""

from __future__ import annotations

import pytest

from kwx_bot.words.i18n import translator
from kwx_bot.words.ledger_text import ReportArgError
from kwx_bot.words.stats_text import StatsAsk, parse_stats_args, stats_caption, stats_caption_all_groups, stats_empty

EN, ZH = translator("en"), translator("zh_CN")


@pytest.mark.parametrize(
    ("args", "ask"),
    [
        ((), StatsAsk()),
        (("me",), StatsAsk(me=True)),
        (("ALL",), StatsAsk(all_seasons=True)),
        (("all", "me"), StatsAsk(me=True, all_seasons=True)),
        (("我", "全部"), StatsAsk(me=True, all_seasons=True)),
    ],
)
def test_the_arguments(args: tuple[str, ...], ask: StatsAsk) -> None:
    assert parse_stats_args(args) == ask


@pytest.mark.parametrize("args", [("foo",), ("me", "me"), ("all", "all"), ("me", "2"), ("<b>",)])
def test_anything_else_gets_the_usage_in_the_readers_language(args: tuple[str, ...]) -> None:
    with pytest.raises(ReportArgError) as e:
        parse_stats_args(args)
    assert e.value.render(EN).startswith("Use /stats for this season's numbers of the group")
    assert e.value.render(ZH).startswith("用法：/stats")


def test_captions() -> None:
    assert stats_caption(EN, title="<Night>", hands=1, season=2) == (
        "📊 &lt;Night&gt;: 1 hand in season 2.\n/stats all: every season · /stats me: yours"
    )
    assert stats_caption(EN, title="Night", hands=5, season=None) == "📊 Night: 5 hands, every season."
    assert stats_caption(EN, title="Ann", hands=5, season=3, me=True) == "📊 Ann: 5 hands in season 3."
    assert stats_caption(EN, title="Ann", hands=5, season=None, groups=2, me=True) == (
        "📊 Ann: 5 hands, this season of each group (groups: 2)."
    )
    assert stats_caption_all_groups(ZH, title="李", hands=7, groups=2) == "📊 李：7 局，各群的所有赛季（共 2 个群）。"
    assert stats_caption(ZH, title="麻将群", hands=7, season=1).startswith("📊 麻将群：第1赛季 7 局。\n")


def test_nothing_to_count() -> None:
    assert stats_empty(EN, me=True, private=True, all_seasons=False).startswith("You have no scored hands yet")
    assert stats_empty(ZH, me=True, private=False, all_seasons=True) == "你在本群还没有计分的牌局。"
    assert stats_empty(EN, me=False, private=False, all_seasons=True) == "No hands scored yet in this group."
    assert "/stats all" in stats_empty(ZH, me=False, private=False, all_seasons=False)
