"""``/void <hand> [table]``: a group administrator cancels a scored hand's points.

The ledger is append-only: voiding writes compensating ``correction`` rows
(:meth:`kwx_bot.store.tx.Tx.reverse_hand`) so the hand nets to zero for every seat; nothing is
updated or deleted, and ``/score``, ``/history`` and ``/export`` show the corrections.  The command
shows the hand as ``/history`` does with two buttons (:class:`kwx_bot.edge.codec.VoidButton`): "Void this
hand" and "Cancel".  A hand already voided is never voided twice (checked inside the writing
transaction, so a repeated or concurrent press adds nothing).

``<hand>`` is the hand number ``/history`` shows (numbered per table); without ``[table]`` the newest
hand of the group with that number is meant.  Only administrators (anonymous ones included) may
void; everyone else gets the polite refusal of ``/settings``.
"""

from __future__ import annotations

import logging

from ..store import HandRecord
from ..words.i18n import Translator, translator
from ..words.ledger_text import format_hand
from .admin import Admin
from .buttons import Key, Keyboard, VoidButton, keyboard
from .records import hand_args
from .tables import Tables
from .values import Command, Edit, Out, Reply, Response, UserInfo

__all__ = ["Voids"]

log = logging.getLogger("kwx.void")


class Voids:
    """See the module docstring."""

    def __init__(self, tables: Tables, admin: Admin) -> None:
        self.tables = tables
        self.store = tables.store
        self.admin = admin

    async def _find(self, gid: int, hand_no: int, table_id: int | None) -> tuple[int, bool] | None:
        """``(hand_id, several tables have a hand with this number)`` of the group's newest scored
        hand numbered ``hand_no`` (at ``table_id`` if given), or None."""
        rows = await self.store.scored_hands_numbered(gid, hand_no)
        several = len({t for _h, t in rows}) > 1
        rows = [r for r in rows if table_id is None or r[1] == table_id]
        return (rows[0][0], several) if rows else None

    async def _record(self, gid: int, hand_id: int) -> HandRecord | None:
        records = await self.store.recent_hands(gid, 1, hand_id=hand_id)
        return records[0] if records else None

    async def void(self, cmd: Command) -> Response:
        """``/void N [T]``: the hand and the two confirmation buttons (administrators only)."""
        refusal = await self.admin.refusal(cmd, "void")
        if refusal is not None:
            return refusal
        gid, tr = await self.admin.context(cmd)
        hand_no, table_id = hand_args(cmd.args) or (None, None)
        if hand_no is None:
            text = tr.gettext(
                "Use /void N with the hand's number as /history shows it (/void N T for hand N of table T)."
            )
            return Response.of(Out(text, reply=True))
        found = await self._find(gid, hand_no, table_id)
        record = await self._record(gid, found[0]) if found is not None else None
        if found is None or record is None:
            text = tr.gettext("There is no scored hand {n} in this group (see /history).").format(n=hand_no)
            return Response.of(Out(text, reply=True))
        hand_id, several = found
        zero, corrected = await self.store.hand_void_state(hand_id)
        block = format_hand(record, tr, show_table=several)
        if zero:
            if corrected:
                text = tr.gettext("Hand {n} is already voided: its points no longer count.")
            else:
                text = tr.gettext("Hand {n} moved no points: there is nothing to void.")
            return Response.of(Out(text.format(n=hand_no) + "\n\n" + block, reply=True))
        question = tr.gettext("Void this hand? Its points will no longer count (the ledger keeps a correction).")
        return Response.of(Out(block + "\n\n" + question, _keyboard(tr, gid, hand_id), reply=True))

    async def press(self, user: UserInfo, chat_id: int | None, message_id: int | None, pressed: VoidButton) -> Response:
        """A "Void this hand" / "Cancel" button: the answer, the question edited to say what
        happened, and after a void a notice to the group."""
        tr = self.tables.user_tr(user.language_code)
        refusal = tr.gettext("Sorry, only the group's administrators can use /{command}.").format(command="void")
        button = await self.admin.admin_button(user, chat_id, message_id, pressed, refusal)
        if isinstance(button, Reply):
            return Response(button)
        assert chat_id is not None and message_id is not None
        gid = button.group_id
        gtr = translator(await self.tables.group_lang(gid))
        record = await self._record(gid, button.hand_id)
        if record is None:
            return Response(Reply(tr.gettext("This button is not one of mine (or it is too old).")))
        if not button.confirm:
            text = gtr.gettext("Cancelled: hand {n} still counts.").format(n=record.hand_no)
            return Response(Reply(), (Edit(chat_id, message_id, format_hand(record, gtr) + "\n\n" + text),))
        async with self.store.transaction() as tx:
            ids = await tx.reverse_hand(button.hand_id)
        if not ids:
            text = gtr.gettext("Hand {n} is already voided: its points no longer count.").format(n=record.hand_no)
            return Response(Reply(text, True), (Edit(chat_id, message_id, format_hand(record, gtr) + "\n\n" + text),))
        log.info("group %s: hand %s voided by user %s (entries %s)", gid, button.hand_id, user.user_id, ids)
        record = await self._record(gid, button.hand_id) or record
        done = gtr.gettext("Voided: its points no longer count.")
        notice = gtr.gettext("An administrator voided hand {n}: its points no longer count (see /score).")
        edit = Edit(chat_id, message_id, format_hand(record, gtr) + "\n\n" + done)
        return Response(Reply(gtr.gettext("Voided.")), (edit, Out(notice.format(n=record.hand_no))))


def _keyboard(tr: Translator, gid: int, hand_id: int) -> Keyboard:
    _ = tr.gettext
    return keyboard(
        [Key(_("Void this hand"), VoidButton(gid, hand_id, True)), Key(_("Cancel"), VoidButton(gid, hand_id, False))]
    )
