"""Pictures in the reader's language: hand pictures in each player's, group pictures in the group's."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .harness import TinyPictures


class LangPictures(TinyPictures):
    """Records the language each picture was asked for: (kind, seat or None, lang)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int | None, str]] = []

    async def hand(
        self, view: Any, lang: str = "zh_CN", protected: Any = (), game: str = "kawuxing", names: Any = ()
    ) -> bytes:
        self.calls.append(("hand", view.seat, lang))
        return await super().hand(view, lang, protected, game, names)

    async def table(
        self,
        view: Any,
        names: Sequence[str],
        lang: str = "zh_CN",
        totals: Sequence[int] | None = None,
        game: str = "kawuxing",
    ) -> bytes:
        self.calls.append(("table", None, lang))
        return await super().table(view, names, lang, totals, game)


async def test_hand_pictures_follow_the_player_and_the_table_the_group(kwx):
    kwx.default_language = "zh_CN"
    kwx.pictures = spy = LangPictures()
    li = kwx.fake.create_user("李", language_code="zh-hans")
    bob = kwx.fake.create_user("Bob", language_code="en")
    group = kwx.group([li, bob])
    async with kwx.running():
        await kwx.start_bot(li, bob)
        kwx.fake.user_command(li, group, "new")
        await kwx.settle()
        lobby = kwx.fake.last_message(group)
        await kwx.press(bob, lobby, "加入")
        await kwx.press(li, kwx.fake.message(group, lobby.message_id), "加电脑")
        await kwx.press(li, kwx.fake.message(group, lobby.message_id), "开始")
        assert kwx.hand_message(li) is not None and kwx.hand_message(bob) is not None
    hands = {(seat, lang) for kind, seat, lang in spy.calls if kind == "hand"}
    assert {lang for _, lang in hands} == {"zh_CN", "en"}
    assert len({seat for seat, _ in hands}) == 2, "one language per seat"
    assert {lang for kind, _, lang in spy.calls if kind == "table"} == {"zh_CN"}
