"""What the result picture says about a 卡心五 查叫 or 关死 (docs/rules.md §B): the title, why the hand
ended so, and who paid whom -- read from the engine's :class:`~engine.views.HandResultView`, never
recomputed from the hands."""

from __future__ import annotations

from collections.abc import Sequence

from engine.views import HandResultView

from .labels import Labels

__all__ = ["result_title", "transfers", "why_lines"]


def result_title(result: HandResultView, lb: Labels) -> str:
    """胡牌 for a win, 关死 (``outcome == "guansi"``), 查叫 for a 流局 with 被查叫 seats
    (``chajiao``), else 荒庄."""
    if result.outcome == "win":
        return lb.win
    if result.outcome == "guansi":
        return lb.guansi
    return lb.chajiao if result.chajiao else lb.draw


def why_lines(result: HandResultView, guansi_name: str, lb: Labels) -> list[str]:
    """The lines under the title of a 关死 (who, why, what he pays) or a 查叫 (who pays whom); none
    for another ending.  ``guansi_name``: the drawable name of the 关死 seat."""
    if result.outcome == "guansi" and result.guansi is not None:
        return [lb.guansi_why.format(name=guansi_name), lb.guansi_pays]
    if result.outcome == "draw" and result.chajiao:
        return [lb.chajiao_why]
    return []


def transfers(result: HandResultView) -> list[tuple[int, int, int]]:
    """The payments of a 关死 or 查叫 as ``(payer, payee, points of 底金)``, payer then payee order.

    关死: the 关死 seat alone pays, so every other seat's ``hand_deltas`` entry is what it received.
    查叫: each 被查叫 seat pays each 廊起 seat that seat's maximum multiplier -- one amount per 廊起
    seat, the same from every payer (docs/rules.md §B) -- so a 廊起 seat's gain split evenly over
    the payers is each payment; a gain that does not split evenly is not itemised (its total stands
    in the payments table).  Empty for other endings.
    """
    deltas: Sequence[int] = result.hand_deltas
    if result.outcome == "guansi" and result.guansi is not None:
        g = result.guansi
        return [(g, q, d) for q, d in enumerate(deltas) if q != g and d > 0]
    if result.outcome == "draw" and result.chajiao:
        k = len(result.chajiao)
        out = []
        for p in result.chajiao:
            for w, d in enumerate(deltas):
                if w not in result.chajiao and d > 0 and d % k == 0:
                    out.append((p, w, d // k))
        return out
    return []
