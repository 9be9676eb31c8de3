"""engine.game.legal: a legal 亮倒 carries the waits it leads to (docs/rules.md §A9.2, §E#48).

Random legal play over many deals; at every turn where 亮倒 is legal, each offered 亮倒 (the whole hand
and every partial reveal) is played out and its ``waits`` must be exactly the waits the resulting
``discarded`` event publishes, and the view of the declaring seat shows afterwards.
"""

from __future__ import annotations

import random

import pytest

from engine.game import ActionKind, Discarded, Phase, legal_actions, public_view, replay, start, step
from engine.rules import RuleSet

RULE_SETS = {
    "standard": RuleSet(),
    "kou": RuleSet.from_json({"liangdao_reveal": "kou"}),
    "minimal": RuleSet.from_json({"liangdao_reveal": "minimal"}),
    "kaxinwu": RuleSet.preset("kaxinwu"),
}


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_every_legal_liangdao_names_the_waits_it_publishes(name: str) -> None:
    rules = RULE_SETS[name]
    rng = random.Random(name)
    checked = partial = 0
    for hand in range(40):
        state = replay(start(rules, hand % rules.players, seed=f"{name}-{hand}"))
        while state.phase is not Phase.OVER:
            seat = state.to_act()[0]
            legal = legal_actions(state, seat)
            for a in legal:
                if a.kind is ActionKind.LIANGDAO:
                    after, events = step(state, a)
                    (declared,) = [e for e in events if isinstance(e, Discarded) and e.liangdao]
                    assert a.waits and a.waits == declared.waits, (a, declared)
                    assert public_view(after).seats[seat].waits == a.waits
                    checked += 1
                    partial += a.reveal is not None
                else:
                    assert a.waits == ()
            state = step(state, rng.choice(legal))[0]
    assert checked > 20
    if name in ("minimal", "kaxinwu"):
        assert partial > 0
