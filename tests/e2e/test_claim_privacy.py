"""The group cannot tell whether a discard opened a claim window (docs/security.md §4): the live
table's caption and the view its picture is drawn from are the same after a discard someone may
claim as after one nobody may; the window's close (everyone passed) edits nothing in the group; the
discarder's own hand message does not tell either; a claimant sees only itself asked."""

from __future__ import annotations

from dataclasses import replace

from engine.tiles import Tile, format_tiles, parse_tiles

from .leaks import SpyPictures
from .scenarios import open_table

# tests/engine/test_spectator.py's pair of deals: docs/rules.md §D G3's, where the dealer's first
# discard (8s) is claimable by nobody, and the same with a pair of 8s in seat 2's hand
HANDS = ["3344489p247779s8s", "2223p56679s5667z", "156667779p349s6z"]
WALL = "75z4s8p616s14p1s8p9s5p5z693p3s2p6z2s51p522s77z538s1p13s875p854s5z9p18s"


def _pair_of_8s() -> dict:
    hand = parse_tiles(HANDS[2])
    hand.remove(Tile.P6)
    hand.remove(Tile.P6)
    wall = parse_tiles(WALL)
    wall[30] = wall[37] = Tile.P6
    hands = [HANDS[0], HANDS[1], format_tiles([*hand, Tile.S8, Tile.S8])]
    return {"hands": hands, "wall": format_tiles(wall, sort=False), "dealer": 0}


async def _after_the_discard(kwx, spy, deal):
    """A table of Ann, Ben and Cat in a group of its own, dealt ``deal``; Ann discards 8s.  Returns
    what the group and Ann see right after it, and the users."""
    users = kwx.players("Ann", "Ben", "Cat")
    group = kwx.group(users)
    await kwx.start_bot(*users)
    table_id = await open_table(kwx, users, group)
    await kwx.service.prepare_deal(table_id, deal)
    await kwx.press(users[0], kwx.fake.bot_messages(group)[0], "Start")
    await kwx.settle()
    mark = kwx.fake.mark()
    await kwx.press(users[0], kwx.hand_message(users[0]), "▶8 Bam")  # the drawn tile
    await kwx.settle()
    return users, group, mark, _seen(kwx, spy, group, users[0])


def _seen(kwx, spy, group, ann):
    live = kwx.fake.bot_messages(group)[-1]  # the live table (the hand-start message)
    kind, table_view = spy.origin(live.photo.data)
    hand = kwx.hand_message(ann)
    hand_kind, hand_view = spy.origin(hand.photo.data)
    assert (kind, hand_kind) == ("table", "hand")
    # no caption or picture shows the event count (a window's opening and answers add events)
    return (live.content, replace(table_view, seq=0), hand.content, replace(hand_view.public, seq=0), hand_view.seat)


async def test_the_group_cannot_tell_a_claim_window_from_none(kwx):
    kwx.pictures = spy = SpyPictures()
    async with kwx.running():
        _users, _group, _mark, plain = await _after_the_discard(kwx, spy, {"hands": HANDS, "wall": WALL, "dealer": 0})
        users, group, mark, claimable = await _after_the_discard(kwx, spy, _pair_of_8s())
        ann, ben, cat = users
        assert "Ben to play" in plain[0]
        assert kwx.game_buttons(cat) and not kwx.game_buttons(ben)  # Cat may pong: the window is open
        assert claimable == plain
        # Cat sees the window with only herself marked to act
        _kind, cat_view = spy.origin(kwx.hand_message(cat).photo.data)
        assert cat_view.public.phase == "claim" and cat_view.public.to_act == (2,)
        # Cat passes: Ben draws and the group's table already shows exactly that -- no edit
        group_writes = len(kwx.fake.calls_to(("editMessageMedia", "editMessageCaption", "sendMessage",
                                              "sendPhoto"), chat=group.id, since=mark))  # fmt: skip
        await kwx.press(cat, kwx.hand_message(cat), "Pass")
        await kwx.settle()
        assert kwx.game_buttons(ben)
        assert _seen(kwx, spy, group, ann) == claimable
        after = kwx.fake.calls_to(("editMessageMedia", "editMessageCaption", "sendMessage", "sendPhoto"),
                                  chat=group.id, since=mark)  # fmt: skip
        assert len(after) == group_writes


async def test_a_claim_time_out_passes_without_counting_toward_auto_play(kwx):
    """A seat put on auto-play in a claim window would tell the group it could claim (the notice,
    the "(auto)" mark): a claim window's time-out passes and counts toward 托管 no more."""
    kwx.claim_seconds = 0.3
    async with kwx.running() as service:
        users = kwx.players("Ann", "Ben", "Cat")
        group = kwx.group(users)
        await kwx.start_bot(*users)
        table_id = await open_table(kwx, users, group)
        await service.prepare_deal(table_id, _pair_of_8s())
        await kwx.press(users[0], kwx.fake.bot_messages(group)[0], "Start")
        await kwx.settle()
        await kwx.press(users[0], kwx.hand_message(users[0]), "▶8 Bam")
        assert kwx.game_buttons(users[2])  # Cat may pong; she does not answer
        await kwx.fake.wait_for(lambda: bool(kwx.game_buttons(users[1])), 10, message="Ben's turn")
        await kwx.settle()
        seats = await service.store.seats(table_id)
        assert [(s.on_auto, s.timeouts) for s in seats] == [(False, 0)] * 3
        events = await service.store.hand_events(1)
        assert any(e.kind == "answered" and e.data["seat"] == 2 and e.actor is None for e in events)
