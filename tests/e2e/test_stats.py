"""``/stats`` through the fake Bot API: two scripted hands (a 亮倒 won on a discard, a 杠上开花
self-draw), then the group's record, every season's, a player's own in the group and in private,
the polite answers (bad arguments, nobody's hands, a member who never played, a stranger), and a
Chinese group.  The pictures are drawn for real; what they were drawn from is checked against the
engine's stored results."""

from __future__ import annotations

import io
from collections import Counter
from typing import Any

from PIL import Image

from kwx_bot.service.pictures import RenderPictures
from render.stats import MAX_ASPECT, WIDTH, StatsSheet

from .scenarios import deal_scenario, load, perform, play_scenarios

MATCH = ["d05_liangdao_baohu", "d48_gangshang_kaihua"]


class SheetPictures(RenderPictures):
    """Real pictures (drawn in a thread), remembering each ``/stats`` sheet and its language."""

    def __init__(self) -> None:
        super().__init__("palette", processes=0)
        self.sheets: list[tuple[StatsSheet, str]] = []

    async def stats(self, sheet: StatsSheet, lang: str = "zh_CN") -> bytes:
        self.sheets.append((sheet, lang))
        return await super().stats(sheet, lang)


async def _play(kwx, users, group) -> tuple[list[dict[str, Any]], set[tuple[int, int]]]:
    """The two hands; returns their stored results and the (hand number, seat) of each declaration."""
    _table, results = await play_scenarios(kwx, users, group, MATCH)
    declared = {
        (number, a["seat"])
        for number, name in enumerate(MATCH, start=1)
        for a in load(name)["actions"]
        if a["act"] == "liangdao"
    }
    return results, declared


def _expected(results: list[dict[str, Any]], declared: set[tuple[int, int]], names: list[str]) -> dict[str, tuple]:
    """(hands, wins, self-draws, dealt in, declared, declared and won, points) per name, from the stored results."""
    out = {}
    for seat, who in enumerate(names):
        wins = [(n, w) for n, r in enumerate(results, 1) for w in r["winners"] if w["seat"] == seat]
        won = {n for n, _ in wins}
        out[who] = (
            len(results),
            len(wins),
            sum(w["by"] == "self_draw" for _, w in wins),
            sum(any(w["by"] != "self_draw" and w["from_seat"] == seat for w in r["winners"]) for r in results),
            sum((n, seat) in declared for n in range(1, len(results) + 1)),
            sum((n, seat) in declared and n in won for n in range(1, len(results) + 1)),
            sum(r["deltas"][seat] for r in results),
        )
    return out


def _counts(sheet: StatsSheet) -> dict[str, tuple]:
    return {
        p.name: (p.hands, p.wins, p.self_draws, p.dealt_in, p.declared, p.declared_won, p.points) for p in sheet.players
    }


async def _ask(kwx, user, chat, *words):
    mark = kwx.fake.mark()
    command = kwx.fake.user_command(user, chat, "stats", *words)
    await kwx.settle()
    (reply,) = kwx.fake.bot_messages(chat, since=mark)
    return command, reply


def _picture(message) -> Image.Image:
    assert message.photo is not None, message.content
    image = Image.open(io.BytesIO(message.photo.data))
    assert image.format == "PNG" and image.mode == "P"  # the palette PNG every picture goes out as
    assert image.width == WIDTH and image.height <= MAX_ASPECT * image.width
    return image


async def test_stats_of_a_group_and_of_a_player_in_both_chats(kwx):
    kwx.pictures = pictures = SheetPictures()
    names = ["Ann", "Ben", "Cat"]
    users = kwx.players(*names)
    ann, ben, cat = users
    dan = kwx.fake.create_user("Dan", language_code="en")  # a member who never played
    mallory = kwx.fake.create_user("Mallory", language_code="en")  # not in the group
    group = kwx.group([*users, dan])
    async with kwx.running():
        await kwx.start_bot(*users, mallory)
        results, declared = await _play(kwx, users, group)
        expected = _expected(results, declared, names)
        assert expected["Ann"][4:6] == (1, 1) and expected["Ann"][2] == 1  # one 亮倒, won; one self-draw

        # /stats: the group's season, everyone's numbers as the stored results say
        _, reply = await _ask(kwx, cat, group)
        _picture(reply)
        assert "Mahjong night: 2 hands in season 1." in reply.caption and "/stats all" in reply.caption
        sheet, lang = pictures.sheets[-1]
        assert lang == "en" and not sheet.personal and sheet.hands == 2 and sheet.season == 1
        assert _counts(sheet) == expected
        assert [p.name for p in sheet.players] == sorted(names, key=lambda n: -expected[n][6])
        ann_stats = sheet.players[0]
        assert (ann_stats.best_multiplier, ann_stats.top_fan) == (2, "杠上开花")  # 亮倒 is no pattern
        assert ann_stats.running == ((1, results[0]["deltas"][0]), (2, expected["Ann"][6]))

        # /stats all: every season (one so far)
        _, reply = await _ask(kwx, cat, group, "all")
        assert "Mahjong night: 2 hands, every season." in reply.caption
        assert pictures.sheets[-1][0].all_seasons and _counts(pictures.sheets[-1][0]) == expected

        # /stats me in the group: Ben's own, answering his message
        command, reply = await _ask(kwx, ben, group, "me")
        _picture(reply)
        assert reply.reply_to is not None and reply.reply_to.message_id == command.message_id
        assert "Ben: 2 hands in season 1." in reply.caption
        sheet = pictures.sheets[-1][0]
        assert sheet.personal and sheet.title == "Ben" and _counts(sheet) == {"Ben": expected["Ben"]}

        # in private, /stats is /stats me: over every group (one here), each in its current season
        _, reply = await _ask(kwx, ann, kwx.fake.private_chat(ann))
        _picture(reply)
        assert "Ann: 2 hands, this season of each group (groups: 1)." in reply.caption
        sheet = pictures.sheets[-1][0]
        assert sheet.personal and sheet.groups == 1 and _counts(sheet) == {"Ann": expected["Ann"]}
        _, reply = await _ask(kwx, ann, kwx.fake.private_chat(ann), "all", "me")
        assert "every season of each group" in reply.caption and pictures.sheets[-1][0].all_seasons

        drawn = len(pictures.sheets)
        # bad arguments: a polite usage line, no picture
        for words in (("foo",), ("me", "me"), ("all", "2")):
            _, reply = await _ask(kwx, cat, group, *words)
            assert reply.photo is None and "Use /stats for this season's numbers" in reply.text
        # a member who never played; a stranger in private: nothing to count, said kindly, nothing leaked
        _, reply = await _ask(kwx, dan, group, "me")
        assert reply.text == "You have no scored hands in this group yet."
        _, reply = await _ask(kwx, mallory, kwx.fake.private_chat(mallory))
        assert reply.text.startswith("You have no scored hands yet") and "Mahjong night" not in reply.text
        # a new season: nothing yet, and where to look
        kwx.fake.user_command(ann, group, "season", "new")
        await kwx.settle()
        _, reply = await _ask(kwx, cat, group)
        assert reply.text == "No hands scored yet this season: /stats all counts every season."
        assert len(pictures.sheets) == drawn  # none of these drew a picture

        # a group without any table yet
        other = kwx.group([cat], "Quiet group")
        _, reply = await _ask(kwx, cat, other)
        assert reply.text == "No hands scored yet in this group."


async def test_stats_in_a_chinese_group(kwx):
    kwx.pictures = pictures = SheetPictures()
    users = kwx.players("李", "王", "张")
    group = kwx.group(users, "麻将群")
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        scenario = load(MATCH[0])
        await deal_scenario(kwx, users, group, scenario)
        for action in scenario["actions"]:
            await perform(kwx, users, action)
        await kwx.settle()
        async with service.store.transaction() as tx:  # the group's language, as /settings sets it
            await tx.set_setting(await service.store.group_id_for_chat(group.id), "language", "zh_CN")
        _, reply = await _ask(kwx, users[1], group)
        _picture(reply)
        assert "📊 麻将群：第1赛季 1 局。" in reply.caption
        sheet, lang = pictures.sheets[-1]
        assert lang == "zh_CN" and Counter(p.hands for p in sheet.players) == Counter({1: 3})
        _, reply = await _ask(kwx, users[1], group, "乱")
        assert reply.text.startswith("用法：/stats")
