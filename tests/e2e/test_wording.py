"""Small wording fixes found by playing: private messages that are no command get a hint, extra
arguments are not silently ignored, Chinese sentences are not separated by spaces."""

from __future__ import annotations

import random


async def _send(kwx, user, chat, text):
    mark = kwx.fake.mark()
    kwx.fake.user_sends(user, chat, text)
    await kwx.settle()
    return kwx.fake.bot_messages(chat, since=mark)


async def test_private_chat_answers_unknown_commands_and_plain_text_with_a_hint(kwx):
    (ann,) = kwx.players("Ann")
    (li,) = kwx.players("李", language_code="zh-hans")
    async with kwx.running():
        await kwx.start_bot(ann, li)
        chat = kwx.fake.private_chat(ann)
        (unknown,) = await _send(kwx, ann, chat, "/frobnicate now")
        assert "I don't know /frobnicate" in unknown.text and "/help" in unknown.text
        assert unknown.reply_to is not None
        (plain,) = await _send(kwx, ann, chat, "hello?")
        assert "I only answer commands here" in plain.text and "/help" in plain.text
        (zh,) = await _send(kwx, li, kwx.fake.private_chat(li), "你好")
        assert "发送 /help" in zh.text
        (known,) = await _send(kwx, ann, chat, "/help")  # a known command still gets its own answer
        assert "Ka Wu Xing (卡五星): 3 players" in known.text
        group = kwx.group([ann])
        assert await _send(kwx, ann, group, f"/frobnicate@{kwx.fake.bot.username}") == []  # groups: silence


async def test_score_settle_and_export_say_what_they_take(kwx):
    users = kwx.players("Ann", "Ben", "Cat")
    group = kwx.group(users)
    async with kwx.running():
        await kwx.start_bot(*users)
        uname = kwx.fake.bot.username
        (score,) = await _send(kwx, users[1], group, f"/score@{uname} bob")
        assert "Use /score for everyone's standings" in score.text and score.reply_to is not None
        (settle,) = await _send(kwx, users[1], group, f"/settle@{uname} x")
        assert settle.text == "/settle takes no arguments: send just /settle."
        (export,) = await _send(kwx, users[1], group, f"/export@{uname} all")
        # /export N is a hand's record since hand records came; any other argument is explained
        assert (
            export.text
            == "Use /export for the group's ledger (CSV), or /export N for hand N's record (as /history numbers it)."
        )
        (mine,) = await _send(kwx, users[1], group, f"/score@{uname} me")
        assert "No scored hands yet" in mine.text or "season" in mine.text
        (private,) = await _send(kwx, users[1], kwx.fake.private_chat(users[1]), "/score bob")
        assert "/score me" in private.text


async def test_kill_in_chinese_has_no_stray_spaces(kwx):
    kwx.default_language = "zh_CN"
    users = kwx.players("安", "本", "凯", language_code="zh-hans")
    group = kwx.group(users)
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        kwx.fake.user_command(users[0], group, "new")
        await kwx.settle()
        lobby = kwx.fake.last_message(group)
        for u in users[1:]:
            await kwx.press(u, lobby, "加入")
        table = await service.store.open_table_of_group(
            await service.store.group_id_for_chat(group.id), bot_id=service.tables.bot_id
        )
        await service.prepare_deal(table.table_id, {"seed": "kill-zh"})
        await kwx.press(users[0], kwx.fake.message(group, lobby.message_id), "开始")
        rng = random.Random(2)
        for _ in range(3):
            movers = [(u, kwx.game_buttons(u)) for u in users if kwx.game_buttons(u)]
            user, buttons = rng.choice(movers)
            await kwx.press(user, kwx.hand_message(user), data=rng.choice(buttons)[1])
        (done,) = await _send(kwx, users[0], group, f"/kill@{kwx.fake.bot.username}")
        assert done.text == "管理员结束了牌桌。未打完的这一局不计分。发送 /new 再开一桌。"
        for u in users:  # each hand message says it too, in the player's language
            await kwx.fake.wait_for(lambda u=u: "（/kill）" in kwx.hand_message(u).caption, 5)
            assert kwx.hand_message(u).caption.endswith("管理员结束了牌桌（/kill）；本局不计分。")
