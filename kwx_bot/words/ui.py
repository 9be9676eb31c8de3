"""Small shared vocabulary of the hand-message interface."""

from __future__ import annotations

import enum

__all__ = ["Ui"]


class Ui(enum.Enum):
    """A player's hand-message mode: normal buttons, the 亮倒 discard menu, or its confirmation."""

    NORMAL = "normal"
    LIANGDAO = "liangdao"
    CONFIRM = "confirm"
