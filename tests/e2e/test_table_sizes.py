"""Tables of 2 and 4 seats and four members at a 3-seat table, through the fake Telegram
(docs/rules.md §A2.1): ``/new`` with a game and a size, the lobby's choice buttons, whole hands with
people and AI seats to a win and a zero-sum ledger, and the member who sits each hand out."""

from __future__ import annotations

import random
from collections import Counter

from engine.game.basics import kinds_for
from engine.tiles import format_tiles, parse_tiles
from kwx_bot.service.game import RuleSet
from tests.e2e.leaks import SpyPictures, assert_public_view, leaked, public_and_own

DEALER_WINS = "123789p2344688s5s"  # complete: the dealer wins at once by 自摸 (docs/rules.md §A7.4)


def dealer_wins_deal(rules: RuleSet, dealer: int = 0) -> dict[str, object]:
    """A scripted deal at ``rules.players`` seats in which the dealer's 14 tiles are complete."""
    left = Counter({t: 4 for t in kinds_for(rules)})
    left.subtract(parse_tiles(DEALER_WINS))
    rest = list(left.elements())
    hands = []
    for seat in range(rules.players):
        if seat == dealer:
            hands.append(DEALER_WINS)
        else:
            hands.append(format_tiles(rest[:13]))
            rest = rest[13:]
    return {"hands": hands, "wall": format_tiles(rest)}


async def _lobby(kwx, user, group, *args):
    kwx.fake.user_command(user, group, "new", *args)
    await kwx.settle()
    return kwx.fake.last_message(group)


async def _four_start_with_a_dealer_win(kwx, service, users, group, rules):
    """The first user opens table 1, the other three join, and hand 1 is dealt with ``users[0]``
    dealing a hand she wins at once."""
    lobby = await _lobby(kwx, users[0], group)
    for u in users[1:]:
        await kwx.press(u, kwx.fake.message(group, lobby.message_id), "Join")
    await service.prepare_deal(1, dealer_wins_deal(rules) | {"dealer": 0})
    await kwx.press(users[0], kwx.fake.message(group, lobby.message_id), "Start")


async def _ledger_sums(service, table_id):
    rows = await service.store.ledger_of_table(table_id)
    per_hand: dict[int, int] = {}
    for r in rows:
        per_hand[r.hand_id] = per_hand.get(r.hand_id, 0) + r.delta
    return rows, per_hand


def assert_no_hidden_tiles(kwx, spy, group, users_by_seat, events):
    """Group: only public tiles in texts and only public pictures; each player: public or own tiles."""
    public, own = public_and_own(events)
    assert leaked(kwx.fake.seen_texts(group), public) == set()
    for photo in kwx.fake.seen_photos(group):
        kind, view = spy.origin(photo.data)
        assert kind in ("table", "reveal", "result") and view.__class__.__name__ == "PublicView"
        assert_public_view(view, events)
    for seat, user in users_by_seat.items():
        chat = kwx.fake.private_chat(user)
        assert leaked(kwx.fake.seen_texts(chat), public | own[seat], own_waits=True) == set()
        for photo in kwx.fake.seen_photos(chat):
            kind, view = spy.origin(photo.data)
            assert kind == "hand" and view.seat == seat
            assert_public_view(view.public, events, skip=seat)  # the table in the hand picture


async def test_new_answers_bad_arguments_politely_and_opens_nothing(kwx):
    users = kwx.players("Ann", "Ben")
    group = kwx.group(users)
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        for args, words in ((("5",), "2, 3 or 4 seats"), (("mahjong",), "did not understand “mahjong”")):
            reply = await _lobby(kwx, users[0], group, *args)
            assert words in reply.content and "/new kaxinwu 2" in reply.content
        assert (
            await service.store.open_table_of_group(
                await service.store.group_id_for_chat(group.id), bot_id=service.tables.bot_id
            )
            is None
        )


async def test_a_four_seat_table_with_ai_seats_plays_to_a_win(kwx):
    kwx.pictures = spy = SpyPictures()
    users = kwx.players("Ann", "Ben")
    ann, ben = users
    group = kwx.group(users)
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        lobby = await _lobby(kwx, ann, group, "4")
        assert "Ka Wu Xing (卡五星) · 4 seats" in lobby.content and "4. (free)" in lobby.content
        assert "Four seats" in lobby.content  # the rules: the four_seats preset
        await kwx.press(ben, lobby, "Join")
        lobby = kwx.fake.message(group, lobby.message_id)
        query = await kwx.press(ann, lobby, "Start")
        assert query.answer.show_alert and "Four seats must be taken" in query.answer.text
        for _ in range(2):
            await kwx.press(ann, kwx.fake.message(group, lobby.message_id), "Add AI")
        lobby = kwx.fake.message(group, lobby.message_id)
        assert "Add AI" not in lobby.button_texts  # full: four seats
        table = await service.store.open_table_of_group(
            await service.store.group_id_for_chat(group.id), bot_id=service.tables.bot_id
        )
        rules = RuleSet.from_json(table.rules)
        assert rules.players == 4 and rules.suits == ("p", "s", "m")
        await service.prepare_deal(table.table_id, dealer_wins_deal(rules) | {"dealer": 0})
        await kwx.press(ann, lobby, "Start")
        await kwx.act(ann, "w")
        await kwx.settle()
        rows, sums = await _ledger_sums(service, table.table_id)
        assert len(rows) == 4 and set(sums.values()) == {0}
        assert [r.delta > 0 for r in rows] == [True, False, False, False]
        hand = await service.store.current_hand(table.table_id)
        first = [e.data for e in await service.store.hand_events(hand.hand_id)]
        assert_no_hidden_tiles(kwx, spy, group, {0: ann, 1: ben}, first)
        # a second hand from a shuffled wall, played by people and AI seats to its end
        await service.prepare_deal(table.table_id, {"seed": "four-seats-2"})
        await kwx.press(ben, kwx.fake.last_message(group), "Next hand")
        await kwx.play_randomly(users, group, random.Random(4))
        await kwx.settle()
        rows, sums = await _ledger_sums(service, table.table_id)
        assert len(rows) == 8 and set(sums.values()) == {0}
        photos = kwx.fake.seen_photos(group)
        assert photos and all(spy.origin(p.data)[1].__class__.__name__ == "PublicView" for p in photos)


async def test_a_two_seat_table_plays_to_a_win_and_the_lobby_buttons_choose_the_size(kwx):
    kwx.pictures = spy = SpyPictures()
    users = kwx.players("Ann", "Ben")
    ann, ben = users
    group = kwx.group(users)
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        lobby = await _lobby(kwx, ann, group)
        assert "· 3 seats" in lobby.content and "✓ 3 seats" in lobby.button_texts
        await kwx.press(ben, lobby, "Join")
        query = await kwx.press(ben, kwx.fake.message(group, lobby.message_id), "2 seats")
        assert query.answer.show_alert and "opened the table" in query.answer.text  # only the opener chooses
        await kwx.press(ann, kwx.fake.message(group, lobby.message_id), "2 seats")
        lobby = kwx.fake.message(group, lobby.message_id)
        assert "· 2 seats" in lobby.content and "✓ 2 seats" in lobby.button_texts and "3." not in lobby.content
        await kwx.press(ann, lobby, "Leave")  # Ann leaves; Ben and an AI play
        await kwx.press(ann, kwx.fake.message(group, lobby.message_id), "Add AI")
        table = await service.store.open_table_of_group(
            await service.store.group_id_for_chat(group.id), bot_id=service.tables.bot_id
        )
        rules = RuleSet.from_json(table.rules)
        assert rules.players == 2 and table.rules == "two_seats"
        seats = await service.store.seats(table.table_id)
        assert [(s.seat, s.user_id is None) for s in seats] == [(0, True), (1, False)]
        await service.prepare_deal(table.table_id, dealer_wins_deal(rules, dealer=1) | {"dealer": 1})
        await kwx.press(ben, kwx.fake.message(group, lobby.message_id), "Start")
        await kwx.act(ben, "w")
        await kwx.settle()
        rows, sums = await _ledger_sums(service, table.table_id)
        assert [(r.seat, r.delta > 0) for r in rows] == [(0, False), (1, True)] and set(sums.values()) == {0}
        hand = await service.store.current_hand(table.table_id)
        events = [e.data for e in await service.store.hand_events(hand.hand_id)]
        assert_no_hidden_tiles(kwx, spy, group, {1: ben}, events)


async def test_kaxinwu_is_offered_at_two_seats(kwx):
    users = kwx.players("Ann")
    group = kwx.group(users)
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        reply = await _lobby(kwx, users[0], group, "kaxinwu", "2")
        table = await service.store.open_table_of_group(
            await service.store.group_id_for_chat(group.id), bot_id=service.tables.bot_id
        )
        assert table is not None, reply.content
        assert "Ka Xin Wu (卡心五) · 2 seats" in reply.content
        rules = RuleSet.from_json(table.rules)
        assert rules.players == 2 and rules.ruleset.value == "kaxinwu"


async def test_four_members_take_turns_sitting_out_and_the_ledger_covers_all_four(kwx):
    users = kwx.players("Ann", "Ben", "Cat", "Dan")
    ann, ben, cat, dan = users
    group = kwx.group(users)
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        lobby = await _lobby(kwx, ann, group)
        assert "4. (free: a fourth member)" in lobby.content
        for u in (ben, cat, dan):
            query = await kwx.press(u, kwx.fake.message(group, lobby.message_id), "Join")
            assert not query.answer.show_alert, query.answer
            await kwx.settle()
            confirmed = kwx.fake.last_message(kwx.fake.private_chat(u)).content
            assert "You took a seat" in confirmed
            # the fourth member is told, in the toast and privately, that one of the four sits each hand out
            fourth = u is dan
            assert ("sits out" in query.answer.text) is fourth, query.answer.text
            assert ("one of you sits out each hand" in confirmed) is fourth, confirmed
        assert "the winner sits out the next hand" in confirmed  # who: the table's rule (docs/rules.md §A2.1)
        lobby = kwx.fake.message(group, lobby.message_id)
        assert "4. Dan" in lobby.content and "Add AI" not in lobby.button_texts
        table_id = (
            await service.store.open_table_of_group(
                await service.store.group_id_for_chat(group.id), bot_id=service.tables.bot_id
            )
        ).table_id
        rules = RuleSet()
        # Hand 1: Dan, the last to sit down, sits out; Ann deals and wins at once.
        await service.prepare_deal(table_id, dealer_wins_deal(rules) | {"dealer": 0})
        await kwx.press(ann, lobby, "Start")
        sat_out = []
        for hand_no, (winner, out) in enumerate([(ann, dan), (ben, ann), (cat, ben)], start=1):
            hand = await service.store.current_hand(table_id)
            assert hand.hand_no == hand_no
            by_seat = {s.seat: s.user_id for s in await service.store.seats(table_id)}
            assert by_seat[3] == out.id and hand.sitting_out == out.id, hand_no
            assert by_seat[hand.dealer] == winner.id  # the scripted deal makes the dealer win
            captions = [m.content for m in kwx.fake.bot_messages(group) if m.photo is not None]
            assert f"Sitting out this hand: {out.first_name}" in captions[-1]  # the group's table says so
            told = kwx.fake.last_message(kwx.fake.private_chat(out)).content  # and he is told privately
            assert f"You sit out hand {hand_no} at Mahjong night" in told, told
            started = kwx.fake.message(group, lobby.message_id).content  # the four members, no free chair
            assert all(u.first_name in started for u in users) and "free" not in started, started
            before = len(kwx.fake.seen_photos(kwx.fake.private_chat(out)))
            await kwx.act(winner, "w")
            await kwx.settle()
            assert len(kwx.fake.seen_photos(kwx.fake.private_chat(out))) == before  # no hand for him
            sat_out.append(out.first_name)
            result = kwx.fake.last_message(group).content
            nxt = {1: ("Ben", "Ann"), 2: ("Cat", "Ben"), 3: ("Dan", "Cat")}[hand_no]  # next dealer, who sits out
            assert f"Next dealer: {nxt[0]}" in result and f"Sitting out next hand: {nxt[1]}" in result
            if hand_no < 3:
                # the winner sits out next; the member after him round the table deals (seat 0)
                await service.prepare_deal(table_id, dealer_wins_deal(rules))
                await kwx.press(cat, kwx.fake.last_message(group), "Next hand")
        assert sat_out == ["Dan", "Ann", "Ben"]
        rows, sums = await _ledger_sums(service, table_id)
        assert set(sums.values()) == {0} and len(rows) == 9
        totals: dict[int, int] = {}
        for r in rows:
            totals[r.user_id] = totals.get(r.user_id, 0) + r.delta
        assert set(totals) == {u.id for u in users} and sum(totals.values()) == 0
        kwx.fake.user_command(dan, group, "score")
        await kwx.settle()
        score = kwx.fake.last_message(group).content
        assert all(u.first_name in score for u in users)
        report = await service.store.season_report(await service.store.group_id_for_chat(group.id))
        assert {s.user_id for s in report.standings} == {u.id for u in users}
        assert sum(s.points for s in report.standings) == 0


async def test_bawangzhuang_the_winning_dealer_stays_and_the_rest_goes_round(kwx):
    users = kwx.players("Ann", "Ben", "Cat", "Dan")
    ann, ben, cat, dan = users
    group = kwx.group(users)
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        async with service.store.transaction() as tx:
            gid = await tx.ensure_group(group.id, group.title or "")
            await tx.set_setting(gid, "rules", {"preset": "standard", "four_players": "bawangzhuang"})
        lobby = await _lobby(kwx, ann, group)
        for u in (ben, cat, dan):
            await kwx.press(u, kwx.fake.message(group, lobby.message_id), "Join")
        table_id = (await service.store.open_table_of_group(gid, bot_id=service.tables.bot_id)).table_id
        rules = RuleSet.from_json({"four_players": "bawangzhuang"})
        await service.prepare_deal(table_id, dealer_wins_deal(rules) | {"dealer": 0})
        await kwx.press(ann, kwx.fake.message(group, lobby.message_id), "Start")
        # Ann deals and wins every hand: she keeps the deal (霸王庄); Dan, Ben, Cat sit out in turn
        for hand_no, (out, ann_seat) in enumerate([(dan, 0), (ben, 2), (cat, 1)], start=1):
            hand = await service.store.current_hand(table_id)
            by_seat = {s.seat: s.user_id for s in await service.store.seats(table_id)}
            assert (hand.hand_no, hand.sitting_out, by_seat[3]) == (hand_no, out.id, out.id)
            assert hand.dealer == ann_seat and by_seat[ann_seat] == ann.id
            await kwx.act(ann, "w")
            await kwx.settle()
            if hand_no < 3:
                await service.prepare_deal(table_id, dealer_wins_deal(rules, dealer=[2, 1][hand_no - 1]))
                await kwx.press(dan, kwx.fake.last_message(group), "Next hand")
        rows, sums = await _ledger_sums(service, table_id)
        assert set(sums.values()) == {0} and sum(r.delta for r in rows if r.user_id == ann.id) > 0


async def test_after_a_restart_between_hands_the_right_member_sits_out(kwx):
    users = kwx.players("Ann", "Ben", "Cat", "Dan")
    ann, ben, cat, dan = users
    group = kwx.group(users)
    rules = RuleSet()
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        await _four_start_with_a_dealer_win(kwx, service, users, group, rules)
        await kwx.act(ann, "w")
        await kwx.settle()
    async with kwx.running() as service:  # a restart: the table is rebuilt from the store
        await service.prepare_deal(1, dealer_wins_deal(rules))
        await kwx.press(dan, kwx.fake.last_message(group), "Next hand")  # Dan sat hand 1 out: a member still
        hand = await service.store.current_hand(1)
        by_seat = {s.seat: s.user_id for s in await service.store.seats(1)}
        assert (hand.hand_no, hand.sitting_out, hand.dealer) == (2, ann.id, 0)
        assert [by_seat[i] for i in range(4)] == [ben.id, cat.id, dan.id, ann.id]
        await kwx.act(ben, "w")
        await kwx.settle()
        rows = await service.store.ledger_of_table(1)
        assert len(rows) == 6 and sum(r.delta for r in rows) == 0


async def test_a_member_kicked_mid_hand_leaves_three_who_play_on_after_a_restart(kwx):
    """/kick of a member of the hand at a table of four (docs/rules.md §A2.1): an AI finishes the
    hand, scored to the AI's row; the bot restarts between the kick and the next deal; the deal drops
    the AI seat and the three people left play every hand, nobody sitting out."""
    users = kwx.players("Ann", "Ben", "Cat", "Dan")
    ann, ben, cat, dan = users
    group = kwx.group(users)
    rules = RuleSet()
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        await _four_start_with_a_dealer_win(kwx, service, users, group, rules)
        await kwx.act(ann, "w")  # hand 1: Ann wins; she sits hand 2 out and Ben deals it
        await kwx.settle()
        await service.prepare_deal(1, dealer_wins_deal(rules))
        await kwx.press(dan, kwx.fake.last_message(group), "Next hand")
        by_seat = {s.seat: s.user_id for s in await service.store.seats(1)}
        assert [by_seat[i] for i in range(4)] == [ben.id, cat.id, dan.id, ann.id]
        kwx.fake.user_command(ben, group, "kick", "Cat")  # Ben is no administrator: nothing changes
        await kwx.settle()
        assert "only the group's administrators" in kwx.fake.last_message(group).content
        kwx.fake.user_command(ann, group, "kick", "Cat")  # Ann, sitting out, is the group's creator
        await kwx.settle()
        said = kwx.fake.last_message(group).content
        assert "Cat left the table: an AI finishes this hand for the seat." in said
        assert "nobody sits out" in said
        assert "removed you" in kwx.fake.last_message(kwx.fake.private_chat(cat)).content
        await kwx.act(ben, "w")  # hand 2: Ben wins as dealer; the AI pays Cat's seat's share
        await kwx.settle()
        result = kwx.fake.last_message(group).content
        assert "Next dealer: Ben" in result and "Sitting out next hand" not in result
    async with kwx.running() as service:  # a restart between the kick and the next deal
        await service.prepare_deal(1, dealer_wins_deal(rules))
        await kwx.press(dan, kwx.fake.last_message(group), "Next hand")
        hand = await service.store.current_hand(1)
        seats = await service.store.seats(1)
        assert [s.user_id for s in seats] == [ben.id, dan.id, ann.id]  # their order round the table
        assert (hand.hand_no, hand.sitting_out, hand.dealer) == (3, None, 0)
        captions = [m.content for m in kwx.fake.bot_messages(group) if m.photo is not None]
        assert "Sitting out this hand" not in captions[-1]
        assert kwx.hand_message(ann) is not None and kwx.game_buttons(ben)  # Ann plays, Ben deals
        await kwx.act(ben, "w")
        await kwx.settle()
        await service.prepare_deal(1, dealer_wins_deal(rules))
        await kwx.press(ann, kwx.fake.last_message(group), "Next hand")
        hand = await service.store.current_hand(1)
        assert (hand.hand_no, hand.sitting_out) == (4, None)
        assert [s.user_id for s in await service.store.seats(1)] == [ben.id, dan.id, ann.id]
        rows, sums = await _ledger_sums(service, 1)
        assert set(sums.values()) == {0} and len(rows) == 9
        by_hand: dict[int, list[int | None]] = {}
        for r in rows:
            by_hand.setdefault(r.hand_id, []).append(r.user_id)
        assert list(by_hand.values()) == [[ann.id, ben.id, cat.id], [ben.id, None, dan.id], [ben.id, dan.id, ann.id]]
        cat_total = sum(r.delta for r in rows if r.user_id == cat.id)
        assert cat_total < 0  # he keeps what he lost in hand 1, the hand he played to the end
        report = await service.store.season_report(await service.store.group_id_for_chat(group.id))
        assert {s.user_id: s.points for s in report.standings}[cat.id] == cat_total
