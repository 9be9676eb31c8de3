"""The group's live table message: one message per hand, edits coalesced to at most one per
``table_edit_seconds``, and the last state always shown in the end."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from .harness import TinyPictures
from .scenarios import deal_scenario, load, perform


async def test_live_table_edits_are_spaced_and_catch_up(kwx):
    kwx.table_edit_seconds = 0.4
    scenario = load("h2_one_liangdao")  # a long scripted hand (荒庄)
    users = kwx.players("Ann", "Ben", "Cat")
    group = kwx.group(users)
    async with kwx.running():
        await kwx.start_bot(*users)
        await deal_scenario(kwx, users, group, scenario)
        table = kwx.fake.bot_messages(group)[1]
        mark = kwx.fake.mark()
        for action in scenario["actions"][:6]:
            await perform(kwx, users, action)
        # the last change is shown once the interval has passed
        await kwx.fake.wait_for(lambda: "Ann to play" in kwx.fake.message(group, table.message_id).content
                                or "Ben to play" in kwx.fake.message(group, table.message_id).content
                                or "Cat to play" in kwx.fake.message(group, table.message_id).content, 5)  # fmt: skip
        await kwx.fake.wait_idle(quiet=0.6, timeout=10)
        edits = kwx.fake.calls_to(["editMessageMedia", "editMessageCaption"], chat=group, since=mark)
        times = [c.time for c in edits]
        assert len(edits) >= 1
        assert all(b - a >= 0.39 for a, b in itertools.pairwise(times))
        live = kwx.service.tables.cached()[0]
        assert f"{live.state.wall_remaining} tiles left" in kwx.fake.message(group, table.message_id).content
        assert len(edits) < 6  # six presses, fewer edits: changes were coalesced


class TotalsPictures(TinyPictures):
    """Records the running match totals each table picture was drawn with, and the hands each
    result picture shows."""

    def __init__(self) -> None:
        self.totals: list[list[int] | None] = []
        self.hands: list[list[Any] | None] = []

    async def table(
        self,
        view: Any,
        names: Sequence[str],
        lang: str = "zh_CN",
        totals: Sequence[int] | None = None,
        game: str = "kawuxing",
    ) -> bytes:
        self.totals.append(None if totals is None else list(totals))
        return await super().table(view, names, lang, totals, game)

    async def result(
        self,
        view: Any,
        names: Sequence[str],
        lang: str = "zh_CN",
        hands: Sequence[Any] | None = None,
        game: str = "kawuxing",
    ) -> bytes:
        self.hands.append(None if hands is None else list(hands))
        return await super().result(view, names, lang, hands, game)


async def test_table_pictures_show_match_totals_and_the_result_every_hand(kwx):
    kwx.pictures = spy = TotalsPictures()
    scenario = load("d05_liangdao_baohu")  # a discard win into a 亮倒 hand (包胡)
    users = kwx.players("Ann", "Ben", "Cat")
    group = kwx.group(users)
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        table_id = await deal_scenario(kwx, users, group, scenario)
        assert spy.totals[0] == [0, 0, 0], "nothing won yet"
        for action in scenario["actions"]:
            await perform(kwx, users, action)
        await kwx.settle()
        ledger = [0, 0, 0]
        for row in await service.store.ledger_of_table(table_id):
            ledger[row.seat] += row.delta
        assert sum(ledger) == 0 and any(ledger), ledger
        assert spy.totals[-1] == ledger, "the final table already counts the hand"
        (hands,) = spy.hands  # the result picture shows every seat's whole hand
        assert hands is not None and len(hands) == 3
        assert all(len(tiles) + 3 * len(melds) in (13, 14) for tiles, melds in hands)
        await kwx.press(users[1], kwx.fake.last_message(group), "Next hand")
        await kwx.settle()
        assert spy.totals[-1] == ledger, "the next hand's table starts from the match totals"
