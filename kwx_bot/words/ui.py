"""The 亮倒 / 廊起 reveal choice as the engine judges it: shared by the engine adapter, the words and
the screen (docs/rules.md §A9.2, §E#48)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.game import Action, ActionKind, RevealFault
from engine.tiles import Tile

__all__ = ["RevealChoice"]


@dataclass(frozen=True, slots=True)
class RevealChoice:
    """A 亮倒 / 廊起 being chosen, as the engine judges it (docs/rules.md §A9.2, §E#48).

    ``discard``: the 亮倒 discard; ``shown`` / ``hidden``: the kept tiles split by the player's choice
    (tile order); ``legal``: the engine offers exactly this 亮倒 now; ``fault``: why the reveal breaks
    the rules (None when it does not); ``waits``: the waits it would publish (() when not legal);
    ``fewest``: the shown tiles of the engine's fewest reveal with this discard — every wait of the
    whole hand kept, the fewest tiles shown (:func:`engine.game.fewest_reveal`) —, None when that is
    the whole hand.
    """

    discard: Tile
    shown: tuple[Tile, ...]
    hidden: tuple[Tile, ...]
    legal: bool
    fault: RevealFault | None
    waits: tuple[Tile, ...]
    fewest: tuple[Tile, ...] | None = None

    def action(self, seat: int) -> Action:
        """The 亮倒 action (the whole hand shown: no ``reveal``, as the engine lists it)."""
        return Action(seat, ActionKind.LIANGDAO, self.discard, self.shown if self.hidden else None)
