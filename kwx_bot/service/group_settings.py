"""Group settings (``/settings``): the values and how they change (the menu: :mod:`.settings_menu`).

A group's settings are rows of the store's ``settings`` table (key -> JSON value):

* ``rules`` — a preset name (``"standard"``) or ``{"preset": name, "<docs/rules.md §C option>": value, ...}``,
  always accepted by :meth:`engine.rules.RuleSet.from_json` (every change is validated through it
  before it is stored; options equal to the preset's value are dropped, so the stored object lists
  exactly what differs);
* ``discard_seconds`` / ``claim_seconds`` / ``bank_seconds`` — the table's time control (0 = no
  deadline; the bank: seconds per hand each seat may think past a move's own time, docs/rules.md §E#33);
* ``language`` — ``zh_CN`` or ``en``, the language of the group's messages;
* ``ai_level`` — ``easy``, ``normal`` or ``strong``: how the AI plays the group's AI seats and 托管
  (the operator's ``KWX_AI_LEVEL`` when the group has not chosen, ``strong`` by default).

Changes apply to the next table or hand, never to a hand in play (the table service copies them when
it deals).  :class:`GroupConfig` reads the current values, :meth:`GroupConfig.change` computes the
rows to write for one change (raising :class:`ConfigError` with a polite message when refused).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from ..words.i18n import N_, Translator
from ..words.texts import esc, quote
from .game import AI_LEVELS, KNOWN_OPTIONS, PRESETS, RuleError, RuleSet, Ruleset, check_table_rules, whole_number
from .time_control import TIMER_KEYS

__all__ = [
    "CLOSE",
    "ITEMS",
    "MAIN",
    "ConfigError",
    "GroupConfig",
    "Item",
    "TableChoice",
    "item_by_code",
    "parse_change",
    "parse_new",
]

MAIN = "m"
"""Item code of the menu's main page."""
CLOSE = "x"
"""Item code that closes the menu."""

MAX_SECONDS = 600
DETAIL_CHARS = 300
"""The most characters of the engine's reason a refusal shows (it may quote the refused value)."""


class ConfigError(ValueError):
    """A refused change; :meth:`render` is the polite message (``detail``: the engine's reason).

    ``item``: the menu item whose value was refused; the message then names it and its choices in
    the reader's words (``{title}``, ``{choices}``) instead of the engine's internal option ids."""

    def __init__(self, msgid: str, detail: str = "", item: Item | None = None, **params: object) -> None:
        super().__init__(
            msgid.format(title="{title}", choices="{choices}", **params) + (f": {detail}" if detail else "")
        )
        self.msgid = msgid
        self.detail = detail
        self.item = item
        self.params = params

    def _params(self, tr: Translator) -> dict[str, str]:
        out = {k: quote(str(v)) for k, v in self.params.items()}
        if self.item is not None:
            out["title"] = esc(tr.gettext(self.item.title))
            out["choices"] = " · ".join(esc(c.label if c.literal else tr.gettext(c.label)) for c in self.item.choices)
        return out

    def text(self, tr: Translator) -> str:
        """The refusal without the engine's detail (plain: for a button's alert)."""
        return tr.gettext(self.msgid).format(**self._params(tr))

    def render(self, tr: Translator) -> str:
        """The refusal in the reader's language (HTML)."""
        return self.text(tr) + (f"\n<code>{quote(self.detail, DETAIL_CHARS)}</code>" if self.detail else "")


@dataclass(frozen=True, slots=True)
class Choice:
    """One value of a menu item: the stored JSON ``value`` and its ``label`` (a msgid, or a literal
    when ``literal``)."""

    value: Any
    label: str
    literal: bool = False


@dataclass(frozen=True, slots=True)
class Item:
    """A menu line: ``code`` (one letter in callback data), ``key`` (``preset``, a docs/rules.md §C option,
    one of :data:`~.time_control.TIMER_KEYS`, ``language`` or ``ai_level``), ``title`` (msgid) and its
    choices."""

    code: str
    key: str
    title: str
    choices: tuple[Choice, ...]

    @property
    def is_rule(self) -> bool:
        """The item changes the ``rules`` setting."""
        return self.key not in (*TIMER_KEYS, "language", "ai_level")


_ON_OFF = (Choice(False, N_("off")), Choice(True, N_("on")))


def _seconds_choices(values: tuple[int, ...]) -> tuple[Choice, ...]:
    return tuple(Choice(v, str(v), literal=True) for v in values)


ITEMS: tuple[Item, ...] = (
    Item("p", "preset", N_("Rules preset"), (
        Choice("standard", N_("Standard")), Choice("shiyan", N_("Shiyan")), Choice("nocap", N_("No cap")),
    )),
    Item("c", "cap", N_("Cap (封顶)"), (
        Choice("8_sl16", N_("×8; double / triple dragon seven pairs ×16")), Choice("8", N_("×8 always")),
        Choice("16", "×16", literal=True), Choice("32", "×32", literal=True), Choice("none", N_("no cap")),
    )),
    Item("b", "base", N_("Base stake (底金)"), tuple(Choice(v, str(v), literal=True) for v in (1, 2, 5, 10))),
    Item("h", "pihu_ron", N_("Plain win (屁胡) on a discard"), _ON_OFF),
    Item("l", "louhu", N_("Passed-win ban (漏胡)"), (
        Choice("bigger_exception", N_("a bigger hand may win")), Choice("strict", N_("strict")),
        Choice("same_tile", N_("same tile only (过手胡)")),
    )),
    Item("g", "liangdao_protect", N_("Feeding protection (炮牌禁打)"), _ON_OFF),
    Item("k", "kong_after_peng", N_("Kong right after a pong"), _ON_OFF),
    Item("z", "huangzhuang_liangdao", N_("Payment at a draw (荒庄)"), (
        Choice("s000", N_("each who laid down pays")), Choice("s004_first", N_("the first who laid down pays")),
        Choice("chajiao", N_("ready check")), Choice("none", N_("none")),
    )),
    Item("v", "kwx_value", N_("Ka Wu Xing (卡五星) value"), (
        Choice(2, "×2", literal=True), Choice(4, "×4", literal=True),
    )),
    Item("f", "four_players", N_("Four members at a 3-seat table"), (
        Choice("winner_sits_out", N_("the winner sits out")), Choice("bawangzhuang", N_("the dealer stays (霸王庄)")),
        Choice("off", N_("off")),
    )),
    Item("d", "discard_seconds", N_("Time to discard"), _seconds_choices((15, 30, 45, 60, 90, 0))),
    Item("w", "claim_seconds", N_("Time to claim"), _seconds_choices((8, 10, 15, 20, 30, 0))),
    Item("t", "bank_seconds", N_("Time bank per hand"), _seconds_choices((0, 30, 60, 90, 120, 180))),
    Item("n", "language", N_("Group language"), (
        Choice("zh_CN", "中文", literal=True), Choice("en", "English", literal=True),
    )),
    Item("a", "ai_level", N_("AI level"), (
        Choice("easy", N_("easy")), Choice("normal", N_("normal")), Choice("strong", N_("strong")),
    )),
)  # fmt: skip

_BY_CODE = {item.code: item for item in ITEMS}
_BY_KEY = {item.key: item for item in ITEMS}
_ALIASES = {
    "discard": "discard_seconds", "claim": "claim_seconds", "lang": "language", "timer": "discard_seconds",
    "bank": "bank_seconds", "ai": "ai_level", "level": "ai_level",
    "底金": "base", "封顶": "cap", "语言": "language", "电脑": "ai_level",
}  # fmt: skip
_LANGS = {"zh": "zh_CN", "zh_cn": "zh_CN", "zh-cn": "zh_CN", "中文": "zh_CN", "cn": "zh_CN", "en": "en",
          "english": "en", "英文": "en"}  # fmt: skip


def item_by_code(code: str) -> Item | None:
    """The menu item with this callback code, or None."""
    return _BY_CODE.get(code)


def _rules_dict(stored: Any) -> dict[str, Any]:
    if isinstance(stored, str):
        return {"preset": stored}
    if isinstance(stored, Mapping):
        out = dict(stored)
        out.setdefault("preset", "standard")
        return out
    return {"preset": "standard"}


def _compact(rules: dict[str, Any]) -> Any:
    """Drop options equal to the preset's value; a bare preset is stored as its name."""
    preset = str(rules.get("preset", "standard"))
    base = PRESETS.get(preset)
    out: dict[str, Any] = {"preset": preset}
    for key, value in rules.items():
        if key == "preset":
            continue
        try:
            same = base is not None and RuleSet.from_json({"preset": preset, key: value}) == base
        except RuleError:
            same = False
        if not same:
            out[key] = value
    return preset if len(out) == 1 else out


def _jsonish(value: Any) -> Any:
    return getattr(value, "value", value)


_FIELDS = frozenset(f.name for f in fields(RuleSet))


def _canonical(preset: Any, key: str, value: Any) -> Any:
    """An option's value as the engine spells it (``cap`` 16 -> ``"16"``); unchanged if refused
    (the caller's validation then explains why) or if it is not a plain RuleSet field."""
    if key not in _FIELDS:
        return value
    try:
        parsed = getattr(RuleSet.from_json({"preset": preset, key: value}), key)
    except RuleError:
        return value
    parsed = _jsonish(parsed)
    return list(parsed) if isinstance(parsed, tuple) else parsed


@dataclass(frozen=True, slots=True)
class GroupConfig:
    """A group's settings with defaults filled in (``rules`` as stored)."""

    rules: Any
    discard_seconds: float
    claim_seconds: float
    language: str
    bank_seconds: float = 0.0
    ai_level: str = "strong"

    @classmethod
    def of(
        cls, stored: Mapping[str, Any], *, discard: float, claim: float, language: str, bank: float = 0.0,
        ai_level: str = "strong",
    ) -> GroupConfig:  # fmt: skip
        """From the group's stored settings; ``discard`` / ``claim`` / ``language`` / ``bank`` /
        ``ai_level``: the defaults."""

        def seconds(key: str, default: float) -> float:
            value = stored.get(key, default)
            ok = isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value <= 86400
            return float(value) if ok else default

        lang = stored.get("language")
        level = stored.get("ai_level")
        return cls(
            rules=stored.get("rules", "standard"),
            discard_seconds=seconds("discard_seconds", discard),
            claim_seconds=seconds("claim_seconds", claim),
            language=lang if lang in ("zh_CN", "en") else language,
            bank_seconds=seconds("bank_seconds", bank),
            ai_level=level if level in AI_LEVELS else ai_level,
        )

    def ruleset(self) -> RuleSet:
        """The rules as a RuleSet (standard if the stored value is no longer valid)."""
        try:
            return RuleSet.from_json(self.rules)
        except RuleError:
            return RuleSet()

    def value(self, item: Item) -> Any:
        """The item's current value, in the JSON form of its choices."""
        if item.key == "preset":
            return _rules_dict(self.rules)["preset"]
        if item.key == "kwx_value":
            return self.ruleset().values.kawuxing
        if not item.is_rule:
            value = getattr(self, item.key)
            return int(value) if isinstance(value, float) and value.is_integer() else value
        return _jsonish(getattr(self.ruleset(), item.key))

    def change(self, key: str, value: Any) -> dict[str, Any]:
        """The settings rows (key -> JSON value) that set ``key`` to ``value``.

        ``key``: ``preset`` (resets the options to that preset), a docs/rules.md §C option, ``reset`` (the
        preset without options), one of :data:`~.time_control.TIMER_KEYS`, ``language`` or ``ai_level``.  Raises
        :class:`ConfigError` for an unknown key or a value the rules engine refuses.
        """
        if key in TIMER_KEYS:
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= MAX_SECONDS:
                raise ConfigError(N_("Timers take a number of seconds from 0 (no limit) to {max}."), max=MAX_SECONDS)
            return {key: int(value) if float(value).is_integer() else float(value)}
        if key == "language":
            lang = _LANGS.get(str(value).strip().lower())
            if lang is None:
                raise ConfigError(N_("The language is zh (中文) or en (English)."))
            return {"language": lang}
        if key == "ai_level":
            level = str(value).strip().lower()
            if level not in AI_LEVELS:
                raise ConfigError(N_("The AI level is easy, normal or strong."))
            return {"ai_level": level}
        if key == "players":  # one source: the table's choice at /new (TableChoice)
            raise ConfigError(
                N_(
                    "“{key} {value}” was refused: the number of seats is chosen for each table. "
                    "Send /new 2, /new 3 or /new 4 in the group."
                ),
                key=key, value=value,
            )  # fmt: skip
        rules = _rules_dict(self.rules)
        if key == "reset":
            new: Any = rules["preset"]
        elif key == "preset":
            new = str(value)
        elif key in KNOWN_OPTIONS:
            new = _compact({**rules, key: _canonical(rules["preset"], key, value)})
        else:
            raise ConfigError(N_("There is no setting called {key}."), key=key)
        try:
            check_table_rules(RuleSet.from_json(new))
        except RuleError as e:
            item = _BY_KEY.get(key)
            if key == "preset" and str(value) not in PRESETS:
                raise ConfigError(
                    N_("“{key} {value}” was refused: there is no rules preset of that name. The presets: {names}."),
                    key=key, value=value, names=", ".join(PRESETS),
                ) from None  # fmt: skip
            if key == "base":
                raise ConfigError(
                    N_("“{key} {value}” was refused: {title} is a whole number such as 1, 2, 5 or 10."),
                    item=item, key=key, value=value,
                ) from None  # fmt: skip
            if item is not None:  # a menu item: its choices in words, not the engine's ids
                raise ConfigError(
                    N_(
                        "“{key} {value}” was refused: it is not a choice for {title}. The choices: {choices}. "
                        "Pick one in the /settings menu."
                    ),
                    item=item, key=key, value=value,
                ) from None  # fmt: skip
            raise ConfigError(N_("These rules were refused; nothing was changed."), str(e)) from None
        return {"rules": new}


GAMES = tuple(Ruleset)
"""The games a table may play: 卡五星 (docs/rules.md §A) and 卡心五 (docs/rules.md §B)."""
SEAT_COUNTS = (2, 3, 4)
"""The table sizes a table may have (docs/rules.md §A2.1)."""
_SIZED = {2: "two_seats", 3: "standard", 4: "four_seats"}


@dataclass(frozen=True, slots=True)
class TableChoice:
    """What a table's opener chose at ``/new`` or with the lobby's buttons: the ``game`` (a
    :class:`~engine.rules.Ruleset`: 卡五星 or 卡心五; a name given is converted) and the number of
    ``seats`` (2, 3 or 4; AI seats may fill them).

    Kept in the table's options (``{"game": ..., "seats": ...}``); :meth:`rules` makes the table's
    rules from it and the group's rules (docs/rules.md §A2.1, "Tables of 2 and 4 seats")."""

    game: Ruleset = Ruleset.KAWUXING
    seats: int = 3

    def __post_init__(self) -> None:
        object.__setattr__(self, "game", Ruleset(self.game))  # a game's name given as a string

    @classmethod
    def of(cls, options: Mapping[str, Any]) -> TableChoice:
        """From a table's options (the default 卡五星 at 3 seats for what is missing or unknown)."""
        game, seats = options.get("game"), options.get("seats")
        return cls(
            game=Ruleset(game) if game in GAMES else Ruleset.KAWUXING,
            seats=seats if seats in SEAT_COUNTS and not isinstance(seats, bool) else 3,
        )

    @classmethod
    def default(cls, group_rules: Any) -> TableChoice:
        """A bare ``/new``: the game and table size of the group's rules (卡五星 at 3 seats when the
        group's rules are not valid)."""
        try:
            rules = RuleSet.from_json(group_rules)
        except RuleError:
            return cls()
        return cls(game=rules.ruleset, seats=rules.players if rules.players in SEAT_COUNTS else 3)

    def options(self) -> dict[str, Any]:
        """The table-options keys that keep the choice."""
        return {"game": self.game, "seats": self.seats}

    def rules(self, group_rules: Any) -> Any:
        """The table's rules (a preset name or an options object): 卡五星 is the group's rules at
        ``seats`` seats (``players``; 4 seats also take 万, the ``four_seats`` tiles, and a group
        on the standard preset reads as ``two_seats`` / ``four_seats``); 卡心五 is the ``kaxinwu``
        preset at ``seats`` seats with only the group's 底金 (``base``) — the group's other options
        are 卡五星's and do not apply to it.  Not checked: see
        :func:`~kwx_bot.service.game.check_table_rules`."""
        stored = _rules_dict(group_rules)
        if self.game is Ruleset.KAXINWU:
            out = {"preset": "kaxinwu", "players": self.seats}
            if "base" in stored:
                out["base"] = stored["base"]
            return _compact(out)
        if self.seats == 3 and _players(group_rules) == 3:
            return group_rules
        options = {k: v for k, v in stored.items() if k not in ("preset", "players", "suits")}
        preset = stored["preset"] if stored["preset"] not in _SIZED.values() else _SIZED[self.seats]
        out = {"preset": preset, **options, "players": self.seats}
        if self.seats == 4:
            out["suits"] = ["p", "s", "m"]
        elif "suits" in stored and stored["preset"] not in _SIZED.values():
            out["suits"] = stored["suits"]
        return _compact(out)


_GAME_WORDS = {
    "kawuxing": Ruleset.KAWUXING, "kwx": Ruleset.KAWUXING, "卡五星": Ruleset.KAWUXING,
    "kaxinwu": Ruleset.KAXINWU, "kxw": Ruleset.KAXINWU, "卡心五": Ruleset.KAXINWU,
}  # fmt: skip


def parse_new(args: Sequence[str], group_rules: Any) -> TableChoice | None:
    """``/new [game] [seats]`` -> the table's choice (None for a bare ``/new``: the group's own).

    ``game``: ``kawuxing`` / ``kwx`` / 卡五星 or ``kaxinwu`` / ``kxw`` / 卡心五; ``seats``: 2, 3 or 4
    (``4p`` and ``4人`` too), in either order.  What is not given is the group's (:meth:`TableChoice.default`),
    except that another game than the group's has that game's own usual size (卡五星 3, 卡心五 4).
    Raises :class:`ConfigError` (a polite message with the usage) for anything else."""
    if not args:
        return None
    game: Ruleset | None = None
    seats: int | None = None
    for raw in args:
        word = raw.strip().lower()
        number = word.removesuffix("p").removesuffix("人").removesuffix("seats").removesuffix("seat")
        if word in _GAME_WORDS and game is None:
            game = _GAME_WORDS[word]
        elif (count := whole_number(number)) is not None and seats is None:
            seats = count
            if seats not in SEAT_COUNTS:
                raise ConfigError(N_("A table has 2, 3 or 4 seats. For example: /new 4 or /new kaxinwu 2."))
        else:
            raise ConfigError(
                N_(
                    "I did not understand “{word}”. Use /new for the group's game, /new 2, /new 3 or /new 4 for "
                    "the number of seats, and /new kaxinwu (卡心五) or /new kawuxing (卡五星) for the game, "
                    "e.g. /new kaxinwu 2."
                ),
                word=raw,
            )
    default = TableChoice.default(group_rules)
    game = game or default.game
    if seats is None:
        seats = default.seats if game == default.game else (4 if game is Ruleset.KAXINWU else 3)
    return TableChoice(game, seats)


def _players(group_rules: Any) -> int:
    try:
        return RuleSet.from_json(group_rules).players
    except RuleError:
        return 3


def parse_change(args: list[str]) -> tuple[str, Any]:
    """``/settings <key> <value>`` -> ``(key, value)``: ``true``/``on``/``false``/``off`` become
    booleans, integers become numbers, anything else stays text.  ``/settings reset`` resets the
    options.  Raises :class:`ConfigError` if the arguments are not a key and one value."""
    if len(args) == 1 and args[0].lower() == "reset":
        return "reset", None
    if len(args) != 2:
        raise ConfigError(N_("Use /settings for the menu, or /settings OPTION VALUE, e.g. /settings cap 16."))
    key = _ALIASES.get(args[0].lower(), args[0].lower())
    raw = args[1]
    low = raw.lower()
    value: Any = raw
    if low in ("true", "on", "yes"):
        value = True
    elif low in ("false", "off", "no"):
        value = False
    elif (number := whole_number(raw, minimum=None)) is not None:
        value = number
    return key, value


# --------------------------------------------------------------------------------------- menu
