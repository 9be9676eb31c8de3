"""The screen model: what each seat, and the group, should be shown now, as pure values
(docs/architecture.md §4 "The screen model").

* :mod:`.seat` — a seat's :class:`SeatScreen` (picture, caption, buttons) from the engine's answers
  for that seat and the table's public facts;
* :mod:`.table` — the group's live table (:class:`TableScreen`) and lobby (:class:`LobbyScreen`);
* :mod:`.announce` — the 亮倒 reveal and the result, each from the moment it describes;
* :mod:`.pictures` — the render requests (:class:`HandPicture` …) and their keys;
* :mod:`.json` — the same values as plain JSON, what a web client receives.

Nothing here sends, waits or stores: delivery (:mod:`kwx_bot.service.delivery`) compares these values
with what the messages show and makes the writes that close the gap.
"""

from .announce import ResultAnnouncement, ResultFacts, RevealAnnouncement, result_announcement, reveal_announcement
from .pictures import HandPicture, Picture, ResultPicture, RevealPicture, TablePicture
from .seat import Menu, Player, SeatFacts, SeatScreen, Situation, TableFacts, Ui, seat_screen
from .table import GroupFacts, LobbyFacts, LobbyScreen, TableScreen, lobby_screen, table_screen

__all__ = [
    "GroupFacts",
    "HandPicture",
    "LobbyFacts",
    "LobbyScreen",
    "Menu",
    "Picture",
    "Player",
    "ResultAnnouncement",
    "ResultFacts",
    "ResultPicture",
    "RevealAnnouncement",
    "RevealPicture",
    "SeatFacts",
    "SeatScreen",
    "Situation",
    "TableFacts",
    "TablePicture",
    "TableScreen",
    "Ui",
    "lobby_screen",
    "result_announcement",
    "reveal_announcement",
    "seat_screen",
    "table_screen",
]
