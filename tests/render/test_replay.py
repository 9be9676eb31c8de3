"""The replay animation (render.replay): one table picture per public moment, no hidden tile before
the end, one palette, bounded frames and bytes."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageChops

from engine.ai.players import choose_action
from engine.game import legal_actions, replay, start, step, view_for
from engine.game.events import Event
from engine.game.record import public_moments
from engine.rules import RuleSet
from render.pictures import FELT, result_canvas, table_canvas
from render.replay import BADGE_ROOM, MAX_FRAMES, pick_frames, render_replay, replay_canvases

from .words import ZH_WORDS, W

NAMES = ["Ann", "Ben", "张三", "Dee"]


def _ai_hand(seed: int, rules: RuleSet | None = None) -> list[Event]:
    rules = rules or RuleSet()
    rng = random.Random(seed)
    events = start(rules, 0, seed=f"replay {seed}")
    state = replay(events)
    while not state.over:
        seat = state.to_act()[0]
        act = choose_action(view_for(state, seat), legal_actions(state, seat), rng=rng, rules=rules)
        state, new = step(state, act)
        events.extend(new)
    return events


def _hidden_tiles_shown(canvas, view) -> list[str]:
    """Face-up tiles the frame draws in a seat's hand row that its public view does not show."""
    leaks = []
    for p in canvas.placed:
        if p.role in ("revealed", "win_tile") and p.seat is not None:
            seat = view.seats[p.seat]
            if not seat.liangdao or p.tile not in seat.revealed:
                leaks.append(f"seat {p.seat} {p.role} {p.tile}")
    return leaks


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_no_frame_before_the_end_shows_a_hidden_tile(seed: int) -> None:
    events = _ai_hand(seed, RuleSet.preset("kaxinwu") if seed == 4 else None)
    views = public_moments(events)
    canvases = replay_canvases(views, NAMES[:3], W("en"))
    assert len(canvases) == len(views) + 1 <= MAX_FRAMES  # then the result picture
    for canvas, view in zip(canvases[:-2], views[:-1], strict=True):
        assert view.result is None
        assert _hidden_tiles_shown(canvas, view) == []
        # a seat that has not declared 亮倒 shows only a back and its public count
        for seat in view.seats:
            backs = [p for p in canvas.placed if p.role == "hidden" and p.seat == seat.seat]
            if not seat.revealed:
                assert len(backs) == 1 and all(p.tile is None for p in backs)
                assert [p.text for p in canvas.find("hidden_count", seat=seat.seat)] == [str(seat.concealed_count)]
    assert views[-1].result is not None  # the last frame is the end, as the live table showed it


def test_frames_are_the_table_pictures_of_the_public_views() -> None:
    events = _ai_hand(5)
    views = public_moments(events)
    data = render_replay(views, NAMES[:3], W("zh_CN"))
    gif = Image.open(io.BytesIO(data))
    assert gif.format == "GIF" and gif.n_frames == len(views) + 1
    assert len(data) < 1_500_000, len(data)
    worst = 0
    for i in (0, len(views) // 2, len(views) - 1):
        gif.seek(i)
        frame = gif.convert("RGB")
        expected = table_canvas(views[i], NAMES[:3], W("zh_CN")).image
        assert frame.width == expected.width and frame.height >= expected.height + BADGE_ROOM
        # above the table, bare felt: the room of the client's "GIF" badge, which covered the wall count
        assert frame.crop((0, 0, frame.width, BADGE_ROOM)).getcolors() == [(frame.width * BADGE_ROOM, FELT)]
        diff = ImageChops.difference(
            frame.crop((0, BADGE_ROOM, expected.width, BADGE_ROOM + expected.height)), expected
        )
        worst = max(worst, max(high for _low, high in diff.getextrema()))
    assert worst < 80  # only the shared palette's rounding


def test_pick_frames_keeps_the_first_and_the_last() -> None:
    assert pick_frames(5) == [0, 1, 2, 3, 4]
    picked = pick_frames(500, 100)
    assert len(picked) == 100 and picked[0] == 0 and picked[-1] == 499
    with pytest.raises(ValueError):
        pick_frames(3, 1)
    with pytest.raises(ValueError):
        replay_canvases([], NAMES[:3], words=ZH_WORDS)


def _hands(events: list[Event]) -> tuple:
    """Every seat's whole hand at the end (as the bot passes them: concealed tiles and melds)."""
    state = replay(events)
    out = []
    for seat in range(len(state.seats)):
        v = view_for(state, seat)
        out.append((v.concealed + ((v.drawn,) if v.drawn is not None else ()), v.melds))
    return tuple(out)


@pytest.mark.parametrize(
    ("seed", "rules", "title"),
    [(36, RuleSet(), "Draw"), (1, RuleSet.preset("kaxinwu"), "Ready check"), (5, RuleSet(), "Win")],
    ids=["draw", "chajiao", "win"],
)
def test_the_last_frame_is_the_result_picture(seed: int, rules: RuleSet, title: str) -> None:
    # a replay that ended in a draw stopped on the table at "Wall: 0" without saying how it ended
    events = _ai_hand(seed, rules)
    views = public_moments(events)
    names, game, hands = NAMES[: len(views[0].seats)], rules.ruleset.value, _hands(events)
    expected = result_canvas(views[-1], names, W("en"), hands, game)
    assert [p.text for p in expected.find("title")] == [title]
    data = render_replay(views, names, W("en"), game=game, hands=hands)
    gif = Image.open(io.BytesIO(data))
    gif.seek(gif.n_frames - 1)
    assert gif.info["duration"] == 5000  # shown longest, before the loop
    frame = gif.convert("RGB")
    w, h = expected.image.size
    diff = ImageChops.difference(frame.crop((0, BADGE_ROOM, w, BADGE_ROOM + h)), expected.image)
    assert max(high for _low, high in diff.getextrema()) < 80  # only the shared palette's rounding
    gif.seek(gif.n_frames - 2)
    end = table_canvas(views[-1], names, W("en"), game=game).image
    diff = ImageChops.difference(gif.convert("RGB").crop((0, BADGE_ROOM, end.width, BADGE_ROOM + end.height)), end)
    assert max(high for _low, high in diff.getextrema()) < 80
