"""Hand records in words: the captions and file names of ``/export N`` (a hand's event log as a
``python -m engine play`` scenario), ``/replay N`` (its animated replay) and the private messages of
``/review N`` (a player's own decisions against the AI's).  Captions are HTML in the
reader's language; file names are ASCII.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..store.rows import HandRow
from .i18n import Translator
from .texts import esc, sentences

__all__ = [
    "export_caption",
    "record_description",
    "record_filename",
    "replay_caption",
    "replay_filename",
    "review_caption",
    "review_clean",
    "review_summary",
]


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


def replay_caption(tr: Translator, hand: HandRow, moments: int, outcome: str = "", *, langqi: bool = False) -> str:
    """The ``/replay N`` animation's caption: how many public moments it shows (``moments``), what
    they are — every discard, claim, kong and lay-down (亮倒, or 廊起 with ``langqi``: a 卡心五
    hand), then the result picture —, then ``outcome`` (HTML,
    :func:`~kwx_bot.words.ledger_text.hand_outcome`: how the hand ended, as ``/history`` says it)
    when given."""
    head = tr.ngettext(
        "<b>Hand {n}</b> replayed in {k} moment:", "<b>Hand {n}</b> replayed in {k} moments:", moments
    ).format(n=hand.hand_no, k=moments)
    what = tr.gettext_for(langqi, "every discard, claim, kong and laying down in order, then the result.")
    return sentences(tr, head, what) + ("\n" + outcome if outcome else "")


def review_summary(tr: Translator, differed: int, lost: float | None) -> str:
    """The review's one-line summary: ``3 decisions differed; about 2.5 points lost`` (``lost``
    None: the reviewer estimated no points, so only the count)."""
    if lost is None:
        return tr.ngettext(
            "{k} decision differed from the AI's choice.", "{k} decisions differed from the AI's choice.", differed
        ).format(k=differed)
    return tr.ngettext(
        "{k} decision differed; about {v} points lost.", "{k} decisions differed; about {v} points lost.", differed
    ).format(k=differed, v=f"{lost:.1f}")


def review_caption(
    tr: Translator, hand: HandRow, group: str, differed: int, lost: float | None, shown: int, complete: bool
) -> str:
    """The caption of a player's private ``/review N`` picture: which hand of which group, the
    summary line, how many of the differing decisions the picture shows (the costliest), and when
    the time limit cut the review short, that it covers only part of the hand."""
    lines = [
        tr.gettext("<b>Your review of hand {n}</b> in {group}").format(n=hand.hand_no, group=esc(group)),
        review_summary(tr, differed, lost),
    ]
    if differed > shown:
        lines.append(
            tr.ngettext("The picture shows the costliest one.", "The picture shows the {k} costliest.", shown).format(
                k=shown
            )
        )
    if not complete:
        lines.append(tr.gettext("The review ran out of time: only the first part of the hand was judged."))
    return "\n".join(lines)


def review_clean(tr: Translator, hand: HandRow, group: str, decisions: int) -> str:
    """The private ``/review N`` message of a player whose every decision the AI would have made
    the same way: a short, kind word (``decisions`` 0: the bot made every move of the seat — time-outs,
    托管 — so there was nothing of the player's to judge)."""
    if decisions == 0:
        return tr.gettext(
            "<b>Hand {n}</b> in {group}: the bot made all your moves (time-outs or auto-play), so there is "
            "nothing of yours to review."
        ).format(n=hand.hand_no, group=esc(group))
    return tr.ngettext(
        "<b>Hand {n}</b> in {group}: the AI would have made your {k} decision the same way. Well played!",
        "<b>Hand {n}</b> in {group}: the AI would have made all {k} of your decisions the same way. Well played!",
        decisions,
    ).format(n=hand.hand_no, group=esc(group), k=decisions)
