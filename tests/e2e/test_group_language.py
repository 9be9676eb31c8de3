"""A group's language follows its people: the opener of the first table decides it (an explicit
setting wins), and the lobby switches it in one tap (docs/architecture.md §5 step 1)."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any

from .harness import TinyPictures
from .scenarios import deal_scenario, load, perform


class LangPictures(TinyPictures):
    """Records the language of every group picture: (kind, lang)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []

    async def table(
        self,
        view: Any,
        names: Sequence[str],
        lang: str = "zh_CN",
        totals: Sequence[int] | None = None,
        game: str = "kawuxing",
    ) -> bytes:
        self.calls.append(("table", lang))
        return await super().table(view, names, lang, totals, game)

    async def result(
        self,
        view: Any,
        names: Sequence[str],
        lang: str = "zh_CN",
        hands: Sequence[Any] | None = None,
        game: str = "kawuxing",
    ) -> bytes:
        self.calls.append(("result", lang))
        return await super().result(view, names, lang, hands, game)


async def _command(kwx, user, chat, *words):
    mark = kwx.fake.mark()
    kwx.fake.user_command(user, chat, *words)
    await kwx.settle()
    return kwx.fake.bot_messages(chat, since=mark)


async def test_three_english_users_get_english_everywhere_without_settings(kwx):
    kwx.default_language = "zh_CN"  # the operator's default is Chinese
    kwx.pictures = spy = LangPictures()
    users = kwx.players("Ann", "Ben", "Cat", language_code="en")
    group = kwx.group(users)
    scenario = load("d57_double_ron")
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        table_id = await deal_scenario(kwx, users, group, scenario)  # presses "Join" and "Start"
        lobby = kwx.fake.bot_messages(group)[0]
        assert "Ka Wu Xing table" in lobby.text and "The game is on." in lobby.text
        for action in scenario["actions"]:
            await perform(kwx, users, action)
        await kwx.settle()
        hand = await service.store.current_hand(table_id)
        assert hand.status == "over"
        texts = [m.content for m in kwx.fake.bot_messages(group)]
        assert any("Points:" in t for t in texts), texts  # the result caption
        assert not any("\u4e00" <= c <= "\u9fff" for t in texts for c in t if c not in "卡五星胡杠碰亮倒自摸点炮庄番")
        assert kwx.fake.last_message(group).button_texts == ["Next hand", "End the table"]
        assert {lang for _, lang in spy.calls} == {"en"} and {k for k, _ in spy.calls} == {"table", "result"}
        (help_text,) = await _command(kwx, users[1], group, "help")
        assert "Ka Wu Xing (卡五星): 3 players" in help_text.text
        (score,) = await _command(kwx, users[1], group, "score")
        assert "Standings · season 1" in score.text
        (export,) = await _command(kwx, users[1], group, "export")
        rows = list(csv.DictReader(io.StringIO(export.document.data.decode("utf-8-sig"))))
        assert {"Player", "Points"} <= set(rows[0]) and len(rows) == 3
        gid = await service.store.group_id_for_chat(group.id)
        assert (await service.store.group_settings(gid))["language"] == "en"
    assert kwx.fake.count_calls(ok=False) == 0


async def test_an_explicit_setting_wins_over_the_openers_language(kwx):
    kwx.default_language = "en"
    users = kwx.players("Ann", "Ben", language_code="en")
    group = kwx.group(users)
    async with kwx.running():
        await kwx.start_bot(*users)
        await _command(kwx, users[0], group, "settings", "language", "zh")  # Ann created the group: an admin
        kwx.fake.user_command(users[0], group, "new")
        await kwx.settle()
        lobby = kwx.fake.last_message(group)
        assert "卡五星" in lobby.text and "加入" in lobby.button_texts


async def test_an_unknown_telegram_language_decides_nothing(kwx):
    kwx.default_language = "zh_CN"
    (hans,) = kwx.players("Hans", language_code="de")
    (bob,) = kwx.players("Bob", language_code="en")
    group = kwx.group([hans, bob])
    async with kwx.running() as service:
        await kwx.start_bot(hans, bob)
        kwx.fake.user_command(hans, group, "new")
        await kwx.settle()
        assert "加入" in kwx.fake.last_message(group).button_texts  # the operator's default
        (help_text,) = await _command(kwx, bob, group, "help")
        assert "卡五星：三人" in help_text.text
        gid = await service.store.group_id_for_chat(group.id)
        assert "language" not in await service.store.group_settings(gid)


async def test_the_lobby_switches_the_group_language_in_one_tap(kwx):
    kwx.default_language = "en"
    ann, ben, eve = kwx.players("Ann", "Ben", "Eve", language_code="en")
    group = kwx.group([ann, ben, eve])
    async with kwx.running() as service:
        await kwx.start_bot(ann, ben, eve)
        kwx.fake.user_command(ann, group, "new")
        await kwx.settle()
        lobby = kwx.fake.last_message(group)
        assert "中文" in lobby.button_texts and "Join" in lobby.button_texts
        refused = await kwx.press(eve, lobby, "中文")  # an onlooker may not
        assert refused.answer.show_alert and "Only players at the table" in refused.answer.text
        assert "Join" in kwx.fake.message(group, lobby.message_id).button_texts
        switched = await kwx.press(ann, lobby, "中文")  # the creator, seated
        assert not switched.answer.show_alert and "中文" in switched.answer.text
        lobby = kwx.fake.message(group, lobby.message_id)
        assert "加入" in lobby.button_texts and "English" in lobby.button_texts and "卡五星" in lobby.text
        gid = await service.store.group_id_for_chat(group.id)
        assert (await service.store.group_settings(gid))["language"] == "zh_CN"
        await kwx.press(ben, lobby, "加入")
        back = await kwx.press(ben, kwx.fake.message(group, lobby.message_id), "English")  # a seated player
        assert "English" in back.answer.text
        assert "Join" in kwx.fake.message(group, lobby.message_id).button_texts
        (help_text,) = await _command(kwx, eve, group, "help")
        assert "Ka Wu Xing (卡五星): 3 players" in help_text.text
