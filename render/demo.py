"""Demo views for ``python -m render demo``, the tests and the benchmark.

Two sources, isolated here so that nothing else in :mod:`render` cares where views come from:

- :func:`engine_demo` plays seeded hands with the engine's AI players (``engine.game`` +
  ``engine.ai``) and takes real views (``view_for`` / ``public_view``) at telling moments;
- :func:`demo_views` builds the views by hand (a fixed scene, seeded ponds), so that tests can
  probe known tiles at known places.

The hand-built scene (seats 0, 1, 2; seat 0 deals):

- seat 0 has ``[碰 777z]`` (中 from seat 2) and ``[暗杠 2222s]``, holds ``234p 46s 88s`` and has just
  drawn 9s; ready on 5s (卡五星).  4p is one of seat 2's waits, so it is marked dangerous.
- seat 1 has ``[碰 333s]`` (from seat 0) and ten hidden tiles.
- seat 2 has declared 亮倒 with ``11p2345678p456p9p`` (清一色), waiting on 1p 4p 7p.
- the ponds and seat 1's hidden tiles come from a seeded shuffle of the remaining tiles.

Four moments are built: seat 0's turn (hand picture), the claim window after seat 0 discards the
9s (table picture), and two endings: seat 1 discards 4p into seat 2's 清一色 (包胡), or 荒庄.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Collection, Iterator
from dataclasses import dataclass, replace

from engine.ai import Level, choose_action
from engine.analysis import waits
from engine.fans import Fan
from engine.game import ActionKind, Discarded, State, legal_actions, public_view, replay, start, step, view_for
from engine.game.state import Phase
from engine.rules import RuleSet, Ruleset
from engine.scoring import WinBy
from engine.tiles import STANDARD_KINDS, MeldKind, Tile, counts_of, parse_tiles, sorted_tiles
from engine.views import (
    DiscardView,
    HandResultView,
    MeldView,
    Outcome,
    PublicSeatView,
    PublicView,
    SeatView,
    WinView,
)

from .canvas import Canvas
from .labels import ENGLISH, PictureWords
from .pictures import HandTiles, hand_canvas, result_canvas, reveal_canvas, table_canvas
from .replay import replay_canvases
from .review import ReviewItem, review_canvas
from .stats import PlayerStats, StatsSheet

__all__ = [
    "DEMO_NAMES",
    "PICTURE_KINDS",
    "Demo",
    "demo_stats",
    "demo_views",
    "engine_demo",
    "picture_canvases",
    "play_states",
    "review_items",
    "rules_for",
]

DEMO_NAMES: tuple[str, ...] = ("Lǐ Míng", "Wáng 🀄✨", "Zhang_San_with_a_rather_long_name_2024")
"""Demo player names: pinyin tones, an emoji (dropped: the font has none), a name cut with ``…``."""


@dataclass(frozen=True, slots=True)
class Demo:
    """The demo views: ``hand`` (seat 0's turn), ``table`` (claim window), ``reveal_seat`` and
    ``reveal`` (its 亮倒), ``result`` (a 包胡 win) and ``draw`` (荒庄), with the players' ``names``;
    ``hands``: every seat's whole hand at the end of the won hand (for the result picture);
    ``totals``: running match totals for the table picture."""

    hand: SeatView
    table: PublicView
    reveal_seat: int
    reveal: PublicView
    result: PublicView
    draw: PublicView
    names: tuple[str, ...]
    hands: tuple[HandTiles, ...] | None = None
    totals: tuple[int, ...] = (12, -20, 8)


def _t(text: str) -> tuple[Tile, ...]:
    return tuple(parse_tiles(text))


def demo_views(seed: int = 7) -> Demo:
    """Build the demo views; the ponds and hidden tiles follow ``seed``."""
    rng = random.Random(seed)
    s0_concealed = _t("234p46s88s")
    s0_drawn = Tile.S9
    s0_melds = (MeldView(MeldKind.PONG, Tile.RED, 2), MeldView(MeldKind.CONCEALED_KONG, Tile.S2))
    s1_melds = (MeldView(MeldKind.PONG, Tile.S3, 0),)
    s2_revealed = tuple(sorted_tiles(_t("11p2345678p456p9p")))
    s2_waits = tuple(waits(counts_of(s2_revealed)))
    s0_waits = tuple(waits(counts_of(s0_concealed), melds=2))
    win_tile = Tile.P4

    used = Counter((*s0_concealed, s0_drawn, win_tile, *s2_revealed))
    for m in (*s0_melds, *s1_melds):
        assert m.tile is not None
        used[m.tile] += m.kind.size
    pool = [t for t in STANDARD_KINDS for _ in range(4 - used[t])]
    rng.shuffle(pool)
    s1_hidden = tuple(sorted_tiles(pool[-10:]))
    del pool[-10:]  # seat 1's ten hidden tiles
    ponds: list[list[DiscardView]] = [[DiscardView(pool.pop()) for _ in range(n)] for n in (7, 6, 6)]
    # the claimed tiles and the 亮倒 discard, at plausible places in their ponds
    ponds[0].insert(3, DiscardView(Tile.S3, claimed=True))
    ponds[2].insert(2, DiscardView(Tile.RED, claimed=True))
    ponds[2].append(DiscardView(pool.pop(), liangdao=True))
    ponds[1].append(DiscardView(pool.pop()))
    wall = len(pool)

    def public(
        discards: list[list[DiscardView]],
        *,
        counts: tuple[int, int, int],
        phase: Phase,
        turn: int,
        to_act: tuple[int, ...],
        last: tuple[int, Tile] | None,
        wall_left: int,
        result: HandResultView | None = None,
    ) -> PublicView:
        hidden_kong = MeldView(MeldKind.CONCEALED_KONG, None)
        seats = (
            PublicSeatView(0, counts[0], (s0_melds[0], hidden_kong), tuple(discards[0]), False, (), (), 4),
            PublicSeatView(1, counts[1], s1_melds, tuple(discards[1]), False, (), (), -2),
            PublicSeatView(2, counts[2], (), tuple(discards[2]), True, s2_revealed, s2_waits, -2),
        )
        return PublicView(20, 0, turn, phase, to_act, wall_left, seats, last, result)

    turn_view = public(ponds, counts=(8, 10, 13), phase=Phase.TURN, turn=0, to_act=(0,), last=None, wall_left=wall)
    hand = SeatView(0, turn_view, s0_concealed, s0_drawn, s0_melds, s0_waits, 0, danger=tuple(sorted(s2_waits)))

    after = [list(p) for p in ponds]
    after[0].append(DiscardView(s0_drawn))
    table = public(
        after, counts=(7, 10, 13), phase=Phase.CLAIM, turn=0, to_act=(1,), last=(0, s0_drawn), wall_left=wall
    )

    # seat 1 draws and discards 4p into seat 2's 清一色: 包胡 (docs/rules.md §A9.7), seat 1 pays both shares
    ended = [list(p) for p in after]
    ended[1].append(DiscardView(win_tile, claimed=True))
    win = WinView(
        seat=2,
        concealed=s2_revealed,
        melds=(),
        win_tile=win_tile,
        by=WinBy.DISCARD,
        from_seat=1,
        fans=(Fan.QINGYISE, Fan.LIANGDAO),
        multiplier={0: 8, 1: 8},
        baohu=True,
        reading="11p 234p 456p 456p 789p",
    )
    kong = (4, -2, -2)
    hand_deltas = (0, -16, 16)
    won = HandResultView(
        Outcome.WIN, (win,), hand_deltas, kong, tuple(a + b for a, b in zip(hand_deltas, kong, strict=True)), 2
    )
    result = public(
        ended,
        counts=(7, 10, 13),
        phase=Phase.OVER,
        turn=1,
        to_act=(),
        last=(1, win_tile),
        wall_left=wall - 1,
        result=won,
    )

    # or nobody wins: 荒庄, the single 亮倒 seat pays each other seat 1 (docs/rules.md §A14.2)
    penalty = (1, 1, -2)
    drawn_out = HandResultView(
        Outcome.DRAW, (), penalty, kong, tuple(a + b for a, b in zip(penalty, kong, strict=True)), 0
    )
    draw = public(
        after, counts=(7, 10, 13), phase=Phase.OVER, turn=0, to_act=(), last=None, wall_left=0, result=drawn_out
    )
    hands = ((s0_concealed, s0_melds), (s1_hidden, s1_melds), (s2_revealed, ()))
    return Demo(hand, table, 2, turn_view, result, draw, DEMO_NAMES, hands)


# -- views of real hands played by the engine's AI ------------------------------------------------------------


def play_states(
    seed: str, rules: RuleSet | None = None, dealer: int = 0, declare: Collection[int] = ()
) -> Iterator[tuple[State, bool]]:
    """Every stable state of one hand played by ``engine.ai`` (level normal) from the deal ``seed``.

    Yields ``(state, declared)``: ``declared`` is True when the step that led to ``state`` included
    a 亮倒 declaration.  The last state yielded is the finished hand (phase over).  The seats in
    ``declare`` declare 亮倒 (廊起) as soon as it is legal, showing as few tiles as the rules allow
    (a partial reveal under ``liangdao_reveal = kou`` / ``minimal``), so that demos and tests see
    partly revealed hands, protection, 关死 and 查叫.
    """
    rules = rules or RuleSet()
    state = replay(start(rules, dealer, seed=seed))
    rng = random.Random(seed)
    yield state, False
    while state.phase is not Phase.OVER:
        seat = state.to_act()[0]
        legal = legal_actions(state, seat)
        declares = [a for a in legal if a.kind is ActionKind.LIANGDAO] if seat in declare else []
        if declares:
            action = min(declares, key=lambda a: len(a.reveal) if a.reveal is not None else len(Tile))
        else:
            action = choose_action(view_for(state, seat), legal, Level.NORMAL, rng)
        state, events = step(state, action)
        yield state, any(isinstance(e, Discarded) and e.liangdao for e in events)


def _whole_hands(state: State) -> tuple[HandTiles, ...]:
    """Every seat's whole hand (the hand is over: public), as the bot passes them to the result."""
    views = [view_for(state, s) for s in range(len(state.seats))]
    return tuple((v.concealed + ((v.drawn,) if v.drawn is not None else ()), v.melds) for v in views)


FOURTH_NAME = "Anna"
"""The fourth seat's demo name at a table of 4."""


def engine_demo(seed: int = 7, tries: int = 300, rules: RuleSet | None = None, declare: Collection[int] = ()) -> Demo:
    """Demo views from real engine hands under ``rules`` (default: the standard game), the seats in
    ``declare`` declaring 亮倒 / 廊起 as soon as they can (:func:`play_states`).

    The first seeded hand that ends in a win after a 亮倒 gives the hand picture (the last turn of
    a seat with a meld, else of any seat not 亮倒), the table (the last claim window, else the last
    turn), the reveal (right after the 亮倒) and the result; the first seeded hand ending in 荒庄
    (查叫 under 卡心五) gives the draw.  Names and match totals follow the number of seats.
    Raises RuntimeError if ``tries`` hands do not show both.
    """
    n = (rules or RuleSet()).players
    names = (*DEMO_NAMES, FOURTH_NAME)[:n]
    totals = (12, -20, 8, 0)[:n] if n > 2 else (12, -12)
    won: tuple[SeatView, PublicView, PublicView, int, PublicView, tuple[HandTiles, ...]] | None = None
    draw: PublicView | None = None
    for attempt in range(tries):
        states = list(play_states(f"kwx-render-demo-{seed}-{attempt}", rules, declare=declare))
        final = states[-1][0]
        if final.result is None:
            continue
        if final.result.outcome != "win":
            draw = draw or public_view(final)
        elif won is None:
            declared = [st for st, flag in states if flag]
            turns = [st for st, _ in states if st.phase is Phase.TURN and st.drawn is not None]
            turns = [st for st in turns if not st.seats[st.turn].liangdao] or turns
            if not declared or not turns:
                continue
            hand_state = ([st for st in turns if st.seats[st.turn].melds] or turns)[-1]
            table_state = ([st for st, _ in states if st.phase is Phase.CLAIM] or turns)[-1]
            reveal_seat = next(i for i, s in enumerate(declared[0].seats) if s.liangdao)
            won = (
                view_for(hand_state, hand_state.turn),
                public_view(table_state),
                public_view(declared[0]),
                reveal_seat,
                public_view(final),
                _whole_hands(final),
            )
        if won is not None and draw is not None:
            hand, table, reveal, reveal_seat, result, hands = won
            return Demo(hand, table, reveal_seat, reveal, result, draw, names, hands, totals)
    raise RuntimeError(f"no won hand with a 亮倒 and no 荒庄 among {tries} seeded hands")


_DEMO_FANS = (Fan.PIHU, Fan.PENGPENG, Fan.KAWUXING, Fan.QIDUI, Fan.QINGYISE, Fan.GANGKAI)


def demo_stats(seed: int = 7, hands: int = 120) -> StatsSheet:
    """A made-up season of ``hands`` hands at one 3-seat table of :data:`DEMO_NAMES` (seeded), for a
    look at the ``/stats`` picture: each hand one winner (a self-draw paid by both others, or a
    discard paid by the discarder) or a draw, random 亮倒 and 番 — not the rules, just numbers."""
    rng = random.Random(seed)
    count = [
        dict.fromkeys(("hands", "wins", "self_draws", "dealt_in", "declared", "declared_won"), 0) for _ in DEMO_NAMES
    ]
    points = [0] * len(DEMO_NAMES)
    running: list[list[tuple[int, int]]] = [[] for _ in DEMO_NAMES]
    best: list[tuple[int, tuple[str, ...]]] = [(0, ())] * len(DEMO_NAMES)
    fans: list[Counter[str]] = [Counter() for _ in DEMO_NAMES]
    for position in range(1, hands + 1):
        declared = {s for s in range(len(DEMO_NAMES)) if rng.random() < 0.2}
        winner = rng.randrange(len(DEMO_NAMES)) if rng.random() < 0.85 else None
        for s in range(len(DEMO_NAMES)):
            count[s]["hands"] += 1
            count[s]["declared"] += s in declared
        if winner is not None:
            won = tuple(str(f) for f in rng.sample(_DEMO_FANS, rng.choice((1, 1, 2))))
            m = 2 ** rng.randrange(1, 5)
            count[winner]["wins"] += 1
            count[winner]["declared_won"] += winner in declared
            fans[winner].update(won)
            best[winner] = max(best[winner], (m, won), key=lambda b: b[0])
            payers = [s for s in range(len(DEMO_NAMES)) if s != winner]
            if rng.random() < 0.4:
                count[winner]["self_draws"] += 1
            else:
                payers = [rng.choice(payers)]
                count[payers[0]]["dealt_in"] += 1
            for p in payers:
                points[p] -= m
                points[winner] += m
        for s in range(len(DEMO_NAMES)):
            running[s].append((position, points[s]))
    players = [
        PlayerStats(
            name, points=points[s], best_multiplier=best[s][0], best_fans=best[s][1],
            top_fan=fans[s].most_common(1)[0][0] if fans[s] else None,
            top_fan_count=fans[s].most_common(1)[0][1] if fans[s] else 0, running=tuple(running[s]), **count[s],
        )
        for s, name in enumerate(DEMO_NAMES)
    ]  # fmt: skip
    players.sort(key=lambda p: -p.points)
    return StatsSheet("Mahjong night 🀄", tuple(players), hands, season=1)


# -- every picture kind, for the phone measurements (render.phone, ``python -m render phone``) ---------------

PICTURE_KINDS = ("hand", "table", "reveal", "result", "draw", "guansi", "replay", "review")
"""The picture kinds :func:`picture_canvases` draws: the hand picture (with the table), the table, the
亮倒 / 廊起 reveal, a won result, the 荒庄 / 查叫 result, a 关死 result, every frame of a replay, a
``/review`` picture of three decisions."""


def rules_for(game: str, players: int) -> RuleSet:
    """卡五星 (``kawuxing``) at 2, 3 or 4 seats (presets ``two_seats``, standard, ``four_seats``) or
    卡心五 (``kaxinwu``) at 2, 3 or 4 seats; raises KeyError for another number of seats."""
    if game == Ruleset.KAXINWU.value:
        return replace(RuleSet.preset("kaxinwu"), players=players)
    return {2: RuleSet.preset("two_seats"), 3: RuleSet(), 4: RuleSet.preset("four_seats")}[players]


@functools.cache
def _demo_for(game: str, players: int) -> Demo:
    declare = {0, 1} if game == Ruleset.KAXINWU.value else ()  # as ``python -m render demo`` does
    return engine_demo(7, rules=rules_for(game, players), declare=declare)


def _guansi(view: PublicView) -> PublicView:
    """``view`` ended by a 关死 of seat 1, who pays every other seat 2 (docs/rules.md §B)."""
    n = len(view.seats)
    hand = tuple(-2 * (n - 1) if i == 1 else 2 for i in range(n))
    return replace(view, result=HandResultView(Outcome.GUANSI, (), hand, (0,) * n, hand, 1, 1, ()))


@functools.cache
def _replay_views(game: str, players: int) -> tuple[PublicView, ...]:
    return tuple(public_view(st) for st, _ in play_states("phone-replay", rules_for(game, players), declare={1}))


@functools.cache
def review_items(game: str, players: int) -> tuple[ReviewItem, ...]:
    """Three decisions of an engine-played hand of ``game`` at ``players`` seats for the ``/review``
    picture: the seat with the most melds late in the hand, one of its claims when it had one, and
    an early turn; each "played" is its first legal action and "suggested" its last (a picture
    demo, not an AI's judgement), losses 2.4, 0.8 and none."""
    states = [st for st, _ in play_states("phone-review", rules_for(game, players), declare={1})]
    asked = [(st, s) for st in states for s in st.to_act() if len(legal_actions(st, s)) > 1]
    turns = [(st, s) for st, s in asked if st.phase is Phase.TURN]
    late = max(turns, key=lambda p: (len(p[0].seats[p[1]].melds), p[0].seq))
    claims = [p for p in asked if p[0].phase is not Phase.TURN] or turns[1:2]
    picked = [late, claims[-1], turns[0]]
    out = []
    for (st, seat), loss in zip(sorted(picked, key=lambda p: p[0].seq), (2.4, 0.8, None), strict=True):
        legal = legal_actions(st, seat)
        view = view_for(st, seat)
        if st.window is not None:
            view = replace(view, public=replace(view.public, to_act=(seat,)))
        out.append(ReviewItem(view, legal[0], legal[-1], loss))
    return tuple(out)


def picture_canvases(kind: str, game: str, players: int, words: PictureWords = ENGLISH) -> list[Canvas]:
    """The drawn pictures of ``kind`` (:data:`PICTURE_KINDS`) from an engine-played hand of ``game``
    at ``players`` seats (:func:`engine_demo`, seed 7), labels in ``words``: one canvas, or every
    frame of a replay.  Raises ValueError for an unknown kind."""
    d = _demo_for(game, players)
    names = d.names
    drawn = {
        "hand": lambda: [hand_canvas(d.hand, words, game=game, names=names)],
        "table": lambda: [table_canvas(d.table, names, words, d.totals, game)],
        "reveal": lambda: [reveal_canvas(d.reveal, d.reveal_seat, names, words, game)],
        "result": lambda: [result_canvas(d.result, names, words, d.hands, game)],
        "draw": lambda: [result_canvas(d.draw, names, words, None, game)],
        "guansi": lambda: [result_canvas(_guansi(d.draw), names, words, None, game)],
        "replay": lambda: replay_canvases(_replay_views(game, players), names, words, d.totals, game),
        "review": lambda: [review_canvas(review_items(game, players), words, game)],
    }
    if kind not in drawn:
        raise ValueError(f"unknown picture kind {kind!r}: one of {', '.join(PICTURE_KINDS)}")
    return drawn[kind]()
