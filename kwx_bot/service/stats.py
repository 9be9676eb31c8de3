"""``/stats``: a group's or a player's record as a picture (docs/architecture.md §5 "Ledger").

:func:`aggregate` is the pure part: the seats of scored hands the store read
(:meth:`~kwx_bot.store.TableStore.stats_rows`: ledger rows, the hands' stored results and
declarations) in, one :class:`render.stats.PlayerStats` per person out — nothing is worked out
again from the rules.  :class:`Stats` answers the command: in a group ``/stats`` (the current
season) and ``/stats all`` (every season) show the group's players, ``/stats me [all]`` the
sender's own record in that group (a group never sees what a member did elsewhere); in a private
chat ``/stats`` is ``/stats me``: the sender's record over every group, each in its current season
(``/stats all``: every season).  The picture is drawn in the worker (:class:`~.pictures.Pictures`)
in the group's language (a private chat: the sender's) and sent as a photo with a caption.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from render.stats import PlayerStats, StatsSheet

from ..store import SeatHand, StatsRows
from ..words.i18n import Translator, translator
from ..words.ledger_text import ReportArgError
from ..words.stats_text import StatsAsk, parse_stats_args, stats_caption, stats_caption_all_groups, stats_empty
from .game import DECLARATION_FAN
from .group_settings import TableChoice
from .pictures import Pictures
from .tables import Tables
from .values import Command, Out, Response

__all__ = ["Stats", "aggregate", "games_of"]


_HANDS, _WINS, _SELF_DRAWS, _DEALT_IN, _DECLARED, _DECLARED_WON, _POINTS = range(7)


class _Person:
    """One person's counts while :func:`aggregate` reads the seats (one pass: a group's season may
    have tens of thousands of seats)."""

    __slots__ = ("best", "counts", "fans", "name", "running")

    def __init__(self, name: str) -> None:
        self.name = name
        self.counts = [0] * 7
        self.best: SeatHand | None = None
        self.fans: dict[str, int] = {}
        self.running: list[tuple[int, int]] = []

    def record(self) -> PlayerStats:
        """The counts as a :class:`PlayerStats`."""
        hands, wins, self_draws, dealt_in, declared, declared_won, points = self.counts
        top = max(self.fans.items(), key=lambda kv: kv[1], default=None)  # the first seen of equals
        return PlayerStats(
            self.name, hands, wins, self_draws, dealt_in, declared, declared_won, points,
            self.best.multiplier if self.best else 0, self.best.fans if self.best else (),
            top[0] if top else None, top[1] if top else 0, tuple(self.running),
        )  # fmt: skip


def aggregate(seats: Iterable[SeatHand]) -> tuple[tuple[PlayerStats, ...], int]:
    """Each person's record over ``seats`` and the number of hands they span.

    The hands are counted in the order they come (the store gives ledger order) and a hand cancelled
    by ``/void`` is left out altogether; AI seats (no ``user_id``) count towards the hands but have
    no record.  Per person (docs/architecture.md §5 "Ledger"): hands, wins and those by self-draw,
    hands dealt in (点炮 or robbed), hands with a 亮倒 / 廊起 and those of them won, points (hand
    payments, kong money and corrections), the largest uncapped multiplier of a win and its 番 (a tie
    goes to the larger hand payment, then to the earlier hand, as ``/score`` chooses), the 番 of the
    most wins — each win counts a 番 once; the declaration's own doubling (亮倒) is not a pattern and
    is counted by the declarations instead; a tie goes to the 番 seen first —, and
    the running total after each of the person's hands at the hand's position (1, 2, ...).

    Returns the records ordered as ``/score`` orders its standings (points, then wins, then fewer
    hands dealt in, then user id) and the number of hands.
    """
    positions: dict[int, int] = {}
    people: dict[int, _Person] = {}
    for s in seats:
        if s.voided:
            continue
        position = positions.get(s.hand_id)
        if position is None:
            position = positions[s.hand_id] = len(positions) + 1
        if s.user_id is None:
            continue
        person = people.get(s.user_id)
        if person is None:
            person = people[s.user_id] = _Person(s.name or str(s.user_id))
        counts = person.counts
        counts[_HANDS] += 1
        counts[_DEALT_IN] += s.dealt_in
        counts[_DECLARED] += s.declared
        counts[_POINTS] += s.points
        if s.won:
            counts[_WINS] += 1
            counts[_SELF_DRAWS] += s.self_draw
            counts[_DECLARED_WON] += s.declared
            best = person.best
            if best is None or (s.multiplier, s.hand_points) > (best.multiplier, best.hand_points):
                person.best = s  # the first of equals stays
            fans = person.fans
            for f in dict.fromkeys(s.fans):
                if f != DECLARATION_FAN:
                    fans[f] = fans.get(f, 0) + 1
        person.running.append((position, counts[_POINTS]))
    records = [(uid, p.record()) for uid, p in people.items()]
    records.sort(key=lambda r: (-r[1].points, -r[1].wins, r[1].dealt_in, r[0]))
    return tuple(r for _uid, r in records), len(positions)


def games_of(options: Iterable[dict[str, object]]) -> tuple[str, ...]:
    """The games (``kawuxing``, ``kaxinwu``) of tables with these ``options``, each once, in
    :data:`~.group_settings.GAMES` order."""
    played = {TableChoice.of(o).game for o in options}
    return tuple(g for g in ("kawuxing", "kaxinwu") if g in played) or ("kawuxing",)


class Stats:
    """See the module docstring."""

    def __init__(self, tables: Tables, pictures: Pictures) -> None:
        self.tables = tables
        self.store = tables.store
        self.pictures = pictures

    async def stats(self, cmd: Command) -> Response:
        """``/stats [me] [all]``: the record as a picture, or a polite line (nothing to count, or
        arguments it does not take)."""
        gid = None if cmd.private else await self.store.group_id_for_chat(cmd.chat_id)
        if cmd.private:
            lang = self.tables.user_tr(cmd.user.language_code).lang
        elif gid is not None:
            lang = await self.tables.group_lang(gid)
        else:
            lang = self.tables.settings.default_language
        tr = translator(lang)
        try:
            ask = parse_stats_args(cmd.args)
        except ReportArgError as e:
            return Response.of(Out(e.render(tr), reply=True))
        me = ask.me or cmd.private
        if not cmd.private and gid is None:
            return Response.of(Out(stats_empty(tr, me=me, private=False, all_seasons=True), reply=True))
        rows = await self.store.stats_rows(
            group_id=gid, user_id=cmd.user.user_id if me else None, all_seasons=ask.all_seasons
        )
        players, hands = aggregate(rows.seats)
        if not players:
            text = stats_empty(tr, me=me, private=cmd.private, all_seasons=ask.all_seasons)
            return Response.of(Out(text, reply=True))
        sheet, caption = self._sheet(cmd, tr, ask, rows, players, hands)
        photo = await self.pictures.stats(sheet, lang)
        return Response.of(Out(caption, photo=photo, reply=me and not cmd.private))

    def _sheet(
        self,
        cmd: Command,
        tr: Translator,
        ask: StatsAsk,
        rows: StatsRows,
        players: Sequence[PlayerStats],
        hands: int,
    ) -> tuple[StatsSheet, str]:
        """The picture's values and its caption."""
        games = games_of(rows.options.values())
        season = None if ask.all_seasons else next(iter(rows.seasons.values()), None)
        if cmd.private:
            groups = len({s.group_id for s in rows.seats if not s.voided})
            title = players[0].name
            sheet = StatsSheet(
                title, tuple(players), hands, all_seasons=ask.all_seasons, groups=groups, games=games, personal=True
            )
            if ask.all_seasons:
                return sheet, stats_caption_all_groups(tr, title=title, hands=hands, groups=groups)
            return sheet, stats_caption(tr, title=title, hands=hands, season=None, groups=groups, me=True)
        if ask.me:
            title = players[0].name
            sheet = StatsSheet(
                title, tuple(players), hands, season=season, all_seasons=ask.all_seasons, games=games, personal=True
            )
            return sheet, stats_caption(tr, title=title, hands=hands, season=season, me=True)
        title = cmd.title or "?"
        sheet = StatsSheet(title, tuple(players), hands, season=season, all_seasons=ask.all_seasons, games=games)
        return sheet, stats_caption(tr, title=title, hands=hands, season=season)
