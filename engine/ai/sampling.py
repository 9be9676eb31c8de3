"""Determinization for the ``strong`` AI: whole game states drawn at random among those consistent
with one seat's view (docs/architecture.md §2 "AI").

:func:`sample_world` ``(view, rules, rng) -> State`` deals the tiles the seat cannot see — the wall
and the other seats' hidden tiles — uniformly at random from the unseen tiles
(:func:`engine.ai.hand.unseen_counts`), respecting everything the view shows:

* each other seat's number of concealed tiles, its melds and pond, its kong money;
* another seat's face-down 暗杠: a tile kind of which four copies are unseen (drawn at random);
* a 亮倒 / 廊起 seat's shown tiles and published waits; the tiles a partial reveal keeps face down
  (docs/rules.md §A9.2, §E#48) are drawn as sets (and a pair) that keep exactly the published
  waits when such a draw is found in a few tries (else any unseen tiles);
* a 补杠 being robbed (phase ROB): the declarer holds the kong's tile;
* the wall: the remaining unseen tiles in a random order, ``wall_remaining`` of them.

Uniformly dealt hands are much farther from ready than the hands of seats that have played a few
turns (measured in normal self-play at 3 seats: after 3–5 discards a real hand is 0.96 shanten on
average, a uniform one 2.24), so by default (``played_in``) each other hidden hand is then *played
in*: one draw-and-keep pass per discard the seat has made (:func:`_played_in`), which brings it to
the real figures (1.01 after 3–5 discards, 0.61 vs 0.52 after 6–8, 0.39 vs 0.32 after 9–11).

What the view does not tell is set to the plain default: no passed wins (漏胡) or declined 碰 for
the other seats, no 杠上杠 chain, no replacement draw, a claim window's options recomputed in the
sampled world (seats that already answered are taken to have passed).  The function reads nothing
but its arguments, so a decision built on it is a function of the seat's view.
"""

from __future__ import annotations

import random

from ..analysis import keys_of, shanten_keys
from ..game import ActionKind, State
from ..game.basics import kinds_for
from ..game.claims import window_options
from ..game.reveal import reveal_waits
from ..game.state import SeatState, Window, WindowKind, updated
from ..rules import RuleSet
from ..tiles import NUM_KINDS, Meld, Tile
from ..views import Phase, SeatView
from .hand import minus, plus, unseen_counts

__all__ = ["WorldError", "sample_world"]

_TILES = tuple(Tile)
_HIDDEN_TRIES = 40


class WorldError(ValueError):
    """No world was drawn: the view is not consistent with the rules' tile set (more tiles to place
    than are unseen), or no face-down tiles of a partial 亮倒 were found in a few tries."""


def _take(pool: list[int], rng: random.Random, n: int) -> list[int]:
    """``n`` tiles drawn without replacement from the flat list ``pool`` (removed from it)."""
    if n > len(pool):
        raise WorldError(f"{n} hidden tiles to place but only {len(pool)} unseen")
    out = []
    for _ in range(n):
        k = rng.randrange(len(pool))
        pool[k], pool[-1] = pool[-1], pool[k]
        out.append(pool.pop())
    return out


def _remove(pool: list[int], tile: int, n: int = 1) -> None:
    for _ in range(n):
        pool.remove(tile)


def _draw_sets(counts: list[int], rng: random.Random, sets: int, pairs: int) -> list[int] | None:
    """``sets`` random pungs / runs and then ``pairs`` random pairs drawn from ``counts`` (changed),
    or None when the counts run out."""
    picked: list[int] = []
    for _ in range(sets):
        options = [t for t in range(NUM_KINDS) if counts[t] >= 3]
        options += [-t - 1 for t in range(27) if t % 9 <= 6 and counts[t] and counts[t + 1] and counts[t + 2]]
        if not options:
            return None
        o = rng.choice(options)
        tiles = [o] * 3 if o >= 0 else [-o - 1, -o, -o + 1]
        for t in tiles:
            counts[t] -= 1
        picked += tiles
    for _ in range(pairs):
        options = [t for t in range(NUM_KINDS) if counts[t] >= 2]
        if not options:
            return None
        p = rng.choice(options)
        counts[p] -= 2
        picked += [p, p]
    return picked


def _hidden_sets(
    pool: list[int], rng: random.Random, n: int, shown: list[int], waits: tuple[Tile, ...], melds: tuple[Meld, ...]
) -> list[int]:
    """``n`` tiles for a 亮倒 seat's face-down part, drawn from the pool so that the shown tiles with
    them publish exactly ``waits`` (docs/rules.md §E#48): sets, sets and a pair, or (no melds) pairs
    — whichever shapes ``n`` allows, a few random tries.  Raises :class:`WorldError` when none is
    found (the caller draws another world)."""
    shapes = []
    if n % 3 == 0:
        shapes.append((n // 3, 0))
    if n % 3 == 2:
        shapes.append((n // 3, 1))
    if not melds and n % 2 == 0:
        shapes.append((0, n // 2))
    base = [0] * NUM_KINDS
    for t in pool:
        base[t] += 1
    for _ in range(_HIDDEN_TRIES):
        if not shapes:
            break
        sets, pairs = rng.choice(shapes)
        picked = _draw_sets(list(base), rng, sets, pairs)
        if picked is None:
            continue
        hidden = [0] * NUM_KINDS
        for t in picked:
            hidden[t] += 1
        if reveal_waits(shown, hidden, melds) == waits:
            for t in picked:
                pool.remove(t)
            return picked
    raise WorldError("no face-down tiles found that keep the published waits")


def _seat_melds(view: SeatView, seat: int, pool: list[int], rng: random.Random) -> tuple[Meld, ...]:
    """Another seat's melds, a face-down 暗杠 given a kind with four unseen copies."""
    out = []
    for m in view.public.seats[seat].melds:
        tile = m.tile
        if tile is None:
            counts = [0] * NUM_KINDS
            for t in pool:
                counts[t] += 1
            waits = view.public.seats[seat].waits  # a 亮倒 seat never waits on a tile it holds four of
            quads = [t for t in range(NUM_KINDS) if counts[t] >= 4 and _TILES[t] not in waits]
            if not quads:
                raise WorldError("a face-down 暗杠 with no kind of four unseen copies")
            t = rng.choice(quads)
            _remove(pool, t, 4)
            tile = _TILES[t]
        out.append(Meld(m.kind, tile, m.source))
    return tuple(out)


def _counts(tiles: list[int]) -> tuple[int, ...]:
    c = [0] * NUM_KINDS
    for t in tiles:
        c[t] += 1
    return tuple(c)


def _own_hidden(view: SeatView) -> tuple[Tile, ...]:
    """The seat's own face-down tiles after a partial 亮倒 reveal: its hand minus the drawn tile and
    the shown tiles."""
    ps = view.public.seats[view.seat]
    if not (ps.liangdao and ps.hidden_count):
        return ()
    rest = [int(t) for t in view.concealed]
    for t in ps.revealed:
        rest.remove(int(t))
    return tuple(sorted(_TILES[t] for t in rest))


def _rob_tile(view: SeatView) -> tuple[int, int] | None:
    """(declarer, tile) of a 补杠 being robbed by another seat's view (phase ROB), else None."""
    pub = view.public
    if pub.phase is Phase.ROB and pub.last_discard is not None and pub.last_discard[0] != view.seat:
        return pub.last_discard[0], int(pub.last_discard[1])
    return None


def _deal_hidden(
    view: SeatView, pool: list[int], rng: random.Random, melds: list[tuple[Meld, ...]], improve: bool
) -> tuple[list[list[int]], list[tuple[Tile, ...]]]:
    """Every seat's concealed tiles and face-down 亮倒 tiles: the seat's own from the view, the
    others' shown tiles plus tiles drawn from ``pool`` (a partial reveal's face-down part first)."""
    pub = view.public
    me = view.seat
    n = len(pub.seats)
    rob = _rob_tile(view)
    hands: list[list[int]] = [[] for _ in range(n)]
    hiddens: list[tuple[Tile, ...]] = [() for _ in range(n)]
    hands[me] = [int(t) for t in view.concealed] + ([int(view.drawn)] if view.drawn is not None else [])
    hiddens[me] = _own_hidden(view)
    for s in range(n):
        ps = pub.seats[s]
        if s == me:
            continue
        tiles = [int(t) for t in ps.revealed]
        if ps.liangdao and ps.hidden_count:
            hidden = _hidden_sets(pool, rng, ps.hidden_count, list(_counts(tiles)), ps.waits, melds[s])
            hiddens[s] = tuple(sorted(_TILES[t] for t in hidden))
            tiles += hidden
        if rob is not None and rob[0] == s:
            tiles.append(rob[1])
        hands[s] = tiles
    for s in range(n):
        if s != me:
            hands[s] += _take(pool, rng, pub.seats[s].concealed_count - len(hands[s]))
            ps = pub.seats[s]
            if improve and not ps.liangdao and (rob is None or rob[0] != s):
                hands[s] = _played_in(hands[s], len(ps.melds), len(ps.discards), pool, rng)
    return hands, hiddens


def _played_in(hand: list[int], melds: int, turns: int, pool: list[int], rng: random.Random) -> list[int]:
    """A hidden hand as it would be after ``turns`` turns of sensible play: each turn a random
    unseen tile is drawn from ``pool`` and the hand keeps it in place of the tile whose loss leaves
    the lowest shanten, if that is lower than now (the tile let go returns to the pool, so the
    unseen tiles stay the same).  Uniform hands are far from ready; real hands after a few discards
    are close (docs/architecture.md §2 "AI")."""
    if not pool or turns <= 0:
        return hand
    counts = list(_counts(hand))
    keys = keys_of(counts)
    sh = shanten_keys(keys, melds)
    for _ in range(turns):
        if sh <= 0:
            break
        k = rng.randrange(len(pool))
        x = pool[k]
        with_x = plus(keys, x)
        best_sh, best_y = sh, -1
        for y in range(NUM_KINDS):
            if counts[y] and y != x:
                v = shanten_keys(minus(with_x, y), melds)
                if v < best_sh:
                    best_sh, best_y = v, y
        if best_y >= 0:
            pool[k] = best_y
            counts[x] += 1
            counts[best_y] -= 1
            keys = minus(with_x, best_y)
            sh = best_sh
    return [t for t in range(NUM_KINDS) for _ in range(counts[t])]


def sample_world(view: SeatView, rules: RuleSet, rng: random.Random, *, played_in: bool = True) -> State:
    """A full :class:`~engine.game.State` consistent with ``view`` (module docstring).

    ``view``: the seat's view in phase TURN, CLAIM or ROB; ``rules``: the table's rules (public);
    ``rng``: the only source of chance; ``played_in``: play the other hidden hands in (module
    docstring) rather than leave them uniform.  Raises :class:`WorldError` when the view holds more hidden
    tiles than the rules' tile set leaves unseen (a view of other rules).
    """
    pub = view.public
    me = view.seat
    n = len(pub.seats)
    kinds = kinds_for(rules)
    unseen = unseen_counts(view, [int(k) for k in kinds])
    pool = [t for t in range(NUM_KINDS) for _ in range(unseen[t])]
    rob = _rob_tile(view)
    if rob is not None:
        _remove(pool, rob[1])
    # melds first (a face-down 暗杠 needs a kind with four copies still unseen)
    melds = [
        tuple(Meld(m.kind, m.tile, m.source) for m in view.melds if m.tile is not None)
        if s == me
        else _seat_melds(view, s, pool, rng)
        for s in range(n)
    ]
    hands, hiddens = _deal_hidden(view, pool, rng, melds, played_in)
    if len(pool) != pub.wall_remaining:
        raise WorldError(f"{len(pool)} unseen tiles left for a wall of {pub.wall_remaining}")
    rng.shuffle(pool)
    seats = []
    for s in range(n):
        ps = pub.seats[s]
        counts = _counts(hands[s])
        seats.append(
            SeatState(
                hand=counts,
                keys=keys_of(counts),
                melds=melds[s],
                discards=ps.discards,
                liangdao=ps.liangdao,
                waits=ps.waits if ps.liangdao else (),
                kong_money=ps.kong_money,
                hidden=hiddens[s],
            )
        )
    drawn = view.drawn if pub.phase is Phase.TURN and pub.turn == me else None
    state = State(
        rules=rules,
        seq=pub.seq,
        phase=pub.phase,
        dealer=pub.dealer,
        seed=None,
        kinds=kinds,
        seats=tuple(seats),
        wall=tuple(_TILES[t] for t in pool),
        front=0,
        back=len(pool),
        turn=pub.turn,
        drawn=drawn,
        turn_draws=(drawn,) if drawn is not None else (),
        last_drawer=pub.turn,
        liangdao_order=tuple(s for s in range(n) if pub.seats[s].liangdao),
    )
    if pub.phase in (Phase.CLAIM, Phase.ROB) and pub.last_discard is not None:
        state = _with_window(state, view)
    return state


def _with_window(state: State, view: SeatView) -> State:
    """The sampled state with its claim window: options recomputed in the sampled world; seats with
    an option that the view no longer waits for are taken to have passed."""
    pub = view.public
    assert pub.last_discard is not None
    from_seat, tile = pub.last_discard
    kind = WindowKind.ROB if pub.phase is Phase.ROB else WindowKind.CLAIM
    last = kind is WindowKind.CLAIM and pub.wall_remaining == 0
    options = window_options(state, kind, from_seat, tile, False, last)
    waiting = set(pub.to_act)
    answers = tuple((o.seat, ActionKind.PASS) for o in options if o.seat not in waiting)
    window = Window(kind, from_seat, tile, options, answers, False, last)
    return updated(state, window=window)
