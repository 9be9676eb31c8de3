"""The Telegram edge: everything that speaks python-telegram-bot (docs/architecture.md).

Application wiring (:mod:`.app`, typed ``bot_data`` in :mod:`.context`), the handlers that turn
updates into plain values and call the table service once (:mod:`.handlers`), the callback-data
codec and its ``pattern=`` routing (:mod:`.codec`), the sender with its failure policy (Telegram
errors become values; :mod:`.sender`), rate limiting (:mod:`.throttle`) and per-chat update ordering
(:mod:`.processor`).  Imports point down: edge -> :mod:`kwx_bot.service` -> words / store.
"""
