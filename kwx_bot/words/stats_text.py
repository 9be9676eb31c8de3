"""The words of ``/stats``: its arguments, the picture's caption and the replies without a picture.

The picture's own words are a ``StatsLabels`` (:mod:`render.labels`) that :mod:`.pictures` fills
from the catalogs, as for every picture; what is here goes out as message text.
"""

from __future__ import annotations

from dataclasses import dataclass

from .i18n import N_, Translator
from .ledger_text import ReportArgError
from .texts import name

__all__ = ["StatsAsk", "parse_stats_args", "stats_caption", "stats_caption_all_groups", "stats_empty"]

_ME = frozenset({"me", "我", "my", "mine"})
_ALL = frozenset({"all", "全部", "所有"})


@dataclass(frozen=True, slots=True)
class StatsAsk:
    """What ``/stats`` was asked for: ``me`` (the sender's own record, not the group's) and
    ``all_seasons`` (every season, not the current one)."""

    me: bool = False
    all_seasons: bool = False


def parse_stats_args(args: tuple[str, ...]) -> StatsAsk:
    """``/stats [me] [all]`` (either order, case-insensitive; ``我`` and ``全部`` too).

    Raises :class:`~.ledger_text.ReportArgError` for anything else (a word repeated included)."""
    words = [a.lower() for a in args]
    me = [w for w in words if w in _ME]
    every = [w for w in words if w in _ALL]
    if len(me) > 1 or len(every) > 1 or len(me) + len(every) != len(words):
        raise ReportArgError(
            N_(
                "Use /stats for this season's numbers of the group, /stats all for every season, "
                "/stats me for your own."
            )
        )
    return StatsAsk(me=bool(me), all_seasons=bool(every))


def stats_caption(
    tr: Translator, *, title: str, hands: int, season: int | None, groups: int = 0, me: bool = False
) -> str:
    """The picture's caption (HTML): whose numbers, over which hands, and the other ways to ask.

    ``title``: the group, or the player for ``me``; ``season``: the season counted, None for every
    season; ``groups``: for a player's record in the current season of each of their groups, how
    many groups (:func:`stats_caption_all_groups` for every season).  (The picture itself says how
    many players it leaves out.)"""
    who = name(title or "?", 40)
    if groups:
        text = tr.ngettext(
            "📊 {name}: {n} hand, this season of each group (groups: {groups}).",
            "📊 {name}: {n} hands, this season of each group (groups: {groups}).",
            hands,
        )
    elif season is None:
        text = tr.ngettext("📊 {name}: {n} hand, every season.", "📊 {name}: {n} hands, every season.", hands)
    else:
        text = tr.ngettext("📊 {name}: {n} hand in season {season}.", "📊 {name}: {n} hands in season {season}.", hands)
    text = text.format(name=who, n=hands, season=season, groups=groups)
    if not me and season is not None:
        text += "\n" + tr.gettext("/stats all: every season · /stats me: yours")
    return text


def stats_caption_all_groups(tr: Translator, *, title: str, hands: int, groups: int) -> str:
    """The caption of a player's record over every season of every group (``/stats me all`` in private)."""
    return tr.ngettext(
        "📊 {name}: {n} hand, every season of each group (groups: {groups}).",
        "📊 {name}: {n} hands, every season of each group (groups: {groups}).",
        hands,
    ).format(name=name(title or "?", 40), n=hands, groups=groups)


def stats_empty(tr: Translator, *, me: bool, private: bool, all_seasons: bool) -> str:
    """The reply when there is nothing to count (no picture)."""
    if me and private:
        return tr.gettext("You have no scored hands yet: play a hand in a group, then ask again.")
    if me:
        return tr.gettext("You have no scored hands in this group yet.")
    if all_seasons:
        return tr.gettext("No hands scored yet in this group.")
    return tr.gettext("No hands scored yet this season: /stats all counts every season.")
