"""The state machine of one hand of 3-player 卡五星: ``decide`` / ``evolve`` / ``legal_actions``.

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

Rules implemented (docs/rules.md §A, §C, §E), with the decisions taken where docs/rules.md is silent:

* Deal A3: 13 each, the dealer 14; draws from the wall's front, kong replacements from its back.
  The dealer's first turn is a drawn turn whose drawn tile is his 14th (E#23/E#43: a complete
  initial hand is a 自摸 on that tile; he may also 暗杠).
* Claims A5 / E#40: a window opens after a discard for every seat with a legal 胡, a 直杠 or a 碰;
  it waits for those seats (once a seat answered 胡, only for seats that could also 胡); then all
  胡 answers win (一炮双响), else 直杠, else 碰, else the next seat draws.  Seats with no option are
  never asked.  The last discard (wall empty) can only be won (A5.4); a 亮倒 seat never 碰s (A5.3).
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
  ``guohu_fanfan`` each win passed in a claim window after 亮倒 adds ×2 — a declined 自摸 is not
  counted; 漏胡 applies to passed discard wins as to anyone).
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
* Next dealer A15: the single winner; the discarder / robbed seat on two winners (E#45); on 荒庄 by
  ``dealer_on_draw``: ``stay``; ``last_drawer`` (the last seat that drew from the wall);
  ``chajiao`` — exactly one seat paid anything at 荒庄 → it deals; two seats paid → the seat that paid
  nothing deals (D H5: A and C pay, B deals); otherwise the dealer stays.

Not supported (start raises RuleError): ``liangdao_reveal`` other than ``full``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..analysis import is_complete_keys, keys_of
from ..rules import (
    DealerOnDraw,
    GangChain,
    GangChainSelf,
    HuangzhuangLiangdao,
    LiangdaoKong,
    LiangdaoReveal,
    Louhu,
    RuleError,
    RuleSet,
)
from ..scoring import IllegalReason, WinBy, WinContext, WinScore, score_win
from ..tiles import Meld, MeldKind, NotationError, Suit, Tile, counts_of, format_tiles
from ..views import DiscardView, HandResultView, MeldView, WinView
from .actions import Action, ActionKind, IllegalAction, Reason, action
from .events import (
    Answered,
    Discarded,
    Drew,
    Event,
    HandEnded,
    HandStarted,
    Konged,
    Ponged,
    WindowOpened,
)
from .hands import keys_plus, moved, shanten_of, wait_tiles
from .shuffle import deal
from .state import EMPTY, ClaimOption, Phase, SeatState, State, Window, WindowKind, updated

__all__ = ["decide", "evolve", "kinds_for", "legal_actions", "replay", "start", "step"]

NUM_SEATS = 3
_TILES = tuple(Tile)

# ============================================================================ small helpers


def kinds_for(rules: RuleSet) -> tuple[Tile, ...]:
    """The tile kinds in play: the two ``suits`` (1-9 each) and, with ``dragons``, 白 發 中 (A1.1)."""
    kinds = [t for t in Tile if t.suit is not Suit.DRAGONS and t.suit.value in rules.suits]
    if rules.dragons:
        kinds += [Tile.WHITE, Tile.GREEN, Tile.RED]
    return tuple(kinds)


def _replace_seat(seats: tuple[SeatState, ...], i: int, seat: SeatState) -> tuple[SeatState, ...]:
    return (*seats[:i], seat, *seats[i + 1 :])


def _chain_factor(rules: RuleSet, n: int) -> int:
    if n <= 1:
        return 1
    if rules.gang_chain is GangChain.DOUBLE:
        return 1 << (n - 1)
    if rules.gang_chain is GangChain.FLAT2:
        return 2
    return n  # linear


def _kong_money(rules: RuleSet, kind: MeldKind, seat: int, from_seat: int | None, chain: int) -> tuple[int, ...]:
    """Kong money per seat (A13.1, A13.3)."""
    factor = _chain_factor(rules, chain) * rules.base
    money = [0] * NUM_SEATS
    if kind is MeldKind.KONG:
        assert from_seat is not None
        amount = rules.gang_values.zhi * factor
        money[from_seat] -= amount
        money[seat] += amount
    else:
        amount = (rules.gang_values.an if kind is MeldKind.CONCEALED_KONG else rules.gang_values.bu) * factor
        for s in range(NUM_SEATS):
            if s != seat:
                money[s] -= amount
                money[seat] += amount
    return tuple(money)


def _liangdao_flags(state: State) -> tuple[bool, ...]:
    return tuple(s.liangdao for s in state.seats)


def _protected_mask(state: State, seat: int) -> int:
    """Tiles a non-亮倒 ``seat`` may not give away under ``liangdao_protect`` (A9.8), as a bit mask:
    the waits of the other 亮倒 seats — unless every tile in its hand is one of them."""
    if not state.rules.liangdao_protect or state.seats[seat].liangdao:
        return 0
    mask = 0
    for i, other in enumerate(state.seats):
        if i != seat and other.liangdao:
            for t in other.waits:
                mask |= 1 << t
    if not mask:
        return 0
    hand = state.seats[seat].hand
    if all(not n or mask >> t & 1 for t, n in enumerate(hand)):
        return 0
    return mask


def _auto_win(rules: RuleSet) -> bool:
    """Whether a 亮倒 seat must win when it can (A9.4); ``guohu_fanfan`` lets it decline."""
    return rules.liangdao_auto_win and not rules.guohu_fanfan


# ============================================================================ start


def check_rules(rules: RuleSet) -> None:
    """Raise :class:`RuleError` if the state machine cannot play ``rules``.

    Every RuleSet option is playable except ``liangdao_reveal`` other than ``full`` (the 扣/暗铺 and
    廊起 reveals of docs/rules.md §A9.2 are not implemented).  Callers that accept rules from people (group
    settings, the ``simulate`` command) check here before storing them.
    """
    if rules.liangdao_reveal is not LiangdaoReveal.FULL:
        raise RuleError(
            f"rule option 'liangdao_reveal' = {rules.liangdao_reveal.value!r} is not supported by the game "
            "state machine; only 'full' (docs/rules.md §A9.2 default)"
        )


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
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < NUM_SEATS:
        raise ValueError(f"dealer must be a seat 0, 1 or 2, got {dealer!r}")
    kinds = kinds_for(rules)
    if seed is not None:
        if hands is not None or wall is not None:
            raise ValueError("give either a seed or hands and wall, not both")
        dealt, live = deal(seed, dealer, kinds)
    else:
        if hands is None or wall is None:
            raise ValueError("give a seed, or both hands and wall")
        if len(hands) != NUM_SEATS:
            raise ValueError(f"hands must list {NUM_SEATS} seats, got {len(hands)}")
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


def replay(events: Sequence[Event]) -> State:
    """The state after ``events`` (``reduce(evolve, events, EMPTY)``)."""
    state = EMPTY
    for e in events:
        state = evolve(state, e)
    return state


# ============================================================================ evolve


def evolve(state: State, event: Event) -> State:
    """Apply one event (no validation).  Pure: returns a new state."""
    seq = event.seq
    if isinstance(event, Drew):
        return _evolve_drew(state, event)
    if isinstance(event, Discarded):
        i = event.seat
        seat = state.seats[i]
        hand, keys = moved(seat, event.tile, -1)
        seat = updated(
            seat,
            hand=hand,
            keys=keys,
            discards=(*seat.discards, DiscardView(event.tile, False, event.liangdao)),
            liangdao=seat.liangdao or event.liangdao,
            waits=event.waits if event.liangdao else seat.waits,
        )
        order = (*state.liangdao_order, i) if event.liangdao else state.liangdao_order
        return updated(
            state,
            seq=seq,
            phase=Phase.DISCARDED,
            seats=_replace_seat(state.seats, i, seat),
            turn=i,
            drawn=None,
            replacement=False,
            turn_draws=(),
            liangdao_order=order,
        )
    if isinstance(event, WindowOpened):
        window = Window(event.kind, event.from_seat, event.tile, event.options, (), event.gangpao, event.last)
        phase = Phase.CLAIM if event.kind is WindowKind.CLAIM else Phase.ROB
        return updated(state, seq=seq, phase=phase, window=window)
    if isinstance(event, Answered):
        return _evolve_answered(state, event)
    if isinstance(event, Ponged):
        i = event.seat
        seat = state.seats[i]
        hand, keys = moved(seat, event.tile, -2)
        seat = updated(
            seat,
            hand=hand,
            keys=keys,
            melds=(*seat.melds, Meld(MeldKind.PONG, event.tile, event.from_seat)),
            louhu=(),
            passed_pong=(),
        )
        seats = _replace_seat(state.seats, i, seat)
        seats = _mark_claimed(seats, event.from_seat)
        return updated(
            state,
            seq=seq,
            phase=Phase.TURN,
            seats=seats,
            turn=i,
            drawn=None,
            replacement=False,
            turn_draws=(),
            chain=0,
            window=None,
        )
    if isinstance(event, Konged):
        return _evolve_konged(state, event)
    if isinstance(event, HandEnded):
        return updated(state, seq=seq, phase=Phase.OVER, window=None, result=event.result)
    if isinstance(event, HandStarted):
        return _evolve_started(event)
    raise TypeError(f"not an event: {event!r}")  # pragma: no cover


def _evolve_started(event: HandStarted) -> State:
    seats = []
    for tiles in event.hands:
        hand = counts_of(tiles)
        seats.append(SeatState(hand=tuple(hand), keys=keys_of(hand)))
    drawn = event.hands[event.dealer][-1]
    return State(
        rules=event.rules,
        seq=event.seq,
        phase=Phase.TURN,
        dealer=event.dealer,
        seed=event.seed,
        kinds=kinds_for(event.rules),
        seats=tuple(seats),
        wall=event.wall,
        front=0,
        back=len(event.wall),
        turn=event.dealer,
        drawn=drawn,
        replacement=False,
        turn_draws=(drawn,),
    )


def _evolve_drew(state: State, event: Drew) -> State:
    i = event.seat
    seat = state.seats[i]
    hand, keys = moved(seat, event.tile, 1)
    seat = updated(seat, hand=hand, keys=keys, louhu=(), passed_pong=())
    if event.replacement:
        return updated(
            state,
            seq=event.seq,
            phase=Phase.TURN,
            seats=_replace_seat(state.seats, i, seat),
            back=state.back - 1,
            turn=i,
            drawn=event.tile,
            replacement=True,
            turn_draws=(*state.turn_draws, event.tile),
            window=None,
            last_drawer=i,
        )
    return updated(
        state,
        seq=event.seq,
        phase=Phase.TURN,
        seats=_replace_seat(state.seats, i, seat),
        front=state.front + 1,
        turn=i,
        drawn=event.tile,
        replacement=False,
        turn_draws=(event.tile,),
        chain=0,
        window=None,
        last_drawer=i,
    )


def _evolve_answered(state: State, event: Answered) -> State:
    window = state.window
    assert window is not None
    window = updated(window, answers=(*window.answers, (event.seat, event.answer)))
    seats = state.seats
    option = window.option(event.seat)
    if option is not None:
        seat = seats[event.seat]
        changed = False
        if option.win and event.answer != "win":
            seat = updated(
                seat,
                louhu=(*seat.louhu, (window.tile, option.win)),
                declined=seat.declined + (1 if seat.liangdao else 0),
            )
            changed = True
        if option.pong and event.answer not in ("pong", "win") and state.rules.guoshou_peng:
            seat = updated(seat, passed_pong=(*seat.passed_pong, window.tile))
            changed = True
        if changed:
            seats = _replace_seat(seats, event.seat, seat)
    return updated(state, seq=event.seq, seats=seats, window=window)


def _mark_claimed(seats: tuple[SeatState, ...], from_seat: int) -> tuple[SeatState, ...]:
    src = seats[from_seat]
    last = src.discards[-1]
    src = updated(src, discards=(*src.discards[:-1], DiscardView(last.tile, True, last.liangdao)))
    return _replace_seat(seats, from_seat, src)


def _evolve_konged(state: State, event: Konged) -> State:
    i = event.seat
    seat = state.seats[i]
    t = event.tile
    seats = state.seats
    if event.kind is MeldKind.CONCEALED_KONG:
        hand, keys = moved(seat, t, -4)
        seat = updated(seat, hand=hand, keys=keys, melds=(*seat.melds, Meld(MeldKind.CONCEALED_KONG, t, None)))
        turn_draws = state.turn_draws
    elif event.kind is MeldKind.ADDED_KONG:
        hand, keys = moved(seat, t, -1)
        melds = tuple(
            Meld(MeldKind.ADDED_KONG, t, m.source) if m.kind is MeldKind.PONG and m.tile == t else m for m in seat.melds
        )
        seat = updated(seat, hand=hand, keys=keys, melds=melds)
        turn_draws = state.turn_draws
    else:
        hand, keys = moved(seat, t, -3)
        seat = updated(
            seat,
            hand=hand,
            keys=keys,
            melds=(*seat.melds, Meld(MeldKind.KONG, t, event.from_seat)),
            louhu=(),
            passed_pong=(),
        )
        turn_draws = ()
    seats = _replace_seat(seats, i, seat)
    if event.kind is MeldKind.KONG:
        assert event.from_seat is not None
        seats = _mark_claimed(seats, event.from_seat)
    if any(event.money):
        seats = tuple(
            updated(s, kong_money=s.kong_money + m) if m else s for s, m in zip(seats, event.money, strict=True)
        )
    return updated(
        state,
        seq=event.seq,
        phase=Phase.KONGED,
        seats=seats,
        turn=i,
        drawn=None,
        replacement=False,
        turn_draws=turn_draws,
        chain=event.chain,
        window=None,
    )


# ============================================================================ checks shared by decide and
# legal_actions


def _self_win_score(state: State) -> WinScore | None:
    """The turn seat's 自摸 score if its hand is complete (None if not complete / nothing drawn)."""
    drawn = state.drawn
    seat = state.seats[state.turn]
    if drawn is None or not is_complete_keys(seat.keys, len(seat.melds)):
        return None
    concealed = list(seat.tiles())
    concealed.remove(drawn)
    ctx = WinContext(
        concealed=tuple(concealed),
        melds=seat.melds,
        win_tile=drawn,
        win_by=WinBy.SELF_DRAW,
        winner=state.turn,
        discarder=None,
        liangdao=_liangdao_flags(state),
        after_kong=state.replacement,
        last_tile=state.wall_remaining == 0,
        kong_chain=max(state.chain, 1),
        declined_wins=seat.declined,
    )
    return score_win(ctx, state.rules)


def _can_self_win(state: State) -> bool:
    seat = state.seats[state.turn]
    if state.drawn is None or not is_complete_keys(seat.keys, len(seat.melds)):
        return False
    if not state.rules.qihu_2fan:
        return True
    score = _self_win_score(state)
    return score is not None and score.legal


def _kong_check(state: State, kind: ActionKind, tile: Tile) -> IllegalAction | None:
    """Why the turn seat may not declare 暗杠/补杠 of ``tile`` now (None = it may)."""
    rules = state.rules
    i = state.turn
    seat = state.seats[i]
    name = "暗杠" if kind is ActionKind.CONCEALED_KONG else "补杠"
    if kind is ActionKind.CONCEALED_KONG:
        if seat.hand[tile] < 4:
            return IllegalAction(
                Reason.CANNOT_KONG if seat.hand[tile] else Reason.TILE_NOT_IN_HAND,
                f"暗杠 of {tile} needs all four {tile} in hand; seat {i} holds {seat.hand[tile]}",
            )
    else:
        if not seat.pong_of(tile):
            return IllegalAction(Reason.CANNOT_KONG, f"补杠 of {tile} needs an exposed 碰 of {tile}")
        if not seat.hand[tile]:
            return IllegalAction(Reason.TILE_NOT_IN_HAND, f"补杠: seat {i} holds no {tile}")
    if state.wall_remaining == 0:
        return IllegalAction(Reason.KONG_ON_LAST_TILE, "no kong when the wall is empty (docs/rules.md §A6.5)")
    if state.drawn is None and not rules.kong_after_peng:
        return IllegalAction(
            Reason.KONG_NOT_ALLOWED_AFTER_PONG,
            f"no {name} right after 碰: kongs wait for a turn with a draw (docs/rules.md §A6.3)",
        )
    if kind is ActionKind.ADDED_KONG and rules.bugang_immediate:
        fresh = (tile == state.drawn) if seat.liangdao else (tile in state.turn_draws)
        if not fresh:
            return IllegalAction(
                Reason.BUGANG_NOT_IMMEDIATE,
                f"补杠 of {tile} must be made on the turn the 4th {tile} is drawn, or never "
                "(docs/rules.md §A6.2, §E#42)",
            )
    if seat.liangdao:
        mode = rules.liangdao_kong
        if mode is LiangdaoKong.NONE or (
            mode is LiangdaoKong.ANPU_AND_BUGANG_ONLY and (kind is ActionKind.CONCEALED_KONG or tile != state.drawn)
        ):
            return IllegalAction(
                Reason.LIANGDAO_KONG_FORBIDDEN,
                f"{name} after 亮倒 is not allowed under liangdao_kong = {mode.value} (docs/rules.md §A9.5)",
            )
        n = 4 if kind is ActionKind.CONCEALED_KONG else 1
        if not _liangdao_waits_kept(seat, tile, n, 1 if kind is ActionKind.CONCEALED_KONG else 0):
            return IllegalAction(
                Reason.LIANGDAO_KONG_CHANGES_WAITS,
                f"{name} of {tile} would change the 亮倒 waits {format_tiles(seat.waits)} (docs/rules.md §A9.5)",
            )
    elif kind is ActionKind.ADDED_KONG and _protected_mask(state, i) >> tile & 1:
        return IllegalAction(
            Reason.PROTECTED_TILE,
            f"{tile} wins for a 亮倒 player: no 补杠 of it while you hold other tiles (liangdao_protect, A9.8)",
        )
    return None


def _liangdao_waits_kept(seat: SeatState, tile: Tile, remove: int, new_melds: int) -> bool:
    """Whether a 亮倒 seat's waits stay the same after taking ``remove`` copies of ``tile`` out of its
    hand for a kong (A9.5): 4 for 暗杠 and 1 for 补杠 (from a turn hand of 14 - 3*melds tiles), 3 for
    直杠 (from a 13 - 3*melds hand); ``new_melds`` is 1 when the kong is a new meld (暗杠/直杠).  For a
    暗杠 of a held quad the drawn tile stays in the hand and is part of the compared hand."""
    hand, keys = moved(seat, tile, -remove)
    melds = list(seat.melds)
    if new_melds:
        melds.append(Meld(MeldKind.CONCEALED_KONG, tile))
    else:
        melds = [Meld(MeldKind.ADDED_KONG, tile) if m.tile == tile and m.kind is MeldKind.PONG else m for m in melds]
    if sum(hand) != 13 - 3 * len(melds):
        return False
    return wait_tiles(hand, keys, melds) == seat.waits


def _turn_check(state: State, action: Action) -> IllegalAction | None:
    """Why the turn seat's own-turn ``action`` is illegal now (None = legal)."""
    rules = state.rules
    i = state.turn
    seat = state.seats[i]
    kind = action.kind
    tile = action.tile
    if kind is ActionKind.WIN:
        if state.drawn is None:
            return IllegalAction(Reason.NO_DRAWN_TILE, "自摸 needs a drawn tile; after 碰 you must discard")
        if not is_complete_keys(seat.keys, len(seat.melds)):
            return IllegalAction(Reason.NOT_COMPLETE, f"seat {i}'s hand is not a winning hand (docs/rules.md §A7)")
        if rules.qihu_2fan and not _can_self_win(state):
            return IllegalAction(Reason.QIHU_2FAN, "under qihu_2fan even a 自摸 needs a multiplier of at least 2")
        return None
    assert tile is not None
    if kind in (ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG):
        return _kong_check(state, kind, tile)
    # discard / liangdao
    if not seat.hand[tile]:
        return IllegalAction(Reason.TILE_NOT_IN_HAND, f"seat {i} holds no {tile}")
    if kind is ActionKind.DISCARD:
        if seat.liangdao and tile != state.drawn:
            return IllegalAction(
                Reason.LIANGDAO_MUST_DISCARD_DRAWN,
                f"after 亮倒 the drawn tile {state.drawn} is discarded (docs/rules.md §A4.3, §A9.3)",
            )
        if _protected_mask(state, i) >> tile & 1:
            return IllegalAction(
                Reason.PROTECTED_TILE,
                f"{tile} wins for a 亮倒 player: discard another tile (liangdao_protect, docs/rules.md §A9.8)",
            )
        return None
    # liangdao
    if seat.liangdao:
        return IllegalAction(Reason.ALREADY_LIANGDAO, f"seat {i} has already declared 亮倒")
    if state.wall_remaining < rules.liangdao_min_wall:
        return IllegalAction(
            Reason.LIANGDAO_WALL_TOO_SHORT,
            f"亮倒 needs at least {rules.liangdao_min_wall} tiles in the wall; {state.wall_remaining} remain",
        )
    if _protected_mask(state, i) >> tile & 1:
        return IllegalAction(
            Reason.PROTECTED_TILE,
            f"{tile} wins for a 亮倒 player: declare 亮倒 with another discard (liangdao_protect, docs/rules.md §A9.8)",
        )
    if not _liangdao_waits(seat, tile):
        return IllegalAction(
            Reason.NOT_READY_FOR_LIANGDAO,
            f"after discarding {tile} the hand is not ready (听), so 亮倒 is not possible (docs/rules.md §A9.1)",
        )
    return None


def _liangdao_waits(seat: SeatState, tile: Tile) -> tuple[Tile, ...]:
    """The waits after discarding ``tile`` (empty = not ready)."""
    hand, keys = moved(seat, tile, -1)
    return wait_tiles(hand, keys, seat.melds)


def _claim_failure(state: State, seat_no: int, kind: ActionKind) -> IllegalAction:
    """Why ``seat_no`` may not answer ``kind`` in the open window (called only when it may not)."""
    window = state.window
    assert window is not None
    seat = state.seats[seat_no]
    t = window.tile
    if kind is ActionKind.WIN:
        keys = keys_plus(seat.keys, t, 1)
        if not is_complete_keys(keys, len(seat.melds)):
            return IllegalAction(
                Reason.NOT_COMPLETE, f"{t} does not complete seat {seat_no}'s hand (docs/rules.md §A7)"
            )
        score = _claim_score(state, seat_no, window)
        if score is not None and not score.legal:
            if score.illegal is IllegalReason.QIANGGANG_OFF:
                return IllegalAction(Reason.CANNOT_KONG, "robbing a kong is switched off (qianggang = false)")
            return IllegalAction(
                Reason.PIHU_CANNOT_WIN_ON_DISCARD,
                f"a win on {t} from seat {window.from_seat} is worth ×{score.discarder_multiplier}: "
                "a win on a discard needs at least ×2 (屁胡 cannot 捉炮, docs/rules.md §A8.2)",
            )
        return IllegalAction(
            Reason.LOUHU,
            "漏胡: you passed a win since your last draw, so you may not win this discard "
            "unless it is worth more (docs/rules.md §A8.3)",
        )
    if window.kind is WindowKind.ROB:
        return IllegalAction(
            Reason.CANNOT_PONG if kind is ActionKind.PONG else Reason.CANNOT_KONG,
            "a declared 补杠 can only be robbed (抢杠胡), not claimed for 碰/杠 (docs/rules.md §A6.6)",
        )
    if window.last:
        return IllegalAction(
            Reason.LAST_DISCARD_WIN_ONLY, "the last discard can only be claimed for 胡 (docs/rules.md §A5.4)"
        )
    if kind is ActionKind.PONG:
        if seat.liangdao:
            return IllegalAction(Reason.LIANGDAO_CANNOT_PONG, "a 亮倒 player may not 碰 (docs/rules.md §A5.3)")
        if seat.hand[t] < 2:
            return IllegalAction(Reason.CANNOT_PONG, f"碰 of {t} needs two {t} in hand")
        return IllegalAction(Reason.GUOSHOU_PENG, f"you declined 碰 of {t} since your last draw (guoshou_peng, A5.5)")
    # kong
    if seat.hand[t] < 3:
        return IllegalAction(Reason.CANNOT_KONG, f"直杠 of {t} needs three {t} in hand")
    if state.rules.liangdao_kong is not LiangdaoKong.WAITS_UNCHANGED:
        return IllegalAction(Reason.LIANGDAO_KONG_FORBIDDEN, "直杠 after 亮倒 is not allowed under these rules (A9.5)")
    return IllegalAction(
        Reason.LIANGDAO_KONG_CHANGES_WAITS, f"直杠 of {t} would change the 亮倒 waits (docs/rules.md §A9.5)"
    )


# ============================================================================ claim windows


def _claim_score(state: State, seat_no: int, window: Window) -> WinScore | None:
    """Score of ``seat_no`` winning the window's tile (None when the tile does not complete the hand)."""
    seat = state.seats[seat_no]
    t = window.tile
    if not is_complete_keys(keys_plus(seat.keys, t, 1), len(seat.melds)):
        return None
    rob = window.kind is WindowKind.ROB
    ctx = WinContext(
        concealed=tuple(seat.tiles()),
        melds=seat.melds,
        win_tile=t,
        win_by=WinBy.ROB_KONG if rob else WinBy.DISCARD,
        winner=seat_no,
        discarder=window.from_seat,
        liangdao=_liangdao_flags(state),
        after_kong=window.gangpao and not rob,
        last_tile=window.last and not rob,
        kong_chain=max(state.chain, 1),
        declined_wins=seat.declined,
    )
    return score_win(ctx, state.rules)


def _louhu_blocks(rules: RuleSet, seat: SeatState, tile: Tile, m: int) -> bool:
    """漏胡 (A8.3, E#9): whether the passed wins block a new discard win worth ``m`` on ``tile``."""
    if not seat.louhu:
        return False
    mode = rules.louhu
    if mode is Louhu.STRICT:
        return True
    if mode is Louhu.BIGGER_EXCEPTION:
        return m <= max(p for _, p in seat.louhu)
    return any(t == tile and m <= p for t, p in seat.louhu)


def _window_options(
    state: State, kind: WindowKind, from_seat: int, tile: Tile, gangpao: bool, last: bool
) -> tuple[ClaimOption, ...]:
    rules = state.rules
    probe = Window(kind, from_seat, tile, (), (), gangpao, last)
    out = []
    for s in range(NUM_SEATS):
        if s == from_seat:
            continue
        seat = state.seats[s]
        win = 0
        if is_complete_keys(keys_plus(seat.keys, tile, 1), len(seat.melds)):
            score = _claim_score(state, s, probe)
            if score is not None and score.legal:
                m = score.discarder_multiplier or 0
                if not _louhu_blocks(rules, seat, tile, m):
                    win = m
        kong = pong = False
        if kind is WindowKind.CLAIM and not last:
            n = seat.hand[tile]
            if n >= 2 and not seat.liangdao and tile not in seat.passed_pong:
                pong = True
            if n == 3:
                if not seat.liangdao:
                    kong = True
                elif rules.liangdao_kong is LiangdaoKong.WAITS_UNCHANGED:
                    kong = _liangdao_waits_kept(seat, tile, 3, 1)
        if win or kong or pong:
            out.append(ClaimOption(s, win, kong, pong))
    return tuple(out)


# ============================================================================ decide


class _Builder:
    """Accumulates the events of one decide call, evolving as it goes."""

    __slots__ = ("events", "state")

    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[Event] = []

    @property
    def seq(self) -> int:
        return self.state.seq + 1

    def emit(self, event: Event) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)


def step(state: State, action: Action) -> tuple[State, list[Event]]:
    """:func:`decide` and the resulting state at once (the state :func:`evolve` would build from the
    events, without applying them a second time).  Raises :class:`IllegalAction` like decide."""
    _validate(state, action)
    b = _Builder(state)
    _apply(b, action)
    _advance(b)
    return b.state, b.events


def decide(state: State, action: Action) -> list[Event]:
    """The events of ``action`` in ``state`` and of every automatic step after it.

    Raises :class:`IllegalAction` (with a :class:`Reason`) when the action is not allowed now;
    ``state`` is an immutable value and is never changed.
    """
    _validate(state, action)
    b = _Builder(state)
    _apply(b, action)
    _advance(b)
    return b.events


def _validate(state: State, action: Action) -> None:
    if state.phase is Phase.OVER:
        raise IllegalAction(Reason.HAND_OVER, "the hand is over")
    if state.phase is Phase.DEAL:
        raise IllegalAction(Reason.HAND_OVER, "the hand has not been dealt")
    seat_no = action.seat
    if not 0 <= seat_no < NUM_SEATS:
        raise IllegalAction(Reason.BAD_SEAT, f"there is no seat {seat_no}")
    kind = action.kind
    if kind.takes_tile and action.tile is None:
        raise IllegalAction(Reason.MISSING_TILE, f"{kind.value} needs a tile")
    if not kind.takes_tile and action.tile is not None:
        raise IllegalAction(Reason.UNEXPECTED_TILE, f"{kind.value} takes no tile")
    if state.phase is Phase.TURN:
        if kind in (ActionKind.PONG, ActionKind.KONG, ActionKind.PASS):
            raise IllegalAction(
                Reason.NO_CLAIM_PENDING, f"there is no discard to {kind.value}: seat {state.turn} is playing its turn"
            )
        if seat_no != state.turn:
            raise IllegalAction(Reason.NOT_YOUR_TURN, f"it is seat {state.turn}'s turn, not seat {seat_no}'s")
        err = _turn_check(state, action)
        if err is not None:
            raise err
        return
    window = state.window
    if window is None or state.phase not in (Phase.CLAIM, Phase.ROB):  # pragma: no cover - transient phases
        raise IllegalAction(Reason.NOT_YOUR_TURN, "no seat is to act")
    what = "补杠" if window.kind is WindowKind.ROB else "discard"
    if kind.takes_tile:
        raise IllegalAction(
            Reason.CLAIM_PENDING if seat_no in window.pending() else Reason.NOT_YOUR_TURN,
            f"seat {window.from_seat}'s {what} {window.tile} awaits answers (win / kong / pong / pass) from "
            f"seat(s) {', '.join(map(str, window.pending()))}",
        )
    option = window.option(seat_no)
    if option is None:
        raise IllegalAction(Reason.NOTHING_TO_CLAIM, f"seat {seat_no} has no claim on {window.tile}")
    if window.answer(seat_no) is not None:
        raise IllegalAction(Reason.ALREADY_ANSWERED, f"seat {seat_no} has already answered")
    if seat_no not in window.pending():
        raise IllegalAction(
            Reason.NOTHING_TO_CLAIM, f"another seat claimed 胡 on {window.tile}; seat {seat_no}'s answer cannot matter"
        )
    ok = (
        kind is ActionKind.PASS
        or (kind is ActionKind.WIN and option.win > 0)
        or (kind is ActionKind.KONG and option.kong)
        or (kind is ActionKind.PONG and option.pong)
    )
    if not ok:
        raise _claim_failure(state, seat_no, kind)


def _apply(b: _Builder, action: Action) -> None:
    s = b.state
    kind = action.kind
    if s.phase is Phase.TURN:
        i = s.turn
        if kind is ActionKind.WIN:
            _finish_self_draw(b)
        elif kind is ActionKind.DISCARD or kind is ActionKind.LIANGDAO:
            assert action.tile is not None
            _discard(b, action.tile, kind is ActionKind.LIANGDAO, auto=False)
        elif kind is ActionKind.CONCEALED_KONG:
            assert action.tile is not None
            chain = _self_chain(s, action.tile)
            b.emit(
                Konged(
                    b.seq,
                    i,
                    MeldKind.CONCEALED_KONG,
                    action.tile,
                    None,
                    _kong_money(s.rules, MeldKind.CONCEALED_KONG, i, None, chain),
                    chain,
                )
            )
            _replacement(b)
        else:  # added kong
            assert action.tile is not None
            _declare_added_kong(b, action.tile)
        return
    b.emit(Answered(b.seq, action.seat, kind.value))


def _self_chain(state: State, tile: Tile) -> int:
    """Place in the 杠上杠 chain of a kong by the turn seat (A13.3, E#17)."""
    if state.chain == 0:
        return 1
    if state.rules.gang_chain_self is GangChainSelf.ANY_KONG_SAME_TURN:
        return state.chain + 1
    if state.replacement and state.drawn == tile:
        return state.chain + 1
    return 1


def _discard(b: _Builder, tile: Tile, liangdao: bool, auto: bool) -> None:
    s = b.state
    i = s.turn
    waits = _liangdao_waits(s.seats[i], tile) if liangdao else ()
    b.emit(Discarded(b.seq, i, tile, liangdao, waits, auto))
    s = b.state
    last = s.wall_remaining == 0
    gangpao = s.chain > 0
    options = _window_options(s, WindowKind.CLAIM, i, tile, gangpao, last)
    if not options:
        _next_draw(b, i)
        return
    b.emit(WindowOpened(b.seq, WindowKind.CLAIM, i, tile, options, gangpao, last))
    _auto_answers(b)


def _auto_answers(b: _Builder) -> None:
    """A 亮倒 seat that can win the tile on the table does so without being asked (A9.4, E#40)."""
    window = b.state.window
    assert window is not None
    if not _auto_win(b.state.rules):
        return
    for o in window.options:
        if o.win and b.state.seats[o.seat].liangdao:
            b.emit(Answered(b.seq, o.seat, "win", auto=True))


def _declare_added_kong(b: _Builder, tile: Tile) -> None:
    s = b.state
    i = s.turn
    options: tuple[ClaimOption, ...] = ()
    if s.rules.qianggang:
        options = _window_options(s, WindowKind.ROB, i, tile, False, False)
    if options:
        b.emit(WindowOpened(b.seq, WindowKind.ROB, i, tile, options, False, False))
        _auto_answers(b)
        return
    _complete_added_kong(b, tile)


def _complete_added_kong(b: _Builder, tile: Tile) -> None:
    s = b.state
    i = s.turn
    chain = _self_chain(s, tile)
    b.emit(
        Konged(
            b.seq, i, MeldKind.ADDED_KONG, tile, None, _kong_money(s.rules, MeldKind.ADDED_KONG, i, None, chain), chain
        )
    )
    _replacement(b)


def _replacement(b: _Builder) -> None:
    s = b.state
    b.emit(Drew(b.seq, s.turn, s.wall[s.back - 1], True))


def _next_draw(b: _Builder, after: int) -> None:
    s = b.state
    if s.wall_remaining == 0:
        _finish_draw(b)
        return
    b.emit(Drew(b.seq, (after + 1) % NUM_SEATS, s.wall[s.front], False))


def _resolve(b: _Builder) -> None:
    """Close a window whose pending answers are all in (E#40)."""
    s = b.state
    w = s.window
    assert w is not None
    winners = [seat for seat, a in w.answers if a == "win"]
    if winners:
        _finish_claim_win(b, winners)
        return
    if w.kind is WindowKind.ROB:
        _complete_added_kong(b, w.tile)
        return
    for seat, a in w.answers:
        if a == "kong":
            chain = s.chain + 1 if w.gangpao else 1
            b.emit(
                Konged(
                    b.seq,
                    seat,
                    MeldKind.KONG,
                    w.tile,
                    w.from_seat,
                    _kong_money(s.rules, MeldKind.KONG, seat, w.from_seat, chain),
                    chain,
                )
            )
            _replacement(b)
            return
    for seat, a in w.answers:
        if a == "pong":
            b.emit(Ponged(b.seq, seat, w.tile, w.from_seat))
            return
    _next_draw(b, w.from_seat)


def _liangdao_turn_has_choice(s: State) -> bool:
    """Whether a 亮倒 turn seat has anything but discarding its drawn tile (a permitted kong, or a win
    it may decline)."""
    if _can_self_win(s):
        return True
    return bool(_kong_actions(s))


def _advance(b: _Builder) -> None:
    """Run the automatic steps until a seat has a real choice or the hand is over."""
    while True:
        s = b.state
        if s.phase is Phase.TURN:
            seat = s.seats[s.turn]
            if not seat.liangdao:
                return
            if _auto_win(s.rules) and _can_self_win(s):
                _finish_self_draw(b)
                return
            if _liangdao_turn_has_choice(s):
                return
            assert s.drawn is not None
            _discard(b, s.drawn, False, auto=True)
        elif s.phase in (Phase.CLAIM, Phase.ROB):
            assert s.window is not None
            if s.window.pending():
                return
            _resolve(b)
        else:
            return


# ============================================================================ endings


def _win_view(
    state: State,
    seat_no: int,
    concealed: Sequence[Tile],
    win_tile: Tile,
    by: WinBy,
    from_seat: int | None,
    score: WinScore,
) -> WinView:
    seat = state.seats[seat_no]
    return WinView(
        seat=seat_no,
        concealed=tuple(sorted(concealed)),
        melds=tuple(MeldView(m.kind, m.tile, m.source) for m in seat.melds),
        win_tile=win_tile,
        by=by.value,
        from_seat=from_seat,
        fans=score.fans,
        multiplier=dict(score.multiplier),
        baohu=score.baohu,
        reading=score.reading,
    )


def _finish_self_draw(b: _Builder) -> None:
    s = b.state
    score = _self_win_score(s)
    assert score is not None and s.drawn is not None
    concealed = s.seats[s.turn].tiles()
    concealed.remove(s.drawn)
    view = _win_view(s, s.turn, concealed, s.drawn, WinBy.SELF_DRAW, None, score)
    _emit_result(b, "win", (view,), score.deltas, s.turn)


def _finish_claim_win(b: _Builder, winners: list[int]) -> None:
    s = b.state
    w = s.window
    assert w is not None
    by = WinBy.ROB_KONG if w.kind is WindowKind.ROB else WinBy.DISCARD
    order = sorted(winners, key=lambda seat: (seat - w.from_seat) % NUM_SEATS)
    views = []
    deltas = [0] * NUM_SEATS
    for seat_no in order:
        score = _claim_score(s, seat_no, w)
        assert score is not None and score.legal
        views.append(_win_view(s, seat_no, s.seats[seat_no].tiles(), w.tile, by, w.from_seat, score))
        for k, d in enumerate(score.deltas):
            deltas[k] += d
    next_dealer = order[0] if len(order) == 1 else w.from_seat
    _emit_result(b, "win", tuple(views), tuple(deltas), next_dealer)


def _emit_result(
    b: _Builder, outcome: str, winners: tuple[WinView, ...], hand: Sequence[int], next_dealer: int
) -> None:
    s = b.state
    kong = tuple(seat.kong_money for seat in s.seats)
    result = HandResultView(
        outcome=outcome,
        winners=winners,
        hand_deltas=tuple(hand),
        kong_deltas=kong,
        deltas=tuple(h + k for h, k in zip(hand, kong, strict=True)),
        next_dealer=next_dealer,
    )
    b.emit(HandEnded(b.seq, result))


def _chajiao_share(state: State, winner: int, payer: int) -> int:
    """查叫 (A14.2 option chajiao): ``payer``'s capped share of ``winner``'s best 自摸 over its waits."""
    seat = state.seats[winner]
    best = 0
    concealed = tuple(seat.tiles())
    for t in seat.waits if seat.liangdao else wait_tiles(seat.hand, seat.keys, seat.melds):
        ctx = WinContext(
            concealed=concealed,
            melds=seat.melds,
            win_tile=t,
            win_by=WinBy.SELF_DRAW,
            winner=winner,
            liangdao=_liangdao_flags(state),
        )
        score = score_win(ctx, state.rules)
        if score.complete:
            share = score.shares.get(payer, 0)
            best = max(best, share)
    return best


def _finish_draw(b: _Builder) -> None:
    """荒庄 (A14): the 亮倒 penalty of ``huangzhuang_liangdao`` and the next dealer (A15.3)."""
    s = b.state
    rules = s.rules
    mode = rules.huangzhuang_liangdao
    hand = [0] * NUM_SEATS
    paid: set[int] = set()

    def pay(p: int, q: int, amount: int) -> None:
        if amount:
            hand[p] -= amount
            hand[q] += amount
            paid.add(p)

    flags = _liangdao_flags(s)
    if mode is HuangzhuangLiangdao.S000:
        for p in range(NUM_SEATS):
            for q in range(NUM_SEATS):
                if flags[p] and not flags[q]:
                    pay(p, q, rules.base)
    elif mode is HuangzhuangLiangdao.S004_FIRST:
        if s.liangdao_order:
            first = s.liangdao_order[0]
            for q in range(NUM_SEATS):
                if q != first:
                    pay(first, q, rules.base)
    elif mode is HuangzhuangLiangdao.CHAJIAO:
        ready = [
            bool(seat.waits) if seat.liangdao else bool(wait_tiles(seat.hand, seat.keys, seat.melds))
            for seat in s.seats
        ]
        for w in range(NUM_SEATS):
            if not ready[w]:
                continue
            for p in range(NUM_SEATS):
                if p == w or (ready[p] and not (flags[p] and not flags[w])):
                    continue
                pay(p, w, _chajiao_share(s, w, p))
    dealer = s.dealer
    if rules.dealer_on_draw is DealerOnDraw.LAST_DRAWER and s.last_drawer is not None:
        dealer = s.last_drawer
    elif rules.dealer_on_draw is DealerOnDraw.CHAJIAO:
        if len(paid) == 1:
            dealer = next(iter(paid))
        elif len(paid) == 2:
            dealer = next(p for p in range(NUM_SEATS) if p not in paid)
    _emit_result(b, "draw", (), tuple(hand), dealer)


# ============================================================================ legal actions


def _kong_actions(state: State) -> list[Action]:
    """The turn seat's legal 暗杠 / 补杠."""
    i = state.turn
    seat = state.seats[i]
    if state.wall_remaining == 0 or (state.drawn is None and not state.rules.kong_after_peng):
        return []
    out = []
    for t, n in enumerate(seat.hand):
        if n == 4:
            tile = _TILES[t]
            if _kong_check(state, ActionKind.CONCEALED_KONG, tile) is None:
                out.append(action(i, ActionKind.CONCEALED_KONG, tile))
    for m in seat.melds:
        if m.kind is MeldKind.PONG and seat.hand[m.tile] and _kong_check(state, ActionKind.ADDED_KONG, m.tile) is None:
            out.append(action(i, ActionKind.ADDED_KONG, m.tile))
    return out


def legal_actions(state: State, seat: int) -> list[Action]:
    """Every action :func:`decide` accepts from ``seat`` now, in a stable order: own turn — win,
    暗杠, 补杠, discards (tile order), 亮倒 discards; claim window — win, kong, pong, pass.
    Empty when the seat has nothing to decide (or the hand is over)."""
    if state.phase is Phase.TURN:
        if seat != state.turn:
            return []
        return _turn_actions(state)
    if state.phase in (Phase.CLAIM, Phase.ROB):
        window = state.window
        assert window is not None
        if seat not in window.pending():
            return []
        option = window.option(seat)
        assert option is not None
        out = []
        if option.win:
            out.append(action(seat, ActionKind.WIN))
        if option.kong:
            out.append(action(seat, ActionKind.KONG))
        if option.pong:
            out.append(action(seat, ActionKind.PONG))
        out.append(action(seat, ActionKind.PASS))
        return out
    return []


def _turn_actions(state: State) -> list[Action]:
    i = state.turn
    seat = state.seats[i]
    out: list[Action] = []
    if _can_self_win(state):
        out.append(action(i, ActionKind.WIN))
    out.extend(_kong_actions(state))
    if seat.liangdao:
        assert state.drawn is not None
        out.append(action(i, ActionKind.DISCARD, state.drawn))
        return out
    protected = _protected_mask(state, i)
    tiles = [_TILES[t] for t, n in enumerate(seat.hand) if n and not protected >> t & 1]
    out.extend(action(i, ActionKind.DISCARD, t) for t in tiles)
    if state.wall_remaining >= state.rules.liangdao_min_wall and shanten_of(seat.keys, len(seat.melds)) <= 0:
        out.extend(action(i, ActionKind.LIANGDAO, t) for t in tiles if _liangdao_waits(seat, t))
    return out
