"""The seats' writes of a transaction (who sits where, 托管, the time bank, what each hand message
shows), the part of :class:`~.tx.Tx` about one seat at a table; available only inside
:meth:`kwx_bot.store.Store.transaction`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .db import INTEGRITY_ERRORS, Db
from .errors import Conflict, StoreError

__all__ = ["SeatTx", "TxBase"]


class TxBase:
    """One open transaction on ``db`` (SQLite or PostgreSQL, see :mod:`.db`) at ``now`` (unix
    seconds): how its writes run their statements."""

    def __init__(self, db: Db, now: float) -> None:
        self._db = db
        self.now = now
        self._exec = db.execute
        """Run one statement (:meth:`.db.Db.execute`: the database's own, no layer in between)."""
        self._scalar = db.fetchval
        """The first column of the first row, or None (:meth:`.db.Db.fetchval`)."""


class SeatTx(TxBase):
    """Writes about the seats of a table (docs/architecture.md §4 "Persistence and restart")."""

    async def sit(self, table_id: int, seat: int, *, user_id: int | None = None, ai_level: str | None = None) -> None:
        """Take a seat for a user or an AI; raises :class:`Conflict` (``seated`` / ``seat_taken``)."""
        if user_id is not None:
            other = await self._scalar("SELECT table_id FROM seats WHERE user_id = ? AND active = 1", (user_id,))
            if other is not None:
                raise Conflict("seated")
        try:
            async with self._db.guarded():
                await self._exec(
                    "INSERT INTO seats (table_id, seat, user_id, ai_level, joined_at) VALUES (?, ?, ?, ?, ?)",
                    (table_id, seat, user_id, ai_level, self.now),
                )
        except INTEGRITY_ERRORS:
            raise Conflict("seat_taken") from None

    async def unseat(self, table_id: int, seat: int) -> None:
        """Free a seat: in a lobby, or a member or AI seat leaving a table of four members between
        hands (docs/rules.md §A2.1).  Nothing references a seat: ledger rows keep their own user and
        seat, and a seat given to an AI mid-hand (:meth:`replace_seat`) stays until the hand is over."""
        await self._exec("DELETE FROM seats WHERE table_id = ? AND seat = ?", (table_id, seat))

    async def reseat(self, table_id: int, order: Sequence[int]) -> None:
        """Renumber a table's chairs: the occupant of chair ``order[i]`` moves to chair ``i``, every
        other column kept (chairs not in ``order`` must be empty).  Four members at a 3-seat table
        change places between hands (docs/rules.md §A2.1), and a lobby closes its gaps."""
        found = await self._db.fetch(
            "SELECT seat, user_id, ai_level, active, on_auto, timeouts, hand_msg_id, joined_at, last_press, "
            "shown_digest, reminder_msg_id, reminder_seq FROM seats WHERE table_id = ?",
            (table_id,),
        )
        rows = {r[0]: tuple(r) for r in found}
        if sorted(order) != sorted(rows) or len(set(order)) != len(order):
            raise StoreError(f"table {table_id}: cannot move chairs {sorted(rows)} to the order {list(order)}")
        await self._exec("DELETE FROM seats WHERE table_id = ?", (table_id,))
        await self._db.executemany(
            "INSERT INTO seats (table_id, seat, user_id, ai_level, active, on_auto, timeouts, hand_msg_id, joined_at, "
            "last_press, shown_digest, reminder_msg_id, reminder_seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(table_id, new, *rows[old][1:]) for new, old in enumerate(order)],
        )

    async def replace_seat(self, table_id: int, seat: int, *, user_id: int | None, ai_level: str | None) -> None:
        """Give a seat to another player or an AI (e.g. /kick); the old occupant leaves the table."""
        await self._exec(
            "UPDATE seats SET user_id = ?, ai_level = ?, on_auto = 0, timeouts = 0, hand_msg_id = NULL, "
            "reminder_msg_id = NULL WHERE table_id = ? AND seat = ?",
            (user_id, ai_level, table_id, seat),
        )

    async def set_seat_auto(self, table_id: int, seat: int, *, on_auto: bool, timeouts: int) -> None:
        """托管 flag and the count of consecutive time-outs of a seat."""
        await self._exec(
            "UPDATE seats SET on_auto = ?, timeouts = ? WHERE table_id = ? AND seat = ?",
            (int(on_auto), timeouts, table_id, seat),
        )

    async def set_bank_used(self, table_id: int, seat: int, used: float) -> None:
        """Seconds of the seat's time bank spent in the current hand (docs/rules.md §E#33)."""
        await self._exec("UPDATE seats SET bank_used = ? WHERE table_id = ? AND seat = ?", (used, table_id, seat))

    async def reset_banks(self, table_id: int) -> None:
        """A deal: every seat's time bank is whole again (docs/rules.md §E#33)."""
        await self._exec("UPDATE seats SET bank_used = 0 WHERE table_id = ?", (table_id,))

    async def set_last_press(self, table_id: int, seat: int, press: str | None) -> None:
        """The seat's last accepted press (see :attr:`SeatRow.last_press`)."""
        await self._exec("UPDATE seats SET last_press = ? WHERE table_id = ? AND seat = ?", (press, table_id, seat))

    async def set_reminder(self, table_id: int, seat: int, msg_id: int | None, seq: int) -> None:
        """The seat's turn reminder not yet deleted (``msg_id``; None once it is) and the seq it
        reminded of (see :attr:`SeatRow.reminder_msg_id`)."""
        await self._exec(
            "UPDATE seats SET reminder_msg_id = ?, reminder_seq = ? WHERE table_id = ? AND seat = ?",
            (msg_id, seq, table_id, seat),
        )

    async def set_shown_digests(self, table_id: int, seats: Mapping[int, str | None], table: str | None) -> None:
        """What the table's messages show (a clean stop) or None for all (a start that read them)."""
        for seat, digest in seats.items():
            await self._exec(
                "UPDATE seats SET shown_digest = ? WHERE table_id = ? AND seat = ?", (digest, table_id, seat)
            )
        await self._exec("UPDATE tables SET table_digest = ? WHERE table_id = ?", (table, table_id))

    async def set_hand_msg(self, table_id: int, seat: int, msg_id: int | None) -> None:
        """The seat's current private hand message id (older ones' buttons stop working)."""
        await self._exec("UPDATE seats SET hand_msg_id = ? WHERE table_id = ? AND seat = ?", (msg_id, table_id, seat))
