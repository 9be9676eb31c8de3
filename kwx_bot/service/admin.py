"""Group administration: ``/settings`` (menu and text form), ``/season new``,
``/kill`` and ``/kick``, and ending a table when the bot is removed from its group.

Only group administrators may use these commands.  A message sent on behalf of the group itself
(``sender_chat`` = the group: an anonymous administrator) counts as an administrator's; otherwise the
sender's status comes from ``getChatMember`` (``creator`` / ``administrator``; positive answers are
cached for :data:`ADMIN_CACHE_SECONDS`).  Everyone else gets a polite refusal and nothing changes.
"""

from __future__ import annotations

import logging
import time
from typing import Protocol, TypeVar

from ..store import TableStatus
from ..words.captions import ended_caption
from ..words.i18n import N_, Translator, translator
from ..words.texts import name, sentences
from .buttons import ConfigButton
from .group_settings import CLOSE, MAIN, ConfigError, GroupConfig, item_by_code, parse_change
from .live import LiveSeat, LiveTable
from .lobby import OTHER_BOTS_TABLE, Lobby
from .play import Play
from .ports import Messenger
from .present import Presenter
from .settings_menu import menu_keyboard, menu_text
from .tables import Tables
from .values import Command, Edit, Out, Reply, Response, UserInfo


class _GroupButton(Protocol):
    """A decoded admin-menu button: it names the group whose menu it belongs to."""

    @property
    def group_id(self) -> int: ...


_B = TypeVar("_B", bound=_GroupButton)

__all__ = ["ADMIN_CACHE_SECONDS", "Admin"]

log = logging.getLogger("kwx.admin")

ADMIN_CACHE_SECONDS = 60.0


class Admin:
    """See the module docstring."""

    def __init__(self, tables: Tables, play: Play, lobby: Lobby, present: Presenter, sender: Messenger) -> None:
        self.tables = tables
        self.store = tables.store
        self.play = play
        self.lobby = lobby
        self.present = present
        self.sender = sender
        self._admins: dict[tuple[int, int], float] = {}

    # -- who is an administrator -----------------------------------------------------------------

    async def is_admin(self, chat_id: int, user_id: int, *, sender_chat_id: int | None = None) -> bool:
        """Whether ``user_id`` (or a message sent as ``sender_chat_id``) speaks for the group's admins."""
        if sender_chat_id is not None:
            return sender_chat_id == chat_id
        now = time.monotonic()
        if self._admins.get((chat_id, user_id), 0.0) > now:
            return True
        status = (await self.sender.member_status(chat_id, user_id)).status
        if status in ("creator", "administrator"):
            self._admins[(chat_id, user_id)] = now + ADMIN_CACHE_SECONDS
            return True
        self._admins.pop((chat_id, user_id), None)
        return False

    async def context(self, cmd: Command) -> tuple[int, Translator]:
        async with self.store.transaction() as tx:
            gid = await tx.ensure_group(cmd.chat_id, cmd.title)
        return gid, translator(await self.tables.group_lang(gid))

    async def refusal(self, cmd: Command, command: str) -> Response | None:
        """None if ``cmd`` comes from an administrator of its group, else the polite refusal."""
        if cmd.private:
            tr = self.tables.user_tr(cmd.user.language_code)
            text = tr.gettext("Send /{command} in your group (group administrators only).").format(command=command)
            return Response.of(Out(text))
        if await self.is_admin(cmd.chat_id, cmd.user.user_id, sender_chat_id=cmd.sender_chat_id):
            return None
        _gid, tr = await self.context(cmd)
        text = tr.gettext("Sorry, only the group's administrators can use /{command}.").format(command=command)
        return Response.of(Out(text, reply=True))

    # -- /settings -------------------------------------------------------------------------------

    async def settings(self, cmd: Command) -> Response:
        """``/settings``: the menu; ``/settings <option> <value>`` / ``/settings reset``: one change."""
        refusal = await self.refusal(cmd, "settings")
        if refusal is not None:
            return refusal
        gid, tr = await self.context(cmd)
        config = await self.tables.config(gid)
        if not cmd.args:
            return Response.of(Out(menu_text(config, tr, title=cmd.title), menu_keyboard(config, tr, gid)))
        try:
            key, value = parse_change(list(cmd.args))
            config = await self._save(gid, config, key, value)
        except ConfigError as e:
            return Response.of(Out(e.render(tr), reply=True))
        tr = translator(config.language)
        return Response.of(Out(tr.gettext("Saved.") + "\n" + menu_text(config, tr, title=cmd.title), reply=True))

    async def _save(self, gid: int, config: GroupConfig, key: str, value: object) -> GroupConfig:
        """Validate and store one change; a lobby adopts it at once (a hand in play never does)."""
        rows = config.change(key, value)
        async with self.store.transaction() as tx:
            for k, v in rows.items():
                await tx.set_setting(gid, k, v)
        log.info("group %s: settings %s", gid, rows)
        table = await self.store.open_table_of_group(gid, bot_id=self.tables.bot_id)
        live = await self.tables.get(table.table_id) if table is not None else None
        if live is not None and live.row.status == TableStatus.LOBBY:
            async with live.lock:
                await self.tables.adopt_settings(live)
            await self.present.lobby(live)
        return await self.tables.config(gid)

    async def admin_button(
        self, user: UserInfo, chat_id: int | None, message_id: int | None, button: _B, refusal: str
    ) -> _B | Reply:
        """``button`` of an admin-only group menu if it may act, or the answer saying why not.

        Refused (nothing changed): a button of another group's menu (or a press without its
        message), a presser who is not an admin of the group (``refusal``, shown as an alert).
        """
        tr = self.tables.user_tr(user.language_code)
        gid = await self.store.group_id_for_chat(chat_id) if chat_id is not None else None
        if gid != button.group_id or chat_id is None or message_id is None:
            return Reply(tr.gettext("This menu belongs to another group."))
        if not await self.is_admin(chat_id, user.user_id):
            return Reply(refusal, True)
        return button

    async def settings_press(
        self, user: UserInfo, chat_id: int | None, message_id: int | None, pressed: ConfigButton
    ) -> Response:
        """A settings-menu button: the answer, and the menu message edited to match."""
        tr = self.tables.user_tr(user.language_code)
        refusal = tr.gettext("Sorry, only the group's administrators can change the settings.")
        button = await self.admin_button(user, chat_id, message_id, pressed, refusal)
        if isinstance(button, Reply):
            return Response(button)
        assert chat_id is not None and message_id is not None
        gid = button.group_id
        config = await self.tables.config(gid)
        gtr = translator(config.language)
        title = await self.store.group_title(gid)
        item = item_by_code(button.item)
        if button.item == CLOSE:
            return Response(Reply(), (Edit(chat_id, message_id, menu_text(config, gtr, title=title)),))
        if button.item != MAIN and item is None:
            return Response(Reply(tr.gettext("This button is not one of mine (or it is too old).")))
        reply = Reply()
        if item is not None and button.choice is not None:
            if button.choice >= len(item.choices):
                return Response(Reply(tr.gettext("This button is not one of mine (or it is too old).")))
            try:
                config = await self._save(gid, config, item.key, item.choices[button.choice].value)
            except ConfigError as e:
                return Response(Reply(e.text(tr), alert=True))
            gtr = translator(config.language)
            reply = Reply(gtr.gettext("Saved: it applies from the next hand."))
            item = None
        text = menu_text(config, gtr, title=title, item=item)
        return Response(reply, (Edit(chat_id, message_id, text, menu_keyboard(config, gtr, gid, item)),))

    # -- /season ---------------------------------------------------------------------------------

    async def season(self, cmd: Command) -> Response:
        """``/season``: the current season; ``/season new`` (admins): start the next one."""
        if cmd.private:
            tr = self.tables.user_tr(cmd.user.language_code)
            return Response.of(Out(tr.gettext("Send /{command} in a group where you play.").format(command="season")))
        gid, tr = await self.context(cmd)
        current = _season(await self.store.group_settings(gid))
        if [a.lower() for a in cmd.args] != ["new"]:
            text = tr.gettext("This is season {n}. Group administrators start the next one with /season new.")
            return Response.of(Out(text.format(n=current), reply=True))
        refusal = await self.refusal(cmd, "season")
        if refusal is not None:
            return refusal
        async with self.store.transaction() as tx:
            await tx.set_setting(gid, "season", current + 1)
        log.info("group %s: season %s begins", gid, current + 1)
        text = tr.gettext(
            "Season {n} has begun: /score starts from zero. The ledger keeps the earlier seasons (/export)."
        )
        return Response.of(Out(text.format(n=current + 1)))

    # -- /kill and /kick -------------------------------------------------------------------------

    async def _open_table(self, cmd: Command) -> LiveTable | None:
        gid = await self.store.group_id_for_chat(cmd.chat_id)
        row = await self.store.open_table_of_group(gid, bot_id=self.tables.bot_id) if gid is not None else None
        return await self.tables.get(row.table_id) if row is not None else None

    async def kill(self, cmd: Command) -> Response:
        """``/kill``: end the group's table; a hand in play is not scored (the ledger is untouched)."""
        refusal = await self.refusal(cmd, "kill")
        if refusal is not None:
            return refusal
        gid, tr = await self.context(cmd)
        live = await self._open_table(cmd)
        if live is None:
            if await self.store.open_table_bot(gid) not in (None, self.tables.bot_id):
                return Response.of(Out(tr.gettext(OTHER_BOTS_TABLE), reply=True))
            return Response.of(Out(tr.gettext("No table is open in this group."), reply=True))
        async with live.lock:
            playing = live.row.status == TableStatus.PLAYING
            await self.lobby.end(live, "killed")
        await self._release(live, ended="killed" if playing else None)
        await self.present.lobby(live, "closed")
        _ = tr.gettext
        unscored = _("The unfinished hand is not scored.") if playing else ""
        return Response.of(
            Out(sentences(tr, _("An administrator ended the table."), unscored, _("Send /new to play again.")))
        )

    async def _release(self, live: LiveTable, note: str | None = None, ended: str | None = None) -> None:
        """After a table ended: take the buttons and reminders off its players' hand messages, and
        with ``ended`` (the closing reason of a hand ended in play) say so in each caption
        (:func:`~kwx_bot.words.captions.ended_caption`); ``note``: a message to each player too."""
        hand_no = live.hand.hand_no if live.hand is not None else 0
        for seat in live.humans():
            caption = None
            if ended is not None:
                caption = ended_caption(translator(seat.lang), title=live.title, hand_no=hand_no, reason=ended)
            await self.present.ended(live, seat, caption)
            if note is not None and seat.user_id is not None and seat.can_pm:
                tr = translator(seat.lang)
                await self.sender.send_text(seat.user_id, tr.gettext(note).format(title=name(live.title or "?", 40)))

    async def removed_from_group(self, chat_id: int) -> bool:
        """The bot left or was removed from a group: its table ends unscored, the players are told
        privately.  Returns True if a table was open."""
        gid = await self.store.group_id_for_chat(chat_id)
        row = await self.store.open_table_of_group(gid, bot_id=self.tables.bot_id) if gid is not None else None
        live = await self.tables.get(row.table_id) if row is not None else None
        if live is None:
            return False
        async with live.lock:
            if not live.row.is_open:
                return False
            playing = live.row.status == TableStatus.PLAYING
            await self.lobby.end(live, "removed")
        await self._release(
            live,
            N_("I was removed from {title}, so its table is closed. An unfinished hand is not scored."),
            ended="removed" if playing else None,
        )
        return True

    async def _target(self, live: LiveTable, cmd: Command) -> LiveSeat | None:
        """The member ``/kick`` names (by reply, @username or display name), the one sitting the
        hand out included."""
        humans = [s for s in live.members() if s.user_id is not None]
        if cmd.reply_to is not None:
            return next((s for s in humans if s.user_id == cmd.reply_to.user_id), None)
        wanted = " ".join(cmd.args).strip().lstrip("@").casefold()
        if not wanted:
            return None
        users = await self.store.users([s.user_id for s in humans if s.user_id is not None], bot_id=self.tables.bot_id)
        for seat in humans:
            user = users.get(seat.user_id or 0)
            if user is not None and user.username and user.username.casefold() == wanted:
                return seat
        matches = [s for s in humans if s.name.casefold() == wanted]
        matches = matches or [s for s in humans if s.name.casefold().startswith(wanted)]
        return matches[0] if len(matches) == 1 else None

    async def kick(self, cmd: Command) -> Response:
        """``/kick`` (reply to the player's message, or ``/kick <name>``): an AI takes the seat.

        In a lobby the member just leaves.  At a table of four members (docs/rules.md §A2.1 "In the
        bot") the member sitting the hand out leaves at once, and a member of the hand leaves his
        seat to an AI that finishes the hand (between hands: until the deal) and then leaves
        itself, so the others play on without a rotation; with fewer than ``players`` people left
        an AI keeps the seat, as at any table.  One transaction; the next deal reads it from the
        store (:meth:`LiveTable.next_lineup`)."""
        refusal = await self.refusal(cmd, "kick")
        if refusal is not None:
            return refusal
        _gid, tr = await self.context(cmd)
        live = await self._open_table(cmd)
        if live is None:
            return Response.of(Out(tr.gettext("No table is open in this group."), reply=True))
        seat = await self._target(live, cmd)
        if seat is None or seat.user_id is None:
            wanted = " ".join(cmd.args).strip()
            if wanted and cmd.reply_to is None:
                humans = [s for s in live.members() if s.user_id is not None]
                text = tr.gettext("No player at this table is called “{name}”. Players: {players}.").format(
                    name=name(wanted, 40), players=", ".join(name(s.name, 32) for s in humans) or "—"
                )
            else:
                text = tr.gettext("Reply to a message of the player with /kick, or write /kick and the player's name.")
            return Response.of(Out(text, reply=True))
        user_id, player = seat.user_id, seat.name
        async with live.lock:
            status = live.row.status
            seat = next((s for s in live.members() if s.user_id == user_id), None)  # chairs move at a deal
            if seat is None or status not in TableStatus.OPEN:  # gone meanwhile: nothing to do
                return Response.of(Out(tr.gettext("{name} left the table.").format(name=name(player))))
            benched = seat is live.sitting_out
            # a table of four members keeps three people: the seat's AI only finishes the hand
            people = sum(1 for s in live.members() if s.user_id is not None) - 1
            shared = live.hand is not None and live.hand.sitting_out is not None and status != TableStatus.LOBBY
            async with self.store.transaction() as tx:
                if status == TableStatus.LOBBY or benched:
                    await tx.unseat(live.table_id, seat.seat)
                else:
                    await tx.replace_seat(live.table_id, seat.seat, user_id=None, ai_level="normal")
                await tx.touch(live.table_id)
            await self.tables.refresh(live)
        log.info("table %s: user %s removed from seat %s", live.table_id, user_id, seat.seat)
        await self.present.ended(live, seat)
        utr = translator(await self.tables.user_lang(user_id))
        note = utr.gettext("An administrator removed you from the table in {title}.")
        await self.sender.send_text(user_id, note.format(title=name(live.title or "?", 40)))
        if status == TableStatus.LOBBY:
            await self.present.lobby(live)
            return Response.of(Out(tr.gettext("{name} left the table.").format(name=name(player))))
        if status == TableStatus.PLAYING:
            await self.play.kick_auto(live)
            await self.present.sync(live)
        _ = tr.gettext
        if shared and people >= live.players:  # the others play on, without a rotation
            text = _("{name} left the table. From the next hand the other three play, and nobody sits out.")
            if status == TableStatus.PLAYING and not benched:
                text = _(
                    "{name} left the table: an AI finishes this hand for the seat. "
                    "From the next hand the other three play, and nobody sits out."
                )
        elif benched:  # the AI seat that finishes a removed member's hand stays for the next ones
            text = _("{name} left the table.")
        else:
            text = _("{name} left the table: an AI plays the seat.")
        return Response.of(Out(text.format(name=name(player))))


def _season(settings: dict[str, object]) -> int:
    value = settings.get("season", 1)
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 1 else 1
