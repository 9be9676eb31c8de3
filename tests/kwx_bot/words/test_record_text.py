"""The words of /review's private messages: the one-line summary, the picture's caption and the kind
word for a player the AI agrees with, in both languages; /replay's caption."""

from __future__ import annotations

from kwx_bot.store.rows import HandRow
from kwx_bot.words.i18n import translator
from kwx_bot.words.record_text import replay_caption, review_caption, review_clean, review_summary

EN = translator("en")
ZH = translator("zh_CN")
HAND = HandRow(hand_id=9, table_id=2, hand_no=4, dealer=0, deal={}, first_seq=1, status="over", result=None)


def test_the_summary_counts_the_decisions_and_the_points() -> None:
    assert review_summary(EN, 3, 2.46) == "3 decisions differed; about 2.5 points lost."
    assert review_summary(EN, 1, 0.3) == "1 decision differed; about 0.3 points lost."
    assert review_summary(ZH, 3, 2.46) == "有 3 个决定不同；约损失 2.5 分。"
    assert review_summary(EN, 2, None) == "2 decisions differed from the AI's choice."  # no estimate: no points


def test_the_caption_names_the_hand_and_group_and_what_the_picture_shows() -> None:
    text = review_caption(EN, HAND, "Friday <night>", 5, 3.0, 3, True)
    assert text.splitlines() == [
        "<b>Your review of hand 4</b> in Friday &lt;night&gt;",
        "5 decisions differed; about 3.0 points lost.",
        "The picture shows the 3 costliest.",
    ]
    short = review_caption(EN, HAND, "G", 2, 1.0, 2, False)
    assert "costliest" not in short and "ran out of time" in short
    assert review_caption(ZH, HAND, "G", 2, 1.0, 2, True).startswith("<b>你的第 4 局复盘</b>（G）")


def test_a_player_the_ai_agrees_with_gets_a_kind_word() -> None:
    assert "all 12 of your decisions the same way. Well played!" in review_clean(EN, HAND, "G", 12)
    assert "打得好" in review_clean(ZH, HAND, "G", 12)

    assert "nothing of yours to review" in review_clean(EN, HAND, "G", 0)  # every move was the bot's
    assert "托管" in review_clean(ZH, HAND, "G", 0)


def test_the_replay_caption_names_the_lay_downs_and_the_result_frame() -> None:
    # the caption said "every discard, claim and kong" though the frames show each lay-down too
    text = replay_caption(EN, HAND, 20, "Ann wins by self-draw: Plain win ×1")
    assert text.splitlines() == [
        "<b>Hand 4</b> replayed in 20 moments: every discard, claim, kong and laying down in order, then the result.",
        "Ann wins by self-draw: Plain win ×1",
    ]
    assert "杠和亮倒，最后是结算" in replay_caption(ZH, HAND, 20)
    assert "个画面：按" in replay_caption(ZH, HAND, 20)  # no space after a Chinese colon
    assert "杠和廊起，最后是结算" in replay_caption(ZH, HAND, 20, langqi=True)  # 卡心五's word
    assert replay_caption(EN, HAND, 1, langqi=True).startswith("<b>Hand 4</b> replayed in 1 moment: every")
