"""Small text helpers shared by captions and keyboards: escaping, names, tiles, 番, refusals.

Everything here returns HTML-safe text for Telegram's HTML parse mode: user-provided strings (names,
group titles) always pass through :func:`esc` (``html.escape``), so a name like ``<b>&`` or ``*_[``
shows as typed and never breaks a send.  Tile and 番 names come from the gettext catalogs.

Whatever a user wrote and the bot shows again — a name, a group title, a word of a command it did
not understand — goes through :func:`visible` first, the one place that drops bidi controls and
invisible characters (docs/security.md §7.2): :func:`name` for names and titles,
:func:`quote` for a piece of a command quoted in an answer.
"""

from __future__ import annotations

import html
import unicodedata
from collections.abc import Iterable

from engine.fans import Fan
from engine.game import Reason, RevealFault
from engine.tiles import Suit, Tile

from .i18n import N_, NG_, Translator

__all__ = [
    "clean",
    "esc",
    "fan_label",
    "game_name",
    "name",
    "quote",
    "reason_text",
    "reveal_fault_text",
    "rules_label",
    "sentences",
    "signed",
    "table_size",
    "tile_label",
    "tiles_label",
    "visible",
]

NAME_LIMIT = 24

BIDI_CONTROLS = frozenset("\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Unicode bidirectional formatting characters: LRM/RLM/ALM, the embeddings and overrides
(U+202A-U+202E) and the isolates (U+2066-U+2069).  In a user's name they would reorder the text that
follows it in the same message (e.g. a name starting with U+202E shows the rest of the line
backwards), so display names drop them; the name's own letters keep their natural direction."""

JOINERS = frozenset("\u200c\u200d")
"""The zero-width non-joiner and joiner: the only format characters :func:`visible` keeps.  They
only say how the characters beside them join (emoji sequences such as 👨‍👩‍👧, Persian and Indic
spelling); they move and hide nothing."""
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0")
"""The Hangul fillers: letters by category, blank on screen (a favourite for empty-looking names)."""
QUOTE_CHARS = 40
"""The most characters of a user's input an answer quotes (:func:`quote`)."""


def _invisible(ch: str) -> bool:
    if ch in BLANK_LETTERS:
        return True
    return unicodedata.category(ch) in ("Cc", "Cf", "Cs") and ch not in JOINERS and not ch.isspace()


def sentences(tr: Translator, *parts: str) -> str:
    """Whole sentences joined as the reader's language writes them: Chinese sentences end with a
    full-width stop and follow each other without a space; English ones are separated by one space.
    Empty parts are skipped."""
    glue = "" if tr.lang.startswith("zh") else " "
    return glue.join(p for p in parts if p)


def esc(text: str) -> str:
    """HTML-escape user text (``<``, ``>``, ``&``, quotes)."""
    return html.escape(text, quote=False)


def visible(raw: str) -> str:
    """User text without the characters that act unseen: the bidi controls (:data:`BIDI_CONTROLS`)
    and every other format character but the joiners (:data:`JOINERS`: zero-width space, word
    joiner, soft hyphen, byte-order mark, tag characters …, Unicode category Cf), the control
    characters other than white space (Cc), lone surrogates (Cs, which no message can carry) and
    the blank Hangul fillers (:data:`BLANK_LETTERS`).  White space is kept; nothing is escaped."""
    return "".join(ch for ch in raw if not _invisible(ch))


def clean(raw: str) -> str:
    """A user-provided name or title as :func:`visible` leaves it, with runs of whitespace (newlines
    included) folded into one space; ``"?"`` if nothing is left.  Not escaped: for pictures; HTML
    gets :func:`name`."""
    return " ".join(visible(raw).split()) or "?"


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def name(raw: str, limit: int = NAME_LIMIT) -> str:
    """A display name (:func:`clean`), truncated to ``limit`` characters (with …) and HTML-escaped."""
    return esc(_cut(clean(raw), limit))


def quote(raw: str, limit: int = QUOTE_CHARS) -> str:
    """A piece of a user's input quoted in an answer (``I did not understand “…”``): :func:`clean`,
    cut to ``limit`` characters (with …) so that any answer fits a Telegram message, HTML-escaped
    (:func:`name` with another limit)."""
    return name(raw, limit)


_SUIT_MSG = {Suit.DOTS: N_("{n} Dot"), Suit.BAMBOO: N_("{n} Bam"), Suit.CHARACTERS: N_("{n} Crak")}
_DRAGON_MSG = {Tile.WHITE: N_("White"), Tile.GREEN: N_("Green"), Tile.RED: N_("Red")}


def tile_label(tile: Tile, tr: Translator) -> str:
    """A tile in words: ``5条`` / ``中`` in Chinese, ``5 Bam`` / ``Red`` in English (no emoji)."""
    if tile.suit is Suit.DRAGONS:
        return tr.gettext(_DRAGON_MSG[tile])
    return tr.gettext(_SUIT_MSG[tile.suit]).format(n=tile.number)


def tiles_label(tiles: Iterable[Tile], tr: Translator, sep: str = " ") -> str:
    """Several tiles in words, in the given order."""
    return sep.join(tile_label(t, tr) for t in tiles)


def fan_label(fan: Fan | str, tr: Translator) -> str:
    """A 番 in the reader's language, HTML-safe: its Chinese or English name from the engine's one
    table (:class:`engine.fans.Fan`; Chinese readers get the Chinese name, every other language the
    English one).  A name the engine does not know (an old ledger row) is shown as it is, escaped."""
    try:
        known = Fan.of(fan)
    except ValueError:
        return esc(fan)
    return esc(known.zh if tr.lang.startswith("zh") else known.en)


_PRESETS = {
    "standard": N_("Standard"),
    "xiangyang": N_("Xiangyang"),
    "suizhou": N_("Suizhou"),
    "zaoyang": N_("Zaoyang"),
    "shiyan": N_("Shiyan"),
    "nocap": N_("No cap"),
    "two_seats": N_("Two seats"),
    "four_seats": N_("Four seats"),
    "kaxinwu": N_("Ka Xin Wu"),
}

_GAMES = {"kawuxing": N_("Ka Wu Xing (卡五星)"), "kaxinwu": N_("Ka Xin Wu (卡心五)")}


def game_name(game: str, tr: Translator) -> str:
    """The name of a game (``kawuxing`` 卡五星, ``kaxinwu`` 卡心五) in the reader's language: a proper
    name, the Chinese in brackets in English (docs/glossary.md)."""
    msg = _GAMES.get(game)
    return esc(game) if msg is None else tr.gettext(msg)


def table_size(game: str, players: int, members: int, tr: Translator) -> str:
    """Which game a table plays and at how many seats, e.g. "Ka Wu Xing (卡五星) · 3 seats"; a table
    that takes one member more than it seats says that they take turns sitting out
    (docs/rules.md §A2.1)."""
    seats = tr.ngettext("{n} seat", "{n} seats", players).format(n=players)
    line = f"{game_name(game, tr)} · {seats}"
    if members > players:
        line += " · " + tr.gettext("a fourth member may join: each hand one sits out")
    return line


def rules_label(rules: object, tr: Translator) -> str:
    """A table's rules in words: the preset's name, marked as changed when options differ."""
    if isinstance(rules, str):
        msg = _PRESETS.get(rules)
        return tr.gettext(msg) if msg else esc(rules)
    if isinstance(rules, dict):
        base = rules_label(str(rules.get("preset", "standard")), tr)
        changed = [k for k in rules if k not in ("preset", "players")]  # the table size is no rule change
        return tr.gettext("{preset} (changed)").format(preset=base) if changed else base
    return tr.gettext("Standard")


def signed(n: int) -> str:
    """``+4`` / ``-4`` / ``0``."""
    return f"{n:+d}" if n else "0"


_REASONS: dict[Reason, str] = {
    Reason.HAND_OVER: N_("This hand is over."),
    Reason.NOT_YOUR_TURN: N_("It is not your turn."),
    Reason.CLAIM_PENDING: N_("Wait: a claim on the last discard is being decided."),
    Reason.NO_CLAIM_PENDING: N_("There is nothing to claim now."),
    Reason.ALREADY_ANSWERED: N_("You have already answered."),
    Reason.NOTHING_TO_CLAIM: N_("You cannot claim this tile."),
    Reason.TILE_NOT_IN_HAND: N_("That tile is not in your hand."),
    Reason.NOT_COMPLETE: N_("Your hand is not complete."),
    Reason.NO_DRAWN_TILE: N_("You cannot self-draw without a drawn tile."),
    Reason.PIHU_CANNOT_WIN_ON_DISCARD: N_("A plain hand (×1) cannot win on a discard."),
    Reason.QIHU_2FAN: N_("These rules need ×2 to win."),
    Reason.LOUHU: N_("You passed a win: you cannot win on a discard until your next draw."),
    Reason.CANNOT_PONG: N_("You cannot pong this tile."),
    Reason.CANNOT_KONG: N_("You cannot kong this tile."),
    Reason.GUOSHOU_PENG: N_("You declined this pong; wait for your next draw."),
    Reason.LAST_DISCARD_WIN_ONLY: N_("The last discard can only be won."),
    Reason.KONG_ON_LAST_TILE: N_("No kong when the wall is empty."),
    Reason.KONG_NOT_ALLOWED_AFTER_PONG: N_("No kong right after a pong."),
    Reason.BUGANG_NOT_IMMEDIATE: N_("An added kong must be made right when you draw the tile."),
    Reason.LIANGDAO_CANNOT_PONG: NG_("After laying down you cannot pong."),
    Reason.LIANGDAO_MUST_DISCARD_DRAWN: NG_("After laying down you discard the tile you draw."),
    Reason.LIANGDAO_KONG_FORBIDDEN: NG_("After laying down this kong is not allowed."),
    Reason.LIANGDAO_KONG_CHANGES_WAITS: N_("This kong would change your waits."),
    Reason.ALREADY_LIANGDAO: NG_("You have already laid down."),
    Reason.NOT_READY_FOR_LIANGDAO: N_("After that discard your hand is not ready."),
    Reason.LIANGDAO_WALL_TOO_SHORT: NG_("Too few tiles left in the wall to lay down."),
    Reason.PROTECTED_TILE: NG_("You may not discard a tile that a player who laid down waits on."),
    Reason.KONG_MANDATORY: N_("You must make the kong."),
    Reason.WIN_MANDATORY: N_("You must declare the win."),
    Reason.BAD_REVEAL: NG_("Those tiles cannot be shown to lay down."),
}


def reason_text(reason: Reason, tr: Translator, *, kaxinwu: bool = False) -> str:
    """A polite one-line refusal for an illegal action; ``kaxinwu``: the table plays 卡心五, whose
    Chinese names the act of laying down 廊起, not 亮倒 (docs/rules.md §B)."""
    msg = _REASONS.get(reason)
    return tr.gettext_for(kaxinwu, msg) if msg is not None else tr.gettext(N_("That move is not allowed now."))


_FAULTS: dict[RevealFault, str] = {
    RevealFault.NOT_IN_HAND: N_("Those tiles are not in your hand."),
    RevealFault.WHOLE_HAND_ONLY: N_("Under these rules the whole hand is shown."),
    RevealFault.KOU_TRIPLETS_ONLY: N_("Only concealed triplets (three identical tiles) may stay hidden."),
    RevealFault.KOU_CHANGES_WAITS: N_("Hiding these triplets would change your waits: show them."),
    RevealFault.HIDDEN_INCOMPLETE: N_(
        "The hidden tiles must split into complete sets and pairs: show the tiles that are not part of one."
    ),
    RevealFault.NO_WAIT: N_(
        "No tile would complete the shown tiles with the hidden ones: show the tiles your wait is read from."
    ),
}


def reveal_fault_text(fault: RevealFault | None, tr: Translator, *, kaxinwu: bool = False) -> str:
    """Why a 亮倒 / 廊起 reveal choice breaks the rules, in one line (docs/rules.md §A9.2, §E#48: the
    hidden tiles must complete, the waits are read from the shown shape); a generic refusal for None
    (a choice the engine does not offer now for another reason)."""
    msg = _FAULTS.get(fault) if fault is not None else None
    return tr.gettext(msg) if msg is not None else reason_text(Reason.BAD_REVEAL, tr, kaxinwu=kaxinwu)
