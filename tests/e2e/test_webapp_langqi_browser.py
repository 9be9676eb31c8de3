"""A 廊起 chosen by tapping tiles on the Mini App of the real bot (PTB against the fake Bot API, its
own Mini App server), in real Chromium: a 卡心五 table dealt from a scenario (tests/scenarios) where
the dealer may 廊起; he taps Lay down…, his discard twice, the tiles to hide, Confirm; the group
gets the reveal (docs/webapp.md §3, docs/rules.md §E#48).  The page is served as the playground
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
from .scenarios import deal_scenario, load

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


async def test_a_langqi_chosen_by_tapping_tiles_on_the_real_bot(
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
        finally:
            await runner.cleanup()
        await kwx.settle()
        live = kwx.service.tables.cached()[0]
        events = [e.data for e in await kwx.service.store.hand_events(live.hand.hand_id)]
        langqi = next(e for e in events if e["type"] == "discarded" and e.get("liangdao"))
        assert (langqi["tile"], langqi["hidden"], langqi["waits"]) == ("9s", "123456789p22s", "7s")
        reveal = [m for m in kwx.fake.bot_messages(group) if m.photo is not None and "7 Bam" in (m.caption or "")]
        assert reveal, kwx.group_texts(group)  # the group sees the reveal: the waits, not the hidden tiles
