"""Delivery's planner: the one write that closes the gap between what a message shows and what its
screen says, or none; the writes that can wait, wait (docs/architecture.md §4 "Delivery")."""

from __future__ import annotations

import pytest

from kwx_bot.service.buttons import Button, Key, Op
from kwx_bot.service.delivery import Method, Shown, Slack, Target, needs_photo, plan, settle
from kwx_bot.service.screen.pictures import claim_key

BUTTONS = ((Key("Pass", Button(1, 4, Op.PASS)),),)


def target(key: str | None, caption: str = "c", markup=(), slack: Slack = Slack.NONE) -> Target:
    return Target(Shown(key, caption, markup), None, slack)


def method(delivered: Shown | None, want: Target, *, exists: bool = True, busy: bool = False) -> Method | None:
    write = plan(delivered, want, exists=exists, busy=busy)
    return None if write is None else write.method


def test_a_missing_message_is_sent() -> None:
    assert method(None, target("hA"), exists=False) is Method.SEND_PHOTO
    assert method(Shown("hA", "c", ()), target("hA"), exists=False) is Method.SEND_PHOTO
    assert method(None, target(None), exists=False) is Method.SEND_TEXT


@pytest.mark.parametrize(
    ("shown", "want", "expected"),
    [
        (Shown("hA", "c", ()), target("hA"), None),
        (None, target("hA"), Method.EDIT_MEDIA),  # not known (since a restart): the whole message
        (Shown("hA", "c", ()), target("hB"), Method.EDIT_MEDIA),  # new tiles
        (Shown("hA", "c", ()), target(claim_key("hA", 7), markup=BUTTONS), Method.EDIT_MEDIA),  # a window opens
        (Shown(claim_key("hA", 7), "c", BUTTONS), target("hA", "d"), Method.EDIT_CAPTION),  # it closes
        (Shown("hA", "c", ()), target("hA", "d"), Method.EDIT_CAPTION),
        (Shown("hA", "c", ()), target("hA", markup=BUTTONS), Method.EDIT_MARKUP),
        (Shown(None, "t", ()), target(None, "u"), Method.EDIT_TEXT),
    ],
)
def test_the_least_write(shown: Shown | None, want: Target, expected: Method | None) -> None:
    assert method(shown, want) is expected


def test_a_picture_that_may_stay_stays() -> None:
    """An automatic seat: its tiles change every turn, its picture is not redrawn for it."""
    shown = Shown("hA", "auto", BUTTONS)
    assert method(shown, target("hB", "auto", BUTTONS, Slack.PICTURE)) is None
    write = plan(shown, target("hB", "taken back", BUTTONS, Slack.PICTURE), exists=True)
    assert write is not None and write.method is Method.EDIT_CAPTION and write.shown.photo_key == "hA"
    assert settle(None, target("hB", slack=Slack.PICTURE)).photo_key == "hB"  # nothing shown: the new one


def test_buttons_that_only_go_wait_while_the_token_is_busy() -> None:
    shown = Shown(claim_key("hA", 7), "c", BUTTONS)
    closing = target("hA", "d", (), Slack.BUTTONS)
    assert method(shown, closing, busy=True) is None
    assert method(shown, closing, busy=False) is Method.EDIT_CAPTION
    assert method(shown, target("hA", "d", ()), busy=True) is Method.EDIT_CAPTION  # no slack: now
    assert method(shown, target("hB", "d", (), Slack.BUTTONS), busy=True) is Method.EDIT_MEDIA  # new tiles: now


def test_buttons_that_only_go_wait_beside_a_row_that_stays() -> None:
    """The Mini App's "Open the table" row stays on a hand message: the claim row going away alone
    still waits for a busy token."""
    opener = ((Key("Open the table", web_app="https://kwx.example/webapp/?table=1"),),)
    shown = Shown(claim_key("hA", 7), "c", BUTTONS + opener)
    assert method(shown, target("hA", "d", opener, Slack.BUTTONS), busy=True) is None
    assert method(shown, target("hA", "d", opener, Slack.BUTTONS), busy=False) is Method.EDIT_CAPTION
    other = ((Key("Pong", Button(1, 4, Op.PONG)),), *opener)  # a new key is no key that only goes
    assert method(shown, target("hA", "d", other, Slack.BUTTONS), busy=True) is Method.EDIT_CAPTION


def test_a_new_picture_for_new_tiles_or_an_opening_claim_window_only():
    assert needs_photo(None, "hA")
    assert not needs_photo("hA", "hA")
    assert needs_photo("hA", "hB"), "the tiles changed"
    assert needs_photo("hA", claim_key("hA", 7)), "a claim window opens"
    assert needs_photo(claim_key("hA", 7), claim_key("hA", 9)), "another window"
    assert not needs_photo(claim_key("hA", 7), claim_key("hA", 7))
    assert not needs_photo(claim_key("hA", 7), "hA"), "a window closing edits the caption alone"
    assert needs_photo(claim_key("hA", 7), "hB")
