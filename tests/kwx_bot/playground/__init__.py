"""Tests of kwx_bot.playground."""
