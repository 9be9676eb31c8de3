"""Four members at a 3-seat table: who sits the next hand out, and who deals it (docs/rules.md §A2.1, §E#34).

Pure functions of the hand just played.  Members are numbered by their place in the hand just
played: ``0 .. players-1`` are its seats in turn order and ``players`` is the member who sat it out,
who sits between the last seat and seat 0 (the four keep one order round the table, so play always
passes to the next member present).  :func:`next_lineup` answers with the members who play the
next hand, in that order round the table starting after the member who sits out, so the shell only
renumbers its chairs; option ``four_players`` (:class:`~engine.rules.FourPlayers`) decides:

* ``winner_sits_out`` ("如有四人便是嬴家休息一轮", seed 004): the winner sits out; after 一炮双响 the
  first winner in turn order after the discarder.  The dealer is the one of A15 (the discarder after
  two winners); a winner who would deal (A15.1) rests, so the next member after him deals.
* ``bawangzhuang`` (霸王庄, "庄家直至输牌才下庄"): the dealer keeps the deal and his place until he
  loses; when the deal passes (A15), the old dealer steps down and sits out, the new one deals.
* after a hand that sends nobody out (a 荒庄, or under 霸王庄 a dealer who keeps the deal), the member
  who sat out comes back and the next member after him in order sits out, skipping the next dealer —
  so nobody sits out two hands running and the rest goes round the table.
* a member who leaves the table (removed by an administrator, docs/rules.md §A2.1 "In the bot")
  leaves the others ``players``: nobody sits out, they keep their order round the table, and the
  dealer of A15 deals unless he left, when the next member after him round the table deals.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from .rules import FourPlayers, RuleSet
from .views import HandResultView

__all__ = ["Lineup", "next_lineup"]


@dataclass(frozen=True, slots=True)
class Lineup:
    """The next hand at a table of ``players + 1`` members: ``seats[i]`` = the member (numbered as in
    the module docstring) at seat ``i``; ``sitting_out`` = the member who sits out (None when a
    member left and the others just fill the seats); ``dealer`` = the dealing seat of the next
    hand (an index into ``seats``)."""

    seats: tuple[int, ...]
    sitting_out: int | None
    dealer: int


def next_lineup(rules: RuleSet, dealer: int, result: HandResultView, leaving: AbstractSet[int] = frozenset()) -> Lineup:
    """Who plays, sits out and deals the hand after ``result`` (played with ``dealer`` at seat
    ``dealer``) when ``rules.players + 1`` members share the table (docs/rules.md §A2.1, §E#34).

    ``leaving``: the members (numbered as in the module docstring) who leave the table before the
    next hand.  When exactly one leaves, the other ``players`` play it in their order round the
    table starting at member 0, nobody sits out (``sitting_out`` None), and the next dealer is
    ``result.next_dealer`` (A15) or, if he left, the next member after him who stays.

    Raises ValueError under ``four_players = off`` (the table takes no extra member), and when
    ``leaving`` names a member who is not at the table or leaves fewer than ``players`` (the shell
    fills such a table with AI seats, docs/rules.md §A2.1)."""
    if rules.four_players is FourPlayers.OFF:
        raise ValueError("four_players = off: the table seats no extra member")
    n = rules.players
    members = n + 1
    next_dealer = result.next_dealer
    if leaving:
        staying = [m for m in range(members) if m not in leaving]
        if len(staying) != n or not set(leaving) <= set(range(members)):
            raise ValueError(f"members {sorted(leaving)} cannot leave a table of {members}: {n} must stay")
        while next_dealer not in staying:  # he left: the next member round the table deals
            next_dealer = (next_dealer + 1) % members
        return Lineup(seats=tuple(staying), sitting_out=None, dealer=staying.index(next_dealer))
    order = [(n + k) % members for k in range(members)]  # round the table from the member who sat out
    out: int | None = None
    if rules.four_players is FourPlayers.WINNER_SITS_OUT and result.winners:
        seats = sorted(w.seat for w in result.winners)
        source = result.winners[0].from_seat
        start = 0 if source is None else source + 1
        out = min(seats, key=lambda s: (s - start) % n)
    elif rules.four_players is FourPlayers.BAWANGZHUANG and next_dealer != dealer:
        out = dealer
    if out is None:  # nobody was sent out: the next member after the one who sat out, not the dealer
        out = next(m for m in order[1:] if m != next_dealer)
    after = [(out + 1 + k) % members for k in range(members - 1)]  # the others, round from the one out
    if next_dealer == out:  # a winner who would deal rests: the next member deals
        next_dealer = after[0]
    return Lineup(seats=tuple(after), sitting_out=out, dealer=after.index(next_dealer))
