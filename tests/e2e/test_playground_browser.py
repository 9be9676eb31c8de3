"""``kwx-bot playground`` in a real browser: Debian's Chromium, headless, driven by Selenium.

The playground runs as its own process (``python -m kwx_bot playground --port 0``: the fake Bot API,
the bot as a child process, the page). The test plays what a newcomer does on the page: /new in the
group, Join (the deep link opens the private chat), two AI seats, Start; the hand picture arrives in
the private chat, a discard button changes the hand message, and the group shows the live table.
Screenshots (wide and narrow) are written to the test's tmp_path.

Needs ``/usr/bin/chromium`` and ``/usr/bin/chromedriver`` (``.ci/run`` installs them with apt-get);
without them the test fails and says so.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import WebDriverWait

from kwx_bot.edge.codec import decode

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
CHROMIUM_FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
)  # fmt: skip


@pytest.fixture
def playground(tmp_path: Path) -> Iterator[str]:
    """A running ``kwx-bot playground``; yields the page's address."""
    env = dict(os.environ, NO_PROXY="127.0.0.1,localhost", no_proxy="127.0.0.1,localhost", PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "kwx_bot", "playground", "--port", "0", "--db", str(tmp_path / "kwx.sqlite3")],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()  # the one line it prints once the bot polls
        found = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert found, line + proc.stdout.read()
        yield found[0]
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=20)
    assert proc.returncode == 0, out
    assert "Traceback" not in out, out


@pytest.fixture
def browser(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[WebDriver]:
    """Headless Chromium with a fresh profile (fails, never skips, if it is not installed)."""
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if shutil.which(p) is None]
    if missing:
        pytest.fail(
            f"{', '.join(missing)} missing: install Debian's browser first "
            "(apt-get update && apt-get install -y --no-install-recommends chromium chromium-driver; .ci/run does)"
        )
    monkeypatch.setenv("SE_OFFLINE", "true")  # Selenium Manager: never download anything
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*CHROMIUM_FLAGS, f"--user-data-dir={tmp_path / 'chromium-profile'}", "--window-size=1280,900"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def _wait(driver: WebDriver, what: str, probe: Callable[[], Any], timeout: float = 30) -> Any:
    def check(_: WebDriver) -> Any:
        try:
            return probe()
        except (StaleElementReferenceException, IndexError):  # the page redrew a message meanwhile
            return None

    return WebDriverWait(driver, timeout, poll_frequency=0.1).until(check, f"waited {timeout} s for {what}")


def _panel(driver: WebDriver, kind: str) -> WebElement:
    return driver.find_element(By.CSS_SELECTOR, f".chat[data-kind={kind}]")


def _button(driver: WebDriver, kind: str, label: str) -> WebElement | None:
    for b in _panel(driver, kind).find_elements(By.CSS_SELECTOR, ".kb button"):
        if b.text == label:
            return b
    return None


def _send(driver: WebDriver, kind: str, text: str) -> None:
    box = _panel(driver, kind).find_element(By.CSS_SELECTOR, ".compose input")
    box.send_keys(text)
    _panel(driver, kind).find_element(By.CSS_SELECTOR, ".compose button").click()


def _hand(driver: WebDriver) -> WebElement | None:
    """The newest message with a picture in the private chat (the player's hand)."""
    found = _panel(driver, "private").find_elements(By.CSS_SELECTOR, ".msg.bot:has(img)")
    return found[-1] if found else None


def _snapshot(message: WebElement) -> tuple[str, str]:
    return (message.find_element(By.CSS_SELECTOR, "img").get_attribute("src") or "", message.text)


@pytest.mark.slow  # the bot as its own process, and a browser
def test_a_newcomer_plays_a_turn_in_the_browser(playground: str, browser: WebDriver, tmp_path: Path) -> None:
    started = time.monotonic()
    browser.get(playground + "?user=Ann&lang=en")
    _wait(browser, "both chats", lambda: len(browser.find_elements(By.CSS_SELECTOR, ".chat")) == 2)
    page_load = time.monotonic() - started
    assert page_load < 5, page_load
    titles = [e.text for e in browser.find_elements(By.CSS_SELECTOR, ".chat .head b")]
    assert titles[0] == "Mahjong night" and "kwx" in titles[1], titles

    _send(browser, "group", "/new")
    _wait(browser, "the lobby's Join button", lambda: _button(browser, "group", "Join")).click()
    # the bot may not write to Ann yet: Join answers with a t.me deep link, which opens the private chat
    _wait(browser, "the seat confirmed in private", lambda: "took a seat" in _panel(browser, "private").text)
    for n in (1, 2):
        _wait(browser, "Add AI", lambda: _button(browser, "group", "Add AI")).click()
        _wait(browser, f"AI seat {n}", lambda n=n: _panel(browser, "group").text.count("🤖") >= n)
    _wait(browser, "Start", lambda: _button(browser, "group", "Start")).click()

    hand = _wait(browser, "the hand picture in the private chat", lambda: _hand(browser))
    picture = hand.find_element(By.CSS_SELECTOR, "img")
    _wait(browser, "the picture drawn", lambda: browser.execute_script("return arguments[0].naturalWidth", picture) > 0)
    # until it is Ann's turn, pass on the claims the AI's discards offer her
    for _ in range(60):
        hand = _wait(browser, "the hand", lambda: _hand(browser))
        datas = [b.get_attribute("data-cb") or "" for b in hand.find_elements(By.CSS_SELECTOR, ".kb button")]
        discards = [d for d in datas if d and decode(d).op.value == "d"]
        if discards:
            break
        passes = [d for d in datas if d and decode(d).op.value == "x"]
        if passes:
            hand.find_element(By.CSS_SELECTOR, f'.kb button[data-cb="{passes[0]}"]').click()
        time.sleep(0.5)
    else:
        raise AssertionError("no discard button came")
    before = _snapshot(hand)
    browser.save_screenshot(str(tmp_path / "playground-before-discard.png"))
    hand.find_element(By.CSS_SELECTOR, f'.kb button[data-cb="{discards[0]}"]').click()
    _wait(browser, "the hand message to change", lambda: _snapshot(_hand(browser)) != before)

    group = _panel(browser, "group")

    def live_table() -> list[Any]:  # the group's photos: the live table, and 亮倒 reveals an AI may add
        photos = group.find_elements(By.CSS_SELECTOR, ".msg.bot:has(img)")
        return [m for m in photos if "Hand 1" in m.text and "tiles left" in m.text]

    live = _wait(browser, "the live table", live_table)
    assert len(live) == 1, [m.text for m in live]
    # the page never shows Ann another player's private chat: two panels, the group and hers
    kinds = [c.get_attribute("data-kind") for c in browser.find_elements(By.CSS_SELECTOR, ".chat")]
    assert kinds == ["group", "private"], kinds
    wide = tmp_path / "playground.png"
    browser.save_screenshot(str(wide))
    browser.set_window_size(420, 900)
    _wait(browser, "stacked chats", lambda: _panel(browser, "private").rect["y"] > _panel(browser, "group").rect["y"])
    assert _panel(browser, "group").rect["width"] <= 420
    narrow = tmp_path / "playground-narrow.png"
    browser.save_screenshot(str(narrow))
    assert wide.stat().st_size > 20_000 and narrow.stat().st_size > 10_000
    print(f"page load {page_load:.2f} s; screenshots in {tmp_path}")
