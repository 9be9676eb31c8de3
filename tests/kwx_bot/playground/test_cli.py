"""``kwx-bot playground`` on the command line: a taken port is one line and status 1, no traceback."""

from __future__ import annotations

import socket
import subprocess
import sys


def test_a_taken_port_is_one_line_and_status_1(tmp_path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "kwx_bot", "playground", "--port", str(port), "--db", str(tmp_path / "k.sqlite3")],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
    assert done.returncode == 1, done
    assert done.stderr.strip().splitlines() == [
        f"kwx-bot playground: cannot serve on 127.0.0.1:{port} (Address already in use); try --port 0"
    ], done.stderr
    assert done.stdout == ""


def test_the_language_must_be_one_the_bot_speaks() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "kwx_bot", "playground", "--lang", "fr"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and "invalid choice: 'fr'" in done.stderr
