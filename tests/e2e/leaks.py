"""Checks that no concealed tile ever reaches the group or another player.

From a hand's engine events we know which tiles became public (discards, 碰/直杠/补杠 tiles, a 亮倒
seat's revealed hand — without the kinds a 廊起 / partial reveal keeps face down — and waits, the
winners' hands at the end) and which tiles each seat held.  Every
tile named in any text, caption or button the bot ever showed in the group (all versions, deleted
ones included) must be public; in a player's private chat it must be public or that player's own.
Pictures are checked by origin: a spy renderer stamps each picture with the view it was drawn from,
so every photo the group ever got must come from a public view (the result picture also gets every
seat's whole hand, which is public once the hand is over), and a player's hand picture from that
player's own view.  What those views show face up is checked too (:func:`shown_tiles`): the table a
hand picture draws above the player's tiles, and the live table and reveal pictures, name public
tiles only.

Everything the Mini App's server sends (:func:`web_leaks`: a GET answer, each server-sent event, a
press's answer) is checked the same way: every tile it names anywhere — a tile field of the view
or of a button's press, or a label in a text — must be public by the hand's events, or the
viewer's own for a seat's screen (its own waits excepted: derived from its own hand); a
spectator's view never shows a claim or rob window (the group's view, docs/security.md §4), and
a seat's screen carries that seat's view only.
"""

from __future__ import annotations

import io
import itertools
import re
from collections.abc import Iterable, Sequence
from typing import Any

from PIL import Image, PngImagePlugin

from engine.tiles import Tile, parse_tiles
from engine.views import PublicView, SeatView
from kwx_bot.words.i18n import translator
from kwx_bot.words.texts import tile_label

_LABELS = {lang: {tile_label(t, translator(lang)): t for t in Tile} for lang in ("en", "zh_CN")}
_EN = re.compile(r"\b[1-9] (?:Dot|Bam|Crak)\b|\bWhite\b|\bGreen\b|\bRed\b")
_ZH = re.compile(r"[1-9][筒条万]|[白發]|中(?!文)")  # "中文" (the lobby's language switch) names no tile
_WAITS = re.compile(r"[Ww]aiting on|wait on|听")
_TILE = re.compile(r"^(?:[1-9][ps]|[5-7]z)$")


def tiles_named(text: str) -> set[Tile]:
    """Every tile a text names (English or Chinese labels)."""
    out = {_LABELS["en"][m] for m in _EN.findall(text)}
    out |= {_LABELS["zh_CN"][m] for m in _ZH.findall(text) if m in _LABELS["zh_CN"]}
    return out


def public_and_own(events: Sequence[dict[str, Any]]) -> tuple[set[Tile], list[set[Tile]]]:
    """(tiles made public, tiles each seat ever held) from a hand's event JSON."""
    public: set[Tile] = set()
    own: list[set[Tile]] = [set() for _ in range(4)]  # up to four seats (docs/rules.md §A2.1)
    for e in events:
        kind = e["type"]
        if kind == "hand_started":
            for s, hand in enumerate(e["hands"]):
                own[s] |= set(parse_tiles(hand))
        elif kind == "drew":
            own[e["seat"]].add(parse_tiles(e["tile"])[0])
        elif kind == "discarded":
            public.add(parse_tiles(e["tile"])[0])
            public |= set(parse_tiles(e.get("waits") or ""))
            if e.get("liangdao"):  # the whole hand is revealed (docs/rules.md §A9.2), except the tiles
                # a partial reveal keeps face down (§E#48): none of their kinds counts as shown here
                public |= own[e["seat"]] - set(parse_tiles(e.get("hidden") or ""))
        elif kind in ("ponged", "window_opened") or (kind == "konged" and e["kind"] != "concealed_kong"):
            public.add(parse_tiles(e["tile"])[0])
        elif kind == "hand_ended":
            for w in e["winners"]:
                public |= set(parse_tiles(w["concealed"] + w["win_tile"]))
                for m in w["melds"]:
                    if m["tile"]:
                        public.add(parse_tiles(m["tile"])[0])
    return public, own


def leaked(texts: Iterable[str], allowed: set[Tile], *, own_waits: bool = False) -> set[Tile]:
    """Tiles named in ``texts`` that are not ``allowed``.  ``own_waits``: ignore lines that list the
    reader's own waits (derived from their own hand, they name tiles the reader does not hold)."""
    if own_waits:
        texts = ["\n".join(line for line in t.splitlines() if not _WAITS.search(line)) for t in texts]
    return set(itertools.chain.from_iterable(tiles_named(t) for t in texts)) - allowed


def shown_tiles(view: PublicView, *, skip: int | None = None) -> set[Tile]:
    """Every tile a public view shows face up -- discards, meld tiles (another seat's 暗杠 has
    none), published waits and, once over, the winners' hands -- except those of seat ``skip``
    (the viewer's own).  A 亮倒 / 廊起 seat's shown tiles are checked by :func:`assert_public_view`."""
    out: set[Tile] = set()
    for seat in view.seats:
        if seat.seat == skip:
            continue
        out |= {d.tile for d in seat.discards} | set(seat.waits)
        out |= {m.tile for m in seat.melds if m.tile is not None}
    for w in view.result.winners if view.result is not None else ():
        out |= {*w.concealed, w.win_tile} | {m.tile for m in w.melds if m.tile is not None}
    return out


def assert_public_view(view: PublicView, events: Sequence[dict[str, Any]], *, skip: int | None = None) -> None:
    """What ``view`` shows face up (but seat ``skip``'s own tiles) is public by ``events``: the tiles
    of :func:`shown_tiles`, and the shown hand of a seat only after it declared 亮倒 / 廊起, made of
    tiles it held (which of them a partial reveal shows is the engine's to say)."""
    public, own = public_and_own(events)
    assert shown_tiles(view, skip=skip) <= public
    declared = {e["seat"] for e in events if e["type"] == "discarded" and e.get("liangdao")}
    for seat in view.seats:
        if seat.seat != skip and seat.revealed:
            assert seat.seat in declared and set(seat.revealed) <= own[seat.seat], seat


class SpyPictures:
    """A renderer stand-in that records which view each picture was drawn from (a PNG text chunk)."""

    def __init__(self) -> None:
        self.origins: dict[str, tuple[str, Any]] = {}
        self.games: list[tuple[str, str]] = []
        """(kind, game) of every picture drawn."""
        self.protected: list[tuple[int, tuple[Tile, ...]]] = []
        """(seat, protected tiles) of every hand picture drawn."""
        self.names: list[tuple[int, tuple[str, ...]]] = []
        """(seat, names) of every hand picture drawn (the names its table part shows)."""

    def _png(self, kind: str, view: Any, game: str = "kawuxing") -> bytes:
        key = f"{kind}-{len(self.origins)}"
        self.origins[key] = (kind, view)
        self.games.append((kind, game))
        info = PngImagePlugin.PngInfo()
        info.add_text("kwx", key)
        buf = io.BytesIO()
        Image.new("RGB", (96, 48), (len(self.origins) % 255, 80, 40)).save(buf, "PNG", pnginfo=info)
        return buf.getvalue()

    def origin(self, data: bytes) -> tuple[str, Any]:
        key = Image.open(io.BytesIO(data)).text["kwx"]  # type: ignore[attr-defined]
        return self.origins[key]

    async def hand(
        self,
        view: SeatView,
        lang: str = "zh_CN",
        protected: Sequence[Tile] = (),
        game: str = "kawuxing",
        names: Sequence[str] = (),
    ) -> bytes:
        self.protected.append((view.seat, tuple(protected)))
        self.names.append((view.seat, tuple(names)))
        return self._png("hand", view, game)

    async def table(
        self,
        view: PublicView,
        names: Sequence[str],
        lang: str = "zh_CN",
        totals: Sequence[int] | None = None,
        game: str = "kawuxing",
    ) -> bytes:
        return self._png("table", view, game)

    async def reveal(
        self, view: PublicView, seat: int, names: Sequence[str], lang: str = "zh_CN", game: str = "kawuxing"
    ) -> bytes:
        return self._png("reveal", view, game)

    async def result(
        self,
        view: PublicView,
        names: Sequence[str],
        lang: str = "zh_CN",
        hands: Sequence[Any] | None = None,
        game: str = "kawuxing",
    ) -> bytes:
        # ``hands``: every seat's hand once the hand is over (shown face up then; view.result is set)
        assert hands is None or view.result is not None
        return self._png("result", view, game)


def _web_tiles(value: Any, *, skip_waits: bool, key: str = "") -> tuple[set[Tile], list[str]]:
    """(tiles named as values, texts) anywhere in a web message; ``skip_waits``: leave out the seat
    view's own ``waits`` (a key ``waits`` beside ``concealed``)."""
    tiles: set[Tile] = set()
    texts: list[str] = []
    if isinstance(value, dict):
        own_view = skip_waits and "concealed" in value
        for k, v in value.items():
            if own_view and k == "waits":
                continue
            t, x = _web_tiles(v, skip_waits=skip_waits, key=str(k))
            tiles |= t
            texts += x
    elif isinstance(value, list):
        for v in value:
            t, x = _web_tiles(v, skip_waits=skip_waits, key=key)
            tiles |= t
            texts += x
    elif isinstance(value, str):
        if _TILE.match(value) and key not in ("key", "label", "caption", "status", "title"):
            tiles |= set(parse_tiles(value))
        else:
            texts.append(value)
    return tiles, texts


def web_leaks(message: dict[str, Any], events: Sequence[dict[str, Any]]) -> list[str]:
    """What in one web message (``{"table", "seq", "role", "seat", "lang", "screen"}``, or a press
    answer's ``{"ok", "text", "screen": {...}}``) the viewer may not see, given the events of the
    hand in play (empty before the first deal): each problem in words ([] = none; module docstring)."""
    if "role" not in message and isinstance(message.get("screen"), dict):
        return web_leaks(message["screen"], events) + [
            f"answer text names {t}" for t in leaked([message.get("text") or ""], _allowed(message["screen"], events))
        ]
    problems: list[str] = []
    screen = message["screen"]
    role, seat = message["role"], message["seat"]
    if role == "seat" and screen.get("kind") == "seat" and screen.get("seat") != seat:
        problems.append(f"seat {seat} was sent seat {screen.get('seat')}'s screen")
    view = screen.get("picture", {}).get("view") if isinstance(screen.get("picture"), dict) else None
    if role == "spectator" and isinstance(view, dict) and view.get("phase") in ("claim", "rob"):
        problems.append(f"a spectator was shown a {view['phase']} window")
    if role == "spectator" and screen.get("kind") == "seat":
        problems.append("a spectator was sent a seat's screen")
    allowed = _allowed(message, events)
    tiles, texts = _web_tiles(screen, skip_waits=role == "seat")
    if "result" in message:  # the result shows every hand: only once the hand is over
        if not any(e["type"] == "hand_ended" for e in events):
            problems.append("a result was sent before the hand ended")
        more, words = _web_tiles(message["result"], skip_waits=False)
        tiles, texts = tiles | more, texts + words
    problems += [f"names {t} as a value" for t in sorted(tiles - allowed, key=str)]
    problems += [f"names {t} in a text" for t in sorted(leaked(texts, allowed, own_waits=role == "seat"), key=str)]
    return problems


def _allowed(message: dict[str, Any], events: Sequence[dict[str, Any]]) -> set[Tile]:
    """The tiles the message's viewer may see: public ones, and his own at his seat; every tile
    once the hand is over (the result shows every hand)."""
    if any(e["type"] == "hand_ended" for e in events):
        return set(Tile)
    public, own = public_and_own(events)
    seat = message.get("seat")
    return public | (own[seat] if message.get("role") == "seat" and isinstance(seat, int) else set())
