"""Hand records in words: the captions and file names of ``/export N`` (a hand's event log as a
``python -m engine play`` scenario) and ``/replay N`` (its animated replay).  Captions are HTML in the
reader's language; file names are ASCII.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..store.rows import HandRow
from .i18n import Translator
from .texts import esc

__all__ = ["export_caption", "record_description", "record_filename", "replay_caption", "replay_filename"]


def _stem(hand: HandRow) -> str:
    return f"kwx-t{hand.table_id}-hand{hand.hand_no}"


def record_filename(hand: HandRow) -> str:
    """The record document's name, e.g. ``kwx-t3-hand5.json``."""
    return _stem(hand) + ".json"


def replay_filename(hand: HandRow) -> str:
    """The replay animation's name, e.g. ``kwx-t3-hand5.gif``."""
    return _stem(hand) + ".gif"


def record_description(hand: HandRow, names: Sequence[str]) -> str:
    """The record's ``description`` (plain text, not translated: it lives in a JSON file for tools):
    which hand it is and who sat where, e.g. ``kwx table 3, hand 5; seats: 0 Ann, 1 Bob, 2 AI 3``."""
    seats = ", ".join(f"{i} {n}" for i, n in enumerate(names))
    return f"kwx table {hand.table_id}, hand {hand.hand_no}; seats: {seats}"


def export_caption(tr: Translator, hand: HandRow, filename: str) -> str:
    """The ``/export N`` document's caption: what the file is and the command that replays it."""
    return "\n".join(
        [
            tr.gettext("<b>Hand {n}</b>: every event, and the actions that replay it.").format(n=hand.hand_no),
            tr.gettext("Replay it to the same result:"),
            f"<code>python -m engine play &lt; {esc(filename)}</code>",
        ]
    )


def replay_caption(tr: Translator, hand: HandRow, moments: int, outcome: str = "") -> str:
    """The ``/replay N`` animation's caption (``moments``: the public moments it shows), then
    ``outcome`` (HTML, :func:`~kwx_bot.words.ledger_text.hand_outcome`: how the hand ended, which the
    last frame of a draw does not show) when given."""
    head = tr.ngettext(
        "<b>Hand {n}</b> replayed: {k} moment, every discard, claim and kong in order.",
        "<b>Hand {n}</b> replayed: {k} moments, every discard, claim and kong in order.",
        moments,
    ).format(n=hand.hand_no, k=moments)
    return head + ("\n" + outcome if outcome else "")
