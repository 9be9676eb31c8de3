"""Telegram's initData check (kwx_bot/webapp/auth.py, docs/security.md §9)."""

from __future__ import annotations

import hashlib
import hmac
import json
from urllib.parse import parse_qsl, urlencode

import pytest

from kwx_bot.webapp.auth import AuthError, AuthReason, check_init_data, from_header, sign_init_data

TOKEN = "123456:ABC-the-bot-token"
OTHER = "654321:XYZ-another-bot"
NOW = 1_800_000_000
ANN = {"id": 1001, "first_name": "Ann", "last_name": "Lee", "username": "ann", "language_code": "zh-hans"}


def fields(user: dict[str, object] | None = None, **extra: str) -> dict[str, str]:
    out = {"auth_date": str(NOW - 10), "query_id": "AAE", "user": json.dumps(user or ANN, separators=(",", ":"))}
    out.update(extra)
    return out


def check(init_data: str, *, max_age: float = 86400, now: float = NOW) -> object:
    return check_init_data(init_data, TOKEN, max_age=max_age, now=now)


def reason(init_data: str, **kw: float) -> AuthReason:
    with pytest.raises(AuthError) as e:
        check(init_data, **kw)
    return e.value.reason


def test_a_signature_as_telegram_documents_it_is_accepted() -> None:
    # computed here independently of the module, step by step as Telegram's documentation says
    data = fields(start_param="t5")
    check_string = "\n".join(f"{k}={data[k]}" for k in sorted(data))
    secret = hmac.new(b"WebAppData", TOKEN.encode(), hashlib.sha256).digest()
    digest = hmac.new(secret, check_string.encode(), hashlib.sha256).hexdigest()
    user = check(urlencode({**data, "hash": digest}))
    assert user == check(sign_init_data(data, TOKEN))
    assert (user.id, user.first_name, user.last_name, user.username) == (1001, "Ann", "Lee", "ann")
    assert (user.language_code, user.start_param, user.auth_date) == ("zh-hans", "t5", NOW - 10)


def test_a_forged_hash_is_refused() -> None:
    signed = dict(parse_qsl(sign_init_data(fields(), TOKEN)))
    signed["hash"] = "0" * 64
    assert reason(urlencode(signed)) is AuthReason.BAD_SIGNATURE
    signed["hash"] = "é" * 64  # not even hex: refused, not an exception
    assert reason(urlencode(signed)) is AuthReason.BAD_SIGNATURE


def test_another_bots_token_is_refused() -> None:
    assert reason(sign_init_data(fields(), OTHER)) is AuthReason.BAD_SIGNATURE


def test_a_signature_over_a_different_user_does_not_cover_this_one() -> None:
    signed = dict(parse_qsl(sign_init_data(fields(), TOKEN)))
    signed["user"] = json.dumps({**ANN, "id": 1002, "first_name": "Bob"}, separators=(",", ":"))
    assert reason(urlencode(signed)) is AuthReason.BAD_SIGNATURE
    signed = dict(parse_qsl(sign_init_data(fields(), TOKEN)))
    signed["start_param"] = "t9"  # nor can a field be added
    assert reason(urlencode(signed)) is AuthReason.BAD_SIGNATURE


def test_a_stale_or_future_auth_date_is_refused() -> None:
    old = sign_init_data(fields(auth_date=str(NOW - 3601)), TOKEN)
    assert reason(old, max_age=3600) is AuthReason.STALE
    assert check(old, max_age=3602).id == 1001  # type: ignore[attr-defined]
    assert reason(sign_init_data(fields(auth_date=str(NOW + 61)), TOKEN)) is AuthReason.STALE
    assert check(sign_init_data(fields(auth_date=str(NOW + 59)), TOKEN)).id == 1001  # type: ignore[attr-defined]


def test_missing_fields_are_refused() -> None:
    assert reason("") is AuthReason.MISSING
    assert reason(urlencode(fields())) is AuthReason.NO_HASH
    no_user = fields()
    del no_user["user"]
    assert reason(sign_init_data(no_user, TOKEN)) is AuthReason.NO_USER
    no_date = fields()
    del no_date["auth_date"]
    assert reason(sign_init_data(no_date, TOKEN)) is AuthReason.MALFORMED
    assert reason(sign_init_data(fields(user={"first_name": "Ann"}), TOKEN)) is AuthReason.MALFORMED
    assert reason(sign_init_data(fields(user={"id": "1", "first_name": "Ann"}), TOKEN)) is AuthReason.MALFORMED
    assert reason(sign_init_data({**fields(), "user": "not json"}, TOKEN)) is AuthReason.MALFORMED


def test_a_field_given_twice_is_refused_whatever_the_signature() -> None:
    signed = sign_init_data(fields(), TOKEN)
    evil = urlencode({"user": json.dumps({"id": 1002, "first_name": "Bob"})})
    assert reason(f"{signed}&{evil}") is AuthReason.MALFORMED
    assert reason(f"{evil}&{signed}") is AuthReason.MALFORMED
    assert reason("no equals sign") is AuthReason.MALFORMED
    assert reason("a=1&" * 3000) is AuthReason.MALFORMED  # too long


def test_the_authorization_header_carries_it_after_tma() -> None:
    assert from_header("tma a=1&b=2") == "a=1&b=2"
    assert from_header("TMA  a=1 ") == "a=1"
    assert from_header("Bearer a=1") == ""
    assert from_header(None) == ""
