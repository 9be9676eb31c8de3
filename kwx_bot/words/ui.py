"""Small shared vocabulary of the hand-message interface."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from engine.game import Action, ActionKind, RevealFault
from engine.tiles import Tile

__all__ = ["Menu", "RevealChoice", "Ui"]


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
class RevealChoice:
    """A 亮倒 / 廊起 being chosen, as the engine judges it (docs/rules.md §A9.2, §E#48).

    ``discard``: the 亮倒 discard; ``shown`` / ``hidden``: the kept tiles split by the player's choice
    (tile order); ``legal``: the engine offers exactly this 亮倒 now; ``fault``: why the reveal breaks
    the rules (None when it does not); ``waits``: the waits it would publish (() when not legal).
    """

    discard: Tile
    shown: tuple[Tile, ...]
    hidden: tuple[Tile, ...]
    legal: bool
    fault: RevealFault | None
    waits: tuple[Tile, ...]

    def action(self, seat: int) -> Action:
        """The 亮倒 action (the whole hand shown: no ``reveal``, as the engine lists it)."""
        return Action(seat, ActionKind.LIANGDAO, self.discard, self.shown if self.hidden else None)
