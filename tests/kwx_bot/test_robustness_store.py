"""A database that is not ours, or cannot be created, is one clear line (no traceback, no hang)."""

from __future__ import annotations

import asyncio
import os
import sys
import threading
import time

import pytest

from kwx_bot.store import Store, StoreError


def _worker_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if "_connection_worker_thread" in t.name and t.is_alive()]


def _no_workers_left(before: int) -> bool:
    deadline = time.monotonic() + 5
    while len(_worker_threads()) > before and time.monotonic() < deadline:
        time.sleep(0.01)
    return len(_worker_threads()) <= before


@pytest.mark.parametrize("content", [b"hello, this is not SQLite\n" * 20, bytes(range(256)) * 16])
async def test_a_file_that_is_not_sqlite_is_one_clear_error_and_closed(tmp_path, content):
    path = tmp_path / "kwx.sqlite3"
    path.write_bytes(content)
    before = len(_worker_threads())
    for migrate in (True, False):
        with pytest.raises(StoreError) as err:
            await Store.open(path, migrate=migrate)
        message = str(err.value)
        assert message.startswith(f"database at {path} is not a kwx SQLite database (") and "\n" not in message
        assert _no_workers_left(before)  # the connection's thread would keep the process alive
    assert path.read_bytes() == content  # never overwritten


async def test_a_database_directory_that_cannot_be_created_is_one_line(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StoreError) as err:
        await Store.open(blocker / "sub" / "kwx.sqlite3")
    assert str(err.value).startswith(f"cannot create the database directory {blocker / 'sub'}")
    assert "\n" not in str(err.value)


async def test_a_directory_as_the_database_is_one_line(tmp_path):
    before = len(_worker_threads())
    with pytest.raises(StoreError) as err:
        await Store.open(tmp_path)
    assert str(err.value).startswith(f"cannot open the database at {tmp_path}") and "\n" not in str(err.value)
    assert _no_workers_left(before)


def _env(extra: dict[str, str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "KWX_"))}
    env.update(extra, NO_PROXY="127.0.0.1,localhost")
    return env


async def _cli(args: list[str], env: dict[str, str]) -> tuple[int, str, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "kwx_bot", *args, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    try:
        out, err = await asyncio.wait_for(proc.communicate(), 60)
    except TimeoutError:
        proc.kill()
        await proc.wait()
        raise AssertionError(f"kwx-bot {' '.join(args)} hangs") from None
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


def _one_line(err: str) -> str:
    assert "Traceback" not in err and err.count("\n") == 1, err
    return err


async def test_check_db_on_a_corrupt_file_prints_one_line(tmp_path):
    db = tmp_path / "kwx.sqlite3"
    db.write_bytes(b"garbage" * 100)
    code, out, err = await _cli(["check-db"], _env({"KWX_DB_PATH": str(db)}))
    assert code == 1 and out == ""
    assert _one_line(err) == f"kwx-bot: database at {db} is not a kwx SQLite database (file is not a database)\n"


REAL_LOOKING = "123456789:AA" + "fake" * 9  # built at run time: no token-shaped literal in the repo


@pytest.mark.fakebot(token=REAL_LOOKING)
async def test_run_on_a_corrupt_file_exits_with_one_line(fakebot, fakebot_server, tmp_path):
    db = tmp_path / "kwx.sqlite3"
    db.write_bytes(b"garbage" * 100)
    env = _env({"TELEGRAM_BOT_TOKEN": fakebot.token, "TELEGRAM_API_BASE_URL": fakebot_server.url,
                "KWX_DB_PATH": str(db)})  # fmt: skip
    code, _out, err = await _cli(["run"], env)
    assert code == 1
    assert err.endswith(f"kwx-bot: database at {db} is not a kwx SQLite database (file is not a database)\n")
    assert "Traceback" not in err and fakebot.token not in err


@pytest.mark.fakebot(token=REAL_LOOKING)
async def test_run_with_an_uncreatable_database_directory_exits_with_one_line(fakebot, fakebot_server, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    env = _env({"TELEGRAM_BOT_TOKEN": fakebot.token, "TELEGRAM_API_BASE_URL": fakebot_server.url,
                "KWX_DB_PATH": str(blocker / "db" / "kwx.sqlite3")})  # fmt: skip
    code, _out, err = await _cli(["run"], env)
    assert code == 1 and "Traceback" not in err
    assert err.endswith(f"kwx-bot: cannot create the database directory {blocker / 'db'}: Not a directory\n")
