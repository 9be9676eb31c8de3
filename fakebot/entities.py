"""Telegram message formatting: ``parse_mode`` HTML / MarkdownV2 / Markdown -> plain text + entities.

The parsers follow TDLib's (the Bot API server's) behaviour closely enough that the fake accepts
what Telegram accepts, refuses what Telegram refuses with the same ``can't parse entities: ...``
texts (byte offsets are UTF-8 byte offsets into the source, as Telegram reports them), and returns
the plain text a Telegram client would show, so tests can read messages without markup.

Entities are Bot API ``MessageEntity`` dicts (``{"type", "offset", "length", ...}``) whose
``offset``/``length`` count UTF-16 code units, as in the real API.

Known approximations (documented, harmless for this project): MarkdownV2 edge cases such as
``___`` ambiguity and ``**>`` expandable quotes; automatic entities (URLs, @mentions, hashtags in
bot messages) are not detected; whitespace trimming trims both ends regardless of entities.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

__all__ = [
    "ENTITY_TYPES",
    "EntityParseError",
    "ParsedText",
    "checked_link",
    "entity_text",
    "parse_formatted",
    "parse_html",
    "parse_markdown",
    "parse_markdown_v2",
    "strip_text",
    "utf16_len",
    "validate_entities",
]

ENTITY_TYPES = frozenset(
    {
        "mention",
        "hashtag",
        "cashtag",
        "bot_command",
        "url",
        "email",
        "phone_number",
        "bold",
        "italic",
        "underline",
        "strikethrough",
        "spoiler",
        "blockquote",
        "expandable_blockquote",
        "code",
        "pre",
        "text_link",
        "text_mention",
        "custom_emoji",
        "date_time",
    }
)
"""Entity ``type`` values the Bot API accepts in an ``entities`` parameter."""

HTML_TAGS = frozenset(
    {
        "a",
        "b",
        "strong",
        "i",
        "em",
        "s",
        "strike",
        "del",
        "u",
        "ins",
        "tg-spoiler",
        "tg-emoji",
        "span",
        "pre",
        "code",
        "blockquote",
    }
)
"""Start tags Telegram's HTML parse mode supports (anything else: "Unsupported start tag")."""

_SIMPLE_HTML = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "tg-spoiler": "spoiler",
}
_SPACES = " \t\r\n\v\f"


class EntityParseError(ValueError):
    """Malformed formatted text; ``str(e)`` is the TDLib text that follows "can't parse entities: "."""


@dataclass(frozen=True, slots=True)
class ParsedText:
    """Plain text (what a client shows) and its entities (UTF-16 offsets), sorted by offset."""

    text: str
    entities: tuple[dict[str, Any], ...] = ()


def utf16_len(text: str) -> int:
    """Length of ``text`` in UTF-16 code units (the unit of entity offsets)."""
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def _u16_to_index(text: str, u16: int) -> int:
    """Python string index of UTF-16 offset ``u16`` (clamped to the text)."""
    count = 0
    for index, ch in enumerate(text):
        if count >= u16:
            return index
        count += 2 if ord(ch) > 0xFFFF else 1
    return len(text)


def entity_text(text: str, entity: dict[str, Any]) -> str:
    """The part of ``text`` an entity covers (converting UTF-16 offsets)."""
    start = _u16_to_index(text, int(entity["offset"]))
    end = _u16_to_index(text, int(entity["offset"]) + int(entity["length"]))
    return text[start:end]


def _byte_offset(source: str, index: int) -> int:
    return len(source[:index].encode("utf-8", "surrogatepass"))


def _sort(entities: list[dict[str, Any]]) -> tuple[dict[str, Any], ...]:
    return tuple(sorted(entities, key=lambda e: (e["offset"], -e["length"])))


class _Out:
    """Output buffer that tracks the UTF-16 length of what was appended."""

    def __init__(self) -> None:
        self.chars: list[str] = []
        self.u16 = 0

    def add(self, ch: str) -> None:
        self.chars.append(ch)
        self.u16 += 2 if ord(ch) > 0xFFFF else 1

    def text(self, start: int = 0) -> str:
        return "".join(self.chars[start:])


# --------------------------------------------------------------------------------------------- links

_USER_LINK = re.compile(r"^tg://user\?id=(\d+)$", re.IGNORECASE)
_EMOJI_LINK = re.compile(r"^tg://emoji\?id=(\d+)$", re.IGNORECASE)
_HOST = re.compile(r"^[A-Za-z0-9\-._~%]+(:\d+)?$")


def checked_link(url: str) -> str | None:
    """Telegram's normalisation of a link target; None if it is not a usable link.

    ``example.com`` -> ``http://example.com/``; ``https://a.b`` -> ``https://a.b/``; ``tg://...``
    and ``ton://...`` pass unchanged.
    """
    url = url.strip()
    if not url or any(ch in url for ch in " \n\t"):
        return None
    match = re.match(r"^([A-Za-z][A-Za-z0-9+.\-]*)://(.*)$", url)
    if match is None:
        scheme, rest = "http", url
    else:
        scheme, rest = match.group(1).lower(), match.group(2)
        if scheme in ("tg", "ton"):
            return url if rest else None
        if scheme not in ("http", "https"):
            return None
    host, _, path = rest.partition("/")
    host_only = host.split("@")[-1]
    bare_host = host_only.split(":")[0]
    if (not host_only or not _HOST.match(host_only) or "." not in bare_host) and bare_host.lower() != "localhost":
        return None
    return f"{scheme}://{host}/{path}"


def _link_entity(url: str, offset: int, length: int) -> dict[str, Any] | None:
    user = _USER_LINK.match(url.strip())
    if user:
        return {
            "type": "text_mention",
            "offset": offset,
            "length": length,
            "user": {"id": int(user.group(1)), "is_bot": False, "first_name": ""},
        }
    checked = checked_link(url)
    if checked is None:
        return None
    return {"type": "text_link", "offset": offset, "length": length, "url": checked}


# ---------------------------------------------------------------------------------------------- HTML


def _decode_html_entity(source: str, pos: int) -> tuple[str, int] | None:
    """Decode ``&...;`` at ``pos``; returns (character, next index) or None to keep a literal '&'."""
    n = len(source)
    end = pos + 1
    if end < n and source[end] == "#":
        end += 1
        value = 0
        if end < n and source[end] == "x":
            end += 1
            while end < n and source[end] in "0123456789abcdefABCDEF":
                value = value * 16 + int(source[end], 16)
                end += 1
        else:
            while end < n and source[end].isascii() and source[end].isdigit():
                value = value * 10 + int(source[end])
                end += 1
        if value == 0 or value >= 0x10FFFF or end - pos >= 10:
            return None
        if 0xD800 <= value <= 0xDFFF:
            raise EntityParseError(
                "Text contains invalid Unicode characters after decoding HTML entities, check for "
                "unmatched surrogate code units"
            )
        ch = chr(value)
    else:
        while end < n and source[end].isascii() and source[end].isalpha():
            end += 1
        name = source[pos + 1 : end]
        named = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}
        if name not in named:
            return None
        ch = named[name]
    if end < n and source[end] == ";":
        end += 1
    return ch, end


@dataclass(slots=True)
class _OpenTag:
    tag: str
    argument: str
    offset: int
    out_index: int


def parse_html(source: str) -> ParsedText:
    """Parse Telegram HTML (``parse_mode="HTML"``).

    Supported: ``b strong i em u ins s strike del tg-spoiler span.tg-spoiler a[href] code pre
    code.language-* blockquote[expandable] tg-emoji[emoji-id]`` and the entities ``&lt; &gt; &amp;
    &quot;`` plus numeric ``&#NNN; &#xHH;`` (other ``&`` stay literal).

    Raises:
        EntityParseError: with TDLib's text, e.g. ``Unsupported start tag "br" at byte offset 5``,
            ``Can't find end tag corresponding to start tag "b"``, ``Unmatched end tag at byte
            offset 10, expected "</i>", found "</b>"``.
    """
    out = _Out()
    entities: list[dict[str, Any]] = []
    stack: list[_OpenTag] = []
    n = len(source)
    i = 0

    def err(text: str) -> EntityParseError:
        return EntityParseError(text)

    while i < n:
        ch = source[i]
        if ch == "&":
            decoded = _decode_html_entity(source, i)
            if decoded is not None:
                out.add(decoded[0])
                i = decoded[1]
                continue
            out.add(ch)
            i += 1
            continue
        if ch != "<":
            out.add(ch)
            i += 1
            continue
        begin = i
        begin_bytes = _byte_offset(source, begin)
        i += 1
        if i >= n or source[i] != "/":
            j = i
            while j < n and source[j] not in _SPACES and source[j] != ">":
                j += 1
            if j >= n:
                raise err(f"Unclosed start tag at byte offset {begin_bytes}")
            tag = source[i:j].lower()
            if tag not in HTML_TAGS:
                raise err(f'Unsupported start tag "{tag}" at byte offset {begin_bytes}')
            i = j
            argument = ""
            while i < n and source[i] != ">":
                while i < n and source[i] in _SPACES:
                    i += 1
                if i >= n:
                    break
                if source[i] == ">":
                    break
                name_begin = i
                while i < n and source[i] not in _SPACES and source[i] not in "=>":
                    i += 1
                attribute = source[name_begin:i].lower()
                if not attribute:
                    raise err(f'Empty attribute name in the tag "{tag}" at byte offset {begin_bytes}')
                while i < n and source[i] in _SPACES:
                    i += 1
                if tag == "blockquote" and attribute == "expandable" and (i >= n or source[i] != "="):
                    argument = "expandable"
                    continue
                if i >= n or source[i] != "=":
                    raise err(
                        f'Expected equal sign in declaration of an attribute of the tag "{tag}" at '
                        f"byte offset {begin_bytes}"
                    )
                i += 1
                while i < n and source[i] in _SPACES:
                    i += 1
                if i >= n:
                    raise err(f'Unclosed start tag "{tag}" at byte offset {begin_bytes}')
                if source[i] not in "'\"":
                    token_begin = i
                    while i < n and ((source[i].isascii() and source[i].isalnum()) or source[i] in ".-"):
                        i += 1
                    value = source[token_begin:i].lower()
                    if i < n and source[i] not in _SPACES and source[i] != ">":
                        raise err(f"Unexpected end of name token at byte offset {_byte_offset(source, token_begin)}")
                else:
                    quote = source[i]
                    i += 1
                    chars: list[str] = []
                    while i < n and source[i] != quote:
                        if source[i] == "&":
                            decoded = _decode_html_entity(source, i)
                            if decoded is not None:
                                chars.append(decoded[0])
                                i = decoded[1]
                                continue
                        chars.append(source[i])
                        i += 1
                    if i < n:
                        i += 1
                    value = "".join(chars)
                if i >= n:
                    raise err(f"Unclosed start tag at byte offset {begin_bytes}")
                if tag == "a" and attribute == "href":
                    argument = value
                elif tag == "code" and attribute == "class" and value.startswith("language-"):
                    argument = value[len("language-") :]
                elif tag == "span" and attribute == "class" and value.startswith("tg-"):
                    argument = value[len("tg-") :]
                elif tag == "tg-emoji" and attribute == "emoji-id":
                    argument = value
            if i >= n:
                raise err(f"Unclosed start tag at byte offset {begin_bytes}")
            i += 1  # the '>'
            if tag == "span" and argument != "spoiler":
                raise err(f'Tag "span" must have class "tg-spoiler" at byte offset {begin_bytes}')
            stack.append(_OpenTag(tag, argument, out.u16, len(out.chars)))
            continue

        # an end tag "</name>"
        if not stack:
            raise err(f"Unexpected end tag at byte offset {begin_bytes}")
        j = i + 1
        while j < n and source[j] not in _SPACES and source[j] != ">":
            j += 1
        end_tag = source[i + 1 : j].lower()
        while j < n and source[j] in _SPACES:
            j += 1
        if j >= n or source[j] != ">":
            raise err(f"Unclosed end tag at byte offset {begin_bytes}")
        top = stack[-1]
        if end_tag and end_tag != top.tag:
            raise err(f'Unmatched end tag at byte offset {begin_bytes}, expected "</{top.tag}>", found "</{end_tag}>"')
        i = j + 1
        stack.pop()
        length = out.u16 - top.offset
        if length <= 0:
            continue
        if top.tag in _SIMPLE_HTML or (top.tag == "span" and top.argument == "spoiler"):
            entities.append({"type": _SIMPLE_HTML.get(top.tag, "spoiler"), "offset": top.offset, "length": length})
        elif top.tag == "blockquote":
            kind = "expandable_blockquote" if top.argument == "expandable" else "blockquote"
            entities.append({"type": kind, "offset": top.offset, "length": length})
        elif top.tag == "tg-emoji":
            if not top.argument.isdigit() or int(top.argument) == 0:
                raise err("Invalid custom emoji identifier specified")
            entities.append(
                {"type": "custom_emoji", "offset": top.offset, "length": length, "custom_emoji_id": top.argument}
            )
        elif top.tag == "a":
            url = top.argument or out.text(top.out_index)
            link = _link_entity(url, top.offset, length)
            if link is not None:
                entities.append(link)
        elif top.tag == "code":
            previous = entities[-1] if entities else None
            if (
                previous is not None
                and previous["type"] == "pre"
                and previous["offset"] == top.offset
                and previous["length"] == length
                and top.argument
            ):
                previous["language"] = top.argument
            else:
                entities.append({"type": "code", "offset": top.offset, "length": length, "_language": top.argument})
        elif top.tag == "pre":
            previous = entities[-1] if entities else None
            if (
                previous is not None
                and previous["type"] == "code"
                and previous["offset"] == top.offset
                and previous["length"] == length
                and previous.get("_language")
            ):
                entities[-1] = {
                    "type": "pre",
                    "offset": top.offset,
                    "length": length,
                    "language": previous["_language"],
                }
            else:
                entities.append({"type": "pre", "offset": top.offset, "length": length})
    if stack:
        raise err(f'Can\'t find end tag corresponding to start tag "{stack[-1].tag}"')
    for entity in entities:
        entity.pop("_language", None)
    return ParsedText(out.text(), _sort(entities))


# ---------------------------------------------------------------------------------------- MarkdownV2

_MDV2_RESERVED = frozenset("_*[]()~`>#+-=|{}.!")
_MDV2_NAMES = {
    "bold": "Bold",
    "italic": "Italic",
    "underline": "Underline",
    "strikethrough": "Strikethrough",
    "spoiler": "Spoiler",
    "code": "Code",
    "pre": "Pre",
    "text_link": "TextUrl",
    "custom_emoji": "CustomEmoji",
}


@dataclass(slots=True)
class _OpenMd:
    kind: str
    offset: int
    out_index: int
    byte_offset: int
    argument: str = ""


def parse_markdown_v2(source: str) -> ParsedText:
    """Parse ``parse_mode="MarkdownV2"``.

    ``*bold* _italic_ __underline__ ~strike~ ||spoiler|| `code` ```lang\\npre``` [text](url)
    ![e](tg://emoji?id=N)`` and ``>`` block quotes at line starts; ``\\`` escapes any ASCII
    character. Outside code, the characters ``_*[]()~`>#+-=|{}.!`` must be escaped.

    Raises:
        EntityParseError: e.g. ``Character '.' is reserved and must be escaped with the preceding
            '\\'`` or ``Can't find end of Bold entity at byte offset 0``.
    """
    out = _Out()
    entities: list[dict[str, Any]] = []
    stack: list[_OpenMd] = []
    quote: _OpenMd | None = None
    n = len(source)
    i = 0

    def close_quote() -> None:
        nonlocal quote
        if quote is not None:
            end_u16 = out.u16
            if out.chars and out.chars[-1] == "\n":
                end_u16 -= 1
            if end_u16 > quote.offset:
                entities.append({"type": "blockquote", "offset": quote.offset, "length": end_u16 - quote.offset})
            quote = None

    while i < n:
        ch = source[i]
        at_line_start = i == 0 or source[i - 1] == "\n"
        top = stack[-1].kind if stack else None
        if top not in ("code", "pre") and at_line_start:
            if ch == ">":
                if quote is None:
                    quote = _OpenMd("blockquote", out.u16, len(out.chars), _byte_offset(source, i))
                i += 1
                continue
            if quote is not None and not stack:
                close_quote()
        if ch == "\\" and i + 1 < n and 0 < ord(source[i + 1]) <= 126:
            out.add(source[i + 1])
            i += 2
            continue
        if top in ("code", "pre"):
            closes = ch == "`" and (top == "code" or source.startswith("```", i))
            if not closes:
                out.add(ch)
                i += 1
                continue
        else:
            closes = (
                (top == "italic" and ch == "_")
                or (top == "bold" and ch == "*")
                or (top == "underline" and source.startswith("__", i))
                or (top == "strikethrough" and ch == "~")
                or (top == "spoiler" and source.startswith("||", i))
                or (top in ("text_link", "custom_emoji") and ch == "]")
            )
        if closes:
            opened = stack.pop()
            i += {"underline": 2, "spoiler": 2, "pre": 3}.get(opened.kind, 1)
            length = out.u16 - opened.offset
            base: dict[str, Any] = {"type": opened.kind, "offset": opened.offset, "length": length}
            entity: dict[str, Any] | None = base
            if opened.kind == "text_link":
                url = out.text(opened.out_index)
                if i < n and source[i] == "(":
                    i += 1
                    url_begin = _byte_offset(source, i)
                    chars: list[str] = []
                    while i < n and source[i] != ")":
                        if source[i] == "\\" and i + 1 < n and 0 < ord(source[i + 1]) <= 126:
                            chars.append(source[i + 1])
                            i += 2
                            continue
                        chars.append(source[i])
                        i += 1
                    if i >= n:
                        raise EntityParseError(f"Can't find end of a URL at byte offset {url_begin}")
                    i += 1
                    url = "".join(chars)
                entity = _link_entity(url, opened.offset, length)
            elif opened.kind == "custom_emoji":
                if i >= n or source[i] != "(":
                    raise EntityParseError("Custom emoji entity must contain a tg://emoji URL")
                i += 1
                url_begin = _byte_offset(source, i)
                end = source.find(")", i)
                if end < 0:
                    raise EntityParseError(f"Can't find end of a custom emoji URL at byte offset {url_begin}")
                match = _EMOJI_LINK.match(source[i:end])
                i = end + 1
                if match is None or int(match.group(1)) == 0:
                    raise EntityParseError("Invalid custom emoji identifier specified")
                base["custom_emoji_id"] = match.group(1)
            elif opened.kind == "pre" and opened.argument:
                base["language"] = opened.argument
            if entity is not None and length > 0:
                entities.append(entity)
            continue
        if ch not in _MDV2_RESERVED:
            out.add(ch)
            i += 1
            continue
        begin_bytes = _byte_offset(source, i)
        if ch == "_":
            if source.startswith("__", i):
                kind, i = "underline", i + 2
            else:
                kind, i = "italic", i + 1
        elif ch == "*":
            kind, i = "bold", i + 1
        elif ch == "~":
            kind, i = "strikethrough", i + 1
        elif ch == "|" and source.startswith("||", i):
            kind, i = "spoiler", i + 2
        elif ch == "[":
            kind, i = "text_link", i + 1
        elif ch == "!" and source.startswith("![", i):
            kind, i = "custom_emoji", i + 2
        elif ch == "`":
            if source.startswith("```", i):
                i += 3
                newline = source.find("\n", i)
                language = ""
                if newline >= 0:
                    candidate = source[i:newline]
                    if candidate and not any(c in candidate for c in " `\t"):
                        language = candidate
                        i = newline + 1
                    elif candidate == "":
                        i = newline + 1
                stack.append(_OpenMd("pre", out.u16, len(out.chars), begin_bytes, language))
                continue
            kind, i = "code", i + 1
        else:
            raise EntityParseError(f"Character '{ch}' is reserved and must be escaped with the preceding '\\'")
        if any(o.kind == kind for o in stack):
            name, offset = _MDV2_NAMES[kind], stack[-1].byte_offset
            raise EntityParseError(f"Can't find end of {name} entity at byte offset {offset}")
        stack.append(_OpenMd(kind, out.u16, len(out.chars), begin_bytes))
    if stack:
        opened = stack[-1]
        name = _MDV2_NAMES[opened.kind]
        raise EntityParseError(f"Can't find end of {name} entity at byte offset {opened.byte_offset}")
    close_quote()
    return ParsedText(out.text(), _sort(entities))


# ------------------------------------------------------------------------------------ legacy Markdown


def parse_markdown(source: str) -> ParsedText:
    """Parse legacy ``parse_mode="Markdown"``: ``*bold* _italic_ `code` ```pre``` [text](url)``.

    No nesting; ``\\`` escapes ``_ * ` [`` outside entities.

    Raises:
        EntityParseError: ``Can't find end of the entity starting at byte offset N``.
    """
    out = _Out()
    entities: list[dict[str, Any]] = []
    n = len(source)
    i = 0
    while i < n:
        ch = source[i]
        if ch == "\\" and i + 1 < n and source[i + 1] in "_*`[":
            out.add(source[i + 1])
            i += 2
            continue
        if ch not in "_*`[":
            out.add(ch)
            i += 1
            continue
        begin_bytes = _byte_offset(source, i)
        offset = out.u16

        def missing() -> EntityParseError:
            return EntityParseError(f"Can't find end of the entity starting at byte offset {begin_bytes}")  # noqa: B023

        if ch == "`" and source.startswith("```", i):
            end = source.find("```", i + 3)
            if end < 0:
                raise missing()
            body = source[i + 3 : end]
            language = ""
            first, newline, rest = body.partition("\n")
            if newline and first and " " not in first:
                language, body = first, rest
            for c in body:
                out.add(c)
            if out.u16 > offset:
                entity: dict[str, Any] = {"type": "pre", "offset": offset, "length": out.u16 - offset}
                if language:
                    entity["language"] = language
                entities.append(entity)
            i = end + 3
            continue
        if ch == "[":
            end = source.find("]", i + 1)
            if end < 0:
                raise missing()
            label = source[i + 1 : end]
            url = ""
            after = end + 1
            if after < n and source[after] == "(":
                close = source.find(")", after)
                if close < 0:
                    raise missing()
                url = source[after + 1 : close]
                after = close + 1
            for c in label:
                out.add(c)
            link = _link_entity(url or label, offset, out.u16 - offset)
            if link is not None and out.u16 > offset:
                entities.append(link)
            i = after
            continue
        end = source.find(ch, i + 1)
        if end < 0:
            raise missing()
        for c in source[i + 1 : end]:
            out.add(c)
        kind = {"*": "bold", "_": "italic", "`": "code"}[ch]
        if out.u16 > offset:
            entities.append({"type": kind, "offset": offset, "length": out.u16 - offset})
        i = end + 1
    return ParsedText(out.text(), _sort(entities))


# ------------------------------------------------------------------------------------------- helpers


def parse_formatted(source: str, parse_mode: str | None) -> ParsedText:
    """Dispatch on ``parse_mode`` (case-insensitive; None/empty = plain text).

    Raises:
        ValueError: ``"unsupported parse_mode"`` for an unknown mode.
        EntityParseError: for malformed markup.
    """
    mode = (parse_mode or "").strip().lower()
    if not mode:
        return ParsedText(source, ())
    if mode == "html":
        return parse_html(source)
    if mode == "markdownv2":
        return parse_markdown_v2(source)
    if mode == "markdown":
        return parse_markdown(source)
    raise ValueError("unsupported parse_mode")


def strip_text(text: str, entities: tuple[dict[str, Any], ...]) -> ParsedText:
    """Trim leading/trailing whitespace as Telegram does, shifting and clipping entities."""
    left = len(text) - len(text.lstrip(_SPACES))
    stripped = text.strip(_SPACES)
    shift = utf16_len(text[:left])
    total = utf16_len(stripped)
    result: list[dict[str, Any]] = []
    for entity in entities:
        start = max(0, int(entity["offset"]) - shift)
        end = min(total, int(entity["offset"]) + int(entity["length"]) - shift)
        if end > start:
            result.append({**entity, "offset": start, "length": end - start})
    return ParsedText(stripped, _sort(result))


def validate_entities(text: str, entities: Any) -> tuple[dict[str, Any], ...]:
    """Check an explicit ``entities``/``caption_entities`` parameter against ``text``.

    Raises:
        ValueError: with the Bot API text (without "Bad Request: "), e.g. ``entity begins after
            the end of the text at UTF-16 offset 100``.
    """
    if not isinstance(entities, list):
        raise ValueError("can't parse entities JSON object")
    total = utf16_len(text)
    result: list[dict[str, Any]] = []
    for entity in entities:
        if not isinstance(entity, dict):
            raise ValueError("can't parse MessageEntity: MessageEntity must be an Object")
        kind = entity.get("type")
        if kind not in ENTITY_TYPES:
            raise ValueError("can't parse MessageEntity: Unsupported type specified")
        try:
            offset, length = int(entity.get("offset", 0)), int(entity.get("length", 0))
        except (TypeError, ValueError):
            raise ValueError('can\'t parse MessageEntity: Field "offset" must be a valid Number') from None
        if offset < 0:
            raise ValueError(f"receive an entity with incorrect offset {offset}")
        if length < 0:
            raise ValueError(f"receive an entity with incorrect length {length}")
        if offset > total:
            raise ValueError(f"entity begins after the end of the text at UTF-16 offset {offset}")
        if offset + length > total:
            raise ValueError(
                f"entity beginning at UTF-16 offset {offset} ends after the end of the text at UTF-16 "
                f"offset {offset + length}"
            )
        for field, needed_by in (("url", "text_link"), ("user", "text_mention"), ("custom_emoji_id", "custom_emoji")):
            if kind == needed_by and not entity.get(field):
                raise ValueError(f"can't parse MessageEntity: Can't find field \"{field}\"")
        if kind == "text_link" and checked_link(str(entity["url"])) is None:
            raise ValueError(f"entity URL '{entity['url']}' is invalid: Wrong HTTP URL")
        if length > 0:
            result.append({**entity, "offset": offset, "length": length})
    return _sort(result)
