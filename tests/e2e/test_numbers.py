"""Numbers in commands (docs/security.md §7.1): every command that takes a number reads it
with one parser — ASCII digits, full-width digits read as ASCII — and answers anything else (a
superscript, another script's digits, a circled number, a number of 5000 digits) with its polite
usage message: no error logged, no "something went wrong", nothing changed."""

from __future__ import annotations

import logging

from kwx_bot.words.i18n import translator

from .scenarios import deal_scenario, load, perform

CALC = "123p789p234s46s88s 5s discard"
ODD = ["²", "٣", "३", "①", "¹6", "9" * 5000, "--3", "3²"]
"""Spellings that ``str.isdigit`` or ``int`` accept in part, none of them a number for the bot."""
WENT_WRONG = translator("en").gettext("Sorry, something went wrong. Nothing was changed.")


def _commands(odd: str) -> list[tuple[str, ...]]:
    """The eight commands that read a number, each given ``odd`` where the number goes."""
    return [
        ("new", odd),
        ("export", odd),
        ("replay", odd),
        ("verify", odd),
        ("history", odd),
        ("void", odd),
        ("settings", "cap", odd),
        ("calc", *CALC.split(), f"base:{odd}"),
    ]


async def _hand_played(kwx):
    """Ann, Ben and Cat play one scripted hand in a group, then Ann (who made the group, so administers
    it) ends the table."""
    users = kwx.players("Ann", "Ben", "Cat")
    group = kwx.group(users)
    await kwx.start_bot(*users)
    scenario = load("d57_double_ron")
    await deal_scenario(kwx, users, group, scenario)
    for action in scenario["actions"]:
        await perform(kwx, users, action)
    await kwx.settle()
    kwx.fake.user_command(users[0], group, "kill")
    await kwx.settle()
    return users, group


async def _state(kwx, group):
    store = kwx.service.store
    gid = await store.group_id_for_chat(group.id)
    table = await store.open_table_of_group(gid, bot_id=kwx.service.tables.bot_id)
    return await store.counts(), await store.group_settings(gid), await store.ledger_entries(gid), table


async def _answers(kwx, user, chat, words):
    mark = kwx.fake.mark()
    kwx.fake.user_command(user, chat, *words)
    await kwx.settle()
    return [m.content for m in kwx.fake.bot_messages(chat, since=mark)]


async def test_odd_digits_get_the_polite_usage_and_change_nothing(kwx, caplog):
    async with kwx.running():
        users, group = await _hand_played(kwx)
        ann = users[0]
        private = kwx.fake.private_chat(ann)
        before = await _state(kwx, group)
        caplog.clear()
        for odd in ODD:
            for words in _commands(odd):
                for chat in (group, private):
                    answers = await _answers(kwx, ann, chat, words)
                    assert answers, (words[0], odd, chat.type)
                    assert all(WENT_WRONG not in a for a in answers), (words[0], odd, answers)
                    if words[0] == "calc":
                        assert "base stake" in answers[0]
        errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert errors == []
        assert await _state(kwx, group) == before


async def test_full_width_digits_read_as_their_ascii_number(kwx):
    """What a Chinese input method types in full-width mode (``/new ３``) means what ``/new 3`` does."""
    async with kwx.running():
        users, group = await _hand_played(kwx)
        ann = users[0]
        for words in (("export", "{one}"), ("verify", "{one}"), ("history", "{one}"), ("void", "{one}"),
                      ("calc", *CALC.split(), "base:{two}")):  # fmt: skip
            ascii_words = [w.format(one="1", two="2") for w in words]
            wide_words = [w.format(one="１", two="２") for w in words]
            ascii_answers = await _answers(kwx, ann, group, ascii_words)
            assert ascii_answers and all(WENT_WRONG not in a for a in ascii_answers)
            assert await _answers(kwx, ann, group, wide_words) == ascii_answers, words[0]
        store = kwx.service.store
        gid = await store.group_id_for_chat(group.id)
        await _answers(kwx, ann, group, ["settings", "cap", "１６"])
        assert (await store.group_settings(gid))["rules"]["cap"] == "16"
        await _answers(kwx, ann, group, ["new", "２"])
        table = await store.open_table_of_group(gid, bot_id=kwx.service.tables.bot_id)
        assert table is not None and table.options["seats"] == 2
