"""The 亮倒 / 廊起 reveal choice of a hand message as a bit mask (docs/rules.md §A9.2, §E#48).

After choosing the 亮倒 discard, the player toggles the kept tiles between shown and hidden.  The
choice is a bit mask over the kept tiles in tile order (bit i = the i-th kept tile is shown) and
travels in the buttons themselves (:attr:`~kwx_bot.service.buttons.Button.shown`), so nothing of it
has to survive a restart.  Masks are canonical: of ``k`` copies of a tile with ``s`` of them shown,
the first ``s`` positions carry the bit, so one choice of tiles has one mask.  The shell only moves
tiles between the two sides; whether a choice is legal is the engine's answer
(:func:`~kwx_bot.service.game.check_reveal`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .game import Tile

__all__ = ["all_shown", "canonical", "shown_tiles", "toggled"]


def all_shown(kept: Sequence[Tile]) -> int:
    """The mask of the whole hand shown."""
    return (1 << len(kept)) - 1


def shown_tiles(kept: Sequence[Tile], mask: int) -> tuple[Tile, ...]:
    """The shown tiles of ``mask`` (tile order).  Raises ValueError for a mask with bits beyond the
    kept tiles (a forged button)."""
    if not 0 <= mask <= all_shown(kept):
        raise ValueError(f"mask {mask} does not fit {len(kept)} kept tiles")
    return tuple(t for i, t in enumerate(kept) if mask >> i & 1)


def canonical(kept: Sequence[Tile], shown: Sequence[Tile]) -> int:
    """The canonical mask of showing ``shown`` (a sub-multiset of ``kept``, both in tile order)."""
    left = Counter(shown)
    mask = 0
    for i, t in enumerate(kept):
        if left[t]:
            left[t] -= 1
            mask |= 1 << i
    return mask


def toggled(kept: Sequence[Tile], mask: int, position: int) -> int:
    """The canonical mask after the tile at ``position`` changes side: one copy of its tile more
    shown if it was hidden, one fewer if it was shown."""
    shown = list(shown_tiles(kept, canonical(kept, shown_tiles(kept, mask))))
    tile = kept[position]
    if mask >> position & 1:
        shown.remove(tile)
    else:
        shown.append(tile)
    return canonical(kept, sorted(shown))
