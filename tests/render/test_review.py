"""The /review picture (render.review): each decision's hand as the seat saw it, the tile played
red-rimmed and the tile suggested gold-rimmed, the estimated loss, at most three panels; readable on
a phone (the phone bars themselves: tests/render/test_phone.py, kind "review")."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.game import ActionKind
from engine.rules import Ruleset
from render import render_review
from render.art import TileState
from render.demo import review_items
from render.labels import ENGLISH
from render.phone import MAX_RATIO, phone_sizes
from render.review import MAX_ITEMS, ReviewItem, review_canvas

from .words import ZH_WORDS


def _items() -> tuple[ReviewItem, ...]:
    return review_items(Ruleset.KAWUXING.value, 3)


def test_each_panel_shows_the_seats_hand_and_marks_the_two_tiles() -> None:
    items = _items()
    c = review_canvas(items, ENGLISH)
    hands = c.find("review_hand")
    drawn = c.find("review_drawn")
    melds = c.find("review_meld")
    assert len(hands) == sum(len(i.view.concealed) for i in items)
    assert len(drawn) == sum(i.view.drawn is not None for i in items)
    assert len(melds) == sum(m.kind.size for i in items for m in i.view.melds)
    first = items[0]
    assert first.played.kind is ActionKind.DISCARD and first.played.tile != first.suggested.tile
    marked = [p for p in (*hands, *drawn) if p.state is not TileState.NORMAL]
    red = [p.tile for p in marked if p.state is TileState.DANGER]
    gold = [p.tile for p in marked if p.state is TileState.HIGHLIGHT]
    assert first.played.tile in red and first.suggested.tile in gold
    choices = c.find("review_choice")
    assert [p.tile for p in choices][:2] == [first.played.tile, first.suggested.tile]


def test_the_loss_is_written_only_when_estimated() -> None:
    items = _items()
    c = review_canvas(items, ENGLISH)
    losses = [p.text for p in c.find("review_loss")]
    assert losses == ["About 2.4 points lost", "About 0.8 points lost"]  # the third has no estimate
    zh = review_canvas(items, ZH_WORDS)
    assert next(p.text for p in zh.find("review_loss")) == "约损失 2.4 分"
    labels = {p.text for p in zh.find("review_label")}
    assert labels == {ZH_WORDS.review.played, ZH_WORDS.review.suggested}
    assert {p.text for p in c.find("review_label")} == {ENGLISH.review.played, ENGLISH.review.suggested}


def test_a_claim_shows_the_discard_on_the_table() -> None:
    items = _items()
    claim = next(i for i in items if i.played.tile is None)
    assert claim.view.public.last_discard is not None
    c = review_canvas([claim], ZH_WORDS)
    assert [p.tile for p in c.find("review_choice")] == [claim.view.public.last_discard[1]] * 2


def test_at_most_three_panels_and_none_is_refused() -> None:
    items = _items()
    four = (*items, replace(items[0], loss=9.0))
    assert len(review_canvas(four, ENGLISH).find("review_panel")) == MAX_ITEMS
    assert phone_sizes(review_canvas(four, ENGLISH)).ratio <= MAX_RATIO
    with pytest.raises(ValueError):
        review_canvas([], ENGLISH)
    image = render_review(items[:1], ENGLISH)
    assert image.width == 600 and image.height < 300
