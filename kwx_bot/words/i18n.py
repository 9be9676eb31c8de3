"""Languages: gettext catalogs maintained and compiled with Babel (zh_CN first, then English).

Every user-facing string of the bot is an English msgid passed through a :class:`Translator`
(``_ = tr.gettext``; ``N_`` marks strings stored for later translation).  Catalogs live in
``kwx_bot/locale/<lang>/LC_MESSAGES/kwx.po`` (package data).  The ``.po`` files are the only source:
on first use of a language, Babel reads the ``.po`` and compiles it *in memory* into a gettext
catalog, so a plain ``pip install`` (which ships the ``.po`` files) always has working, never stale
translations; no compiled ``.mo`` is committed or needed.  A missing catalog falls back to the
English msgids.

Which language: private messages use the user's Telegram ``language_code`` (see
:func:`kwx_bot.settings.normalize_language`); group messages use the group's ``language`` setting,
else ``KWX_DEFAULT_LANGUAGE``.

Maintainers (after changing strings)::

    python -m kwx_bot.words.i18n update   # extract msgids from kwx_bot/**/*.py, merge them into each .po
    python -m kwx_bot.words.i18n check    # every msgid translated in zh_CN, placeholders consistent

A catalog's references name files, not lines, so a code change that moves a string leaves the
catalogs alone.

One English word, two Chinese ones: 卡五星's 亮倒 and 卡心五's 廊起 are the same act and read "lay
down" in English (docs/glossary.md), but Chinese names each game's own.  A text that names the act
is written once, as ``tr.gettext_for(kaxinwu, msgid)`` (or marked ``NG_(msgid)`` and translated that
way later): :func:`extract` then lists it twice, plainly (卡五星) and in the message context
:data:`KAXINWU` (卡心五), so the Chinese catalog holds one translation for each game while English
reads the same msgid in both.

``tests/kwx_bot/words/test_i18n.py`` runs the same check.
"""

from __future__ import annotations

import functools
import gettext
import io
import re
import sys
from collections.abc import Callable
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from ..settings import LANGUAGES

__all__ = [
    "DOMAIN",
    "KAXINWU",
    "LOCALE_DIR",
    "NG_",
    "N_",
    "PICTURE",
    "PICTURE_KAXINWU",
    "PICTURE_REVIEW",
    "PICTURE_STATS",
    "Translator",
    "check_catalogs",
    "extract",
    "translator",
]

DOMAIN = "kwx"
PACKAGE_DIR = Path(__file__).resolve().parent.parent
"""The ``kwx_bot`` package: the msgids are extracted from all its source files."""
LOCALE_DIR = PACKAGE_DIR / "locale"
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None, "gettext_for": (2,), "NG_": None}
PER_GAME_KEYWORDS = {"gettext_for": (2,), "NG_": None}
"""The markers of a text that has a 卡心五 form besides the plain one (:meth:`Translator.gettext_for`)."""
KAXINWU = "kaxinwu"
"""The message context of a text's 卡心五 form: the Chinese says 廊起 where the plain form says 亮倒
(docs/rules.md §B)."""
PICTURE = "picture"
"""The message context of a word drawn on a picture (:mod:`.pictures`): its msgid is the English
text in ``render/labels.py``; room on a picture is short."""
PICTURE_STATS = "picture stats"
"""The message context of a word of the ``/stats`` picture (a column's, not a badge's: "Self-draw"
is 自摸 on a badge and 其中自摸 in the stats)."""
PICTURE_REVIEW = "picture review"
"""The message context of a word of the ``/review`` picture (an act's word: "Win" is 胡 there, 胡牌
as a result's heading)."""
PICTURE_KAXINWU = "picture kaxinwu"
"""The message context of a picture word's 卡心五 form (廊起 where the plain form says 亮倒)."""
GIVEN_PREFIX = "placeholders also given:"
"""A msgid's comment naming the placeholders its text is formatted with beyond its own (a
translation may use them)."""
_PLACEHOLDER = re.compile(r"\{[a-z_0-9]*\}")
_TAG = re.compile(r"</?[a-z]+>")


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it now (translate later with ``tr``)."""
    return message


def NG_(message: str) -> str:
    """Mark ``message`` for extraction in its plain and its 卡心五 form (translate it later with
    :meth:`Translator.gettext_for`)."""
    return message


class Translator:
    """One language's catalog.  ``gettext(msgid)`` / ``ngettext(singular, plural, n)`` are the
    catalog's own (no layer in between: the bot asks them for every word it shows)."""

    def __init__(self, lang: str, catalog: gettext.NullTranslations) -> None:
        self.lang = lang
        self._catalog = catalog
        self.gettext: Callable[[str], str] = catalog.gettext
        """The translation of a msgid (the msgid itself if untranslated)."""
        self.ngettext: Callable[[str, str, int], str] = catalog.ngettext
        """``ngettext(singular, plural, n)``: the plural form for ``n``."""

    def gettext_for(self, kaxinwu: bool, message: str) -> str:
        """The translation of ``message`` in the game's words: with ``kaxinwu`` its 卡心五 form (the
        message context :data:`KAXINWU`, which says 廊起 where the plain form says 亮倒), else the
        plain one; a text without a 卡心五 form (not marked per game) reads its plain form.  English
        reads the same msgid in both games ("lay down", docs/glossary.md)."""
        if kaxinwu:
            text = self._catalog.pgettext(KAXINWU, message)
            if text != message:
                return text
        return self._catalog.gettext(message)

    def pgettext(self, context: str, message: str) -> str:
        """The translation of ``message`` in the message context ``context`` (the msgid itself if
        untranslated there)."""
        return self._catalog.pgettext(context, message)

    def __repr__(self) -> str:
        return f"Translator({self.lang!r})"


def po_path(lang: str) -> Path:
    """Where the ``.po`` source of ``lang`` lives."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def _compile(lang: str) -> gettext.NullTranslations:
    path = po_path(lang)
    if not path.exists():
        return gettext.NullTranslations()
    with path.open("rb") as fh:
        catalog = read_po(fh, locale=lang, domain=DOMAIN)
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    buf.seek(0)
    return gettext.GNUTranslations(buf)


@functools.cache
def translator(lang: str) -> Translator:
    """The (cached) translator for a catalog name such as ``zh_CN`` or ``en``."""
    return Translator(lang, _compile(lang))


def extract() -> Catalog:
    """All msgids used in ``kwx_bot`` source files, as a Babel catalog (the ``.pot``); a text marked
    per game (:data:`PER_GAME_KEYWORDS`) is listed once more in the context :data:`KAXINWU`; and the
    pictures' words (``render/labels.py``, :func:`.pictures.picture_msgids`) in the context
    :data:`PICTURE`."""
    from .pictures import picture_msgids

    pot = Catalog(project="kwx", domain=DOMAIN)
    root = PACKAGE_DIR
    for filename, lineno, message, comments, context in extract_from_dir(
        str(root), method_map=[("**.py", "python")], keywords=KEYWORDS
    ):
        pot.add(message, None, [(f"kwx_bot/{filename}", lineno)], auto_comments=comments, context=context)
    for filename, lineno, message, comments, _context in extract_from_dir(
        str(root), method_map=[("**.py", "python")], keywords=PER_GAME_KEYWORDS
    ):
        pot.add(message, None, [(f"kwx_bot/{filename}", lineno)], auto_comments=comments, context=KAXINWU)
    for context, message, given in picture_msgids():
        comments = [f"{GIVEN_PREFIX} " + " ".join(f"{{{g}}}" for g in given)] if given else []
        pot.add(message, None, [("render/labels.py", 0)], auto_comments=comments, context=context)
    return pot


def check_catalogs(langs: tuple[str, ...] = ("zh_CN",)) -> list[str]:
    """Problems of the catalogs against the source: untranslated, fuzzy or obsolete msgids, and
    translations whose ``{placeholders}`` or HTML tags differ from their msgid.  ``[]`` = good."""
    problems = []
    pot = extract()
    for lang in langs:
        with po_path(lang).open("rb") as fh:
            po = read_po(fh, locale=lang, domain=DOMAIN)
        for msg in pot:
            if not msg.id:
                continue
            have = po.get(msg.id, msg.context)
            if have is None or not have.string or (isinstance(have.string, tuple) and not all(have.string)):
                problems.append(f"{lang}: untranslated {msg.id!r}" + (f" ({msg.context})" if msg.context else ""))
                continue
            if have.fuzzy:
                problems.append(f"{lang}: fuzzy {msg.id!r}")
            ids = [str(x) for x in (msg.id if isinstance(msg.id, (tuple, list)) else (msg.id,))]
            strs = [str(x) for x in (have.string if isinstance(have.string, (tuple, list)) else (have.string,))]
            given = " ".join(c for c in msg.auto_comments if c.startswith(GIVEN_PREFIX))
            want_ph = set(_PLACEHOLDER.findall(" ".join(ids))) | set(_PLACEHOLDER.findall(given))
            want_tags = sorted(_TAG.findall(ids[0]))
            for s in strs:
                if set(_PLACEHOLDER.findall(s)) - want_ph:
                    problems.append(f"{lang}: placeholders differ in {msg.id!r}: {s!r}")
                if sorted(_TAG.findall(s)) != want_tags:
                    problems.append(f"{lang}: HTML tags differ in {msg.id!r}: {s!r}")
        for msg in po:
            if msg.id and pot.get(msg.id, msg.context) is None:
                problems.append(f"{lang}: obsolete {msg.id!r}" + (f" ({msg.context})" if msg.context else ""))
    return problems


def update_catalogs() -> None:
    """Extract msgids and merge them into every language's ``.po`` (new entries untranslated)."""
    pot = extract()
    for lang in LANGUAGES:
        path = po_path(lang)
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists():
            with path.open("rb") as fh:
                po = read_po(fh, locale=lang, domain=DOMAIN)
        else:
            po = Catalog(locale=lang, domain=DOMAIN, project="kwx")
        po.update(pot, no_fuzzy_matching=True)
        po.obsolete.clear()
        with path.open("wb") as fh:
            write_po(fh, po, sort_output=True, width=110, omit_header=False, include_lineno=False)


def main(argv: list[str] | None = None) -> int:
    """``python -m kwx_bot.words.i18n update|check``."""
    args = sys.argv[1:] if argv is None else argv
    if args == ["update"]:
        update_catalogs()
        return 0
    if args == ["check"]:
        problems = check_catalogs()
        for p in problems:
            print(p)
        return 1 if problems else 0
    print("usage: python -m kwx_bot.words.i18n update|check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
