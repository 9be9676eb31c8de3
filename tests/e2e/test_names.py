"""Bidi control characters in names never reach a group or private message, or a picture."""

from __future__ import annotations

from .scenarios import open_table


async def test_bidi_controls_in_names_never_reach_a_message_or_picture(kwx):
    from kwx_bot.words.texts import BIDI_CONTROLS

    evil = kwx.fake.create_user("\u202eAnn", last_name="\u2066x\u200f", language_code="en")
    ben, cat = kwx.players("Ben", "Cat")
    users = [evil, ben, cat]
    group = kwx.group(users, "\u202bMahjong")
    async with kwx.running() as service:
        await kwx.start_bot(*users)
        table_id = await open_table(kwx, users, group)
        await service.prepare_deal(table_id, {"seed": "bidi-1", "dealer": 0})
        await kwx.press(evil, kwx.fake.bot_messages(group)[0], "Start")
        live = service.tables.cached()[0]
        assert service.present.display_names(live)[0] == "Ann x"
        seen = kwx.fake.seen_texts(group) + [t for u in users for t in kwx.fake.seen_texts(kwx.fake.private_chat(u))]
        assert any("Ann x" in t for t in seen)
        assert not [t for t in seen if set(t) & BIDI_CONTROLS]
