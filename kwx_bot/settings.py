"""Operator settings, read once from the environment (docs/architecture.md §4; README "Configuration").

=========================  =========================================================================
variable                   meaning
=========================  =========================================================================
TELEGRAM_BOT_TOKEN         required; ``<digits>:<secret>`` as BotFather prints it
TELEGRAM_API_BASE_URL      optional; an own Bot API server, e.g. ``http://localhost:8081``: the bot
                           then calls ``<base>/bot<token>/<method>`` and downloads from
                           ``<base>/file/bot<token>/``
KWX_DB_PATH                SQLite file; default ``$XDG_DATA_HOME/kwx/kwx.sqlite3``
                           (``~/.local/share/kwx/kwx.sqlite3``); parent directories are created
KWX_DATABASE_URL           optional ``postgresql://user:password@host:port/database``: keep the
                           ledger in PostgreSQL instead of the SQLite file (``KWX_DB_PATH`` is then
                           unused; ``kwx-bot migrate-to-postgres`` copies a file over)
KWX_ADMIN_CHAT_ID          optional chat id that receives short error reports
KWX_LOG_LEVEL              DEBUG, INFO (default), WARNING or ERROR
KWX_DEFAULT_LANGUAGE       ``zh_CN`` (default) or ``en``: groups without a language setting and users
                           whose Telegram language is neither Chinese nor English
KWX_LOBBY_IDLE_SECONDS     a lobby nobody touched for this long is closed (default 900)
KWX_DISCARD_SECONDS        default discard deadline of a table (default 30; 0 = no deadline)
KWX_CLAIM_SECONDS          default claim-window deadline (default 15; 0 = no deadline)
KWX_TABLE_EDIT_SECONDS     minimum seconds between two edits of a group's live table (default 3)
KWX_PICTURE_FORMAT         ``palette`` (default: a 48-colour PNG, about a sixth of the JPEG's bytes
                           for about 8 ms more per picture, docs/telegram.md §6), ``jpeg`` (quality 90, no
                           chroma subsampling) or ``png`` (lossless RGB)
KWX_RENDER_PROCESSES       worker processes that draw pictures (default 1 with 2+ cores, else 0 =
                           draw in a thread of the bot process); when above 0, /review and the
                           ``strong`` AI each get a worker process of their own too
KWX_AI_LEVEL               how the AI plays AI seats and auto-play in a group that has not chosen in
                           /settings: ``easy``, ``normal`` or ``strong`` (default)
KWX_REMIND_SECONDS         a player who has not acted this long after their turn (or claim) began
                           gets a short notifying reminder (default 10; 0 = never)
KWX_WEBHOOK_URL            optional public ``https://`` URL Telegram posts updates to (webhook mode;
                           unset = long polling, the default); its path is the path served locally
KWX_WEBHOOK_LISTEN         address the webhook server binds (default ``127.0.0.1``: behind a reverse
                           proxy on the same host; ``0.0.0.0`` in a container)
KWX_WEBHOOK_PORT           port of the webhook server (default 8443)
KWX_WEBHOOK_SECRET         required in webhook mode: 1-256 characters ``A-Z a-z 0-9 _ -``; passed to
                           ``setWebhook`` as ``secret_token``, every request without it gets 403
                           (docs/security.md §5, docs/telegram.md §1.4)
KWX_HEALTH_PORT            optional port of the liveness endpoint ``GET /healthz`` (200 ok, 503 stalled;
                           unset = no endpoint)
KWX_HEALTH_STALL_SECONDS   the update loop counts as stalled when no ``getUpdates`` succeeded, or
                           updates wait without one finishing, for this long (default 60)
KWX_METRICS_PORT           optional port of the Prometheus endpoint ``GET /metrics`` (unset = off)
KWX_OPS_LISTEN             address the health and metrics endpoints bind (default ``127.0.0.1``)
KWX_WEBAPP_URL             optional public ``https://`` URL of the Mini App's page, e.g.
                           ``https://kwx.example.org/webapp/`` (unset = no Mini App, the default);
                           ``http://`` only for a loopback host (the playground, tests). The bot's
                           own server answers under ``/webapp/``: the operator's TLS proxy passes
                           that path through (docs/security.md §9)
KWX_WEBAPP_LISTEN          address the Mini App's server binds (default ``127.0.0.1``: behind the
                           proxy on the same host; ``0.0.0.0`` in a container)
KWX_WEBAPP_PORT            port of the Mini App's server (default 8444)
KWX_WEBAPP_MAX_AGE         how old Telegram's signed ``initData`` may be, in seconds (default 86400,
                           at least 60): older is refused with 401 and the page reopened
KWX_FORGET_MESSAGES        ``1``: the chats lost the messages of the bot's last run (a Telegram made
                           anew, as the playground's fake): send every open table's messages anew at
                           start instead of trusting what the last clean stop stored (default ``0``)
=========================  =========================================================================

:func:`load_settings` raises :class:`SettingsError` with a one-line, human-readable message for a
missing or malformed value; ``kwx-bot run`` prints it and exits with status 2.
"""

from __future__ import annotations

import importlib.util
import ipaddress
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from engine.numerals import whole_number

__all__ = [
    "LANGUAGES",
    "Settings",
    "SettingsError",
    "database_url_from",
    "default_db_path",
    "load_settings",
    "normalize_language",
]

LANGUAGES = ("zh_CN", "en")
"""Languages with a message catalog, the primary one first."""

_TOKEN_RE = re.compile(r"^[0-9]{1,20}:[A-Za-z0-9_-]{30,64}$")
_LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


class SettingsError(ValueError):
    """A missing or malformed environment variable; ``str(e)`` is one line naming the variable."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the operator configures.  Durations are in seconds.

    ``token`` is a secret: it is never logged (``repr`` hides it).
    """

    token: str = field(repr=False)
    db_path: Path
    api_base_url: str | None = None
    admin_chat_id: int | None = None
    log_level: str = "INFO"
    default_language: str = "zh_CN"
    lobby_idle_seconds: float = 900.0
    discard_seconds: float = 30.0
    claim_seconds: float = 15.0
    bank_seconds: float = 60.0
    """Each seat's time bank per hand, spent once a move's own time is up (docs/rules.md §E#33)."""
    table_edit_seconds: float = 3.0
    remind_seconds: float = 10.0
    render_processes: int = 0
    picture_format: str = "palette"
    ai_level: str = "strong"
    """How the AI plays AI seats and 托管 in a group that has not chosen in ``/settings``
    (``KWX_AI_LEVEL``: easy, normal or strong)."""
    rate_limit: bool = True
    """Pace calls with :class:`~kwx_bot.edge.throttle.PacingRateLimiter` and hold back writes that can
    wait while the token is busy (:class:`~kwx_bot.edge.throttle.TokenLoad`), as in production;
    tests turn it off so they never sleep."""
    group_messages: int = 20
    group_window_seconds: float = 60.0
    """A group gets at most ``group_messages`` writes (sends, edits, deletions) per
    ``group_window_seconds`` from the bot (Telegram's limit; tests shrink the window)."""
    webhook_url: str | None = None
    """Public ``https://`` URL of the webhook; None = long polling."""
    database_url: str | None = None
    """A ``postgresql://`` URL: the store is PostgreSQL; None = the SQLite file at ``db_path``."""
    webhook_listen: str = "127.0.0.1"
    webhook_port: int = 8443
    webhook_secret: str | None = field(default=None, repr=False)
    """Telegram's ``secret_token`` (required with ``webhook_url``); a secret, never logged."""
    health_port: int | None = None
    health_stall_seconds: float = 60.0
    metrics_port: int | None = None
    ops_listen: str = "127.0.0.1"
    """Address of the health and metrics endpoints."""
    webapp_url: str | None = None
    """Public URL of the Mini App's page; None = no Mini App (docs/security.md §9)."""
    webapp_listen: str = "127.0.0.1"
    webapp_port: int = 8444
    webapp_max_age: float = 86400.0
    """Seconds a signed ``initData`` stays good (its ``auth_date`` age)."""
    forget_messages: bool = False
    """The chats lost the bot's messages since its last run (``KWX_FORGET_MESSAGES``): at start every
    open table's messages are sent anew (docs/architecture.md §4 "Persistence and restart")."""

    @property
    def webhook_path(self) -> str:
        """The path of :attr:`webhook_url` without its leading slash (``""`` for the root): what the
        local webhook server answers on (a reverse proxy passes the path through unchanged)."""
        if self.webhook_url is None:
            return ""
        return urlsplit(self.webhook_url).path.lstrip("/")

    @property
    def bot_id(self) -> int:
        """The numeric bot id, the part of the token before the colon: the owner of the tables this
        bot opens when several bots share one database (docs/architecture.md §8)."""
        return int(self.token.split(":", 1)[0])


def normalize_language(code: str | None, default: str = "zh_CN") -> str:
    """Map a Telegram ``language_code`` (IETF tag such as ``zh-hans``, ``en-US``) to a catalog name.

    Chinese of any script/region -> ``zh_CN``; English -> ``en``; anything else -> ``default``.
    """
    if not code:
        return default
    low = code.strip().lower().replace("_", "-")
    if low.startswith("zh"):
        return "zh_CN"
    if low == "en" or low.startswith("en-"):
        return "en"
    return default


def database_url_from(env: Mapping[str, str]) -> str | None:
    """``KWX_DATABASE_URL``: None when unset or empty; raises :class:`SettingsError` unless it is a
    ``postgresql://`` (or ``postgres://``) URL (the message does not repeat the URL: it may hold a
    password)."""
    raw = env.get("KWX_DATABASE_URL", "").strip()
    if not raw:
        return None
    if urlsplit(raw).scheme not in ("postgresql", "postgres"):
        raise SettingsError("KWX_DATABASE_URL must be a postgresql://user:password@host:port/database URL")
    return raw


def default_db_path(env: Mapping[str, str]) -> Path:
    """``$XDG_DATA_HOME/kwx/kwx.sqlite3``, falling back to ``~/.local/share/kwx/kwx.sqlite3``."""
    base = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "kwx" / "kwx.sqlite3"


def _seconds(env: Mapping[str, str], name: str, default: float) -> float:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise SettingsError(f"{name} must be a number of seconds, got {raw!r}") from None
    if not 0 <= value <= 86400:
        raise SettingsError(f"{name} must be between 0 and 86400 seconds, got {raw!r}")
    return value


def _flag(env: Mapping[str, str], name: str) -> bool:
    """An on/off variable: ``1`` on, ``0`` or unset off."""
    raw = env.get(name, "").strip()
    if raw not in ("", "0", "1"):
        raise SettingsError(f"{name} must be 0 or 1, got {raw!r}")
    return raw == "1"


AI_LEVELS = ("easy", "normal", "strong")
"""The AI levels a group may choose (``kwx_bot.service.game.AI_LEVELS`` maps them to the engine's)."""


def _ai_level(env: Mapping[str, str]) -> str:
    raw = env.get("KWX_AI_LEVEL", "strong").strip().lower() or "strong"
    if raw not in AI_LEVELS:
        raise SettingsError(f"KWX_AI_LEVEL must be easy, normal or strong, got {raw!r}")
    return raw


def _picture_format(env: Mapping[str, str]) -> str:
    raw = env.get("KWX_PICTURE_FORMAT", "palette").strip().lower() or "palette"
    if raw not in ("palette", "jpeg", "png"):
        raise SettingsError(f"KWX_PICTURE_FORMAT must be palette, jpeg or png, got {raw!r}")
    return raw


def _processes(env: Mapping[str, str]) -> int:
    raw = env.get("KWX_RENDER_PROCESSES", "").strip()
    if not raw:
        return 1 if (os.cpu_count() or 1) >= 2 else 0
    count = whole_number(raw, maximum=64)
    if count is None:
        raise SettingsError(f"KWX_RENDER_PROCESSES must be a number of processes 0..64, got {raw!r}")
    return count


_SECRET_RE = re.compile(r"^[A-Za-z0-9_-]{1,256}$")
_WEBHOOK_PORTS = (443, 80, 88, 8443)
"""The only ports Telegram posts webhooks to (docs/telegram.md §1.4)."""


def _port(env: Mapping[str, str], name: str, default: int | None) -> int | None:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    port = whole_number(raw, minimum=1, maximum=65535)
    if port is None:
        raise SettingsError(f"{name} must be a TCP port 1..65535, got {raw!r}")
    return port


def _address(env: Mapping[str, str], name: str) -> str:
    raw = env.get(name, "").strip() or "127.0.0.1"
    try:
        ipaddress.ip_address(raw)
    except ValueError:
        raise SettingsError(f"{name} must be an IP address such as 127.0.0.1 or 0.0.0.0, got {raw!r}") from None
    return raw


def _webhook(env: Mapping[str, str]) -> tuple[str | None, str | None]:
    """``(url, secret)``: both None (polling), or a valid https URL and its secret token."""
    url = env.get("KWX_WEBHOOK_URL", "").strip() or None
    secret = env.get("KWX_WEBHOOK_SECRET", "").strip() or None
    if url is None:
        return None, secret
    parts = urlsplit(url)
    if parts.scheme != "https" or not parts.hostname or parts.query or parts.fragment:
        raise SettingsError(f"KWX_WEBHOOK_URL must be a public https:// URL without query, got {url!r}")
    if (parts.port or 443) not in _WEBHOOK_PORTS:
        raise SettingsError(f"KWX_WEBHOOK_URL's port must be one Telegram posts to (443, 80, 88 or 8443), got {url!r}")
    if secret is None:
        raise SettingsError(
            "KWX_WEBHOOK_SECRET is required with KWX_WEBHOOK_URL: 1-256 characters A-Z a-z 0-9 _ -, "
            "e.g. from: python -c 'import secrets; print(secrets.token_urlsafe(32))'"
        )
    if not _SECRET_RE.match(secret):
        raise SettingsError("KWX_WEBHOOK_SECRET must be 1-256 characters A-Z a-z 0-9 _ - (Telegram's rule)")
    return url, secret


_LOOPBACK = ("127.0.0.1", "localhost", "::1")


def _webapp(env: Mapping[str, str]) -> str | None:
    """``KWX_WEBAPP_URL``: None when unset; an https URL (http only for a loopback host: the
    playground and the tests), without query or fragment."""
    url = env.get("KWX_WEBAPP_URL", "").strip() or None
    if url is None:
        return None
    parts = urlsplit(url)
    plain_ok = parts.scheme == "http" and parts.hostname in _LOOPBACK
    if (parts.scheme != "https" and not plain_ok) or not parts.hostname or parts.query or parts.fragment:
        raise SettingsError(f"KWX_WEBAPP_URL must be a public https:// URL without query, got {url!r}")
    return url


def load_settings(env: Mapping[str, str] | None = None) -> Settings:
    """Read :class:`Settings` from ``env`` (default ``os.environ``).

    Raises :class:`SettingsError` for a missing token, a token that is not ``<digits>:<secret>``,
    a base URL that is not http(s), a non-integer admin chat id, an unknown log level or language,
    a webhook or Mini App URL that is not https or comes without its secret, a port outside 1..65535, a listen
    address that is not an IP address.
    """
    env = os.environ if env is None else env
    token = env.get("TELEGRAM_BOT_TOKEN", "").strip()
    if not token:
        raise SettingsError(
            "TELEGRAM_BOT_TOKEN is not set: create a bot with @BotFather and export its token, "
            "e.g. TELEGRAM_BOT_TOKEN=123456789:AA... kwx-bot run"
        )
    if not _TOKEN_RE.match(token):
        raise SettingsError(
            "TELEGRAM_BOT_TOKEN is malformed: expected <bot id digits>:<secret>, as @BotFather prints it"
        )
    base = env.get("TELEGRAM_API_BASE_URL", "").strip().rstrip("/") or None
    if base is not None and not re.match(r"^https?://[^\s/]+", base):
        raise SettingsError(f"TELEGRAM_API_BASE_URL must start with http:// or https://, got {base!r}")
    raw_admin = env.get("KWX_ADMIN_CHAT_ID", "").strip()
    admin: int | None = None
    if raw_admin:
        admin = whole_number(raw_admin, minimum=None)
        if admin is None:
            raise SettingsError(f"KWX_ADMIN_CHAT_ID must be an integer chat id, got {raw_admin!r}")
    level = env.get("KWX_LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if level not in _LOG_LEVELS:
        raise SettingsError(f"KWX_LOG_LEVEL must be one of {', '.join(_LOG_LEVELS)}, got {level!r}")
    raw_lang = env.get("KWX_DEFAULT_LANGUAGE", "zh_CN").strip() or "zh_CN"
    lang = normalize_language(raw_lang, default="")
    if not lang:
        raise SettingsError(f"KWX_DEFAULT_LANGUAGE must be zh_CN or en, got {raw_lang!r}")
    raw_db = env.get("KWX_DB_PATH", "").strip()
    db_path = Path(raw_db).expanduser() if raw_db else default_db_path(env)
    database_url = database_url_from(env)
    webhook_url, webhook_secret = _webhook(env)
    metrics_port = _port(env, "KWX_METRICS_PORT", None)
    if metrics_port is not None and importlib.util.find_spec("prometheus_client") is None:
        raise SettingsError("KWX_METRICS_PORT needs prometheus-client: pip install 'kwx[metrics]'")
    stall = _seconds(env, "KWX_HEALTH_STALL_SECONDS", 60.0)
    max_age = _seconds(env, "KWX_WEBAPP_MAX_AGE", 86400.0)
    if max_age < 60:
        raise SettingsError(f"KWX_WEBAPP_MAX_AGE must be at least 60 seconds, got {max_age!r}")
    if stall < 1:
        raise SettingsError(f"KWX_HEALTH_STALL_SECONDS must be at least 1 second, got {stall!r}")
    return Settings(
        token=token,
        db_path=db_path,
        database_url=database_url,
        api_base_url=base,
        admin_chat_id=admin,
        log_level=level,
        default_language=lang,
        lobby_idle_seconds=_seconds(env, "KWX_LOBBY_IDLE_SECONDS", 900.0),
        discard_seconds=_seconds(env, "KWX_DISCARD_SECONDS", 30.0),
        claim_seconds=_seconds(env, "KWX_CLAIM_SECONDS", 15.0),
        bank_seconds=_seconds(env, "KWX_BANK_SECONDS", 60.0),
        table_edit_seconds=_seconds(env, "KWX_TABLE_EDIT_SECONDS", 3.0),
        remind_seconds=_seconds(env, "KWX_REMIND_SECONDS", 10.0),
        render_processes=_processes(env),
        picture_format=_picture_format(env),
        ai_level=_ai_level(env),
        webhook_url=webhook_url,
        webhook_listen=_address(env, "KWX_WEBHOOK_LISTEN"),
        webhook_port=_port(env, "KWX_WEBHOOK_PORT", 8443) or 8443,
        webhook_secret=webhook_secret,
        health_port=_port(env, "KWX_HEALTH_PORT", None),
        health_stall_seconds=stall,
        metrics_port=metrics_port,
        ops_listen=_address(env, "KWX_OPS_LISTEN"),
        webapp_url=_webapp(env),
        webapp_listen=_address(env, "KWX_WEBAPP_LISTEN"),
        webapp_port=_port(env, "KWX_WEBAPP_PORT", 8444) or 8444,
        webapp_max_age=max_age,
        forget_messages=_flag(env, "KWX_FORGET_MESSAGES"),
    )
