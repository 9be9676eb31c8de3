"""An unreachable Bot API at start-up logs one line, not PTB's whole traceback (kwx_bot.logs)."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from kwx_bot.logs import setup_logging


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
