"""Bot API error values with the exact texts of the real Telegram Bot API.

Every refusal of the fake is an :class:`ApiError`; :meth:`ApiError.body` is the JSON the real
server sends (``{"ok": false, "error_code": 400, "description": "Bad Request: ...",
"parameters": {...}}``). PTB turns the HTTP status into an exception: 400 -> ``BadRequest``,
403 -> ``Forbidden``, 409 -> ``Conflict``, 429 (``parameters.retry_after``) -> ``RetryAfter``,
``parameters.migrate_to_chat_id`` -> ``ChatMigrated``.

Texts were taken from live Bot API responses (quoted in client libraries' test suites and issue
trackers, see docs/telegram.md §1.3/§4). Where Telegram's behaviour is undocumented and the text is
unknown, the description starts with ``"fake: "`` so that nobody mistakes it for the real one.
Remember that PTB rewrites descriptions (strips ``"Bad Request: "`` and ``.capitalize()``s the
rest), so compare case-insensitively on the PTB side.
"""

from __future__ import annotations

from typing import Any

MESSAGE_NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are exactly the same "
    "as a current content and reply markup of the message"
)
QUERY_TOO_OLD = "query is too old and response timeout expired or query ID is invalid"
CANT_INITIATE = "bot can't initiate conversation with a user"
BLOCKED_BY_USER = "bot was blocked by the user"
TEXT_BUTTONS_UNALLOWED = "can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard"
GETUPDATES_CONFLICT = "terminated by other getUpdates request; make sure that only one bot instance is running"


class ApiError(Exception):
    """A Bot API refusal: HTTP ``status``, ``description`` text and optional ``parameters``.

    ``description`` is the full text including its prefix (``"Bad Request: chat not found"``).
    """

    def __init__(self, status: int, description: str, parameters: dict[str, Any] | None = None) -> None:
        super().__init__(description)
        self.status = status
        self.description = description
        self.parameters = parameters

    def body(self) -> dict[str, Any]:
        """The JSON body the real server returns for this error."""
        body: dict[str, Any] = {"ok": False, "error_code": self.status, "description": self.description}
        if self.parameters:
            body["parameters"] = dict(self.parameters)
        return body

    def __repr__(self) -> str:
        return f"ApiError({self.status}, {self.description!r}, {self.parameters!r})"


def bad_request(text: str, parameters: dict[str, Any] | None = None) -> ApiError:
    """400 ``"Bad Request: <text>"``."""
    return ApiError(400, f"Bad Request: {text}", parameters)


def forbidden(text: str) -> ApiError:
    """403 ``"Forbidden: <text>"``."""
    return ApiError(403, f"Forbidden: {text}")


def conflict(text: str) -> ApiError:
    """409 ``"Conflict: <text>"``."""
    return ApiError(409, f"Conflict: {text}")


def too_many_requests(retry_after: int) -> ApiError:
    """429 flood-wait with ``parameters.retry_after`` (whole seconds, >= 1)."""
    retry_after = max(1, int(retry_after))
    return ApiError(429, f"Too Many Requests: retry after {retry_after}", {"retry_after": retry_after})


def unauthorized() -> ApiError:
    """401 for a wrong bot token (PTB raises ``InvalidToken``)."""
    return ApiError(401, "Unauthorized")


def fake_limitation(text: str) -> ApiError:
    """400 for something the fake deliberately does not emulate; the text says so."""
    return ApiError(400, f"Bad Request: fake: {text}")
