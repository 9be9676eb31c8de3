"""Telegram's limits, enforced with the real Bot API error texts.

Numbers are the Bot API 10.0 values (PTB 22.8 ``telegram.constants``): text 1-4096 characters
after entity parsing, caption 0-1024, ``callback_data`` 1-64 UTF-8 bytes, 100 buttons per inline
keyboard (8 per row, undocumented), answerCallbackQuery text 0-200, photos <= 10 MiB with width +
height <= 10000 and side ratio <= 20, bot commands 1-32 chars of ``[a-z0-9_]`` with 1-256 character
descriptions, at most 100 commands.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from typing import Any

from .entities import (
    EntityParseError,
    ParsedText,
    checked_link,
    parse_formatted,
    strip_text,
    validate_entities,
)
from .errors import TEXT_BUTTONS_UNALLOWED, bad_request, fake_limitation

MAX_TEXT_LENGTH = 4096
MAX_CAPTION_LENGTH = 1024
MAX_CALLBACK_DATA_BYTES = 64
MAX_BUTTONS_TOTAL = 100
MAX_BUTTONS_PER_ROW = 8
MAX_ANSWER_TEXT_LENGTH = 200
MAX_PHOTO_BYTES = 10 * 1024 * 1024
MAX_PHOTO_DIMENSION_SUM = 10000
MAX_PHOTO_RATIO = 20
MAX_UPLOAD_BYTES = 50 * 1024 * 1024
MAX_COMMANDS = 100

INLINE_BUTTON_ACTIONS = (
    "url",
    "callback_data",
    "web_app",
    "login_url",
    "switch_inline_query",
    "switch_inline_query_current_chat",
    "switch_inline_query_chosen_chat",
    "copy_text",
    "callback_game",
    "pay",
)
CHAT_ACTIONS = frozenset(
    {
        "typing",
        "upload_photo",
        "record_video",
        "upload_video",
        "record_voice",
        "upload_voice",
        "upload_document",
        "choose_sticker",
        "find_location",
        "record_video_note",
        "upload_video_note",
    }
)
_COMMAND = re.compile(r"^[a-z0-9_]{1,32}$")


def parse_message_text(source: str | None, parse_mode: str | None, entities: Any, *, caption: bool) -> ParsedText:
    """Turn a ``text``/``caption`` parameter into the plain text and entities Telegram stores.

    Applies ``parse_mode`` (or explicit ``entities``), trims whitespace and checks the length
    limit. A missing or empty caption is fine (returns empty text); a missing text is not.

    Raises:
        ApiError: 400 ``message text is empty``, ``text must be non-empty``, ``message is too
            long``, ``message caption is too long``, ``unsupported parse_mode``, ``can't parse
            entities: ...`` or an entity-validation error.
    """
    if source is None or source == "":
        if caption:
            return ParsedText("", ())
        raise bad_request("message text is empty")
    try:
        if entities is not None:
            parsed = ParsedText(source, validate_entities(source, entities))
        else:
            parsed = parse_formatted(source, parse_mode)
    except EntityParseError as exc:
        raise bad_request(f"can't parse entities: {exc}") from None
    except ValueError as exc:
        raise bad_request(str(exc)) from None
    parsed = strip_text(parsed.text, parsed.entities)
    if not parsed.text and not caption:
        raise bad_request("text must be non-empty")
    if caption and len(parsed.text) > MAX_CAPTION_LENGTH:
        raise bad_request("message caption is too long")
    if not caption and len(parsed.text) > MAX_TEXT_LENGTH:
        raise bad_request("message is too long")
    return parsed


def _strip_none(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_strip_none(v) for v in value]
    return value


def _check_url(url: Any, what: str) -> None:
    if not isinstance(url, str):
        raise bad_request(f'can\'t parse inline keyboard button: Field "{what}" must be of type String')
    match = re.match(r"^([A-Za-z][A-Za-z0-9+.\-]*)://", url)
    if match and match.group(1).lower() not in ("http", "https", "tg"):
        raise bad_request(f"inline keyboard button URL '{url}' is invalid: Unsupported URL protocol")
    if checked_link(url) is None:
        raise bad_request(f"inline keyboard button URL '{url}' is invalid: Wrong HTTP URL")


def _check_web_app(web_app: Any, private: bool) -> None:
    """A ``web_app`` button: only in a private chat (Bot API: "Available only in private chats
    between a user and the bot"), with an https URL.  The fake also takes a plain http URL to the
    machine itself (127.0.0.1, localhost): the playground stands in for Telegram there."""
    if not private:
        raise bad_request("BUTTON_TYPE_INVALID")
    url = web_app.get("url") if isinstance(web_app, dict) else None
    if not isinstance(url, str):
        raise bad_request('can\'t parse inline keyboard button: Field "url" must be of type String')
    local = re.match(r"^http://(?:127\.0\.0\.1|localhost)(?::[0-9]+)?/", url)
    if not url.startswith("https://") and not local:
        raise bad_request(f"inline keyboard button Web App URL '{url}' is invalid: Only HTTPS links are allowed")
    _check_url(url, "url")


def validate_inline_keyboard(rows: Any, *, private: bool = True) -> list[list[dict[str, Any]]]:
    """Validate ``inline_keyboard`` rows; returns them without ``None`` fields.  ``private``: the
    message is in a private chat (the only place a ``web_app`` button is allowed).

    Raises:
        ApiError: ``BUTTON_DATA_INVALID`` (callback_data not 1-64 bytes), ``can't parse inline
            keyboard button: Text buttons are unallowed in the inline keyboard`` (no action or an
            empty callback_data), ``Can't find field "text"``, bad URLs, too many buttons.
    """
    if not isinstance(rows, list):
        raise bad_request('field "inline_keyboard" must be of type Array')
    total = 0
    result: list[list[dict[str, Any]]] = []
    for row in rows:
        if not isinstance(row, list):
            raise bad_request('Field "inline_keyboard" of the InlineKeyboardMarkup should be an Array of Arrays')
        if len(row) > MAX_BUTTONS_PER_ROW:
            raise fake_limitation(
                f"a row of {len(row)} inline buttons exceeds the undocumented limit of {MAX_BUTTONS_PER_ROW} per row"
            )
        clean_row: list[dict[str, Any]] = []
        for button in row:
            total += 1
            if not isinstance(button, dict):
                raise bad_request("can't parse inline keyboard button: InlineKeyboardButton should be an Object")
            button = _strip_none(button)
            if "text" not in button:
                raise bad_request("can't parse inline keyboard button: Can't find field \"text\"")
            if not isinstance(button["text"], str):
                raise bad_request('can\'t parse inline keyboard button: Field "text" must be of type String')
            if not button["text"].strip():
                raise bad_request("BUTTON_TEXT_INVALID")
            if button.get("callback_data") == "":
                del button["callback_data"]
            actions = [name for name in INLINE_BUTTON_ACTIONS if name in button]
            if not actions:
                raise bad_request(TEXT_BUTTONS_UNALLOWED)
            if "callback_data" in button:
                data = button["callback_data"]
                if not isinstance(data, str):
                    raise bad_request(
                        'can\'t parse inline keyboard button: Field "callback_data" must be of type String'
                    )
                if len(data.encode("utf-8")) > MAX_CALLBACK_DATA_BYTES:
                    raise bad_request("BUTTON_DATA_INVALID")
            if "url" in button:
                _check_url(button["url"], "url")
            if "pay" in button:
                raise bad_request("BUTTON_TYPE_INVALID")
            if "web_app" in button:
                _check_web_app(button["web_app"], private)
            clean_row.append(button)
        result.append(clean_row)
    if total > MAX_BUTTONS_TOTAL:
        raise bad_request("REPLY_MARKUP_TOO_LONG")
    return result


def normalize_reply_markup(value: Any, *, inline_only: bool = False, private: bool = True) -> dict[str, Any] | None:
    """Validate a ``reply_markup`` and return its canonical form (None = no markup); ``private``:
    the message is in a private chat (``web_app`` buttons are refused elsewhere).

    An empty inline keyboard is the same as no markup (it removes the keyboard on edits).
    Edit methods accept only inline keyboards (``inline_only``).

    Raises:
        ApiError: 400 with the Bot API text for malformed markup.
    """
    if value is None:
        return None
    if not isinstance(value, dict):
        raise bad_request("object expected as reply markup")
    if "inline_keyboard" in value:
        rows = validate_inline_keyboard(value["inline_keyboard"], private=private)
        rows = [row for row in rows if row]
        return {"inline_keyboard": rows} if rows else None
    if inline_only:
        raise bad_request("inline keyboard expected")
    if "keyboard" in value:
        keyboard = value["keyboard"]
        if not isinstance(keyboard, list) or not all(isinstance(r, list) for r in keyboard):
            raise bad_request('Field "keyboard" of the ReplyKeyboardMarkup should be an Array of Arrays')
        for row in keyboard:
            for button in row:
                if isinstance(button, dict) and not isinstance(button.get("text"), str):
                    raise bad_request("can't parse keyboard button: Can't find field \"text\"")
        reply_keyboard: dict[str, Any] = _strip_none(value)
        return reply_keyboard
    for flag in ("remove_keyboard", "force_reply"):
        if flag in value:
            if not isinstance(value[flag], bool):
                raise bad_request(f'field "{flag}" must be of type Boolean')
            simple: dict[str, Any] = _strip_none(value)
            return simple
    raise bad_request("can't parse reply keyboard markup JSON object")


@dataclass(frozen=True, slots=True)
class ImageInfo:
    """What Pillow says about an uploaded photo: pixel ``width``/``height`` and ``format``."""

    width: int
    height: int
    format: str


def inspect_photo(data: bytes) -> ImageInfo:
    """Decode a photo upload's header with Pillow and apply Telegram's photo limits.

    Raises:
        ApiError: ``file must be non-empty``; ``file of size N bytes is too big for a photo; the
            maximum size is 10485760 bytes``; ``IMAGE_PROCESS_FAILED`` (not an image);
            ``PHOTO_INVALID_DIMENSIONS`` (width + height > 10000 or side ratio > 20).
    """
    from PIL import Image, UnidentifiedImageError

    if not data:
        raise bad_request("file must be non-empty")
    if len(data) > MAX_PHOTO_BYTES:
        raise bad_request(
            f"file of size {len(data)} bytes is too big for a photo; the maximum size is {MAX_PHOTO_BYTES} bytes"
        )
    try:
        with Image.open(io.BytesIO(data)) as image:
            width, height = image.size
            kind = image.format or "unknown"
    except (UnidentifiedImageError, OSError, ValueError):
        raise bad_request("IMAGE_PROCESS_FAILED") from None
    if width <= 0 or height <= 0 or width + height > MAX_PHOTO_DIMENSION_SUM:
        raise bad_request("PHOTO_INVALID_DIMENSIONS")
    if max(width, height) > MAX_PHOTO_RATIO * min(width, height):
        raise bad_request("PHOTO_INVALID_DIMENSIONS")
    return ImageInfo(width, height, kind)


def validate_commands(commands: Any) -> list[dict[str, str]]:
    """Validate a ``setMyCommands`` list; returns ``[{"command", "description"}]``.

    Raises:
        ApiError: ``BOT_COMMAND_INVALID``, ``BOT_COMMAND_DESCRIPTION_INVALID``,
            ``BOT_COMMANDS_TOO_MUCH`` or a parse error.
    """
    if not isinstance(commands, list):
        raise bad_request("can't parse BotCommand array JSON object")
    if len(commands) > MAX_COMMANDS:
        raise bad_request("BOT_COMMANDS_TOO_MUCH")
    result: list[dict[str, str]] = []
    for item in commands:
        if not isinstance(item, dict) or "command" not in item or "description" not in item:
            raise bad_request("can't parse BotCommand JSON object")
        command, description = item["command"], item["description"]
        if not isinstance(command, str) or not _COMMAND.match(command.removeprefix("/")):
            raise bad_request("BOT_COMMAND_INVALID")
        if not isinstance(description, str) or not 1 <= len(description.strip()) <= 256:
            raise bad_request("BOT_COMMAND_DESCRIPTION_INVALID")
        result.append({"command": command.removeprefix("/"), "description": description})
    return result


def check_answer_text(text: str | None) -> None:
    """answerCallbackQuery ``text``: 0-200 characters.

    Raises:
        ApiError: ``MESSAGE_TOO_LONG``.
    """
    if text is not None and len(text) > MAX_ANSWER_TEXT_LENGTH:
        raise bad_request("MESSAGE_TOO_LONG")
