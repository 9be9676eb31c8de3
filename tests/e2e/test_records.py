"""Hand records: ``/export N`` gives a finished hand's event log that ``python -m engine play``
replays to the same result, and ``/replay N`` sends an animation of the hand, public information only."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys

from PIL import Image

from .scenarios import open_table


async def _command(kwx, user, chat, *args):
    mark = kwx.fake.mark()
    kwx.fake.user_command(user, chat, *args)
    await kwx.settle()
    return kwx.fake.bot_messages(chat, since=mark)


def _engine_play(document: bytes) -> dict:
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "play"], input=document, capture_output=True, timeout=60, check=False
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout)


async def test_export_of_a_finished_hand_replays_through_the_engine_to_the_same_result(kwx):
    users = kwx.players("Ann", "Ben", "Cat")
    group = kwx.group(users)
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        table_id = await open_table(kwx, users, group)
        await kwx.press(users[0], kwx.fake.bot_messages(group)[0], "Start")
        # while the hand is played its record would show concealed tiles: refused, nothing sent
        (during,) = await _command(kwx, users[1], group, "export", "1")
        assert during.document is None and "still being played" in during.text
        (during,) = await _command(kwx, users[1], group, "replay", "1")
        assert during.document is None and "still being played" in during.text

        await kwx.play_randomly(users, group, random.Random(5))
        hand = (await service.store.hands_numbered((await service.store.group_id_for_chat(group.id)), 1))[0]
        ledger = await service.store.ledger_of_hand(hand.hand_id)
        (export,) = await _command(kwx, users[2], group, "export", "1")
        assert export.document is not None and export.document.filename == f"kwx-t{table_id}-hand1.json"
        assert "python -m engine play" in export.caption
        doc = json.loads(export.document.data)
        assert "Ann" in doc["description"] and doc["seed"] == hand.deal.get("seed", doc["seed"])
        out = _engine_play(export.document.data)
        stored = [e.data for e in await service.store.hand_events(hand.hand_id)]
        assert out["events"] == stored == doc["expect"]["events"]  # every event, in the notation
        assert out["result"] == doc["expect"]["result"]
        assert out["result"]["deltas"] == [row.delta for row in ledger]  # the same payments
        assert {w["seat"] for w in out["result"]["winners"]} == {row.seat for row in ledger if row.won}
        # /export alone is still the ledger
        (ledger_csv,) = await _command(kwx, users[2], group, "export")
        assert ledger_csv.document.filename.endswith(".csv")
    assert kwx.fake.count_calls(ok=False) == 0


async def test_replay_sends_an_animation_of_the_hand_in_the_group(kwx):
    users = kwx.players("Ann", "Ben", "Cat")
    group = kwx.group(users)
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        await open_table(kwx, users, group)
        await kwx.press(users[0], kwx.fake.bot_messages(group)[0], "Start")
        await kwx.play_randomly(users, group, random.Random(8))
        mark = kwx.fake.mark()
        (replay,) = await _command(kwx, users[0], group, "replay", "1")
        assert kwx.fake.count_calls("sendAnimation", since=mark, ok=True) == 1
        (missing,) = await _command(kwx, users[0], group, "replay", "2", "99")  # the table is what is missing
        assert missing.document is None and missing.text == "There is no table 99 in this group (see /history)."
        assert replay.document is not None and replay.document.filename.endswith(".gif")
        gif = Image.open(io.BytesIO(replay.document.data))
        assert gif.format == "GIF" and gif.is_animated
        hand = (await service.store.hands_numbered((await service.store.group_id_for_chat(group.id)), 1))[0]
        stored = [e.data for e in await service.store.hand_events(hand.hand_id)]
        discards = sum(1 for e in stored if e["type"] == "discarded")
        assert gif.n_frames >= discards  # a moment per discard at least (plus the deal)
        # a frame per moment, then the result picture; the caption names the lay-downs too
        assert f"{gif.n_frames - 1} moments: every discard, claim, kong and laying down" in replay.caption
        # and how it ended, as /history says it
        (history,) = await _command(kwx, users[0], group, "history", "1")
        outcome = history.text.splitlines()[2:4]  # after the title and the hand's number and time
        assert outcome and all(line in replay.caption for line in outcome), (outcome, replay.caption)
        # in private, and with a hand that does not exist: a short answer, no animation
        (private,) = await _command(kwx, users[0], kwx.fake.private_chat(users[0]), "replay", "1")
        assert "in the group" in private.text
        (missing,) = await _command(kwx, users[0], group, "replay", "7")
        assert missing.document is None and "no hand 7" in missing.text
    assert kwx.fake.count_calls(ok=False) == 0


async def test_records_answer_in_the_groups_language(kwx):
    users = kwx.players("Ann", "Ben", "Cat", language_code="zh-hans")
    group = kwx.group(users)
    async with kwx.running():
        await kwx.start_bot(*users)
        await _command(kwx, users[0], group, "new")  # the group takes its opener's language
        (bad,) = await _command(kwx, users[0], group, "replay", "x")
        assert "用法：/replay N" in bad.text
        (bad,) = await _command(kwx, users[0], group, "export", "all")
        assert "第 N 局的记录" in bad.text
        (none,) = await _command(kwx, users[0], group, "export", "1")
        assert none.document is None and none.text == "本群没有第 1 局（见 /history）。"
