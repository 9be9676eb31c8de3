"""The ``normal`` AI's 亮倒 decision at 2, 3 and 4 seats: the current rule against the one it replaced.

Subcommands (``python benchmarks/bench_liangdao.py <cmd> [--rules R] [--hands N] [--jobs J] [--seed S]``):

``compare``
    The current ``normal`` against the *old* ``normal`` (the same AI with the 亮倒 rule it had before
    the rule was weighed per table size, kept here as :func:`old_declare` and nowhere in the
    engine), paired: every deal is played once with the old AI at every seat, then once per seat
    with that seat's AI replaced by the current one (the others old), and the seat's points are
    compared with its points in the all-old hand.  Hands where the two AIs decide alike are equal,
    so the difference measures the rule alone.  Prints new - old in points per seat-hand with a 95%
    interval (over deals) and each side's 亮倒 rate per seat-hand.  ``--rules`` takes ``two_seats``,
    ``standard``, ``four_seats``, ``kaxinwu`` or any ``--rules`` of ``simulate``; ``--deals N``.
``tune --a JSON [--b JSON]``
    The same with the current ``normal`` given ``Tuning`` fields ``--a`` (JSON, e.g.
    ``'{"liangdao_seat_cost": [12, 1, 0.3]}'``), against the old rule or, with ``--b``, against the
    current ``normal`` given those fields (variant against variant).

Results: see README.md, section "AI levels" (the figures and the commands that reproduce them).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.ai import Level, Tuning, choose_action
from engine.ai import players as ai_players
from engine.ai.selfplay import Agent, play_hand
from engine.cli_io import rules_argument
from engine.game.actions import Action
from engine.rules import RuleSet, Ruleset
from engine.views import SeatView


def old_declare(ctx: Any, info: tuple[float, int, float], tuning: Tuning) -> bool:
    """The ``normal`` level's 亮倒 rule before it was tuned per seat count (a verbatim copy of the
    engine's ``_declare`` of that time): the :class:`~engine.ai.Tuning` formula with the same cost
    weight at every table, which declared in 72-76% of the seat-hands at 2 seats and never at 4."""
    _, live, value = info
    rules = ctx.rules
    if rules.ruleset is Ruleset.KAXINWU:
        return True
    if live <= 0:
        return False
    cap = rules.cap_for(0) or 1 << 20
    unseen_total = sum(ctx.unseen)
    wall = ctx.view.public.wall_remaining
    seats = len(ctx.view.public.seats)
    others = seats - 1
    draws = (wall + seats - 1) // seats
    p = live / max(unseen_total, 1)
    p_self = 1.0 - (1.0 - p) ** draws
    p_any = 1.0 - (1.0 - p) ** (seats * draws)
    double = rules.values.liangdao
    v_open = min(value * double, cap)
    v_hidden = min(value, cap)
    gain = p_self * others * (v_open - v_hidden)
    if value < 2:
        gain += tuning.liangdao_ron * (p_any - p_self) * v_open
    else:
        gain -= tuning.liangdao_hidden_ron * (p_any - p_self) * v_hidden
    cost = tuning.liangdao_other_win * (1.0 - p_self) * others
    if any(s.liangdao for s in ctx.view.public.seats if s.seat != ctx.view.seat):
        cost *= 1.5
    return bool(gain - cost > tuning.liangdao_margin)


@contextmanager
def _old_rule() -> Iterator[None]:
    """The engine's ``normal`` with :func:`old_declare` for the duration (one process, one decision)."""
    new = ai_players._declare
    ai_players._declare = old_declare
    try:
        yield
    finally:
        ai_players._declare = new


def agents(rules: RuleSet, tuning: Tuning | None) -> tuple[Agent, Agent]:
    """(current normal with ``tuning``, old normal) as self-play agents."""

    def new_agent(view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action:
        return choose_action(view, legal, Level.NORMAL, rng, rules=rules, tuning=tuning)

    def old_agent(view: SeatView, legal: Sequence[Action], rng: random.Random) -> Action:
        with _old_rule():
            return choose_action(view, legal, Level.NORMAL, rng, rules=rules)

    return new_agent, old_agent


def _tuning(fields: dict[str, Any]) -> Tuning:
    if "liangdao_seat_cost" in fields:
        fields = {**fields, "liangdao_seat_cost": tuple(fields["liangdao_seat_cost"])}
    return Tuning(**fields)


def _job(args: tuple[str, dict[str, Any], dict[str, Any] | None, int, int, str]) -> list[tuple[float, int, int]]:
    """Deals ``lo .. hi - 1``: per deal, (sum over seats of new - old points, 亮倒 of the new seat
    summed over seats, 亮倒 of the same seat in the all-old hand summed over seats)."""
    rules_text, a, b, lo, hi, seed = args
    rules = rules_argument(rules_text)
    new, old = agents(rules, _tuning(a) if a else None)
    if b is not None:
        old = agents(rules, _tuning(b))[0]
    n = rules.players
    out = []
    for deal in range(lo, hi):
        deal_seed = f"{seed}/{deal}"
        dealer = deal % n
        base, _, _ = play_hand(rules, [old] * n, deal_seed, random.Random(deal_seed), dealer=dealer)
        assert base.result is not None
        diff = 0.0
        declared_new = declared_old = 0
        for seat in range(n):
            by_seat = [new if i == seat else old for i in range(n)]
            state, _, _ = play_hand(rules, by_seat, deal_seed, random.Random(deal_seed), dealer=dealer)
            assert state.result is not None
            diff += state.result.deltas[seat] - base.result.deltas[seat]
            declared_new += state.seats[seat].liangdao
            declared_old += base.seats[seat].liangdao
        out.append((diff, declared_new, declared_old))
    return out


def run(rules_text: str, a: dict[str, Any], b: dict[str, Any] | None, deals: int, seed: str, jobs: int) -> int:
    """Play the paired match and print one line."""
    rules = rules_argument(rules_text)
    n = rules.players
    per = -(-deals // jobs)
    tasks = [(rules_text, a, b, lo, min(lo + per, deals), seed) for lo in range(0, deals, per)]
    t0 = time.perf_counter()
    if len(tasks) == 1:
        parts = [_job(tasks[0])]
    else:
        with multiprocessing.Pool(len(tasks)) as pool:
            parts = pool.map(_job, tasks)
    rows = [r for part in parts for r in part]
    # per deal: the mean over its n seat-hands; the CI is over deals (the seats of a deal share a wall)
    per_deal = [d / n for d, _, _ in rows]
    mean = sum(per_deal) / len(per_deal)
    var = sum((x - mean) ** 2 for x in per_deal) / (len(per_deal) - 1)
    ci = 1.96 * math.sqrt(var / len(per_deal))
    seat_hands = len(rows) * n
    changed = sum(1 for d, _, _ in rows if d)
    print(
        f"{rules_text} ({n} seats) {json.dumps(a) if a else 'defaults'}"
        f"{' vs ' + json.dumps(b) if b is not None else ' vs the old rule'}: {len(rows)} deals x {n} seats, "
        f"new - old {mean:+.3f} ±{ci:.3f} points/hand; 亮倒 per seat-hand new "
        f"{100 * sum(r[1] for r in rows) / seat_hands:.1f}% old {100 * sum(r[2] for r in rows) / seat_hands:.1f}%; "
        f"deals whose result changed {100 * changed / len(rows):.0f}%; {time.perf_counter() - t0:.0f} s",
        flush=True,
    )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("cmd", choices=("compare", "tune"))
    ap.add_argument("--rules", default="standard")
    ap.add_argument("--a", default="{}", help="tune: Tuning fields of the current normal (JSON)")
    ap.add_argument("--b", default=None, help="tune: Tuning fields of the opponents (JSON; default: the old rule)")
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", default="liangdao")
    args = ap.parse_args(argv)
    a = json.loads(args.a) if args.cmd == "tune" else {}
    b = json.loads(args.b) if args.cmd == "tune" and args.b is not None else None
    return run(args.rules, a, b, args.deals, args.seed, args.jobs)


if __name__ == "__main__":
    sys.exit(main())
