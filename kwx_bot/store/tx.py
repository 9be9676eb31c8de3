"""Write operations, available only inside :meth:`kwx_bot.store.Store.transaction`."""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from .db import INTEGRITY_ERRORS
from .errors import Conflict, StaleSeq, StoreError
from .rows import LedgerRow, TableStatus
from .seat_tx import SeatTx

__all__ = ["Conflict", "StaleSeq", "StoreError", "Tx", "dumps"]

_UNSET: Any = object()


def dumps(value: Any) -> str:
    """Compact, key-sorted JSON (stable text, so equal values store equal strings); read back by
    :func:`.rows.loads`."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


class Tx(SeatTx):
    """The write side of one open transaction on ``db`` (SQLite or PostgreSQL, see :mod:`.db`).
    ``now`` is the transaction's timestamp (unix seconds); the seats' writes are
    :class:`~.seat_tx.SeatTx`'s."""

    # -- users and chats -------------------------------------------------------------------------

    async def upsert_user(
        self,
        user_id: int,
        first_name: str,
        last_name: str | None = None,
        username: str | None = None,
        language_code: str | None = None,
    ) -> None:
        """Insert or refresh a user's names and language (shared by every bot; what each bot knows of
        the user, ``can_pm`` and a pending join, is kept)."""
        await self._exec(
            "INSERT INTO users (user_id, first_name, last_name, username, language_code, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET first_name = excluded.first_name, "
            "last_name = excluded.last_name, username = excluded.username, "
            "language_code = coalesce(excluded.language_code, users.language_code), "
            "updated_at = excluded.updated_at",
            (user_id, first_name or "", last_name, username, language_code, self.now),
        )

    async def set_can_pm(self, user_id: int, can_pm: bool, *, bot_id: int) -> None:
        """Record whether bot ``bot_id`` may message the user privately (nothing if the user row
        does not exist; another bot's fact is untouched)."""
        await self._bot_user(user_id, bot_id, "can_pm", int(can_pm))

    async def set_pending_join(self, user_id: int, table_id: int | None, *, bot_id: int) -> None:
        """Remember (or forget) a join of bot ``bot_id``'s table that waits for the user's ``/start``."""
        await self._bot_user(user_id, bot_id, "pending_table_id", table_id)
        await self._exec(
            "UPDATE bot_users SET pending_at = ? WHERE bot_id = ? AND user_id = ?",
            (None if table_id is None else self.now, bot_id, user_id),
        )

    async def _bot_user(self, user_id: int, bot_id: int, column: str, value: Any) -> None:
        """Set one column of the user's ``bot_users`` row for ``bot_id`` (created if needed; nothing
        if the user was never seen)."""
        await self._exec(
            f"INSERT INTO bot_users (bot_id, user_id, {column}) SELECT ?, user_id, ? FROM users WHERE user_id = ? "
            f"ON CONFLICT (bot_id, user_id) DO UPDATE SET {column} = excluded.{column}",
            (bot_id, value, user_id),
        )

    async def keep_group_writes(self, bot_id: int, writes: Mapping[int, Sequence[float]]) -> None:
        """Replace bot ``bot_id``'s kept group writes: group chat id -> unix times (a clean stop;
        docs/architecture.md §4 "Rate limits")."""
        await self._exec("DELETE FROM group_writes WHERE bot_id = ?", (bot_id,))
        for chat_id, times in writes.items():
            for sent_at in times:
                await self._exec(
                    "INSERT INTO group_writes (bot_id, chat_id, sent_at) VALUES (?, ?, ?)", (bot_id, chat_id, sent_at)
                )

    async def adopt(self, bot_id: int) -> int:
        """Give bot ``bot_id`` every row made before ownership (bot 0: tables and what the one bot of
        an older database knew of its users, docs/architecture.md §8); returns the number of tables
        adopted.  Run at a bot's start, in one transaction, so of several bots starting together on
        an upgraded database exactly one adopts them and the others find none."""
        if bot_id == 0:
            return 0
        adopted = int(await self._scalar("SELECT count(*) FROM tables WHERE bot_id = 0"))
        await self._exec("UPDATE tables SET bot_id = ? WHERE bot_id = 0", (bot_id,))
        await self._exec(
            "INSERT INTO bot_users (bot_id, user_id, can_pm, pending_table_id, pending_at) "
            "SELECT ?, user_id, can_pm, pending_table_id, pending_at FROM bot_users WHERE bot_id = 0 "
            "ON CONFLICT (bot_id, user_id) DO NOTHING",
            (bot_id,),
        )
        await self._exec("DELETE FROM bot_users WHERE bot_id = 0")
        return adopted

    async def ensure_group(self, chat_id: int, title: str = "") -> int:
        """Our group id for a Telegram group chat, created on first sight; the title is refreshed."""
        gid = await self._scalar("SELECT group_id FROM chats WHERE chat_id = ?", (chat_id,))
        if gid is None:
            gid = await self._scalar("SELECT group_id FROM chat_aliases WHERE old_chat_id = ?", (chat_id,))
        if gid is None:
            return int(
                await self._scalar(
                    "INSERT INTO chats (chat_id, title, created_at) VALUES (?, ?, ?) RETURNING group_id",
                    (chat_id, title, self.now),
                )
            )
        if title:
            await self._exec("UPDATE chats SET title = ? WHERE group_id = ?", (title, gid))
        return int(gid)

    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> int | None:
        """Group -> supergroup: point the group at ``new_chat_id``, keep ``old_chat_id`` as an alias.

        Returns the group id, or None if the old chat was never seen.  Idempotent.
        """
        gid = await self._scalar("SELECT group_id FROM chats WHERE chat_id = ?", (old_chat_id,))
        if gid is None:
            new = await self._scalar("SELECT group_id FROM chats WHERE chat_id = ?", (new_chat_id,))
            return None if new is None else int(new)
        clash = await self._scalar("SELECT group_id FROM chats WHERE chat_id = ?", (new_chat_id,))
        if clash is not None and clash != gid:
            # The new id was seen on its own first (an update raced the migration): retire that row's id.
            await self._exec("UPDATE chats SET chat_id = ? WHERE group_id = ?", (-(10**15) - clash, clash))
        await self._exec("UPDATE chats SET chat_id = ? WHERE group_id = ?", (new_chat_id, gid))
        await self._exec(
            "INSERT INTO chat_aliases (old_chat_id, group_id) VALUES (?, ?) "
            "ON CONFLICT (old_chat_id) DO UPDATE SET group_id = excluded.group_id",
            (old_chat_id, gid),
        )
        return int(gid)

    async def set_setting(self, group_id: int, key: str, value: Any) -> None:
        """Set one group setting (``value`` is stored as JSON)."""
        await self._exec(
            "INSERT INTO settings (group_id, key, value) VALUES (?, ?, ?) "
            "ON CONFLICT (group_id, key) DO UPDATE SET value = excluded.value",
            (group_id, key, dumps(value)),
        )

    # -- tables and seats ------------------------------------------------------------------------

    async def create_table(
        self, group_id: int, rules: Any, options: dict[str, Any], created_by: int | None, *, bot_id: int
    ) -> int:
        """A new table of bot ``bot_id`` in lobby state with a fresh random join token (96 bits,
        hex).  Raises :class:`Conflict` if the group has an open table: ``open_table`` when that
        bot runs it, ``other_bot`` when another bot does (one open table per group, whichever bot)."""
        try:
            async with self._db.guarded():
                table_id = await self._scalar(
                    "INSERT INTO tables (group_id, status, rules, options, created_by, created_at, updated_at, "
                    "join_token, bot_id) VALUES (?, 'lobby', ?, ?, ?, ?, ?, ?, ?) RETURNING table_id",
                    (group_id, dumps(rules), dumps(options), created_by, self.now, self.now, secrets.token_hex(12),
                     bot_id),
                )  # fmt: skip
        except INTEGRITY_ERRORS:
            owner = await self._scalar(
                "SELECT bot_id FROM tables WHERE group_id = ? AND status != 'closed'", (group_id,)
            )
            raise Conflict("open_table" if owner is None or owner == bot_id else "other_bot") from None
        return int(table_id)

    async def set_status(self, table_id: int, status: str, reason: str | None = None) -> None:
        """Move a table to ``status``; closing it frees its players' seats for other tables."""
        await self._exec(
            "UPDATE tables SET status = ?, updated_at = ?, closed_reason = coalesce(?, closed_reason) "
            "WHERE table_id = ?",
            (status, self.now, reason, table_id),
        )
        if status == TableStatus.CLOSED:
            await self._exec("UPDATE seats SET active = 0 WHERE table_id = ?", (table_id,))
            await self.set_deadline(table_id, None)

    async def touch(self, table_id: int) -> None:
        """Mark activity (lobby idle expiry counts from ``updated_at``)."""
        await self._exec("UPDATE tables SET updated_at = ? WHERE table_id = ?", (self.now, table_id))

    async def set_messages(
        self, table_id: int, *, lobby_msg_id: int | None = _UNSET, table_msg_id: int | None = _UNSET
    ) -> None:
        """Ids of the group's lobby message and live table message (unset arguments unchanged)."""
        if lobby_msg_id is not _UNSET:
            await self._exec("UPDATE tables SET lobby_msg_id = ? WHERE table_id = ?", (lobby_msg_id, table_id))
        if table_msg_id is not _UNSET:
            await self._exec("UPDATE tables SET table_msg_id = ? WHERE table_id = ?", (table_msg_id, table_id))

    async def set_deadline(
        self,
        table_id: int,
        at: float | None,
        seq: int | None = None,
        kind: str | None = None,
        start: float | None = None,
    ) -> None:
        """The table's pending timer: fires at unix time ``at`` if the table is still at ``seq``;
        ``start``: when the turn or claim it times began (docs/rules.md §E#33)."""
        live = at is not None
        await self._exec(
            "UPDATE tables SET deadline_at = ?, deadline_seq = ?, deadline_kind = ?, deadline_start = ? "
            "WHERE table_id = ?",
            (at, seq if live else None, kind if live else None, start if live else None, table_id),
        )

    async def set_next_deal(self, table_id: int, deal: dict[str, Any] | None) -> None:
        """A prepared deal (seed or hands + wall) used by the table's next hand."""
        await self._exec(
            "UPDATE tables SET next_deal = ? WHERE table_id = ?", (None if deal is None else dumps(deal), table_id)
        )

    async def set_next_dealer(self, table_id: int, dealer: int | None) -> None:
        """The dealer of the table's next hand (A15), None = chosen at random."""
        await self._exec("UPDATE tables SET next_dealer = ? WHERE table_id = ?", (dealer, table_id))

    async def set_announced(self, table_id: int, seq: int) -> None:
        """Group announcements are sent up to event ``seq``."""
        await self._exec(
            "UPDATE tables SET announced_seq = CASE WHEN announced_seq > ? THEN announced_seq ELSE ? END "
            "WHERE table_id = ?",
            (seq, seq, table_id),
        )

    async def set_rules(self, table_id: int, rules: Any) -> None:
        """Replace the table's rules (a preset name or an options object) for its next hand."""
        await self._exec("UPDATE tables SET rules = ? WHERE table_id = ?", (dumps(rules), table_id))

    async def set_options(self, table_id: int, options: dict[str, Any]) -> None:
        """Replace the table's options snapshot."""
        await self._exec("UPDATE tables SET options = ? WHERE table_id = ?", (dumps(options), table_id))

    # -- hands, events, ledger -------------------------------------------------------------------

    async def start_hand(
        self, table_id: int, hand_no: int, dealer: int, deal: dict[str, Any], sitting_out: int | None = None
    ) -> int:
        """A new hand row (status playing); the table moves to ``playing`` and its deal is consumed.
        ``sitting_out``: the member (user id) who sits this hand out (docs/rules.md §A2.1)."""
        seq = await self._scalar("SELECT seq FROM tables WHERE table_id = ?", (table_id,))
        hand_id = await self._scalar(
            "INSERT INTO hands (table_id, hand_no, dealer, deal, first_seq, status, started_at, sitting_out) "
            "VALUES (?, ?, ?, ?, ?, 'playing', ?, ?) RETURNING hand_id",
            (table_id, hand_no, dealer, dumps(deal), int(seq) + 1, self.now, sitting_out),
        )
        await self._exec(
            "UPDATE tables SET status = 'playing', hand_no = ?, next_deal = NULL, updated_at = ? WHERE table_id = ?",
            (hand_no, self.now, table_id),
        )
        return int(hand_id)

    async def append_events(
        self,
        table_id: int,
        hand_id: int,
        expected_seq: int,
        events: Sequence[tuple[str, dict[str, Any], int | None]],
    ) -> int:
        """Append ``(kind, data, actor)`` events after ``expected_seq``; returns the new table seq.

        Raises :class:`StaleSeq` if the table's seq moved on (the caller's decision is outdated) —
        on SQLite from the trip that runs the check with the transaction's writes (the next read,
        or the end of the ``async with``), the transaction then rolled back whole.
        """
        await self._db.expect(
            "SELECT seq FROM tables WHERE table_id = ?", (table_id,), expected_seq,
            lambda seq: StaleSeq(f"table {table_id} is at seq {seq}, not {expected_seq}"),
        )  # fmt: skip
        rows = [
            (table_id, expected_seq + i + 1, hand_id, kind, dumps(data), actor, self.now)
            for i, (kind, data, actor) in enumerate(events)
        ]
        await self._db.executemany(
            "INSERT INTO events (table_id, seq, hand_id, kind, data, actor, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            rows,
        )
        new_seq = expected_seq + len(rows)
        await self._exec("UPDATE tables SET seq = ?, updated_at = ? WHERE table_id = ?", (new_seq, self.now, table_id))
        return new_seq

    async def finish_hand(self, hand_id: int, status: str, result: dict[str, Any] | None) -> None:
        """Close a hand (``over`` with its result, or ``aborted``)."""
        await self._exec(
            "UPDATE hands SET status = ?, result = ?, ended_at = ? WHERE hand_id = ?",
            (status, None if result is None else dumps(result), self.now, hand_id),
        )

    async def record_ledger(self, group_id: int, season: int, table_id: int, rows: Sequence[LedgerRow]) -> None:
        """Append one hand's ledger rows; raises :class:`StoreError` unless they sum to zero."""
        if (
            sum(r.delta for r in rows) != 0
            or sum(r.hand_delta for r in rows) != 0
            or sum(r.kong_delta for r in rows) != 0
        ):
            raise StoreError(f"ledger rows of a hand must sum to zero: {[r.delta for r in rows]}")
        await self._db.executemany(
            "INSERT INTO ledger (group_id, season, table_id, hand_id, seat, user_id, hand_delta, kong_delta, "
            "delta, won, dealt_in, multiplier, fans, kind, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'hand', ?)",
            [
                (group_id, season, table_id, r.hand_id, r.seat, r.user_id, r.hand_delta, r.kong_delta, r.delta,
                 int(r.won), int(r.dealt_in), r.multiplier, r.fans, self.now)
                for r in rows
            ],
        )  # fmt: skip

    async def record_correction(self, hand_id: int, deltas: Mapping[int, int]) -> list[int]:
        """Correct a scored hand by compensating ledger rows (``kind = 'correction'``; the ledger
        is never updated or deleted).

        ``deltas``: points to add per seat (0-2), summing to zero; seats with 0 get no row.  Each
        row copies the group, season, table and player of that seat's ``hand`` row and points at it
        (``corrects``).  Returns the new entry ids.  Raises :class:`StoreError` if the hand has no
        ledger rows, a seat has none, or the deltas do not sum to zero.
        """
        if sum(deltas.values()) != 0:
            raise StoreError(f"a correction must sum to zero: {dict(deltas)}")
        found = await self._db.fetch(
            "SELECT seat, entry_id, group_id, season, table_id, user_id FROM ledger "
            "WHERE hand_id = ? AND kind = 'hand'",
            (hand_id,),
        )
        rows = {r[0]: r for r in found}
        if not rows:
            raise StoreError(f"hand {hand_id} has no ledger rows to correct")
        ids = []
        for seat, delta in sorted(deltas.items()):
            if not delta:
                continue
            row = rows.get(seat)
            if row is None:
                raise StoreError(f"hand {hand_id} has no ledger row for seat {seat}")
            _, entry_id, group_id, season, table_id, user_id = row
            entry = await self._scalar(
                "INSERT INTO ledger (group_id, season, table_id, hand_id, seat, user_id, hand_delta, kong_delta, "
                "delta, kind, corrects, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, 'correction', ?, ?) "
                "RETURNING entry_id",
                (group_id, season, table_id, hand_id, seat, user_id, delta, delta, entry_id, self.now),
            )
            ids.append(int(entry))
        return ids

    async def reverse_hand(self, hand_id: int) -> list[int]:
        """Cancel a scored hand's points (hand, kong money and earlier corrections) with
        compensating rows; a hand already at zero for every seat gets none.  See
        :meth:`record_correction`."""
        found = await self._db.fetch("SELECT seat, SUM(delta) FROM ledger WHERE hand_id = ? GROUP BY seat", (hand_id,))
        net = {int(r[0]): int(r[1]) for r in found}
        if not net:
            raise StoreError(f"hand {hand_id} has no ledger rows to correct")
        return await self.record_correction(hand_id, {seat: -points for seat, points in net.items()})
