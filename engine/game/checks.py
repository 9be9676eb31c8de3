"""Why an action is illegal now: the checks shared by ``decide`` and ``legal_actions`` (each answers
an :class:`~engine.game.actions.IllegalAction` with its reason, or None when the action is legal)."""

from __future__ import annotations

from ..analysis import is_complete_keys
from ..rules import LiangdaoKong
from ..scoring import IllegalReason, WinBy, WinScore
from ..tiles import MeldKind, Tile, counts_of, format_tiles
from .actions import Action, ActionKind, IllegalAction, Reason
from .basics import must_self_win, protected_mask
from .claims import claim_score, win_score
from .hands import keys_plus, liangdao_waits, liangdao_waits_kept, moved
from .reveal import reveal_problem
from .state import Phase, SeatState, State, WindowKind

__all__ = ["can_self_win", "claim_failure", "kong_check", "self_win_score", "turn_check", "validate"]


def validate(state: State, action: Action) -> None:
    """Raise :class:`IllegalAction` (with its :class:`Reason`) unless ``decide`` accepts ``action`` now."""
    err = _form_check(state, action)
    if err is None:
        err = _own_turn_check(state, action) if state.phase is Phase.TURN else _answer_check(state, action)
    if err is not None:
        raise err


def _form_check(state: State, action: Action) -> IllegalAction | None:
    """What is wrong with ``action`` whatever the seats hold: the hand's phase, the seat, the tile and
    reveal its kind needs (None = nothing)."""
    if state.phase is Phase.OVER:
        return IllegalAction(Reason.HAND_OVER, "the hand is over")
    if state.phase is Phase.DEAL:
        return IllegalAction(Reason.HAND_OVER, "the hand has not been dealt")
    seat_no = action.seat
    if not 0 <= seat_no < state.rules.players:
        return IllegalAction(Reason.BAD_SEAT, f"there is no seat {seat_no}")
    kind = action.kind
    if kind.takes_tile and action.tile is None:
        return IllegalAction(Reason.MISSING_TILE, f"{kind.value} needs a tile")
    if not kind.takes_tile and action.tile is not None:
        return IllegalAction(Reason.UNEXPECTED_TILE, f"{kind.value} takes no tile")
    if action.reveal is not None and kind is not ActionKind.LIANGDAO:
        return IllegalAction(Reason.BAD_REVEAL, f"{kind.value} shows no tiles (only 亮倒 names a reveal)")
    return None


def _own_turn_check(state: State, action: Action) -> IllegalAction | None:
    """Why ``action`` is illegal while the turn seat plays its turn (None = legal)."""
    kind = action.kind
    if kind in (ActionKind.PONG, ActionKind.KONG, ActionKind.PASS):
        return IllegalAction(
            Reason.NO_CLAIM_PENDING, f"there is no discard to {kind.value}: seat {state.turn} is playing its turn"
        )
    if action.seat != state.turn:
        return IllegalAction(Reason.NOT_YOUR_TURN, f"it is seat {state.turn}'s turn, not seat {action.seat}'s")
    return turn_check(state, action)


def _answer_check(state: State, action: Action) -> IllegalAction | None:
    """Why ``action`` is illegal as an answer to the open claim window (None = legal)."""
    seat_no = action.seat
    kind = action.kind
    window = state.window
    if window is None or state.phase not in (Phase.CLAIM, Phase.ROB):  # pragma: no cover - transient phases
        return IllegalAction(Reason.NOT_YOUR_TURN, "no seat is to act")
    what = "补杠" if window.kind is WindowKind.ROB else "discard"
    if kind.takes_tile:
        return IllegalAction(
            Reason.CLAIM_PENDING if seat_no in window.pending() else Reason.NOT_YOUR_TURN,
            f"seat {window.from_seat}'s {what} {window.tile} awaits answers (win / kong / pong / pass) from "
            f"seat(s) {', '.join(map(str, window.pending()))}",
        )
    option = window.option(seat_no)
    if option is None:
        return IllegalAction(Reason.NOTHING_TO_CLAIM, f"seat {seat_no} has no claim on {window.tile}")
    if window.answer(seat_no) is not None:
        return IllegalAction(Reason.ALREADY_ANSWERED, f"seat {seat_no} has already answered")
    if seat_no not in window.pending():
        return IllegalAction(
            Reason.NOTHING_TO_CLAIM, f"another seat claimed 胡 on {window.tile}; seat {seat_no}'s answer cannot matter"
        )
    if option.kong and state.rules.kong_mandatory and kind in (ActionKind.PASS, ActionKind.PONG):
        return IllegalAction(
            Reason.KONG_MANDATORY, f"有杠必杠: seat {seat_no} must 杠 {window.tile} (or 胡) (docs/rules.md §B)"
        )
    ok = (
        kind is ActionKind.PASS
        or (kind is ActionKind.WIN and option.win > 0)
        or (kind is ActionKind.KONG and option.kong)
        or (kind is ActionKind.PONG and option.pong)
    )
    return None if ok else claim_failure(state, seat_no, kind)


def self_win_score(state: State) -> WinScore | None:
    """The turn seat's 自摸 score if its hand is complete (None if not complete / nothing drawn)."""
    drawn = state.drawn
    seat = state.seats[state.turn]
    if drawn is None or not _completes(seat, drawn):
        return None
    concealed = list(seat.tiles())
    concealed.remove(drawn)
    return win_score(
        state,
        state.turn,
        tuple(concealed),
        drawn,
        WinBy.SELF_DRAW,
        None,
        after_kong=state.replacement,
        last_tile=state.wall_remaining == 0,
    )


def _completes(seat: SeatState, drawn: Tile) -> bool:
    """Whether the seat's turn hand is complete with ``drawn`` as its winning tile; a 亮倒 seat wins
    only on its published waits (after a partial reveal the shown shape fixes them, docs/rules.md §E#48)."""
    if not is_complete_keys(seat.keys, len(seat.melds)):
        return False
    return not seat.liangdao or drawn in seat.waits


def can_self_win(state: State) -> bool:
    """Whether the turn seat may declare 自摸 now (complete hand; under ``qihu_2fan`` worth ×2, §A8.1)."""
    seat = state.seats[state.turn]
    if state.drawn is None or not _completes(seat, state.drawn):
        return False
    if not state.rules.qihu_2fan:
        return True
    score = self_win_score(state)
    return score is not None and score.legal


def kong_check(state: State, kind: ActionKind, tile: Tile) -> IllegalAction | None:
    """Why the turn seat may not declare 暗杠/补杠 of ``tile`` now (None = it may)."""
    rules = state.rules
    i = state.turn
    seat = state.seats[i]
    name = "暗杠" if kind is ActionKind.CONCEALED_KONG else "补杠"
    if kind is ActionKind.CONCEALED_KONG:
        if seat.hand[tile] < 4:
            return IllegalAction(
                Reason.CANNOT_KONG if seat.hand[tile] else Reason.TILE_NOT_IN_HAND,
                f"暗杠 of {tile} needs all four {tile} in hand; seat {i} holds {seat.hand[tile]}",
            )
    else:
        if not seat.pong_of(tile):
            return IllegalAction(Reason.CANNOT_KONG, f"补杠 of {tile} needs an exposed 碰 of {tile}")
        if not seat.hand[tile]:
            return IllegalAction(Reason.TILE_NOT_IN_HAND, f"补杠: seat {i} holds no {tile}")
    if state.wall_remaining == 0:
        return IllegalAction(Reason.KONG_ON_LAST_TILE, "no kong when the wall is empty (docs/rules.md §A6.5)")
    if state.drawn is None and not rules.kong_after_peng:
        return IllegalAction(
            Reason.KONG_NOT_ALLOWED_AFTER_PONG,
            f"no {name} right after 碰: kongs wait for a turn with a draw (docs/rules.md §A6.3)",
        )
    if kind is ActionKind.ADDED_KONG and rules.bugang_immediate:
        fresh = (tile == state.drawn) if seat.liangdao else (tile in state.turn_draws)
        if not fresh:
            return IllegalAction(
                Reason.BUGANG_NOT_IMMEDIATE,
                f"补杠 of {tile} must be made on the turn the 4th {tile} is drawn, or never "
                "(docs/rules.md §A6.2, §E#42)",
            )
    if seat.liangdao:
        mode = rules.liangdao_kong
        if mode is LiangdaoKong.NONE or (
            mode is LiangdaoKong.ANPU_AND_BUGANG_ONLY and (kind is ActionKind.CONCEALED_KONG or tile != state.drawn)
        ):
            return IllegalAction(
                Reason.LIANGDAO_KONG_FORBIDDEN,
                f"{name} after 亮倒 is not allowed under liangdao_kong = {mode.value} (docs/rules.md §A9.5)",
            )
        n = 4 if kind is ActionKind.CONCEALED_KONG else 1
        if not liangdao_waits_kept(seat, tile, n, 1 if kind is ActionKind.CONCEALED_KONG else 0, state.drawn):
            return IllegalAction(
                Reason.LIANGDAO_KONG_CHANGES_WAITS,
                f"{name} of {tile} would change the 亮倒 waits {format_tiles(seat.waits)} (docs/rules.md §A9.5)",
            )
    elif kind is ActionKind.ADDED_KONG and protected_mask(state, i) >> tile & 1:
        return IllegalAction(
            Reason.PROTECTED_TILE,
            f"{tile} wins for a 亮倒 player: no 补杠 of it while you hold other tiles (liangdao_protect, A9.8)",
        )
    return None


def _can_kong(state: State) -> bool:
    """Whether the turn seat has any legal 暗杠 / 补杠 now."""
    seat = state.seats[state.turn]
    for t, n in enumerate(seat.hand):
        if n == 4 and kong_check(state, ActionKind.CONCEALED_KONG, Tile(t)) is None:
            return True
    return any(
        m.kind is MeldKind.PONG and seat.hand[m.tile] and kong_check(state, ActionKind.ADDED_KONG, m.tile) is None
        for m in seat.melds
    )


def turn_check(state: State, action: Action) -> IllegalAction | None:
    """Why the turn seat's own-turn ``action`` is illegal now (None = legal)."""
    rules = state.rules
    i = state.turn
    seat = state.seats[i]
    kind = action.kind
    tile = action.tile
    if kind is ActionKind.WIN:
        if state.drawn is None:
            return IllegalAction(Reason.NO_DRAWN_TILE, "自摸 needs a drawn tile; after 碰 you must discard")
        if not _completes(seat, state.drawn):
            return IllegalAction(Reason.NOT_COMPLETE, f"seat {i}'s hand is not a winning hand (docs/rules.md §A7)")
        if rules.qihu_2fan and not can_self_win(state):
            return IllegalAction(Reason.QIHU_2FAN, "under qihu_2fan even a 自摸 needs a multiplier of at least 2")
        return None
    assert tile is not None
    if kind in (ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG):
        if must_self_win(rules) and can_self_win(state):
            return IllegalAction(Reason.WIN_MANDATORY, "有胡必胡: a self-drawn win must be declared (docs/rules.md §B)")
        return kong_check(state, kind, tile)
    if must_self_win(rules) and can_self_win(state):
        return IllegalAction(Reason.WIN_MANDATORY, "有胡必胡: a self-drawn win must be declared (docs/rules.md §B)")
    if rules.kong_mandatory and _can_kong(state):
        return IllegalAction(
            Reason.KONG_MANDATORY, "有杠必杠: a possible kong must be declared first (docs/rules.md §B)"
        )
    # discard / liangdao
    if not seat.hand[tile]:
        return IllegalAction(Reason.TILE_NOT_IN_HAND, f"seat {i} holds no {tile}")
    if kind is ActionKind.DISCARD:
        if seat.liangdao and tile != state.drawn:
            return IllegalAction(
                Reason.LIANGDAO_MUST_DISCARD_DRAWN,
                f"after 亮倒 the drawn tile {state.drawn} is discarded (docs/rules.md §A4.3, §A9.3)",
            )
        if protected_mask(state, i) >> tile & 1:
            return IllegalAction(
                Reason.PROTECTED_TILE,
                f"{tile} wins for a 亮倒 player: discard another tile (liangdao_protect, docs/rules.md §A9.8)",
            )
        return None
    # liangdao
    if seat.liangdao:
        return IllegalAction(Reason.ALREADY_LIANGDAO, f"seat {i} has already declared 亮倒")
    if state.wall_remaining < rules.liangdao_min_wall:
        return IllegalAction(
            Reason.LIANGDAO_WALL_TOO_SHORT,
            f"亮倒 needs at least {rules.liangdao_min_wall} tiles in the wall; {state.wall_remaining} remain",
        )
    if protected_mask(state, i) >> tile & 1:
        return IllegalAction(
            Reason.PROTECTED_TILE,
            f"{tile} wins for a 亮倒 player: declare 亮倒 with another discard (liangdao_protect, docs/rules.md §A9.8)",
        )
    if not liangdao_waits(seat, tile):
        return IllegalAction(
            Reason.NOT_READY_FOR_LIANGDAO,
            f"after discarding {tile} the hand is not ready (听), so 亮倒 is not possible (docs/rules.md §A9.1)",
        )
    if action.reveal is not None:
        kept, _ = moved(seat, tile, -1)
        problem = reveal_problem(kept, counts_of(action.reveal), seat.melds, rules.liangdao_reveal)
        if problem is not None:
            return IllegalAction(Reason.BAD_REVEAL, f"showing {format_tiles(action.reveal)}: {problem}")
    return None


def claim_failure(state: State, seat_no: int, kind: ActionKind) -> IllegalAction:
    """Why ``seat_no`` may not answer ``kind`` in the open window (called only when it may not)."""
    window = state.window
    assert window is not None
    seat = state.seats[seat_no]
    t = window.tile
    if kind is ActionKind.WIN:
        keys = keys_plus(seat.keys, t, 1)
        if not is_complete_keys(keys, len(seat.melds)) or (seat.liangdao and t not in seat.waits):
            return IllegalAction(
                Reason.NOT_COMPLETE, f"{t} does not complete seat {seat_no}'s hand (docs/rules.md §A7)"
            )
        score = claim_score(state, seat_no, window)
        if score is not None and not score.legal:
            if score.illegal is IllegalReason.QIANGGANG_OFF:
                return IllegalAction(Reason.CANNOT_KONG, "robbing a kong is switched off (qianggang = false)")
            return IllegalAction(
                Reason.PIHU_CANNOT_WIN_ON_DISCARD,
                f"a win on {t} from seat {window.from_seat} is worth ×{score.discarder_multiplier}: "
                "a win on a discard needs at least ×2 (屁胡 cannot 捉炮, docs/rules.md §A8.2)",
            )
        return IllegalAction(
            Reason.LOUHU,
            "漏胡: you passed a win since your last draw, so you may not win this discard "
            "unless it is worth more (docs/rules.md §A8.3)",
        )
    if window.kind is WindowKind.ROB:
        return IllegalAction(
            Reason.CANNOT_PONG if kind is ActionKind.PONG else Reason.CANNOT_KONG,
            "a declared 补杠 can only be robbed (抢杠胡), not claimed for 碰/杠 (docs/rules.md §A6.6)",
        )
    if window.last:
        return IllegalAction(
            Reason.LAST_DISCARD_WIN_ONLY, "the last discard can only be claimed for 胡 (docs/rules.md §A5.4)"
        )
    if kind is ActionKind.PONG:
        if seat.liangdao:
            return IllegalAction(Reason.LIANGDAO_CANNOT_PONG, "a 亮倒 player may not 碰 (docs/rules.md §A5.3)")
        if seat.hand[t] < 2:
            return IllegalAction(Reason.CANNOT_PONG, f"碰 of {t} needs two {t} in hand")
        return IllegalAction(Reason.GUOSHOU_PENG, f"you declined 碰 of {t} since your last draw (guoshou_peng, A5.5)")
    # kong
    if seat.hand[t] < 3:
        return IllegalAction(Reason.CANNOT_KONG, f"直杠 of {t} needs three {t} in hand")
    if state.rules.liangdao_kong is not LiangdaoKong.WAITS_UNCHANGED:
        return IllegalAction(Reason.LIANGDAO_KONG_FORBIDDEN, "直杠 after 亮倒 is not allowed under these rules (A9.5)")
    return IllegalAction(
        Reason.LIANGDAO_KONG_CHANGES_WAITS, f"直杠 of {t} would change the 亮倒 waits (docs/rules.md §A9.5)"
    )
