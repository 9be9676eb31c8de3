"""A match of several hands ending in /score, /history, /settle and /export: every number the bot
shows is checked against the engine's results (``python -m engine play`` for the scripted hands, the
stored hand results for a random one), then a ledger correction and a new season."""

from __future__ import annotations

import csv
import io
import random
import re
from collections import Counter

from kwx_bot.store import LedgerRow

from .scenarios import open_table, play_scenarios

MATCH = ["d05_liangdao_baohu", "d57_double_ron", "d50_qianggang", "h1_kong_money_stands"]
NAMES = ["Ann", "Ben", "Cat"]


def _command(kwx, user, group, *words):
    mark = kwx.fake.mark()
    kwx.fake.user_command(user, group, *words)
    return mark


async def _replies(kwx, user, group, *words):
    mark = _command(kwx, user, group, *words)
    await kwx.settle()
    return kwx.fake.bot_messages(group, since=mark)


async def _play_match(kwx, users, group, service):
    """Four scripted hands and a random one at one table; returns the stored results per hand."""
    table_id, results = await play_scenarios(kwx, users, group, MATCH)
    assert (await service.store.current_hand(table_id)).hand_no == len(MATCH)
    await service.prepare_deal(table_id, {"seed": "match-5"})
    await kwx.press(users[0], kwx.fake.last_message(group), "Next hand")
    await kwx.play_randomly(users, group, random.Random(5))
    await kwx.settle()
    results.append((await service.store.current_hand(table_id)).result)
    return table_id, results


def _expected(results):
    points, wins, dealt_in = Counter(), Counter(), Counter()
    for r in results:
        for seat, d in enumerate(r["deltas"]):
            points[NAMES[seat]] += d
        for w in r["winners"]:
            wins[NAMES[w["seat"]]] += 1
        payers = {w["from_seat"] for w in r["winners"] if w["by"] != "self_draw"}
        for seat in payers:
            dealt_in[NAMES[seat]] += 1
    return points, wins, dealt_in


STANDING = re.compile(r"^\d+\. (\w+) ([+-]?\d+)\n\s+(\d+) hands? · (\d+) wins? · (\d+) dealt in", re.M)


def _standings(text):
    return {m[1]: (int(m[2]), int(m[3]), int(m[4]), int(m[5])) for m in STANDING.finditer(text)}


async def test_a_match_ends_in_score_history_settle_and_export(kwx):
    users = kwx.players(*NAMES)
    ann, ben, _cat = users
    group = kwx.group(users)  # Ann is the group's creator (an administrator)
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        table_id, results = await _play_match(kwx, users, group, service)
        points, wins, dealt_in = _expected(results)
        assert sum(points.values()) == 0 and any(points.values())

        # /score: points, hands, wins and 点炮 of every player
        (score,) = await _replies(kwx, ben, group, "score")
        assert "Standings · season 1" in score.text and "5 hands scored" in score.text
        shown = _standings(score.text)
        assert shown == {n: (points[n], 5, wins[n], dealt_in[n]) for n in NAMES}
        ranked = [m[1] for m in STANDING.finditer(score.text)]
        assert [points[n] for n in ranked] == sorted(points.values(), reverse=True)

        # /history: one block per hand, newest first, each seat's points for the hand
        (history,) = await _replies(kwx, ben, group, "history")
        blocks = history.text.split("\n\n") if "\n\n" in history.text else re.split(r"\n(?=Hand \d)", history.text)
        hands = [b for b in blocks if re.match(r"Hand \d", b)]
        assert [int(re.match(r"Hand (\d+)", b)[1]) for b in hands] == [5, 4, 3, 2, 1]
        for block, result in zip(hands, reversed(results), strict=True):
            line = " · ".join(f"{n} {d:+d}" if d else f"{n} 0" for n, d in zip(NAMES, result["deltas"], strict=True))
            assert line in block
        assert "Draw, no winner" in hands[1]  # h1: 荒庄, kong money stands
        assert hands[3].count("wins on") == 2  # d57: 一炮双响
        assert "robs" in hands[2]  # d50: 抢杠胡
        (two,) = await _replies(kwx, ben, group, "history", "2")
        assert len(re.findall(r"^Hand \d", two.text, re.M)) == 2
        (bad,) = await _replies(kwx, ben, group, "history", "lots")
        assert "from 1 to 100" in bad.text

        # /settle: transfers that square everyone, no more than needed
        (settle,) = await _replies(kwx, ben, group, "settle")
        balance = Counter(points)
        transfers = re.findall(r"^(\w+) → (\w+): (\d+)$", settle.text, re.M)
        for payer, payee, amount in transfers:
            balance[payer] += int(amount)
            balance[payee] -= int(amount)
        assert all(v == 0 for v in balance.values())
        assert len(transfers) == sum(1 for v in points.values() if v) - 1

        # /export: the ledger as a CSV document, one row per seat and hand
        (export,) = await _replies(kwx, ben, group, "export")
        assert export.document is not None and export.document.filename.endswith(".csv")
        rows = list(csv.DictReader(io.StringIO(export.document.data.decode("utf-8-sig"))))
        assert len(rows) == 15 and "15 entries" in export.caption
        per_player = Counter()
        for row in rows:
            per_player[row["Player"]] += int(row["Points"])
        assert dict(per_player) == {n: points[n] for n in NAMES}

        # a correction is a compensating row: the first hand is cancelled, nothing is deleted
        first = (await service.store.ledger_of_table(table_id))[0].hand_id
        async with service.store.transaction() as tx:
            await tx.reverse_hand(first)
        (score,) = await _replies(kwx, ben, group, "score")
        corrected = {n: points[n] - results[0]["deltas"][i] for i, n in enumerate(NAMES)}
        assert {n: v[0] for n, v in _standings(score.text).items()} == corrected
        (history,) = await _replies(kwx, ben, group, "history")
        assert "Corrected:" in history.text
        (export,) = await _replies(kwx, ben, group, "export")
        assert f"{15 + sum(1 for d in results[0]['deltas'] if d)} entries" in export.caption

        # /season new: only an administrator; the ledger keeps the old season
        (refused,) = await _replies(kwx, ben, group, "season", "new")
        assert "only the group's administrators" in refused.text
        (started,) = await _replies(kwx, ann, group, "season", "new")
        assert "Season 2 has begun" in started.text
        (score,) = await _replies(kwx, ben, group, "score")
        assert "season 2" in score.text and "No hands scored yet this season" in score.text
        (history,) = await _replies(kwx, ben, group, "history")
        assert "Hand 5" in history.text

        # /score me in private: the player's standing in each group (the new season is empty)
        chat = kwx.fake.private_chat(ben)
        mark = kwx.fake.mark()
        kwx.fake.user_command(ben, chat, "score", "me")
        await kwx.settle()
        (mine,) = kwx.fake.bot_messages(chat, since=mark)
        assert "Your standings" in mine.text and "No scored hands yet" in mine.text
    assert kwx.fake.count_calls(ok=False) == 0


async def test_long_history_is_paged_under_the_message_limit(kwx):
    long_names = ["Ann" + "a" * 60, "Ben" + "b" * 60, "Cat" + "c" * 60]
    users = [kwx.fake.create_user(n) for n in long_names]
    group = kwx.group(users)
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        table_id = await open_table(kwx, users, group)
        gid = await service.store.group_id_for_chat(group.id)
        async with service.store.transaction() as tx:  # 80 finished hands, as the ledger records them
            for number in range(1, 81):
                hand_id = await tx.start_hand(table_id, number, 0, {"seed": str(number)})
                winner = number % 3
                deltas = [-2, -2, -2]
                deltas[winner] = 4
                result = {
                    "type": "hand_ended",
                    "outcome": "win",
                    "deltas": deltas,
                    "winners": [
                        {"seat": winner, "by": "self_draw", "from_seat": None, "fans": ["卡五星"], "baohu": False}
                    ],
                }
                await tx.finish_hand(hand_id, "over", result)
                await tx.record_ledger(gid, 1, table_id, [
                    LedgerRow(hand_id, s, users[s].id, deltas[s], 0, deltas[s], won=s == winner,
                              multiplier=2 if s == winner else 0, fans="卡五星" if s == winner else "")
                    for s in range(3)
                ])  # fmt: skip
        mark = kwx.fake.mark()
        kwx.fake.user_command(users[1], group, "history", "100")
        await kwx.settle()
        pages = kwx.fake.bot_messages(group, since=mark)
        assert len(pages) >= 3 and all(len(p.text) <= 4096 for p in pages)
        numbers = [int(n) for p in pages for n in re.findall(r"^Hand (\d+)", p.text, re.M)]
        assert numbers == list(range(80, 0, -1))  # every hand once, newest first, none split
        # /score me in the group: only this group, in a reply
        mark = kwx.fake.mark()
        kwx.fake.user_command(users[0], group, "score", "me")
        await kwx.settle()
        (mine,) = kwx.fake.bot_messages(group, since=mark)
        assert "Mahjong night · season 1: #3 of 3, -4" in mine.text and "26 wins" in mine.text
        assert mine.reply_to is not None
    assert kwx.fake.count_calls(ok=False) == 0
