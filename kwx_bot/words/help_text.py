"""``/help`` text and the command menus for ``setMyCommands``.

:func:`help_text` is one HTML message explaining every command; ``/help calc`` gives the ``/calc``
usage.  :func:`command_menu` lists ``(command, description)`` pairs per menu scope: what a player
sees in a private chat, in a group, and what group administrators additionally see.  Descriptions
are translated; commands are lowercase ASCII as Telegram requires (1–32 characters of ``a-z0-9_``,
descriptions 1–256 characters).
"""

from __future__ import annotations

import enum

from .calc import calc_usage
from .i18n import N_, Translator

__all__ = ["COMMANDS", "MenuScope", "command_menu", "help_text"]


class MenuScope(enum.Enum):
    """Where a command menu is shown (``BotCommandScopeAllPrivateChats`` / ``AllGroupChats`` /
    ``AllChatAdministrators``)."""

    PRIVATE = "private"
    GROUP = "group"
    ADMINS = "admins"


# (command, menu description, scopes); the order is the menu order.
COMMANDS: tuple[tuple[str, str, frozenset[MenuScope]], ...] = (
    ("new", N_("Open a table in this group"), frozenset({MenuScope.GROUP, MenuScope.ADMINS})),
    ("hand", N_("Send my hand message again"), frozenset({MenuScope.PRIVATE})),
    ("back", N_("Take my seat back from auto-play"), frozenset(MenuScope)),
    ("score", N_("Season standings (/score me: mine)"), frozenset(MenuScope)),
    ("stats", N_("Win rate, deal-ins, laying down and more as a picture (/stats me: mine)"), frozenset(MenuScope)),
    ("history", N_("The last hands (/history 20)"), frozenset({MenuScope.GROUP, MenuScope.ADMINS})),
    ("settle", N_("Fewest transfers to square the season"), frozenset({MenuScope.GROUP, MenuScope.ADMINS})),
    ("export", N_("The group's ledger as a CSV file"), frozenset({MenuScope.GROUP, MenuScope.ADMINS})),
    ("rules", N_("The table's rules in plain words"), frozenset({MenuScope.GROUP, MenuScope.ADMINS})),
    ("calc", N_("Score a hand: /calc 123p789p234s46s88s 5s discard"), frozenset(MenuScope)),
    ("verify", N_("Check a hand's deal: /verify N"), frozenset({MenuScope.GROUP, MenuScope.ADMINS})),
    ("replay", N_("Watch a finished hand again: /replay N"), frozenset({MenuScope.GROUP, MenuScope.ADMINS})),
    ("review", N_("My play of a hand against the AI's: /review N"), frozenset({MenuScope.GROUP, MenuScope.ADMINS})),
    ("settings", N_("Rules, base stake, timers, language, AI level (admins)"), frozenset({MenuScope.ADMINS})),
    ("season", N_("/season new starts a new season (admins)"), frozenset({MenuScope.ADMINS})),
    ("kill", N_("End the table; the unfinished hand is not scored (admins)"), frozenset({MenuScope.ADMINS})),
    ("kick", N_("Give a player's seat to an AI (admins)"), frozenset({MenuScope.ADMINS})),
    ("void", N_("/void N cancels hand N's points (admins)"), frozenset({MenuScope.ADMINS})),
    ("help", N_("How to play with this bot"), frozenset(MenuScope)),
)


def command_menu(tr: Translator, scope: MenuScope) -> list[tuple[str, str]]:
    """``(command, description)`` pairs for ``setMyCommands`` in one scope and language."""
    return [(cmd, tr.gettext(desc)) for cmd, desc, scopes in COMMANDS if scope in scopes]


def help_text(tr: Translator, topic: str = "") -> str:
    """The ``/help`` message (HTML); ``topic`` ``"calc"`` gives the ``/calc`` usage instead."""
    if topic.strip().lstrip("/").lower() == "calc":
        return calc_usage(tr)
    _ = tr.gettext
    return "\n".join(
        [
            _(
                "<b>Ka Wu Xing (卡五星)</b>: 3 players, 84 tiles (dots, bamboo and the three dragons), pong and kong "
                "but no chow."
            ),
            _("Your hand comes to you in a private chat with buttons; the group sees the table."),
            "",
            _("<b>Play</b>"),
            _("/new: open a table in this group; press Join (AI players can fill empty seats)."),
            _(
                "/new 2, /new 4: a table of two or four seats; /new kaxinwu: Ka Xin Wu (卡心五, e.g. /new kaxinwu 2). "
                "A three-seat table takes a fourth member: each hand one sits out."
            ),
            _("/hand: in the private chat, send your hand message again."),
            _("/back: take your seat back after auto-play (托管) took over."),
            "",
            _("<b>Scores</b>"),
            _("/score: this season's standings: points, hands, wins, deal-ins, biggest hand."),
            _("/score me: your standing in each of your groups (also in the private chat)."),
            _(
                "/stats: a picture of the season's numbers: win rate and self-draw share, deal-in rate, how often "
                "players laid down and won, points per hand, largest hand, most frequent pattern, running totals. "
                "/stats all: every season; /stats me: yours (in the private chat: over all your groups)."
            ),
            _("/history [n]: the last n hands (10 by default) with winner, patterns, multiplier and points."),
            _("/settle: the fewest transfers that square the season."),
            _("/export: the group's whole ledger as a CSV file (opens in Excel)."),
            _("/export N: hand N's record (every event, JSON) that <code>python -m engine play</code> replays."),
            _("/replay N: hand N as an animated picture: every discard, claim, kong and laying down in order."),
            _(
                "/review N: each player of hand N gets, privately, the decisions where the AI would have played "
                "otherwise and what they cost."
            ),
            _("/verify N: hand N's shuffle seed (once the hand is over) and how to re-derive its deal."),
            "",
            _("<b>Rules</b>"),
            _("/rules: this group's rules in plain words: base stake, cap, options, pattern values."),
            _("/calc: score a hand from a real table, e.g. /calc 123p789p234s46s88s 5s discard (/help calc)."),
            "",
            _("<b>Group admins</b>"),
            _("/settings: rule preset and options, base stake, timers, language, how strong the AI plays."),
            _("/season new: start a new season (the ledger keeps the old one)."),
            _("/kill: end the table; an unfinished hand is not scored."),
            _(
                "/kick: remove a player from the table; an AI takes the seat (at a table of four members "
                "it finishes the hand, then the other three play on)."
            ),
            _("/void N: cancel the points of hand N (as /history numbers it); the ledger keeps a correction."),
            "",
            _("/help: this help."),
        ]
    )
