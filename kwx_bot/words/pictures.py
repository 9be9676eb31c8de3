"""The pictures' words in a language, from the catalogs (docs/architecture.md §3).

Render is pure and draws whatever words it is given (:class:`render.labels.PictureWords`); its
English texts (:data:`render.labels.ENGLISH`) are msgids of the bot's catalogs in the message context
:data:`.i18n.PICTURE` (a word drawn on a picture, where room is short), the ``/stats`` picture's in
:data:`.i18n.PICTURE_STATS`, the ``/review`` picture's in :data:`.i18n.PICTURE_REVIEW`, and the
words that name the declaration per game (:data:`render.labels.PER_GAME`) once more in
:data:`.i18n.PICTURE_KAXINWU` (Chinese 卡心五 says 廊起 where 卡五星 says 亮倒).  So one ``.po`` file
per language holds every word the bot writes or draws.
Tile names are the bot's own (:func:`.texts.tile_label`, the discard buttons' words) and 番 names
the engine's table as in the texts (Chinese readers get the Chinese name, every other language the
English one).  Plain text, never HTML: render draws it.
"""

from __future__ import annotations

import functools
from dataclasses import replace
from typing import Any

from engine.fans import Fan
from engine.tiles import Tile
from render.labels import ENGLISH, PER_GAME, Labels, PictureWords

from ..settings import LANGUAGES
from .i18n import PICTURE, PICTURE_KAXINWU, PICTURE_REVIEW, PICTURE_STATS, translator
from .texts import tile_label

__all__ = ["picture_msgids", "picture_words"]


@functools.cache
def picture_words(lang: str) -> PictureWords:
    """The pictures' words in the catalog ``lang`` (one of :data:`kwx_bot.settings.LANGUAGES`),
    cached: what every ``render`` drawing function takes as ``words``.  Raises ValueError for
    another language."""
    if lang not in LANGUAGES:
        raise ValueError(f"no picture words for language {lang!r}: use one of {', '.join(LANGUAGES)}")
    tr = translator(lang)
    tiles = tuple(tile_label(t, tr) for t in Tile)
    fans = {} if lang.startswith("zh") else {fan.zh: fan.en for fan in Fan}
    plain = ENGLISH.kawuxing.translated(lang, lambda s: tr.pgettext(PICTURE, s), tiles, fans)
    own: dict[str, Any] = {f: _per_game(getattr(ENGLISH.kaxinwu, f), lang) for f in PER_GAME}
    kaxinwu = replace(plain, **own)
    stats = ENGLISH.stats.translated(lang, lambda s: tr.pgettext(PICTURE_STATS, s))
    review = ENGLISH.review.translated(lang, lambda s: tr.pgettext(PICTURE_REVIEW, s))
    return PictureWords(lang=lang, kawuxing=plain, kaxinwu=kaxinwu, stats=stats, review=review)


def _per_game(text: str, lang: str) -> str:
    """A declaration's word under 卡心五: its :data:`PICTURE_KAXINWU` form, else the plain one."""
    tr = translator(lang)
    own = tr.pgettext(PICTURE_KAXINWU, text)
    return own if own != text else tr.pgettext(PICTURE, text)


def picture_msgids() -> list[tuple[str, str, tuple[str, ...]]]:
    """Every (context, msgid, placeholders the picture fills besides the msgid's own) the pictures
    need from a catalog, in order, without repeats: the words of :data:`render.labels.ENGLISH` (the
    tiles and 番 names are not among them: the bot's tile msgids and the engine's table)."""
    labels: Labels = ENGLISH.kawuxing
    stats = ENGLISH.stats
    out: dict[tuple[str, str], tuple[str, ...]] = {}
    for text in labels.words():
        out.setdefault((PICTURE, text), ())
    for field in stats.WORDS:
        out.setdefault((PICTURE_STATS, getattr(stats, field)), tuple(stats.GIVEN.get(field, ())))
    for field in PER_GAME:
        out.setdefault((PICTURE_KAXINWU, getattr(ENGLISH.kaxinwu, field)), ())
    review = ENGLISH.review
    for kind, text in review.acts.items():
        out.setdefault((PICTURE_REVIEW, text), tuple(review.GIVEN.get(kind, ())))
    for field in review.WORDS:
        out.setdefault((PICTURE_REVIEW, getattr(review, field)), ())
    return [(context, text, given) for (context, text), given in out.items()]
