"""The Mini App page's own few words (docs/webapp.md): what the page says about itself (the
connection, the second tap), as ``{key: text}`` in one language.  Everything about the game the page
shows comes from the screen's JSON (already in the viewer's language) or the pictures' labels
(:func:`kwx_bot.words.pictures.picture_words`), so the page holds no translation table of its own.
"""

from __future__ import annotations

from .i18n import Translator

__all__ = ["page_words"]


def page_words(tr: Translator) -> dict[str, str]:
    """The page's words in ``tr``'s language, by key: ``loading``, ``reconnecting``, ``failed``
    (the table could not be opened), ``closed`` (the table is no longer open: ended, or an old
    button's), ``press_again`` (a press the bot did not answer: it is away, a
    restart, or refused it without a word of its own — nothing was done), ``tap_again`` (a selected
    tile is discarded by a second tap), ``watching`` (a spectator's view), ``your_turn`` /
    ``turn_of`` (the label on the seat the table waits for: the player's own, another's ``{name}``),
    ``seconds`` (time left, ``{n}`` seconds), and the replay's ``replay`` (the key that opens it),
    ``step_back`` / ``step`` / ``play`` / ``pause`` (its controls), ``moment`` (``{n}`` of
    ``{total}``) and ``to_table`` (back to the live table it was opened from)."""
    _ = tr.gettext
    return {
        "loading": _("Opening the table…"),
        "reconnecting": _("Reconnecting…"),
        "press_again": _("Reconnecting — please tap again"),
        "failed": _("This table could not be opened here. Use the buttons in the chat."),
        "closed": _("This table is no longer open. /new in the group starts another; /score shows the standings."),
        "tap_again": _("Tap the tile again to discard it"),
        "watching": _("You are watching this table"),
        "your_turn": _("Your turn"),
        "turn_of": _("{name}'s turn"),
        "seconds": _("{n} s"),
        "replay": _("Step through the hand"),
        "step_back": _("◀ Back"),
        "step": _("Next ▶"),
        "play": _("Play"),
        "pause": _("Pause"),
        "moment": _("Move {n} of {total}"),
        "to_table": _("Back to the table"),
    }
