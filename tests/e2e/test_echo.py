"""No answer of the bot echoes a bidi control or an invisible character from user input
(docs/security.md §7.2): commands are read without them, and names and group titles (and anything
quoted in a refusal) pass through the same filter (kwx_bot.words.texts.visible) on the way out."""

from __future__ import annotations

from .scenarios import deal_scenario, load, perform

RLO, LRI, ZWSP, WJ, SHY, BOM, FILLER, BEL = "\u202e", "\u2066", "\u200b", "\u2060", "\u00ad", "\ufeff", "\u3164", "\x07"
HIDDEN = (RLO, LRI, ZWSP, WJ, SHY, BOM, FILLER, BEL)
"""What users slip into their input: a right-to-left override, an isolate, a zero-width space, a word
joiner, a soft hyphen, a byte-order mark, a Hangul filler, a control character."""
CALC = "123p789p234s46s88s 5s discard"


def _hidden_in(texts):
    return [(t, [hex(ord(c)) for c in HIDDEN if c in t]) for t in texts if any(c in t for c in HIDDEN)]


def _every_word(kwx, chat, since):
    """Every text the bot shows in ``chat`` after ``since``: texts, captions and button labels."""
    out = []
    for m in kwx.fake.bot_messages(chat, since=since):
        out.append(m.content)
        out.extend(b.text for b in m.iter_buttons())
    return out


async def test_no_answer_echoes_a_bidi_or_invisible_control(kwx):
    ann, ben, cat = kwx.players(f"Ann{RLO}", f"{LRI}Ben{ZWSP}", f"Cat{FILLER}{BOM}")
    group = kwx.group([ann, ben, cat], title=f"Mahjong{RLO} night{WJ}")
    private = kwx.fake.private_chat(ann)
    async with kwx.running():
        await kwx.start_bot(ann, ben, cat)
        mark = kwx.fake.mark()
        scenario = load("d57_double_ron")
        await deal_scenario(kwx, [ann, ben, cat], group, scenario)
        for action in scenario["actions"]:
            await perform(kwx, [ann, ben, cat], action)
        await kwx.settle()
        in_group = [
            ("calc", *CALC.split()[:-1], f"{RLO}discard"),
            ("calc", f"123p{ZWSP}789p234s46s88s", "5s"),
            ("calc", *CALC.split(), f"base:{RLO}2"),
            ("calc", *CALC.split(), f"pong:{SHY}111p"),
            ("calc", *CALC.split(), f"cap:{BEL}16"),
            ("settings", "cap", f"{RLO}16"),
            ("settings", f"ca{LRI}p", "16"),
            ("settings", "preset", f"standard{RLO}x"),
            ("settings", "players", f"2{RLO}"),
            ("new", f"{RLO}kaxinwu"),
            ("kick", f"{RLO}Bob"),
            ("history", f"{RLO}5"),
            ("void", f"1{RLO}"),
            ("export", f"{RLO}1"),
            ("score",),
            ("help", f"{RLO}calc"),
        ]
        for words in in_group:
            kwx.fake.user_command(ann, group, *words)
            await kwx.settle()
        for words in (("calc", f"{RLO}{'1p' * 30}"), ("score", "me"), ("hand",)):
            kwx.fake.user_command(ann, private, *words)
            await kwx.settle()
        kwx.fake.user_sends(ann, private, f"/{RLO}abc{BOM}")
        await kwx.settle()
        group_words = _every_word(kwx, group, mark)
        private_words = _every_word(kwx, private, mark)
    assert len(group_words) > len(in_group) and len(private_words) > 4
    assert _hidden_in(group_words) == []
    assert _hidden_in(private_words) == []
    assert any("Ann" in t and "Ben" in t for t in group_words)  # the names are shown, without the controls
    # commands are read as they look: the hidden characters are no part of the words
    assert any("won on a discard" in t for t in group_words)
    assert not any("I do not understand" in t for t in group_words)
    assert any("I don't know /abc." in t for t in private_words)
