"""The pictures' words the tests draw with: the bot's catalogs (render itself has English only)."""

from __future__ import annotations

from kwx_bot.words.pictures import picture_words
from render.labels import Labels, PictureWords

LANGUAGES = ("zh_CN", "en")
"""The languages of the bot's catalogs (``kwx_bot.settings.LANGUAGES``)."""


def W(lang: str) -> PictureWords:
    """The pictures' words in ``lang`` (``zh_CN``, ``en``) from the catalogs."""
    return picture_words(lang)


ZH_WORDS = W("zh_CN")
EN_WORDS = W("en")
ZH: Labels = ZH_WORDS.kawuxing
EN: Labels = EN_WORDS.kawuxing
