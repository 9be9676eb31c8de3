"""Message texts: lobby, private hand captions, the group's table / reveal / result captions.

All return HTML (names escaped by :func:`kwx_bot.words.texts.name`) within Telegram's limits (captions
<= 1024 characters: names are truncated, lists are short).  Private captions never mention another
seat's concealed tiles; group captions never mention any concealed tile except the revealed hand of
a 亮倒 seat (public by the rules, docs/rules.md §A9.2) and every hand after the hand (in the result picture).
Captions of hand messages change only with the player's own situation (turn, claim, waits), so
other players' routine turns do not force an edit of everybody's message; when the player has
something to do, the caption also tells what happened since their previous turn.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from engine.fans import Fan
from engine.game import Discarded, Event, Konged, Ponged
from engine.scoring import WinBy
from engine.tiles import MeldKind, Tile
from engine.views import HandResultView, Outcome, Phase, PublicView, WinView

from .i18n import N_, Translator
from .texts import fan_label, name, reveal_fault_text, signed, tile_label, tiles_label
from .ui import RevealChoice

__all__ = [
    "auto_line",
    "caption",
    "claim_line",
    "confirm_line",
    "danger_legend",
    "declared_line",
    "ended_caption",
    "hand_title",
    "liangdao_menu_lines",
    "lobby_text",
    "moment_lines",
    "over_line",
    "protected_legend",
    "result_caption",
    "reveal_caption",
    "reveal_lines",
    "since_last_turn",
    "table_caption",
    "turn_line",
    "waiting_line",
    "waits_line",
]

CAPTION_LIMIT = 1024


def _cut(text: str, limit: int = CAPTION_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def lobby_text(
    tr: Translator,
    *,
    title: str,
    seats: Sequence[str | None],
    rules: str,
    base: int,
    state: str,
    notes: Sequence[str] = (),
    table: str = "",
    players: int = 3,
    kaxinwu: bool = False,
) -> str:
    """The lobby message: the game and size (``table``, already in words, HTML-safe), rules (the
    same), the seats (None = free; ``players`` of them play a hand, a further one is a fourth
    member's, docs/rules.md §A2.1), what to do next.

    ``state``: ``"open"``, ``"started"``, ``"expired"`` or ``"closed"``.  ``notes`` are
    already-escaped extra lines (e.g. a player who must open a private chat first).  ``kaxinwu``: the
    table plays 卡心五 (docs/rules.md §B), so the lobby names that game.
    """
    _ = tr.gettext
    head = _("<b>Ka Xin Wu table</b> · {title}") if kaxinwu else _("<b>Ka Wu Xing table</b> · {title}")
    lines = [head.format(title=name(title, 40))]
    if table:
        lines.append(table)
    lines.append(_("Rules: {rules} · base stake {base}").format(rules=rules, base=base))
    for i, s in enumerate(seats):
        free = _("(free)") if i < players else _("(free: a fourth member)")
        lines.append(f"{i + 1}. " + (name(s) if s else free))
    lines.append("")
    if state == "open":
        lines.append(
            tr.ngettext(
                "Press Join to take a seat (the bot must be able to message you: open the private chat once). "
                "Start when {n} seat is taken; AI players can fill empty seats.",
                "Press Join to take a seat (the bot must be able to message you: open the private chat once). "
                "Start when {n} seats are taken; AI players can fill empty seats.",
                players,
            ).format(n=players)
        )
    elif state == "started":
        lines.append(_("The game is on."))
    elif state == "expired":
        lines.append(_("This lobby expired. Send /new to open a table."))
    else:
        lines.append(_("This table is closed. Send /new to open a table."))
    lines.extend(notes)
    return "\n".join(lines)


def since_last_turn(
    tr: Translator,
    events: Sequence[Event],
    seat: int,
    names: Sequence[str],
    *,
    last_discard: bool = True,
    langqi: bool = False,
) -> list[str]:
    """What happened at the table since ``seat``'s previous turn, for its hand caption: the other
    seats' claims and kongs and 亮倒 declarations in order (a 暗杠 without its tile: it is
    concealed), then (with ``last_discard``) the last discard and who made it.

    "Since the previous turn" means after the seat's own last discard (or since the deal, if it
    has not discarded yet); moves of the seat itself are not repeated.  Only public facts are
    named (docs/rules.md §A9.2 for a 亮倒 hand; no concealed tile ever).  ``langqi``: the table plays
    卡心五, whose 亮倒 is 廊起 (docs/rules.md §B).
    """
    _ = tr.gettext
    start = 0
    for i, e in enumerate(events):
        if isinstance(e, Discarded) and e.seat == seat:
            start = i + 1
    lines: list[str] = []
    last: Discarded | None = None
    for e in events[start:]:
        if isinstance(e, Discarded):
            last = e if e.seat != seat else None
            if e.liangdao and e.seat != seat:
                lines.append(tr.gettext_for(langqi, "{name} laid down.").format(name=name(names[e.seat])))
        elif isinstance(e, Ponged) and e.seat != seat:
            lines.append(_meld_line(tr, names, e.seat, MeldKind.PONG, e.tile, e.from_seat))
        elif isinstance(e, Konged) and e.seat != seat:
            tile = None if e.kind is MeldKind.CONCEALED_KONG else e.tile
            lines.append(_meld_line(tr, names, e.seat, e.kind, tile, e.from_seat))
    if last is not None and last_discard:
        lines.append(
            _("Last discard: {tile} by {name}.").format(tile=tile_label(last.tile, tr), name=name(names[last.seat]))
        )
    return lines


def _meld_line(
    tr: Translator, names: Sequence[str], seat: int, kind: MeldKind, tile: Tile | None, source: int | None
) -> str:
    """``seat``'s new 碰 or kong of ``tile`` (None: a 暗杠, told without its tile), claimed from
    ``source`` (a 碰 or a 直杠: the discarder)."""
    _ = tr.gettext
    who = name(names[seat])
    if kind is MeldKind.CONCEALED_KONG or tile is None:
        return _("{name} declared a concealed kong.").format(name=who)
    if kind is MeldKind.ADDED_KONG:
        return _("{name} added a kong of {tile}.").format(name=who, tile=tile_label(tile, tr))
    text = _("{name} ponged {tile} from {other}.") if kind is MeldKind.PONG else _("{name} konged {tile} from {other}.")
    other = name(names[source if source is not None else seat])
    return text.format(name=who, tile=tile_label(tile, tr), other=other)


def moment_lines(
    tr: Translator, before: PublicView | None, after: PublicView, names: Sequence[str], *, langqi: bool = False
) -> list[str]:
    """What one moment of a replay added to the table (docs/webapp.md §9), in the live captions'
    words (:func:`since_last_turn`): each seat's new 碰 / kong (a 暗杠 without its tile: it was
    face down then) and its new discard, the discard's 亮倒 first.  ``before``: the previous
    moment's public view (None: ``after`` is the deal, which adds nothing to say); the last moment,
    the result, is said by the result itself.  ``langqi``: 卡心五's 廊起 for 亮倒 (docs/rules.md §B)."""
    if before is None or after.result is not None:
        return []
    lines: list[str] = []
    for seat, (old, new) in enumerate(zip(before.seats, after.seats, strict=True)):
        for i, meld in enumerate(new.melds):
            was = old.melds[i] if i < len(old.melds) else None
            if was != meld:  # a new meld, or a 碰 grown to a 补杠 in its place
                lines.append(_meld_line(tr, names, seat, meld.kind, meld.tile, meld.source))
        if len(new.discards) > len(old.discards):
            last = new.discards[-1]
            if last.liangdao:
                lines.append(tr.gettext_for(langqi, "{name} laid down.").format(name=name(names[seat])))
            text = tr.gettext("Last discard: {tile} by {name}.")
            lines.append(text.format(tile=tile_label(last.tile, tr), name=name(names[seat])))
    return lines


def hand_title(tr: Translator, *, hand_no: int, title: str) -> str:
    """The first line of a player's hand caption: the hand's number and the group's title."""
    return tr.gettext("Hand {n} · {title}").format(n=hand_no, title=name(title, 32))


def over_line(tr: Translator, delta: int) -> str:
    """The hand is over: the player's points of it."""
    return tr.gettext("<b>The hand is over.</b> Your points: {delta}").format(delta=signed(delta))


def auto_line(tr: Translator) -> str:
    """The AI plays the seat (托管, docs/rules.md §E#33)."""
    return tr.gettext("<b>Auto-play</b>: the AI plays this seat for you.")


def claim_line(tr: Translator, *, who: str, tile: Tile, rob: bool) -> str:
    """A claim window asks the player (docs/rules.md §A5): ``who`` (raw name) discarded ``tile``, or
    adds a kong with it (``rob``: 抢杠, §A6.6)."""
    _ = tr.gettext
    if rob:
        text = _("<b>{name} adds a kong with {tile}</b>: rob it?")
    else:
        text = _("<b>{name} discards {tile}</b>: your call.")
    return text.format(name=name(who), tile=tile_label(tile, tr))


def turn_line(tr: Translator, wall: int) -> str:
    """The player's turn, with the tiles left in the wall."""
    turn = tr.ngettext(
        "<b>Your turn</b> · {n} tile left in the wall", "<b>Your turn</b> · {n} tiles left in the wall", wall
    )
    return turn.format(n=wall)


def waiting_line(tr: Translator) -> str:
    """Nothing for the player to do."""
    return tr.gettext("Waiting for the other players…")


def declared_line(tr: Translator, *, langqi: bool) -> str:
    """The player declared 亮倒 / 廊起 and plays automatically (docs/rules.md §A9.2, §B)."""
    _ = tr.gettext
    if langqi:
        return _("You laid down: drawn tiles are discarded automatically unless they win or kong.")
    return _("You laid down: drawn tiles are discarded automatically.")


def waits_line(tr: Translator, waits: Sequence[Tile]) -> str:
    """The player's waits."""
    return tr.gettext("Waiting on: {tiles}").format(tiles=tiles_label(waits, tr))


def liangdao_menu_lines(
    tr: Translator, options: Mapping[Tile, Sequence[Tile]], *, langqi: bool, choosing: bool
) -> list[str]:
    """The 亮倒 / 廊起 menu: what happens next, then every discard with the waits the engine lists with
    its action (``options``, tile order); ``choosing``: the player then chooses the tiles to show
    (docs/rules.md §A9.2, §E#48)."""
    _ = tr.gettext
    if langqi or choosing:
        head = tr.gettext_for(
            langqi, "Lay down: choose the discard, then the tiles to show; then you play automatically."
        )
    else:
        head = _("Lay down: choose the discard. Your whole hand is then shown to everybody and you play automatically.")
    lines = [head]
    for tile, waits in options.items():
        lines.append(
            _("Discard {tile} → waiting on {waits}").format(tile=tile_label(tile, tr), waits=tiles_label(waits, tr))
        )
    return lines


def confirm_line(tr: Translator, *, tile: Tile, waits: Sequence[Tile], langqi: bool) -> str:
    """The 亮倒 / 廊起 confirmation: the discard and the waits it leads to."""
    ask = tr.gettext_for(langqi, "Lay down and discard {tile}? You will wait on {waits}.")
    return ask.format(tile=tile_label(tile, tr), waits=tiles_label(waits, tr))


def protected_legend(tr: Translator) -> str:
    """What 🔒 on a discard button means (docs/rules.md §A9.8, §B)."""
    return tr.gettext("🔒 = another player's waiting tile: you may not discard it.")


def danger_legend(tr: Translator) -> str:
    """What ⚠ on a discard button means (包胡, docs/rules.md §A9.7)."""
    return tr.gettext("⚠ = a player who laid down waits on it: if you discard it, you pay for all (包胡).")


def caption(lines: Sequence[str]) -> str:
    """Lines joined into one caption within Telegram's limit (1024 characters)."""
    return _cut("\n".join(lines))


ENDED_WHY = {
    "killed": N_("The table was ended by an administrator (/kill); no points were scored."),
    "removed": N_("The table was ended because I was removed from the group; no points were scored."),
}
"""Why a hand in play was ended (the table's closing reason, ``/kill`` or the bot removed), as the
last line of each player's hand message (docs/architecture.md §5 "Result")."""


def ended_caption(tr: Translator, *, title: str, hand_no: int, reason: str) -> str:
    """The caption a player's hand message keeps (with no buttons) once the table was ended in the
    middle of the hand: the hand and the table, then who ended it and that nothing was scored.
    ``reason`` is a key of :data:`ENDED_WHY` (another reason says only that the table was ended)."""
    _ = tr.gettext
    why = ENDED_WHY.get(reason, N_("The table was ended; no points were scored."))
    head = _("Hand {n} · {title}").format(n=hand_no, title=name(title, 32))
    return head + "\n<b>" + _(why) + "</b>"


def reveal_lines(tr: Translator, choice: RevealChoice, *, langqi: bool) -> list[str]:
    """The reveal choice in words: what is discarded, shown and hidden, and the waits it leads to or
    the rule it breaks (docs/rules.md §A9.2, §E#48)."""
    _ = tr.gettext
    head = tr.gettext_for(langqi, "Lay down with {tile}: tap tiles to show or hide them.")
    lines = [head.format(tile=tile_label(choice.discard, tr))]
    lines.append(_("Shown: {tiles}").format(tiles=tiles_label(choice.shown, tr) or "—"))
    lines.append(_("Hidden: {tiles}").format(tiles=tiles_label(choice.hidden, tr) or "—"))
    if choice.legal:
        lines.append(_("→ waiting on {waits}").format(waits=tiles_label(choice.waits, tr) or "—"))
    else:
        lines.append(_("✗ Not allowed: {reason}").format(reason=reveal_fault_text(choice.fault, tr, kaxinwu=langqi)))
    return lines


def _status(tr: Translator, view: PublicView, names: Sequence[str]) -> str:
    """Whose move it is.  The group's view shows a claim or rob window only where it cannot show
    the table after it (docs/security.md §4): then the tile on the table, never that anyone may
    claim it."""
    _ = tr.gettext
    if view.result is not None:
        return _("The hand is over.")
    if view.phase in (Phase.CLAIM, Phase.ROB) and view.last_discard is not None:
        who, tile = view.last_discard
        if view.phase is Phase.ROB:
            return _("{name} added a kong of {tile}.").format(name=name(names[who]), tile=tile_label(tile, tr))
        return _("Last discard: {tile} by {name}.").format(tile=tile_label(tile, tr), name=name(names[who]))
    return _("{name} to play.").format(name=name(names[view.turn]))


def table_caption(
    tr: Translator, *, hand_no: int, view: PublicView, names: Sequence[str], started: bool = False,
    table: str = "", sitting_out: str | None = None,
) -> str:  # fmt: skip
    """The group's live table caption (also the hand-start message's caption).  ``table``: the game
    and size in words (HTML-safe, :func:`~kwx_bot.words.texts.table_size`); ``sitting_out``: the raw
    name of the member who sits this hand out (docs/rules.md §A2.1)."""
    _ = tr.gettext
    head = _("<b>Hand {n} starts</b>") if started else _("<b>Hand {n}</b>")
    wall = view.wall_remaining
    left = tr.ngettext("dealer {name} · {wall} tile left", "dealer {name} · {wall} tiles left", wall)
    lines = [
        head.format(n=hand_no) + " · " + left.format(name=name(names[view.dealer]), wall=wall),
        _status(tr, view, names),
    ]
    auto = [name(names[s.seat]) for s in view.seats if s.on_auto]
    if auto:
        lines.append(_("Auto-play: {names}").format(names=_(", ").join(auto)))
    if sitting_out is not None:
        lines.append(_("Sitting out this hand: {name}").format(name=name(sitting_out)))
    if table:
        lines.append(table)
    return _cut("\n".join(lines))


def reveal_caption(tr: Translator, *, view: PublicView, seat: int, names: Sequence[str], langqi: bool = False) -> str:
    """The group's 亮倒 / 廊起 announcement: the waits (public by the rules, docs/rules.md §A9.2) and,
    after a partial reveal, how many tiles stay face down (never which, §E#48).  ``langqi``: the table
    plays 卡心五 (its 亮倒 is 廊起, docs/rules.md §B)."""
    _ = tr.gettext
    s = view.seats[seat]
    head = tr.gettext_for(langqi, "<b>{name} lays down!</b> Waiting on: {waits}")
    text = head.format(name=name(names[seat]), waits=tiles_label(s.waits, tr) or "—")
    if s.hidden_count:
        hidden = tr.ngettext("{n} tile stays hidden.", "{n} tiles stay hidden.", s.hidden_count)
        text += "\n" + hidden.format(n=s.hidden_count)
    return _cut(text)


def _liangdao_of(w: WinView, liangdao: Collection[int]) -> list[int]:
    """Whose 亮倒 the 亮倒 番 of ``w`` stands for: the winner's if declared, else the declaring
    payers' (docs/rules.md §A9.6; as :func:`render.pictures.liangdao_seats`)."""
    if w.seat in liangdao:
        return [w.seat]
    return [p for p in sorted(w.multiplier) if p in liangdao]


def _win_line(tr: Translator, w: WinView, names: Sequence[str], liangdao: Collection[int] = ()) -> list[str]:
    _ = tr.gettext
    tile = tile_label(w.win_tile, tr)
    if w.by is WinBy.SELF_DRAW:
        how = _("{name} wins by self-draw on {tile}").format(name=name(names[w.seat]), tile=tile)
    elif w.by is WinBy.ROB_KONG:
        how = _("{name} robs {other}'s kong of {tile}").format(
            name=name(names[w.seat]), other=name(names[w.from_seat or 0]), tile=tile
        )
    else:
        how = _("{name} wins on {other}'s {tile}").format(
            name=name(names[w.seat]), other=name(names[w.from_seat or 0]), tile=tile
        )
    lines = ["<b>" + how + "</b>"]
    whose = _(", ").join(name(names[p], 16) for p in _liangdao_of(w, liangdao))
    fans = " · ".join(
        _("Laid down by {names}").format(names=whose) if f is Fan.LIANGDAO and whose else fan_label(f, tr)
        for f in w.fans
    )
    lines.append(_("Patterns: {fans}").format(fans=fans))
    mult = _(", ").join(_("{name} ×{m}").format(name=name(names[p], 12), m=m) for p, m in sorted(w.multiplier.items()))
    if mult:  # its own line: 番 names may carry brackets, and brackets do not nest
        lines.append(_("Multiplier per payer: {list}").format(list=mult))
    if w.baohu:
        lines.append(_("{name} pays for all (包胡).").format(name=name(names[w.from_seat or 0])))
    return lines


def result_caption(
    tr: Translator,
    *,
    hand_no: int,
    result: HandResultView,
    names: Sequence[str],
    totals: Sequence[int] | None = None,
    liangdao: Collection[int] = (),
) -> str:
    """The end-of-hand text breakdown: winners, patterns (the 亮倒 番 names whose 亮倒 it is, from
    ``liangdao``: the seats that declared it), the multiplier per payer on its own line, payments
    per player, next dealer.  卡心五 (docs/rules.md §B): a 关死 names the shut-in player and says
    that the kong money is void; a 流局 with 查叫 names the players who pay (被查叫)."""
    _ = tr.gettext
    if result.outcome is Outcome.WIN:
        lines = [_("<b>Hand {n} is over</b>").format(n=hand_no)]
        for w in result.winners:
            lines.extend(_win_line(tr, w, names, liangdao))
    elif result.outcome is Outcome.GUANSI and result.guansi is not None:
        lines = [_("<b>Hand {n}: shut in</b> (关死)").format(n=hand_no)]
        lines.append(
            _(
                "Every tile {name} holds is a tile that a player who laid down waits on: the hand ends. {name} "
                "pays each player who laid down their highest multiplier and every other player 2; all kong "
                "money of the hand is void."
            ).format(name=name(names[result.guansi]))
        )
    else:
        lines = [_("<b>Hand {n}: draw</b> (no winner)").format(n=hand_no)]
        if result.chajiao:
            payers = _(", ").join(name(names[s], 16) for s in result.chajiao)
            lines.append(
                _("Ready check: {names} did not lay down and pay each player who did their highest multiplier.")
                .format(names=payers)
            )  # fmt: skip
    lines.append(_("Points:"))
    for seat, total in enumerate(result.deltas):
        parts = _("{name}: {delta} (payments {hand}, kongs {kong})").format(
            name=name(names[seat], 16), delta=signed(total), hand=signed(result.hand_deltas[seat]),
            kong=signed(result.kong_deltas[seat]))  # fmt: skip
        if totals is not None:
            match = _("Match: {total}").format(total=signed(totals[seat]))
            parts += " · " + match.replace(" ", "\u00a0")  # a phone wraps before "Match", not inside it
        lines.append(parts)
    lines.append(_("Next dealer: {name}").format(name=name(names[result.next_dealer])))
    return _cut("\n".join(lines))
