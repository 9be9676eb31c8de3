"""When something fails on the bot's side: a short word to the table's group and a report to the
operator, each at most so often (docs/architecture.md §4).  The committed game state is intact
whenever these are called: a move's transaction rolled back or committed whole."""

from __future__ import annotations

import logging
import time

from ..settings import Settings
from ..words.i18n import translator
from ..words.texts import esc, visible
from .live import LiveTable
from .ports import Messenger

__all__ = ["REPORT_INTERVAL", "TROUBLE_INTERVAL", "Troubles"]

log = logging.getLogger("kwx.service")

TROUBLE_INTERVAL = 300.0
"""At most one "something went wrong" notice per table in this many seconds."""
REPORT_INTERVAL = 60.0
"""At most one error report to the operator's admin chat in this many seconds."""


class Troubles:
    """The group's and the operator's word of a failure, through ``sender``; the operator's chat is
    ``settings.admin_chat_id``."""

    def __init__(self, sender: Messenger, settings: Settings) -> None:
        self.sender = sender
        self.settings = settings
        self._trouble: dict[int, float] = {}
        self._last_report = -REPORT_INTERVAL

    async def report(self, text: str) -> None:
        """A short error report to the operator's ``KWX_ADMIN_CHAT_ID`` (at most one per
        :data:`REPORT_INTERVAL`; nothing without an admin chat)."""
        admin = self.settings.admin_chat_id
        now = time.monotonic()
        if admin is None or now - self._last_report < REPORT_INTERVAL:
            return
        self._last_report = now
        await self.sender.send_text(admin, esc(visible(text)[:500]), notify=False)

    async def trouble(self, live: LiveTable, error: BaseException | None = None) -> None:
        """Something failed at a table (already logged): tell its group briefly instead of staying
        silent (at most once per :data:`TROUBLE_INTERVAL`) and the operator; the committed game
        state is intact."""
        if error is not None:
            await self.report(f"kwx error at table {live.table_id} (chat {live.row.chat_id}): {error!r}")
        now = time.monotonic()
        if now - self._trouble.get(live.table_id, -TROUBLE_INTERVAL) < TROUBLE_INTERVAL:
            return
        self._trouble[live.table_id] = now
        tr = translator(live.group_lang)
        text = tr.gettext(
            "⚠️ Something went wrong on my side while updating the table. No move was lost: "
            "players can send /hand to me privately to see their hand again."
        )
        try:
            await self.sender.send_text(live.row.chat_id, text, notify=False)
        except Exception:  # pragma: no cover - the sender never raises for Telegram errors
            log.exception("table %s: could not tell the group", live.table_id)
