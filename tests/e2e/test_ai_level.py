"""The AI level per group (/settings "AI level": easy / normal / strong): an administrator picks it in
the menu, a table takes it at its deal, and its AI seats play at that level — strong searching off
the event loop, each press answered before the AI seats think."""

from __future__ import annotations

import random
from typing import Any

from kwx_bot.service import game


async def test_an_admin_picks_strong_and_the_ai_seats_play_it(kwx, monkeypatch):
    ann, ben = kwx.players("Ann", "Ben")
    group = kwx.group([ann, ben])  # Ann created the group: an administrator
    async with kwx.running() as service:
        await kwx.start_bot(ann, ben)
        kwx.fake.user_command(ann, group, "settings")
        await kwx.settle()
        menu = kwx.fake.last_message(group)
        assert "AI level: normal" in menu.text and "AI level" in menu.button_texts  # the operator's default
        query = await kwx.press(ben, menu, "AI level")  # not an administrator: refused, nothing changes
        assert query.answer.show_alert
        await kwx.press(ann, kwx.fake.message(group, menu.message_id), "AI level")
        page = kwx.fake.message(group, menu.message_id)
        assert page.button_texts[:3] == ["easy", "✓ normal", "strong"]
        query = await kwx.press(ann, page, "strong")
        assert "Saved" in query.answer.text
        assert "AI level: strong" in kwx.fake.message(group, menu.message_id).text
        gid = await service.store.group_id_for_chat(group.id)
        assert (await service.store.group_settings(gid))["ai_level"] == "strong"

        thought: list[str] = []
        choose = service.thinker.choose

        async def spy(*args: Any) -> Any:
            thought.append(args[2])
            return await choose(*args)

        monkeypatch.setattr(service.thinker, "choose", spy)
        kwx.fake.user_command(ann, group, "new")
        await kwx.settle()
        lobby = kwx.fake.last_message(group)
        for _ in range(2):
            await kwx.press(ann, kwx.fake.message(group, lobby.message_id), "Add AI")
        table = await service.store.open_table_of_group(gid, bot_id=service.tables.bot_id)
        await service.prepare_deal(table.table_id, {"seed": "ai level", "dealer": 0})  # Ann discards first
        await kwx.press(ann, kwx.fake.message(group, lobby.message_id), "Start")
        live = await service.tables.get(table.table_id)
        assert service.tables.ai_level(live) == "strong"
        rng = random.Random(4)
        for _ in range(3):  # Ann's turns: each press is answered, then the AI seats play theirs
            buttons = kwx.game_buttons(ann)
            if not buttons:
                break
            _label, data = rng.choice(buttons)
            query = await kwx.press(ann, kwx.hand_message(ann), data=data)
            assert query.answered and not query.answer.show_alert
            assert live.state is not None
            assert game.is_over(live.state) or 0 in game.to_act(live.state)  # back to Ann: the AI seats moved
        assert thought and set(thought) == {"strong"}
    assert kwx.fake.count_calls(ok=False) == 0
