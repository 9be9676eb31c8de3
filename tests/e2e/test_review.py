"""``/review N``: each person who played a finished hand gets, privately and in his own language, his
decisions where the AI would have played otherwise — one picture readable on a phone and a one-line
summary — and nobody else gets anything; a hand in play, a hand that does not exist and a request in a
private chat are refused politely."""

from __future__ import annotations

import io
import json
import random
import re

from PIL import Image

from kwx_bot.service import game

from .scenarios import open_table


async def _command(kwx, user, chat, *args):
    mark = kwx.fake.mark()
    kwx.fake.user_command(user, chat, *args)
    await kwx.settle()
    return kwx.fake.bot_messages(chat, since=mark)


async def test_each_player_gets_his_own_review_privately(kwx):
    ann, ben = kwx.players("Ann", "Ben")
    cat = kwx.fake.create_user("Cat", language_code="zh-hans")
    dan, eve = kwx.players("Dan", "Eve")  # Dan: a member who did not play; Eve: a stranger
    users = [ann, ben, cat]
    group = kwx.group([*users, dan])
    async with kwx.running() as service:
        service.reviewer.playouts = 8  # the strong reviewer's depth: a few playouts keep the test quick
        await kwx.start_bot(*users, dan, eve)
        table_id = await open_table(kwx, users, group)
        await service.prepare_deal(table_id, {"seed": "review e2e", "dealer": 0})  # the same hand every run
        await kwx.press(ann, kwx.fake.bot_messages(group)[0], "Start")
        # while the hand is played its decisions would show concealed tiles: refused, nothing sent
        mark = kwx.fake.mark()
        (during,) = await _command(kwx, ben, group, "review", "1")
        assert during.photo is None and "still being played" in during.text
        assert all(m.photo is None for u in users for m in kwx.fake.bot_messages(kwx.fake.private_chat(u), since=mark))

        await kwx.play_randomly(users, group, random.Random(3))
        mark = kwx.fake.mark()
        (ack,) = await _command(kwx, dan, group, "review", "1")
        assert "Reviewing hand 1" in ack.text and "3 players" in ack.text

        gid = await service.store.group_id_for_chat(group.id)
        hand = (await service.store.hands_numbered(gid, 1))[0]
        stored = [e.data for e in await service.store.hand_events(hand.hand_id)]
        record = game.hand_record(stored)
        rows = await service.store.hand_events(hand.hand_id)
        pressed = game.pressed_seqs([(e.data, e.actor) for e in rows])
        assert pressed  # the players' own presses
        seat_of = {r.user_id: r.seat for r in await service.store.ledger_of_hand(hand.hand_id)}
        for user in users:
            mine = kwx.fake.bot_messages(kwx.fake.private_chat(user), since=mark)
            assert len(mine) == 1, [m.content for m in mine]
            (msg,) = mine
            # how many decisions the player made does not depend on the reviewer
            ranking = ("normal", game.normal_ranking(game.rules_from_json(stored[0]["rules"])))
            made = game.review_record(
                json.loads(json.dumps(record)), [seat_of[user.id]], evaluator=ranking, pressed=pressed
            )
            if msg.photo is None:
                decisions = made.seats[0].decisions
                assert decisions == 0 or ("Well played" in msg.text and f"{decisions} of your decisions" in msg.text)
                continue
            image = Image.open(io.BytesIO(msg.photo.data))
            assert image.width == 600 and image.height <= 1.4 * 600
            pattern = r"有 (\d+) 个决定" if user is cat else r"(\d+) decisions? differed"
            differed = int(re.search(pattern, msg.caption).group(1))
            assert 1 <= differed <= made.seats[0].decisions
            if user is cat:
                assert "你的第 1 局复盘" in msg.caption and "Mahjong night" in msg.caption
            else:
                assert "Your review of hand 1" in msg.caption and "Mahjong night" in msg.caption
        assert any(kwx.fake.bot_messages(kwx.fake.private_chat(u), since=mark)[0].photo for u in users)
        # Dan asked but did not play: nothing private; the group got only the acknowledgement
        assert kwx.fake.bot_messages(kwx.fake.private_chat(dan), since=mark) == []
        assert [m.message_id for m in kwx.fake.bot_messages(group, since=mark)] == [ack.message_id]

        # a stranger cannot ask in the group; in private he is told where to ask, and gets no review
        (where,) = await _command(kwx, eve, kwx.fake.private_chat(eve), "review", "1")
        assert where.photo is None and "in the group where hand N was played" in where.text
        (missing,) = await _command(kwx, ann, group, "review", "7")
        assert missing.photo is None and "no hand 7" in missing.text
        (bad,) = await _command(kwx, ann, group, "review", "x")
        assert "/review N" in bad.text
    assert kwx.fake.count_calls(ok=False) == 0
