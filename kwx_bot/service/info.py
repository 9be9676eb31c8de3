"""Answers that change nothing: ``/help``, ``/rules``, ``/calc``, ``/verify``, and the hint for
private messages that are no command the bot knows.

In a group they use the group's language and settings (the rules the next hand is dealt with); in a
private chat the user's language and the rules of the table they sit at (else the standard game).
"""

from __future__ import annotations

from ..store import TableStatus
from ..words.help_text import help_text
from ..words.i18n import Translator, translator
from ..words.rules_text import describe_rules
from ..words.texts import quote, table_size
from ..words.verify_text import verify_text
from . import game
from .calc import calc_reply
from .group_settings import GroupConfig, TableChoice
from .records import find_hand, hand_args
from .tables import Tables
from .values import Command, Out, Response

__all__ = ["Info"]


class Info:
    """See the module docstring."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.store = tables.store

    async def _where(self, cmd: Command) -> tuple[GroupConfig | None, Translator, int | None]:
        """The group's settings (None in private), the reader's translator, and the open table id."""
        if cmd.private:
            seat = await self.store.open_seat_of_user(cmd.user.user_id, bot_id=self.tables.bot_id)
            table = await self.store.get_table(seat.table_id) if seat is not None else None
            config = await self.tables.config(table.group_id) if table is not None else None
            if config is not None and table is not None:
                rules, options = table.rules, table.options
                config = GroupConfig(rules, options.get("discard_seconds", config.discard_seconds),
                                     options.get("claim_seconds", config.claim_seconds), config.language,
                                     options.get("bank_seconds", config.bank_seconds))  # fmt: skip
            return config, self.tables.user_tr(cmd.user.language_code), None
        async with self.store.transaction() as tx:
            gid = await tx.ensure_group(cmd.chat_id, cmd.title)
        config = await self.tables.config(gid)
        table = await self.store.open_table_of_group(gid, bot_id=self.tables.bot_id)
        return config, translator(config.language), table.table_id if table is not None else None

    async def help(self, cmd: Command) -> Response:
        """``/help [calc]``."""
        _config, tr, _table = await self._where(cmd)
        return Response.of(Out(help_text(tr, " ".join(cmd.args))))

    async def rules(self, cmd: Command) -> Response:
        """``/rules``: the rules in plain words, with the table timers."""
        config, tr, table_id = await self._where(cmd)
        if config is None:
            return Response.of(Out(describe_rules(GroupConfig("standard", 0, 0, tr.lang).ruleset(), tr)))
        table = await self.store.get_table(table_id) if table_id is not None else None
        choice = TableChoice.of(table.options) if table is not None else TableChoice.default(config.rules)
        rules_json, options = self.tables.table_config(config, choice)
        try:
            rules = game.rules_from_json(rules_json)
        except game.RuleError:  # a game the bot cannot deal yet: the group's own rules
            rules = config.ruleset()
        size = table_size(choice.game, rules.players, game.members(rules), tr)
        text = (
            size
            + "\n"
            + describe_rules(
                rules,
                tr,
                discard_seconds=config.discard_seconds,
                claim_seconds=config.claim_seconds,
                bank_seconds=config.bank_seconds,
            )
        )
        if (
            table is not None
            and table.status == TableStatus.PLAYING
            and (rules_json != table.rules or options != table.options)
        ):
            text += "\n" + tr.gettext("The hand in play keeps its rules; these apply from the next hand.")
        return Response.of(Out(text))

    async def calc(self, cmd: Command) -> Response:
        """``/calc <hand> <winning tile> [how] [options]``: 番, multiplier and payments."""
        config, tr, _table = await self._where(cmd)
        rules = config.ruleset() if config is not None else GroupConfig("standard", 0, 0, tr.lang).ruleset()
        return Response.of(Out(calc_reply(cmd.text, rules, tr), reply=True))

    async def verify(self, cmd: Command) -> Response:
        """``/verify [N [T]]`` in a group: hand N's commitment, and once the hand is over its seed and
        the ``python -m engine deal`` command that re-derives it (:mod:`kwx_bot.words.verify_text`).

        ``N`` is the hand number as ``/history`` shows it (per table; the newest hand of the group with
        that number, or of table ``T``); without arguments the group's newest hand.  The seed of a hand
        in play is never shown (docs/rules.md §A3.1).
        """
        if cmd.private:
            tr = self.tables.user_tr(cmd.user.language_code)
            return Response.of(Out(tr.gettext("Send /verify N in the group where hand N was played.")))
        _config, tr, _table = await self._where(cmd)
        gid = await self.store.group_id_for_chat(cmd.chat_id)
        parsed = hand_args(cmd.args)
        if parsed is None:
            text = tr.gettext("Use /verify N with the hand's number as /history shows it (/verify N T for table T).")
            return Response.of(Out(text, reply=True))
        hand_no, table_id = parsed
        found = await find_hand(self.store, gid, hand_no, table_id)
        hand = found.hand
        if hand is None:
            return Response.of(Out(found.missing(tr, hand_no), reply=True))
        events = await self.store.hand_events(hand.hand_id)
        started = events[0].data if events else {}
        seed = started.get("seed")
        seed = seed if isinstance(seed, str) else None
        text = verify_text(
            tr, hand_no=hand.hand_no, over=hand.status != "playing", seed=seed,
            commitment=None if seed is None else game.commitment(seed), dealer=int(started.get("dealer", hand.dealer)),
            rules=started.get("rules"), table_id=hand.table_id if found.several else None,
        )  # fmt: skip
        return Response.of(Out(text, reply=True))

    async def private_other(self, cmd: Command) -> Response:
        """A private message that is not one of the bot's commands: an unknown ``/command`` or plain
        text gets a short hint pointing to ``/help`` (in the user's language)."""
        tr = self.tables.user_tr(cmd.user.language_code)
        word = cmd.text.split(maxsplit=1)[0] if cmd.text.startswith("/") else ""
        if len(word) > 1:
            text = tr.gettext("I don't know {command}. Send /help to see what I can do.").format(
                command=quote(word.split("@", 1)[0], 32)
            )
        else:
            text = tr.gettext(
                "I only answer commands here. Send /help to see them; your hand appears here when you sit at a "
                "table (/hand sends it again)."
            )
        return Response.of(Out(text, reply=True))
