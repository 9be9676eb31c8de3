"""Time to think (docs/rules.md §E#33): each move's own time, a time bank per hand, and when a
seat that keeps timing out goes on 托管.

A table's *time control* is three numbers from its group's settings: the seconds to discard, the
seconds to answer a claim window, and the seconds of each seat's *time bank*.  A seat that must act
has its move's own time; once that runs out it spends its bank, which lasts the whole hand and is
whole again at the next deal (twice as long in a table's first hand, while people learn the
pictures).  A seat is due when both are gone; the table's stored deadline is the earliest due of
the seats it waits on.  The bank a seat spends is the time it took past its move's own time.

Everything here is pure arithmetic on seconds (unix time for instants), so the rules can be tested
without a clock.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "ACTIVE_SECONDS",
    "AUTO_AFTER_TIMEOUTS",
    "FIRST_HAND_BANK_FACTOR",
    "TIMER_KEYS",
    "TimeControl",
    "goes_on_auto",
]

TIMER_KEYS = ("discard_seconds", "claim_seconds", "bank_seconds")
"""The group settings and table options that make a table's time control (0 = none)."""

AUTO_AFTER_TIMEOUTS = 2
"""Consecutive time-outs after which a seat goes on 托管 (unless its player was active lately)."""

ACTIVE_SECONDS = 60.0
"""A player who pressed anything at the table this recently is never put on 托管: they are there,
just slow (they time out, and are warned, but keep their seat)."""

FIRST_HAND_BANK_FACTOR = 2.0
"""The time bank of a table's first hand, in banks: new players read their first pictures."""


def _seconds(options: Mapping[str, Any], key: str, default: float) -> float:
    value = options.get(key, default)
    ok = isinstance(value, int | float) and not isinstance(value, bool) and value >= 0
    return float(value) if ok else default


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A table's time control, in seconds: ``discard`` (a turn's own time), ``claim`` (a claim
    window's own time) and ``bank`` (each seat's time bank per hand).  ``discard`` / ``claim`` 0 =
    that kind of move has no deadline at all (the bank does not apply either)."""

    discard: float
    claim: float
    bank: float

    @classmethod
    def of(cls, options: Mapping[str, Any], *, discard: float, claim: float, bank: float) -> TimeControl:
        """From a table's ``options`` (:data:`TIMER_KEYS`), the operator's defaults filling gaps
        (tables opened before the bank existed have none: they get the default)."""
        return cls(
            discard=_seconds(options, "discard_seconds", discard),
            claim=_seconds(options, "claim_seconds", claim),
            bank=_seconds(options, "bank_seconds", bank),
        )

    def own_time(self, kind: str) -> float:
        """A move's own time: ``kind`` is ``"turn"`` (discard) or ``"claim"``."""
        return self.discard if kind == "turn" else self.claim

    def bank_of_hand(self, hand_no: int) -> float:
        """The whole time bank of each seat in hand number ``hand_no`` (1 = the table's first)."""
        return self.bank * (FIRST_HAND_BANK_FACTOR if hand_no <= 1 else 1.0)

    def bank_left(self, hand_no: int, used: float) -> float:
        """What is left of a bank of which ``used`` seconds were spent this hand (never below 0)."""
        return max(0.0, self.bank_of_hand(hand_no) - used)

    def due(self, kind: str, start: float, bank_left: float) -> float:
        """When a seat that began to think at unix time ``start`` is out of time."""
        return start + self.own_time(kind) + bank_left

    def spent(self, kind: str, start: float, now: float, bank_left: float) -> float:
        """Bank seconds spent by a seat acting at ``now`` on a move that began at ``start``: the time
        past its own time, at most what was left."""
        return min(bank_left, max(0.0, now - start - self.own_time(kind)))


def goes_on_auto(timeouts: int, idle_seconds: float) -> bool:
    """After a time-out (``timeouts`` in a row, this one included): does the seat go on 托管?  Only
    after :data:`AUTO_AFTER_TIMEOUTS` in a row, and never while its player pressed anything at the
    table in the last :data:`ACTIVE_SECONDS` (``idle_seconds``: since the last press)."""
    return timeouts >= AUTO_AFTER_TIMEOUTS and idle_seconds >= ACTIVE_SECONDS
