"""The state machine of one hand of 卡五星 at 2, 3 or 4 seats: ``decide`` / ``evolve`` / ``legal_actions``.

* :func:`start` — the events of a new deal (from a seed through :mod:`engine.game.shuffle`, or from
  given hands and wall).  ``functools.reduce(evolve, start(...), EMPTY)`` is the dealt hand.
* :func:`decide` ``(state, action) -> list[Event]`` validates an action (raises
  :class:`~engine.game.actions.IllegalAction` with a :class:`~engine.game.actions.Reason`; the state
  is a value and is never changed) and returns its events, **followed by every automatic step**
  (draws, replacement draws, a 亮倒 seat's 摸打 and automatic 胡, window resolutions, the end of the
  hand) until some seat has a real choice or the hand is over.
* :func:`evolve` ``(state, event) -> state`` applies a fact without validating.
* :func:`legal_actions` ``(state, seat)`` lists exactly the actions :func:`decide` accepts from
  ``seat`` now (empty when the seat has nothing to decide).

The parts live in their own modules: :mod:`~engine.game.evolve` (events -> state),
:mod:`~engine.game.decide` (actions -> events and the automatic steps), :mod:`~engine.game.checks`
(why an action is illegal), :mod:`~engine.game.claims` (claim windows), :mod:`~engine.game.endings`
(wins, 荒庄, next dealer), :mod:`~engine.game.legal` (legal actions), :mod:`~engine.game.basics`
(shared helpers).  This module deals (:func:`start`) and gathers the public functions.

Rules implemented (docs/rules.md §A, §C, §E), with the decisions taken where the rules are silent:

* Seats (§A2.1): ``rules.players`` — 3 in the standard game, 2 or 4 as options (presets
  ``two_seats``, ``four_seats``); seat numbers 0 .. players-1, play passes to ``(seat + 1) mod
  players`` (§A2.3).  §A is written for 3 seats; every rule below is the same code for any number
  of seats, which is the natural generalisation where §A says "the two others" or "each other
  player": a 自摸, 暗杠 or 补杠 is paid by every other seat, a 荒庄 penalty or 查叫 between every pair
  of seats it names, 包胡 by the discarder for every other seat's share, and one discard may be won
  by up to players - 1 seats.
* Deal A3: 13 each, the dealer 14; draws from the wall's front, kong replacements from its back.
  The dealer's first turn is a drawn turn whose drawn tile is his 14th (E#23/E#43: a complete
  initial hand is a 自摸 on that tile; he may also 暗杠).
* Claims A5 / E#40: a window opens after a discard for every seat with a legal 胡, a 直杠 or a 碰;
  it waits for those seats (once a seat answered 胡, only for seats that could also 胡); then all
  胡 answers win (一炮双响 / 一炮多响, listed nearest the discarder first in turn order), else 直杠,
  else 碰 (one seat at most can 杠 or 碰 a tile: three copies are left), else the next seat draws.
  Seats with no option are never asked.  The last discard (wall empty) can only be won (A5.4); a
  亮倒 seat never 碰s (A5.3).
* Kongs A6: only while the wall has a tile (A6.5); none right after 碰 unless ``kong_after_peng``
  (A6.3: kongs need a turn with a draw); 补杠 only of a tile drawn this turn (E#42; a 亮倒 seat only
  the tile just drawn; ``bugang_immediate = false`` lifts this); 暗杠 of a held quad any drawn turn
  (A6.4).  A 补杠 opens a rob window (抢杠胡, A6.6, option ``qianggang``) for seats that can legally
  win on its tile; a robbed kong earns no money.
* Kong money A13 at the moment the kong completes (a 补杠 after its rob window): ``gang_values`` ×
  ``base`` × the 杠上杠 factor (``gang_chain``: double 2^(n-1), flat2, linear).  A kong continues
  the chain (E#17) when the same seat kongs the replacement tile just drawn (or, under
  ``gang_chain_self = any_kong_same_turn``, any kong in the same turn), or another seat 直杠s the
  first discard after a kong's replacement.
* 杠上开花: 自摸 on a replacement; 杠上炮: win on the first discard after a kong's replacement
  (E#31); 海底捞月: 自摸 when the wall is empty after the draw (a replacement counts, E#30);
  ``last_tile`` on a discard: the final discard (海底炮 when enabled).
* 亮倒 A9: declared with a discard that leaves the hand ready (waits exclude tiles whose 4 copies the
  seat holds itself; all-dead waits are allowed, E#29); the whole hand and its waits are public.
  From then on: the drawn tile is discarded automatically unless the seat wins or takes a permitted
  kong (A9.3); permitted kongs (``liangdao_kong``): ``waits_unchanged`` — 暗杠/补杠/直杠 whose result
  has the same wait set (A9.5); ``none``; ``anpu_and_bugang_only`` — only 补杠 of the tile just drawn
  (there are no 暗铺 tiles under full reveal).  A kong is optional (E#41): the seat is asked.
  Automatic 胡 (A9.4, ``liangdao_auto_win``): when the seat can legally win it wins, without being
  asked; in a window the other seats that could also 胡 are still asked (E#40).  With
  ``liangdao_auto_win = false`` or ``guohu_fanfan`` a 亮倒 seat may pass a win (under
  ``guohu_fanfan`` every win declined after 亮倒 adds ×2 to its eventual win — one passed in a claim
  window or a 自摸 it discards instead (§C 过胡翻番); 漏胡 applies to passed discard wins as to anyone).
  ``liangdao_protect`` (A9.8): a non-亮倒 seat may not discard (or 补杠, or declare 亮倒 with) a
  tile some other 亮倒 seat waits on while it holds any tile that is not such a tile.
  ``liangdao_min_wall``: 亮倒 only while at least that many tiles remain in the wall.
* 漏胡 A8.3 / E#9: passing a legal 胡 on a discard or a robbed kong (including answering 碰/杠
  instead) blocks 胡 on discards/robbed kongs until the seat's next draw (a replacement counts), 碰
  or 直杠: ``strict`` — every such win; ``bigger_exception`` — unless the new M (uncapped, against
  the new discarder) is strictly greater than every passed M; ``same_tile`` — only wins on a passed
  tile, unless the new M is strictly greater than that tile's passed M.  Self-draw is never blocked.
  A blocked win is simply not offered (the window does not open for it).
* ``guoshou_peng`` (A5.5): declining a possible 碰 blocks 碰 of that tile until the seat's next draw,
  碰 or 直杠.
* Settlement A12 via :func:`engine.scoring.score_win` (thresholds, 包胡, caps); 一炮双响 each
  winner independently.  荒庄 A14 when the final discard is not won: ``huangzhuang_liangdao`` —
  ``s000`` every 亮倒 seat pays every non-亮倒 seat 1 × base; ``s004_first`` the first 亮倒 seat pays
  each other seat 1 × base; ``chajiao`` 查叫: every ready seat (waits non-empty) collects from each
  seat that is not ready, and a ready non-亮倒 seat also from each 亮倒 seat, that payer's capped share
  of the ready seat's best 自摸 over its waits (patterns × 亮倒 factor, no situational factors, D H5);
  ``none``.  Kong money always stands.
* Next dealer A15: the single winner; the discarder / robbed seat on two or more winners (§A15.2,
  E#45; 一炮多响 at 4 seats too); on 荒庄 by ``dealer_on_draw``: ``stay``; ``last_drawer`` (the last
  seat that drew from the wall); ``chajiao`` — exactly one seat paid anything at 荒庄 → it deals;
  every seat but one paid → the seat that paid nothing deals (D H5: A and C pay, B deals); at 4
  seats with two payers, the first 亮倒 seat that paid nothing (the seed's 4-player 流局 rule, §B),
  else the dealer stays; otherwise the dealer stays (see :func:`engine.game.endings.finish_draw`).

* Partial reveals (§A9.2, §E#48, :mod:`~engine.game.reveal`): under ``liangdao_reveal = kou`` a
  亮倒 may keep concealed triplets face down when the waits stay the same; under ``minimal`` it shows
  any R of the kept tiles whose waits W(R, H) are not empty, and W are the seat's waits (the shown
  shape fixes them: it wins only on W).  The 亮倒 action names the shown tiles (``reveal``; none =
  the whole hand); ``legal_actions`` lists every legal reveal; views show only the shown tiles.  A
  kong takes its copies from the hidden tiles first and is allowed (under ``waits_unchanged``) when
  the new split has the same waits.  The value of a win is read from the whole hand as usual.
* 卡心五 (``RuleSet.preset("kaxinwu")``, docs/rules.md §B, every decision written there): 廊起 is the
  ``minimal`` reveal; 有胡必胡 (a seat that can 自摸 is offered only 胡, before any kong);
  ``kong_mandatory`` (有杠必杠: a seat that can kong is offered only its kongs, on a discard 杠 and
  胡); protection; ``guansi`` (关死, :func:`engine.game.endings.guansi_seat`, checked after every
  discard, draw, 碰 and kong — a kong's before its replacement draw); 查叫 of 廊起 seats and the
  dealer by the number of 被查叫 seats (``chajiao_langqi``); its own patterns (:mod:`engine.fans`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..rules import FirstDealer, RuleError, RuleSet
from ..tiles import NotationError, Tile, counts_of, format_tiles
from .actions import seat_list
from .basics import kinds_for
from .decide import decide, step
from .events import Event, HandStarted
from .evolve import evolve, replay
from .legal import legal_actions
from .shuffle import deal

__all__ = [
    "check_rules",
    "decide",
    "evolve",
    "first_dealer",
    "kinds_for",
    "legal_actions",
    "replay",
    "start",
    "step",
]


def check_rules(rules: RuleSet, seats: int | None = None) -> None:
    """Raise :class:`RuleError` if the state machine cannot play ``rules`` (at a table of ``seats``).

    Every RuleSet option is playable.  ``seats``: the number of seats of the
    caller's table, when it is fixed; rules for another number of players (``rules.players``) are
    refused.  Callers that accept rules from people (group settings, the ``simulate`` command) check
    here before storing them.
    """
    if seats is not None and rules.players != seats:
        raise RuleError(f"rule option 'players' = {rules.players} is not supported here: this table has {seats} seats")


def start(
    rules: RuleSet,
    dealer: int = 0,
    *,
    seed: str | None = None,
    hands: Sequence[Sequence[Tile]] | None = None,
    wall: Sequence[Tile] | None = None,
) -> list[Event]:
    """The events of a new hand: ``hand_started`` (plus automatic steps, if any).

    Give either ``seed`` (the deal of :func:`engine.game.shuffle.deal`) or ``hands`` and ``wall``:
    ``hands[dealer]`` has 14 tiles, its last one the dealer's 14th (E#43), the others 13; ``wall`` is
    the rest in draw order.  Together they must be exactly four of each kind in play (84 tiles in the
    standard game).  Raises ``ValueError`` (:class:`NotationError` for tile problems,
    :class:`RuleError` for unsupported rules) saying what is wrong.
    """
    check_rules(rules)
    n = rules.players
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < n:
        raise ValueError(f"dealer must be a seat {seat_list(n)}, got {dealer!r}")
    kinds = kinds_for(rules)
    if seed is not None:
        if hands is not None or wall is not None:
            raise ValueError("give either a seed or hands and wall, not both")
        dealt, live = deal(seed, dealer, kinds, n)
    else:
        if hands is None or wall is None:
            raise ValueError("give a seed, or both hands and wall")
        if len(hands) != n:
            raise ValueError(f"hands must list {n} seats, got {len(hands)}")
        for s, h in enumerate(hands):
            want = 14 if s == dealer else 13
            if len(h) != want:
                who = "the dealer" if s == dealer else "a non-dealer"
                raise ValueError(f"hand of seat {s} has {len(h)} tiles; {who} is dealt {want}")
        dealt = tuple(tuple(Tile(t) for t in h) for h in hands)
        live = tuple(Tile(t) for t in wall)
        counts = counts_of([t for h in dealt for t in h] + list(live))
        allowed = set(kinds)
        for t in Tile:
            if counts[t] and t not in allowed:
                raise NotationError(f"{t} is not in play under these rules (tiles: {format_tiles(kinds)})")
        wrong = [f"{counts[t]} x {t}" for t in kinds if counts[t] != 4]
        if wrong:
            total = 4 * len(kinds)
            raise NotationError(
                f"hands and wall must hold exactly 4 of each tile ({total} tiles); got {sum(counts)} tiles, "
                f"with {', '.join(wrong)}"
            )
    return [HandStarted(1, rules, dealer, dealt, live, seed)]


def first_dealer(rules: RuleSet, host: int | None, chance: str) -> int:
    """The dealer of a table's first hand (docs/rules.md §A2.2, option ``first_dealer``).

    ``host``: the seat of the table's host (0 .. ``rules.players`` - 1), or None when the host has no
    seat.  ``chance``: any text the caller draws at random (e.g. the deal's seed); the same text gives
    the same seat.  Under ``first_dealer = host`` the host deals; otherwise — and when the host has no
    seat — a seat drawn uniformly by ``random.Random(chance)``.  Raises ``ValueError`` for a host
    that is not a seat of the table.
    """
    if host is not None and not 0 <= host < rules.players:
        raise ValueError(f"the host's seat must be {seat_list(rules.players)}, got {host!r}")
    if rules.first_dealer is FirstDealer.HOST and host is not None:
        return host
    return random.Random(chance).randrange(rules.players)
