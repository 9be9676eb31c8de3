"""Command menus registered per scope and language from one source, /help, and a failing command
answered with a short message in the chat's language."""

from __future__ import annotations

import pytest

from kwx_bot.edge.handlers import COMMANDS
from kwx_bot.words.help_text import MenuScope, command_menu
from kwx_bot.words.i18n import translator

SCOPES = {
    MenuScope.PRIVATE: {"type": "all_private_chats"},
    MenuScope.GROUP: {"type": "all_group_chats"},
    MenuScope.ADMINS: {"type": "all_chat_administrators"},
}


async def test_command_menus_per_scope_and_language(kwx):
    async with kwx.running():
        await kwx.settle()
    for menu, scope in SCOPES.items():
        for code, lang in (("", "en"), ("en", "en"), ("zh", "zh_CN")):
            registered = kwx.fake.bot_commands(scope, code)
            expected = command_menu(translator(lang), menu)
            assert [(c["command"], c["description"]) for c in registered] == expected, (menu, code)
            assert {c["command"] for c in registered} <= set(COMMANDS)  # every menu entry is answered
    private = [c["command"] for c in kwx.fake.bot_commands(SCOPES[MenuScope.PRIVATE], "en")]
    admins = [c["command"] for c in kwx.fake.bot_commands(SCOPES[MenuScope.ADMINS], "en")]
    assert "hand" in private and "settings" not in private and {"settings", "kill", "kick", "season"} <= set(admins)
    assert kwx.fake.bot_commands(SCOPES[MenuScope.GROUP], "zh") != kwx.fake.bot_commands(SCOPES[MenuScope.GROUP], "en")


async def test_help_in_a_group_and_in_private(kwx):
    ann = kwx.players("Ann")[0]
    group = kwx.group([ann])
    async with kwx.running():
        await kwx.start_bot(ann)
        for chat in (group, kwx.fake.private_chat(ann)):
            mark = kwx.fake.mark()
            kwx.fake.user_command(ann, chat, "help")
            await kwx.settle()
            (text,) = kwx.fake.bot_messages(chat, since=mark)
            for command in ("/new", "/score", "/history", "/settle", "/export", "/rules", "/calc", "/settings"):
                assert command in text.text
        mark = kwx.fake.mark()
        kwx.fake.user_command(ann, group, "help", "calc")
        await kwx.settle()
        assert "/calc 123p789p234s46s88s 5s discard" in kwx.fake.bot_messages(group, since=mark)[0].text


@pytest.mark.parametrize("language", ["en", "zh_CN"])
async def test_a_failing_command_gets_a_short_apology_in_the_chats_language(kwx, caplog, language):
    ann = kwx.players("Ann")[0]
    group = kwx.group([ann])
    async with kwx.running() as service:
        await kwx.start_bot(ann)
        gid = None
        async with service.store.transaction() as tx:
            gid = await tx.ensure_group(group.id, group.title)
            await tx.set_setting(gid, "language", language)

        async def broken(cmd):
            raise RuntimeError("the score board is on fire")

        service.reports.score = broken
        mark = kwx.fake.mark()
        kwx.fake.user_command(ann, group, "score")
        await kwx.settle()
        (apology,) = kwx.fake.bot_messages(group, since=mark)
    expected = translator(language).gettext("Sorry, something went wrong. Nothing was changed.")
    assert apology.text == expected
    assert "the score board is on fire" in caplog.text and str(group.id) in caplog.text


async def test_calc_in_chat_on_rules_d_vectors_under_the_groups_rules(kwx):
    import re

    from tests.kwx_bot.service.test_calc import VECTORS

    ann = kwx.players("Ann")[0]
    group = kwx.group([ann])  # Ann created the group: she may change its rules
    chosen = [v for v in VECTORS if v.id in ("D01", "D02", "D08", "D09", "D11", "D22", "D25", "D33")]
    assert len(chosen) == 8
    async with kwx.running():
        await kwx.start_bot(ann)

        async def calc(*words):
            mark = kwx.fake.mark()
            kwx.fake.user_command(ann, group, "calc", *words)
            await kwx.settle()
            (reply,) = kwx.fake.bot_messages(group, since=mark)
            return reply.text

        for vector in chosen:
            text = await calc(*vector.text.split())
            result = re.search(r"^Result: .*$", text, re.M)
            if vector.deltas is None:
                assert result is None and "Not a legal win" in text, vector.id
            else:
                assert [int(n) for n in re.findall(r"[+-]?\d+(?= ·|\s\(base)", result[0])] == list(vector.deltas)
        # the group's rules are the calculator's: with 屁胡 allowed on a discard D02 becomes a win
        kwx.fake.user_command(ann, group, "settings", "pihu_ron", "on")
        await kwx.settle()
        assert "Result: winner +1 · discarder -1 · third player 0" in await calc(*chosen[1].text.split())
        for bad in (("123p", "5s"), ("123p789p234s46s88s", "9m", "discard"), ("hello",)):
            text = await calc(*bad)
            assert "Result:" not in text and "/calc" in text
