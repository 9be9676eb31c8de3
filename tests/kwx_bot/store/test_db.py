"""One SQL text for both databases: asyncpg's numbered placeholders."""

from __future__ import annotations

from kwx_bot.store.db import numbered


def test_placeholders_are_numbered_in_order_outside_string_literals():
    assert numbered("SELECT a FROM t WHERE b = ? AND c IN (?, ?)") == "SELECT a FROM t WHERE b = $1 AND c IN ($2, $3)"
    assert numbered("SELECT '?', 'it''s ?' FROM t WHERE x = ?") == "SELECT '?', 'it''s ?' FROM t WHERE x = $1"
    assert numbered("SELECT 1") == "SELECT 1"
