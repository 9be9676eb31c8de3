"""The Sender's failure policy, against a scripted stand-in for telegram.Bot."""

from __future__ import annotations

import asyncio
import datetime as dtm

import pytest
from telegram import Chat, ChatMemberMember, Message, PhotoSize, User
from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, RetryAfter

from kwx_bot.edge.sender import Outcome, Sender, retry_seconds
from kwx_bot.edge.throttle import ThrottleLog, TokenLoad
from kwx_bot.service.outbox import Outbox


class ScriptedBot:
    """Each call pops the next scripted outcome: an exception to raise, or None for success."""

    def __init__(self, *script):
        self.script = list(script)
        self.calls = []

    def _next(self, method, chat_id, **kw):
        self.calls.append((method, chat_id, kw))
        outcome = self.script.pop(0) if self.script else None
        if isinstance(outcome, Exception):
            raise outcome
        chat = Chat(chat_id, "private" if chat_id > 0 else "supergroup")
        photo = (PhotoSize("small", "u1", 90, 90), PhotoSize("big", "u2", 900, 900)) if "photo" in kw else ()
        return Message(len(self.calls), dtm.datetime.now(dtm.UTC), chat, photo=photo)

    async def send_message(self, chat_id, text, **kw):
        return self._next("sendMessage", chat_id, text=text, **kw)

    async def send_photo(self, chat_id, photo, **kw):
        return self._next("sendPhoto", chat_id, photo=photo, **kw)

    async def edit_message_caption(self, chat_id, message_id, **kw):
        return self._next("editMessageCaption", chat_id, **kw)

    async def edit_message_media(self, media, chat_id, message_id, **kw):
        return self._next("editMessageMedia", chat_id, photo=media, **kw)

    async def delete_message(self, chat_id, message_id):
        self._next("deleteMessage", chat_id)
        return True

    async def get_chat_member(self, chat_id, user_id):
        self._next("getChatMember", chat_id)
        return ChatMemberMember(User(user_id, "Ann", False))


class Hooks:
    def __init__(self):
        self.forbidden = []
        self.migrated = []

    async def on_forbidden(self, chat_id):
        self.forbidden.append(chat_id)

    async def on_migrated(self, old, new):
        self.migrated.append((old, new))


def make(*script):
    bot = ScriptedBot(*script)
    return Sender(bot), bot, Hooks()


def make_told(*script):
    """A sender seen through the service's outbox: the hooks are told what the results say."""
    bot = ScriptedBot(*script)
    hooks = Hooks()
    return Outbox(Sender(bot), hooks.on_forbidden, hooks.on_migrated), bot, hooks


async def test_send_ok_returns_message_and_file_id():
    sender, bot, _ = make()
    sent = await sender.send_photo(5, b"png", "cap")
    assert sent.ok and sent.message_id == 1 and sent.file_id == "big" and sent.chat_id == 5
    assert bot.calls[0][2]["parse_mode"] == "HTML"


async def test_not_modified_counts_as_ok():
    sender, _, _ = make(BadRequest("Message is not modified: specified new message content ..."))
    sent = await sender.edit_caption(5, 9, "same")
    assert sent.outcome is Outcome.NOT_MODIFIED and sent.ok


@pytest.mark.parametrize("text", ["Message to edit not found", "Message can't be edited"])
async def test_gone_message(text):
    sender, _, _ = make(BadRequest(text))
    assert (await sender.edit_caption(5, 9, "x")).outcome is Outcome.GONE


async def test_forbidden_marks_unreachable_and_does_not_raise():
    sender, _, hooks = make_told(Forbidden("Forbidden: bot was blocked by the user"))
    sent = await sender.send_text(42, "hi")
    assert sent.outcome is Outcome.FORBIDDEN and not sent.ok
    assert hooks.forbidden == [42]
    assert sent.chat_id == 42  # the refusal is a value: the sender itself calls nobody


async def test_private_chat_not_found_is_forbidden():
    sender, _, hooks = make_told(BadRequest("Chat not found"))
    assert (await sender.send_text(42, "hi")).outcome is Outcome.FORBIDDEN
    assert hooks.forbidden == [42]


async def test_chat_migrated_is_followed_once():
    sender, bot, hooks = make_told(ChatMigrated(-100777))
    sent = await sender.send_text(-5, "hello group")
    assert sent.ok and sent.chat_id == -100777
    assert hooks.migrated == [(-5, -100777)]
    assert sent.migrated_from == -5
    assert [c[1] for c in bot.calls] == [-5, -100777]


async def test_retry_after_is_waited_and_retried():
    now = [1000.0]
    slept = []

    async def fake_sleep(s):  # the waits pass on a fake clock
        slept.append(s)
        now[0] += s

    sender, bot, _ = make(RetryAfter(3), RetryAfter(2))
    sender.sleep = fake_sleep
    sender.throttle = ThrottleLog(clock=lambda: now[0])
    sent = await sender.send_text(-5, "x")
    assert sent.ok and len(bot.calls) == 3
    assert sender.throttled_seconds == 5.0 and len(slept) == 2
    # the chat was held back for both waits; another chat was not
    assert sender.throttle.blocked([-5], since=1000.0) == pytest.approx(5.1)
    assert sender.throttle.blocked([7], since=1000.0) == 0


async def test_retry_after_gives_up_after_flood_retries():
    async def fake_sleep(s):
        pass

    sender, bot, _ = make(*[RetryAfter(1)] * 10)
    sender.sleep = fake_sleep
    assert (await sender.send_text(-5, "x")).outcome is Outcome.FAILED
    assert len(bot.calls) == sender.flood_retries + 1


async def test_other_errors_are_logged_not_raised(caplog):
    sender, _, _ = make(NetworkError("connection reset"))
    assert (await sender.delete(5, 1)).outcome is Outcome.FAILED
    assert "connection reset" in caplog.text


async def test_answer_ignores_old_queries():
    class Query:
        id = "q1"

        def __init__(self, error):
            self.error = error
            self.answered = []

        async def answer(self, **kw):
            self.answered.append(kw)
            if self.error:
                raise self.error

    old = Query(BadRequest("Query is too old and response timeout expired or query id is invalid"))
    assert await Sender(ScriptedBot()).answer(old, "x") is False
    fine = Query(None)
    assert await Sender(ScriptedBot()).answer(fine, "y" * 300, alert=True) is True
    assert fine.answered == [{"text": "y" * 200, "show_alert": True, "url": None}]


def test_retry_seconds_reads_timedelta_without_warning(recwarn):
    errors = [RetryAfter(dtm.timedelta(seconds=4)), RetryAfter(7)]  # PTB itself warns while constructing
    recwarn.clear()
    assert [retry_seconds(e) for e in errors] == [4.0, 7.0]
    assert not [w for w in recwarn if "retry_after" in str(w.message)]


async def test_a_flood_wait_logs_one_warning_and_stop_ends_it_at_once(caplog):
    import asyncio
    import logging

    caplog.set_level(logging.INFO, logger="kwx")
    sender, bot, _ = make(RetryAfter(30))
    sending = asyncio.ensure_future(sender.send_text(-5, "x"))  # real time: a 30 s wait begins
    await asyncio.sleep(0.05)
    assert not sending.done()
    sender.stop()  # SIGTERM: the wait ends now and no new call is made
    sent = await asyncio.wait_for(sending, 1)
    assert sent.outcome is Outcome.FAILED and len(bot.calls) == 1
    waits = [r for r in caplog.records if "flood control" in r.getMessage()]
    assert [r.levelname for r in waits] == ["WARNING"] and not any(r.exc_info for r in caplog.records)
    assert (await sender.send_text(7, "later")).outcome is Outcome.FAILED and len(bot.calls) == 1


async def test_every_write_asked_for_counts_towards_the_tokens_load_once():
    bot = ScriptedBot(RetryAfter(0), None, None)
    sender = Sender(bot, sleep=lambda s: asyncio.sleep(0), load=TokenLoad(limit=4, window=1.0, share=0.5))
    assert not sender.token_busy()
    await sender.send_photo(5, b"png", "cap")  # a 429, then taken: one write asked for
    assert len(bot.calls) == 2 and not sender.token_busy()
    await sender.edit_caption(-7, 1, "cap")
    assert sender.token_busy()  # two writes within the second: half of four


async def test_a_membership_read_is_asked_once_and_never_waits_out_a_429():
    """A read is not a write: a 429 is answered at once with "could not tell" (the caller asks the
    user to try again) — no flood wait, no retry, no time charged to the group, no write counted."""
    slept = []

    async def fake_sleep(s):
        slept.append(s)

    sender, bot, _ = make(RetryAfter(30))
    sender.sleep = fake_sleep
    sent = await sender.membership(-5, 7)
    assert sent.outcome is Outcome.FAILED and sent.member is None
    assert len(bot.calls) == 1 and slept == [] and sender.throttled_seconds == 0
    assert sender.load.demand() == 0 and sender.budget.used(-5) == 0
    assert (await sender.membership(-5, 7)).member is True  # the next one is asked again


async def test_a_membership_read_follows_a_migrated_group():
    sender, bot, hooks = make_told(ChatMigrated(-100777))
    sent = await sender.membership(-5, 7)
    assert sent.member is True and sent.chat_id == -100777 and hooks.migrated == [(-5, -100777)]
    assert [c[1] for c in bot.calls] == [-5, -100777]


async def until(predicate, timeout: float = 2.0) -> None:
    """Wait (real time, briefly) until ``predicate()`` holds."""
    async with asyncio.timeout(timeout):
        while not predicate():
            await asyncio.sleep(0.005)


async def test_a_retry_after_holds_every_call_to_that_chat_until_it_ends():
    """A 429 with ``retry_after`` 2 on a group edit: a /rules reply to that group asked for 1.2 s into
    the wait goes only once the wait is over; another chat's call goes at once.  The reply's wait is
    time the group was held back (docs/architecture.md §4 "Rate limits")."""
    clock = [1000.0]
    gate = asyncio.Event()

    async def sleep(seconds):  # the refused call's wait ends when the test says so
        await gate.wait()
        clock[0] += seconds

    sender, bot, _ = make(RetryAfter(2))
    sender.sleep = sleep
    sender.throttle = ThrottleLog(clock=lambda: clock[0])
    table = asyncio.ensure_future(sender.edit_caption(-5, 1, "table"))
    await until(lambda: len(bot.calls) == 1)
    clock[0] += 1.2
    rules = asyncio.ensure_future(sender.send_text(-5, "rules"))
    assert (await sender.send_text(-6, "elsewhere")).ok  # another group is not held
    await asyncio.sleep(0.05)
    assert not rules.done() and [c[1] for c in bot.calls] == [-5, -6]
    gate.set()
    assert (await table).ok and (await rules).ok
    assert sorted(c[0] for c in bot.calls[2:]) == ["editMessageCaption", "sendMessage"]
    assert sender.throttle.blocked([-6], since=0) == 0 and sender.throttle.blocked([-5], since=0) > 2


async def test_a_retry_after_without_a_chat_holds_every_chat_and_stop_ends_the_hold():
    """A 429 on a press's answer (no chat: the token's limit) holds every chat for its retry_after."""
    gate = asyncio.Event()

    async def sleep(seconds):
        await gate.wait()

    class Query:
        id = "q1"

        async def answer(self, **kw):
            raise RetryAfter(3)

    sender, bot, _ = make()
    sender.sleep = sleep
    assert await sender.answer(Query(), "x") is False
    hand = asyncio.ensure_future(sender.edit_caption(7, 1, "hand"))
    group = asyncio.ensure_future(sender.send_text(-5, "group"))
    await asyncio.sleep(0.05)
    assert not hand.done() and not group.done() and bot.calls == []
    gate.set()
    assert (await hand).ok and (await group).ok and len(bot.calls) == 2
    # held again: a stop ends the wait at once and makes no call
    gate.clear()
    await sender.answer(Query(), "x")
    waiting = asyncio.ensure_future(sender.send_text(7, "late"))
    await asyncio.sleep(0.05)
    sender.stop()
    assert (await asyncio.wait_for(waiting, 1)).outcome is Outcome.FAILED and len(bot.calls) == 2


def test_keys_become_callback_mini_app_and_link_buttons() -> None:
    from kwx_bot.edge.codec import encode_press
    from kwx_bot.edge.sender import markup
    from kwx_bot.service.buttons import Button, Key, Op, keyboard

    press = Button(1, 2, Op.PASS)
    made = markup(
        keyboard([Key("Pass", press)], [Key("Open", web_app="https://kwx.example/webapp/?table=1")],
                 [Key("Link", url="https://t.me/bot?startapp=t1")])
    )  # fmt: skip
    (a,), (b,), (c,) = made.inline_keyboard
    assert (a.callback_data, a.web_app, a.url) == (encode_press(press), None, None)
    assert b.web_app is not None and (b.web_app.url, b.callback_data, b.url) == (
        "https://kwx.example/webapp/?table=1",
        None,
        None,
    )
    assert (c.url, c.web_app, c.callback_data) == ("https://t.me/bot?startapp=t1", None, None)
