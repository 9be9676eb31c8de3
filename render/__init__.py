"""render -- pure pictures: engine views -> Pillow images -> PNG/JPEG bytes (docs/architecture.md §3).

The ``/stats`` picture (:func:`render_stats`, :mod:`render.stats`) is drawn from a plain value of a
record's numbers (:class:`StatsSheet`) instead of an engine view.

Imports only :mod:`engine`, Pillow and the standard library (never telegram or aiosqlite).  Tile art
is drawn by the project (:mod:`render.art`), text uses the shipped OFL font subset
(:mod:`render.text`), and every word drawn comes in as a :class:`~render.labels.PictureWords` value (``words``: the
bot fills it from its catalogs; default English, :data:`render.labels.ENGLISH`).
Every ``render_*`` takes ``game`` (:class:`engine.rules.Ruleset`, default 卡五星): under 卡心五 the
declaration is labelled 廊起 instead of 亮倒 (docs/rules.md §B).
Every picture is a function of a view; :func:`encode` turns it into bytes at the edge.  Rendering
is CPU-bound: call it in a worker thread from async code (``await asyncio.to_thread(render_table, view, names)``).
"""

from __future__ import annotations

import io
from collections.abc import Collection, Sequence

from PIL import Image

from engine.rules import Ruleset
from engine.tiles import Tile
from engine.views import PublicView, SeatView

from .art import TileSize, TileState, warm_cache
from .labels import ENGLISH, PictureWords
from .pictures import HandTiles, hand_canvas, result_canvas, reveal_canvas, table_canvas
from .review import ReviewItem, render_review
from .stats import PlayerStats, StatsSheet, render_stats

__all__ = [
    "ENGLISH",
    "PALETTE_COLOURS",
    "PHOTO_MAX_BYTES",
    "PHOTO_MAX_RATIO",
    "PHOTO_MAX_SIDES",
    "HandTiles",
    "PictureWords",
    "PlayerStats",
    "ReviewItem",
    "StatsSheet",
    "TileSize",
    "TileState",
    "encode",
    "render_hand",
    "render_result",
    "render_reveal",
    "render_review",
    "render_stats",
    "render_table",
    "warm_cache",
]

PHOTO_MAX_SIDES = 10_000
"""Telegram sendPhoto: width + height must not exceed this (pixels)."""
PHOTO_MAX_RATIO = 20
"""Telegram sendPhoto: the longer side at most this many times the shorter."""
PHOTO_MAX_BYTES = 10_000_000
"""Telegram sendPhoto: at most 10 MB."""


def render_hand(
    view: SeatView,
    words: PictureWords = ENGLISH,
    protected: Collection[Tile] = (),
    game: str = Ruleset.KAWUXING,
    names: Sequence[str] = (),
) -> Image.Image:
    """The private hand picture of ``view.seat`` with ``words``, RGB, laid out for a
    phone (:mod:`render.phone`, docs/architecture.md §3): :data:`render.phone.PICTURE_WIDTH` (600)
    pixels wide, about 450 (2 seats) to 840 (4 seats) tall, never more than 1.4 times the width; shown
    330 px wide, every text at least 11 px tall, the player's own tiles 32 px wide (28 when the
    picture would be too tall), every other tile at least 18 px.  Its layout is the first of
    :data:`render.hand.HAND_LAYOUTS` that keeps it within 1.4 times the width.

    At the top, the table as ``view.public`` shows it (only public tiles; docs/architecture.md
    "Presentation"): one panel per other seat in turn order from the next one (the seat that plays
    after the player), each a compact version of :func:`render_table`'s seat panel -- a gold ▶ and
    lighter panel for a seat the table waits for, the 庄 disc, the name (``names[seat]``, cleaned and
    cut with ``…`` as in the table picture, ``玩家N`` when missing), 亮倒 / 托管 badges, the hidden
    hand as one face-down tile and its count, the melds lying flat (a kong's four tiles side by side;
    another seat's 暗杠 face down); a 亮倒 / 廊起 seat's shown tiles, the tiles it keeps as one
    face-down tile and their count, and ``听`` with its published waits; then its whole pond in
    order (claimed discards dimmed, the 亮倒 discard lying sideways, the discard on the table
    highlighted gold) -- all flowing into as many lines as they need.  Then the player's own pond
    and the wall count.

    Below, the player's own tiles, the biggest in the picture, in as few rows as they need (two
    for a full hand) of about equal length: the seat's melds flat (碰 three tiles, a kong four; the
    seat's own 暗杠 with its two middle tiles face up), on a row of their own when that costs no
    row, the concealed tiles sorted (``view.concealed``), then -- set apart and highlighted gold --
    the drawn tile.  Under each concealed and drawn tile is its short label (``5条``, ``3筒``,
    ``中``; ``5 Bam``, ``3 Dot``, ``Red`` in English): the same text as the bot's discard buttons in
    that language (:meth:`render.labels.Labels.tile`), not an index; labels wider than a tile (the
    English ones) stand on two staggered lines so that neighbours never touch.  The tiles of
    ``view.danger`` (the engine's: a 亮倒 opponent waits on them and discarding one means 包胡,
    docs/rules.md §A9.7) are drawn with a red rim and their legend; render works none out itself.
    Below: ``听`` and the waits when ``view.waits`` is non-empty, each with the number of copies
    the player has not seen (``N张``) beside it, a ``亮倒`` badge once declared, and the legends.
    The width is fixed, so successive pictures line up; the height follows the content.
    Every label is from ``words``.

    A partly revealed hand (``liangdao_reveal = kou`` / ``minimal``, 卡心五 廊起; docs/rules.md §A9.2,
    §E#48, §B): a gold bar on the top edge of each concealed tile the others see (``view.public.seats[seat].revealed``,
    one mark per copy) and the legend ``亮出``; the waits drawn are the published ones, which the shown
    shape fixes.  ``protected``: the tiles the seat may not discard because a 亮倒 / 廊起 player waits
    on them (protection, docs/rules.md §A9.8, §B) -- as the shell reads them from the engine's legal
    actions, never recomputed here; each copy in hand gets a red rim, a red bar on its top edge and the legend
    ``不能打``, so the disabled discard buttons explain themselves.
    """
    return hand_canvas(view, words, protected, game, names).image


def render_table(
    view: PublicView,
    names: Sequence[str],
    words: PictureWords = ENGLISH,
    totals: Sequence[int] | None = None,
    game: str = Ruleset.KAWUXING,
) -> Image.Image:
    """The public table picture, labels from ``words``, RGB,
    laid out for a phone (:mod:`render.phone`): 600 pixels wide, at most 1.4 times as tall; shown
    330 px wide, every text at least 11 px tall and every tile 20 px wide (18 when the picture
    would be too tall: the first of :data:`render.table.TABLE_STYLES` that fits is drawn).  Its
    height follows the content: per seat a name line, a line for the hand and melds, and a line
    per 15 discards.

    Header: the wall count.  Then one panel per seat in seat order (as many as ``view.seats``): a
    gold ▶ and a lighter, gold-edged panel for the seats the table waits for (``to_act``, else
    ``turn``; none once over), a red 庄 disc for the dealer, the player's name (``names[seat]``;
    characters the font lacks are dropped, long names cut with ``…``, an empty result becomes
    ``玩家N``), 亮倒 / 托管 badges, the hand's kong money (``杠+2``), for a 亮倒 seat ``听`` + its
    published waits, and at the right the seat's running match total (``累计+12``: ``totals[seat]``,
    points of 底金 summed over the table's ledger so far; omitted when ``totals`` is None; ValueError
    unless one per seat; after the name line's other items when they leave it no room).  Below,
    flowing into as many lines as they need: the revealed hand of a 亮倒 seat face up -- after a
    partial reveal (``liangdao_reveal = kou`` / ``minimal``, 卡心五 廊起; docs/rules.md §A9.2,
    §E#48, §B) the shown tiles face up, then one face-down tile and the number of tiles kept hidden
    (and a tile just drawn) --, otherwise one face-down tile and the number of concealed tiles; the
    melds lying flat (another seat's 暗杠 face down); then, from a new line, the discard pond in
    order, on darker strips: claimed discards dimmed, the 亮倒 discard lying sideways, the discard
    now on the table (``view.last_discard``) highlighted gold.
    """
    return table_canvas(view, names, words, totals, game).image


def render_reveal(
    view: PublicView, seat: int, names: Sequence[str], words: PictureWords = ENGLISH, game: str = Ruleset.KAWUXING
) -> Image.Image:
    """The 亮倒 reveal picture of ``seat``, labels in ``words``, 600 pixels wide (:mod:`render.phone`):
    name and 亮倒 badge, the revealed hand and melds (flat) at the size of a player's own tiles in
    as many lines as they need, then ``听`` and the waits, each with the copies nobody has seen yet
    (``N张``) beside it.

    Raises ValueError if ``seat`` is not a seat of ``view``.
    """
    return reveal_canvas(view, seat, names, words, game).image


def render_result(
    view: PublicView,
    names: Sequence[str],
    words: PictureWords = ENGLISH,
    hands: Sequence[HandTiles] | None = None,
    game: str = Ruleset.KAWUXING,
) -> Image.Image:
    """The hand result picture from ``view.result`` (:class:`engine.views.HandResultView`), labels
    and 番 names in ``words`` (English 番 names are the bot's ``/calc`` names); 600 pixels wide and
    laid out for a phone as the other pictures are (:mod:`render.phone`).

    A win (``outcome == "win"``): title 胡牌, then per winner (two on 一炮双响): name, a gold badge
    saying how the winner won (胡 on a discard, 自摸, 抢杠胡 -- never 点炮, which is what the
    discarder did), who dealt in (``X放炮``) or was robbed, a red 包胡 badge when it applies; the
    winning hand (melds flat, concealed tiles, and the winning tile apart, highlighted; on one line
    at the largest tile size that fits, else wrapped at the smallest); the 番 as gold
    chips (``WinView.fans``; the 亮倒 chip names whose 亮倒 it is, ``X亮倒``); after the label
    ``各家倍数`` the uncapped multiplier per payer (``X ×8``, docs/rules.md §A11.1).  A 荒庄 (``outcome ==
    "draw"``): title 荒庄 and the revealed hands of 亮倒 seats with their waits.  卡心五 (docs/rules.md
    §B, :mod:`render.endings`): a 流局 with 被查叫 seats (``result.chajiao``) is titled 查叫, a
    ``"guansi"`` outcome 关死; under the title a line says why (and for 关死 what the 关死 seat pays),
    then one chip per payer (``X 付 Y 4、Z 4``: each 被查叫 seat to each 廊起 seat, or the 关死 seat to
    every other seat); each 廊起 seat's block shows its hand as it was shown -- the shown tiles with a
    gold bar over each, then the kept tiles, face up when ``hands`` is given, else one face-down tile
    and their count; the payments table badges the 被查叫 seats and the 关死 seat.  Sentences wrap.  Both end with the
    payments table in points of 底金 -- per player 胡牌 (hand payments or 荒庄 penalties), 杠钱
    (kong money), 合计 -- signed ``+`` / ``−``, a gain red and a loss green in Chinese, a gain green
    and a loss red in English (:func:`render.blocks.points_colour`);
    the 庄 disc marks this hand's dealer (``view.dealer``), a red 点炮 badge the discarder of a
    discard win (被抢杠 the robbed seat); a last line names the next dealer (``下局庄家：X``).

    With ``hands`` (one :data:`HandTiles` per seat: concealed tiles and melds, the hand being over
    they are public), every seat not shown above (neither a winner nor a 荒庄 亮倒 seat) shows its
    concealed tiles and melds face up under its row of the payments table -- unless the picture would
    then be taller than 1.4 times its width (four seats with two winners or two 廊起 seats): then
    without them, and if still too tall with the names of the payments table cut shorter beside
    their badges.

    Raises ValueError if ``view.result`` is None or ``hands`` is not one per seat.
    """
    return result_canvas(view, names, words, hands, game).image


PALETTE_COLOURS = 48
"""Colours of the ``"palette"`` encoding (benchmarks/bench_pictures.py measures 32, 48, 64 and 128).
48 looks the same as 128 by eye at phone size and at full size for about 20 % fewer bytes, and maps
every pixel within 60 levels of its colour; at 32 the octree merges small areas of gold, red and
green into other colours (hundreds of pixels off by 200 levels)."""

PALETTE_ZLIB_LEVEL = 6
"""zlib level of the ``"palette"`` encoding: about a fifth fewer bytes than level 1 for 1–2 ms more
a picture (level 9 saves 5 % more for three times the time)."""


def encode(image: Image.Image, fmt: str = "png") -> bytes:
    """Encode a picture for sendPhoto: ``"png"`` (lossless RGB, zlib level 1: fast, edges stay sharp
    before Telegram's own recompression), ``"palette"`` (a PNG of :data:`PALETTE_COLOURS` colours,
    Pillow's fast octree quantizer without dithering, zlib :data:`PALETTE_ZLIB_LEVEL`: the flat felt, tiles and text
    need few colours, so it is several times smaller than either other format and lossless-looking
    at phone size; docs/telegram.md §6 has the measurements) or ``"jpeg"`` (quality 90, no chroma
    subsampling, so red and green strokes keep their edges).  Raises ValueError for another format.
    """
    buf = io.BytesIO()
    kind = fmt.lower()
    if kind == "png":
        image.save(buf, "PNG", compress_level=1)
    elif kind == "palette":
        rgb = image.convert("RGB")
        rgb.quantize(PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(
            buf, "PNG", compress_level=PALETTE_ZLIB_LEVEL
        )
    elif kind in ("jpeg", "jpg"):
        image.convert("RGB").save(buf, "JPEG", quality=90, subsampling=0)
    else:
        raise ValueError(f"unknown image format {fmt!r}: use 'palette', 'png' or 'jpeg'")
    return buf.getvalue()
