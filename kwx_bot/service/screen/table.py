"""What the group should be shown: the live table (:class:`TableScreen`) and the lobby
(:class:`LobbyScreen`), pure values (docs/architecture.md §4 "The screen model").

The group sees the table as :func:`~kwx_bot.service.game.group_view` shows it (never that a claim
window is open, docs/security.md §4), the players' names as the pictures show them (托管 marked), the
running match totals, and the deal's commitment (the SHA-256 of its secret seed, published at the
deal so anyone can check the wall afterwards with ``/verify``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...words import captions as words
from ...words.i18n import Translator
from ...words.texts import rules_label, table_size
from ...words.verify_text import add_line, commitment_line
from ..buttons import Keyboard
from ..game import PublicView, Ruleset
from ..keyboards import lobby_keyboard
from .json import keyboard_json
from .pictures import TablePicture

__all__ = ["GroupFacts", "LobbyFacts", "LobbyScreen", "TableScreen", "lobby_screen", "lobby_seats", "table_screen"]


@dataclass(frozen=True, slots=True)
class GroupFacts:
    """The group's table now: the hand (``hand_no``, its game and its number of seats, ``players``),
    the group's ``view``, the players' names as pictures show them (``names``, in the group's
    ``lang``), the running match ``totals`` by seat, the raw name of the member sitting the hand out
    (docs/rules.md §A2.1), the deal's ``commitment`` (None for a prepared deal, which has no seed)
    and the group's ``title`` (raw; "" for none)."""

    table_id: int
    seq: int
    hand_no: int
    ruleset: Ruleset
    players: int
    view: PublicView
    names: tuple[str, ...]
    lang: str
    totals: tuple[int, ...]
    sitting_out: str | None = None
    commitment: str | None = None
    title: str = ""


@dataclass(frozen=True, slots=True)
class TableScreen:
    """The group's live table message: its ``picture`` and ``caption`` (the hand-start message is the
    same message, its caption saying that the hand starts), and the ``title`` line a page shows above
    it (the hand's number and the group's title, as a hand message's title; not in the caption: the
    group's message is in the group itself)."""

    table_id: int
    seq: int
    picture: TablePicture
    caption: str
    title: str = ""

    def to_json(self) -> dict[str, Any]:
        """Plain JSON: what a spectator's web client receives."""
        return {"kind": "table", "table": self.table_id, "seq": self.seq, "picture": self.picture.to_json(),
                "caption": self.caption, "title": self.title}  # fmt: skip


def table_screen(tr: Translator, facts: GroupFacts, *, started: bool = False) -> TableScreen:
    """The live table in the group's language ``tr`` (``started``: the hand-start message)."""
    size = table_size(facts.ruleset, facts.players, facts.players, tr)
    caption = words.table_caption(
        tr, hand_no=facts.hand_no, view=facts.view, names=facts.names, started=started, table=size,
        sitting_out=facts.sitting_out,
    )  # fmt: skip
    caption = add_line(caption, commitment_line(tr, facts.commitment, facts.hand_no))
    picture = TablePicture(facts.view, facts.names, facts.lang, facts.ruleset, facts.totals)
    title = words.hand_title(tr, hand_no=facts.hand_no, title=facts.title) if facts.title else ""
    return TableScreen(facts.table_id, facts.seq, picture, caption, title)


@dataclass(frozen=True, slots=True)
class LobbyFacts:
    """A lobby: the table and its seq, the group's ``title``, who sits where (``seats``: a name per
    chair, None for a free one, ``" 🤖"`` after an AI's), the stored ``rules`` and 底金 (``base``), the
    opener's choice of game and size (``choice_game``, ``choice_seats``), the seats of a hand
    (``players``), the seats ``taken``, whether an AI sits (``has_ai``) and the lobby's notes."""

    table_id: int
    seq: int
    title: str
    seats: tuple[str | None, ...]
    rules: Any
    base: int
    ruleset: Ruleset
    players: int
    chairs: int
    choice_game: Ruleset
    choice_seats: int
    taken: int
    has_ai: bool
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class LobbyScreen:
    """The group's lobby message: its ``text`` and ``buttons`` (only while open)."""

    text: str
    buttons: Keyboard

    def to_json(self) -> dict[str, Any]:
        """Plain JSON."""
        return {"kind": "lobby", "text": self.text, "buttons": keyboard_json(self.buttons)}


def lobby_screen(tr: Translator, facts: LobbyFacts, state: str, *, chat_link: str) -> LobbyScreen:
    """The lobby in ``state`` (``open``, ``started``, ``expired`` or ``closed``); ``chat_link`` opens the
    private chat (its button, only while open)."""
    size = table_size(facts.ruleset, facts.players, facts.chairs, tr)
    text = words.lobby_text(
        tr, title=facts.title, seats=facts.seats, rules=rules_label(facts.rules, tr), base=facts.base, state=state,
        notes=facts.notes, table=size, players=facts.players, kaxinwu=facts.ruleset is Ruleset.KAXINWU,
    )  # fmt: skip
    if state != "open":
        return LobbyScreen(text, ())
    buttons = lobby_keyboard(
        tr, facts.table_id, facts.seq, deep_link=chat_link, full=facts.taken >= facts.players, has_ai=facts.has_ai,
        game=facts.choice_game, seats=facts.choice_seats, taken=facts.taken,
    )  # fmt: skip
    return LobbyScreen(text, buttons)


def lobby_seats(names: Sequence[tuple[int, str, bool]], chairs: int) -> tuple[str | None, ...]:
    """Who sits where as the lobby lists them: ``names`` are (chair, raw name, is an AI); an AI's name
    is followed by 🤖; a free chair is None."""
    seats: list[str | None] = [None] * max(chairs, max((c + 1 for c, _n, _ai in names), default=0))
    for chair, raw, ai in names:
        seats[chair] = raw + (" 🤖" if ai else "")
    return tuple(seats)
