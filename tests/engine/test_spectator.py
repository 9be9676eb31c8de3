"""engine.game.spectator_view: the table as those outside a claim or rob window see it is the same
whether or not a window is open (docs/security.md §4)."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

from engine.game import (
    Action,
    ActionKind,
    IllegalAction,
    Phase,
    legal_actions,
    public_view,
    replay,
    spectator_view,
    start,
    step,
)
from engine.game.scenario import parse_scenario
from engine.rules import RuleSet
from engine.tiles import Tile, parse_tiles
from engine.views import PublicView

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
WINDOWS = (Phase.CLAIM, Phase.ROB)

# docs/rules.md §D G3's deal: the dealer's first discard, 8s, is claimable by nobody ...
HANDS = ["3344489p247779s8s", "2223p56679s5667z", "156667779p349s6z"]
WALL = "75z4s8p616s14p1s8p9s5p5z693p3s2p6z2s51p522s77z538s1p13s875p854s5z9p18s"


def _with_a_pair_of_8s() -> tuple[list[str], str]:
    """... and the same deal with two of seat 2's 6p swapped for two 8s deep in the wall, so that
    seat 2 may 碰 it.  The public tables of the two deals are the same (hidden tiles differ)."""
    hand = parse_tiles(HANDS[2])
    hand.remove(Tile.P6)
    hand.remove(Tile.P6)
    wall = parse_tiles(WALL)
    assert (wall[30], wall[37]) == (Tile.S8, Tile.S8)
    wall[30] = wall[37] = Tile.P6
    return [HANDS[0], HANDS[1], " ".join(map(str, [*hand, Tile.S8, Tile.S8]))], " ".join(map(str, wall))


def _dealt(hands: list[str], wall: str):
    events = start(RuleSet(), 0, hands=[parse_tiles(h) for h in hands], wall=parse_tiles(wall))
    return replay(events)


def _seqless(view: PublicView) -> PublicView:
    """The view without its event count (no picture or caption shows it; a window's answers and
    the event that opens it add events)."""
    return replace(view, seq=0)


def test_a_discard_someone_may_claim_looks_like_one_nobody_may():
    plain, _ = step(_dealt(HANDS, WALL), Action(0, ActionKind.DISCARD, Tile.S8))
    hands, wall = _with_a_pair_of_8s()
    window, _ = step(_dealt(hands, wall), Action(0, ActionKind.DISCARD, Tile.S8))
    assert plain.phase is Phase.TURN and plain.turn == 1  # no window: the next seat has drawn
    assert window.phase is Phase.CLAIM and window.to_act() == (2,)
    assert public_view(window) != public_view(plain)  # the view of the seats a window asks differs ...
    assert _seqless(spectator_view(window)) == _seqless(spectator_view(plain)) == _seqless(public_view(plain))
    # ... and when seat 2 passes, the table is the one shown all along
    passed, _ = step(window, Action(2, ActionKind.PASS))
    assert spectator_view(passed) == spectator_view(window)


def test_answers_given_in_a_window_stay_hidden_until_it_closes():
    """Seat 2 answers 碰 while seat 1 may still 胡: nobody outside learns of the 碰 before it happens."""
    hands, wall = _with_a_pair_of_8s()
    window, _ = step(_dealt(hands, wall), Action(0, ActionKind.DISCARD, Tile.S8))
    shown = spectator_view(window)
    answered = replace(window, window=replace(window.window, answers=((2, ActionKind.PONG),)))
    assert spectator_view(answered) == shown


def _scenario_states():
    """Every state of every scenario file, in play order."""
    for path in sorted(SCENARIOS.glob("*.json")):
        if path.name.endswith(".out.json"):
            continue
        try:
            events, actions = parse_scenario(json.loads(path.read_text()))
        except ValueError:  # files made to test the runner's refusals
            continue
        state = replay(events)
        states = [state]
        for action in actions:
            try:
                state, _ = step(state, action)
            except IllegalAction:  # scenarios of refused actions stop there
                break
            states.append(state)
        yield path.stem, states


@pytest.mark.parametrize(("name", "states"), list(_scenario_states()))
def test_no_window_shows_who_may_claim(name, states):
    """In every window of the scenarios: the spectator view shows no window at all (the table after
    every asked seat passes) or, where that table does not exist, the tile with nobody to act."""
    for state in states:
        if state.phase not in WINDOWS:
            assert spectator_view(state) == public_view(state)
            continue
        view = spectator_view(state)
        assert view.phase not in WINDOWS or (view.to_act == () and view.last_discard == public_view(state).last_discard)
        if view.phase in WINDOWS:
            continue
        assert view.result is None and view.to_act == (view.turn,)


def _face_up(view: PublicView) -> list[tuple[object, ...]]:
    """Every tile a view shows face up, per seat: ponds, a 亮倒 hand's shown tiles, meld tiles."""
    return [(s.discards, s.revealed, sorted({m.tile for m in s.melds if m.tile is not None})) for s in view.seats]


def test_random_hands_never_show_a_window_to_spectators():
    """Seeded random play (亮倒 included): every window shows as the table after it, or (the final
    discard, a seat that may not pass, a next seat that would discard its draw automatically) as
    the tile with nobody to act; never the seats a window asks, and never a tile face up that the
    table does not show yet (a 亮倒 seat's automatic discard of a tile still in the wall)."""
    rng = random.Random(5)
    windows = fallbacks = 0
    for seed in range(40):
        state = replay(start(RuleSet(), 0, seed=f"spectator-{seed}"))
        while state.result is None:
            if state.phase in WINDOWS:
                windows += 1
                view = spectator_view(state)
                assert _face_up(view) == _face_up(public_view(state))
                if view.phase in WINDOWS:
                    fallbacks += 1
                    assert view.to_act == () and view.result is None
                else:
                    assert view.to_act == (view.turn,) and view.result is None and not state.window.last
            seat = state.to_act()[0]
            state, _ = step(state, rng.choice(legal_actions(state, seat)))
    assert windows > 30 and fallbacks < windows


def test_the_last_discard_shows_the_tile_and_nobody_to_act():
    """A window on the final discard has no table after it (passing ends the hand): the spectators
    see the tile on the table and nobody marked to act."""
    states = dict(_scenario_states())["last_discard_win"]
    last = [s for s in states if s.phase is Phase.CLAIM and s.window.last]
    assert last
    view = spectator_view(last[0])
    assert view.phase is Phase.CLAIM and view.to_act == () and view.last_discard == public_view(last[0]).last_discard


def test_a_rob_window_looks_like_the_kong_standing():
    """D50: Y's 补杠 of 7s may be robbed: spectators see the kong standing (and its replacement drawn)."""
    events, actions = parse_scenario(json.loads((SCENARIOS / "d50_qianggang.json").read_text()))
    robbed = replay(events)
    for action in actions:
        if robbed.phase is Phase.ROB:
            break
        robbed, _ = step(robbed, action)
    assert robbed.phase is Phase.ROB
    shown = spectator_view(robbed)
    assert shown.phase is Phase.TURN and shown.turn == robbed.window.from_seat
    kongs = [m for m in shown.seats[robbed.window.from_seat].melds if m.kind.is_kong]
    assert kongs and kongs[-1].tile == robbed.window.tile
