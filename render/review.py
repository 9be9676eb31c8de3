"""The ``/review`` picture: a player's costliest decisions of one hand (docs/architecture.md §3).

Values in, image out: :func:`render_review` draws up to three :class:`ReviewItem` — each the seat's
view at the moment of a decision (:func:`engine.review.decision_view`), the action played, the
action an AI suggests and its estimated loss — one panel per decision, in hand order:

- a heading: the decision's number and the tiles left in the wall; on the right the estimated loss
  (``About 1.3 points lost``; none when the evaluator gave no estimate);
- the hand at that moment: the concealed tiles, the drawn tile apart, the melds; the tile played
  has a red rim (:attr:`TileState.DANGER`), the tile suggested a gold one (:attr:`TileState.HIGHLIGHT`);
- two columns, "You played" (red) and "AI suggests" (gold): each the act's word (打出, 碰, 过 …,
  :class:`render.labels.ReviewLabels`) and its tile — for a claim, the discard on the table.

Laid out for a phone (:mod:`render.phone`): :data:`render.phone.PICTURE_WIDTH` wide; shown 330 px
wide every text is at least 11 px tall, every tile at least 18 px wide (the hand's tiles 20 px, the
choices' 22 px), and three panels stay within 1.4 times the width (a hand too wide for one line of
tiles flows onto a second).  The view shows only what the seat could see then; the picture draws
nothing else.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from engine.game import Action, ActionKind
from engine.rules import Ruleset
from engine.tiles import Tile
from engine.views import SeatView

from .art import TileSize, TileState
from .blocks import DANGER_LABEL, FELT, GOLD, GROUP_GAP, MARGIN, MUTED, NAME_SIZE, PANEL, TEXT, TEXT_SIZE, TILE_GAP
from .canvas import Canvas
from .labels import ENGLISH, PictureWords, ReviewLabels
from .phone import PICTURE_WIDTH
from .text import fit

__all__ = ["MAX_ITEMS", "ReviewItem", "render_review", "review_canvas"]

MAX_ITEMS = 3
"""Decisions one picture shows at most (the costliest; more would not fit a phone's screen)."""

HAND_TILE = TileSize.POND
"""The hand's tiles (20 px on a phone)."""
CHOICE_TILE = TileSize.TABLE
"""The played and suggested tiles (22 px on a phone)."""
PAD = 10
GAP = 8
_TILE_ACTS = frozenset({ActionKind.DISCARD, ActionKind.LIANGDAO, ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG})


@dataclass(frozen=True, slots=True)
class ReviewItem:
    """One decision to draw: ``view`` (what the seat saw), the action ``played``, the action
    ``suggested`` and the estimated ``loss`` in points of 底金 (None: no estimate)."""

    view: SeatView
    played: Action
    suggested: Action
    loss: float | None


def _points(loss: float) -> str:
    """A loss with one decimal (``0.0`` shown as ``<0.1``)."""
    return f"{loss:.1f}" if loss >= 0.05 else "<0.1"


def _act_word(action: Action, rl: ReviewLabels, decl: str) -> str:
    return rl.acts[action.kind.value].replace("{decl}", decl)


def _act_tile(action: Action, view: SeatView) -> Tile | None:
    """The tile an act is about: its own tile, or for a claim the discard on the table."""
    if action.tile is not None:
        return action.tile
    last = view.public.last_discard
    return last[1] if last is not None else None


def _hand_states(item: ReviewItem) -> tuple[list[TileState], TileState]:
    """The states of the concealed tiles and of the drawn tile: the played tile red-rimmed, the
    suggested gold-rimmed (the drawn copy first when it is that tile, else the last copy)."""
    view = item.view
    states = [TileState.NORMAL] * len(view.concealed)
    drawn = TileState.NORMAL
    for action, state in ((item.played, TileState.DANGER), (item.suggested, TileState.HIGHLIGHT)):
        if action.kind not in _TILE_ACTS or action.tile is None:
            continue
        if view.drawn == action.tile and drawn is TileState.NORMAL:
            drawn = state
            continue
        for i in range(len(view.concealed) - 1, -1, -1):
            if view.concealed[i] == action.tile and states[i] is TileState.NORMAL:
                states[i] = state
                break
    return states, drawn


def _hand(c: Canvas, item: ReviewItem, left: int, right: int, top: int) -> int:
    """The hand at the decision, flowing onto a second line when needed; returns the bottom."""
    view = item.view
    step = HAND_TILE.width + TILE_GAP
    states, drawn_state = _hand_states(item)
    groups: list[list[tuple[Tile | None, TileState]]] = [list(zip(view.concealed, states, strict=True))]
    if view.drawn is not None:
        groups.append([(view.drawn, drawn_state)])
    for meld in view.melds:
        groups.append([(meld.tile, TileState.NORMAL)] * meld.kind.size)
    roles = ["review_hand"] + (["review_drawn"] if view.drawn is not None else [])
    roles += ["review_meld"] * len(view.melds)
    x, y = left, top
    for n, group in enumerate(groups):
        width = len(group) * step - TILE_GAP
        if n and x + GROUP_GAP + width > right:
            x, y = left, y + HAND_TILE.height + TILE_GAP
        elif n:
            x += GROUP_GAP
        for tile, state in group:
            if x + step - TILE_GAP > right:  # a concealed hand wider than the panel
                x, y = left, y + HAND_TILE.height + TILE_GAP
            c.tile(x, y, tile, HAND_TILE, state, role=roles[n])
            x += step
        x -= TILE_GAP
    return y + HAND_TILE.height


def _choice(
    c: Canvas, x: int, top: int, width: int, label: str, colour: tuple[int, int, int], action: Action,
    item: ReviewItem, rl: ReviewLabels, decl: str, state: TileState,
) -> int:  # fmt: skip
    """One column: its label, then the act's word and tile; returns the bottom."""
    c.text(x, top + TEXT_SIZE // 2 + 2, fit(label, TEXT_SIZE, width), TEXT_SIZE, colour, role="review_label")
    y = top + TEXT_SIZE + 10
    tile = _act_tile(action, item.view)
    word = _act_word(action, rl, decl)
    room = width - (CHOICE_TILE.width + GAP if tile is not None else 0)
    box = c.text(x, y + CHOICE_TILE.height // 2, fit(word, NAME_SIZE, room), NAME_SIZE, TEXT, role="review_act")
    if tile is not None:
        tile_state = state if action.kind in _TILE_ACTS else TileState.NORMAL
        c.tile(box[2] + GAP, y, tile, CHOICE_TILE, tile_state, role="review_choice")
    return y + CHOICE_TILE.height


def draw_panel(c: Canvas, n: int, item: ReviewItem, rl: ReviewLabels, decl: str, top: int) -> int:
    """One decision's panel from ``top``; returns its bottom."""
    left, right = MARGIN, PICTURE_WIDTH - MARGIN
    inner_l, inner_r = left + PAD, right - PAD
    y = top + PAD
    mid = y + TEXT_SIZE // 2 + 2
    heading = rl.moment.replace("{n}", str(n)).replace("{wall}", str(item.view.public.wall_remaining))
    head = c.text(inner_l, mid, heading, TEXT_SIZE, MUTED, role="review_heading")
    if item.loss is not None:
        loss = rl.loss.replace("{v}", _points(item.loss))
        room = inner_r - head[2] - GAP
        c.text(inner_r, mid, fit(loss, TEXT_SIZE, room), TEXT_SIZE, DANGER_LABEL, anchor="rm", role="review_loss")
    y += TEXT_SIZE + 12
    y = _hand(c, item, inner_l, inner_r, y) + 12
    half = (inner_r - inner_l - GAP) // 2
    a = _choice(c, inner_l, y, half, rl.played, DANGER_LABEL, item.played, item, rl, decl, TileState.DANGER)
    b = _choice(
        c, inner_l + half + GAP, y, half, rl.suggested, GOLD, item.suggested, item, rl, decl, TileState.HIGHLIGHT
    )
    return max(a, b) + PAD


def review_canvas(items: Sequence[ReviewItem], words: PictureWords = ENGLISH, game: str = Ruleset.KAWUXING) -> Canvas:
    """The drawn ``/review`` picture of ``items`` (the first :data:`MAX_ITEMS`, one panel each) with
    its placements; labels from ``words`` for ``game`` (the declaration's name: 廊起 under 卡心五).
    Raises ValueError for no items."""
    if not items:
        raise ValueError("a review picture shows at least one decision")
    rl = words.review
    decl = words.labels(game).liangdao
    shown = list(items[:MAX_ITEMS])
    scratch = Canvas(PICTURE_WIDTH, 2 * PICTURE_WIDTH, FELT)  # first pass: the panels' heights
    tops, y = [], MARGIN
    for n, item in enumerate(shown, start=1):
        tops.append(y)
        y = draw_panel(scratch, n, item, rl, decl, y) + MARGIN
    c = Canvas(PICTURE_WIDTH, y, FELT)
    for n, (item, top) in enumerate(zip(shown, tops, strict=True), start=1):
        bottom = tops[n] - MARGIN if n < len(tops) else y - MARGIN
        c.rect((MARGIN, top, PICTURE_WIDTH - MARGIN, bottom), PANEL, radius=12, role="review_panel")
        draw_panel(c, n, item, rl, decl, top)
    return c


def render_review(
    items: Sequence[ReviewItem], words: PictureWords = ENGLISH, game: str = Ruleset.KAWUXING
) -> Image.Image:
    """The ``/review`` picture (:func:`review_canvas`'s image), RGB."""
    return review_canvas(items, words, game).image
