"""/void confirmation buttons: ``V:<group36>:<hand36>:<y|n>``, strict decoding, within 64 bytes."""

from __future__ import annotations

import pytest

from kwx_bot.edge.codec import (
    CodecError,
    VoidButton,
    decode,
    decode_config,
    decode_void,
    encode_void,
    is_config,
    is_void,
)


def test_void_buttons_round_trip_and_stay_short():
    for button in (VoidButton(1, 1, True), VoidButton(123456, 987654, False), VoidButton(36**10 - 1, 36**10 - 1, True)):
        data = encode_void(button)
        assert is_void(data) and not is_config(data)
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
