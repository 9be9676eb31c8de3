"""/void <hand>: a group administrator cancels a scored hand's points with compensating ledger rows
(never deletes); /score and /history reflect it; a voided hand is never voided twice; non-admins and
bad arguments get polite, clear answers."""

from __future__ import annotations

import re
from collections import Counter

from kwx_bot.edge.codec import b36

from .scenarios import play_scenarios

MATCH = ["d05_liangdao_baohu", "d57_double_ron"]
NAMES = ["Ann", "Ben", "Cat"]
STANDING = re.compile(r"^\d+\. (\w+) ([+-]?\d+)\n", re.M)


async def _send(kwx, user, chat, *words, anonymous=False):
    mark = kwx.fake.mark()
    if anonymous:
        kwx.fake.user_sends(None, chat, " ".join([f"/{words[0]}@{kwx.fake.bot.username}", *words[1:]]),
                            anonymous_admin=True)  # fmt: skip
    else:
        kwx.fake.user_command(user, chat, *words)
    await kwx.settle()
    return kwx.fake.bot_messages(chat, since=mark)


async def _play(kwx, users, group, service):
    """The scripted hands at one table; returns the stored result of each."""
    return (await play_scenarios(kwx, users, group, MATCH))[1]


async def _ledger(service, group):
    gid = await service.store.group_id_for_chat(group.id)
    return await service.store.ledger_entries(gid)


def _labels(message):
    return [b.text for row in message.buttons for b in row]


async def test_an_admin_voids_a_hand_with_compensating_rows_once(kwx):
    users = kwx.players(*NAMES)
    ann, ben, _cat = users
    group = kwx.group(users)  # Ann created the group: an administrator
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        results = await _play(kwx, users, group, service)
        before = await _ledger(service, group)
        first_hand = before[0].hand_id
        assert any(results[0]["deltas"])

        # a member who is not an administrator is refused, nothing is shown or changed
        (refused,) = await _send(kwx, ben, group, "void", "1")
        assert "only the group's administrators" in refused.text and refused.buttons == []

        # bad arguments: missing, not a number, no such hand in this group
        for words in (("void",), ("void", "abc"), ("void", "1", "2", "3"), ("void", "-1")):
            (usage,) = await _send(kwx, ann, group, *words)
            assert "Use /void N" in usage.text and usage.buttons == []
        (missing,) = await _send(kwx, ann, group, "void", "9")
        assert "no scored hand 9 in this group" in missing.text and missing.buttons == []
        (other_table,) = await _send(kwx, ann, group, "void", "1", "999")
        assert "no scored hand 1" in other_table.text
        assert await _ledger(service, group) == before

        # the question shows the hand as /history does, with two buttons; Cancel changes nothing
        (question,) = await _send(kwx, ann, group, "void", "1")
        assert "Hand 1" in question.text and "Void this hand?" in question.text
        line = " · ".join(f"{n} {d:+d}" if d else f"{n} 0" for n, d in zip(NAMES, results[0]["deltas"], strict=True))
        assert line in question.text
        assert _labels(question) == ["Void this hand", "Cancel"]
        assert all(len(b.callback_data.encode()) <= 64 for row in question.buttons for b in row)
        pressed = await kwx.press(ben, question, "Void this hand")  # a non-admin's press
        assert pressed.answer.show_alert and "only the group's administrators" in pressed.answer.text
        await kwx.press(ann, question, "Cancel")
        assert "Cancelled: hand 1 still counts." in question.text and question.buttons == []  # edited in place
        assert await _ledger(service, group) == before

        # an anonymous administrator asks; an administrator confirms: correction rows + a notice
        (question,) = await _send(kwx, None, group, "void", "1", anonymous=True)
        void_data = question.buttons[0][0].callback_data
        mark = kwx.fake.mark()
        pressed = await kwx.press(ann, question, "Void this hand")
        assert pressed.answer.text == "Voided."
        notices = kwx.fake.bot_messages(group, since=mark)
        assert any("An administrator voided hand 1" in m.text for m in notices)
        assert question.buttons == [] and "Voided: its points no longer count." in question.text

        after = await _ledger(service, group)
        assert after[: len(before)] == before  # nothing updated or deleted
        added = after[len(before) :]
        assert added and all(e.kind == "correction" and e.hand_id == first_hand for e in added)
        assert {e.corrects for e in added} <= {e.entry_id for e in before}
        per_hand, per_seat = Counter(), Counter()
        for e in after:
            per_hand[e.hand_id] += e.delta
            if e.hand_id == first_hand:
                per_seat[e.seat] += e.delta
        assert set(per_hand.values()) == {0}  # every hand still sums to zero
        assert set(per_seat.values()) == {0}  # the voided hand nets to zero for every seat

        # /score and /history reflect it
        (score,) = await _send(kwx, ben, group, "score")
        shown = {m[1]: int(m[2]) for m in STANDING.finditer(score.text)}
        assert shown == {n: results[1]["deltas"][i] for i, n in enumerate(NAMES)}
        (history,) = await _send(kwx, ben, group, "history")
        assert "Corrected:" in history.text

        # never twice: the command says so, and a repeated press adds nothing
        (again,) = await _send(kwx, ann, group, "void", "1")
        assert "already voided" in again.text and again.buttons == []
        query = kwx.fake.forge_press(ann, question, void_data)
        await kwx.fake.wait_for_answer(query)
        await kwx.settle()
        assert "already voided" in query.answer.text
        assert await _ledger(service, group) == after

        # a forged button for another group's hand is refused
        query = kwx.fake.forge_press(ann, question, void_data.replace("V:", "V:z", 1))
        await kwx.fake.wait_for_answer(query)
        assert "another group" in query.answer.text
        (nothing,) = await _send(kwx, ann, kwx.fake.private_chat(ann), "void", "1")
        assert "in your group" in nothing.text
    assert kwx.fake.count_calls(ok=False) == 0


async def test_an_admin_cannot_void_another_groups_hand_with_a_forged_button(kwx):
    """The void button names the group and the hand: an administrator of one group who forges the
    hand id of another group's hand is refused, and that group's ledger is untouched."""
    users = kwx.players(*NAMES)
    others = kwx.players("Dan", "Eve", "Fay")
    group, other_group = kwx.group(users), kwx.group(others, "Other group")
    async with kwx.running() as service:
        await kwx.start_bot(*users, *others)
        await _play(kwx, users, group, service)
        await _play(kwx, others, other_group, service)
        theirs = await _ledger(service, other_group)
        their_hand = theirs[0].hand_id
        (question,) = await _send(kwx, users[0], group, "void", "1")
        data = question.buttons[0][0].callback_data  # V:<our group>:<our hand>:y
        prefix, _hand, choice = data.rsplit(":", 2)
        forged = f"{prefix}:{b36(their_hand)}:{choice}"
        assert forged != data
        query = kwx.fake.forge_press(users[0], question, forged)
        await kwx.fake.wait_for_answer(query)
        await kwx.settle()
        assert "not one of mine" in query.answer.text
        assert await _ledger(service, other_group) == theirs
