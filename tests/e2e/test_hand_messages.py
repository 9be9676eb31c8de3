"""Hand messages: no stale "Waiting on" after the hand; /hand makes no useless edit of an old
message that has no buttons."""

from __future__ import annotations

from engine.tiles import Tile
from fakebot import MESSAGE_WRITE_METHODS

from .leaks import SpyPictures
from .scenarios import deal_scenario, load, perform


async def test_no_stale_waits_after_the_hand_and_hand_needs_no_useless_edit(kwx):
    scenario = load("d57_double_ron")
    users = kwx.players("Ann", "Ben", "Cat")
    ann, ben, cat = users
    group = kwx.group(users)
    async with kwx.running():
        await kwx.start_bot(*users)
        await deal_scenario(kwx, users, group, scenario)
        # Ben waits (no buttons): /hand sends his hand afresh and needs no edit of the old one
        assert kwx.hand_message(ben).buttons == []
        mark = kwx.fake.mark()
        kwx.fake.user_command(ben, kwx.fake.private_chat(ben), "hand")
        await kwx.settle()
        assert kwx.fake.count_calls("editMessageReplyMarkup", since=mark) == 0
        assert kwx.fake.count_calls(ok=False, since=mark) == 0
        for action in scenario["actions"]:
            await perform(kwx, users, action)
        for winner in (ann, cat):
            caption = kwx.hand_message(winner).content
            assert "The hand is over." in caption and "Waiting on" not in caption


async def test_a_caption_after_an_opponents_discard_names_it_and_what_happened_since(kwx):
    scenario = load("h2_one_liangdao")  # Ann: 亮倒 with 9s; Ben discards 5s; then it is Cat's turn
    users = kwx.players("Ann", "Ben", "Cat")
    _ann, ben, cat = users
    group = kwx.group(users)
    async with kwx.running():
        await kwx.start_bot(*users)
        await deal_scenario(kwx, users, group, scenario)
        for action in scenario["actions"][:2]:
            await perform(kwx, users, action)
        await kwx.settle()
        caption = kwx.hand_message(cat).content
        assert kwx.game_buttons(cat), "Cat's turn"
        lines = caption.splitlines()
        assert "Ann laid down." in lines
        assert "Last discard: 5 Bam by Ben." in lines
        assert any(line.startswith("<b>Your turn</b>") or line.startswith("Your turn") for line in lines), lines
        # Ben, who only waits now, is not told again (no edit for others' routine turns)
        assert "Last discard" not in kwx.hand_message(ben).content


def _writes(kwx, user, since):
    return [c.method for c in kwx.fake.calls_to(MESSAGE_WRITE_METHODS, chat=kwx.fake.private_chat(user), since=since)]


async def test_a_claim_window_is_a_picture_edit_and_others_discards_edit_nothing(kwx):
    """Ben (dealer) discards 白, which Ann may 碰: her one edit for the window carries a new picture
    drawn with that discard on the table; Cat, who can do nothing with it, gets no edit at all."""
    scenario = load("a9_1_liangdao_after_pong")
    kwx.pictures = spy = SpyPictures()
    users = kwx.players("Ann", "Ben", "Cat")
    ann, _ben, cat = users
    group = kwx.group(users)
    async with kwx.running():
        await kwx.start_bot(*users)
        await deal_scenario(kwx, users, group, scenario)
        await kwx.settle()
        mark = kwx.fake.mark()
        await perform(kwx, users, scenario["actions"][0])
        await kwx.settle()
        assert _writes(kwx, ann, mark) == ["editMessageMedia"]
        assert _writes(kwx, cat, mark) == []
        kind, view = spy.origin(kwx.hand_message(ann).photo.data)
        assert kind == "hand" and view.public.last_discard == (1, Tile.WHITE)
        assert [d.tile for d in view.public.seats[1].discards] == [Tile.WHITE]


async def test_a_closing_claim_window_edits_only_the_caption(kwx):
    """Cat passes on a tile she could claim: the window's buttons go with a caption edit, the
    picture (drawn when the window opened) stays."""
    scenario = load("h2_one_liangdao")
    users = kwx.players("Ann", "Ben", "Cat")
    cat = users[2]
    group = kwx.group(users)
    window = next(i for i, a in enumerate(scenario["actions"]) if a["act"] == "pass")
    async with kwx.running():
        await kwx.start_bot(*users)
        await deal_scenario(kwx, users, group, scenario)
        for action in scenario["actions"][:window]:
            await perform(kwx, users, action)
        await kwx.settle()
        assert _writes(kwx, cat, 0)[-1] == "editMessageMedia", "the window opened with a picture"
        mark = kwx.fake.mark()
        await perform(kwx, users, scenario["actions"][window])
        await kwx.settle()
        assert _writes(kwx, cat, mark) == ["editMessageCaption"]


async def test_a_new_hand_message_shows_the_table_of_now_not_an_uploaded_old_one(kwx):
    """Cat's tiles do not change while Ben discards and Ann pongs; /hand then sends her a new
    message whose picture is drawn afresh (the picture uploaded at the deal, same tiles, shows the
    old table and is not sent again)."""
    scenario = load("a9_1_liangdao_after_pong")
    kwx.pictures = spy = SpyPictures()
    users = kwx.players("Ann", "Ben", "Cat")
    cat = users[2]
    group = kwx.group(users)
    async with kwx.running():
        await kwx.start_bot(*users)
        await deal_scenario(kwx, users, group, scenario)
        await kwx.settle()
        _, dealt = spy.origin(kwx.hand_message(cat).photo.data)
        for action in scenario["actions"][:2]:
            await perform(kwx, users, action)
        await kwx.settle()
        kwx.fake.user_command(cat, kwx.fake.private_chat(cat), "hand")
        await kwx.settle()
        kind, view = spy.origin(kwx.hand_message(cat).photo.data)
        assert kind == "hand" and view.seat == 2 and view.concealed == dealt.concealed
        assert [m.tile for m in view.public.seats[0].melds] == [Tile.WHITE], "the table shows Ann's 碰"
