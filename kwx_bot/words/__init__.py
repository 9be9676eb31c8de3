"""The words: every text the bot shows, as pure functions of values and a language.

Captions and lobby texts (:mod:`.captions`), shared helpers and escaping (:mod:`.texts`), the rules
in plain words (:mod:`.rules_text`), help pages and command menus (:mod:`.help_text`), ledger
reports (:mod:`.ledger_text`), the ``/calc`` calculator (:mod:`.calc`) and the gettext catalogs
(:mod:`.i18n`).  No Telegram, no store access, no service: values in, HTML strings out
(docs/architecture.md).
"""
