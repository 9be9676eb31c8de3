"""Typed access to Bot API call parameters as they arrive on the wire.

PTB sends parameters as a form where string values are raw and everything else is JSON
(``chat_id=-100123``, ``reply_markup={"inline_keyboard": ...}``, ``disable_notification=true``);
tests calling :meth:`FakeBotAPI.handle` directly may pass native Python values instead. ``Params``
accepts both and raises the Bot API's own errors for malformed values.
"""

from __future__ import annotations

import builtins
import json
from collections.abc import Mapping
from typing import Any

from .errors import ApiError, bad_request

UploadedFile = tuple[str, bytes, str]
"""A multipart file part: (filename, content bytes, mime type)."""


class Params:
    """Parameters of one call plus its uploaded files (multipart parts by part name).

    (Annotations spell ``builtins.str`` etc. because the accessor methods ``str``/``int``/``float``/
    ``bool`` shadow the builtins inside the class body.)
    """

    def __init__(
        self, raw: Mapping[builtins.str, Any] | None = None, files: Mapping[builtins.str, UploadedFile] | None = None
    ) -> None:
        self.raw: dict[builtins.str, Any] = {k: v for k, v in (raw or {}).items() if v is not None}
        self.files: dict[builtins.str, UploadedFile] = dict(files or {})

    def has(self, name: builtins.str) -> builtins.bool:
        """True if the parameter is present (even if empty)."""
        return name in self.raw

    def str(self, name: builtins.str, default: builtins.str | None = None) -> builtins.str | None:
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

    def int(
        self, name: builtins.str, default: builtins.int | None = None, *, error: builtins.str | None = None
    ) -> builtins.int | None:
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

    def float(self, name: builtins.str, default: builtins.float | None = None) -> builtins.float | None:
        """The value as a float (``timeout`` may be fractional)."""
        value = self.raw.get(name)
        if value is None or value == "":
            return default
        try:
            return float(value)
        except (TypeError, ValueError):
            raise bad_request(f"invalid {name} specified") from None

    def bool(self, name: builtins.str, default: builtins.bool = False) -> builtins.bool:
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

    def json(self, name: builtins.str, default: Any = None, *, error: builtins.str | None = None) -> Any:
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

    def require(self, name: builtins.str, error: ApiError) -> Any:
        """The raw value, or raise ``error`` if absent or empty."""
        value = self.raw.get(name)
        if value is None or value == "":
            raise error
        return value

    def as_dict(self) -> dict[builtins.str, Any]:
        """A copy of the raw parameters."""
        return dict(self.raw)
