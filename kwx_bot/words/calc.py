"""``/calc``'s answer in words: the scored question (:class:`CalcResult`) or what is wrong with it.

The question is read by the engine (:mod:`engine.question`, where its syntax is documented) and
scored by the service (:mod:`kwx_bot.service.calc`); this module only words the outcome, in the
reader's language: :func:`render_calc` the 番 with their values, the multiplier and who pays whom;
:func:`problem_text` a malformed question; :func:`calc_usage` the usage.  One HTML message under
4096 characters each.  The 番 and their values are the engine's (``WinScore.fan_values``); nothing
is recomputed here.

Seats in the answer (docs/rules.md §0.3): W = the winner, D = the discarder (or the robbed player), X = the
third player on a discard (and Y the fourth at four seats); on a self-draw the payers are X, the next
player after the winner (下家), Y, the previous one (上家), and at four seats O, the one opposite (对家).
Points are 底金 × capped M (docs/rules.md §A11, §A12).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.fans import Fan
from engine.question import Problem, QuestionError, WinQuestion
from engine.rules import STANDARD_PLAYERS, RuleSet
from engine.scoring import IllegalReason, WinBy, WinScore
from engine.tiles import Tile, format_tiles

from .i18n import N_, Translator
from .texts import esc, fan_label, quote, signed

__all__ = ["MESSAGE_LIMIT", "PROBLEMS", "CalcResult", "calc_usage", "problem_text", "render_calc"]

MESSAGE_LIMIT = 4096

PROBLEMS: dict[Problem, str] = {
    Problem.UNEXPECTED_CHAR: N_(
        "“{token}”: unexpected “{char}”. Tiles are digits followed by a suit letter, like 123p 46s 5z."
    ),
    Problem.NO_SUIT_LETTER: N_(
        "“{token}”: the digits {digits} have no suit letter. Write p (筒), s (条) or z (dragons) after them."
    ),
    Problem.NOT_A_SUIT: N_(
        "“{token}”: “{letter}” is not a suit. Use p for dots (筒), s for bamboo (条), z for dragons "
        "(5z 白, 6z 發, 7z 中)."
    ),
    Problem.NO_TILE_ZERO: N_("“{token}”: there is no tile 0."),
    Problem.NO_WINDS: N_("“{token}”: only 5z (白), 6z (發) and 7z (中) exist; Ka Wu Xing (卡五星) has no winds."),
    Problem.NOT_NOTATION: N_("“{token}” is not tile notation: {detail}"),
    Problem.MELD_KIND: N_("“{token}”: unknown meld kind. Use pong, kong, concealed or added (碰, 直杠, 暗杠, 补杠)."),
    Problem.MELD_SHAPE: N_(
        "“{token}”: a pong is 3 copies of one tile and a kong 4 (like pong:111p or kong:8888p); there are no runs."
    ),
    Problem.BRACKET_MELD: N_("“{token}”: write a meld like [碰 111p] or [暗杠 2222s]."),
    Problem.HOW_CONTRADICTED: N_("“{word}” contradicts how the tile was won; name only one of self, discard, rob."),
    Problem.ONE_GAME: N_("“{word}”: name only one game, kawuxing (卡五星) or kaxinwu (卡心五)."),
    Problem.NOT_UNDERSTOOD: N_("I do not understand “{word}”."),
    Problem.LIANGDAO_WHO: N_("“{token}”: say who laid down: w (winner), d (discarder), both, x or y."),
    Problem.ONE_WIN_TILE: N_("“{token}”: give exactly one winning tile, like win:5s."),
    Problem.BASE: N_("“{token}”: the base stake (底金) is a whole number from 1 up."),
    Problem.CAP: N_("That cap is not known: use none, 8, 8_sl16, 16 or 32."),
    Problem.PLAYERS: N_("“{token}”: a table has 2, 3 or 4 players."),
    Problem.TOO_MANY_MELDS: N_("A hand has at most 4 melds; you gave {n}."),
    Problem.NO_TILES: N_("Give the tiles in hand, then the winning tile, e.g. /calc 123p789p234s46s88s 5s discard"),
    Problem.TILE_COUNT: N_(
        "You wrote {n} tiles and {k} meld(s). With {k} meld(s) write {want} tiles in hand and then "
        "the winning tile: {total} tiles in all (the last one written is the winning tile)."
    ),
    Problem.TILE_COUNT_WIN: N_("You wrote {n} tiles in hand besides win:{tile}; with {k} meld(s) the hand has {want}."),
    Problem.FIVE_COPIES: N_(
        "There are {n} copies of {tile} (hand, melds and winning tile together); a set has only 4."
    ),
    Problem.ROBBED_TILE_HELD: N_(
        "A robbed kong's tile {tile} cannot also be in the winner's hand or melds: the other three copies "
        "are in the robbed player's pong."
    ),
    Problem.SELF_DRAW_DISCARDER: N_("“{token}”: a self-draw has no discarder. Use laid:x or laid:y for a payer."),
    Problem.NO_DRAGONS: N_("{tile} is not used under these rules: they have no dragons."),
    Problem.SUIT_NOT_IN_PLAY: N_("{tile} is not used under these rules: the suits in play are {suits}."),
    Problem.SEATS_ON_DISCARD: N_(
        "“{token}”: on a discard the seats are w (winner), d (discarder) and x (the third player)."
    ),
    Problem.SEATS_AT_TABLE: N_("“{token}”: at this table the seats are {seats}."),
    Problem.PLAYERS_NOT_ALLOWED: N_("These rules cannot be played by {n} players."),
    Problem.CANNOT_SCORE: N_("That hand cannot be scored: {detail}"),
}
"""The sentence of each :class:`~engine.question.Problem` (a gettext msgid with the error's
``{params}``)."""


def problem_text(error: QuestionError, tr: Translator) -> str:
    """What is wrong with a question, in the reader's language (HTML); a quoted piece of the input is
    shown as :func:`~kwx_bot.words.texts.quote` shows it (no bidi or invisible controls, cut to
    :data:`~kwx_bot.words.texts.QUOTE_CHARS` characters, so the reply always fits a Telegram
    message)."""
    text = tr.gettext(PROBLEMS[error.problem])
    return text.format(**{k: quote(str(v)) for k, v in error.params.items()}) if error.params else text


@dataclass(frozen=True, slots=True)
class CalcResult:
    """A scored ``/calc`` question: the question, the rules used and the engine's :class:`WinScore`.

    ``as_self_draw``: for a discard/rob win refused because M < 2, the same hand scored as a
    self-draw (so the answer can say what it would have paid).  ``waits`` / ``shanten``: for a hand
    that is not complete, the engine's waits of the tiles before the winning tile, or (no waits) its
    shanten number.
    """

    query: WinQuestion
    rules: RuleSet
    score: WinScore
    as_self_draw: WinScore | None = None
    waits: tuple[Tile, ...] = ()
    shanten: int = 0

    @property
    def deltas_by_role(self) -> dict[str, int]:
        """Points per role letter (``{"W": 2, "D": -2, "X": 0}``); all 0 when not a legal win."""
        return dict(zip(self.query.roles, self.score.deltas, strict=True))

    @property
    def multiplier_by_role(self) -> dict[str, int]:
        """Uncapped M per paying role."""
        return {self.query.roles[seat]: m for seat, m in sorted(self.score.multiplier.items())}


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


def _role_names(query: WinQuestion, tr: Translator) -> dict[str, str]:
    table = {WinBy.SELF_DRAW: _ROLE_SELF, WinBy.DISCARD: _ROLE, WinBy.ROB_KONG: _ROLE_ROB}[query.win_by]
    if query.seats == 2 and query.win_by is WinBy.SELF_DRAW:
        table = {**table, "X": N_("other player")}
    return {role: tr.gettext(table[role]) for role in query.roles}


def _hand_text(query: WinQuestion) -> str:
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
    if result.waits:
        lines.append(_("Before the winning tile it waits on: {tiles}.").format(tiles=" ".join(map(str, result.waits))))
    else:
        n = result.shanten
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
