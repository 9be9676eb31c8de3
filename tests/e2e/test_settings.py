"""/settings (group admins only, anonymous admins included), changes that apply from the next hand,
/rules in plain words, a refused rule combination, and the group language."""

from __future__ import annotations

from engine.rules import Cap

from .scenarios import load, open_table, perform


async def _send(kwx, user, chat, *words, anonymous=False):
    mark = kwx.fake.mark()
    if anonymous:
        kwx.fake.user_sends(None, chat, " ".join([f"/{words[0]}@{kwx.fake.bot.username}", *words[1:]]),
                            anonymous_admin=True)  # fmt: skip
    else:
        kwx.fake.user_command(user, chat, *words)
    await kwx.settle()
    return kwx.fake.bot_messages(chat, since=mark)


async def test_only_admins_change_settings_and_they_apply_from_the_next_hand(kwx):
    users = kwx.players("Ann", "Ben", "Cat")
    ann, ben, _cat = users
    group = kwx.group(users)  # Ann created the group
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        # a member who is not an administrator is refused politely; nothing is shown or changed
        (refusal,) = await _send(kwx, ben, group, "settings")
        assert "only the group's administrators" in refusal.text and refusal.buttons == []
        assert refusal.reply_to is not None
        # an anonymous administrator (a message sent as the group) gets the menu
        (menu,) = await _send(kwx, None, group, "settings", anonymous=True)
        assert "Settings" in menu.text and "Cap (封顶)" in menu.button_texts
        # a button pressed by a non-admin is refused and changes nothing
        query = await kwx.press(ben, menu, "Cap (封顶)")
        assert query.answer.show_alert and "administrators" in query.answer.text
        # the group's creator opens the cap page and picks ×16
        await kwx.press(ann, kwx.fake.message(group, menu.message_id), "Cap (封顶)")
        page = kwx.fake.message(group, menu.message_id)
        assert "✓ ×8; double / triple dragon seven pairs ×16" in page.button_texts and "« Back" in page.button_texts
        query = await kwx.press(ann, page, "×16")
        assert "Saved" in query.answer.text
        menu = kwx.fake.message(group, menu.message_id)
        assert "Cap (封顶): ×16" in menu.text
        await kwx.press(ann, menu, "Time to discard")
        await kwx.press(ann, kwx.fake.message(group, menu.message_id), "45 s")
        assert "Time to discard: 45 s" in kwx.fake.message(group, menu.message_id).text
        await kwx.press(ann, kwx.fake.message(group, menu.message_id), "Close")
        assert kwx.fake.message(group, menu.message_id).buttons == []
        # the text form: a value the rules engine refuses is explained; a good one is saved
        (bad,) = await _send(kwx, ann, group, "settings", "kwx_value", "3")
        assert "refused" in bad.text and "kwx_value" in bad.text
        (good,) = await _send(kwx, ann, group, "settings", "base", "2")
        assert "Saved" in good.text and "Base stake (底金): 2" in good.text
        gid = await service.store.group_id_for_chat(group.id)
        assert (await service.store.group_settings(gid))["rules"] == {"preset": "standard", "cap": "16", "base": 2}
        # /rules in plain words
        (rules,) = await _send(kwx, ben, group, "rules")
        assert "Base stake (底金): 2" in rules.text and "×16 per share" in rules.text
        assert "45 s to discard" in rules.text

        # a hand in play keeps its rules; the next hand gets the new ones
        scenario = load("dealer_complete_hand")
        table_id = await open_table(kwx, users, group)
        lobby = kwx.fake.last_message(group)
        assert "base stake 2" in lobby.text  # a lobby adopts the settings at once
        deal = {"hands": scenario["hands"], "wall": scenario["wall"], "dealer": scenario["dealer"]}
        await service.prepare_deal(table_id, deal)
        await kwx.press(ann, lobby, "Start")
        live = service.tables.cached()[0]
        assert live.state.rules.cap is Cap.SIXTEEN and live.row.options["discard_seconds"] == 45
        await _send(kwx, ann, group, "settings", "cap", "32")
        assert live.state.rules.cap is Cap.SIXTEEN
        (rules,) = await _send(kwx, ben, group, "rules")
        assert "×32 per share" in rules.text and "The hand in play keeps its rules" in rules.text
        for action in scenario["actions"]:
            await perform(kwx, users, action)
        await service.prepare_deal(table_id, {"seed": "next"})
        await kwx.press(ben, kwx.fake.last_message(group), "Next hand")
        assert live.state.rules.cap is Cap.THIRTY_TWO and live.state.rules.base == 2


async def test_group_language_setting_and_private_languages(kwx):
    li = kwx.fake.create_user("李", language_code="zh-hans")
    bob = kwx.fake.create_user("Bob", language_code="en")
    group = kwx.group([li, bob])  # 李 created the group; the operator's default is English
    async with kwx.running():
        await kwx.start_bot(li, bob)
        (menu,) = await _send(kwx, li, group, "settings")
        await kwx.press(li, menu, "Group language")
        query = await kwx.press(li, kwx.fake.message(group, menu.message_id), "中文")
        assert "已保存" in query.answer.text
        assert "设置" in kwx.fake.message(group, menu.message_id).text  # the menu itself switched
        (rules,) = await _send(kwx, bob, group, "rules")
        assert "底金" in rules.text and "Base stake" not in rules.text
        (helps,) = await _send(kwx, bob, group, "help")
        assert "卡五星" in helps.text and "/score" in helps.text
        # private chats follow each user's Telegram language
        for user, words in ((li, "给线下打的一手牌算分"), (bob, "score a hand played at a real table")):
            (usage,) = await _send(kwx, user, kwx.fake.private_chat(user), "calc")
            assert words in usage.text
        hand = ("123p789p234s46s88s", "5s", "discard")
        (zh,) = await _send(kwx, li, kwx.fake.private_chat(li), "calc", *hand)
        (en,) = await _send(kwx, bob, kwx.fake.private_chat(bob), "calc", *hand)
        assert "倍数：×2" in zh.text and "Multiplier: ×2" in en.text
        for user, words in ((li, "你的战绩"), (bob, "Your standings")):
            (mine,) = await _send(kwx, user, kwx.fake.private_chat(user), "score", "me")
            assert words in mine.text
        (oops,) = await _send(kwx, bob, kwx.fake.private_chat(bob), "calc", "123x", "5s")
        assert "/calc" in oops.text and "Multiplier" not in oops.text
