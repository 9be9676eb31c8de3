"""The hand messages of hands that ended while their player had the Mini App's page open
(docs/architecture.md §4 "The Mini App").

While a player has the table open on the page the presenter makes no write for his hand message, so
when a hand ends then, its message may still read "Your turn" with its buttons; and a deal gives
every seat a new message, after which nothing would ever edit the old one.  So before a deal the
presenter hands over, for each such player, the old message and what it should end on — its screen
with the hand over, as a hand played in the chat ends (:func:`~.present.hand_target`) —, and
:meth:`EndedHands.deliver` makes it show that once the player has left the page (or asked ``/hand``,
or the table ended): one write per such hand, none while the page is open.

In memory only: after a restart such a message keeps its buttons, and a press on one is refused as
an old hand's.
"""

from __future__ import annotations

from .delivery import Delivered, Delivery, Target
from .ports import Outcome

__all__ = ["EndedHands"]


class EndedHands:
    """Hand messages waiting to show that their hand ended, per (table id, user id) (module
    docstring); written through ``delivery``."""

    def __init__(self, delivery: Delivery) -> None:
        self.delivery = delivery
        self.waiting: dict[tuple[int, int], list[tuple[int, Delivered, Target]]] = {}
        """(table id, user id) -> [(message id, what delivery last made it show, what it should end
        on)], oldest first"""

    def keep(self, table_id: int, user_id: int, msg_id: int, delivered: Delivered, target: Target) -> None:
        """The user's hand message ``msg_id`` at ``table_id`` shows ``delivered`` and should end on
        ``target`` once he has left the page; nothing is kept when it already shows that."""
        if delivered.shown != target.shown:
            self.waiting.setdefault((table_id, user_id), []).append((msg_id, delivered, target))

    async def deliver(self, table_id: int, user_id: int) -> bool:
        """Make the user's waiting messages at ``table_id`` show their ends (a message gone is left
        alone); False if a write failed: that message waits for the next call."""
        failed = []
        for msg_id, delivered, target in self.waiting.pop((table_id, user_id), []):
            sent = await self.delivery.deliver(user_id, msg_id, delivered, target)
            if sent is not None and sent.outcome is Outcome.FAILED:
                failed.append((msg_id, delivered, target))
        if failed:
            self.waiting[(table_id, user_id)] = failed + self.waiting.get((table_id, user_id), [])
        return not failed
