"""``/rules``: a :class:`~engine.rules.RuleSet` described in plain words.

:func:`describe_rules` returns one HTML message in the reader's language: the preset, 底金 (base
stake), 封顶 (cap), kong money, every option that differs from the standard game (docs/rules.md §C), and the
番 values (docs/rules.md §A10; names and values from the engine's one 番 table, :class:`engine.fans.Fan`).
An option this module has no sentence for is still listed (``name = value``), so a new engine option
never disappears from ``/rules``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields, replace
from typing import Any

from engine.fans import KAXINWU_FANS, Fan
from engine.rules import PRESETS, Cap, FanValues, RuleSet, Ruleset

from .i18n import N_, NG_, Translator
from .texts import esc, fan_label

__all__ = ["describe_rules", "preset_label"]

_PRESET_LABELS = {
    "standard": N_("Standard (随州 / 襄阳 / 枣阳)"),
    "xiangyang": N_("Xiangyang (襄阳)"),
    "suizhou": N_("Suizhou (随州)"),
    "zaoyang": N_("Zaoyang (枣阳)"),
    "shiyan": N_("Shiyan (十堰, flat cap ×8)"),
    "nocap": N_("No cap (无封顶)"),
    "kaxinwu": N_("Ka Xin Wu (卡心五)"),
}


def _distance(a: RuleSet, b: RuleSet) -> int:
    return sum(getattr(a, f.name) != getattr(b, f.name) for f in fields(RuleSet))


def preset_label(rules: RuleSet, tr: Translator) -> str:
    """``Standard (随州 / 襄阳 / 枣阳)``, or ``Custom, based on …`` for a set equal to no preset."""
    name = rules.preset_name()
    if name is None and _kaxinwu_base(rules) == rules:
        name = "kaxinwu"  # 卡心五 at another table size is still the preset
    if name is not None:
        return tr.gettext(_PRESET_LABELS.get(name, name))
    closest = min(PRESETS, key=lambda n: _distance(rules, PRESETS[n]))
    return tr.gettext(N_("Custom, based on {preset}")).format(preset=tr.gettext(_PRESET_LABELS.get(closest, closest)))


def _kaxinwu_base(rules: RuleSet) -> RuleSet | None:
    """The 卡心五 preset at the table size of ``rules`` (the baseline its options are told against),
    or None when ``rules`` is not 卡心五 (docs/rules.md §B)."""
    if rules.ruleset is not Ruleset.KAXINWU:
        return None
    return replace(PRESETS["kaxinwu"], players=rules.players)


def _cap_text(rules: RuleSet, tr: Translator) -> str:
    _ = tr.gettext
    return {
        Cap.NONE: _("no cap: every share is paid in full"),
        Cap.EIGHT: _("×8 per share, also for double dragon seven pairs (十堰 满和)"),
        Cap.EIGHT_SL16: _("×8 per share; ×16 for double and triple dragon seven pairs"),
        Cap.SIXTEEN: _("×16 per share"),
        Cap.THIRTY_TWO: _("×32 per share"),
    }[rules.cap]


_Sentence = Callable[[Any, RuleSet, Translator], str]


def _kaxinwu(rules: RuleSet) -> bool:
    """The rules are 卡心五's: a sentence marked per game reads its 卡心五 form (廊起 for 亮倒 in
    Chinese, :meth:`~kwx_bot.words.i18n.Translator.gettext_for`)."""
    return rules.ruleset is Ruleset.KAXINWU


def _s(msgid: str) -> _Sentence:
    """A sentence that takes no value (the option is simply on/off against the standard)."""
    return lambda value, rules, tr: tr.gettext_for(_kaxinwu(rules), msgid)


def _choice(table: dict[str, str]) -> _Sentence:
    def sentence(value: Any, rules: RuleSet, tr: Translator) -> str:
        msgid = table.get(str(getattr(value, "value", value)))
        return tr.gettext_for(_kaxinwu(rules), msgid) if msgid else f"{value}"

    return sentence


def _bool(on: str, off: str) -> _Sentence:
    return lambda value, rules, tr: tr.gettext_for(_kaxinwu(rules), on if value else off)


_SENTENCES: dict[str, _Sentence] = {
    "suits": lambda value, rules, tr: tr.gettext(N_("Suits in play: {suits}.")).format(
        suits=" + ".join(
            {
                "p": tr.gettext(N_("dots (筒, p)")),
                "s": tr.gettext(N_("bamboo (条, s)")),
                "m": tr.gettext(N_("characters (万, m)")),
            }[s]
            for s in value
        )
    ),
    "dragons": _bool(N_("The dragons (中 發 白) are in play."), N_("No dragons (中 發 白 are not used).")),
    "pihu_ron": _bool(
        N_("A plain hand (屁胡) may also win on a discard."),
        N_("A plain hand (屁胡) may win only by self-draw."),
    ),
    "qihu_2fan": _bool(
        N_("Every win needs ×2, even a self-draw (两番起胡)."),
        N_("A self-draw needs no minimum multiplier."),
    ),
    "situational_for_qihu": _bool(
        N_(
            "A win on a discard after a kong (杠上炮), robbing a kong (抢杠胡) and the last discard (海底炮) "
            "count toward the ×2 needed to win on a discard."
        ),
        N_(
            "A win on a discard after a kong (杠上炮), robbing a kong (抢杠胡) and the last discard (海底炮) "
            "do not count toward the ×2 needed to win on a discard."
        ),
    ),
    "louhu": _choice(
        {
            "bigger_exception": N_(
                "Passed-win ban (漏胡): after passing a win you may win on a discard before your next draw only if it "
                "is bigger."
            ),
            "strict": N_(
                "Passed-win ban (漏胡): after passing a win you may not win on any discard until your next draw."
            ),
            "same_tile": N_(
                "Passed-win ban on the same tile (过手胡): after passing a win only that same tile is "
                "blocked until your next draw."
            ),
        }
    ),
    "liangdao_reveal": _choice(
        {
            "full": NG_("Laying down shows the whole hand."),
            "kou": NG_("A player who lays down may keep concealed triplets face down (扣牌)."),
            "minimal": NG_("Laying down shows only the tiles that define the wait."),
        }
    ),
    "liangdao_min_wall": lambda value, rules, tr: (
        tr.gettext_for(
            _kaxinwu(rules), "Laying down is allowed only while at least {n} tiles remain in the wall."
        ).format(n=value)
        if value
        else tr.gettext_for(_kaxinwu(rules), "Laying down is allowed until the end of the wall.")
    ),
    "liangdao_kong": _choice(
        {
            "waits_unchanged": NG_("After laying down a kong is allowed if it does not change the waits."),
            "none": NG_("No kongs after laying down."),
            "anpu_and_bugang_only": NG_(
                "After laying down only kongs of hidden triplets and added kongs (补杠) are allowed."
            ),
        }
    ),
    "liangdao_auto_win": _bool(
        NG_("A player who laid down wins automatically whenever they can."),
        NG_("A player who laid down may pass a win."),
    ),
    "liangdao_payer_double": _bool(
        NG_("A player who laid down and pays pays double."),
        NG_("A player who laid down and pays does not pay double."),
    ),
    "dui_liang_fanfan": _bool(
        NG_("Winner and payer both laid down: ×4 (对亮翻番)."),
        NG_("Winner and payer both laid down: ×2 once."),
    ),
    "baohu": _bool(
        NG_("Pays for all (包胡): a player who has not laid down and deals into a player who has pays every share."),
        NG_("Nobody pays for all (包胡): dealing into a player who laid down is an ordinary deal-in."),
    ),
    "liangdao_protect": _bool(
        NG_("A tile that a player who laid down waits on may not be discarded while you hold another tile (炮牌禁打)."),
        NG_("You may discard a tile that a player who laid down waits on (and pay for it)."),
    ),
    "guohu_fanfan": _bool(
        NG_("A player who laid down may decline wins; each decline doubles their next win (过胡翻番)."),
        N_("A declined win doubles nothing (no 过胡翻番)."),
    ),
    "huangzhuang_liangdao": _choice(
        {
            "s000": NG_("Exhaustive draw (荒庄): each player who laid down pays 1 to each player who did not."),
            "s004_first": NG_("Exhaustive draw (荒庄): only the first player who laid down pays each other player 1."),
            "chajiao": N_(
                "Exhaustive draw (荒庄): ready check (查叫) — players who are not ready pay the ready players "
                "their best win."
            ),
            "none": NG_("Exhaustive draw (荒庄): no payment for laying down."),
            "chajiao_langqi": N_(
                "Exhaustive draw (流局): ready check (查叫) — every player who did not lay down pays every player who "
                "did that player's highest win."
            ),
        }
    ),
    "dealer_on_draw": _choice(
        {
            "stay": N_("After an exhaustive draw the dealer stays."),
            "last_drawer": N_("After an exhaustive draw the player who drew the last tile deals."),
            "chajiao": N_("After an exhaustive draw the dealer follows the ready check."),
            "chajiao_langqi": N_("After an exhaustive draw the dealer follows Ka Xin Wu's ready check."),
        }
    ),
    "first_dealer": _choice(
        {"random": N_("The first dealer is chosen at random."), "host": N_("The table's host deals first.")}
    ),
    "four_players": _choice(
        {
            "winner_sits_out": N_("With four members the winner sits out the next hand."),
            "bawangzhuang": N_(
                "With four members the dealer keeps the deal until losing a hand, then sits out (霸王庄)."
            ),
            "off": N_("Only three members play; no bench rotation."),
        }
    ),
    "kwx_rule": _choice(
        {
            "generous": N_("Ka Wu Xing (卡五星) counts whenever the winning 5 can sit between a 4 and a 6."),
            "strict_single_wait": N_("Ka Wu Xing (卡五星) counts only when the 5 is the hand's only wait."),
        }
    ),
    "szy_with_pph": _bool(
        N_("Single wait after four melds (手抓一) also counts all pongs (碰碰胡)."),
        N_("Single wait after four melds (手抓一) replaces all pongs (碰碰胡)."),
    ),
    "sigui_scope": _choice(
        {
            "ban_qys_quan": N_(
                "Four-in-one (四归一) needs the winning tile, except in pure one suit hands (清一色; 半频道)."
            ),
            "quan": N_("Four-in-one (四归一) also counts for a held fourth copy (全频道)."),
        }
    ),
    "ansigui_requires_pung": _bool(
        N_("Concealed four-in-one (暗四归一) counts only when the three held copies form a pung."),
        N_("Concealed four-in-one (暗四归一) counts whenever you hold three copies of the winning tile."),
    ),
    "sigui_multi": _bool(
        N_("Several four-in-ones (四归一) each count (双归)."),
        N_("At most one exposed and one concealed four-in-one (明 / 暗四归一) count."),
    ),
    "sanyuan_qidui": _bool(
        N_("Dragons in seven pairs count: little and big three dragons seven pairs (小三元七对, 大三元七对)."),
        N_("Dragons in seven pairs (七对) give nothing extra."),
    ),
    "liangdao_revealed_sigui_ming": _bool(
        NG_("A winner who laid down counts a concealed four-in-one as exposed (暗四归一 as 明四归一)."),
        NG_("A winner who laid down keeps their concealed four-in-one (暗四归一)."),
    ),
    "haidi_pihu": _bool(
        N_("Last tile self-draw (海底捞月) also doubles a plain hand."),
        N_("Last tile self-draw (海底捞月) does not double a plain hand."),
    ),
    "qianggang": _bool(N_("Robbing an added kong (抢杠胡) is allowed."), N_("Robbing a kong (抢杠) is not allowed.")),
    "gang_chain": _choice(
        {
            "double": N_("Kong chain (杠上杠): each further kong in a chain pays double the last."),
            "flat2": N_("Kong chain (杠上杠): each further kong in a chain pays ×2."),
            "linear": N_("Kong chain (杠上杠): the n-th kong in a chain pays ×n."),
        }
    ),
    "gang_chain_self": _choice(
        {
            "replacement_only": N_("Your own kong chain continues only with the replacement tile."),
            "any_kong_same_turn": N_("Your own kong chain continues with any kong in the same turn."),
        }
    ),
    "gangshang_chain_hu": _choice(
        {
            "x2_only": N_("A win after a kong (杠上开花 / 杠上炮) stays ×2 after a kong chain."),
            "compound": N_("A win after a kong (杠上开花 / 杠上炮) doubles again for each kong in the chain."),
        }
    ),
    "bugang_immediate": _bool(
        N_("An added kong (补杠) must be made on the turn you draw the tile."),
        N_("An added kong (补杠) may be made on a later turn."),
    ),
    "kong_after_peng": _bool(
        N_("A kong may be declared right after a pong."),
        N_("No kong right after a pong."),
    ),
    "guoshou_peng": _bool(
        N_("Passed-pong ban (过手碰): a pong you declined stays blocked until your next draw."),
        N_("A declined pong may be claimed next time."),
    ),
    "kong_mandatory": _bool(
        N_("Mandatory kong (有杠必杠): a possible kong must be made."),
        N_("A possible kong may be passed (过杠)."),
    ),
    "guansi": _bool(
        N_("Shut in (关死): a player whose every tile wins for a player who laid down ends the hand and pays."),
        N_("Nobody is shut in (no 关死)."),
    ),
}

_NOT_OPTIONS = {"ruleset", "players", "base", "cap", "values", "gang_values", "piao", "maima", "shukan", "chuzi"}

_FAN_ORDER = (
    Fan.KAWUXING,
    Fan.PENGPENG,
    Fan.MINGSIGUI,
    Fan.ANSIGUI,
    Fan.QIDUI,
    Fan.LONGQIDUI,
    Fan.SHUANGLONG,
    Fan.SANLONG,
    Fan.DASANYUAN,
    Fan.XIAOSANYUAN,
    Fan.QINGYISE,
    Fan.SHOUZHUAYI,
    Fan.GANGKAI,
    Fan.GANGPAO,
    Fan.QIANGGANG,
    Fan.HAIDILAO,
    Fan.HAIDIPAO,
    Fan.LIANGDAO,
    Fan.XIAOSANYUAN_QIDUI,
    Fan.DASANYUAN_QIDUI,
)


def _fan_list(rules: RuleSet, tr: Translator) -> str:
    """The game's 番 with their values, bold where they differ from the game's standard preset."""
    base = _kaxinwu_base(rules)
    standard = base.values if base is not None else FanValues()
    parts = []
    for fan in KAXINWU_FANS if base is not None else _FAN_ORDER:
        value = fan.base_value(rules.values)
        if fan is Fan.HAIDIPAO and value <= 1:
            continue
        if fan in (Fan.XIAOSANYUAN_QIDUI, Fan.DASANYUAN_QIDUI) and not rules.sanyuan_qidui:
            continue
        text = f"{fan_label(fan, tr)} ×{value}"
        parts.append(f"<b>{text}</b>" if value != fan.base_value(standard) else text)
    return " · ".join(parts)


def option_sentence(option: str, rules: RuleSet, tr: Translator) -> str:
    """The plain sentence ``/rules`` says of one option of ``rules`` (docs/rules.md §C), e.g.
    ``four_players``: "With four members the winner sits out the next hand."  Raises KeyError for an
    option without a sentence of its own."""
    return _SENTENCES[option](getattr(rules, option), rules, tr)


def option_lines(rules: RuleSet, tr: Translator) -> list[str]:
    """One plain sentence per option that differs from the standard game (docs/rules.md §C) — for
    卡心五, from the 卡心五 preset (docs/rules.md §B) — in field order."""
    standard = _kaxinwu_base(rules) or PRESETS["standard"]
    lines = []
    for f in fields(RuleSet):
        if f.name in _NOT_OPTIONS:
            continue
        value = getattr(rules, f.name)
        if value == getattr(standard, f.name):
            continue
        sentence = _SENTENCES.get(f.name)
        lines.append(sentence(value, rules, tr) if sentence else esc(f"{f.name} = {getattr(value, 'value', value)}"))
    return lines


_KIND_NAMES = {"p": N_("dots"), "s": N_("bamboo"), "m": N_("characters"), "z": N_("the three dragons")}
"""The kinds of tiles in play, in the reader's language (Chinese: 筒 条 万, 中 發 白; docs/glossary.md)."""


def _tiles_line(rules: RuleSet, tr: Translator) -> str:
    """The game's players and tiles (docs/rules.md §A1.1, §A2.1): the standard sentence for the
    standard three players and 84 tiles, else the same in numbers."""
    _ = tr.gettext
    if rules.players == 3 and rules.suits == ("p", "s") and rules.dragons:
        return _(
            "Ka Wu Xing (卡五星): 3 players, 84 tiles (dots, bamboo and the three dragons); pong and kong but no "
            "chow; win before kong before pong."
        )
    tiles = 36 * len(rules.suits) + (12 if rules.dragons else 0)
    kinds = _(", ").join(_(_KIND_NAMES[k]) for k in (*rules.suits, *("z" if rules.dragons else ())))
    return _(
        "{players} players, {tiles} tiles ({kinds}); pong and kong but no chow; win before kong before pong."
    ).format(players=rules.players, tiles=tiles, kinds=kinds)


def describe_rules(
    rules: RuleSet,
    tr: Translator,
    *,
    discard_seconds: float | None = None,
    claim_seconds: float | None = None,
    bank_seconds: float | None = None,
) -> str:
    """The ``/rules`` message (HTML, well under 4096 characters).

    ``discard_seconds`` / ``claim_seconds``: the table's timers, shown when given (0 = no deadline);
    ``bank_seconds``: each seat's time bank per hand (docs/rules.md §E#33), shown when given and
    not 0.
    """
    _ = tr.gettext
    g = rules.gang_values
    kaxinwu = _kaxinwu_base(rules) is not None
    lines = [
        _("<b>Rules: {preset}</b>").format(preset=preset_label(rules, tr)),
        _kaxinwu_line(rules, tr) if kaxinwu else _tiles_line(rules, tr),
        *(
            ()
            if kaxinwu
            else (_("Lay down (亮倒): a ready player may show their hand; then they play automatically."),)
        ),
        _(
            "Base stake (底金): {base} point(s). Payment = base stake × multiplier; the multiplier is capped "
            "(封顶): {cap}."
        ).format(base=rules.base, cap=_cap_text(rules, tr)),
        tr.gettext_for(
            kaxinwu,
            "Kong money: concealed kong {an} from each other player, added kong {bu} from each, direct kong {zhi} "
            "from the discarder; paid at once, not doubled by laying down, kept on an exhaustive draw.",
        ).format(an=g.an * rules.base, bu=g.bu * rules.base, zhi=g.zhi * rules.base),
        _("Patterns (番, multiplied together): {fans}").format(fans=_fan_list(rules, tr)),
    ]
    options = option_lines(rules, tr)
    if options:
        lines.append(
            _("<b>Different from standard Ka Xin Wu:</b>") if kaxinwu else _("<b>Different from the standard game:</b>")
        )
        lines.extend("• " + line for line in options)
    elif kaxinwu:
        lines.append(
            _(
                "Standard Ka Xin Wu play: laying down does not double; nobody pays for all (包胡); no robbing a "
                "kong; a plain win (屁胡) may win on a discard."
            )
        )
    else:
        lines.append(
            _(
                "Standard play: a plain win (屁胡) wins only by self-draw; laying down doubles; who deals into a "
                "player who laid down pays for all (包胡); an exhaustive draw keeps kong money."
            )
        )
    if discard_seconds is not None or claim_seconds is not None:
        lines.append(
            _("Timers: {discard} to discard, {claim} to claim.").format(
                discard=_seconds(discard_seconds, tr), claim=_seconds(claim_seconds, tr)
            )
        )
    if bank_seconds:
        lines.append(
            _(
                "Time bank: {bank} s more per hand for each player, used once a move's own time is up "
                "(twice as much in the first hand)."
            ).format(bank=round(bank_seconds))
        )
    return "\n".join(lines)


def _kaxinwu_line(rules: RuleSet, tr: Translator) -> str:
    """What 卡心五 is, in a few sentences (docs/rules.md §B)."""
    _ = tr.gettext
    tiles = 4 * 9 * len(rules.suits) + (12 if rules.dragons else 0)
    return "\n".join([
        _("Ka Xin Wu (卡心五): {players} players, {tiles} tiles; pong and kong but no chow.").format(
            players=rules.players, tiles=tiles),
        _(
            "Lay down (廊起): choose the discard, then the tiles to show. The hidden tiles must form complete sets, "
            "and the waits are read from the shown tiles. Then you play automatically: a drawn tile is discarded "
            "unless it wins or kongs."
        ),
        _(
            "Mandatory win (有胡必胡): a self-draw win, and any win of a player who laid down, must be taken. "
            "Mandatory kong (有杠必杠): a possible kong must be made."
        ),
        _(
            "Protection: unless you laid down, you may not discard a tile that a player who laid down waits on, so "
            "only a player who laid down can deal into another (顶穿)."
        ),
        _(
            "Shut in (关死): when every tile in your hand is such a tile, the hand ends; you pay each player who laid "
            "down their highest multiplier and every other player 2; the hand's kong money is void."
        ),
        _(
            "Ready check (查叫) at an exhaustive draw (流局): every player who did not lay down pays each player "
            "who did that player's highest multiplier; kong money stands."
        ),
    ])  # fmt: skip


def _seconds(value: float | None, tr: Translator) -> str:
    if not value:
        return tr.gettext("no limit")
    return tr.gettext("{n} s").format(n=round(value))
