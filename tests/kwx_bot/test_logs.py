"""Logging: the bot token never reaches the log output (messages, tracebacks, stack traces, as
written and URL-encoded); an unreachable Bot API at start-up logs one line, not PTB's whole traceback."""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterator
from urllib.parse import quote

import pytest

from kwx_bot.logs import RedactingFormatter, setup_logging

TOKEN = "123456789:AA" + "secret" * 6  # built at run time: no token-shaped literal in the repo


def _raise_with_token() -> None:
    raise RuntimeError(f"The token `{TOKEN}` was rejected by https://api.telegram.org/bot{quote(TOKEN, safe='')}/getMe")


def test_the_token_is_redacted_from_formatted_tracebacks():
    formatter = RedactingFormatter("%(levelname)s %(message)s", secret=TOKEN)
    try:
        _raise_with_token()
    except RuntimeError:
        record = logging.LogRecord("telegram.ext", logging.ERROR, __file__, 1, "failed: %s", (TOKEN,), sys.exc_info())
    record.stack_info = f"Stack (most recent call last):\n  token {TOKEN}"
    text = formatter.format(record)
    assert "Traceback" in text and "RuntimeError" in text and "<token>" in text
    assert TOKEN not in text and quote(TOKEN, safe="") not in text
    assert TOKEN not in (record.exc_text or "")  # the cached traceback other handlers reuse


@pytest.fixture
def restore_root_logging():
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    for h in list(root.handlers):
        root.removeHandler(h)
    for h in handlers:
        root.addHandler(h)
    root.setLevel(level)


def test_setup_logging_never_prints_the_token(capsys, restore_root_logging):
    setup_logging("INFO", TOKEN)
    log = logging.getLogger("telegram.ext")
    try:
        _raise_with_token()
    except RuntimeError:
        log.exception("Invalid token %s", TOKEN)
    log.info("POST https://api.telegram.org/bot%s/getMe", TOKEN)
    err = capsys.readouterr().err
    assert "Traceback" in err and err.count("<token>") >= 4
    assert TOKEN not in err and quote(TOKEN, safe="") not in err


@pytest.fixture
def restore_root_logger() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    for h in list(root.handlers):
        root.removeHandler(h)
    for h in handlers:
        root.addHandler(h)
    root.setLevel(level)


@pytest.mark.usefixtures("restore_root_logger")
def test_bootstrap_failure_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    setup_logging("INFO", "123456789:" + "A" * 35)
    log = logging.getLogger("telegram.ext._utils.networkloop")
    try:
        raise ConnectionError("Name or service not known")
    except ConnectionError:
        log.exception("%s Failed run number %s of %s. Aborting.", "Network Retry Loop (Bootstrap Initialize):", 0, 0)
        logging.getLogger("kwx.table").exception("a table failed")
    err = capsys.readouterr().err.splitlines()
    bootstrap = [line for line in err if "Bootstrap" in line]
    assert len(bootstrap) == 1 and "Aborting" in bootstrap[0]
    assert "Traceback (most recent call last):" in err  # other errors keep their traceback
    assert err.index("Traceback (most recent call last):") > err.index(bootstrap[0])


@pytest.mark.usefixtures("restore_root_logger")
def test_setup_logging_never_prints_the_webhook_secret(capsys: pytest.CaptureFixture[str]) -> None:
    """PTB's DEBUG line of ``setWebhook`` carries ``secret_token``; also in a traceback and
    URL-encoded, the secret is written as ``<webhook-secret>``, the token still as ``<token>``."""
    secret = "hook-" + "Z9_" * 10
    setup_logging("DEBUG", TOKEN, secret)
    log = logging.getLogger("telegram.ext.ExtBot")
    log.debug("Calling Bot API endpoint `setWebhook` with parameters `%s`", {"secret_token": secret})
    try:
        raise ValueError(f"bad header {quote(secret + '/', safe='')} for bot{TOKEN}")
    except ValueError:
        log.exception("failed")
    err = capsys.readouterr().err
    assert "'secret_token': '<webhook-secret>'" in err and err.count("<webhook-secret>") == 2
    assert secret not in err and TOKEN not in err and "<token>" in err
