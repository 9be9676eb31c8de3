"""``kwx-bot`` / ``python -m kwx_bot``: the operator's command line.

Commands::

    kwx-bot [run]          run the bot (long polling, or a webhook with KWX_WEBHOOK_URL) until
                           Ctrl-C / SIGTERM
    kwx-bot check-db       SQLite's quick_check and the migration status of KWX_DB_PATH;
                           ``--full``: SQLite's integrity_check instead (also compares every index);
                           with KWX_DATABASE_URL the PostgreSQL database (its ledger's zero sums)
    kwx-bot backup PATH    online backup of the database to PATH (safe while the bot runs)
    kwx-bot migrate-to-postgres [--sqlite PATH] [--to URL]
                           copy the SQLite database (KWX_DB_PATH) into an empty PostgreSQL database
                           (KWX_DATABASE_URL), checked: equal row counts, a zero-sum ledger
    kwx-bot simulate ...   AI self-play statistics (``python -m engine simulate ...``)
    kwx-bot render-demo --out DIR   one picture of each kind (``python -m render demo ...``)
    kwx-bot playground [--port P] [--db PATH] [--lang en|zh_CN]
                           the bot against a fake Telegram in the browser (no token, no network)

Exit status: 0 success, 1 runtime failure (database unhealthy, Telegram unreachable, the bot already
running on the database: docs/security.md §6), 2 usage or configuration error.  Configuration
errors (a missing or malformed ``TELEGRAM_BOT_TOKEN``, a bad variable) and a refused start print one
line, never a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from .settings import Settings, SettingsError, database_url_from, default_db_path, load_settings
from .store import DatabaseError, StoreError

__all__ = ["main"]


def _db_path() -> Path:
    raw = os.environ.get("KWX_DB_PATH", "").strip()
    return Path(raw).expanduser() if raw else default_db_path(os.environ)


def _fail(message: str, status: int) -> int:
    print(f"kwx-bot: {message}", file=sys.stderr)
    return status


GC_YOUNG = 10_000
"""Allocations between two collections of the youngest generation (Python's default: 700)."""


def settle_heap() -> None:
    """Before the bot serves: collect once, move every object alive now (the modules, the
    application) out of the collector's sight for good (``gc.freeze``), and let the youngest
    generation take :data:`GC_YOUNG` allocations between collections.  A full collection stops the
    event loop for as long as it walks every object; with hundreds of live tables and their pages'
    connections that is tens of milliseconds, several times a minute at Python's defaults — the
    tail of every press that waits behind it (docs/architecture.md §7, README "Scaling").  Frozen,
    the start-up objects are not walked again; with the larger young generation the collections
    that reach the old ones come about fourteen times less often."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_YOUNG, *gc.get_threshold()[1:])


def cmd_run(settings: Settings) -> int:
    """Build the application and run it until stopped: long polling, or a webhook server when
    ``KWX_WEBHOOK_URL`` is set (``run_webhook`` registers the URL and the secret with ``setWebhook``
    at every start; a stop leaves the webhook set, so Telegram keeps the updates until the next start)."""
    from telegram.error import InvalidToken, NetworkError

    from .edge.app import build_application
    from .logs import setup_logging

    setup_logging(settings.log_level, settings.token, settings.webhook_secret or "")
    application = build_application(settings, handle_signals=True)
    settle_heap()
    updates = ["message", "callback_query", "my_chat_member"]
    try:
        if settings.webhook_url is None:
            application.run_polling(  # SIGINT/SIGTERM: kwx's own handlers (build_application), not PTB's
                allowed_updates=updates, drop_pending_updates=False, stop_signals=None,
            )  # fmt: skip
        else:  # PTB calls setWebhook with the secret; the door answers 403 to a request without it
            from .edge.webhook import guard_webhook_server

            guard_webhook_server(settings.webhook_secret)
            application.run_webhook(
                listen=settings.webhook_listen, port=settings.webhook_port, url_path=settings.webhook_path,
                webhook_url=settings.webhook_url, secret_token=settings.webhook_secret, allowed_updates=updates,
                drop_pending_updates=False, stop_signals=None,
            )  # fmt: skip
    except OSError as e:  # a port of the webhook or of the health / metrics endpoints is taken
        return _fail(f"cannot listen: {e}", 1)
    except InvalidToken:
        return _fail("Telegram rejected TELEGRAM_BOT_TOKEN (revoked or mistyped?); check it with @BotFather", 2)
    except NetworkError as e:
        return _fail(f"cannot reach the Telegram Bot API: {e}", 1)
    except StoreError as e:  # the database cannot be opened, or the bot already runs on it (post_init)
        return _fail(str(e), 1)
    except DatabaseError as e:  # e.g. migrating a SQLite file (or a PostgreSQL database) of something else
        from .store.postgres import redact

        where = redact(settings.database_url) if settings.database_url else settings.db_path
        return _fail(f"database at {where} cannot be used: {e}", 1)
    return 0


async def _check_db(path: Path | str, *, full: bool = False) -> int:
    """``path``: the SQLite file, or the PostgreSQL URL of ``KWX_DATABASE_URL``."""
    from .store import SCHEMA_VERSION, is_database_url, open_store

    if not is_database_url(path) and not Path(path).exists():
        return _fail(f"no database at {path} (set KWX_DB_PATH)", 1)
    store = await open_store(path, migrate=False)
    try:
        version = await store.schema_version()
        problems = await store.integrity_check(quick=not full)
        print(f"database: {store.path}")
        pending = "" if version == SCHEMA_VERSION else " - migrations pending, applied on next run"
        print(f"schema version: {version} (this kwx: {SCHEMA_VERSION}){pending}")
        how = (
            " (ledger zero-sum per hand)"
            if is_database_url(path)
            else " (integrity_check)"
            if full
            else " (quick_check)"
        )
        print("integrity: " + "; ".join(problems) + how)
        if version <= SCHEMA_VERSION and version > 0:
            counts = await store.counts()
            print("rows: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
            print(f"open tables: {await store.open_table_count()}")
        return 0 if problems == ["ok"] and version <= SCHEMA_VERSION else 1
    finally:
        await store.close()


async def _backup(source: Path, target: Path) -> int:
    from .store import Store

    if not source.exists():
        return _fail(f"no database at {source} (set KWX_DB_PATH)", 1)
    if target.exists():
        return _fail(f"{target} exists; choose a new file", 2)
    store = await Store.open(source, migrate=False)
    try:
        await store.backup(target)
    finally:
        await store.close()
    print(f"backed up {source} to {target}")
    return 0


async def _migrate_to_postgres(source: Path, url: str) -> int:
    from .store import PgStore, Store
    from .store.copy import copy_to_postgres

    if not source.is_file():
        return _fail(f"no SQLite database at {source} (set KWX_DB_PATH or pass --sqlite)", 1)
    sqlite = await Store.open(source)  # brought to this kwx's schema first, as the bot's next start would
    try:
        target = await PgStore.open(url)
        try:
            report = await copy_to_postgres(sqlite, target)
        finally:
            await target.close()
    finally:
        await sqlite.close()
    print(f"copied {source} to {target.path}")
    print("rows (equal in both): " + ", ".join(f"{k} {v}" for k, v in report.rows.items()))
    print(f"ledger: zero-sum over {report.hands} scored hands, every player's points as in the file")
    print("now set KWX_DATABASE_URL for the bot; the SQLite file stays where it is (keep it as a backup)")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``kwx-bot`` console script; returns the exit status."""
    parser = argparse.ArgumentParser(prog="kwx-bot", description="卡五星 mahjong for Telegram group chats")
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("run", help="run the bot (the default)")
    check = sub.add_parser("check-db", help="database quick check and migration status")
    check.add_argument("--full", action="store_true", help="full integrity check (slower: compares every index)")
    backup = sub.add_parser("backup", help="online backup of the database")
    backup.add_argument("path", type=Path, help="the new backup file")
    copy = sub.add_parser("migrate-to-postgres", help="copy the SQLite database into an empty PostgreSQL database")
    copy.add_argument("--sqlite", type=Path, default=None, help="the SQLite file (default: KWX_DB_PATH)")
    copy.add_argument("--to", default=None, help="the postgresql:// URL (default: KWX_DATABASE_URL)")
    sub.add_parser("simulate", help="AI self-play statistics (options: see kwx-bot simulate --help)", add_help=False)
    sub.add_parser("render-demo", help="write one picture of each kind (--out DIR [--lang en])", add_help=False)
    sub.add_parser("render-phone", help="how large each picture kind shows on a phone, both languages", add_help=False)
    play = sub.add_parser("playground", help="try kwx in the browser against a fake Telegram (no token needed)")
    play.add_argument("--port", type=int, default=8765, help="the page's port on 127.0.0.1 (0 = any free port)")
    play.add_argument("--db", type=Path, default=None, help="keep the bot's database here (default: throw-away)")
    play.add_argument("--lang", choices=["en", "zh_CN"], default="en", help="the players' language")
    raw = list(sys.argv[1:] if argv is None else argv)
    if raw and raw[0] == "simulate":
        from engine.__main__ import main as engine_main

        return engine_main(["simulate", *raw[1:]])
    if raw and raw[0] in ("render-demo", "render-phone"):
        from render.__main__ import main as render_main

        from .settings import LANGUAGES
        from .words.pictures import picture_words

        words = {lang: picture_words(lang) for lang in LANGUAGES}
        if raw[0] == "render-phone":
            return render_main(["phone", *raw[1:]], words=words)
        return render_main(["demo", *raw[1:]], demo_prog="kwx-bot render-demo", words=words)
    args = parser.parse_args(raw)
    command = args.command or "run"
    try:
        if command == "run":
            try:
                settings = load_settings()
            except SettingsError as e:
                return _fail(str(e), 2)
            return cmd_run(settings)
        if command == "playground":
            from .playground import run_playground

            return run_playground(port=args.port, db=args.db, lang=args.lang)
        if command == "check-db":
            try:
                url = database_url_from(os.environ)
            except SettingsError as e:
                return _fail(str(e), 2)
            return asyncio.run(_check_db(url or _db_path(), full=args.full))
        if command == "backup":
            return asyncio.run(_backup(_db_path(), args.path))
        if command == "migrate-to-postgres":
            try:
                url = database_url_from({"KWX_DATABASE_URL": args.to} if args.to else os.environ)
            except SettingsError as e:
                return _fail(str(e), 2)
            if url is None:
                return _fail("name the PostgreSQL database: set KWX_DATABASE_URL or pass --to postgresql://...", 2)
            return asyncio.run(_migrate_to_postgres(args.sqlite or _db_path(), url))
    except StoreError as e:
        return _fail(str(e), 1)
    except KeyboardInterrupt:
        return 130
    parser.error(f"unknown command {command}")
    return 2


if __name__ == "__main__":
    sys.exit(main())
