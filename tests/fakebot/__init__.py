"""Tests of the fake Telegram Bot API (:mod:`fakebot`) and its pytest fixtures (:mod:`.fixtures`)."""
