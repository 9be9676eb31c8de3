"""callback_data and deep-link payloads: round trips, limits, and rejection of forged data; /void
confirmation buttons ``V:<group36>:<hand36>:<y|n>``."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.tiles import Tile
from kwx_bot.edge.codec import (
    CONFIG_PATTERN,
    TILE_OPS,
    VOID_PATTERN,
    Button,
    CodecError,
    Op,
    StartKind,
    StartPayload,
    VoidButton,
    b36,
    decode,
    decode_config,
    decode_start,
    decode_void,
    encode,
    encode_start,
    encode_void,
    from_b36,
)
from kwx_bot.service.buttons import MASK_OPS, MAX_MASK

buttons = st.builds(
    lambda t, s, op, tile, mask: Button(
        t, s, op, tile if op in TILE_OPS else None,
        (mask if mask is not None or op is not Op.REVEAL else 0) if op in MASK_OPS else None,
    ),
    st.integers(0, 36**10 - 1),
    st.integers(0, 36**10 - 1),
    st.sampled_from(list(Op)),
    st.sampled_from(list(Tile)),
    st.none() | st.integers(0, MAX_MASK),
)  # fmt: skip


@given(buttons)
def test_roundtrip_ascii_and_short(button):
    data = encode(button)
    assert data.isascii() and 1 <= len(data.encode()) <= 64
    assert decode(data) == button


def test_example_encoding():
    assert encode(Button(51, 92, Op.DISCARD, Tile.S5)) == "1f:2k:d5s"
    assert decode("1f:2k:w") == Button(51, 92, Op.WIN)


def test_reveal_choice_encoding():
    """A reveal choice carries the discard and the shown mask (docs/rules.md §E#48); malformed masks,
    masks on other ops and a REVEAL without one are refused."""
    assert encode(Button(51, 92, Op.REVEAL, Tile.S5, MAX_MASK)) == "1f:2k:r5s.cn3"
    assert decode("1f:2k:l7p.1") == Button(51, 92, Op.LIANGDAO, Tile.P7, 1)
    assert decode("1f:2k:l7p") == Button(51, 92, Op.LIANGDAO, Tile.P7)
    for bad in (
        "1f:2k:r5s",
        "1f:2k:d5s.1",
        "1f:2k:r5s.zzz",
        "1f:2k:r5s.",
        "1f:2k:r5s.1234",
        "1f:2k:o5s.1",
        "1f:2k:r.1",
    ):
        with pytest.raises(CodecError):
            decode(bad)


@pytest.mark.parametrize(
    "data",
    [
        None, "", "garbage", "1:2", "1:2:", "1:2:d", "1:2:w5s", "1:2:d0s", "1:2:d5q", "1:2:dz5",
        "1:2:?", "A:2:w", "1:2:w:extra", "-1:2:w", "1:2:dd5s", "１:2:w", "1:2:y", "x" * 65,
        "1:2:d5s\n",
    ],
)  # fmt: skip
def test_garbage_is_rejected(data):
    with pytest.raises(CodecError):
        decode(data)


def test_button_validates_tile_presence():
    with pytest.raises(CodecError):
        Button(1, 1, Op.DISCARD)
    with pytest.raises(CodecError):
        Button(1, 1, Op.PASS, Tile.P1)


@given(st.integers(0, 10**15))
def test_b36_roundtrip(n):
    assert from_b36(b36(n)) == n


@given(st.integers(0, 36**10 - 1), st.sampled_from(list(StartKind)), st.none() | st.binary(min_size=12, max_size=12))
def test_start_payload_roundtrip_and_charset(table_id, kind, secret):
    token = None if secret is None else secret.hex()
    payload = encode_start(kind, table_id, token)
    assert re.fullmatch(r"[A-Za-z0-9_-]{1,64}", payload)
    p = decode_start(payload)
    assert (p.kind, p.table_id, p.token) == (kind, table_id, token)


def test_an_old_style_join_payload_carries_no_token():
    assert decode_start("j1") == StartPayload(StartKind.JOIN, 1, None)


@pytest.mark.parametrize(
    "payload", [None, "", "j", "x12", "j1:2", "jZ", "hello world", "j1_", "j1_abc", "j1_" + "A" * 24, "j1_" + "0" * 25]
)
def test_bad_start_payload(payload):
    with pytest.raises(CodecError):
        decode_start(payload)


@given(st.integers(0, 36**10 - 1), st.sampled_from("abcdefghijklmnopqrstuvwxyz"), st.none() | st.integers(0, 9))
def test_settings_buttons_round_trip_and_never_look_like_table_buttons(group, item, choice):
    from kwx_bot.edge.codec import CONFIG_PATTERN, VOID_PATTERN, ConfigButton, decode_config, encode_config

    button = ConfigButton(group, item, choice)
    data = encode_config(button)
    assert decode_config(data) == button  # routed to the settings menu, not the /void confirmation:
    assert CONFIG_PATTERN.match(data) and not VOID_PATTERN.match(data)
    assert len(data.encode()) <= 64 and data.isascii()
    with pytest.raises(CodecError):
        decode(data)


@pytest.mark.parametrize("data", ["G:1:", "G:1:ab", "G:1:c:10", "G:1:C", "G::c", "g:1:c", "1:2:d5s", "", None])
def test_malformed_settings_buttons_are_refused(data):
    from kwx_bot.edge.codec import decode_config

    with pytest.raises(CodecError):
        decode_config(data)


def test_void_buttons_round_trip_and_stay_short():
    for button in (VoidButton(1, 1, True), VoidButton(123456, 987654, False), VoidButton(36**10 - 1, 36**10 - 1, True)):
        data = encode_void(button)
        assert VOID_PATTERN.match(data) and not CONFIG_PATTERN.match(data)  # the handler it is routed to
        assert decode_void(data) == button
        assert len(data.encode()) <= 64
    assert encode_void(VoidButton(51, 92, True)) == "V:1f:2k:y"


@pytest.mark.parametrize("data", [None, "", "V:1f:2k", "V:1f:2k:x", "V:1F:2k:y", "V:1f:2k:y:", "G:1f:a", "1f:2k:J"])
def test_anything_else_is_refused(data):
    with pytest.raises(CodecError):
        decode_void(data)


def test_void_data_is_no_other_kind_of_button():
    with pytest.raises(CodecError):
        decode("V:1f:2k:y")
    with pytest.raises(CodecError):
        decode_config("V:1f:2k:y")
