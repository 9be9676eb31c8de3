"""Ledger reports for chat commands: ``/score``, ``/score me``, ``/history [n]``, ``/settle``,
``/export``.

Each method takes a :class:`~.values.Command` and returns the messages to send (:class:`~.values.Out`);
the SQL is in :mod:`kwx_bot.store.ledger_queries` (read-only, on the store's reader connection) and the
wording in :mod:`kwx_bot.words.ledger_text`.  Group reports are in the group's language; ``/score me`` in a
private chat is in the user's language and covers every group the user played in.
"""

from __future__ import annotations

from ..words.i18n import Translator, translator
from ..words.ledger_text import (
    ReportArgError,
    export_filename,
    format_history,
    format_my_standings,
    format_settlement,
    format_standings,
    ledger_csv,
    parse_history_count,
)
from ..words.texts import name
from .tables import Tables
from .values import Command, Out, Response

__all__ = ["Reports"]


class Reports:
    """See the module docstring."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.store = tables.store

    async def _group(self, cmd: Command) -> tuple[int | None, Translator]:
        gid = await self.store.group_id_for_chat(cmd.chat_id)
        lang = await self.tables.group_lang(gid) if gid is not None else self.tables.settings.default_language
        return gid, translator(lang)

    def _in_group_only(self, cmd: Command, command: str) -> Response:
        tr = self.tables.user_tr(cmd.user.language_code)
        return Response.of(Out(tr.gettext("Send /{command} in a group where you play.").format(command=command)))

    async def score(self, cmd: Command) -> Response:
        """``/score`` (group: the season's standings; private: your standings) and ``/score me``."""
        if cmd.private and cmd.args and not self._is_me(cmd.args):
            tr = self.tables.user_tr(cmd.user.language_code)
            return Response.of(
                Out(tr.gettext("Use /score me for your standings (in a group, /score shows everyone's)."))
            )
        if cmd.private or self._is_me(cmd.args):
            return await self._score_me(cmd)
        gid, tr = await self._group(cmd)
        if cmd.args:
            text = tr.gettext("Use /score for everyone's standings this season, or /score me for yours.")
            return Response.of(Out(text, reply=True))
        if gid is None:
            return Response.of(Out(tr.gettext("No hands scored yet in this group.")))
        report = await self.store.season_report(gid)
        return Response.of(
            *(Out(page) for page in format_standings(report.standings, tr, season=report.season, hands=report.hands))
        )

    @staticmethod
    def _is_me(args: tuple[str, ...]) -> bool:
        """``/score me`` (or ``/score 我``)."""
        return len(args) == 1 and args[0].lower() in ("me", "我")

    @staticmethod
    def _no_arguments(cmd: Command, tr: Translator, command: str) -> Response | None:
        """The reply to ``/command`` given arguments it does not take (None when it has none)."""
        if not cmd.args:
            return None
        return Response.of(
            Out(
                tr.gettext("/{command} takes no arguments: send just /{command}.").format(command=command),
                reply=True,
            )
        )

    async def _score_me(self, cmd: Command) -> Response:
        who = cmd.user.first_name if not cmd.user.last_name else f"{cmd.user.first_name} {cmd.user.last_name}"
        rows = await self.store.user_standings(cmd.user.user_id)
        if cmd.private:
            tr = self.tables.user_tr(cmd.user.language_code)
            return Response.of(*(Out(page) for page in format_my_standings(rows, tr)))
        gid, tr = await self._group(cmd)
        mine = [r for r in rows if r.group_id == gid]
        return Response.of(*(Out(page, reply=True) for page in format_my_standings(mine, tr, who=who)))

    async def history(self, cmd: Command) -> Response:
        """``/history [n]``: the group's last ``n`` hands (every season), paged."""
        if cmd.private:
            return self._in_group_only(cmd, "history")
        gid, tr = await self._group(cmd)
        try:
            count = parse_history_count(" ".join(cmd.args))
        except ReportArgError as e:
            return Response.of(Out(e.render(tr), reply=True))
        if gid is None:
            return Response.of(Out(tr.gettext("No hands scored yet in this group.")))
        records = await self.store.recent_hands(gid, count)
        return Response.of(*(Out(page) for page in format_history(records, tr)))

    async def settle(self, cmd: Command) -> Response:
        """``/settle``: the fewest transfers that square the group's current season."""
        if cmd.private:
            return self._in_group_only(cmd, "settle")
        gid, tr = await self._group(cmd)
        refusal = self._no_arguments(cmd, tr, "settle")
        if refusal is not None:
            return refusal
        if gid is None:
            return Response.of(Out(tr.gettext("No hands scored yet in this group.")))
        report = await self.store.season_report(gid)
        return Response.of(Out(format_settlement(report.standings, tr, season=report.season)))

    async def export(self, cmd: Command) -> Response:
        """``/export``: the group's whole ledger (every season) as a CSV document."""
        if cmd.private:
            return self._in_group_only(cmd, "export")
        gid, tr = await self._group(cmd)
        refusal = self._no_arguments(cmd, tr, "export")
        if refusal is not None:
            return refusal
        if gid is None:
            return Response.of(Out(tr.gettext("No hands scored yet in this group.")))
        entries = await self.store.ledger_entries(gid)
        if not entries:
            return Response.of(Out(tr.gettext("No hands scored yet in this group.")))
        caption = tr.ngettext(
            "The ledger of {title}: {n} entry.", "The ledger of {title}: {n} entries.", len(entries)
        ).format(title=name(cmd.title or "?", 40), n=len(entries))
        return Response.of(Out(caption, document=(export_filename(gid), ledger_csv(entries, tr))))
