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
KWX_ADMIN_CHAT_ID          optional chat id that receives short error reports
KWX_LOG_LEVEL              DEBUG, INFO (default), WARNING or ERROR
KWX_DEFAULT_LANGUAGE       ``zh_CN`` (default) or ``en``: groups without a language setting and users
                           whose Telegram language is neither Chinese nor English
KWX_LOBBY_IDLE_SECONDS     a lobby nobody touched for this long is closed (default 900)
KWX_DISCARD_SECONDS        default discard deadline of a table (default 30; 0 = no deadline)
KWX_CLAIM_SECONDS          default claim-window deadline (default 15; 0 = no deadline)
KWX_TABLE_EDIT_SECONDS     minimum seconds between two edits of a group's live table (default 3)
KWX_PICTURE_FORMAT         ``jpeg`` (default: quality 90, no chroma subsampling; 2-3x faster to encode
                           than PNG, and Telegram re-encodes photos as JPEG anyway) or ``png``
KWX_RENDER_PROCESSES       worker processes that draw pictures (default 1 with 2+ cores, else 0 =
                           draw in a thread of the bot process)
KWX_REMIND_SECONDS         a player who has not acted this long after their turn (or claim) began
                           gets a short notifying reminder (default 10; 0 = never)
=========================  =========================================================================

:func:`load_settings` raises :class:`SettingsError` with a one-line, human-readable message for a
missing or malformed value; ``kwx-bot run`` prints it and exits with status 2.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["LANGUAGES", "Settings", "SettingsError", "default_db_path", "load_settings", "normalize_language"]

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
    table_edit_seconds: float = 3.0
    remind_seconds: float = 10.0
    render_processes: int = 0
    picture_format: str = "jpeg"
    rate_limit: bool = True
    """Pace calls with :class:`~kwx_bot.edge.throttle.PacingRateLimiter` (production); tests turn it off
    so they never sleep."""
    group_messages: int = 20
    group_window_seconds: float = 60.0
    """A group gets at most ``group_messages`` writes (sends, edits, deletions) per
    ``group_window_seconds`` from the bot (Telegram's limit; tests shrink the window)."""

    @property
    def bot_id(self) -> int:
        """The numeric bot id, the part of the token before the colon."""
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


def _picture_format(env: Mapping[str, str]) -> str:
    raw = env.get("KWX_PICTURE_FORMAT", "jpeg").strip().lower() or "jpeg"
    if raw not in ("jpeg", "png"):
        raise SettingsError(f"KWX_PICTURE_FORMAT must be jpeg or png, got {raw!r}")
    return raw


def _processes(env: Mapping[str, str]) -> int:
    raw = env.get("KWX_RENDER_PROCESSES", "").strip()
    if not raw:
        return 1 if (os.cpu_count() or 1) >= 2 else 0
    if not raw.isdigit() or int(raw) > 64:
        raise SettingsError(f"KWX_RENDER_PROCESSES must be a number of processes 0..64, got {raw!r}")
    return int(raw)


def load_settings(env: Mapping[str, str] | None = None) -> Settings:
    """Read :class:`Settings` from ``env`` (default ``os.environ``).

    Raises :class:`SettingsError` for a missing token, a token that is not ``<digits>:<secret>``,
    a base URL that is not http(s), a non-integer admin chat id, an unknown log level or language.
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
        try:
            admin = int(raw_admin)
        except ValueError:
            raise SettingsError(f"KWX_ADMIN_CHAT_ID must be an integer chat id, got {raw_admin!r}") from None
    level = env.get("KWX_LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if level not in _LOG_LEVELS:
        raise SettingsError(f"KWX_LOG_LEVEL must be one of {', '.join(_LOG_LEVELS)}, got {level!r}")
    raw_lang = env.get("KWX_DEFAULT_LANGUAGE", "zh_CN").strip() or "zh_CN"
    lang = normalize_language(raw_lang, default="")
    if not lang:
        raise SettingsError(f"KWX_DEFAULT_LANGUAGE must be zh_CN or en, got {raw_lang!r}")
    raw_db = env.get("KWX_DB_PATH", "").strip()
    db_path = Path(raw_db).expanduser() if raw_db else default_db_path(env)
    return Settings(
        token=token,
        db_path=db_path,
        api_base_url=base,
        admin_chat_id=admin,
        log_level=level,
        default_language=lang,
        lobby_idle_seconds=_seconds(env, "KWX_LOBBY_IDLE_SECONDS", 900.0),
        discard_seconds=_seconds(env, "KWX_DISCARD_SECONDS", 30.0),
        claim_seconds=_seconds(env, "KWX_CLAIM_SECONDS", 15.0),
        table_edit_seconds=_seconds(env, "KWX_TABLE_EDIT_SECONDS", 3.0),
        remind_seconds=_seconds(env, "KWX_REMIND_SECONDS", 10.0),
        render_processes=_processes(env),
        picture_format=_picture_format(env),
    )
