"""The store's errors (re-exported by :mod:`.tx` and the package)."""

from __future__ import annotations

__all__ = ["Conflict", "StaleSeq", "StoreError"]


class StoreError(RuntimeError):
    """The database cannot be used (newer schema, broken invariant)."""


class Conflict(StoreError):
    """A uniqueness rule refused the write: ``what`` is ``"open_table"`` (the group already has an
    open table), ``"other_bot"`` (the group has an open table that another bot runs), ``"seated"``
    (the user already sits at an open table, whichever bot runs it) or ``"seat_taken"``."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


class StaleSeq(StoreError):
    """Events were appended against an outdated table seq (someone else moved first)."""
