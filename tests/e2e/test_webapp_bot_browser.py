"""The Mini App of the real bot (PTB against the fake Bot API, its own Mini App server) in real
Chromium: a 卡心五 table dealt from a scenario (tests/scenarios) where the dealer may 廊起; he taps
Lay down…, his discard twice, the tiles to hide, Confirm; the group gets the reveal (docs/webapp.md
§3, docs/rules.md §E#48).  The hand played out, its replay is stepped through with every hand face
up (docs/webapp.md §9).  The page is served as the playground
serves it (:class:`kwx_bot.playground.miniapp.MiniApp`: the stand-in Telegram script, the API passed
on to the bot's server); the browser is driven from a thread, as the bot runs in the test's loop."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from aiohttp import web
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from kwx_bot.playground.miniapp import MiniApp
from tests.e2e import test_webapp_browser as page
from tests.e2e.test_webapp_browser import PHONE, count, seq, shot, size, tap, wait

from .harness import Kwx
from .scenarios import deal_scenario, load, perform

browser = page.browser
"""One headless Chromium for the module (the page tests' fixture)."""


async def _in_thread(f: Callable[..., Any], *args: Any) -> Any:
    return await asyncio.to_thread(f, *args)


def _keys(driver: WebDriver, text: str) -> list[Any]:
    return [k for k in driver.find_elements(By.CSS_SELECTOR, ".actions .key") if text in k.text]


def _choose(driver: WebDriver, hide: list[str], shots: Path) -> None:
    """Lay down…, 9 Bam tapped twice, then each tile of ``hide`` tapped hidden, then Confirm."""
    size(driver, PHONE)
    wait(driver, "the hand", lambda: count(driver, ".hand-tile"))
    driver.execute_script("arguments[0].click()", wait(driver, "Lay down…", lambda: _keys(driver, "Lay down"))[0])
    wait(driver, "the picks", lambda: count(driver, ".hand-tile:not([disabled])") == 2)
    tap(driver, ".hand-tile[data-tile='9s']")
    tap(driver, ".hand-tile.selected")
    wait(driver, "the reveal toggles", lambda: count(driver, ".hand.reveal .hand-tile") == 13)
    for n, tile in enumerate(hide, 1):
        tap(driver, f".hand.reveal .hand-tile[data-tile='{tile}'][aria-pressed='true']", 0)
        wait(driver, f"{n} hidden", lambda n=n: count(driver, ".hand.reveal [aria-pressed='false']") == n)
    shot(driver, shots / "langqi-chosen-390.png")
    confirm = wait(driver, "Confirm", lambda: _keys(driver, "Lay down, discard"))
    assert "7 Bam" in driver.find_element(By.CSS_SELECTOR, ".status").text  # the waits, as he chooses
    before = seq(driver)
    driver.execute_script("arguments[0].click()", confirm[0])
    wait(driver, "the declaration", lambda: count(driver, ".seat.own .badge.laid") and seq(driver) > before)
    shot(driver, shots / "langqi-declared-390.png")


async def test_a_langqi_by_tapping_tiles_then_the_hands_replay(
    kwx: Kwx, browser: WebDriver, unused_tcp_port_factory: Callable[[], int], tmp_path: Path
) -> None:
    scenario = load("kx3_langqi_self_draw")  # Ann 廊起s discarding 9 Bam, showing 6 8 Bam: waits on 7 Bam
    kwx.webapp_port, proxy_port = unused_tcp_port_factory(), unused_tcp_port_factory()
    kwx.webapp_url = f"http://127.0.0.1:{proxy_port}/webapp/"
    users = kwx.players("Ann", "Ben", "Cat")
    group = kwx.group(users)
    async with kwx.running():
        await kwx.start_bot(*users)
        table_id = await deal_scenario(kwx, users, group, scenario)
        app = web.Application()
        miniapp = MiniApp(kwx.fake.token, kwx.webapp_port)
        miniapp.add_routes(app)
        runner = web.AppRunner(app, shutdown_timeout=0.5)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", proxy_port).start()
        try:
            url = f"http://127.0.0.1:{proxy_port}{miniapp.url_for(users[0], table_id)}"
            await _in_thread(browser.get, url)
            hide = ["1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p", "2s", "2s"]
            await _in_thread(_choose, browser, hide, tmp_path)
            await kwx.settle()
            live = kwx.service.tables.cached()[0]
            events = [e.data for e in await kwx.service.store.hand_events(live.hand.hand_id)]
            langqi = next(e for e in events if e["type"] == "discarded" and e.get("liangdao"))
            assert (langqi["tile"], langqi["hidden"], langqi["waits"]) == ("9s", "123456789p22s", "7s")
            reveal = [m for m in kwx.fake.bot_messages(group) if m.photo is not None and "7 Bam" in (m.caption or "")]
            assert reveal, kwx.group_texts(group)  # the group sees the reveal: the waits, not the hidden tiles
            for action in scenario["actions"][1:]:  # Ben and Cat in their chats; Ann draws 7 Bam: 自摸
                await perform(kwx, users, action)
            await kwx.settle()
            await _in_thread(wait, browser, "the result", lambda: count(browser, ".result .replay-link"))
            await _in_thread(browser.execute_script, "document.querySelector('.result .replay-link').click()")
            await _in_thread(_step_through, browser, tmp_path)
        finally:
            await runner.cleanup()


def _step_through(driver: WebDriver, shots: Path) -> None:
    """The replay: the deal with every hand face up, a step on, a step back, the last moment (the
    result), as the buttons go."""
    wait(driver, "the replay", lambda: count(driver, ".replay-view"))
    moment = "return document.getElementById('app').dataset.moment"
    assert driver.execute_script(moment) == "0"
    assert count(driver, ".replay-view .seat .revealed.open img") == 14 + 13 + 13  # every hand face up
    shot(driver, shots / "replay-deal-390.png")
    tap(driver, ".replay-next")
    wait(driver, "a step on", lambda: driver.execute_script(moment) == "1")
    assert count(driver, ".replay-view .pond img") == 1  # Ann's 廊起 discard
    tap(driver, ".replay-back")
    wait(driver, "a step back", lambda: driver.execute_script(moment) == "0")
    while not count(driver, ".replay-view .result"):
        tap(driver, ".replay-next")
    assert "of" in driver.find_element(By.CSS_SELECTOR, ".replay-at").text
    shot(driver, shots / "replay-result-390.png")
