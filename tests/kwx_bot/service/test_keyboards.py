"""Keyboards: buttons that match the legal actions, the 亮倒 menu, danger marks, the lobby's private-chat
link (checked as Telegram gets them, callback data encoded by the edge)."""

from __future__ import annotations

from engine.game import ActionKind, replay, start
from engine.rules import RuleSet
from engine.tiles import Tile
from kwx_bot.edge.codec import Op, decode
from kwx_bot.edge.sender import markup_of
from kwx_bot.service import keyboards
from kwx_bot.service.buttons import keyboard
from kwx_bot.words.i18n import translator


def markup(kb):
    """A keyboard as Telegram gets it (callback data encoded by the edge)."""
    return markup_of(kb)


def lobby_keyboard(*args, **kwargs):
    """The lobby keyboard as Telegram gets it."""
    return markup_of(keyboards.lobby_keyboard(*args, **kwargs))


def test_claim_keyboard_has_only_the_claims_offered():
    tr = translator("en")
    kb = markup(keyboards.claim_keyboard(tr, 1, 1, {ActionKind.WIN, ActionKind.PONG, ActionKind.PASS}))
    assert [b.text for b in kb.inline_keyboard[0]] == ["Win", "Pong", "Pass"]


def test_danger_tiles_are_marked():
    tr = translator("zh_CN")
    rows = keyboards.discard_rows(tr, 1, 1, [Tile.P1, Tile.S5], drawn=None, danger={Tile.S5}, protected=())
    assert [k.text for k in rows[0]] == ["1筒", "⚠5条"]


def test_lobby_keyboard_has_a_private_chat_link():
    kb = lobby_keyboard(translator("en"), 5, 0, deep_link="https://t.me/bot?start=j5", full=False, has_ai=True)
    flat = [b for row in kb.inline_keyboard for b in row]
    assert any(b.url == "https://t.me/bot?start=j5" for b in flat)
    assert {decode(b.callback_data).op for b in flat if b.callback_data} == {
        Op.JOIN, Op.LEAVE, Op.LANG_ZH, Op.ADD_AI, Op.REMOVE_AI, Op.START,
        Op.GAME_KAWUXING, Op.GAME_KAXINWU, Op.SEATS_2, Op.SEATS_3, Op.SEATS_4}  # fmt: skip
    marked = [b.text for b in flat if b.text.startswith("✓")]
    assert marked == ["✓ Ka Wu Xing (卡五星)", "✓ 3 seats"]  # the table's game and size


def test_the_lobby_offers_the_other_language_in_its_own_words():
    for lang, label, op in (("zh_CN", "English", Op.LANG_EN), ("en", "中文", Op.LANG_ZH)):
        kb = keyboards.lobby_keyboard(translator(lang), 5, 0, deep_link="https://t.me/bot", full=False, has_ai=False)
        switches = [k for row in kb for k in row if k.press is not None and k.press.op in (Op.LANG_ZH, Op.LANG_EN)]
        assert [(k.text, k.press.op) for k in switches] == [(label, op)]


def _kx_state():
    """卡心五 at 3 seats: seat 0 (dealer) can 廊起 with 9条 (docs/rules.md §B, §E#48)."""
    from engine.tiles import parse_tiles

    rules = RuleSet.from_json({"preset": "kaxinwu", "players": 3})
    hands = ["123p456p789p22s68s9s", "111p333p777s999s1s", "333s444s888p5s6s7s1s"]
    pool = [t for t in (*parse_tiles("123456789p" * 4), *parse_tiles("123456789s" * 4))]
    for h in hands:
        for t in parse_tiles(h):
            pool.remove(t)
    return replay(start(rules, 0, hands=[parse_tiles(h) for h in hands], wall=pool))


def test_reveal_keyboard_toggles_carry_the_whole_choice_and_confirm_only_when_legal():
    from kwx_bot.service import game
    from kwx_bot.service.reveal import all_shown, canonical

    state = _kx_state()
    tr = translator("en")
    kept = game.held_after(state, 0, Tile.S9)
    for shown, legal_choice in ((kept, True), (kept[1:], False)):
        choice = game.check_reveal(state, 0, Tile.S9, shown)
        assert choice.legal is legal_choice
        kb = markup(keyboards.reveal_keyboard(tr, 7, 3, choice, kept, langqi=True))
        keys = [(b.text, decode(b.callback_data)) for row in kb.inline_keyboard for b in row]
        toggles = [(text, d) for text, d in keys if d.op is Op.REVEAL and text[0] in "☑☐"]
        assert len(toggles) == len(kept) == 13
        mask = canonical(kept, choice.shown)
        for i, (text, d) in enumerate(toggles):  # each toggle flips its own tile
            assert d.tile is Tile.S9 and d.shown is not None and d.shown != mask
            assert text[0] == ("☑" if mask >> i & 1 else "☐")
        confirms = [d for text, d in keys if d.op is Op.LIANGDAO]
        assert confirms == ([decode_button(7, 3, Op.LIANGDAO, Tile.S9, mask)] if legal_choice else [])
        assert any(d.op is Op.BACK for _t, d in keys)
        assert any(t == "Show all" and d.shown == all_shown(kept) for t, d in keys) is not legal_choice


def test_the_reveal_offers_the_engines_fewest_reveal_in_one_tap():
    """卡心五's 廊起 started from the whole hand, and a learner had to find by trial which tiles may
    stay hidden: "Show the fewest" carries the engine's fewest reveal (fewest_reveal: 68条, waiting
    on 7条) as the whole choice; once chosen, Confirm and Show all, no Show the fewest."""
    from engine.tiles import parse_tiles
    from kwx_bot.service import game
    from kwx_bot.service.reveal import all_shown, canonical

    state = _kx_state()
    kept = game.held_after(state, 0, Tile.S9)
    fewest = canonical(kept, tuple(parse_tiles("68s")))
    for lang, label, everything in (("en", "Show the fewest", "Show all"), ("zh_CN", "最少亮出", "全部亮出")):
        tr = translator(lang)
        whole = game.check_reveal(state, 0, Tile.S9, kept)
        assert whole.fewest == tuple(parse_tiles("68s"))
        keys = [(b.text, decode(b.callback_data)) for row in markup(
            keyboards.reveal_keyboard(tr, 7, 3, whole, kept, langqi=True)).inline_keyboard for b in row]  # fmt: skip
        assert [d for t, d in keys if t == label] == [decode_button(7, 3, Op.REVEAL, Tile.S9, fewest)]
        assert not [t for t, _d in keys if t == everything]
        chosen = game.check_reveal(state, 0, Tile.S9, tuple(parse_tiles("68s")))
        assert chosen.legal and chosen.waits == (Tile.S7,)
        keys = [(b.text, decode(b.callback_data)) for row in markup(
            keyboards.reveal_keyboard(tr, 7, 3, chosen, kept, langqi=True)).inline_keyboard for b in row]  # fmt: skip
        assert not [t for t, _d in keys if t == label]
        assert [d.shown for t, d in keys if t == everything] == [all_shown(kept)]
        assert [d for _t, d in keys if d.op is Op.LIANGDAO] == [decode_button(7, 3, Op.LIANGDAO, Tile.S9, fewest)]


def decode_button(table: int, seq: int, op: Op, tile: Tile, shown: int):
    from kwx_bot.service.buttons import Button

    return Button(table, seq, op, tile, shown)


def test_protected_tiles_are_disabled_buttons():
    """A protected tile (docs/rules.md §A9.8, §B) is shown with 🔒 and an answer-only op, never as a discard."""
    rows = keyboards.discard_rows(
        translator("en"), 7, 3, [Tile.P1, Tile.S8], drawn=None, danger={Tile.S7}, protected=(Tile.S7,)
    )
    kb = markup(keyboard(*rows))
    keys = [(b.text, decode(b.callback_data)) for row in kb.inline_keyboard for b in row]
    assert [(t, d.op, d.tile) for t, d in keys] == [
        ("1 Dot", Op.DISCARD, Tile.P1), ("🔒7 Bam", Op.PROTECTED, Tile.S7), ("8 Bam", Op.DISCARD, Tile.S8),
    ]  # fmt: skip


def test_a_mandatory_direct_kong_is_a_claim_keyboard_without_pass():
    kb = markup(keyboards.claim_keyboard(translator("en"), 7, 3, {ActionKind.KONG}))
    assert [[b.text for b in row] for row in kb.inline_keyboard] == [["Kong"]]
