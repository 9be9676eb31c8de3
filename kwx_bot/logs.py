"""Logging setup: one line per record, the bot token never printed.

httpx logs every request URL at INFO, and the Bot API puts the token in the URL
(``.../bot<token>/sendMessage``); PTB's own errors quote it too (``InvalidToken: The token `...` was
rejected``), in messages *and* in the tracebacks logged with them.  :class:`RedactTokenFilter`
replaces it with ``<token>`` in every record's message, and :class:`RedactingFormatter` in the whole
formatted text — exception tracebacks (``exc_text``) and stack traces included — so no handler
output ever carries it.  httpx/httpcore/apscheduler are lowered to WARNING so a busy bot does not log
every call.  Game logs use the ``kwx`` logger tree (``kwx.table`` logs one INFO line per table event
with table id and seat, never a concealed tile, and never the deal's seed, which determines every tile).
"""

from __future__ import annotations

import logging
import sys
from urllib.parse import quote

__all__ = ["QuietBootstrapFilter", "RedactTokenFilter", "RedactingFormatter", "redact", "setup_logging"]

_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
_MASK = "<token>"
_WEBHOOK_MASK = "<webhook-secret>"

Forms = tuple[tuple[str, str], ...]
"""What to hide and what to write instead: ``(text, mask)`` pairs, longest text first."""


def _forms(secret: str, webhook_secret: str = "") -> Forms:
    """The token and the webhook secret as written and URL-encoded (``:`` -> ``%3A``), each with its
    mask; longest first, so a secret that is part of the token cannot leave a piece of it."""
    pairs: dict[str, str] = {}
    for value, mask in ((webhook_secret, _WEBHOOK_MASK), (secret, _MASK)):
        if value:
            pairs.update(dict.fromkeys((value, quote(value, safe="")), mask))
    return tuple(sorted(pairs.items(), key=lambda pair: -len(pair[0])))


def redact(text: str, forms: Forms) -> str:
    """``text`` with every form of the token replaced by ``<token>`` and of the webhook secret by
    ``<webhook-secret>`` (``forms``: from the filter's or formatter's secrets)."""
    for form, mask in forms:
        if form in text:
            text = text.replace(form, mask)
    return text


class RedactTokenFilter(logging.Filter):
    """Replaces every occurrence of ``secret`` (the bot token) and of ``webhook_secret``
    (``KWX_WEBHOOK_SECRET``) in a record's final message."""

    def __init__(self, secret: str, *, webhook_secret: str = "") -> None:
        super().__init__()
        self._forms = _forms(secret, webhook_secret)

    def filter(self, record: logging.LogRecord) -> bool:
        if not self._forms:
            return True
        message = record.getMessage()
        clean = redact(message, self._forms)
        if clean != message:
            record.msg = clean
            record.args = None
        return True


class RedactingFormatter(logging.Formatter):
    """A formatter whose output never contains ``secret`` (the token) or ``webhook_secret``: the
    message, the formatted exception (also its cached ``record.exc_text``, which other handlers
    reuse) and ``stack_info``."""

    def __init__(self, fmt: str | None = None, *, secret: str = "", webhook_secret: str = "") -> None:
        super().__init__(fmt)
        self._forms = _forms(secret, webhook_secret)

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        if not self._forms:
            return text
        if record.exc_text:
            record.exc_text = redact(record.exc_text, self._forms)
        if record.stack_info:
            record.stack_info = redact(record.stack_info, self._forms)
        return redact(text, self._forms)


class QuietBootstrapFilter(logging.Filter):
    """Drop the traceback PTB logs when its start-up (bootstrap) network loop gives up.

    ``kwx-bot run`` then prints one line of its own ("cannot reach the Telegram Bot API: ..."), so
    an unreachable or refused API gives two short lines, not a 100-line httpx traceback.  The
    record itself (one line) is kept.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name.startswith("telegram.ext") and "Network Retry Loop (Bootstrap" in record.getMessage():
            record.exc_info = None
            record.exc_text = None
        return True


def setup_logging(level: str = "INFO", token: str = "", webhook_secret: str = "") -> None:
    """Configure the root logger to stderr at ``level`` with the token and the webhook secret
    redacted from all output."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(RedactingFormatter(_FORMAT, secret=token, webhook_secret=webhook_secret))
    handler.addFilter(RedactTokenFilter(token, webhook_secret=webhook_secret))
    handler.addFilter(QuietBootstrapFilter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    for noisy in ("httpx", "httpcore", "apscheduler"):
        logging.getLogger(noisy).setLevel(max(logging.WARNING, logging.getLevelName(level)))
