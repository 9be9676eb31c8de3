"""Logging setup: one line per record, the bot token never printed (issue 8 §5).

httpx logs every request URL at INFO, and the Bot API puts the token in the URL
(``.../bot<token>/sendMessage``); :class:`RedactTokenFilter` replaces it with ``<token>`` in every
record, and httpx/httpcore/apscheduler are lowered to WARNING so a busy bot does not log every call.
Game logs use the ``kwx`` logger tree (``kwx.table`` logs one INFO line per table event with table id
and seat, never a concealed tile).
"""

from __future__ import annotations

import logging
import sys

__all__ = ["RedactTokenFilter", "setup_logging"]

_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class RedactTokenFilter(logging.Filter):
    """Replaces every occurrence of ``secret`` (the bot token) in a record's final message."""

    def __init__(self, secret: str) -> None:
        super().__init__()
        self._secret = secret

    def filter(self, record: logging.LogRecord) -> bool:
        if not self._secret:
            return True
        message = record.getMessage()
        if self._secret in message:
            record.msg = message.replace(self._secret, "<token>")
            record.args = None
        return True


def setup_logging(level: str = "INFO", token: str = "") -> None:
    """Configure the root logger to stderr at ``level`` with the token redacted from all records."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter(_FORMAT))
    handler.addFilter(RedactTokenFilter(token))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    for noisy in ("httpx", "httpcore", "apscheduler"):
        logging.getLogger(noisy).setLevel(max(logging.WARNING, logging.getLevelName(level)))
