"""A scoring question written as text — ``/calc``'s notation: a winning hand, its melds, how it was
won and the options that change its score.

The bot's ``/calc`` command passes the question text; :func:`parse_question` reads it into a
:class:`WinQuestion` (pure, no I/O) and :func:`under_rules` fits it to a table's rules; the
question's :meth:`WinQuestion.context` is what :func:`engine.scoring.score_win` scores.  Anything
malformed raises :class:`QuestionError`, whose :class:`Problem` and parameters the shell words in
the reader's language.

Syntax (words are case-insensitive; order is free; Chinese and English spellings are equal;
full-width letters, digits and punctuation read as ASCII, docs/security.md §7.1)::

    [/calc] <tiles in hand> [<winning tile>] [melds] [how] [options]

* **Tiles** in the notation of docs/rules.md §0.3 (``123p789p234s46s88s``; several groups may be
  separated by spaces).  All tile groups are read in written order and the **last tile written is
  the winning tile**, so ``123p789p234s46s88s 5s`` and ``123p789p234s46s88s5s`` mean the same.
  With ``win:5s`` (``胡:5s``) the winning tile is given explicitly and every tile group is the hand.
  In hand before the winning tile: 13 − 3 × melds tiles (docs/rules.md §0.3 "Concealed").
* **Melds**: ``pong:111p`` (``碰``), ``kong:8888p`` (``直杠``, ``明杠``), ``concealed:2222s``
  (``暗杠``, ``ankong``), ``added:7777s`` (``补杠``, ``bukong``); the tile part may be one tile (``pong:1p``).  The
  docs/rules.md bracket forms ``[碰 111p]``, ``[暗杠 2222s]``, ``【补杠 7777s】`` work too.
* **How**: ``self`` / ``zimo`` / ``自摸`` (the default), ``discard`` / ``dianpao`` / ``点炮`` /
  ``ron`` / ``捉炮``, ``rob`` / ``qianggang`` / ``抢杠`` / ``抢杠胡``.
* **Options**: ``laid`` / ``亮倒`` / ``liangdao`` (the winner laid down, 亮倒); ``laid:d`` (the
  discarder), ``laid:both`` (winner and discarder), ``laid:x`` / ``laid:y`` / ``laid:w,x``
  (any seats; ``赢家``, ``点炮``, ``双方`` in Chinese); ``after_kong`` / ``杠上`` (杠上开花 on a
  self-draw, 杠上炮 on a discard; ``杠上开花``/``杠上炮`` also imply how); ``last_tile`` / ``海底``
  (海底捞月 / 海底炮; ``海底捞月``/``海底炮`` imply how); ``base:2`` / ``底金:2`` and
  ``cap:none|8|8_sl16|16|32`` / ``封顶:…`` override the table's rules for this one question.
* **Game**: the table's game by default (卡五星, or 卡心五, docs/rules.md §B); ``kaxinwu`` /
  ``卡心五`` scores the hand as 卡心五 (the ``kaxinwu`` preset with the table's 底金), ``kawuxing`` /
  ``卡五星`` as the standard 卡五星 (idem); ``players:2|3|4`` / ``人数:…`` sets the number of seats
  (default: the rules' ``players``).  Under 卡心五, ``laid`` / ``廊起`` is 廊起 with the whole
  hand shown (it does not double, docs/rules.md §B).

Seats (docs/rules.md §0.3): W = the winner, D = the discarder (or the robbed player), X = the third
player on a discard (and Y the fourth at four seats); on a self-draw the payers are X, the next
player after the winner (下家), Y, the previous one (上家), and at four seats O, the one opposite
(对家): ``laid:next`` / ``亮倒:下家`` name X.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from .numerals import fold_width, is_ascii_digit, whole_number
from .rules import STANDARD_PLAYERS, RuleError, RuleSet, Ruleset
from .scoring import WinBy, WinContext
from .tiles import Meld, MeldKind, NotationError, Suit, Tile, counts_of, parse_tiles

__all__ = ["COMMAND", "Problem", "QuestionError", "WinQuestion", "parse_question", "under_rules"]


class Problem(enum.StrEnum):
    """What is wrong with a question; :class:`QuestionError` carries it with the parameters its
    sentence names (in brackets)."""

    UNEXPECTED_CHAR = "unexpected_char"  # (token, char) a character that is no notation
    NO_SUIT_LETTER = "no_suit_letter"  # (token, digits)
    NOT_A_SUIT = "not_a_suit"  # (token, letter)
    NO_TILE_ZERO = "no_tile_zero"  # (token)
    NO_WINDS = "no_winds"  # (token) 1z-4z
    NOT_NOTATION = "not_notation"  # (token, detail) the engine's own explanation
    MELD_KIND = "meld_kind"  # (token) an unknown meld kind
    MELD_SHAPE = "meld_shape"  # (token) not 3 or 4 copies of one tile
    BRACKET_MELD = "bracket_meld"  # (token) a bracket that is no meld
    HOW_CONTRADICTED = "how_contradicted"  # (word) two ways of winning
    ONE_GAME = "one_game"  # (word) two games
    NOT_UNDERSTOOD = "not_understood"  # (word)
    LIANGDAO_WHO = "liangdao_who"  # (token) an unknown seat after liangdao:
    ONE_WIN_TILE = "one_win_tile"  # (token)
    BASE = "base"  # (token) not a base stake
    CAP = "cap"  # () not a cap
    PLAYERS = "players"  # (token) not 2, 3 or 4
    TOO_MANY_MELDS = "too_many_melds"  # (n)
    NO_TILES = "no_tiles"  # ()
    TILE_COUNT = "tile_count"  # (n, k, want, total) the last tile written wins
    TILE_COUNT_WIN = "tile_count_win"  # (n, tile, k, want) with win:<tile>
    FIVE_COPIES = "five_copies"  # (n, tile)
    ROBBED_TILE_HELD = "robbed_tile_held"  # (tile)
    SELF_DRAW_DISCARDER = "self_draw_discarder"  # (token) liangdao:d on a self-draw
    NO_DRAGONS = "no_dragons"  # (tile) dragons under rules without them
    SUIT_NOT_IN_PLAY = "suit_not_in_play"  # (tile, suits)
    SEATS_ON_DISCARD = "seats_on_discard"  # (token) a seat a 3-seat discard does not have
    SEATS_AT_TABLE = "seats_at_table"  # (token, seats)
    PLAYERS_NOT_ALLOWED = "players_not_allowed"  # (n)
    CANNOT_SCORE = "cannot_score"  # (detail) the scorer refused the context


class QuestionError(ValueError):
    """A malformed question: its :class:`Problem` and the values its sentence names (``params``:
    pieces of the input as written, numbers, tiles in notation)."""

    def __init__(self, problem: Problem, **params: Any) -> None:
        super().__init__(f"{problem.value}: {params}" if params else problem.value)
        self.problem = problem
        self.params = params


COMMAND = re.compile(r"^/calc(@\w+)?(\s|$)", re.IGNORECASE)
"""A leading ``/calc`` or ``/calc@bot``, which :func:`parse_question` ignores."""


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
_CAPS = ("none", "8", "8_sl16", "16", "32")
_CAP_WORDS = {"无": "none", "不封顶": "none", "no": "none", "off": "none"}
_PLAYERS = ("players", "人数", "seats")
_GAME = _words(
    {
        Ruleset.KAXINWU.value: ("kaxinwu", "卡心五", "kxw"),
        Ruleset.KAWUXING.value: ("kawuxing", "卡五星", "kwx"),
    }
)
_SELF_ROLES = {2: ("W", "X"), 3: ("W", "X", "Y"), 4: ("W", "X", "O", "Y")}

_BRACKET = re.compile(r"[\[【［]([^\]】］]*)[\]】］]")
_BRACKET_MELD = re.compile(r"^([^\s0-9:]+)\s*:?\s*(.*)$")
_COMMA = str.maketrans({"、": ","})


@dataclass(frozen=True, slots=True)
class WinQuestion:
    """A parsed scoring question.

    ``concealed``: the winner's tiles in hand before the winning tile (13 − 3 × melds).
    ``liangdao``: the roles that have 亮倒, a subset of ``{"W", "D", "X", "Y", "O"}`` (docs/rules.md §0.3).
    ``base`` / ``cap``: per-question overrides of the table's rules (None = the table's).
    ``game``: the game the question names (None = the table's).  ``players``: the seats it names
    (None = the rules').  ``seats``: the seats the question is scored at (set by
    :func:`under_rules` from the rules; 3 until then).  ``liangdao_named``: (role, the word that
    named it), in input order.  ``how_given``: the question named how the tile arrived (else 自摸 is
    assumed).  ``written``: the hand's tile groups as written, without the winning tile (display).
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
        """The scorer's :class:`~engine.scoring.WinContext`: winner seat 0, discarder seat 1 (if any)."""
        return WinContext(
            concealed=self.concealed,
            melds=self.melds,
            win_tile=self.win_tile,
            win_by=self.win_by,
            winner=0,
            discarder=None if self.win_by is WinBy.SELF_DRAW else 1,
            liangdao=tuple(r in self.liangdao for r in self.roles),
            after_kong=self.after_kong,
            last_tile=self.last_tile,
            num_players=self.seats,
        )

    def as_self_draw(self) -> WinQuestion:
        """The same hand won by self-draw (only the winner's 亮倒 kept): what a win refused on a
        discard would have made."""
        return replace(self, win_by=WinBy.SELF_DRAW, liangdao=frozenset(r for r in self.liangdao if r == "W"))

    def game_rules(self, rules: RuleSet) -> RuleSet:
        """The rules of the game the question is scored in: ``rules``, or — when it names the other
        game — that game's preset with the table's 底金; with its ``players``.  Raises
        :class:`QuestionError` for a number of seats the rules do not allow."""
        if self.game is not None and self.game is not rules.ruleset:
            preset = "kaxinwu" if self.game is Ruleset.KAXINWU else "standard"
            rules = RuleSet.preset(preset).with_options({"base": rules.base})
        if self.players is None or self.players == rules.players:
            return rules
        try:
            return rules.with_options({"players": self.players})
        except RuleError:  # pragma: no cover - parse_question accepts 2, 3 or 4 only, which every game allows
            raise QuestionError(Problem.PLAYERS_NOT_ALLOWED, n=self.players) from None

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
            raise QuestionError(Problem.CAP) from None


# ------------------------------------------------------------------------------------- notation


def _notation_error(token: str, exc: NotationError) -> QuestionError:
    """What is wrong with the tile notation ``token`` (the engine's message as the last resort)."""
    for m in re.finditer(r"[0-9]+[a-z]?|.", token):
        part = m.group()
        if not is_ascii_digit(part[0]):
            return QuestionError(Problem.UNEXPECTED_CHAR, token=token, char=part)
        letter = part[-1]
        if is_ascii_digit(letter):
            return QuestionError(Problem.NO_SUIT_LETTER, token=token, digits=part)
        if letter not in "psmz":
            return QuestionError(Problem.NOT_A_SUIT, token=token, letter=letter)
        if "0" in part:
            return QuestionError(Problem.NO_TILE_ZERO, token=token)
        if letter == "z" and set(part[:-1]) - set("567"):
            return QuestionError(Problem.NO_WINDS, token=token)
    return QuestionError(Problem.NOT_NOTATION, token=token, detail=str(exc))


def _tiles(token: str) -> list[Tile]:
    try:
        return parse_tiles(token, max_copies=99)
    except NotationError as exc:
        raise _notation_error(token, exc) from None


def _meld(kind_word: str, tiles_text: str, original: str) -> Meld:
    kind = _MELD_KIND.get(kind_word.lower())
    if kind is None:
        raise QuestionError(Problem.MELD_KIND, token=original)
    mk = MeldKind(kind)
    tiles = _tiles(tiles_text.lower())
    if len(tiles) == 1:
        tiles = tiles * mk.size
    if len(tiles) != mk.size or len(set(tiles)) != 1:
        raise QuestionError(Problem.MELD_SHAPE, token=original)
    return Meld(mk, tiles[0])


def _split_key(token: str) -> tuple[str, str] | None:
    for sep in (":", "="):
        if sep in token:
            key, _, value = token.partition(sep)
            return key.lower(), value
    return None


def _drop_last_tile(token: str) -> str:
    """``"88s5s"`` -> ``"88s"``, ``"885s"`` -> ``"88s"``, ``"5s"`` -> ``""`` (notation already valid)."""
    m = re.search(r"([0-9]*)([0-9])([a-z])$", token)
    if m is None:  # pragma: no cover - a valid tile token always ends with digit + letter
        return token
    return token[: m.start()] + (m.group(1) + m.group(3) if m.group(1) else "")


# ----------------------------------------------------------------------------------------- words


@dataclass
class _Reading:
    """What the words of a question said so far (:func:`parse_question` reads them in order)."""

    melds: list[Meld] = field(default_factory=list)
    tile_groups: list[list[Tile]] = field(default_factory=list)
    tile_tokens: list[str] = field(default_factory=list)
    explicit_win: Tile | None = None
    how: str | None = None
    implied: list[tuple[str, str]] = field(default_factory=list)  # (word, how it implies)
    flags: set[str] = field(default_factory=set)
    liangdao_words: list[tuple[str, str]] = field(default_factory=list)  # (role spec, original token)
    base: int | None = None
    cap: str | None = None
    game: Ruleset | None = None
    players: int | None = None

    def set_how(self, value: str, word: str) -> None:
        if self.how is not None and self.how != value:
            raise QuestionError(Problem.HOW_CONTRADICTED, word=word)
        self.how = value

    def bracket(self, m: re.Match[str]) -> str:
        """A ``[碰 111p]`` meld (replaced by a space in the text)."""
        km = _BRACKET_MELD.match(m.group(1).strip())
        if km is None or not km.group(2):
            raise QuestionError(Problem.BRACKET_MELD, token=m.group(0))
        self.melds.append(_meld(km.group(1), km.group(2).replace(" ", ""), m.group(0)))
        return " "

    def word(self, token: str) -> None:
        """One word of the question: tiles, how, a flag, 亮倒, a game or a ``key:value``."""
        low = token.lower()
        if token == "+":
            return
        if is_ascii_digit(token[:1]):
            self.tile_groups.append(_tiles(low))
            self.tile_tokens.append(re.sub(r"\s+", "", low))
        elif low in _HOW:
            self.set_how(_HOW[low], token)
        elif low in _FLAGS:
            flag, implies = _FLAGS[low]
            self.flags.add(flag)
            if implies is not None:
                self.implied.append((token, implies))
        elif low in _LIANGDAO:
            self.liangdao_words.append(("W", token))
        elif low in _GAME:
            if self.game is not None and self.game.value != _GAME[low]:
                raise QuestionError(Problem.ONE_GAME, word=token)
            self.game = Ruleset(_GAME[low])
        else:
            kv = _split_key(token)
            if kv is None:
                raise QuestionError(Problem.NOT_UNDERSTOOD, word=token)
            self.keyed(token, *kv)

    def keyed(self, token: str, key: str, value: str) -> None:
        """A ``key:value`` word: a meld, 亮倒 seats, the winning tile, the base, the cap, the seats."""
        if key in _MELD_KIND:
            self.melds.append(_meld(key, value, token))
        elif key in _LIANGDAO:
            self.liangdao_seats(token, value)
        elif key in _WIN:
            tiles = _tiles(value.lower())
            if len(tiles) != 1 or self.explicit_win is not None:
                raise QuestionError(Problem.ONE_WIN_TILE, token=token)
            self.explicit_win = tiles[0]
        elif key in _BASE:
            self.base = whole_number(value, minimum=1, maximum=1_000_000)
            if self.base is None:
                raise QuestionError(Problem.BASE, token=token)
        elif key in _CAP:
            self.cap = _CAP_WORDS.get(value.lower(), value.lower())
            if self.cap not in _CAPS:
                raise QuestionError(Problem.CAP)
        elif key in _PLAYERS:
            self.players = whole_number(value, minimum=2, maximum=4)
            if self.players is None:
                raise QuestionError(Problem.PLAYERS, token=token)
        elif is_ascii_digit(value[:1]):
            raise QuestionError(Problem.MELD_KIND, token=token)
        else:
            raise QuestionError(Problem.NOT_UNDERSTOOD, word=token)

    def liangdao_seats(self, token: str, value: str) -> None:
        """``liangdao:d`` / ``liangdao:w,x`` / ``liangdao:`` (the winner)."""
        for part in filter(None, value.lower().split(",")):
            who = _LIANGDAO_WHO.get(part)
            if who is None:
                raise QuestionError(Problem.LIANGDAO_WHO, token=token)
            self.liangdao_words.append((who, token))
        if not value.strip(","):
            self.liangdao_words.append(("W", token))

    def hand(self) -> tuple[list[Tile], Tile]:
        """The concealed tiles and the winning tile, checked against the melds."""
        melds = self.melds
        if len(melds) > 4:
            raise QuestionError(Problem.TOO_MANY_MELDS, n=len(melds))
        written = [t for group in self.tile_groups for t in group]
        if not written and self.explicit_win is None:
            raise QuestionError(Problem.NO_TILES)
        want = 13 - 3 * len(melds)
        if self.explicit_win is not None:
            if len(written) != want:
                raise QuestionError(
                    Problem.TILE_COUNT_WIN, n=len(written), tile=str(self.explicit_win), k=len(melds), want=want
                )
            return written, self.explicit_win
        if len(written) != want + 1:
            raise QuestionError(Problem.TILE_COUNT, n=len(written), k=len(melds), want=want, total=want + 1)
        self.tile_tokens[-1] = _drop_last_tile(self.tile_tokens[-1])
        return written[:-1], written[-1]

    def roles(self, win_by: WinBy) -> frozenset[str]:
        """The seats named as having 亮倒 (a self-draw has no discarder to name)."""
        liangdao: set[str] = set()
        for who, token in self.liangdao_words:
            for role in who:
                if role == "D" and win_by is WinBy.SELF_DRAW:
                    raise QuestionError(Problem.SELF_DRAW_DISCARDER, token=token)
                liangdao.add(role)
        return frozenset(liangdao)


def _check_copies(concealed: list[Tile], melds: list[Meld], win_tile: Tile, win_by: WinBy) -> None:
    counts = counts_of([*concealed, *(t for m in melds for t in m.tiles), win_tile])
    for tile in Tile:
        if counts[tile] > 4:
            raise QuestionError(Problem.FIVE_COPIES, n=counts[tile], tile=str(tile))
    if win_by is WinBy.ROB_KONG and counts[win_tile] > 1:
        raise QuestionError(Problem.ROBBED_TILE_HELD, tile=str(win_tile))


def parse_question(text: str) -> WinQuestion:
    """Parse a question (module docstring; a leading ``/calc`` or ``/calc@bot`` is ignored).

    Raises :class:`QuestionError` for anything malformed: unknown words, bad notation, the wrong
    number of tiles for the melds, more than four melds, five copies of a tile, a 亮倒 seat that does
    not exist for that kind of win, contradictory words.
    """
    text = COMMAND.sub("", fold_width(text.strip()).translate(_COMMA), count=1)
    reading = _Reading()
    text = _BRACKET.sub(reading.bracket, text)
    for token in text.split():
        reading.word(token)
    for word, value in reading.implied:
        reading.set_how(value, word)
    win_by = WinBy(reading.how or "self_draw")
    concealed, win_tile = reading.hand()
    _check_copies(concealed, reading.melds, win_tile, win_by)
    liangdao = reading.roles(win_by)
    return WinQuestion(
        concealed=tuple(concealed),
        melds=tuple(reading.melds),
        win_tile=win_tile,
        win_by=win_by,
        liangdao=liangdao,
        after_kong="after_kong" in reading.flags,
        last_tile="last_tile" in reading.flags,
        base=reading.base,
        cap=reading.cap,
        how_given=reading.how is not None,
        written=tuple(t for t in reading.tile_tokens if t),
        game=reading.game,
        players=reading.players,
        liangdao_named=tuple((role, token) for who, token in reading.liangdao_words for role in who),
    )


# ----------------------------------------------------------------------------------------- rules


def _check_in_play(question: WinQuestion, rules: RuleSet) -> None:
    tiles = {*question.concealed, question.win_tile, *(m.tile for m in question.melds)}
    for t in sorted(tiles):
        if t.suit is Suit.DRAGONS and not rules.dragons:
            raise QuestionError(Problem.NO_DRAGONS, tile=str(t))
        if t.suit is not Suit.DRAGONS and t.suit.value not in rules.suits:
            raise QuestionError(Problem.SUIT_NOT_IN_PLAY, tile=str(t), suits=" + ".join(rules.suits))


def _check_roles(question: WinQuestion) -> None:
    """Every seat named by ``liangdao:`` exists at this table for this kind of win."""
    roles = question.roles
    for role, token in question.liangdao_named:
        if role in roles:
            continue
        if question.seats == STANDARD_PLAYERS and question.win_by is not WinBy.SELF_DRAW:
            raise QuestionError(Problem.SEATS_ON_DISCARD, token=token)
        raise QuestionError(Problem.SEATS_AT_TABLE, token=token, seats=", ".join(roles).lower())


def under_rules(question: WinQuestion, rules: RuleSet) -> tuple[WinQuestion, RuleSet]:
    """The question at the table of ``rules`` (the table's; or the game it names, docs/rules.md §B
    for 卡心五) and the rules it is scored under (its overrides applied): its seats set from the
    rules, every seat it names checked to exist and every tile to be in play.  Raises
    :class:`QuestionError`."""
    question = replace(question, seats=question.game_rules(rules).players)
    _check_roles(question)
    used = question.rules_for(rules)
    _check_in_play(question, used)
    return question, used
