"""The group's announcements as values, each drawn from the moment it describes (docs/architecture.md
§4 "The screen model"): a 亮倒 / 廊起 reveal from the table right after the declaration — not from
the table when the message happens to be sent, which a flood wait or a retry may make later (a
picture of the hand as it is later would show tiles drawn or revealed since) —, and the result from
the end of the hand.  The hand-start announcement is the live table's first message
(:func:`.table.table_screen` with ``started``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...words import captions as words
from ...words.i18n import Translator
from ...words.texts import name
from ...words.verify_text import add_line, seed_line
from ..buttons import Keyboard
from ..game import HandTiles, PublicView, Ruleset
from ..keyboards import next_hand_keyboard
from .json import keyboard_json
from .pictures import ResultPicture, RevealPicture

__all__ = ["ResultAnnouncement", "ResultFacts", "RevealAnnouncement", "result_announcement", "reveal_announcement"]


@dataclass(frozen=True, slots=True)
class RevealAnnouncement:
    """A seat's 亮倒 / 廊起 announced to the group: the ``picture`` of the revealed hand and the
    ``caption`` (the waits, and after a partial reveal how many tiles stay hidden, never which)."""

    picture: RevealPicture
    caption: str

    def to_json(self) -> dict[str, Any]:
        """Plain JSON."""
        return {"kind": "reveal", "picture": self.picture.to_json(), "caption": self.caption}


def reveal_announcement(
    tr: Translator, view: PublicView, seat: int, names: Sequence[str], ruleset: Ruleset
) -> RevealAnnouncement:
    """The announcement of ``seat``'s declaration from ``view``, the group's table right after it,
    in the group's language ``tr`` (``names``: as the pictures show them)."""
    langqi = ruleset is Ruleset.KAXINWU
    caption = words.reveal_caption(tr, view=view, seat=seat, names=names, langqi=langqi)
    return RevealAnnouncement(RevealPicture(view, seat, tuple(names), tr.lang, ruleset), caption)


@dataclass(frozen=True, slots=True)
class ResultAnnouncement:
    """The hand's result: the ``picture`` (every hand face up), the text breakdown (``caption``) and
    the Next hand / End the table ``buttons``."""

    picture: ResultPicture
    caption: str
    buttons: Keyboard

    def to_json(self) -> dict[str, Any]:
        """Plain JSON."""
        return {"kind": "result", "picture": self.picture.to_json(), "caption": self.caption,
                "buttons": keyboard_json(self.buttons)}  # fmt: skip


@dataclass(frozen=True, slots=True)
class ResultFacts:
    """The end of a hand as the group sees it: the table and its seq (the buttons carry them), the
    hand's number, game and shuffle ``seed`` (revealed now, docs/architecture.md §5 "Verify"), the
    final ``view`` (its result naming the next dealer), the ``names`` as pictures show them (at a
    table of four members one more: the member who sat the hand out), every seat's hand
    (``hands``), the running ``totals``, the seats that declared 亮倒 and the raw name of the member
    who sits the next hand out (docs/rules.md §A2.1)."""

    table_id: int
    seq: int
    hand_no: int
    ruleset: Ruleset
    seed: str | None
    view: PublicView
    names: tuple[str, ...]
    hands: tuple[HandTiles, ...]
    totals: tuple[int, ...]
    liangdao: tuple[int, ...]
    sitting_out_next: str | None = None


def result_announcement(tr: Translator, facts: ResultFacts) -> ResultAnnouncement:
    """The result announcement in the group's language ``tr``."""
    assert facts.view.result is not None
    caption = words.result_caption(
        tr, hand_no=facts.hand_no, result=facts.view.result, names=facts.names, totals=facts.totals,
        liangdao=facts.liangdao,
    )  # fmt: skip
    if facts.sitting_out_next is not None:
        line = tr.gettext("Sitting out next hand: {name}").format(name=name(facts.sitting_out_next))
        caption = add_line(caption, line)
    caption = add_line(caption, seed_line(tr, facts.seed, facts.hand_no))  # the hand is over
    picture = ResultPicture(facts.view, facts.names, tr.lang, facts.ruleset, facts.hands)
    return ResultAnnouncement(picture, caption, next_hand_keyboard(tr, facts.table_id, facts.seq))
