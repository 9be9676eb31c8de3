"""``kwx-bot playground`` opens the Mini App (docs/webapp.md "The playground"): a newcomer starts a
table in the Telegram-like chats, taps "Open the table" on his hand message, and plays the hand on
the page beside the chats (its API passed on to the bot's own Mini App server, initData signed with
the playground's token); the page resumes by itself across a bot restart.  Real Chromium, headless.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from kwx_bot.edge.codec import decode
from tests.e2e import test_webapp_browser as page
from tests.e2e.test_playground_browser import _api, _panel, _start_a_table, _wait
from tests.e2e.test_webapp_browser import MOVE_KEY, count, play_one_step, seq, shot, situation, tap

browser = page.browser
"""One headless Chromium for the module (the page tests' fixture)."""
STARTUP: list[float] = []
"""Seconds from ``kwx-bot playground`` to its address printed (the bot process running)."""


@pytest.fixture(scope="module")
def playground(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A running ``kwx-bot playground``; yields its address."""
    env = dict(os.environ, NO_PROXY="127.0.0.1,localhost", no_proxy="127.0.0.1,localhost", PYTHONUNBUFFERED="1")
    db = tmp_path_factory.mktemp("pg") / "kwx.sqlite3"
    proc = subprocess.Popen(
        [sys.executable, "-m", "kwx_bot", "playground", "--port", "0", "--db", str(db)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    started = time.monotonic()
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert found, line + proc.stdout.read()
        STARTUP.append(time.monotonic() - started)
        yield found[0]
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=30)
    assert "Traceback" not in out, out


def _open_button(browser: WebDriver):
    found = _panel(browser, "private").find_elements(By.CSS_SELECTOR, ".kb button.webapp")
    return found[-1] if found else None


def _must_act(browser: WebDriver) -> bool:
    """The page waits for the player: a tile to tap or a key (the page's own time running)."""
    return bool(count(browser, ".hand-tile:not([disabled])") or count(browser, ".actions .key"))


def _one_move(browser: WebDriver) -> int:
    """One move by tapping, once the page waits for it; the seq it was made at."""
    for _ in range(200):
        at = seq(browser)
        if play_one_step(browser) not in ("wait", "over"):
            return at
    raise AssertionError("no move to make on the page")


def _hand_message_seq(base: str, user: str) -> int | None:
    """The seq the buttons of ``user``'s latest hand message carry (None: no hand message)."""
    state = _api(base, f"api/state?user={user}")
    private = next(c for c in state["chats"] if c["kind"] == "private")
    for message in reversed(private["messages"]):
        datas = [b["data"] for row in message["buttons"] or () for b in row if b.get("data")]
        if message["photo"] and datas:
            return max(decode(d).seq for d in datas)
    return None


@pytest.mark.slow  # the bot as its own process, and a browser
def test_a_newcomer_plays_a_hand_on_the_mini_app(playground: str, browser: WebDriver, tmp_path: Path) -> None:
    tile = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        status = tile.open(playground + "webapp/tiles/5s.png", timeout=30).status
    except urllib.error.HTTPError as e:
        status = e.code
    assert status == 200, "the bot's Mini App server must mount add_static_routes (docs/webapp.md §4)"
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    browser.set_window_size(1280, 1000)
    started = time.monotonic()
    browser.get(playground + "?user=Ann&lang=en")
    _wait(browser, "both chats", lambda: len(browser.find_elements(By.CSS_SELECTOR, ".chat")) == 2)
    _start_a_table(browser)
    _wait(browser, "Open the table on the hand message", lambda: _open_button(browser)).click()
    frame = _wait(
        browser, "the Mini App beside the chats", lambda: browser.find_element(By.CSS_SELECTOR, "#miniapp iframe")
    )
    assert frame.size["width"] == 390
    browser.switch_to.frame(frame)
    try:
        _wait(browser, "the table on the page", lambda: count(browser, ".hand-tile"))
        shot(browser, tmp_path / "miniapp-turn.png")
        browser.switch_to.default_content()
        browser.save_screenshot(str(tmp_path / "playground-miniapp.png"))
        browser.switch_to.frame(frame)
        restarted, timed = False, False
        for _ in range(300):
            if count(browser, ".result") or situation(browser) == "over":
                break
            timed = timed or bool(count(browser, ".actions .timer"))  # his time, while the hand waits on him
            play_one_step(browser)
            if not restarted and seq(browser) > 12:
                before = seq(browser)
                _api(playground, "api/restart", {})
                back = "return document.getElementById('banner').hidden"

                def resumed(back: str = back, before: int = before) -> bool:
                    return bool(browser.execute_script(back)) and seq(browser) >= before

                _wait(browser, "the page back after the restart", resumed, 60)
                restarted = True
        else:
            pytest.fail("the hand did not end")
        elapsed = time.monotonic() - started
        print(
            f"the playground up in {STARTUP[0]:.1f} s, a hand on the Mini App in {elapsed:.1f} s (a restart included)"
        )
        assert STARTUP[0] + elapsed < 60  # a newcomer plays a hand on the Mini App in under a minute
        # the result, as the group gets it: every hand face up, Next hand on the page deals the next
        _wait(browser, "the result on the page", lambda: count(browser, ".result .result-hand") == 3)
        shot(browser, tmp_path / "miniapp-result.png")
        browser.switch_to.default_content()
        browser.save_screenshot(str(tmp_path / "playground-miniapp-over.png"))
        browser.switch_to.frame(frame)
        over = seq(browser)
        # the keys come with the table between hands, a moment after the result itself may show
        _wait_for_the_keys(browser)
        assert not count(browser, MOVE_KEY)  # the result's keys are never taken for a move's
        assert tap(browser, ".result .key", 0) == "Next hand"
        _wait(browser, "the next hand on the page", lambda: not count(browser, ".result") and seq(browser) > over)
        _wait(browser, "the next hand's tiles", lambda: count(browser, ".hand-tile") >= 13)
        # one move on the page, then Ann's next: her chat hand message is left behind meanwhile
        moved = _one_move(browser)
        _wait(browser, "Ann's next move", lambda: _must_act(browser) and seq(browser) > moved, 60)
        now = seq(browser)
        assert _hand_message_seq(playground, "Ann") != now
    finally:
        browser.switch_to.default_content()
    assert restarted and timed
    # Ben, a member of the group who is not seated, opens the same table: the public view, live
    table = re.search(r"table=(\d+)", frame.get_attribute("src") or "")
    assert table, frame.get_attribute("src")
    url = _api(playground, f"api/webapp?user=Ben&table={table[1]}")["url"]
    browser.get(playground.rstrip("/") + url)
    # Ann's page is gone: the playground ends its stream to the bot at once, so after the grace (10 s)
    # her hand message catches up with where the page was (docs/webapp.md §7)
    left = time.monotonic()
    while _hand_message_seq(playground, "Ann") != now:
        assert time.monotonic() - left < 15, "Ann's hand message did not catch up after her page closed"
        time.sleep(0.2)
    print(f"Ann's hand message caught up {time.monotonic() - left:.1f} s after her page closed")
    _wait(browser, "the spectator's table", lambda: count(browser, ".spectator-view .seat") == 3)
    assert not count(browser, ".hand-tile")


def _wait_for_the_keys(browser: WebDriver) -> None:
    """Wait for Next hand under the result; if it does not come, fail saying what the page showed
    and whether a reload of the page brings the keys (the server has them: the page missed an
    update) or not (the server's screen lacks them)."""
    try:
        _wait(browser, "Next hand under the result", lambda: count(browser, ".result .key"))
        return
    except TimeoutException:
        shown = browser.execute_script(
            "const a = document.getElementById('app'); const r = document.querySelector('.result');"
            "const S = window.kwxPage.state; const p = S.payload || {};"
            "return JSON.stringify({data: a ? {...a.dataset} : null,"
            " rows: r ? r.querySelectorAll('.key-row').length : -1, caption: r ? r.innerText.slice(0, 200) : null,"
            " payload: {seq: p.seq, role: p.role, buttons: p.result ? (p.result.buttons || []).length : null},"
            " replay: Boolean(S.replay)});"
        )
    browser.execute_script("location.reload()")  # the Mini App's frame only (the test is inside it)
    try:
        _wait(browser, "Next hand after a reload", lambda: count(browser, ".result .key"), 20)
        after = "the keys came after a reload (the page missed an update)"
    except TimeoutException:
        after = "no keys after a reload either (the screen lacks them)"
    pytest.fail(f"no Next hand under the result within 30 s; the page showed {shown}; {after}")


ON_TOP = """
const [x, y] = arguments;
const hit = document.elementFromPoint(x, y);
if (!hit) return null;
if (hit.closest('#miniapp .head')) return 'head';
return hit.closest('#miniapp iframe') ? 'frame' : hit.tagName + '.' + hit.className;
"""
"""What is drawn on top at (x, y) of the playground: the Mini App's bar, its frame, or what else."""


@pytest.mark.slow  # the bot as its own process, and a browser
def test_open_the_table_at_phone_width_shows_the_mini_app(playground: str, browser: WebDriver, tmp_path: Path) -> None:
    """At 390 × 844 "Open the table" shows the Mini App in sight at once — in the chats' place below
    the playground's bar, as Telegram puts it over the chat — its own bar ("Ann ✕") and the page's top
    bar uncovered; ✕ brings the chats back (docs/webapp.md §7).  With the other test or alone: a table
    is started when Ann has none open."""
    page.size(browser, page.PHONE)
    try:
        browser.get(playground + "?user=Ann&lang=en")
        _wait(browser, "both chats", lambda: len(browser.find_elements(By.CSS_SELECTOR, ".chat")) == 2)
        time.sleep(1)  # the chats' messages drawn (an open table's hand message among them)
        if _open_button(browser) is None:
            _start_a_table(browser)
        _wait(browser, "Open the table on the hand message", lambda: _open_button(browser)).click()
        frame = _wait(browser, "the Mini App", lambda: browser.find_element(By.CSS_SELECTOR, "#miniapp iframe"))
        head = browser.find_element(By.CSS_SELECTOR, "#miniapp .head")
        box = browser.execute_script("return arguments[0].getBoundingClientRect().toJSON()", frame)
        bar = browser.execute_script("return arguments[0].getBoundingClientRect().toJSON()", head)
        assert box["top"] >= 0 and box["bottom"] <= page.PHONE[1] + 0.5, box  # the whole frame in sight
        assert box["left"] >= 0 and box["right"] <= page.PHONE[0] + 0.5 and box["height"] >= 500, box
        assert bar["top"] >= 0 and bar["bottom"] <= box["top"] + 0.5, bar
        at = browser.execute_script(ON_TOP, bar["left"] + 20, (bar["top"] + bar["bottom"]) / 2)
        assert at == "head", at  # "Ann ✕" not under the playground's bar
        browser.switch_to.frame(frame)
        try:
            _wait(browser, "the table on the page", lambda: count(browser, ".top") and count(browser, ".seat"))
            top = browser.execute_script("return document.querySelector('.top').getBoundingClientRect().toJSON()")
        finally:
            browser.switch_to.default_content()
        assert top["top"] >= 0 and top["bottom"] <= box["height"], top
        at = browser.execute_script(ON_TOP, box["left"] + 30, box["top"] + (top["top"] + top["bottom"]) / 2)
        assert at == "frame", at  # the page's own top bar (the title, the wall) uncovered
        browser.save_screenshot(str(tmp_path / "playground-phone-miniapp.png"))
        browser.find_element(By.CSS_SELECTOR, "#miniapp .close").click()
        _wait(browser, "the chats back", lambda: _panel(browser, "private").is_displayed())
        button = _open_button(browser)
        assert button is not None and button.is_displayed()
        where = browser.execute_script("return arguments[0].getBoundingClientRect().toJSON()", button)
        assert where["bottom"] > 0 and where["top"] < page.PHONE[1], where  # back where the tap was, in sight
        browser.save_screenshot(str(tmp_path / "playground-phone-closed.png"))
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
