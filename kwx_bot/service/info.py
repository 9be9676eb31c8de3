"""Answers that change nothing: ``/help``, ``/rules`` and ``/calc``.

In a group they use the group's language and settings (the rules the next hand is dealt with); in a
private chat the user's language and the rules of the table they sit at (else the standard game).
"""

from __future__ import annotations

from ..store import TableStatus
from ..words.calc import calc_reply
from ..words.help_text import help_text
from ..words.i18n import Translator
from ..words.rules_text import describe_rules
from .group_settings import GroupConfig
from .tables import Tables
from .values import Command, Out

__all__ = ["Info"]


class Info:
    """See the module docstring."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.store = tables.store

    async def _where(self, cmd: Command) -> tuple[GroupConfig | None, Translator, int | None]:
        """The group's settings (None in private), the reader's translator, and the open table id."""
        if cmd.private:
            seat = await self.store.open_seat_of_user(cmd.user.user_id)
            table = await self.store.get_table(seat.table_id) if seat is not None else None
            config = await self.tables.config(table.group_id) if table is not None else None
            if config is not None and table is not None:
                rules, options = table.rules, table.options
                config = GroupConfig(rules, options.get("discard_seconds", config.discard_seconds),
                                     options.get("claim_seconds", config.claim_seconds), config.language)  # fmt: skip
            return config, self.tables.user_tr(cmd.user.language_code), None
        async with self.store.transaction() as tx:
            gid = await tx.ensure_group(cmd.chat_id, cmd.title)
        config = await self.tables.config(gid)
        table = await self.store.open_table_of_group(gid)
        return config, self.tables.tr(config.language), table.table_id if table is not None else None

    async def help(self, cmd: Command) -> list[Out]:
        """``/help [calc]``."""
        _config, tr, _table = await self._where(cmd)
        return [Out(help_text(tr, " ".join(cmd.args)))]

    async def rules(self, cmd: Command) -> list[Out]:
        """``/rules``: the rules in plain words, with the table timers."""
        config, tr, table_id = await self._where(cmd)
        if config is None:
            return [Out(describe_rules(GroupConfig("standard", 0, 0, tr.lang).ruleset(), tr))]
        text = describe_rules(
            config.ruleset(), tr, discard_seconds=config.discard_seconds, claim_seconds=config.claim_seconds
        )
        table = await self.store.get_table(table_id) if table_id is not None else None
        if table is not None and table.status == TableStatus.PLAYING:
            rules, options = self.tables.table_config(config)
            if rules != table.rules or options != table.options:
                text += "\n" + tr.gettext("The hand in play keeps its rules; these apply from the next hand.")
        return [Out(text)]

    async def calc(self, cmd: Command) -> list[Out]:
        """``/calc <hand> <winning tile> [how] [options]``: 番, multiplier and payments."""
        config, tr, _table = await self._where(cmd)
        rules = config.ruleset() if config is not None else GroupConfig("standard", 0, 0, tr.lang).ruleset()
        return [Out(calc_reply(cmd.text, rules, tr), reply=True)]
