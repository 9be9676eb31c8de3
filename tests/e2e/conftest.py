"""Fixtures of the end-to-end tests: the kwx bot against the fake Bot API."""

from __future__ import annotations

import pytest

from .harness import Kwx


@pytest.fixture
def kwx(fakebot, fakebot_inprocess_builder, tmp_path) -> Kwx:
    """The bot over the in-process transport, on a fresh database."""
    return Kwx(fakebot, fakebot_inprocess_builder, tmp_path / "kwx.sqlite3")


@pytest.fixture
def kwx_http(fakebot, fakebot_builder, tmp_path) -> Kwx:
    """The bot over real HTTP to the fake server on 127.0.0.1."""
    return Kwx(fakebot, fakebot_builder, tmp_path / "kwx.sqlite3")
