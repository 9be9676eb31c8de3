"""Hands anyone can verify: the group sees the commitment at the deal, the seed after the hand, and
``/verify`` gives the command that re-derives the deal (docs/rules.md §A3.1)."""

from __future__ import annotations

import hashlib
import html
import json
import random
import re
import shlex
import subprocess
import sys

from .scenarios import deal_scenario, load, open_table, perform


async def _verify(kwx, user, group, *args):
    mark = kwx.fake.mark()
    kwx.fake.user_command(user, group, "verify", *args)
    await kwx.settle()
    (reply,) = kwx.fake.bot_messages(group, since=mark)
    return html.unescape(reply.text)


def _engine_deal(command: str) -> dict:
    words = shlex.split(command)
    assert words[:4] == ["python", "-m", "engine", "deal"]
    proc = subprocess.run([sys.executable, *words[1:]], capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout)


async def test_verify_re_derives_the_deal_through_the_engine_command(kwx):
    users = kwx.players("Ann", "Ben", "Cat")
    group = kwx.group(users)
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        table_id = await open_table(kwx, users, group)
        await kwx.press(users[0], kwx.fake.bot_messages(group)[0], "Start")
        hand = await service.store.current_hand(table_id)
        started = (await service.store.hand_events(hand.hand_id))[0].data
        seed = started["seed"]
        assert re.fullmatch(r"[0-9a-f]{32}", seed)  # 128 random bits
        digest = hashlib.sha256(seed.encode()).hexdigest()

        table_msg = kwx.fake.last_message(group)
        assert table_msg.photo is not None and f"{digest[:12]}… · /verify 1" in table_msg.caption  # at the deal
        assert digest not in table_msg.caption  # a prefix: the whole commitment is in /verify
        during = await _verify(kwx, users[1], group, "1")
        assert digest in during and "still in play" in during
        assert seed not in " ".join(kwx.fake.seen_texts(group)), "the seed of a hand in play was shown"

        await kwx.play_randomly(users, group, random.Random(11))
        result = kwx.fake.last_message(group)
        assert f"Seed: {seed}" in html.unescape(result.caption) and "/verify 1" in result.caption

        after = await _verify(kwx, users[2], group, "1")
        assert digest in after and f"Seed: {seed}" in after
        (command,) = re.findall(r"^python -m engine deal .*$", after, re.M)
        derived = _engine_deal(command)
        assert derived["commitment"] == digest
        assert (derived["hands"], derived["wall"], derived["dealer"]) == (
            started["hands"], started["wall"], started["dealer"])  # fmt: skip
        assert await _verify(kwx, users[2], group) == after  # no number: the newest hand
    assert kwx.fake.count_calls(ok=False) == 0


async def test_verify_with_house_rules_and_refusals(kwx):
    users = kwx.players("Ann", "Ben", "Cat")
    group = kwx.group(users)
    rules = {"preset": "standard", "cap": "16"}
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        assert "No hand has been dealt" in await _verify(kwx, users[0], group)
        table_id = await open_table(kwx, users, group, rules)
        await service.prepare_deal(table_id, {"seed": "house-rules"})
        lobby = next(m for m in kwx.fake.bot_messages(group) if "Start" in m.button_texts)
        await kwx.press(users[0], lobby, "Start")
        await kwx.play_randomly(users, group, random.Random(3))
        text = await _verify(kwx, users[0], group, "1")
        (command,) = re.findall(r"^python -m engine deal .*$", text, re.M)
        assert "--rules" in command and '"cap":"16"' in command
        started = (await service.store.hand_events((await service.store.current_hand(table_id)).hand_id))[0].data
        assert _engine_deal(command)["wall"] == started["wall"]
        assert "no hand 7" in (await _verify(kwx, users[0], group, "7")).lower()
        assert "There is no table 99 in this group" in await _verify(kwx, users[0], group, "1", "99")  # not "no hand 1"
        assert "Use /verify N" in await _verify(kwx, users[0], group, "one")


async def test_a_prepared_deal_has_no_seed_and_says_so(kwx):
    users = kwx.players("Ann", "Ben", "Cat")
    group = kwx.group(users)
    scenario = load("d57_double_ron")
    async with kwx.running():
        await kwx.start_bot(*users)
        await deal_scenario(kwx, users, group, scenario)
        assert "Prepared deal (no shuffle seed)" in kwx.fake.last_message(group).caption
        for action in scenario["actions"]:
            await perform(kwx, users, action)
        await kwx.settle()
        text = await _verify(kwx, users[0], group, "1")
        assert "prepared hands and wall" in text and "python -m engine" not in text
