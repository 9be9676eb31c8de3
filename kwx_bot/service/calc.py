"""``/calc``: the in-chat scoring calculator for hands played at a real table.

The engine reads the question (:func:`engine.question.parse_question`, where its syntax is
documented) and scores it (:func:`engine.scoring.score_win`, through :mod:`.game`); the words put
the outcome into one HTML message (:mod:`kwx_bot.words.calc`).  No exception escapes for bad input:
a malformed question gets a polite message saying what is wrong.
"""

from __future__ import annotations

from ..words.calc import CalcResult, calc_usage, problem_text, render_calc
from ..words.i18n import Translator
from . import game

__all__ = ["calc", "calc_reply"]


def calc(text: str, rules: game.RuleSet) -> CalcResult:
    """Parse and score a ``/calc`` question under ``rules`` (the group's; or the game it names,
    docs/rules.md §B for 卡心五) at the rules' number of seats.  A win refused on a discard or a
    robbed kong is also scored as a self-draw (what it would have made); a hand that is not
    complete gets its waits (or shanten).  Raises :class:`~engine.question.QuestionError`."""
    question, used = game.under_rules(game.parse_question(text), rules)
    score = game.score_question(question, used)
    alt = None
    if score.complete and not score.legal and question.win_by is not game.WinBy.SELF_DRAW:
        alt = game.score_question(question.as_self_draw(), used)
    waits, shanten = game.waits_before_win(question) if not score.complete else ((), 0)
    return CalcResult(question, used, score, alt, waits, shanten)


def calc_reply(text: str, rules: game.RuleSet, tr: Translator) -> str:
    """The whole ``/calc`` answer (HTML, ≤ 4096 characters) for the command's text.

    Empty text gives the usage; malformed text gives a polite explanation (never an exception).
    """
    stripped = game.COMMAND.sub("", text.strip(), count=1).strip()
    if not stripped:
        return calc_usage(tr)
    try:
        result = calc(stripped, rules)
    except game.QuestionError as exc:
        return "\n".join([problem_text(exc, tr), tr.gettext("Send /calc without anything else for the usage.")])
    return render_calc(result, tr)
