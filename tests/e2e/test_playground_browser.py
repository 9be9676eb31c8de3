"""``kwx-bot playground`` in a real browser: Debian's Chromium, headless, driven by Selenium.

The playground runs as its own process (``python -m kwx_bot playground --port 0``: the fake Bot API,
the bot as a child process, the page). The test plays what a newcomer does on the page: /new in the
group, Join (the deep link opens the private chat), two AI seats, Start; the hand picture arrives in
the private chat, a discard button changes the hand message, and the group shows the live table.
Screenshots (wide and narrow) are written to the test's tmp_path.  Two more show what Telegram
shows: the files of ``/export`` (a download with its name and size) and ``/replay`` (the GIF,
playing), and a page for an unknown ``?user=`` (which says so), a preset name in lower case, and the
stranger (no member of the group) whom the join link refuses.

Needs ``/usr/bin/chromium`` and ``/usr/bin/chromedriver`` (``.ci/run`` installs them with apt-get);
without them the test fails and says so.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
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

from kwx_bot.edge.codec import b36, decode

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


def _start_a_table(browser: WebDriver) -> None:
    """What a newcomer does first: /new in the group, Join, two AI seats, Start."""
    _send(browser, "group", "/new")
    _wait(browser, "the lobby's Join button", lambda: _button(browser, "group", "Join")).click()
    # the bot may not write to Ann yet: Join answers with a t.me deep link, which opens the private chat
    _wait(browser, "the seat confirmed in private", lambda: "took a seat" in _panel(browser, "private").text)
    for n in (1, 2):
        _wait(browser, "Add AI", lambda: _button(browser, "group", "Add AI")).click()
        _wait(browser, f"AI seat {n}", lambda n=n: _panel(browser, "group").text.count("🤖") >= n)
    _wait(browser, "Start", lambda: _button(browser, "group", "Start")).click()


@pytest.mark.slow  # the bot as its own process, and a browser
def test_a_newcomer_plays_a_turn_in_the_browser(playground: str, browser: WebDriver, tmp_path: Path) -> None:
    started = time.monotonic()
    browser.get(playground + "?user=Ann&lang=en")
    _wait(browser, "both chats", lambda: len(browser.find_elements(By.CSS_SELECTOR, ".chat")) == 2)
    page_load = time.monotonic() - started
    assert page_load < 5, page_load
    titles = [e.text for e in browser.find_elements(By.CSS_SELECTOR, ".chat .head b")]
    assert titles[0] == "Mahjong night" and "kwx" in titles[1], titles

    _start_a_table(browser)

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


def _api(base: str, path: str, body: dict[str, Any] | None = None) -> Any:
    """The playground's JSON endpoints, as the page calls them (no proxy: it is on 127.0.0.1)."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, headers={"Content-Type": "application/json"})
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(request, timeout=30) as r:
        return json.loads(r.read())


def _play_out(base: str, user: str) -> None:
    """Play ``user``'s seat through the endpoints until the group shows the hand's result: win when
    offered, else pass a claim, else discard the first tile offered."""
    for _ in range(400):
        state = _api(base, f"api/state?user={user}")
        group, private = (next(c for c in state["chats"] if c["kind"] == kind) for kind in ("group", "private"))
        if any(m["bot"] and "Points:" in m["html"] for m in group["messages"]):
            return
        hands = [m for m in private["messages"] if m["photo"] and m["buttons"]]
        datas = [b["data"] for row in (hands[-1]["buttons"] if hands else []) for b in row if "data" in b]
        ops = [(decode(d).op.value, d) for d in datas if decode(d).op.value in "wxd"]
        if ops:
            data = min(ops, key=lambda o: "wxd".index(o[0]))[1]
            press = {"user": user, "chat": private["id"], "message": hands[-1]["id"], "data": data}
            try:
                _api(base, "api/press", press)
            except urllib.error.HTTPError as e:  # the buttons changed since the state was read: read it again
                assert e.code == 400 and b"no button" in e.read(), e
        else:
            time.sleep(0.1)  # the AI seats play; the next state shows Ann's next move
    raise AssertionError("the hand did not end")


@pytest.mark.slow  # the bot as its own process, a whole hand, and a browser
def test_export_and_replay_show_a_download_and_the_gif(playground: str, browser: WebDriver, tmp_path: Path) -> None:
    browser.get(playground + "?user=Ann&lang=en")
    _wait(browser, "both chats", lambda: len(browser.find_elements(By.CSS_SELECTOR, ".chat")) == 2)
    _start_a_table(browser)
    _play_out(playground, "Ann")
    for command in ("/export", "/export 1", "/replay 1"):
        _send(browser, "group", command)
        time.sleep(0.3)  # keep the three commands in order: each is one update of the group
    group = _panel(browser, "group")
    files = _wait(browser, "two documents", lambda: (lambda f: f if len(f) == 2 else None)(group.find_elements(
        By.CSS_SELECTOR, ".msg.bot .file")))  # fmt: skip
    names = [f.find_element(By.CSS_SELECTOR, ".name").text for f in files]
    assert names[0].endswith(".csv") and names[1].endswith(".json"), names
    for f, name in zip(files, names, strict=True):
        assert f.get_attribute("download") == name  # a tap downloads it under its name
        assert re.fullmatch(r"\d+(\.\d)? (B|KB)", f.find_element(By.CSS_SELECTOR, ".size").text)
        fetched = browser.execute_script(
            "const r = await fetch(arguments[0]); return [r.status, r.headers.get('Content-Disposition')];",
            f.get_attribute("href"),
        )
        assert fetched[0] == 200 and f'filename="{name}"' in fetched[1], fetched
    gif = _wait(browser, "the replay GIF", lambda: group.find_element(By.CSS_SELECTOR, ".msg.bot .gif img"))
    _wait(browser, "the GIF drawn", lambda: browser.execute_script("return arguments[0].naturalWidth", gif) > 0)
    assert browser.execute_script("return arguments[0].naturalWidth", gif) == int(gif.get_dom_attribute("width"))
    assert "GIF" in group.find_element(By.CSS_SELECTOR, ".msg.bot .gif .tag").text
    assert "Hand 1 replayed" in gif.find_element(By.XPATH, "./ancestor::div[@class='bubble']").text
    browser.execute_script("arguments[0].scrollIntoView()", files[0])
    browser.save_screenshot(str(tmp_path / "playground-files.png"))
    # the GIF's "Step through the hand" (a t.me/<bot>?startapp=r<table>_1 link) opens the replay beside
    # the chats, as Telegram opens the bot's Main Mini App — on its own: no live table to go back to
    message = gif.find_element(By.XPATH, "./ancestor::div[contains(@class, 'msg')]")
    step = message.find_element(By.CSS_SELECTOR, ".kb button.webapp")
    assert step.text.startswith("Step through the hand")
    step.click()
    frame = _wait(
        browser, "the replay beside the chats", lambda: browser.find_element(By.CSS_SELECTOR, "#miniapp iframe")
    )
    browser.switch_to.frame(frame)
    try:
        _wait(
            browser,
            "the replay's first moment",
            lambda: browser.find_elements(By.CSS_SELECTOR, ".replay-view .replay-next"),
        )
        assert not browser.find_elements(By.CSS_SELECTOR, ".replay-table")
    finally:
        browser.switch_to.default_content()


@pytest.mark.slow  # the bot as its own process, and a browser
def test_an_unknown_user_is_explained_and_the_stranger_is_refused(
    playground: str, browser: WebDriver, tmp_path: Path
) -> None:
    browser.get(playground + "?user=Zed&lang=en")
    box = _wait(browser, "the unknown user explained", lambda: browser.find_element(By.ID, "unknown"))
    assert "There is no user “Zed” in the playground" in box.text
    assert not browser.find_element(By.CSS_SELECTOR, ".op").is_displayed()  # no state: no operator's buttons
    links = [a.text for a in box.find_elements(By.CSS_SELECTOR, "a")]
    assert links == ["Ann", "Ben", "Cat", "Dan", "Eve"], links
    box.find_element(By.LINK_TEXT, "Ben").click()
    _wait(browser, "Ben's chats", lambda: len(browser.find_elements(By.CSS_SELECTOR, ".chat")) == 2)

    browser.get(playground + "?user=ann&lang=en")  # a preset name in lower case is the preset user
    _wait(browser, "Ann's chats", lambda: len(browser.find_elements(By.CSS_SELECTOR, ".chat")) == 2)
    _wait(browser, "the address names Ann", lambda: "user=Ann" in browser.current_url)
    assert browser.find_element(By.ID, "user").get_attribute("value") == "Ann"
    _send(browser, "group", "/new")
    _wait(browser, "the lobby", lambda: _button(browser, "group", "Join"))
    with sqlite3.connect(tmp_path / "kwx.sqlite3") as db:  # the join link a member might pass on
        table_id, token = db.execute("SELECT table_id, join_token FROM tables").fetchone()

    browser.get(playground + "?user=Eve&lang=en")
    _wait(browser, "Eve's one chat", lambda: _panel(browser, "private"))
    kinds = [c.get_attribute("data-kind") for c in browser.find_elements(By.CSS_SELECTOR, ".chat")]
    assert kinds == ["private"], kinds  # no member of the group: Telegram does not show it to her
    note = browser.find_element(By.ID, "note")
    assert note.is_displayed() and "Eve is not a member of Mahjong night" in note.text
    options = [o.text for o in browser.find_elements(By.CSS_SELECTOR, "#user option")]
    assert "Eve (not in the group)" in options and "Ann" in options
    _wait(browser, "the Start button", lambda: _panel(browser, "private").find_element(By.CSS_SELECTOR, ".startbtn"))
    _panel(browser, "private").find_element(By.CSS_SELECTOR, ".startbtn").click()
    _wait(browser, "the bot's welcome", lambda: "Hello!" in _panel(browser, "private").text)
    _send(browser, "private", f"/start j{b36(table_id)}_{token}")
    _wait(browser, "the refusal", lambda: "does not work for you" in _panel(browser, "private").text)
    assert "only for members of the table's group" in _panel(browser, "private").text
    with sqlite3.connect(tmp_path / "kwx.sqlite3") as db:
        assert db.execute("SELECT count(*) FROM seats WHERE user_id IS NOT NULL").fetchone()[0] == 0
    browser.save_screenshot(str(tmp_path / "playground-stranger.png"))


@pytest.mark.slow  # the bot as its own process, and a browser
def test_the_language_as_a_user_types_it_and_a_table_named_in_the_address(playground: str, browser: WebDriver) -> None:
    """``?lang=zh`` (or zh-CN, zh-Hans) is Chinese, as ``zh_CN`` is — not a "Bad Request" again and
    again; ``?table=N`` opens that table's Mini App beside the chats (one not open: the page says so)."""
    try:
        for typed in ("zh", "zh-Hans"):
            browser.get(playground + f"?user=Dan&lang={typed}")
            _wait(browser, "Dan's chats", lambda: len(browser.find_elements(By.CSS_SELECTOR, ".chat")) >= 1)
            _wait(
                browser,
                "the Chinese bar",
                lambda: browser.find_element(By.CSS_SELECTOR, "[data-l=language]").text == "语言",
            )
            assert browser.find_element(By.ID, "lang").get_attribute("value") == "zh_CN"
            time.sleep(1.5)  # a refused language would toast by now, on every refresh
            assert not browser.find_element(By.ID, "toast").is_displayed()
        # a table in the address opens its Mini App beside the chats: here one that is not open, which
        # the bot's page says (an old "Open the table" button's case)
        browser.get(playground + "?user=Dan&lang=en&table=999")
        frame = _wait(browser, "the Mini App", lambda: browser.find_element(By.CSS_SELECTOR, "#miniapp iframe"))
        assert "table=999" in (frame.get_attribute("src") or "")
        browser.switch_to.frame(frame)
        try:
            _wait(browser, "the notice", lambda: browser.execute_script("return document.body.dataset.failed"))
            assert browser.execute_script("return document.body.dataset.failed") == "404"
            assert "This table is no longer open" in browser.find_element(By.CSS_SELECTOR, ".failed").text
        finally:
            browser.switch_to.default_content()
    finally:
        browser.get(playground + "?user=Dan&lang=en")
