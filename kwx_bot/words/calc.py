"""``/calc``: the in-chat scoring calculator for hands played at a real table.

The handler passes the command's argument text, the group's :class:`~engine.rules.RuleSet` and a
:class:`~kwx_bot.words.i18n.Translator`; :func:`calc_reply` returns one HTML message (under 4096
characters): the 番 with their values, the multiplier, and who pays whom — or a polite message
saying what is wrong with the input.  No Telegram objects; no exception escapes for bad input.

Syntax (words are case-insensitive; order is free; Chinese and English spellings are equal)::

    /calc <tiles in hand> [<winning tile>] [melds] [how] [options]

* **Tiles** in the notation of docs/rules.md §0.3 (``123p789p234s46s88s``; several groups may be separated
  by spaces).  All tile groups are read in written order and the **last tile written is the winning
  tile**, so ``123p789p234s46s88s 5s`` and ``123p789p234s46s88s5s`` mean the same.  With
  ``win:5s`` (``胡:5s``) the winning tile is given explicitly and every tile group is the hand.
  In hand before the winning tile: 13 − 3 × melds tiles (docs/rules.md §0.3 "Concealed").
* **Melds**: ``pong:111p`` (``碰``), ``kong:8888p`` (``直杠``, ``明杠``), ``concealed:2222s``
  (``暗杠``, ``ankong``), ``added:7777s`` (``补杠``, ``bukong``); the tile part may be one tile
  (``pong:1p``).  The docs/rules.md bracket forms ``[碰 111p]``, ``[暗杠 2222s]``, ``【补杠 7777s】``
  work too.
* **How**: ``self`` / ``zimo`` / ``自摸`` (the default), ``discard`` / ``dianpao`` / ``点炮`` /
  ``ron`` / ``捉炮``, ``rob`` / ``qianggang`` / ``抢杠`` / ``抢杠胡``.
* **Options**: ``laid`` / ``亮倒`` / ``liangdao`` (the winner laid down, 亮倒); ``laid:d`` (the discarder),
  ``laid:both`` (winner and discarder), ``laid:x`` / ``laid:y`` / ``laid:w,x``
  (any seats; ``赢家``, ``点炮``, ``双方`` in Chinese); ``after_kong`` / ``杠上`` (杠上开花 on a
  self-draw, 杠上炮 on a discard; ``杠上开花``/``杠上炮`` also imply how); ``last_tile`` / ``海底``
  (海底捞月 / 海底炮; ``海底捞月``/``海底炮`` imply how); ``base:2`` / ``底金:2`` and
  ``cap:none|8|8_sl16|16|32`` / ``封顶:…`` override the group's rules for this one question.
* **Game**: the group's game by default (卡五星, or 卡心五 when the group plays it, docs/rules.md §B);
  ``kaxinwu`` / ``卡心五`` scores the hand as 卡心五 (the ``kaxinwu`` preset with the group's 底金),
  ``kawuxing`` / ``卡五星`` as the standard 卡五星 (idem); ``players:2|3|4`` / ``人数:…`` sets the
  number of seats (default: the rules' ``players``: 3 for 卡五星, 4 for the 卡心五 preset).  Under
  卡心五, ``laid`` / ``廊起`` is 廊起 with the whole hand shown (it does not double, docs/rules.md §B).
  The answer names the act in English "laid down" (docs/glossary.md); the pinyin spellings
  (``liangdao``, ``langqi``, ``ankong``, ``bukong``, ``zimo`` …) stay accepted as input.

Seats in the answer (docs/rules.md §0.3): W = the winner, D = the discarder (or the robbed player), X = the
third player on a discard (and Y the fourth at four seats); on a self-draw the payers are X, the next
player after the winner (下家), Y, the previous one (上家), and at four seats O, the one opposite (对家):
``laid:next`` / ``亮倒:下家`` name X.  Points are 底金 × capped M (docs/rules.md §A11, §A12).
The 番 and their values are the engine's (``WinScore.fan_values``); nothing is recomputed here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from engine.analysis import shanten, waits
from engine.fans import Fan
from engine.rules import STANDARD_PLAYERS, RuleError, RuleSet, Ruleset
from engine.scoring import IllegalReason, ScoringError, WinBy, WinContext, WinScore, score_win
from engine.tiles import Meld, MeldKind, NotationError, Suit, Tile, counts_of, format_tiles, parse_tiles

from .i18n import N_, Translator
from .texts import esc, fan_label, signed

__all__ = [
    "CalcError",
    "CalcQuery",
    "CalcResult",
    "calc",
    "calc_reply",
    "calc_usage",
    "parse_calc",
    "render_calc",
]

MESSAGE_LIMIT = 4096


class CalcError(ValueError):
    """Malformed ``/calc`` input.  ``msgid`` is an English gettext msgid with ``{placeholders}``
    filled from ``params`` (plain text; escaped for HTML by :meth:`render`)."""

    def __init__(self, msgid: str, **params: Any) -> None:
        super().__init__(msgid.format(**params) if params else msgid)
        self.msgid = msgid
        self.params = params

    def render(self, tr: Translator) -> str:
        """The message in the reader's language, HTML-escaped; a quoted piece of the input is cut to
        :data:`QUOTE_CHARS` characters, so the reply always fits a Telegram message."""
        text = tr.gettext(self.msgid)
        return text.format(**{k: esc(_quote(str(v))) for k, v in self.params.items()}) if self.params else text


QUOTE_CHARS = 40
"""The most characters of the user's input an error message quotes."""


def _quote(text: str) -> str:
    return text if len(text) <= QUOTE_CHARS else text[: QUOTE_CHARS - 1] + "…"


# ------------------------------------------------------------------------------------------ query


@dataclass(frozen=True, slots=True)
class CalcQuery:
    """A parsed ``/calc`` question.

    ``concealed``: the winner's tiles in hand before the winning tile (13 − 3 × melds).
    ``liangdao``: the roles that have 亮倒, a subset of ``{"W", "D", "X", "Y", "O"}`` (docs/rules.md §0.3).
    ``base`` / ``cap``: per-question overrides of the group's rules (None = the group's).
    ``game``: the game the question names (None = the group's).  ``players``: the seats it names
    (None = the rules').  ``seats``: the seats the question is scored at (set by :func:`calc` from
    the rules; 3 until then).  ``liangdao_named``: (role, the word that named it), in input order.
    ``how_given``: the user named how the tile arrived (else 自摸 is assumed and said so).
    ``written``: the hand's tile groups as the user wrote them, without the winning tile (display).
    """

    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...]
    win_tile: Tile
    win_by: WinBy = WinBy.SELF_DRAW
    liangdao: frozenset[str] = frozenset()
    after_kong: bool = False
    last_tile: bool = False
    base: int | None = None
    cap: str | None = None
    how_given: bool = True
    written: tuple[str, ...] = ()
    game: Ruleset | None = None
    players: int | None = None
    seats: int = STANDARD_PLAYERS
    liangdao_named: tuple[tuple[str, str], ...] = ()

    @property
    def roles(self) -> tuple[str, ...]:
        """Role letter of each seat 0 … seats − 1: with a discarder ``("W", "D", "X")`` (then ``"Y"``
        at four seats, ``("W", "D")`` at two); on a self-draw ``("W", "X", "Y")`` (at four seats
        ``("W", "X", "O", "Y")``, at two ``("W", "X")``): seat order from the winner."""
        if self.win_by is WinBy.SELF_DRAW:
            return _SELF_ROLES[self.seats]
        return ("W", "D", "X", "Y")[: self.seats]

    def context(self) -> WinContext:
        """The engine's :class:`WinContext`: winner seat 0, discarder seat 1 (if any)."""
        roles = self.roles
        return WinContext(
            concealed=self.concealed,
            melds=self.melds,
            win_tile=self.win_tile,
            win_by=self.win_by,
            winner=0,
            discarder=None if self.win_by is WinBy.SELF_DRAW else 1,
            liangdao=tuple(r in self.liangdao for r in roles),
            after_kong=self.after_kong,
            last_tile=self.last_tile,
            num_players=self.seats,
        )

    def game_rules(self, rules: RuleSet) -> RuleSet:
        """The rules of the game the question is scored in: the group's, or — when it names the other
        game — that game's preset with the group's 底金; with its ``players``.  Raises
        :class:`CalcError` for a number of seats the rules do not allow."""
        if self.game is not None and self.game is not rules.ruleset:
            preset = "kaxinwu" if self.game is Ruleset.KAXINWU else "standard"
            rules = RuleSet.preset(preset).with_options({"base": rules.base})
        if self.players is None or self.players == rules.players:
            return rules
        try:
            return rules.with_options({"players": self.players})
        except RuleError:  # pragma: no cover - parse_calc accepts 2, 3 or 4 only, which every game allows
            raise CalcError(N_("These rules cannot be played by {n} players."), n=self.players) from None

    def rules_for(self, rules: RuleSet) -> RuleSet:
        """The question's game (:meth:`game_rules`) with its ``base`` / ``cap`` overrides applied."""
        rules = self.game_rules(rules)
        options: dict[str, Any] = {}
        if self.base is not None:
            options["base"] = self.base
        if self.cap is not None:
            options["cap"] = self.cap
        if not options:
            return rules
        try:
            return rules.with_options(options)
        except RuleError:
            raise CalcError(N_("That cap is not known: use none, 8, 8_sl16, 16 or 32.")) from None


def _words(mapping: Mapping[str, tuple[str, ...]]) -> dict[str, str]:
    return {word: key for key, words in mapping.items() for word in words}


_HOW = _words(
    {
        "self_draw": ("self", "zimo", "自摸", "tsumo", "self_draw", "selfdraw", "self-draw", "zm"),
        "discard": ("discard", "dianpao", "点炮", "ron", "捉炮", "放炮", "接炮", "dp"),
        "rob_kong": ("rob", "qianggang", "抢杠", "抢杠胡", "rob_kong", "robkong", "qg"),
    }
)
# Words that set a flag and imply how the tile arrived (None = either way).
_FLAGS: dict[str, tuple[str, str | None]] = {
    **{w: ("after_kong", None) for w in ("after_kong", "afterkong", "gangshang", "杠上", "kong_replacement")},
    **{w: ("after_kong", "self_draw") for w in ("gangkai", "杠开", "杠上开花", "杠上花")},
    **{w: ("after_kong", "discard") for w in ("gangpao", "杠上炮", "杠炮")},
    **{w: ("last_tile", None) for w in ("last_tile", "lasttile", "last", "haidi", "海底")},
    **{w: ("last_tile", "self_draw") for w in ("haidilao", "海底捞月", "海底捞")},
    **{w: ("last_tile", "discard") for w in ("haidipao", "海底炮")},
}
_LIANGDAO = ("laid", "laid_down", "laiddown", "lay_down", "laydown", "liangdao", "亮倒", "ld", "亮牌", "廊起", "langqi")
_LIANGDAO_WHO = _words(
    {
        "W": ("w", "winner", "me", "self", "赢家", "胡家", "自己"),
        "D": ("d", "discarder", "dianpao", "payer", "robbed", "点炮", "点炮者", "放炮者", "被抢杠者"),
        "X": ("x", "next", "下家"),
        "Y": ("y", "previous", "prev", "上家"),
        "O": ("o", "opposite", "对家"),
        "WD": ("both", "双方", "都", "wd", "dw"),
    }
)
_MELD_KIND = _words(
    {
        "pong": ("pong", "peng", "碰", "pung"),
        "kong": ("kong", "gang", "zhigang", "minggang", "直杠", "明杠", "点杠", "杠"),
        "concealed_kong": ("concealed", "ankong", "angang", "暗杠", "concealed_kong", "concealedkong", "ankan"),
        "added_kong": ("added", "bukong", "bugang", "补杠", "added_kong", "addedkong", "加杠", "巴杠", "续杠"),
    }
)
_WIN = ("win", "胡", "和", "winning", "tile")
_BASE = ("base", "底金", "底分", "difen")
_CAP = ("cap", "封顶", "fengding")
_PLAYERS = ("players", "人数", "seats")
_GAME = _words(
    {
        Ruleset.KAXINWU.value: ("kaxinwu", "卡心五", "kxw"),
        Ruleset.KAWUXING.value: ("kawuxing", "卡五星", "kwx"),
    }
)
_SELF_ROLES = {2: ("W", "X"), 3: ("W", "X", "Y"), 4: ("W", "X", "O", "Y")}

_BRACKET = re.compile(r"[\[【［]([^\]】］]*)[\]】］]")
_FULLWIDTH = str.maketrans({"：": ":", "，": ",", "、": ",", "＝": "=", "\u3000": " "})
_COMMAND = re.compile(r"^/calc(@\w+)?(\s|$)", re.IGNORECASE)


def _is_tiles(token: str) -> bool:
    return token[:1].isdigit()


def _notation_error(token: str, exc: NotationError) -> CalcError:
    """A translated explanation of a notation mistake in ``token`` (engine message as fallback)."""
    for m in re.finditer(r"[0-9]+[a-z]?|.", token):
        part = m.group()
        if not part[0].isdigit():
            return CalcError(
                N_("“{token}”: unexpected “{char}”. Tiles are digits followed by a suit letter, like 123p 46s 5z."),
                token=token,
                char=part,
            )
        letter = part[-1]
        if letter.isdigit():
            return CalcError(
                N_(
                    "“{token}”: the digits {digits} have no suit letter. "
                    "Write p (筒), s (条) or z (dragons) after them."
                ),
                token=token,
                digits=part,
            )
        if letter not in "psmz":
            return CalcError(
                N_(
                    "“{token}”: “{letter}” is not a suit. "
                    "Use p for dots (筒), s for bamboo (条), z for dragons (5z 白, 6z 發, 7z 中)."
                ),
                token=token,
                letter=letter,
            )
        if "0" in part:
            return CalcError(N_("“{token}”: there is no tile 0."), token=token)
        if letter == "z" and set(part[:-1]) - set("567"):
            return CalcError(
                N_("“{token}”: only 5z (白), 6z (發) and 7z (中) exist; Ka Wu Xing (卡五星) has no winds."),
                token=token,
            )
    return CalcError(N_("“{token}” is not tile notation: {detail}"), token=token, detail=str(exc))


def _parse_tiles(token: str) -> list[Tile]:
    try:
        return parse_tiles(token, max_copies=99)
    except NotationError as exc:
        raise _notation_error(token, exc) from None


def _parse_meld(kind_word: str, tiles_text: str, original: str) -> Meld:
    kind = _MELD_KIND.get(kind_word.lower())
    if kind is None:
        raise CalcError(
            N_("“{token}”: unknown meld kind. Use pong, kong, concealed or added (碰, 直杠, 暗杠, 补杠)."),
            token=original,
        )
    mk = MeldKind(kind)
    tiles = _parse_tiles(tiles_text.lower())
    if len(tiles) == 1:
        tiles = tiles * mk.size
    if len(tiles) != mk.size or len(set(tiles)) != 1:
        raise CalcError(
            N_(
                "“{token}”: a pong is 3 copies of one tile and a kong 4 (like pong:111p or kong:8888p); "
                "there are no runs."
            ),
            token=original,
        )
    return Meld(mk, tiles[0])


def _split_key(token: str) -> tuple[str, str] | None:
    for sep in (":", "="):
        if sep in token:
            key, _, value = token.partition(sep)
            return key.lower(), value
    return None


def parse_calc(text: str) -> CalcQuery:
    """Parse ``/calc`` argument text (a leading ``/calc`` or ``/calc@bot`` is ignored).

    Raises :class:`CalcError` (translatable) for anything malformed: unknown words, bad notation,
    the wrong number of tiles for the melds, more than four melds, five copies of a tile, a 亮倒
    seat that does not exist for that kind of win, contradictory words.
    """
    text = _COMMAND.sub("", text.strip().translate(_FULLWIDTH), count=1)
    melds: list[Meld] = []

    def bracket(m: re.Match[str]) -> str:
        inner = m.group(1).strip()
        km = re.match(r"^([^\s0-9:]+)\s*:?\s*(.*)$", inner)
        if km is None or not km.group(2):
            raise CalcError(N_("“{token}”: write a meld like [碰 111p] or [暗杠 2222s]."), token=m.group(0))
        melds.append(_parse_meld(km.group(1), km.group(2).replace(" ", ""), m.group(0)))
        return " "

    text = _BRACKET.sub(bracket, text)
    tile_groups: list[list[Tile]] = []
    tile_tokens: list[str] = []
    explicit_win: Tile | None = None
    how: str | None = None
    implied: list[tuple[str, str]] = []  # (word, how it implies)
    flags: set[str] = set()
    liangdao_words: list[tuple[str, str]] = []  # (role spec, original token)
    base: int | None = None
    cap: str | None = None
    game: Ruleset | None = None
    players: int | None = None

    def set_how(value: str, word: str) -> None:
        nonlocal how
        if how is not None and how != value:
            raise CalcError(
                N_("“{word}” contradicts how the tile was won; name only one of self, discard, rob."), word=word
            )
        how = value

    for token in text.split():
        low = token.lower()
        if token == "+":
            continue
        if _is_tiles(token):
            tile_groups.append(_parse_tiles(low))
            tile_tokens.append(re.sub(r"\s+", "", low))
            continue
        if low in _HOW:
            set_how(_HOW[low], token)
            continue
        if low in _FLAGS:
            flag, implies = _FLAGS[low]
            flags.add(flag)
            if implies is not None:
                implied.append((token, implies))
            continue
        if low in _LIANGDAO:
            liangdao_words.append(("W", token))
            continue
        if low in _GAME:
            if game is not None and game.value != _GAME[low]:
                raise CalcError(N_("“{word}”: name only one game, kawuxing (卡五星) or kaxinwu (卡心五)."), word=token)
            game = Ruleset(_GAME[low])
            continue
        kv = _split_key(token)
        if kv is None:
            raise CalcError(N_("I do not understand “{word}”."), word=token)
        key, value = kv
        if key in _MELD_KIND:
            melds.append(_parse_meld(key, value, token))
        elif key in _LIANGDAO:
            for part in filter(None, value.lower().split(",")):
                who = _LIANGDAO_WHO.get(part)
                if who is None:
                    raise CalcError(
                        N_("“{token}”: say who laid down: w (winner), d (discarder), both, x or y."), token=token
                    )
                liangdao_words.append((who, token))
            if not value.strip(","):
                liangdao_words.append(("W", token))
        elif key in _WIN:
            tiles = _parse_tiles(value.lower())
            if len(tiles) != 1 or explicit_win is not None:
                raise CalcError(N_("“{token}”: give exactly one winning tile, like win:5s."), token=token)
            explicit_win = tiles[0]
        elif key in _BASE:
            if not value.isdigit() or not 1 <= int(value) <= 1_000_000:
                raise CalcError(N_("“{token}”: the base stake (底金) is a whole number from 1 up."), token=token)
            base = int(value)
        elif key in _CAP:
            cap = {"无": "none", "不封顶": "none", "no": "none", "off": "none"}.get(value.lower(), value.lower())
            if cap not in ("none", "8", "8_sl16", "16", "32"):
                raise CalcError(N_("That cap is not known: use none, 8, 8_sl16, 16 or 32."))
        elif key in _PLAYERS:
            if value not in ("2", "3", "4"):
                raise CalcError(N_("“{token}”: a table has 2, 3 or 4 players."), token=token)
            players = int(value)
        elif value[:1].isdigit():
            raise CalcError(
                N_("“{token}”: unknown meld kind. Use pong, kong, concealed or added (碰, 直杠, 暗杠, 补杠)."),
                token=token,
            )
        else:
            raise CalcError(N_("I do not understand “{word}”."), word=token)

    for word, value in implied:
        set_how(value, word)
    how_given = how is not None
    win_by = WinBy(how or "self_draw")

    if len(melds) > 4:
        raise CalcError(N_("A hand has at most 4 melds; you gave {n}."), n=len(melds))
    written = [t for group in tile_groups for t in group]
    if not written and explicit_win is None:
        raise CalcError(N_("Give the tiles in hand, then the winning tile, e.g. /calc 123p789p234s46s88s 5s discard"))
    want = 13 - 3 * len(melds)
    if explicit_win is None:
        if len(written) != want + 1:
            raise CalcError(
                N_(
                    "You wrote {n} tiles and {k} meld(s). With {k} meld(s) write {want} tiles in hand and then "
                    "the winning tile: {total} tiles in all (the last one written is the winning tile)."
                ),
                n=len(written),
                k=len(melds),
                want=want,
                total=want + 1,
            )
        concealed, win_tile = written[:-1], written[-1]
        tile_tokens[-1] = _drop_last_tile(tile_tokens[-1])
    else:
        if len(written) != want:
            raise CalcError(
                N_("You wrote {n} tiles in hand besides win:{tile}; with {k} meld(s) the hand has {want}."),
                n=len(written),
                tile=str(explicit_win),
                k=len(melds),
                want=want,
            )
        concealed, win_tile = written, explicit_win

    counts = counts_of([*concealed, *(t for m in melds for t in m.tiles), win_tile])
    for tile in Tile:
        if counts[tile] > 4:
            raise CalcError(
                N_("There are {n} copies of {tile} (hand, melds and winning tile together); a set has only 4."),
                n=counts[tile],
                tile=str(tile),
            )
    if win_by is WinBy.ROB_KONG and counts[win_tile] > 1:
        raise CalcError(
            N_(
                "A robbed kong's tile {tile} cannot also be in the winner's hand or melds: the other three copies "
                "are in the robbed player's pong."
            ),
            tile=str(win_tile),
        )

    liangdao: set[str] = set()
    for who, token in liangdao_words:
        for role in who:
            if role == "D" and win_by is WinBy.SELF_DRAW:
                raise CalcError(
                    N_("“{token}”: a self-draw has no discarder. Use laid:x or laid:y for a payer."),
                    token=token,
                )
            liangdao.add(role)
    return CalcQuery(
        concealed=tuple(concealed),
        melds=tuple(melds),
        win_tile=win_tile,
        win_by=win_by,
        liangdao=frozenset(liangdao),
        after_kong="after_kong" in flags,
        last_tile="last_tile" in flags,
        base=base,
        cap=cap,
        how_given=how_given,
        written=tuple(t for t in tile_tokens if t),
        game=game,
        players=players,
        liangdao_named=tuple((role, token) for who, token in liangdao_words for role in who),
    )


def _drop_last_tile(token: str) -> str:
    """``"88s5s"`` -> ``"88s"``, ``"885s"`` -> ``"88s"``, ``"5s"`` -> ``""`` (notation already valid)."""
    m = re.search(r"([0-9]*)([0-9])([a-z])$", token)
    if m is None:  # pragma: no cover - a valid tile token always ends with digit + letter
        return token
    return token[: m.start()] + (m.group(1) + m.group(3) if m.group(1) else "")


# ----------------------------------------------------------------------------------------- result


@dataclass(frozen=True, slots=True)
class CalcResult:
    """A scored ``/calc`` question: the query, the rules used and the engine's :class:`WinScore`.

    ``as_self_draw``: for a discard/rob win refused because M < 2, the same hand scored as a
    self-draw (so the answer can say what it would have paid).
    """

    query: CalcQuery
    rules: RuleSet
    score: WinScore
    as_self_draw: WinScore | None = None

    @property
    def deltas_by_role(self) -> dict[str, int]:
        """Points per role letter (``{"W": 2, "D": -2, "X": 0}``); all 0 when not a legal win."""
        return dict(zip(self.query.roles, self.score.deltas, strict=True))

    @property
    def multiplier_by_role(self) -> dict[str, int]:
        """Uncapped M per paying role."""
        return {self.query.roles[seat]: m for seat, m in sorted(self.score.multiplier.items())}


def _check_in_play(query: CalcQuery, rules: RuleSet) -> None:
    tiles = {*query.concealed, query.win_tile, *(m.tile for m in query.melds)}
    for t in sorted(tiles):
        if t.suit is Suit.DRAGONS and not rules.dragons:
            raise CalcError(N_("{tile} is not used under these rules: they have no dragons."), tile=str(t))
        if t.suit is not Suit.DRAGONS and t.suit.value not in rules.suits:
            raise CalcError(
                N_("{tile} is not used under these rules: the suits in play are {suits}."),
                tile=str(t),
                suits=" + ".join(rules.suits),
            )


def _check_roles(query: CalcQuery) -> None:
    """Every seat named by ``liangdao:`` exists at this table for this kind of win."""
    roles = query.roles
    for role, token in query.liangdao_named:
        if role in roles:
            continue
        if query.seats == STANDARD_PLAYERS and query.win_by is not WinBy.SELF_DRAW:
            raise CalcError(
                N_("“{token}”: on a discard the seats are w (winner), d (discarder) and x (the third player)."),
                token=token,
            )
        raise CalcError(
            N_("“{token}”: at this table the seats are {seats}."), token=token, seats=", ".join(roles).lower()
        )


def calc(text: str, rules: RuleSet) -> CalcResult:
    """Parse and score a ``/calc`` question under ``rules`` (the group's; or the game it names,
    docs/rules.md §B for 卡心五) at the rules' number of seats.  Raises :class:`CalcError`."""
    query = parse_calc(text)
    query = replace(query, seats=query.game_rules(rules).players)
    _check_roles(query)
    used = query.rules_for(rules)
    _check_in_play(query, used)
    try:
        score = score_win(query.context(), used)
    except ScoringError as exc:  # pragma: no cover - parse_calc checks what WinContext checks
        raise CalcError(N_("That hand cannot be scored: {detail}"), detail=str(exc)) from None
    alt = None
    if score.complete and not score.legal and query.win_by is not WinBy.SELF_DRAW:
        alt_query = CalcQuery(
            concealed=query.concealed,
            melds=query.melds,
            win_tile=query.win_tile,
            win_by=WinBy.SELF_DRAW,
            liangdao=frozenset(r for r in query.liangdao if r == "W"),
            last_tile=query.last_tile,
            after_kong=query.after_kong,
            seats=query.seats,
        )
        alt = score_win(alt_query.context(), used)
    return CalcResult(query, used, score, alt)


# ---------------------------------------------------------------------------------------- render

_ROLE = {
    "W": N_("winner"),
    "D": N_("discarder"),
    "X": N_("third player"),
    "Y": N_("fourth player"),
}
_ROLE_SELF = {
    "W": N_("winner"),
    "X": N_("next player (下家)"),
    "O": N_("opposite player (对家)"),
    "Y": N_("previous player (上家)"),
}
"""On a self-draw the payers are named by their place in turn order: X plays right after the
winner (下家), Y right before (上家), O (at four seats) opposite (对家)."""
_ROLE_ROB = {"W": N_("winner"), "D": N_("robbed player"), "X": N_("third player"), "Y": N_("fourth player")}


def _role_names(query: CalcQuery, tr: Translator) -> dict[str, str]:
    table = {WinBy.SELF_DRAW: _ROLE_SELF, WinBy.DISCARD: _ROLE, WinBy.ROB_KONG: _ROLE_ROB}[query.win_by]
    if query.seats == 2 and query.win_by is WinBy.SELF_DRAW:
        table = {**table, "X": N_("other player")}
    return {role: tr.gettext(table[role]) for role in query.roles}


def _hand_text(query: CalcQuery) -> str:
    melds = " ".join(f"[{m.kind.chinese} {format_tiles(m.tiles)}]" for m in query.melds)
    hand = " ".join(query.written) or format_tiles(query.concealed)
    return " ".join(filter(None, [hand, melds, "+ " + str(query.win_tile)]))


def _situation(result: CalcResult, tr: Translator) -> str:
    _ = tr.gettext
    q = result.query
    how = {
        WinBy.SELF_DRAW: _("won by self-draw (自摸)"),
        WinBy.DISCARD: _("won on a discard (点炮)"),
        WinBy.ROB_KONG: _("won by robbing a kong (抢杠胡)"),
    }[q.win_by]
    if not q.how_given:
        how = _("{how} (assumed; add discard or rob otherwise)").format(how=how)
    parts = [how]
    if q.after_kong:
        parts.append(_("after a kong"))
    if q.last_tile:
        parts.append(_("on the last tile"))
    if q.liangdao:
        names = _role_names(q, tr)
        parts.append(_("laid down: {who}").format(who=_(", ").join(names[r] for r in q.roles if r in q.liangdao)))
    return " · ".join(parts)


def _fan_line(result: CalcResult, tr: Translator) -> str:
    """The 番 with the factor each multiplied by, as the engine scored them (``WinScore.fan_values``)."""
    pieces = [f"{fan_label(fan, tr)} ×{value}" for fan, value in result.score.fan_values]
    return tr.gettext("Patterns: {fans}").format(fans=" · ".join(pieces))


def _multiplier_line(result: CalcResult, tr: Translator) -> str:
    _ = tr.gettext
    score = result.score
    names = _role_names(result.query, tr)
    by_role = result.multiplier_by_role
    values = set(by_role.values())
    if len(values) == 1:
        text = _("Multiplier: ×{m}").format(m=values.pop())
    else:
        text = _("Multiplier: {list}").format(list=_(", ").join(f"{names[r]} ×{m}" for r, m in by_role.items()))
    if score.cap is not None and any(m > score.cap for m in by_role.values()):
        text = _("{text} (capped at ×{cap})").format(text=text, cap=score.cap)
    return text


def _other_table_payments(result: CalcResult, tr: Translator) -> str:
    """Who pays at a table of 2 or 4 seats: one payer, everybody the same, or one list of payments
    (the others pay nothing)."""
    _ = tr.gettext
    q, score = result.query, result.score
    names = _role_names(q, tr)
    shares = {q.roles[seat]: amount for seat, amount in score.shares.items()}
    amounts = set(shares.values())
    if len(shares) == 1:
        ((who, n),) = shares.items()
        return _("Only the {who} pays: {n}.").format(who=names[who], n=n)
    if len(amounts) == 1:
        return _("Each of the other {k} players pays {n}.").format(k=len(shares), n=amounts.pop())
    return _("Payments: {list}.").format(list=_(", ").join(f"{names[r]} {shares[r]}" for r in q.roles if r in shares))


def _payment_lines(result: CalcResult, tr: Translator) -> list[str]:
    _ = tr.gettext
    q, score = result.query, result.score
    names = _role_names(q, tr)
    shares = {q.roles[seat]: amount for seat, amount in score.shares.items()}
    base = result.rules.base
    lines = []
    if q.seats != STANDARD_PLAYERS:
        lines.append(_other_table_payments(result, tr))
    elif q.win_by is WinBy.SELF_DRAW:
        amounts = set(shares.values())
        if len(amounts) == 1:
            lines.append(_("Each of the other two players pays {n}.").format(n=amounts.pop()))
        else:
            lines.append(_("The {x} pays {a}, the {y} pays {b}.").format(x=names["X"], a=shares["X"], y=names["Y"],
                                                                         b=shares["Y"]))  # fmt: skip
    elif score.baohu:
        each = [
            min(m, score.cap) * base if score.cap is not None else m * base
            for _seat, m in sorted(score.multiplier.items())
        ]
        lines.append(
            _("The {d} had not laid down, so pays for all (包胡): {parts} = {n}.").format(
                d=names["D"], parts=" + ".join(map(str, each)), n=shares["D"]
            )
        )
        lines.append(_("The {x} pays nothing.").format(x=names["X"]))
    else:
        lines.append(_("The {d} pays {n}; the {x} pays nothing.").format(d=names["D"], n=shares["D"], x=names["X"]))
    deltas = " · ".join(f"{names[r]} {signed(d)}" for r, d in result.deltas_by_role.items())
    lines.append(_("Result: {list} (base {base})").format(list=deltas, base=base))
    return lines


def _not_complete(result: CalcResult, tr: Translator) -> list[str]:
    _ = tr.gettext
    q = result.query
    lines = [
        _("<b>Not a winning hand.</b> {hand} does not make four sets and a pair (or seven pairs).").format(
            hand=esc(_hand_text(q))
        )
    ]
    counts = counts_of(q.concealed)
    held = counts_of([*q.concealed, *(t for m in q.melds for t in m.tiles)])
    ready = waits(counts, len(q.melds), held)
    if ready:
        lines.append(_("Before the winning tile it waits on: {tiles}.").format(tiles=" ".join(map(str, ready))))
    else:
        n = shanten(counts, len(q.melds))
        lines.append(
            tr.ngettext(
                "Before the winning tile it is not ready: {n} tile away from ready.",
                "Before the winning tile it is not ready: {n} tiles away from ready.",
                n,
            ).format(n=n)
        )
    return lines


def _illegal(result: CalcResult, tr: Translator) -> list[str]:
    _ = tr.gettext
    q, score = result.query, result.score
    lines = [_fan_line(result, tr), _multiplier_line(result, tr)]
    if score.illegal is IllegalReason.QIANGGANG_OFF:
        lines.insert(0, _("<b>Not a legal win:</b> robbing a kong (抢杠胡) is switched off in these rules."))
        return lines
    if q.win_by is WinBy.SELF_DRAW:
        lines.insert(0, _("<b>Not a legal win:</b> these rules need ×2 to win, even on a self-draw (两番起胡)."))
        return lines
    if q.win_by is WinBy.ROB_KONG:
        head = _("<b>Not a legal win:</b> a plain hand (屁胡, ×1) cannot rob a kong.")
    else:
        head = _("<b>Not a legal win:</b> a plain hand (屁胡, ×1) cannot win on a discard (屁胡不能捉炮).")
    lines.insert(0, head)
    lines.append(
        _(
            "A win on a discard or a robbed kong needs ×2 or more: a pattern such as Ka Wu Xing (卡五星), the "
            "winner or the discarder having laid down, or a win right after a kong."
        )
    )
    if not result.rules.situational_for_qihu and {Fan.GANGPAO, Fan.QIANGGANG, Fan.HAIDIPAO} & set(score.fans):
        lines.append(
            _(
                "These rules do not count a win on a discard after a kong (杠上炮), robbing a kong (抢杠胡) or the "
                "last discard (海底炮) toward that ×2."
            )
        )
    alt = result.as_self_draw
    if alt is not None and alt.legal:
        amounts = sorted(set(alt.shares.values()))
        lines.append(
            _("As a self-draw it would win {total}: {each} from each other player.").format(
                total=alt.deltas[0], each="/".join(map(str, amounts))
            )
        )
    return lines


def render_calc(result: CalcResult, tr: Translator) -> str:
    """The answer message (HTML) for a scored question."""
    _ = tr.gettext
    q, score = result.query, result.score
    head = f"<b>{esc(_hand_text(q))}</b>"
    lines = [head, _situation(result, tr)]
    if not score.complete:
        lines.extend(_not_complete(result, tr))
    elif not score.legal:
        lines.extend(_illegal(result, tr))
    else:
        lines.append(_fan_line(result, tr))
        lines.append(_multiplier_line(result, tr))
        lines.extend(_payment_lines(result, tr))
        lines.append(_("Reading: {reading}").format(reading=esc(score.reading)))
    text = "\n".join(lines)
    return text if len(text) <= MESSAGE_LIMIT else text[: MESSAGE_LIMIT - 1] + "…"


def calc_usage(tr: Translator) -> str:
    """How to use ``/calc`` (HTML), sent for an empty ``/calc``."""
    _ = tr.gettext
    return "\n".join(
        [
            _("<b>/calc</b>: score a hand played at a real table."),
            _("Write the tiles in hand, then the winning tile, then how it was won:"),
            "<code>/calc 123p789p234s46s88s 5s discard</code>",
            _(
                "Tiles: 1p–9p dots (筒), 1s–9s bamboo (条), 5z white (白), 6z green (發), 7z red (中); digits share "
                "the next letter (123p = 1p 2p 3p)."
            ),
            _("How: self (自摸, the default), discard (点炮) or rob (抢杠)."),
            _(
                "Melds: pong:111p, kong:8888p, concealed:2222s (a concealed kong), added:7777s (an added kong), "
                "or [碰 111p], [暗杠 2222s]."
            ),
            _(
                "Options: laid (the winner laid down), laid:d (the discarder), laid:both, after_kong (杠上), "
                "last_tile (海底), base:2, cap:none. (Also accepted: 亮倒 or liangdao for laid, ankong, bukong.)"
            ),
            _(
                "Game: the group's. Add kaxinwu (卡心五) or kawuxing (卡五星) to score the other game, "
                "players:2, 3 or 4 for the number of seats."
            ),
            _("Examples:"),
            "<code>/calc 333p777s5z pong:111p pong:999s 5z 点炮</code>",
            "<code>/calc 123s456s789s9p [暗杠 3333p] 9p 自摸 杠上</code>",
            "<code>/calc 123p456p234s78s99p 9s discard laid</code>",
        ]
    )


def calc_reply(text: str, rules: RuleSet, tr: Translator) -> str:
    """The whole ``/calc`` answer (HTML, ≤ 4096 characters) for the command's argument text.

    Empty text gives the usage; malformed text gives a polite explanation (never an exception).
    """
    stripped = _COMMAND.sub("", text.strip(), count=1).strip()
    if not stripped:
        return calc_usage(tr)
    try:
        result = calc(stripped, rules)
    except CalcError as exc:
        return "\n".join([exc.render(tr), tr.gettext("Send /calc without anything else for the usage.")])
    return render_calc(result, tr)
