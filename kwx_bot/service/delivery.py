"""Delivery: make a message show what its screen value says, with the least writes (docs/architecture.md
§4 "Delivery").

A message's :class:`Target` is what it should show (a :class:`Shown`: picture key, caption,
buttons), the picture to draw when a new one is due, and what of it may lag behind (:class:`Slack`).
:func:`plan` compares it with what the message shows (:class:`Delivered`, kept across a clean
restart as a digest) and names the one write that closes the gap, or none:

* no message yet: send one (a photo, or a text for a text message);
* a new picture (its key changed, or a claim window opened for the seat: :func:`needs_photo`):
  ``editMessageMedia``, which carries the caption and buttons too;
* else the caption (with the buttons), else the buttons alone; nothing when all is shown.

Writes that can wait, do: a picture a target lets stay (the AI plays the seat: its tiles change every
turn and nobody looks) is kept, and buttons that only go away (a claim window closed) while the
picture stays are left while the bot token is busy — they go with the seat's next change; a press on
one meanwhile is answered as stale.  The decisions of wording and rules were made by the screen;
here only what differs is sent.  :class:`Delivery` performs the write through the
:class:`~.ports.Messenger` port, drawing the picture (or sending an upload again by its ``file_id``
when it shows exactly the same) and records what the message shows once the write went through.
"""

from __future__ import annotations

import enum
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from .buttons import Keyboard
from .pictures import Pictures
from .ports import Messenger, Sent
from .screen.pictures import CLAIM_MARK, HandPicture, Picture, RevealPicture, TablePicture

__all__ = [
    "Delivered",
    "Delivery",
    "Method",
    "Shown",
    "Slack",
    "Target",
    "Write",
    "needs_photo",
    "plan",
    "settle",
    "shown_digest",
]


@dataclass(frozen=True, slots=True)
class Shown:
    """What a message shows: a picture key (None for text), caption/text and buttons."""

    photo_key: str | None
    caption: str
    markup: Keyboard


def shown_digest(shown: Shown) -> str:
    """A short stable digest of what a message shows (stored at a clean stop, so a restart does not
    edit a message that already shows the same)."""
    return hashlib.sha256(repr(shown).encode()).hexdigest()[:32]


@dataclass(slots=True)
class Delivered:
    """What one of our messages shows, as far as delivery knows (docs/architecture.md §4 "Delivery"):
    ``shown`` (None: not known — a new message, or since a restart), ``digest``: what it showed at the
    last clean stop (:func:`shown_digest`, until the first delivery after the start compares it), and
    ``file``: the picture uploaded last as (its exact key, Telegram's ``file_id``), which may be sent
    again instead of a new upload."""

    shown: Shown | None = None
    digest: str | None = None
    file: tuple[str, str] | None = None

    def recall(self, desired: Shown) -> None:
        """After a restart: the message showed ``desired`` at the clean stop if the stored digest says
        so, then it need not be edited; the digest is used once."""
        if self.shown is None and self.digest is not None and self.digest == shown_digest(desired):
            self.shown = desired
        self.digest = None

    def forget(self) -> None:
        """The message is gone or replaced: what it shows is not known (an upload may still be sent
        again by its ``file_id``)."""
        self.shown = None


def needs_photo(shown: str | None, desired: str) -> bool:
    """Whether a message showing the picture keyed ``shown`` needs a new picture to show ``desired``:
    the keys differ apart from a claim window, or a claim window the message does not show yet
    opened.  A window closing (``desired`` without one, the tiles unchanged) needs none: the caption
    and buttons are edited alone."""
    if shown == desired:
        return False
    if shown is None:
        return True
    base, _, window = desired.partition(CLAIM_MARK)
    return shown.partition(CLAIM_MARK)[0] != base or bool(window)


class Slack(enum.Flag):
    """What of a target may lag behind the message: ``PICTURE``: a picture already shown stays (an
    automatic seat's); ``BUTTONS``: buttons that only go away wait while the bot token is busy (a
    hand still being played)."""

    NONE = 0
    PICTURE = enum.auto()
    BUTTONS = enum.auto()


class Target(NamedTuple):
    """What one message should show: ``shown``, the ``picture`` drawn when it needs a new one (None for
    a text message) and its ``slack``."""

    shown: Shown
    picture: Picture | None
    slack: Slack = Slack.NONE


class Method(enum.StrEnum):
    """A Bot API write."""

    SEND_PHOTO = "sendPhoto"
    SEND_TEXT = "sendMessage"
    EDIT_MEDIA = "editMessageMedia"
    EDIT_CAPTION = "editMessageCaption"
    EDIT_MARKUP = "editMessageReplyMarkup"
    EDIT_TEXT = "editMessageText"


@dataclass(frozen=True, slots=True)
class Write:
    """One write: its ``method`` and what the message shows once it went through (``shown``)."""

    method: Method
    shown: Shown

    @property
    def draws(self) -> bool:
        """The write carries a picture."""
        return self.method in (Method.SEND_PHOTO, Method.EDIT_MEDIA)


def settle(delivered: Shown | None, target: Target) -> Shown:
    """What the message should show: the target, keeping a picture already shown where the target
    lets it stay."""
    shown = target.shown
    if Slack.PICTURE in target.slack and delivered is not None and delivered.photo_key:
        return Shown(delivered.photo_key, shown.caption, shown.markup)
    return shown


def _buttons_wait(delivered: Shown, desired: Shown, target: Target, busy: bool) -> bool:
    """Only buttons would go (the rows kept are rows already shown: an "Open the table" row stays),
    the picture stays, the target lets them and the token is busy."""
    return (
        busy
        and Slack.BUTTONS in target.slack
        and bool(delivered.markup)
        and set(desired.markup) < set(delivered.markup)
        and not needs_photo(delivered.photo_key, desired.photo_key or "")
    )


def plan(delivered: Shown | None, target: Target, *, exists: bool, busy: bool = False) -> Write | None:
    """The one write that makes a message showing ``delivered`` (None: not known) show ``target``
    (module docstring), or None when none is due; ``exists``: the message is there (else it is sent);
    ``busy``: the bot token is busy (:meth:`.ports.Messenger.token_busy`)."""
    desired = settle(delivered, target)
    text = desired.photo_key is None
    if not exists:
        return Write(Method.SEND_TEXT if text else Method.SEND_PHOTO, desired)
    if delivered == desired:
        return None
    if delivered is not None and _buttons_wait(delivered, desired, target, busy):
        return None
    if text:
        return Write(Method.EDIT_TEXT, desired)
    if delivered is None or needs_photo(delivered.photo_key, desired.photo_key or ""):
        return Write(Method.EDIT_MEDIA, desired)
    if delivered.caption != desired.caption:
        return Write(Method.EDIT_CAPTION, desired)
    return Write(Method.EDIT_MARKUP, desired)


class Delivery:
    """Performs :func:`plan`'s writes through ``sender``, drawing pictures with ``pictures``."""

    def __init__(self, sender: Messenger, pictures: Pictures) -> None:
        self.sender = sender
        self.pictures = pictures

    async def deliver(
        self, chat_id: int, message_id: int | None, delivered: Delivered, target: Target,
        *, still: Callable[[], bool] = lambda: True, notify: bool = True, can_wait: bool = False,
    ) -> Sent | None:  # fmt: skip
        """Make message ``message_id`` of ``chat_id`` (None: a new one) show ``target``; record in
        ``delivered`` what it shows once the write went through.  ``can_wait``: an edit made is a write
        that can wait (:meth:`.ports.Messenger.edit_caption`: the edge lets more urgent writes go
        first).  Returns the write's result, or None when no write was due or ``still()`` turned False
        while the picture was drawn or the write was made (what was drawn or written then belongs to a
        message or hand that moved on: nothing is sent, or nothing recorded; the caller looks at
        ``still()``)."""
        delivered.recall(settle(None, target))
        write = plan(delivered.shown, target, exists=message_id is not None, busy=self.sender.token_busy())
        if write is None:
            return None
        photo: bytes | str | None = None
        if write.draws:
            assert target.picture is not None
            photo = await self._photo(target.picture, delivered)
            if not still():
                return None
        sent = await self._write(chat_id, message_id, write, photo, notify=notify, can_wait=can_wait)
        if not still():
            return None
        if sent.ok:
            delivered.shown = write.shown
            if sent.file_id is not None and target.picture is not None and write.draws:
                delivered.file = (target.picture.exact, sent.file_id)
        return sent

    async def _photo(self, picture: Picture, delivered: Delivered) -> bytes | str:
        """The upload that shows exactly ``picture`` sent again by its ``file_id``, or the render
        request (:mod:`.screen.pictures`) drawn by the :class:`~.pictures.Pictures` of its kind."""
        if delivered.file is not None and delivered.file[0] == picture.exact:
            return delivered.file[1]
        pictures, p = self.pictures, picture
        if isinstance(p, HandPicture):
            return await pictures.hand(p.view, lang=p.lang, protected=p.protected, game=p.ruleset, names=p.names)
        if isinstance(p, TablePicture):
            return await pictures.table(p.view, p.names, lang=p.lang, totals=p.totals, game=p.ruleset)
        if isinstance(p, RevealPicture):
            return await pictures.reveal(p.view, p.seat, p.names, lang=p.lang, game=p.ruleset)
        return await pictures.result(p.view, p.names, lang=p.lang, hands=p.hands, game=p.ruleset)

    async def _write(
        self, chat_id: int, message_id: int | None, write: Write, photo: bytes | str | None, *, notify: bool,
        can_wait: bool,
    ) -> Sent:  # fmt: skip
        shown, send = write.shown, self.sender
        markup: Keyboard | None = shown.markup or None
        if write.method is Method.SEND_PHOTO:
            assert photo is not None
            return await send.send_photo(chat_id, photo, shown.caption, markup, notify=notify)
        if write.method is Method.SEND_TEXT:
            return await send.send_text(chat_id, shown.caption, markup, notify=notify)
        assert message_id is not None
        if write.method is Method.EDIT_MEDIA:
            assert photo is not None
            return await send.edit_media(chat_id, message_id, photo, shown.caption, markup, can_wait=can_wait)
        if write.method is Method.EDIT_CAPTION:
            return await send.edit_caption(chat_id, message_id, shown.caption, markup, can_wait=can_wait)
        if write.method is Method.EDIT_TEXT:
            return await send.edit_text(chat_id, message_id, shown.caption, markup)
        return await send.edit_markup(chat_id, message_id, markup, can_wait=can_wait)
