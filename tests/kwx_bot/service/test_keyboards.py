"""Keyboards: buttons that match the legal actions, the 亮倒 menu, danger marks, the lobby's private-chat
link (checked as Telegram gets them, callback data encoded by the edge)."""

from __future__ import annotations

from engine.game import Action, ActionKind, legal_actions, replay, start, view_for
from engine.rules import RuleSet
from engine.tiles import Tile
from kwx_bot.edge.codec import Op, decode
from kwx_bot.edge.sender import markup_of
from kwx_bot.service import keyboards
from kwx_bot.words.i18n import translator
from kwx_bot.words.ui import Ui


def hand_keyboard(*args, **kwargs):
    """The hand keyboard as Telegram gets it (callback data encoded by the edge)."""
    return markup_of(keyboards.hand_keyboard(*args, **kwargs))


def lobby_keyboard(*args, **kwargs):
    """The lobby keyboard as Telegram gets it."""
    return markup_of(keyboards.lobby_keyboard(*args, **kwargs))


def _state(seed: str = "t1"):
    return replay(start(RuleSet(), 0, seed=seed))


def test_hand_keyboard_offers_exactly_the_legal_discards():
    state = _state()
    legal = legal_actions(state, 0)
    view = view_for(state, 0)
    tr = translator("zh_CN")
    kb = hand_keyboard(tr, 7, 3, legal, drawn=view.drawn, danger=set())
    assert kb is not None
    datas = [decode(b.callback_data) for row in kb.inline_keyboard for b in row]
    discards = {d.tile for d in datas if d.op is Op.DISCARD}
    assert discards == {a.tile for a in legal if a.kind is ActionKind.DISCARD}
    assert all(d.table_id == 7 and d.seq == 3 for d in datas)
    assert all(len(row) <= 8 for row in kb.inline_keyboard)
    labels = [b.text for row in kb.inline_keyboard for b in row]
    assert any(lbl.startswith("▶") for lbl in labels)  # the drawn tile is marked


def test_claim_keyboard_has_only_claims():
    tr = translator("en")
    legal = [Action(1, ActionKind.WIN), Action(1, ActionKind.PONG), Action(1, ActionKind.PASS)]
    kb = hand_keyboard(tr, 1, 1, legal, drawn=None, danger=set())
    assert [b.text for b in kb.inline_keyboard[0]] == ["Win", "Pong", "Pass"]
    assert hand_keyboard(tr, 1, 1, [], drawn=None, danger=set()) is None


def test_liangdao_menu_and_confirmation():
    tr = translator("zh_CN")
    legal = [Action(0, ActionKind.DISCARD, Tile.P1), Action(0, ActionKind.LIANGDAO, Tile.P1)]
    normal = hand_keyboard(tr, 1, 1, legal, drawn=None, danger=set())
    assert "亮倒…" in [b.text for row in normal.inline_keyboard for b in row]
    menu = hand_keyboard(tr, 1, 1, legal, drawn=None, danger=set(), ui=Ui.LIANGDAO)
    assert decode(menu.inline_keyboard[0][0].callback_data).op is Op.LIANGDAO_PICK
    confirm = hand_keyboard(tr, 1, 1, legal, drawn=None, danger=set(), ui=Ui.CONFIRM, ui_tile=Tile.P1)
    first = decode(confirm.inline_keyboard[0][0].callback_data)
    assert (first.op, first.tile) == (Op.LIANGDAO, Tile.P1)
    assert "确认亮倒" in confirm.inline_keyboard[0][0].text


def test_danger_tiles_are_marked():
    tr = translator("zh_CN")
    legal = [Action(0, ActionKind.DISCARD, Tile.P1), Action(0, ActionKind.DISCARD, Tile.S5)]
    kb = hand_keyboard(tr, 1, 1, legal, drawn=None, danger={Tile.S5})
    assert [b.text for b in kb.inline_keyboard[0]] == ["1筒", "⚠5条"]


def test_lobby_keyboard_has_a_private_chat_link():
    kb = lobby_keyboard(translator("en"), 5, 0, deep_link="https://t.me/bot?start=j5", full=False, has_ai=True)
    flat = [b for row in kb.inline_keyboard for b in row]
    assert any(b.url == "https://t.me/bot?start=j5" for b in flat)
    assert {decode(b.callback_data).op for b in flat if b.callback_data} == {
        Op.JOIN, Op.LEAVE, Op.LANG_ZH, Op.ADD_AI, Op.REMOVE_AI, Op.START,
        Op.GAME_KAWUXING, Op.GAME_KAXINWU, Op.SEATS_2, Op.SEATS_3, Op.SEATS_4}  # fmt: skip
    marked = [b.text for b in flat if b.text.startswith("✓")]
    assert marked == ["✓ 卡五星 Ka Wu Xing", "✓ 3 seats"]  # the table's game and size


def test_the_lobby_offers_the_other_language_in_its_own_words():
    for lang, label, op in (("zh_CN", "English", Op.LANG_EN), ("en", "中文", Op.LANG_ZH)):
        kb = keyboards.lobby_keyboard(translator(lang), 5, 0, deep_link="https://t.me/bot", full=False, has_ai=False)
        switches = [k for row in kb for k in row if k.press is not None and k.press.op in (Op.LANG_ZH, Op.LANG_EN)]
        assert [(k.text, k.press.op) for k in switches] == [(label, op)]
