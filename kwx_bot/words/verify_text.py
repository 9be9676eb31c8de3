"""Verifiable hands in words: the commitment at the deal, the seed after the hand, ``/verify``.

A hand dealt from a shuffle seed (docs/rules.md §A3.1) is published twice: at the deal the group's
table caption carries the commitment (SHA-256 of the seed, :func:`engine.game.shuffle.commitment`)
as its first :data:`SHOWN_PREFIX` hex digits (a phone shows them on one line), and once the hand is
over the result caption carries the seed itself.  ``/verify`` repeats both, the commitment whole, with
the command that re-derives every hand and the wall (``python -m engine deal``).  A hand that is
still in play shows only its commitment.  A prepared deal (tests, replays: hands and wall given, no
seed) says so.  All functions return HTML (Telegram's parse mode) in the reader's language.
"""

from __future__ import annotations

import json
import shlex
from typing import Any

from .i18n import Translator
from .texts import esc

__all__ = ["SHOWN_PREFIX", "add_line", "commitment_line", "deal_command", "seed_line", "verify_text"]

CAPTION_LIMIT = 1024

SHOWN_PREFIX = 12
"""Hex digits of the commitment the table caption shows (48 bits: enough to tell it from any other
at a glance); ``/verify`` shows all 64."""


def add_line(caption: str, line: str | None, limit: int = CAPTION_LIMIT) -> str:
    """``caption`` with ``line`` appended on its own line if the result fits Telegram's caption limit
    (``limit`` characters), else ``caption`` unchanged (``/verify`` still shows the line's facts)."""
    if not line or len(caption) + 1 + len(line) > limit:
        return caption
    return caption + "\n" + line


def commitment_line(tr: Translator, commitment: str | None, hand_no: int) -> str:
    """The table caption's line at the deal of hand ``hand_no``: the commitment's first
    :data:`SHOWN_PREFIX` hex digits and ``/verify N``, which shows it whole; or (``None``) that the deal
    was prepared."""
    if commitment is None:
        return tr.gettext("Prepared deal (no shuffle seed): nothing to verify.")
    return tr.gettext("🔒 Commitment <code>{prefix}…</code> · /verify {n}").format(
        prefix=esc(commitment[:SHOWN_PREFIX]), n=hand_no
    )


def seed_line(tr: Translator, seed: str | None, hand_no: int) -> str | None:
    """The result caption's line: the now revealed seed and where to check it (None without a seed)."""
    if seed is None:
        return None
    return tr.gettext("🔓 Seed: <code>{seed}</code> · check the deal: /verify {n}").format(seed=esc(seed), n=hand_no)


def deal_command(seed: str, dealer: int, rules: Any) -> str:
    """The shell command that re-derives the deal (plain text, quoted for a POSIX shell):
    ``python -m engine deal --seed S --dealer D`` plus ``--rules JSON`` unless the rules are standard."""
    words = ["python", "-m", "engine", "deal", "--seed", seed, "--dealer", str(dealer)]
    if rules not in (None, "standard"):
        words += ["--rules", rules if isinstance(rules, str) else json.dumps(rules, separators=(",", ":"))]
    return shlex.join(words)


def verify_text(
    tr: Translator,
    *,
    hand_no: int,
    over: bool,
    seed: str | None,
    commitment: str | None,
    dealer: int,
    rules: Any,
    table_id: int | None = None,
) -> str:
    """The ``/verify`` answer for hand ``hand_no`` (``table_id`` named when the group has several
    tables with that number).  ``over``: the hand is over (or was ended), so its seed may be shown;
    while it is in play only ``commitment`` is.  ``seed``/``commitment`` None: a prepared deal."""
    _ = tr.gettext
    head = _("<b>Hand {n}</b>").format(n=hand_no)
    if table_id is not None:
        head += " · " + _("table {t}").format(t=table_id)
    if seed is None or commitment is None:
        return head + "\n" + _(
            "This hand was dealt from prepared hands and wall (a test or a replay), not from a shuffle seed: "
            "there is nothing to verify."
        )  # fmt: skip
    lines = [
        head,
        _("Commitment (SHA-256 of the seed); the table's caption showed its first {n} characters at the deal:").format(
            n=SHOWN_PREFIX
        ),
        f"<code>{esc(commitment)}</code>",
    ]
    if not over:
        lines.append(_("The hand is still in play: its seed is shown once it is over."))
        return "\n".join(lines)
    lines += [
        _("Seed: <code>{seed}</code>").format(seed=esc(seed)),
        _("Check that the seed's SHA-256 is the commitment, then re-derive every hand and the wall:"),
        f"<code>{esc(deal_command(seed, dealer, rules))}</code>",
        _("(hands are listed by seat: the lobby's seat 1 first; the dealer's 14th tile is last)"),
    ]
    return "\n".join(lines)
