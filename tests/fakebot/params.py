"""Typed access to Bot API call parameters as they arrive on the wire.

PTB sends parameters as a form where string values are raw and everything else is JSON
(``chat_id=-100123``, ``reply_markup={"inline_keyboard": ...}``, ``disable_notification=true``);
tests calling :meth:`FakeBotAPI.handle` directly may pass native Python values instead. ``Params``
accepts both and raises the Bot API's own errors for malformed values.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .errors import ApiError, bad_request

UploadedFile = tuple[str, bytes, str]
"""A multipart file part: (filename, content bytes, mime type)."""


class Params:
    """Parameters of one call plus its uploaded files (multipart parts by part name)."""

    def __init__(self, raw: Mapping[str, Any] | None = None, files: Mapping[str, UploadedFile] | None = None):
        self.raw: dict[str, Any] = {k: v for k, v in (raw or {}).items() if v is not None}
        self.files: dict[str, UploadedFile] = dict(files or {})

    def has(self, name: str) -> bool:
        """True if the parameter is present (even if empty)."""
        return name in self.raw

    def str(self, name: str, default: str | None = None) -> str | None:
        """The value as a string (JSON-typed values are converted back to text)."""
        value = self.raw.get(name)
        if value is None:
            return default
        if isinstance(value, str):
            return value
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, int | float):
            return str(value)
        return json.dumps(value)

    def int(self, name: str, default: int | None = None, *, error: str | None = None) -> int | None:
        """The value as an int; a non-integer raises 400 ``error`` (or a generic text)."""
        value = self.raw.get(name)
        if value is None or value == "":
            return default
        if isinstance(value, bool):
            return int(value)
        if isinstance(value, int):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
        try:
            return int(str(value).strip())
        except ValueError:
            try:
                as_float = float(str(value).strip())
            except ValueError:
                raise bad_request(error or f"invalid {name} specified") from None
            if as_float.is_integer():
                return int(as_float)
            raise bad_request(error or f"invalid {name} specified") from None

    def float(self, name: str, default: float | None = None) -> float | None:
        """The value as a float (``timeout`` may be fractional)."""
        value = self.raw.get(name)
        if value is None or value == "":
            return default
        try:
            return float(value)
        except (TypeError, ValueError):
            raise bad_request(f"invalid {name} specified") from None

    def bool(self, name: str, default: bool = False) -> bool:
        """The value as a bool (``true``/``false``/``1``/``0``)."""
        value = self.raw.get(name)
        if value is None:
            return default
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in ("true", "1"):
            return True
        if text in ("false", "0", ""):
            return False
        raise bad_request(f'field "{name}" must be of type Boolean')

    def json(self, name: str, default: Any = None, *, error: str | None = None) -> Any:
        """The value JSON-decoded if it is a string, else as given."""
        value = self.raw.get(name)
        if value is None:
            return default
        if isinstance(value, str):
            if value == "":
                return default
            try:
                return json.loads(value)
            except json.JSONDecodeError:
                raise bad_request(error or f"can't parse {name} JSON object") from None
        return value

    def require(self, name: str, error: ApiError) -> Any:
        """The raw value, or raise ``error`` if absent or empty."""
        value = self.raw.get(name)
        if value is None or value == "":
            raise error
        return value

    def as_dict(self) -> dict[str, Any]:
        """A copy of the raw parameters."""
        return dict(self.raw)
