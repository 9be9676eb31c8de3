"""A controllable clock: real time plus an offset that tests can advance.

Everything time-dependent in the fake (message ``date``s, flood waits, callback-query age, call
timestamps) reads this clock, so a test can either wait for real (short) durations or jump ahead
with :meth:`FakeClock.advance` — e.g. skip a 30 s ``retry_after`` instantly. Long-poll timeouts of
``getUpdates`` use real asyncio time (they only bound idle waiting).
"""

from __future__ import annotations

import time


class FakeClock:
    """Real time shifted by an adjustable offset (seconds)."""

    def __init__(self) -> None:
        self._offset = 0.0

    def monotonic(self) -> float:
        """Monotonic seconds (for ages and deadlines)."""
        return time.monotonic() + self._offset

    def time(self) -> float:
        """Unix time in seconds (for Telegram ``date`` fields)."""
        return time.time() + self._offset

    def advance(self, seconds: float) -> None:
        """Jump ``seconds`` into the future (negative values are refused)."""
        if seconds < 0:
            raise ValueError(f"the clock only moves forward, got {seconds}")
        self._offset += seconds

    @property
    def offset(self) -> float:
        """Total seconds advanced so far."""
        return self._offset
