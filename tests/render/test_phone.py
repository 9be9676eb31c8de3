"""Pictures made for a phone (render.phone, docs/architecture.md §3): every picture kind at 2, 3 and 4
seats, in both languages and both games, shown 330 px wide, keeps every text at least 11 px tall,
the player's own tiles at least 28 px wide, every other tile at least 18 px, and is at most 1.4
times as tall as wide -- measured from the placements the render records."""

from __future__ import annotations

import math

import pytest

from engine.game import public_view, view_for
from engine.game.state import Phase
from engine.rules import Ruleset
from render.canvas import OWN_ROLES
from render.demo import DEMO_NAMES, PICTURE_KINDS, picture_canvases, play_states, rules_for
from render.phone import (
    MAX_RATIO,
    MIN_OWN_TILE,
    MIN_TEXT,
    MIN_TILE,
    PHONE_WIDTH,
    PICTURE_WIDTH,
    PhoneSizes,
    cap_height,
    phone_sizes,
    text_size,
)
from render.pictures import hand_canvas, table_canvas

from .words import W

GAMES = (Ruleset.KAWUXING.value, Ruleset.KAXINWU.value)
SEATS = (2, 3, 4)
LANGS = ("zh_CN", "en")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("players", SEATS)
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("kind", PICTURE_KINDS)
def test_every_picture_is_readable_on_a_phone(kind: str, game: str, players: int, lang: str) -> None:
    for c in picture_canvases(kind, game, players, W(lang)):
        sizes = phone_sizes(c)
        assert c.width == PICTURE_WIDTH
        assert sizes.failures() == [], (kind, game, players, lang, sizes)
        assert sizes.text >= MIN_TEXT and sizes.ratio <= MAX_RATIO
        assert sizes.tile is None or sizes.tile >= MIN_TILE  # a 荒庄 without a 亮倒 seat draws no tile
        if kind == "hand":
            assert sizes.own_tile is not None and sizes.own_tile >= MIN_OWN_TILE
            # the player's own tiles are the biggest in the picture
            own = [p for p in c.placed if p.seat == c.own_seat and p.role in OWN_ROLES]
            others = [p for p in c.placed if p.state is not None and p not in own]
            assert min(p.box[2] - p.box[0] for p in own) > max(min(p.box[2] - p.box[0], p.box[3] - p.box[1])
                                                               for p in others)  # fmt: skip
        else:
            assert sizes.own_tile is None


@pytest.mark.parametrize("players", SEATS)
def test_late_hands_of_every_seat_stay_within_the_bars(players: int) -> None:
    """The busiest moments -- the last turns of hands played to the end, with 亮倒 seats -- at
    every seat, in English (the longest labels)."""
    rules = rules_for(Ruleset.KAWUXING.value, players)
    names = (*DEMO_NAMES, "Anna")[:players]
    for attempt in range(3):
        states = [st for st, _ in play_states(f"phone-late-{attempt}", rules, declare={attempt % players})]
        turns = [st for st in states if st.phase is not Phase.OVER][-3:]
        for st in turns:
            for seat in range(players):
                c = hand_canvas(view_for(st, seat), W("en"), names=names)
                assert phone_sizes(c).failures() == [], (attempt, seat)
            assert phone_sizes(table_canvas(public_view(st), names, W("en"), [0] * players)).failures() == []


def test_phone_sizes_measures_the_placements() -> None:
    """Text by the cap height of its font size, tiles by their short side, own tiles apart, all
    scaled to the phone's width."""
    (c,) = picture_canvases("hand", Ruleset.KAWUXING.value, 3, W("zh_CN"))
    sizes = phone_sizes(c)
    scale = PHONE_WIDTH / c.width
    texts = [p.size for p in c.placed if p.text and p.size is not None]
    assert sizes.text == min(cap_height(s) for s in texts) * scale
    own = [p.box[2] - p.box[0] for p in c.placed if p.role in OWN_ROLES and p.seat == c.own_seat]
    assert sizes.own_tile == min(own) * scale
    assert sizes.ratio == c.height / c.width
    assert math.isclose(cap_height(100) / 100, 0.75, abs_tol=0.03)  # Noto Sans CJK's cap height
    assert cap_height(text_size()) * PHONE_WIDTH / PICTURE_WIDTH >= MIN_TEXT
    assert cap_height(text_size() - 1) * PHONE_WIDTH / PICTURE_WIDTH < MIN_TEXT
    bad = PhoneSizes(660, 1000, 10.0, 27.0, 17.0)
    assert len(bad.failures()) == 4
    assert PhoneSizes(660, 600, 11.0, None, None).failures() == []
