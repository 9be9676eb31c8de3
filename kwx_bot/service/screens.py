"""The screens of a live table: the facts read from a :class:`~.live.LiveTable` and the engine,
handed to the pure screen functions (:mod:`.screen`, docs/architecture.md §4 "The screen model").

Each function reads the table as it is when called (no await: a deal cannot change it meanwhile) and
returns values; nothing here sends or stores.
"""

from __future__ import annotations

from dataclasses import replace

from ..words.i18n import Translator, translator
from ..words.texts import clean
from . import game
from .game import PublicView, Tile
from .group_settings import TableChoice
from .live import LiveSeat, LiveTable
from .reveal import shown_tiles
from .screen import (
    GroupFacts,
    LobbyFacts,
    LobbyScreen,
    Menu,
    Player,
    ResultFacts,
    SeatFacts,
    SeatScreen,
    TableFacts,
    Ui,
    lobby_screen,
    seat_screen,
)
from .screen.table import lobby_seats

__all__ = [
    "display_names",
    "group_facts",
    "hand_screen",
    "lobby_of",
    "result_facts",
    "reveal_view",
    "seat_facts",
]


def display_names(live: LiveTable, tr: Translator) -> tuple[str, ...]:
    """The players' names as pictures show them in ``tr``'s language: bidi controls dropped
    (:func:`~kwx_bot.words.texts.clean`), a person the AI plays for marked "(auto)"."""
    names = [clean(n) if n else n for n in live.names()]
    auto = tr.gettext("{name} (auto)")
    for s in live.seats:
        if s.user_id is not None and s.automatic:
            names[s.seat] = auto.format(name=names[s.seat])
    return tuple(names)


def _reveal_choice(
    state: game.State, seat: int, menu: Menu, legal: tuple[game.Action, ...]
) -> tuple[game.RevealChoice | None, tuple[Tile, ...]]:
    """The reveal choice the menu is making, as the engine judges it, and the kept tiles it splits;
    (None, ()) outside the reveal step or when the choice no longer fits the hand."""
    offered = {a.tile for a in legal if a.kind is game.ActionKind.LIANGDAO and a.reveal is not None}
    if menu.mode is not Ui.REVEAL or menu.tile is None or menu.tile not in offered:
        return None, ()
    kept = game.held_after(state, seat, menu.tile)
    try:
        shown = shown_tiles(kept, menu.mask)
    except ValueError:
        return None, ()
    return game.check_reveal(state, seat, menu.tile, shown), kept


def seat_facts(live: LiveTable, seat: LiveSeat) -> SeatFacts:
    """The engine's answers for ``seat`` now (the table has a hand)."""
    state = live.state
    assert state is not None
    view = game.seat_view(state, seat.seat)
    result = game.hand_result(state)
    if result is not None:
        return SeatFacts(view, result_delta=result.deltas[seat.seat])
    legal = () if seat.automatic else tuple(game.legal(state, seat.seat))
    reveal, kept = _reveal_choice(state, seat.seat, seat.menu.at(live.row.seq), legal)
    return SeatFacts(view, legal, game.protected(state, seat.seat), None, reveal, kept)


def hand_screen(live: LiveTable, seat: LiveSeat) -> SeatScreen:
    """What ``seat``'s hand message should show now, in the player's language."""
    assert live.hand is not None
    tr = translator(seat.lang)
    table = TableFacts(
        live.table_id, live.row.seq, live.hand.hand_no, live.title, live.rules.ruleset, tuple(live.names()),
        display_names(live, tr), tuple(live.events),
    )  # fmt: skip
    player = Player(seat.lang, seat.automatic, seat.can_pm, seat.menu.at(live.row.seq))
    return seat_screen(tr, table, seat_facts(live, seat), player)


def group_facts(live: LiveTable, totals: tuple[int, ...]) -> GroupFacts:
    """The group's table now (the table has a hand), with the running ``totals``."""
    state, hand = live.state, live.hand
    assert state is not None and hand is not None
    seed, rules = game.seed_of(state), game.rules_of(state)
    return GroupFacts(
        live.table_id, live.row.seq, hand.hand_no, rules.ruleset, rules.players, game.group_view(state),
        display_names(live, translator(live.group_lang)), live.group_lang, totals,
        live.sitting_out.name if live.sitting_out is not None else None,
        None if seed is None else game.commitment(seed), live.title,
    )  # fmt: skip


def reveal_view(live: LiveTable, index: int) -> PublicView:
    """The group's table right after the hand's event ``index`` (a 亮倒 / 廊起): the moment its
    announcement shows, whenever it is sent (docs/architecture.md §4 "The screen model")."""
    return game.group_view_at(live.events, index)


def result_facts(live: LiveTable, totals: tuple[int, ...]) -> ResultFacts:
    """The end of the table's hand (docs/rules.md §A2.1 at a table of four members: the result names
    the next hand's dealer and who sits it out as :func:`engine.seating.next_lineup` says — a winner
    who would deal rests; the member sitting out may deal: the view's next dealer becomes a member
    index, the names gain the member who sat this hand out, and the one who sits the next out is
    named; None once a member left: the three left play on)."""
    state, hand = live.state, live.hand
    assert state is not None and hand is not None
    result = game.hand_result(state)
    assert result is not None
    view = game.group_view(state)
    names = display_names(live, translator(live.group_lang))
    liangdao = tuple(s.seat for s in view.seats if s.liangdao)
    out = None
    planned = live.next_lineup(view.dealer, result)
    if planned is not None:
        lineup, bench = planned[0], live.sitting_out
        names = (*names, clean(bench.name) if bench is not None else "")
        view = replace(view, result=replace(result, next_dealer=lineup.seats[lineup.dealer]))
        out = None if lineup.sitting_out is None else names[lineup.sitting_out]
    return ResultFacts(
        live.table_id, live.row.seq, hand.hand_no, game.rules_of(state).ruleset, game.seed_of(state), view, names,
        game.all_hands(state), totals, liangdao, out,
    )  # fmt: skip


def lobby_of(live: LiveTable, state: str, chat_link: str) -> LobbyScreen:
    """The lobby message in ``state`` (``open``, ``started``, ``expired``, ``closed``), in the group's
    language; ``chat_link`` opens the private chat."""
    sitting = [(s.seat, s.name, s.is_ai) for s in live.seats]
    out = live.sitting_out  # a member of the table sitting a hand out: not a free chair
    if out is not None and out.seat < max(live.chairs, max((s.seat + 1 for s in live.seats), default=0)):
        sitting.append((out.seat, out.name, False))
    choice = TableChoice.of(live.row.options)
    facts = LobbyFacts(
        live.table_id, live.row.seq, live.title, lobby_seats(sitting, live.chairs), live.row.rules, live.rules.base,
        live.rules.ruleset, live.players, live.chairs, choice.game, choice.seats, len(live.seats),
        any(s.is_ai for s in live.seats), tuple(live.notes),
    )  # fmt: skip
    return lobby_screen(translator(live.group_lang), facts, state, chat_link=chat_link)
