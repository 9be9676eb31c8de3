"""HTML / MarkdownV2 / Markdown parsing of the fake: plain text, entities and Telegram's error texts."""

from __future__ import annotations

import pytest

from fakebot.entities import (
    EntityParseError,
    checked_link,
    entity_text,
    parse_formatted,
    parse_html,
    parse_markdown,
    parse_markdown_v2,
    strip_text,
    utf16_len,
    validate_entities,
)


def kinds(parsed):
    return [(e["type"], entity_text(parsed.text, e)) for e in parsed.entities]


# ----------------------------------------------------------------------------------------- HTML


def test_html_tags_become_entities_over_plain_text():
    parsed = parse_html("<b>Bold</b>, <i>it</i> <u>u</u> <s>s</s> <tg-spoiler>x</tg-spoiler> <code>c</code>")
    assert parsed.text == "Bold, it u s x c"
    assert kinds(parsed) == [
        ("bold", "Bold"),
        ("italic", "it"),
        ("underline", "u"),
        ("strikethrough", "s"),
        ("spoiler", "x"),
        ("code", "c"),
    ]


def test_html_synonyms_nesting_and_blockquotes():
    parsed = parse_html(
        '<strong>a<em>b</em></strong><span class="tg-spoiler">s</span>'
        "<blockquote>q</blockquote><blockquote expandable>e</blockquote>"
    )
    assert parsed.text == "absqe"
    assert kinds(parsed) == [
        ("bold", "ab"),
        ("italic", "b"),
        ("spoiler", "s"),
        ("blockquote", "q"),
        ("expandable_blockquote", "e"),
    ]


def test_html_entities_decode_and_unknown_ampersands_stay_literal():
    parsed = parse_html("&lt;b&gt; &amp; &quot;q&quot; &#20013;&#x767D; AT&T &nbsp; &amp")
    assert parsed.text == '<b> & "q" 中白 AT&T &nbsp; &'
    assert parsed.entities == ()


def test_html_offsets_count_utf16_code_units():
    parsed = parse_html("🀄<b>中</b>")
    assert parsed.text == "🀄中"
    assert parsed.entities == ({"type": "bold", "offset": 2, "length": 1},)
    assert utf16_len(parsed.text) == 3


def test_html_links_pre_with_language_and_user_mentions():
    parsed = parse_html(
        '<a href="https://t.me/kwx_test_bot?start=j_1">join</a> '
        '<pre><code class="language-python">x = 1</code></pre> '
        '<a href="tg://user?id=42">Al</a> <a href="not a url">bad</a>'
    )
    assert parsed.text == "join x = 1 Al bad"
    by_type = {e["type"]: e for e in parsed.entities}
    assert by_type["text_link"]["url"] == "https://t.me/kwx_test_bot?start=j_1"
    assert by_type["pre"]["language"] == "python"
    assert by_type["text_mention"]["user"]["id"] == 42
    assert "code" not in by_type  # merged into the pre entity
    assert len(parsed.entities) == 3  # the invalid link is dropped, as Telegram does


@pytest.mark.parametrize(
    ("source", "error"),
    [
        ("<br>", 'Unsupported start tag "br" at byte offset 0'),
        ("a < b", 'Unsupported start tag "" at byte offset 2'),
        ("x <b", "Unclosed start tag at byte offset 2"),
        ("<b>unclosed", 'Can\'t find end tag corresponding to start tag "b"'),
        ("<b><i>test</b></i>", 'Unmatched end tag at byte offset 10, expected "</i>", found "</b>"'),
        ("text</b>", "Unexpected end tag at byte offset 4"),
        ("<script>alert(1)</script>", 'Unsupported start tag "script" at byte offset 0'),
        ("中<span>x</span>", 'Tag "span" must have class "tg-spoiler" at byte offset 3'),
        ("<a href>x</a>", 'Expected equal sign in declaration of an attribute of the tag "a" at byte offset 0'),
        ('<tg-emoji emoji-id="abc">x</tg-emoji>', "Invalid custom emoji identifier specified"),
    ],
)
def test_html_errors_use_telegram_texts_and_byte_offsets(source, error):
    with pytest.raises(EntityParseError) as caught:
        parse_html(source)
    assert str(caught.value) == error


def test_html_escaped_player_names_round_trip():
    import html

    name = "<b>&amp; *_[ 中"
    parsed = parse_html(f"Player <b>{html.escape(name)}</b> joined")
    assert parsed.text == f"Player {name} joined"
    assert kinds(parsed) == [("bold", name)]


# ------------------------------------------------------------------------------------ MarkdownV2


def test_markdown_v2_entities_and_escapes():
    parsed = parse_markdown_v2(r"*b* _i_ __u__ ~s~ ||sp|| `c` [l](https://example.com) 1\.5\!")
    assert parsed.text == "b i u s sp c l 1.5!"
    assert kinds(parsed) == [
        ("bold", "b"),
        ("italic", "i"),
        ("underline", "u"),
        ("strikethrough", "s"),
        ("spoiler", "sp"),
        ("code", "c"),
        ("text_link", "l"),
    ]
    assert parsed.entities[-1]["url"] == "https://example.com/"


def test_markdown_v2_pre_with_language_keeps_reserved_characters():
    parsed = parse_markdown_v2("```python\nx = a.b!\n```")
    assert parsed.text == "x = a.b!\n"
    assert parsed.entities == ({"type": "pre", "offset": 0, "length": 9, "language": "python"},)


@pytest.mark.parametrize(
    ("source", "error"),
    [
        ("hello.", "Character '.' is reserved and must be escaped with the preceding '\\'"),
        ("a-b", "Character '-' is reserved and must be escaped with the preceding '\\'"),
        ("*unclosed", "Can't find end of Bold entity at byte offset 0"),
        ("中 _x", "Can't find end of Italic entity at byte offset 4"),
    ],
)
def test_markdown_v2_errors(source, error):
    with pytest.raises(EntityParseError) as caught:
        parse_markdown_v2(source)
    assert str(caught.value) == error


def test_markdown_v2_block_quote_lines():
    parsed = parse_markdown_v2(">quoted\n>more\nplain")
    assert parsed.text == "quoted\nmore\nplain"
    assert kinds(parsed) == [("blockquote", "quoted\nmore")]


# ------------------------------------------------------------------------------- legacy Markdown


def test_legacy_markdown():
    parsed = parse_markdown(r"*bold* _it_ `code` [link](http://a.example) \*lit")
    assert parsed.text == "bold it code link *lit"
    assert [e["type"] for e in parsed.entities] == ["bold", "italic", "code", "text_link"]
    with pytest.raises(EntityParseError, match="Can't find end of the entity starting at byte offset 0"):
        parse_markdown("*unclosed")


# ------------------------------------------------------------------------------------- helpers


def test_parse_formatted_is_case_insensitive_and_rejects_unknown_modes():
    assert parse_formatted("<b>x</b>", "html").text == "x"
    assert parse_formatted("<b>x</b>", None).text == "<b>x</b>"
    with pytest.raises(ValueError, match="unsupported parse_mode"):
        parse_formatted("x", "bbcode")


def test_strip_text_trims_and_shifts_entities():
    parsed = parse_html("\n  <b>hi</b> there \n")
    stripped = strip_text(parsed.text, parsed.entities)
    assert stripped.text == "hi there"
    assert stripped.entities == ({"type": "bold", "offset": 0, "length": 2},)


def test_validate_entities_texts():
    assert validate_entities("hello", [{"type": "bold", "offset": 0, "length": 5}])[0]["length"] == 5
    cases = [
        (
            [{"type": "bold", "offset": 100, "length": 1}],
            "entity begins after the end of the text at UTF-16 offset 100",
        ),
        (
            [{"type": "bold", "offset": 0, "length": 100}],
            "entity beginning at UTF-16 offset 0 ends after the end of the text at UTF-16 offset 100",
        ),
        ([{"type": "nope", "offset": 0, "length": 1}], "can't parse MessageEntity: Unsupported type specified"),
        ([{"type": "bold", "offset": -1, "length": 1}], "receive an entity with incorrect offset -1"),
        ([{"type": "text_link", "offset": 0, "length": 1}], "can't parse MessageEntity: Can't find field \"url\""),
    ]
    for entities, error in cases:
        with pytest.raises(ValueError) as caught:
            validate_entities("hello", entities)
        assert str(caught.value) == error


def test_checked_link_normalisation():
    assert checked_link("example.com") == "http://example.com/"
    assert checked_link("https://t.me/bot?start=x") == "https://t.me/bot?start=x"
    assert checked_link("tg://user?id=1") == "tg://user?id=1"
    assert checked_link("ftp://example.com") is None
    assert checked_link("not a url") is None
