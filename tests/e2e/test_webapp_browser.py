"""The Mini App's page in a real browser (Debian's Chromium, headless, Selenium), against the fixture
server (:mod:`tests.e2e.webapp_fixture`: the service's own screen values of one engine-played table):
a whole hand played by tapping at phone size (390 × 844) and at desktop size, in English and in
Chinese; a 廊起 chosen by tapping tiles; a spectator's view; a reconnect across a server restart.
Screenshots are written to the test's tmp_path (``KWX_SHOTS=<dir>`` keeps them).

One browser for the whole module (a new page per test).
"""

from __future__ import annotations

import itertools
import os
import re
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

from engine.tiles import parse_tiles
from kwx_bot.words.i18n import translator
from kwx_bot.words.texts import tile_label
from kwx_bot.words.webapp_text import page_words
from tests.e2e.webapp_fixture import FixtureServer, FixtureTable, page_url, pair_win_deal

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
    "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
)  # fmt: skip
PHONE = (390, 844)
DESKTOP = (1280, 900)


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDriver]:
    """Headless Chromium (fails, never skips, if it is not installed)."""
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if shutil.which(p) is None]
    if missing:
        pytest.fail(f"{', '.join(missing)} missing: apt-get install chromium chromium-driver")
    os.environ["SE_OFFLINE"] = "true"
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*FLAGS, f"--user-data-dir={tmp_path_factory.mktemp('chromium')}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    keep = os.environ.get("KWX_SHOTS")
    out = Path(keep) if keep else tmp_path
    out.mkdir(parents=True, exist_ok=True)
    return out


def size(driver: WebDriver, wh: tuple[int, int]) -> None:
    """The viewport exactly ``wh`` CSS pixels (a phone at device scale 1, so a screenshot shows CSS px)."""
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": wh[0], "height": wh[1], "deviceScaleFactor": 1, "mobile": wh[0] < 600},
    )


def wait(driver: WebDriver, what: str, probe: Callable[[], Any], timeout: float = 15) -> Any:
    def check(_: WebDriver) -> Any:
        try:
            return probe()
        except (StaleElementReferenceException, WebDriverException):
            return None

    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(check, f"waited {timeout} s for {what}")


IMAGES_LOADED = "return [...document.images].every((i) => i.complete && i.naturalWidth > 0)"


def shot(driver: WebDriver, path: Path) -> None:
    """A screenshot once every tile face has loaded (a face that cannot load fails the test)."""
    wait(driver, "every tile face loaded", lambda: driver.execute_script(IMAGES_LOADED))
    driver.save_screenshot(str(path))


def seq(driver: WebDriver) -> int:
    """The seq of the screen the page shows (-1 before the first)."""
    return int(driver.execute_script("return document.getElementById('app').dataset.seq || -1"))


def situation(driver: WebDriver) -> str:
    """The situation of the screen the page shows (``turn``, ``claim``, ``over`` …; the kind of a
    table or lobby screen)."""
    return str(driver.execute_script("return document.getElementById('app').dataset.situation || ''"))


TAP_JS = """
const [css, index] = arguments;
const found = document.querySelectorAll(css);
const node = found[index < 0 ? found.length + index : index];
if (!node) return null;
node.click();
return node.dataset.tile || node.textContent;
"""


def tap(driver: WebDriver, css: str, index: int = -1) -> str:
    """Tap the ``index``-th element matching ``css`` (a click, the event a finger's tap sends; found
    and tapped in one script, as the page redraws on every screen)."""
    did = driver.execute_script(TAP_JS, css, index)
    assert did is not None, f"nothing to tap at {css}"
    return str(did)


def count(driver: WebDriver, css: str) -> int:
    return int(driver.execute_script("return document.querySelectorAll(arguments[0]).length", css))


SHOWN = "return window.kwxPage.state.shown || ''"
# a key of the move on screen, never one of a result's (Next hand, the replay link): a result that
# comes between play_one_step's look and its tap must not be tapped through
MOVE_KEY = ".actions .key:not(.result .key)"


def play_one_step(driver: WebDriver) -> str:
    """One move by tapping, as a player does: a result's Next hand is left alone (returns
    ``"over"``); in a claim window the first key (胡 before 杠 / 碰 / 过); on a turn the drawn (else
    the last) playable tile, tapped twice; with no tile to tap the first key (a confirmation, 托管's
    take back).  Returns what was tapped (``"wait"``: nothing to tap yet)."""
    if count(driver, ".result"):
        return "over"
    before = driver.execute_script(SHOWN)
    tiles = count(driver, ".hand-tile:not([disabled])")
    keys = count(driver, MOVE_KEY)
    if keys and (situation(driver) in ("claim", "rob") or not tiles):
        found = driver.execute_script(TAP_JS, MOVE_KEY, 0)
        if found is None:  # a new screen came meanwhile (the result): nothing of the move to tap
            return "wait"
        did = str(found)
    elif tiles:
        did = tap(driver, ".hand-tile:not([disabled])")
        if not count(driver, ".hand-tile.selected"):  # a new screen came meanwhile: that pick is void
            return "wait"
        assert driver.find_element(By.CSS_SELECTOR, ".hint").text.strip()
        if driver.execute_script(TAP_JS, ".hand-tile.selected", -1) is None:
            return "wait"
    else:
        time.sleep(0.05)
        return "wait"
    wait(driver, f"the screen after {did}", lambda: driver.execute_script(SHOWN) != before)
    return did


def check_hand_layout(driver: WebDriver, *, phone: bool) -> None:
    """The player's own tiles (13 and the drawn one): tap targets at least 44 px wide and tall, apart
    from each other; on a phone in two rows (one row would make them 28 px wide), on a desktop in one."""
    rects = driver.execute_script(
        "return [...document.querySelectorAll('.hand-tile')].map((e) => e.getBoundingClientRect().toJSON())"
    )
    assert len(rects) == 14
    assert min(r["height"] for r in rects) >= 44 and min(r["width"] for r in rects) >= 44, rects
    rows = sorted({round(r["y"]) for r in rects})
    assert len(rows) == (2 if phone else 1), rows
    for a, b in itertools.pairwise(rects):
        if round(a["y"]) == round(b["y"]):
            assert b["x"] - (a["x"] + a["width"]) >= (3 if phone else 0.9), (a, b)  # neighbours do not touch
    drawn = rects[-1]
    assert round(drawn["y"]) == rows[-1]  # the drawn tile last, kept apart
    assert drawn["x"] - max(r["x"] + r["width"] for r in rects[:-1] if round(r["y"]) == rows[-1]) >= 8


@pytest.fixture
def table_server() -> Iterator[Callable[..., tuple[FixtureServer, str]]]:
    started: list[FixtureServer] = []

    def make(lang: str = "en", **kw: Any) -> tuple[FixtureServer, str]:
        srv = FixtureServer(FixtureTable(lang, **kw))
        started.append(srv)
        return srv, srv.start()

    yield make
    for srv in started:
        srv.stop()


@pytest.mark.parametrize(
    ("lang", "wh"),
    [("en", PHONE), ("zh", PHONE), ("en", DESKTOP), ("zh", DESKTOP)],
    ids=["en-phone", "zh-phone", "en-desktop", "zh-desktop"],
)
def test_a_whole_hand_by_tapping(browser, table_server, shots, lang, wh):
    srv, base = table_server("zh_CN" if lang == "zh" else "en", seed=f"hand-{lang}-{wh[0]}")
    size(browser, wh)
    browser.get(page_url(base, "ann", lang))
    wait(browser, "the hand", lambda: browser.find_elements(By.CSS_SELECTOR, ".hand-tile"))
    shot(browser, shots / f"turn-{lang}-{wh[0]}.png")
    check_hand_layout(browser, phone=wh == PHONE)
    words = page_words(translator("zh_CN" if lang == "zh" else "en"))
    # whose turn: a label on the seat the table waits for (the dealer's own, first), in the server's words
    assert [e.text for e in browser.find_elements(By.CSS_SELECTOR, ".seat.turn .badge.to-act")] == [words["your_turn"]]
    assert count(browser, ".seat.own.turn") == 1
    # where the others sit, in the hand picture's words (下家 seat 1, 上家 seat 2: play passes to seat + 1)
    relative = browser.execute_script(
        "return [...document.querySelectorAll('.others .seat')].map((e) => [Number(e.dataset.seat),"
        " e.querySelector('.badge.relative')?.textContent])"
    )
    assert relative == ([[1, "下家"], [2, "上家"]] if lang == "zh" else [[1, "Next"], [2, "Previous"]]), relative
    # the Main Button names the picked tile, without the key's drawn-tile mark
    drawn = tap(browser, ".hand-tile.drawn:not([disabled])", 0)
    label = browser.execute_script("return Telegram.WebApp.MainButton.text")
    assert label == tile_label(parse_tiles(drawn)[0], translator("zh_CN" if lang == "zh" else "en")), label
    shot(browser, shots / f"picked-{lang}-{wh[0]}.png")
    # the stand-in's Back Button sits in the Main Button's bar (Telegram's are outside the page), not over the hand
    back, main = browser.execute_script(
        "return ['.tg-stub-back', '.tg-stub-main']"
        ".map((c) => document.querySelector(c).getBoundingClientRect().toJSON())"
    )
    assert back["top"] >= main["top"] - 8 and back["right"] <= main["left"], (back, main)
    tap(browser, ".tg-stub-back", 0)  # Telegram's Back Button drops the pick
    wait(browser, "the pick dropped", lambda: not count(browser, ".hand-tile.selected"))
    assert ("Wall" in browser.find_element(By.CSS_SELECTOR, ".wall").text) is (lang == "en")
    assert ("剩余" in browser.find_element(By.CSS_SELECTOR, ".wall").text) is (lang == "zh")
    calls = browser.execute_script("return window.KWX_TELEGRAM_CALLS.map(c => c[0])")
    assert "ready" in calls and "expand" in calls and "haptic.notification" in calls
    did, claims = [], 0
    for _ in range(250):
        step = play_one_step(browser)
        if step == "over":
            break
        if step != "wait":
            did.append(step)
        if browser.find_elements(By.CSS_SELECTOR, ".key.claim"):
            claims += 1
            if claims == 1:
                shot(browser, shots / f"claim-{lang}-{wh[0]}.png")
                # the seat asked is marked, not the discarder (his discard keeps its own gold outline)
                assert count(browser, ".seat.turn") == count(browser, ".seat.own.turn") == 1
    else:
        pytest.fail(f"no result after {len(did)} taps: {did[-10:]}")
    result = browser.find_element(By.CSS_SELECTOR, ".result")
    assert len(result.find_elements(By.CSS_SELECTOR, ".result-hand")) == 3
    shot(browser, shots / f"result-{lang}-{wh[0]}.png")
    assert srv.table.presses and all(p["table"] == 7 for p in srv.table.presses)
    # the result's Next hand deals the next hand, on the page too
    tap(browser, ".result .key.next", 0)
    wait(browser, "the next hand", lambda: not browser.find_elements(By.CSS_SELECTOR, ".result")
         and browser.find_elements(By.CSS_SELECTOR, ".hand-tile"))  # fmt: skip
    assert srv.table.hand_no == 2


WINNER_TILES = """
return [...document.querySelectorAll('.result-hand.winner .result-tiles img')]
  .map((i) => new URL(i.src).pathname.split('/').pop().replace('.png', ''))
"""


def test_a_discard_win_on_a_tile_the_winner_holds_shows_his_whole_hand(browser, table_server, shots):
    """Ann holds 88筒 and wins on Ben's 8筒 (碰碰胡): the result draws her hand from the win itself, as the
    result picture does (render/result.py) — the 13 tiles before the winning one, then the winning tile
    gold — 14 tiles, not 13 with one 8筒 taken from the tiles she held; the replay's last moment the same
    (each moment before it says what it added: "Last discard: … by …"),
    and its "Back to the table" key returns to the live result, Next hand under it.  Opened on its own
    (the group's link: no live table), the replay has no such key."""
    srv, base = table_server("en", dealt=pair_win_deal)
    size(browser, PHONE)
    browser.get(page_url(base, "ann", "en"))
    wait(browser, "the claim", lambda: count(browser, ".key.claim"))
    assert tap(browser, ".key.claim", 0) == "Win"
    wait(browser, "the result", lambda: count(browser, ".result .result-hand.winner"))
    win = srv.call(lambda: srv.table.payload("ann")["result"]["picture"]["view"]["result"]["winners"][0])
    assert (win["seat"], win["win_tile"], win["by"]) == (0, "8p", "discard")
    assert win["concealed"] == ["1p", "1p", "1p", "4p", "4p", "4p", "8p", "8p", "2s", "2s", "2s", "5s", "5s"]
    drawn = [*win["concealed"], "8p-highlight"]
    assert browser.execute_script(WINNER_TILES) == drawn
    shot(browser, shots / "result-pair-win-en-390.png")
    tap(browser, ".result .replay-link", 0)
    wait(browser, "the replay", lambda: count(browser, ".replay-view"))
    assert not count(browser, ".replay-view .said")  # the deal: nothing to say yet
    tap(browser, ".replay-next")
    said = wait(browser, "the first move said", lambda: browser.find_elements(By.CSS_SELECTOR, ".replay-view .said"))
    assert said[0].text.startswith("Last discard: "), said[0].text  # in the live table's words
    shot(browser, shots / "replay-moment-en-390.png")
    while not count(browser, ".replay-view .result"):
        tap(browser, ".replay-next")
    assert browser.execute_script(WINNER_TILES) == drawn
    shot(browser, shots / "replay-pair-win-en-390.png")
    assert tap(browser, ".replay-view .replay-table", 0) == "Back to the table"
    wait(browser, "the live table again", lambda: count(browser, ".result .key") and not count(browser, ".replay-view"))
    assert browser.find_element(By.CSS_SELECTOR, ".result .key").text == "Next hand"
    alone = browser.find_element(By.CSS_SELECTOR, ".result .replay-link").get_attribute("href") or ""
    browser.get(re.sub(r"&table=\d+", "", alone))
    wait(browser, "the replay on its own", lambda: count(browser, ".replay-view .replay-next"))
    assert not count(browser, ".replay-table")


def test_a_langqi_chosen_by_tapping_tiles(browser, table_server, shots):
    """卡心五: Lay down…, tap 9条 twice, then hide and show a tile of the 13 the page offers; Confirm
    comes and goes with the engine's verdict, as the screen says; "Show the fewest" then shows only
    the engine's fewest reveal, which is confirmed."""
    srv, base = table_server("zh_CN", kaxinwu=True)
    size(browser, PHONE)
    browser.get(page_url(base, "ann", "zh"))
    wait(browser, "the hand", lambda: browser.find_elements(By.CSS_SELECTOR, ".hand-tile"))
    before = seq(browser)
    lay = [k for k in browser.find_elements(By.CSS_SELECTOR, ".actions .key") if "廊起" in k.text]
    assert lay, [k.text for k in browser.find_elements(By.CSS_SELECTOR, ".actions .key")]
    browser.execute_script("arguments[0].click()", lay[0])
    wait(browser, "the picks", lambda: count(browser, ".hand-tile:not([disabled])") == 2)
    assert tap(browser, ".hand-tile[data-tile='9s']") == "9s"
    shot(browser, shots / "pick-zh-390.png")
    tap(browser, ".hand-tile.selected")
    wait(browser, "the reveal toggles", lambda: count(browser, ".hand.reveal .hand-tile"))
    assert count(browser, ".hand.reveal .hand-tile") == count(browser, ".hand.reveal [aria-pressed='true']") == 13
    confirm = lambda: [k for k in browser.find_elements(By.CSS_SELECTOR, ".actions .key") if "确认廊起" in k.text]  # noqa: E731
    assert confirm()
    shot(browser, shots / "reveal-zh-390.png")
    tap(browser, ".hand.reveal .hand-tile", 0)
    wait(browser, "a tile hidden", lambda: count(browser, ".hand.reveal .hand-tile[aria-pressed='false']"))
    assert not confirm() and "✗" in browser.find_element(By.CSS_SELECTOR, ".status").text
    shot(browser, shots / "reveal-hidden-zh-390.png")
    tap(browser, ".hand.reveal .hand-tile[aria-pressed='false']", 0)
    wait(browser, "all shown again", confirm)
    # the screen's one-tap "Show the fewest" (the engine's fewest reveal: 6条 8条, waiting on 7条)
    keys = lambda text: [k for k in browser.find_elements(By.CSS_SELECTOR, ".actions .key") if k.text == text]  # noqa: E731
    assert keys("最少亮出") and not keys("全部亮出")
    browser.execute_script("arguments[0].click()", keys("最少亮出")[0])
    wait(browser, "the fewest shown", lambda: count(browser, ".hand.reveal [aria-pressed='true']") == 2 and confirm())
    assert keys("全部亮出") and not keys("最少亮出") and "7条" in browser.find_element(By.CSS_SELECTOR, ".status").text
    shot(browser, shots / "reveal-fewest-zh-390.png")
    browser.execute_script("arguments[0].click()", confirm()[0])
    wait(browser, "the declaration", lambda: count(browser, ".seat.own .badge.laid"))
    assert seq(browser) > before
    assert any(p["op"] == "l" and p["shown"] is not None for p in srv.table.presses)


def test_a_spectator_sees_the_public_table_live(browser, table_server, shots):
    srv, base = table_server("en")
    size(browser, PHONE)
    browser.get(page_url(base, "spectator", "en"))
    wait(browser, "the table", lambda: browser.find_elements(By.CSS_SELECTOR, ".spectator-view .seat"))
    assert len(browser.find_elements(By.CSS_SELECTOR, ".seat")) == 3
    assert not browser.find_elements(By.CSS_SELECTOR, ".hand-tile, .actions .key")
    assert "watching" in browser.find_element(By.CSS_SELECTOR, ".watching").text
    assert browser.find_element(By.CSS_SELECTOR, ".top .title").text == "Hand 1 · Fixture"  # as a seat's page
    turn = [e.text for e in browser.find_elements(By.CSS_SELECTOR, ".seat.turn .badge.to-act")]
    assert turn == ["Ben's turn"] or turn == ["Ann's turn"] or turn == ["Cat's turn"], turn
    # a move at the table shows without a reload
    before = seq(browser)
    tile = srv.call(lambda: srv.table.payload("ann")["screen"]["buttons"][0][0]["data"])
    srv.call(lambda: srv.table.press(tile))
    wait(browser, "the move", lambda: seq(browser) > before)
    assert browser.find_elements(By.CSS_SELECTOR, ".pond img")
    shot(browser, shots / "spectator-en-390.png")


def test_the_page_reconnects_across_a_server_restart(browser, table_server, shots):
    srv, base = table_server("en", seed="restart")
    size(browser, PHONE)
    browser.get(page_url(base, "ann", "en"))
    wait(browser, "the hand", lambda: browser.find_elements(By.CSS_SELECTOR, ".hand-tile"))
    tap(browser, ".hand-tile:not([disabled])")
    tap(browser, ".hand-tile.selected")
    moved = wait(browser, "the discard", lambda: seq(browser) > 1 and seq(browser))
    table, port = srv.table, srv.port
    srv.stop()
    wait(browser, "the reconnect banner", lambda: browser.find_element(By.ID, "banner").is_displayed())
    assert "Reconnecting" in browser.find_element(By.ID, "banner").text
    browser.save_screenshot(str(shots / "reconnecting-en-390.png"))
    again = FixtureServer(table)
    again.port = port
    again.start()
    try:
        wait(browser, "the banner gone", lambda: not browser.find_element(By.ID, "banner").is_displayed(), timeout=20)
        assert seq(browser) == moved  # the same screen: nothing lost, nothing repeated
        shot(browser, shots / "reconnected-en-390.png")
        n = len(table.presses)
        play_one_step(browser)
        assert len(table.presses) == n + 1 and table.presses[-1]["seq"] == moved
    finally:
        again.stop()


def test_a_press_while_the_bot_restarts_asks_politely_to_tap_again(browser, table_server, shots):
    """A tap while the bot is down (the playground's proxy answers 502 with its error code, as during
    a restart) toasts the page's own words in the player's language — never the proxy's error — and
    makes no move (the toast lets taps through to the tiles it covers); tapped again once the bot is
    back, the move is made, once."""
    srv, base = table_server("zh_CN", seed="down")
    size(browser, PHONE)
    browser.get(page_url(base, "ann", "zh"))
    wait(browser, "the hand", lambda: browser.find_elements(By.CSS_SELECTOR, ".hand-tile:not([disabled])"))
    before = seq(browser)
    srv.call(lambda: setattr(srv.table, "down", True))
    tile = tap(browser, ".hand-tile:not([disabled])")
    tap(browser, ".hand-tile.selected")
    toast = wait(browser, "the toast", lambda: browser.find_element(By.ID, "toast").is_displayed())
    assert toast
    words = page_words(translator("zh_CN"))
    assert browser.find_element(By.ID, "toast").text == words["press_again"] == "正在重新连接，请再点一次"
    box = browser.execute_script("return document.getElementById('toast').getBoundingClientRect().toJSON()")
    under = browser.execute_script(
        "const e = document.elementFromPoint(arguments[0], arguments[1]); return e ? e.id : null",
        box["left"] + box["width"] / 2,
        box["top"] + box["height"] / 2,
    )
    assert under != "toast"  # the toast only informs: a tap on it reaches what it covers (a tile)
    assert not srv.table.presses and seq(browser) == before
    shot(browser, shots / "press-while-down-zh-390.png")
    srv.call(lambda: setattr(srv.table, "down", False))
    tap(browser, f".hand-tile[data-tile='{tile}']:not([disabled])")
    tap(browser, ".hand-tile.selected")
    wait(browser, "the discard", lambda: seq(browser) > before)
    assert [p["seq"] for p in srv.table.presses] == [before]


def test_a_page_without_telegrams_signature_says_so_in_the_users_language(browser, table_server):
    """Opened outside Telegram (no initData), the page says it cannot open the table, in the words
    the server gives (no Telegram language known: Chinese, the bot's default), and asks nothing more."""
    srv, base = table_server("zh_CN")
    size(browser, PHONE)
    browser.get(base + "?table=7")
    wait(browser, "the refusal", lambda: browser.execute_script("return document.body.dataset.failed"))
    text = browser.find_element(By.CSS_SELECTOR, ".failed").text
    assert text == "无法在这里打开这桌牌，请使用聊天中的按钮。"
    assert not srv.table.presses


def test_a_table_no_longer_open_says_so_and_where_to_go(browser, table_server, shots):
    """An old "Open the table" (the table ended, or closed with End the table): the page says the
    table is no longer open and what the group offers — not that it "could not be opened here"."""
    _srv, base = table_server("zh_CN")
    size(browser, PHONE)
    browser.get(page_url(base, "ann", "zh", table=8))
    wait(browser, "the notice", lambda: browser.execute_script("return document.body.dataset.failed"))
    words = page_words(translator("zh_CN"))
    assert browser.find_element(By.CSS_SELECTOR, ".failed").text == words["closed"] != words["failed"]
    assert "/new" in words["closed"] and "/score" in words["closed"]
    assert browser.execute_script("return document.body.dataset.failed") == "404"
    shot(browser, shots / "closed-zh-390.png")


def test_the_lock_is_drawn_from_the_pictures_emoji_font_where_a_device_has_none(browser, table_server, shots):
    """🔒 (a protected tile, the notes' legend) needs an emoji font: the page's font stack ends with the
    pictures' own (/webapp/emoji.ttf), which loads for it."""
    _srv, base = table_server("zh_CN")
    size(browser, PHONE)
    browser.get(page_url(base, "ann", "zh"))
    wait(browser, "the hand", lambda: browser.find_elements(By.CSS_SELECTOR, ".hand-tile"))
    loaded = browser.execute_script(
        "return (await document.fonts.load('15px KwxEmoji', '\\u{1F512}')).map((f) => f.status)"
    )
    assert loaded == ["loaded"], loaded
    browser.execute_script(
        "const t = document.querySelector('.hand-tile'); const l = document.createElement('span');"
        "l.className = 'lock'; l.textContent = '\\u{1F512}'; t.append(l);"
        "document.querySelector('.status').append(' \\u{1F512} = …')"
    )
    family = browser.execute_script("return getComputedStyle(document.querySelector('.hand-tile .lock')).fontFamily")
    assert "KwxEmoji" in family, family  # a button's own font would show a box
    shot(browser, shots / "lock-zh-390.png")
