"""The table as a Telegram Mini App: a second edge beside :mod:`kwx_bot.edge` (docs/architecture.md §4
"The Mini App").

:mod:`.auth` checks Telegram's signed ``initData``; :mod:`.server` serves the page's API (the
screen values the service computes, as JSON; presses through the service's own entry point) in
the bot's process and event loop.  It imports the service, never the reverse: what the service
must know of it (who has the page open) goes through a port (:class:`kwx_bot.service.ports.Page`).
"""
