"""What one seat should be shown now: its :class:`SeatScreen`, a pure value (docs/architecture.md §4
"The screen model").

Computed from the engine's answers for the seat (:class:`SeatFacts`: its view, its legal actions, its
protected tiles, the result, the reveal being chosen), the table's public facts (:class:`TableFacts`)
and the person at the seat (:class:`Player`: language, 托管, the menu they are in).  The seat's
situation (:class:`Situation`) and the menu it shows (:func:`shown_menu`) are decided once, here; the
caption's lines and the buttons follow from them, one small function per part.  The words come from
:mod:`kwx_bot.words.captions`, the buttons from :mod:`kwx_bot.service.keyboards`.

The caption changes only with the player's own situation (turn, claim, waits), so the other players'
routine turns cost no edit of every hand message; when the player has something to do, it first
says what happened since their previous turn.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ...words import captions as words
from ...words.i18n import Translator
from ...words.ui import RevealChoice
from .. import keyboards
from ..buttons import Keyboard, keyboard
from ..game import Action, ActionKind, Event, Phase, Ruleset, SeatView, Tile
from .json import keyboard_json
from .pictures import HandPicture

__all__ = ["Menu", "Player", "SeatFacts", "SeatScreen", "Situation", "TableFacts", "Ui", "seat_screen", "shown_menu"]

_CLAIMS = frozenset({ActionKind.PASS, ActionKind.PONG, ActionKind.KONG})


class Ui(enum.Enum):
    """A player's hand-message mode: normal buttons, the 亮倒 discard menu, its confirmation, or the
    choice of the tiles a 亮倒 / 廊起 shows (``liangdao_reveal`` kou / minimal, docs/rules.md §A9.2)."""

    NORMAL = "normal"
    LIANGDAO = "liangdao"
    CONFIRM = "confirm"
    REVEAL = "reveal"


@dataclass(frozen=True, slots=True)
class Menu:
    """Where a player is in the hand message's 亮倒 / 廊起 menu: ``mode``, the discard chosen
    (``tile``), the tiles chosen to show (``mask``, a bit mask over the tiles kept after the discard:
    :mod:`kwx_bot.service.reveal`), made at the table's event ``seq``.  A menu holds only at that
    seq: once the table moves on the hand message shows the normal buttons again (:meth:`at`)."""

    mode: Ui = Ui.NORMAL
    tile: Tile | None = None
    mask: int = 0
    seq: int = -1

    def at(self, seq: int) -> Menu:
        """The menu as it stands at the table's ``seq``: itself if made then, else the normal one."""
        return self if self.seq == seq else Menu()


@dataclass(frozen=True, slots=True)
class TableFacts:
    """The table's public facts a seat's screen shows besides the engine's view: the table and its
    event ``seq`` (buttons carry both), the hand's number, the group's ``title``, the game, the
    players' raw ``names`` by seat, the names as pictures show them in the seat's language
    (``display``: 托管 marked), and the hand's ``events`` (what happened since the seat's turn)."""

    table_id: int
    seq: int
    hand_no: int
    title: str
    ruleset: Ruleset
    names: tuple[str, ...]
    display: tuple[str, ...]
    events: tuple[Event, ...] = ()

    @property
    def langqi(self) -> bool:
        """The table plays 卡心五, whose 亮倒 is 廊起 (docs/rules.md §B)."""
        return self.ruleset is Ruleset.KAXINWU


@dataclass(frozen=True, slots=True)
class Player:
    """The person at a seat: the language of their messages, whether the AI plays for them
    (``automatic``: 托管, or unreachable), whether they can be messaged (``reachable``) and their
    hand message's :class:`Menu` (as it stands at the table's seq)."""

    lang: str
    automatic: bool = False
    reachable: bool = True
    menu: Menu = field(default_factory=Menu)


@dataclass(frozen=True, slots=True)
class SeatFacts:
    """The engine's answers for one seat now: its ``view`` (⚠ tiles in ``view.danger``), its ``legal``
    actions (none while the AI plays it or once the hand is over), the ``protected`` tiles it may not
    discard (docs/rules.md §A9.8, §B), its points once the hand is over (``result_delta``), and the
    reveal choice its menu is making (``reveal``, as the engine judges it, over the ``kept`` tiles)."""

    view: SeatView
    legal: tuple[Action, ...] = ()
    protected: tuple[Tile, ...] = ()
    result_delta: int | None = None
    reveal: RevealChoice | None = None
    kept: tuple[Tile, ...] = ()
    kinds: frozenset[ActionKind] = field(init=False, repr=False, compare=False)
    """The kinds of the legal actions."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "kinds", frozenset(a.kind for a in self.legal))

    @property
    def over(self) -> bool:
        """The hand is over."""
        return self.result_delta is not None


class Situation(enum.StrEnum):
    """Where the seat is: what its status line says and which buttons it gets."""

    OVER = "over"
    AUTO = "auto"
    CLAIM = "claim"
    ROB = "rob"
    TURN = "turn"
    WAITING = "waiting"


@dataclass(frozen=True, slots=True)
class SeatScreen:
    """What seat ``seat`` of table ``table_id`` should be shown at event ``seq``: the ``picture``, the
    caption's parts (``title``; ``news``: what happened since the seat's turn; ``status``; ``notes``:
    its 亮倒, waits, the menu's lines, the legend of the marks), the ``buttons``, and two facts for
    delivery: ``must_act`` (the hand waits for the player: a reminder is due) and ``picture_stays``
    (the AI plays the seat: a picture already shown is left as it is)."""

    table_id: int
    seat: int
    seq: int
    situation: Situation
    picture: HandPicture
    title: str
    news: tuple[str, ...]
    status: str
    notes: tuple[str, ...]
    buttons: Keyboard
    must_act: bool
    picture_stays: bool

    @property
    def caption(self) -> str:
        """The hand message's caption (Telegram HTML, at most 1024 characters)."""
        return words.caption([self.title, *self.news, self.status, *self.notes])

    def to_json(self) -> dict[str, Any]:
        """Plain JSON: what a web client receives (:mod:`.json`)."""
        return {
            "kind": "seat", "table": self.table_id, "seat": self.seat, "seq": self.seq,
            "situation": self.situation.value, "picture": self.picture.to_json(), "title": self.title,
            "news": list(self.news), "status": self.status, "notes": list(self.notes), "caption": self.caption,
            "buttons": keyboard_json(self.buttons), "must_act": self.must_act,
        }  # fmt: skip


def situation(facts: SeatFacts, player: Player) -> Situation:
    """Where the seat is: the hand over, the AI playing it, a claim (or rob) window asking it, its
    turn, or nothing to do."""
    if facts.over:
        return Situation.OVER
    if player.automatic:
        return Situation.AUTO
    public = facts.view.public
    if facts.kinds & _CLAIMS and public.last_discard is not None:
        return Situation.ROB if public.phase is Phase.ROB else Situation.CLAIM
    return Situation.TURN if facts.legal else Situation.WAITING


def liangdao_options(legal: Sequence[Action]) -> dict[Tile, tuple[Tile, ...]]:
    """Every 亮倒 / 廊起 discard with the waits the engine lists with its action (those of the whole
    hand shown, when a partial reveal is offered too), in tile order."""
    options: dict[Tile, tuple[Tile, ...]] = {}
    for a in legal:
        if a.kind is ActionKind.LIANGDAO and a.tile is not None and (a.reveal is None or a.tile not in options):
            options[a.tile] = a.waits
    return dict(sorted(options.items()))


def shown_menu(facts: SeatFacts, menu: Menu) -> Ui:
    """The menu the hand message shows: the player's, as far as the legal actions still offer it —
    the reveal choice of an offered discard, the confirmation of one, else the menu of discards —
    and the normal buttons when no 亮倒 is offered."""
    options = liangdao_options(facts.legal)
    if menu.mode is Ui.NORMAL or not options:
        return Ui.NORMAL
    if menu.mode is Ui.REVEAL and facts.reveal is not None and facts.reveal.discard in options:
        return Ui.REVEAL
    if menu.mode is Ui.CONFIRM and menu.tile in options:
        return Ui.CONFIRM
    return Ui.LIANGDAO


# -- the caption, part by part ----------------------------------------------------------------------


def news_lines(tr: Translator, table: TableFacts, facts: SeatFacts, where: Situation) -> tuple[str, ...]:
    """What happened since the seat's previous turn, when it has something to do (a claim's own line
    names the discard on the table: no second "last discard")."""
    if where not in (Situation.CLAIM, Situation.ROB, Situation.TURN):
        return ()
    claim = bool(facts.kinds & _CLAIMS)
    lines = words.since_last_turn(
        tr, table.events, facts.view.seat, table.names, last_discard=not claim, langqi=table.langqi
    )
    return tuple(lines)


def status_line(tr: Translator, table: TableFacts, facts: SeatFacts, where: Situation) -> str:
    """The seat's situation in words."""
    public = facts.view.public
    if where is Situation.OVER:
        assert facts.result_delta is not None
        return words.over_line(tr, facts.result_delta)
    if where is Situation.AUTO:
        return words.auto_line(tr)
    if where in (Situation.CLAIM, Situation.ROB):
        assert public.last_discard is not None
        who, tile = public.last_discard
        return words.claim_line(tr, who=table.names[who], tile=tile, rob=where is Situation.ROB)
    if where is Situation.TURN:
        return words.turn_line(tr, public.wall_remaining)
    return words.waiting_line(tr)


def hand_lines(tr: Translator, table: TableFacts, facts: SeatFacts) -> tuple[str, ...]:
    """While the hand is on: the seat's own 亮倒 / 廊起 and its waits."""
    view = facts.view
    if facts.over:  # after the hand, "waiting" means nothing any more
        return ()
    lines = []
    if view.public.seats[view.seat].liangdao:
        lines.append(words.declared_line(tr, langqi=table.langqi))
    if view.waits:
        lines.append(words.waits_line(tr, view.waits))
    return tuple(lines)


def menu_lines(tr: Translator, table: TableFacts, facts: SeatFacts, menu: Menu, ui: Ui) -> tuple[str, ...]:
    """The 亮倒 / 廊起 menu in words: the reveal being chosen, the discards and their waits, or the
    confirmation (docs/rules.md §A9.2, §E#48)."""
    options = liangdao_options(facts.legal)
    if ui is Ui.REVEAL:
        assert facts.reveal is not None
        return tuple(words.reveal_lines(tr, facts.reveal, langqi=table.langqi))
    if ui is Ui.LIANGDAO:
        choosing = any(a.kind is ActionKind.LIANGDAO and a.reveal is not None for a in facts.legal)
        return tuple(words.liangdao_menu_lines(tr, options, langqi=table.langqi, choosing=choosing))
    if ui is Ui.CONFIRM:
        assert menu.tile is not None
        return (words.confirm_line(tr, tile=menu.tile, waits=options[menu.tile], langqi=table.langqi),)
    return ()


def legend_lines(tr: Translator, facts: SeatFacts) -> tuple[str, ...]:
    """What the marks on the discard buttons mean, when there are discard buttons: 🔒 (protected,
    docs/rules.md §A9.8, §B), else ⚠ (包胡, §A9.7)."""
    if ActionKind.DISCARD not in facts.kinds:
        return ()
    if facts.protected:
        return (words.protected_legend(tr),)
    if facts.view.danger:
        return (words.danger_legend(tr),)
    return ()


# -- the buttons -----------------------------------------------------------------------------------------


def buttons(tr: Translator, table: TableFacts, facts: SeatFacts, player: Player, where: Situation, ui: Ui) -> Keyboard:
    """The hand message's buttons: take the seat back (托管), the menu shown, a claim window's, or the
    turn's; none with nothing to do."""
    tid, seq, view, menu = table.table_id, table.seq, facts.view, player.menu
    if where is Situation.AUTO:
        return keyboards.take_back_keyboard(tr, tid, 0) if player.reachable else ()
    if not facts.legal:
        return ()
    options = liangdao_options(facts.legal)
    if ui is Ui.REVEAL:
        assert facts.reveal is not None
        return keyboards.reveal_keyboard(tr, tid, seq, facts.reveal, facts.kept, langqi=table.langqi)
    if ui is Ui.CONFIRM:
        assert menu.tile is not None
        return keyboards.confirm_keyboard(tr, tid, seq, menu.tile, langqi=table.langqi)
    if ui is Ui.LIANGDAO:
        return keyboards.liangdao_pick_keyboard(tr, tid, seq, list(options), drawn=view.drawn, danger=view.danger)
    if facts.kinds & _CLAIMS:
        return keyboards.claim_keyboard(tr, tid, seq, facts.kinds)
    return turn_buttons(tr, table, facts, has_liangdao=bool(options))


def turn_buttons(tr: Translator, table: TableFacts, facts: SeatFacts, *, has_liangdao: bool) -> Keyboard:
    """A turn's buttons: the discards, then 自摸, kongs and the 亮倒 / 廊起 menu."""
    tid, seq, view = table.table_id, table.seq, facts.view
    discards = [a.tile for a in facts.legal if a.kind is ActionKind.DISCARD and a.tile is not None]
    rows = keyboards.discard_rows(
        tr, tid, seq, discards, drawn=view.drawn, danger=view.danger, protected=facts.protected
    )
    rows += keyboards.turn_extras(tr, tid, seq, facts.legal, liangdao=has_liangdao, langqi=table.langqi)
    return keyboard(*rows)


# -- the whole screen ------------------------------------------------------------------------------------


def hand_picture(table: TableFacts, facts: SeatFacts, player: Player) -> HandPicture:
    """The seat's hand picture: a claim window asking the seat gets a picture of its own
    (:func:`.pictures.claim_key`)."""
    window = facts.view.public.seq if ActionKind.PASS in facts.kinds else None
    return HandPicture(facts.view, table.display, player.lang, table.ruleset, facts.protected, window)


def seat_screen(tr: Translator, table: TableFacts, facts: SeatFacts, player: Player) -> SeatScreen:
    """What the seat should be shown now (module docstring); ``tr`` is the player's language."""
    where = situation(facts, player)
    menu = player.menu
    ui = shown_menu(facts, menu)
    notes = hand_lines(tr, table, facts) + menu_lines(tr, table, facts, menu, ui) + legend_lines(tr, facts)
    return SeatScreen(
        table_id=table.table_id, seat=facts.view.seat, seq=table.seq, situation=where,
        picture=hand_picture(table, facts, player),
        title=words.hand_title(tr, hand_no=table.hand_no, title=table.title),
        news=news_lines(tr, table, facts, where), status=status_line(tr, table, facts, where), notes=notes,
        buttons=buttons(tr, table, facts, player, where, ui), must_act=bool(facts.legal),
        picture_stays=where is Situation.AUTO,
    )  # fmt: skip
