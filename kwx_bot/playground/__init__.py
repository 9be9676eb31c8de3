"""``kwx-bot playground``: try kwx in the browser, without a bot token and without a network.

One process runs three things on 127.0.0.1 (the fake Bot API of the end-to-end tests, docs/architecture.md §6):

* the fake Telegram Bot API (:mod:`fakebot`, HTTP on a free port) with a few preset users who are
  all members of one group;
* the real bot as a child process, ``python -m kwx_bot run`` — the production code path — with
  ``TELEGRAM_API_BASE_URL`` pointing at the fake, a fake token of the right shape made at run time,
  and a throw-away database unless ``--db`` is given;
* a web page (:mod:`.server`, plain HTML/CSS/JS from ``static/``) showing what a chosen user's
  Telegram client shows: the group chat and their private chat with the bot.

The playground reaches the bot only through the fake Bot API; it imports nothing of the bot's floors.
"""

from .server import Playground, run_playground

__all__ = ["Playground", "run_playground"]
