"""Who is asking: Telegram's Mini App ``initData``, checked (docs/security.md §9).

Telegram opens the page with ``Telegram.WebApp.initData``, a URL query string of fields (``user``:
a JSON object, ``auth_date``: unix seconds, ``start_param``, ``query_id``, ``chat_type`` … and
``hash``), signed with the bot's token.  The page sends it unchanged with every request as
``Authorization: tma <initData>``.  The check, as Telegram's Mini Apps documentation ("Validating
data received via the Mini App") specifies it:

* the query string is split into its fields, each value URL-decoded; a field given twice makes the
  whole string refused (a signature covers one value per field);
* ``data_check_string`` = every field but ``hash``, as ``key=value``, sorted by key, joined by a line
  feed (``\\n``);
* ``secret_key`` = HMAC-SHA256(key = ``b"WebAppData"``, message = the bot token);
* the string is Telegram's when hex(HMAC-SHA256(key = ``secret_key``, message = ``data_check_string``))
  equals ``hash`` (compared in constant time);
* and it is fresh: ``auth_date`` at most ``max_age`` seconds old and at most :data:`FUTURE_SKEW`
  seconds ahead of our clock.

A token of another bot gives another key, so initData made for another bot is refused; the ``user``
field is inside the signature, so it cannot be swapped for another user's.  Pure: no I/O, the clock
is an argument.  :func:`sign_init_data` makes a signed string (the tests and the playground, which
act as Telegram with their own token).
"""

from __future__ import annotations

import enum
import hashlib
import hmac
import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlencode

__all__ = [
    "FUTURE_SKEW",
    "MAX_INIT_DATA",
    "AuthError",
    "AuthReason",
    "WebAppUser",
    "check_init_data",
    "from_header",
    "sign_init_data",
]

FUTURE_SKEW = 60
"""Seconds an ``auth_date`` may be ahead of our clock (clocks differ a little)."""
MAX_INIT_DATA = 8192
"""The longest initData accepted, in characters (Telegram's are a few hundred)."""


class AuthReason(enum.StrEnum):
    """Why initData was refused (the 401 answer's ``error``)."""

    MISSING = "missing"
    """No ``Authorization: tma …`` header, or an empty one."""
    MALFORMED = "malformed"
    """Not a query string, too long, a field given twice, or a field of the wrong type."""
    NO_HASH = "no_hash"
    """No ``hash`` field."""
    BAD_SIGNATURE = "bad_signature"
    """The hash is not this bot's signature of the fields (forged, altered, or another bot's)."""
    STALE = "stale"
    """``auth_date`` older than the allowed age, or too far in the future."""
    NO_USER = "no_user"
    """Signed, but without a ``user`` (a Mini App opened from no user: nothing to act as)."""


class AuthError(Exception):
    """initData refused; ``reason`` says why (answered as 401 ``{"error": reason}``)."""

    def __init__(self, reason: AuthReason) -> None:
        super().__init__(reason.value)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class WebAppUser:
    """The Telegram user a checked initData speaks for, and what it says about the launch:
    ``start_param`` (the ``startapp`` of a direct link, None without), ``auth_date`` (unix seconds)."""

    id: int
    first_name: str
    last_name: str | None
    username: str | None
    language_code: str | None
    start_param: str | None
    auth_date: int


def _secret(token: str) -> bytes:
    return hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()


def _check_string(fields: Mapping[str, str]) -> str:
    return "\n".join(f"{k}={fields[k]}" for k in sorted(fields) if k != "hash")


def _fields(init_data: str) -> dict[str, str]:
    if len(init_data) > MAX_INIT_DATA:
        raise AuthError(AuthReason.MALFORMED)
    try:
        pairs = parse_qsl(init_data, keep_blank_values=True, strict_parsing=True, errors="strict")
    except (ValueError, UnicodeDecodeError):
        raise AuthError(AuthReason.MALFORMED) from None
    fields = dict(pairs)
    if len(fields) != len(pairs):  # a field given twice: which value would the signature cover?
        raise AuthError(AuthReason.MALFORMED)
    return fields


def _str(value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise AuthError(AuthReason.MALFORMED)
    return value


def _user(fields: Mapping[str, str], auth_date: int) -> WebAppUser:
    raw = fields.get("user")
    if raw is None:
        raise AuthError(AuthReason.NO_USER)
    try:
        user = json.loads(raw)
    except ValueError:
        raise AuthError(AuthReason.MALFORMED) from None
    if not isinstance(user, dict):
        raise AuthError(AuthReason.MALFORMED)
    uid, first = user.get("id"), user.get("first_name")
    if not isinstance(uid, int) or isinstance(uid, bool) or uid <= 0 or not isinstance(first, str):
        raise AuthError(AuthReason.MALFORMED)
    return WebAppUser(
        uid, first, _str(user.get("last_name")), _str(user.get("username")), _str(user.get("language_code")),
        fields.get("start_param"), auth_date,
    )  # fmt: skip


def check_init_data(init_data: str, token: str, *, max_age: float, now: float | None = None) -> WebAppUser:
    """The user ``init_data`` (``Telegram.WebApp.initData``, as sent) speaks for, if it carries this
    bot's (``token``'s) signature and its ``auth_date`` is within ``max_age`` seconds of ``now``
    (unix seconds, default the clock) and at most :data:`FUTURE_SKEW` ahead (module docstring).
    Raises :class:`AuthError` with its :class:`AuthReason` otherwise."""
    if not init_data:
        raise AuthError(AuthReason.MISSING)
    fields = _fields(init_data)
    given = fields.get("hash")
    if not given:
        raise AuthError(AuthReason.NO_HASH)
    expected = hmac.new(_secret(token), _check_string(fields).encode(), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected, given.lower().encode("ascii", "replace").decode()):
        raise AuthError(AuthReason.BAD_SIGNATURE)
    try:
        auth_date = int(fields.get("auth_date", ""))
    except ValueError:
        raise AuthError(AuthReason.MALFORMED) from None
    now = time.time() if now is None else now
    if now - auth_date > max_age or auth_date - now > FUTURE_SKEW:
        raise AuthError(AuthReason.STALE)
    return _user(fields, auth_date)


def from_header(value: str | None) -> str:
    """The initData of an ``Authorization: tma <initData>`` header ("" if the header is missing or
    of another scheme)."""
    if not value:
        return ""
    scheme, _, rest = value.strip().partition(" ")
    return rest.strip() if scheme.lower() == "tma" else ""


def sign_init_data(fields: Mapping[str, str], token: str) -> str:
    """``fields`` (values as Telegram sends them, e.g. ``user`` a JSON text) as an initData query
    string signed with ``token``, as Telegram signs it: the tests and the playground's stand-in for
    Telegram."""
    plain = {k: v for k, v in fields.items() if k != "hash"}
    digest = hmac.new(_secret(token), _check_string(plain).encode(), hashlib.sha256).hexdigest()
    return urlencode({**plain, "hash": digest})
