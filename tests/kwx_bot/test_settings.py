"""Settings from the environment and the command line's configuration errors."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from kwx_bot.__main__ import main
from kwx_bot.logs import RedactTokenFilter
from kwx_bot.settings import SettingsError, load_settings, normalize_language

TOKEN = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"


def test_minimal_environment_uses_defaults(tmp_path):
    s = load_settings({"TELEGRAM_BOT_TOKEN": TOKEN, "XDG_DATA_HOME": str(tmp_path)})
    assert s.bot_id == 123456789
    assert s.db_path == tmp_path / "kwx" / "kwx.sqlite3"
    assert (s.api_base_url, s.admin_chat_id, s.log_level, s.default_language) == (None, None, "INFO", "zh_CN")
    assert s.picture_format == "palette"  # the 128-colour PNG, chosen by measurement (docs/telegram.md §6)
    assert s.ai_level == "strong"  # AI seats and 托管 play the strong AI unless a group chooses
    assert TOKEN not in repr(s)


def test_every_variable_is_read():
    s = load_settings({
        "TELEGRAM_BOT_TOKEN": TOKEN, "TELEGRAM_API_BASE_URL": "http://localhost:8081/",
        "KWX_DB_PATH": "/data/kwx.db", "KWX_ADMIN_CHAT_ID": "-100123", "KWX_LOG_LEVEL": "debug",
        "KWX_DEFAULT_LANGUAGE": "en-US", "KWX_DISCARD_SECONDS": "45", "KWX_CLAIM_SECONDS": "0",
        "KWX_LOBBY_IDLE_SECONDS": "60", "KWX_TABLE_EDIT_SECONDS": "4.5", "KWX_REMIND_SECONDS": "0",
        "KWX_RENDER_PROCESSES": "2", "KWX_PICTURE_FORMAT": "PNG", "KWX_AI_LEVEL": "Normal",
    })  # fmt: skip
    assert s.api_base_url == "http://localhost:8081"
    assert str(s.db_path) == "/data/kwx.db"
    assert (s.admin_chat_id, s.log_level, s.default_language) == (-100123, "DEBUG", "en")
    assert (s.discard_seconds, s.claim_seconds, s.lobby_idle_seconds, s.table_edit_seconds) == (45, 0, 60, 4.5)
    assert (s.remind_seconds, s.render_processes, s.picture_format, s.ai_level) == (0, 2, "png", "normal")


@pytest.mark.parametrize(
    ("env", "fragment"),
    [
        ({}, "TELEGRAM_BOT_TOKEN is not set"),
        ({"TELEGRAM_BOT_TOKEN": "nonsense"}, "malformed"),
        ({"TELEGRAM_BOT_TOKEN": "123:short"}, "malformed"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "TELEGRAM_API_BASE_URL": "ftp://x"}, "http"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "KWX_ADMIN_CHAT_ID": "me"}, "KWX_ADMIN_CHAT_ID"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "KWX_LOG_LEVEL": "LOUD"}, "KWX_LOG_LEVEL"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "KWX_DEFAULT_LANGUAGE": "fr"}, "KWX_DEFAULT_LANGUAGE"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "KWX_DISCARD_SECONDS": "soon"}, "KWX_DISCARD_SECONDS"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "KWX_RENDER_PROCESSES": "many"}, "KWX_RENDER_PROCESSES"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "KWX_PICTURE_FORMAT": "gif"}, "KWX_PICTURE_FORMAT"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "KWX_AI_LEVEL": "genius"}, "KWX_AI_LEVEL must be easy, normal or strong"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "KWX_WEBHOOK_URL": "http://kwx.example/hook", "KWX_WEBHOOK_SECRET": "s"},
         "KWX_WEBHOOK_URL must be a public https:// URL"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "KWX_WEBHOOK_URL": "https://kwx.example/hook"},
         "KWX_WEBHOOK_SECRET is required with KWX_WEBHOOK_URL"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "KWX_WEBHOOK_URL": "https://kwx.example/hook", "KWX_WEBHOOK_SECRET": "a b"},
         "KWX_WEBHOOK_SECRET must be 1-256 characters"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "KWX_WEBHOOK_URL": "https://kwx.example:8080/hook", "KWX_WEBHOOK_SECRET": "s"},
         "KWX_WEBHOOK_URL's port must be one Telegram posts to"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "KWX_WEBHOOK_PORT": "70000"}, "KWX_WEBHOOK_PORT must be a TCP port"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "KWX_WEBHOOK_LISTEN": "localhost"}, "KWX_WEBHOOK_LISTEN must be an IP"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "KWX_HEALTH_PORT": "x"}, "KWX_HEALTH_PORT must be a TCP port"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "KWX_HEALTH_STALL_SECONDS": "0.5"}, "KWX_HEALTH_STALL_SECONDS must be at least"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "KWX_METRICS_PORT": "0"}, "KWX_METRICS_PORT must be a TCP port"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "KWX_OPS_LISTEN": "::zz"}, "KWX_OPS_LISTEN must be an IP"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "KWX_WEBAPP_URL": "http://kwx.example/webapp/"},
         "KWX_WEBAPP_URL must be a public https:// URL"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "KWX_WEBAPP_URL": "https://kwx.example/webapp/?x=1"},
         "KWX_WEBAPP_URL must be a public https:// URL"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "KWX_WEBAPP_URL": "kwx.example/webapp/"}, "KWX_WEBAPP_URL must be"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "KWX_WEBAPP_PORT": "0"}, "KWX_WEBAPP_PORT must be a TCP port"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "KWX_WEBAPP_LISTEN": "host"}, "KWX_WEBAPP_LISTEN must be an IP"),
        ({"TELEGRAM_BOT_TOKEN": TOKEN, "KWX_WEBAPP_MAX_AGE": "30"}, "KWX_WEBAPP_MAX_AGE must be at least 60"),
    ],
)  # fmt: skip
def test_bad_environment_is_one_clear_line(env, fragment):
    with pytest.raises(SettingsError) as err:
        load_settings(env)
    assert fragment in str(err.value) and "\n" not in str(err.value)


def test_ops_defaults_and_webhook_mode():
    s = load_settings({"TELEGRAM_BOT_TOKEN": TOKEN})
    assert (s.webhook_url, s.webhook_path, s.health_port, s.metrics_port) == (None, "", None, None)
    assert (s.webhook_listen, s.webhook_port, s.ops_listen, s.health_stall_seconds) == (
        "127.0.0.1",
        8443,
        "127.0.0.1",
        60,
    )
    secret = "A-b_" + "c" * 40
    s = load_settings({
        "TELEGRAM_BOT_TOKEN": TOKEN, "KWX_WEBHOOK_URL": "https://bot.example.org/kwx/hook",
        "KWX_WEBHOOK_SECRET": secret, "KWX_WEBHOOK_LISTEN": "0.0.0.0", "KWX_WEBHOOK_PORT": "8088",
        "KWX_HEALTH_PORT": "8080", "KWX_HEALTH_STALL_SECONDS": "90", "KWX_METRICS_PORT": "9090",
        "KWX_OPS_LISTEN": "::1",
    })  # fmt: skip
    assert (s.webhook_url, s.webhook_path, s.webhook_listen, s.webhook_port) == (
        "https://bot.example.org/kwx/hook", "kwx/hook", "0.0.0.0", 8088,
    )  # fmt: skip
    assert (s.webhook_secret, s.health_port, s.health_stall_seconds, s.metrics_port, s.ops_listen) == (
        secret, 8080, 90, 9090, "::1",
    )  # fmt: skip
    assert secret not in repr(s)


def test_the_mini_app_is_off_unless_its_url_is_set():
    s = load_settings({"TELEGRAM_BOT_TOKEN": TOKEN})
    assert (s.webapp_url, s.webapp_listen, s.webapp_port, s.webapp_max_age) == (None, "127.0.0.1", 8444, 86400)
    s = load_settings({
        "TELEGRAM_BOT_TOKEN": TOKEN, "KWX_WEBAPP_URL": "https://kwx.example.org/webapp/",
        "KWX_WEBAPP_LISTEN": "0.0.0.0", "KWX_WEBAPP_PORT": "9000", "KWX_WEBAPP_MAX_AGE": "3600",
    })  # fmt: skip
    assert (s.webapp_url, s.webapp_listen, s.webapp_port, s.webapp_max_age) == (
        "https://kwx.example.org/webapp/", "0.0.0.0", 9000, 3600,
    )  # fmt: skip
    # plain http only on the machine itself (the playground, the tests)
    local = load_settings({"TELEGRAM_BOT_TOKEN": TOKEN, "KWX_WEBAPP_URL": "http://127.0.0.1:8000/webapp/"})
    assert local.webapp_url == "http://127.0.0.1:8000/webapp/"


@pytest.mark.parametrize(
    ("code", "lang"),
    [("zh-hans", "zh_CN"), ("zh-TW", "zh_CN"), ("zh", "zh_CN"), ("en", "en"), ("en-GB", "en"), ("ru", "zh_CN"),
     (None, "zh_CN"), ("", "zh_CN")],
)  # fmt: skip
def test_language_codes(code, lang):
    assert normalize_language(code) == lang


def test_token_is_redacted_from_logs():
    import logging

    record = logging.LogRecord("httpx", 20, "", 0, "POST https://api.telegram.org/bot%s/getMe", (TOKEN,), None)
    RedactTokenFilter(TOKEN).filter(record)
    assert TOKEN not in record.getMessage() and "<token>" in record.getMessage()


def _run(args, env_extra, tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "KWX_"))}
    env.update(env_extra, XDG_DATA_HOME=str(tmp_path))
    return subprocess.run([sys.executable, "-m", "kwx_bot", *args], env=env, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("token", [None, "not-a-token"])
def test_run_without_valid_token_exits_2_with_one_line(tmp_path, token):
    proc = _run([], {} if token is None else {"TELEGRAM_BOT_TOKEN": token}, tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("kwx-bot: TELEGRAM_BOT_TOKEN")
    assert "Traceback" not in proc.stderr and proc.stdout == ""


def test_webhook_mode_without_its_secret_refuses_to_start_with_one_line(tmp_path):
    proc = _run([], {"TELEGRAM_BOT_TOKEN": TOKEN, "KWX_WEBHOOK_URL": "https://kwx.example/hook"}, tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("kwx-bot: KWX_WEBHOOK_SECRET is required")
    assert "Traceback" not in proc.stderr and proc.stdout == ""


def test_check_db_and_backup(tmp_path, monkeypatch, capsys):
    db = tmp_path / "kwx.sqlite3"
    monkeypatch.setenv("KWX_DB_PATH", str(db))
    assert main(["check-db"]) == 1  # no database yet
    import asyncio

    from kwx_bot.store import Store

    async def create():
        await (await Store.open(db)).close()

    asyncio.run(create())
    assert main(["check-db"]) == 0
    out = capsys.readouterr().out
    from kwx_bot.store import SCHEMA_VERSION

    assert "integrity: ok" in out and f"schema version: {SCHEMA_VERSION} " in out
    assert "integrity: ok (quick_check)" in out
    assert main(["check-db", "--full"]) == 0
    assert "integrity: ok (integrity_check)" in capsys.readouterr().out
    target = tmp_path / "b" / "copy.sqlite3"
    assert main(["backup", str(target)]) == 0 and target.exists()
    assert main(["backup", str(target)]) == 2  # never overwrites
    assert Path(target).stat().st_size > 0


def test_database_url_selects_postgresql_and_a_bad_one_is_one_line_without_it():
    base = {"TELEGRAM_BOT_TOKEN": TOKEN}
    assert load_settings(base).database_url is None
    url = "postgresql://kwx:pw@db:5432/kwx"
    assert load_settings({**base, "KWX_DATABASE_URL": f" {url} "}).database_url == url
    assert load_settings({**base, "KWX_DATABASE_URL": "postgres://h/d"}).database_url == "postgres://h/d"
    with pytest.raises(SettingsError) as err:
        load_settings({**base, "KWX_DATABASE_URL": "mysql://kwx:pw@db/kwx"})
    assert "postgresql://" in str(err.value) and "pw" not in str(err.value)


def test_the_bot_trusts_what_its_messages_showed_unless_told_the_chats_lost_them():
    assert load_settings({"TELEGRAM_BOT_TOKEN": TOKEN}).forget_messages is False
    assert load_settings({"TELEGRAM_BOT_TOKEN": TOKEN, "KWX_FORGET_MESSAGES": "1"}).forget_messages is True
    with pytest.raises(SettingsError, match="KWX_FORGET_MESSAGES must be 0 or 1"):
        load_settings({"TELEGRAM_BOT_TOKEN": TOKEN, "KWX_FORGET_MESSAGES": "yes"})
