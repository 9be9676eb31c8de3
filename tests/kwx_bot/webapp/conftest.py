"""The service's test world (tests/kwx_bot/service/conftest.py) for the Mini App's server tests."""

from tests.kwx_bot.service.conftest import world

__all__ = ["world"]
