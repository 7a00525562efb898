"""The page in a real browser: Debian's headless chromium driven by Selenium, the page
served by the bot's own process (``WebServer`` told of turns by the manager). A page
loads and draws its board; a turn committed in the test appears without a reload; the
step-through goes back, forward and jumps; a revoked link is not found. How soon a turn
reaches open pages is measured by ``bench/bench_web.py``, not here.

Selenium's calls block, and the browser may wait on the page's server before it answers
one (a title is read once the page's loads settle), so every call to the driver runs in
a thread while this event loop serves the page: one made on the loop itself could wait
on a server that cannot answer. Every wait is a wait on the DOM, never a sleep; its
timeout only guards against a hang, so a slow machine is slow but never fails. With
``DISPATCH_WEB_SCREENSHOTS=docs/web`` the phone and desktop screenshots of docs/web.md
are written there (else into the test's temporary folder)."""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from league_helpers import ANN, league_path, toy_league
from web_helpers import SETTINGS, link_path

from bot.tables.manager import GameManager
from bot.tables.requests import Move, NewGame
from bot.web.links import revoke_links
from bot.web.reading import read_public
from bot.web.serve import WebServer

try:
    from selenium import webdriver
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:  # the test extra not installed
    webdriver = None  # type: ignore[assignment]

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
MISSING = (
    "selenium is not installed (pip install -e '.[test]')"
    if webdriver is None
    else "no chromium or chromedriver (apt-get install chromium chromium-driver)"
    if not (CHROMIUM and DRIVER)
    else ""
)
pytestmark = [pytest.mark.skipif(bool(MISSING), reason=MISSING), pytest.mark.sqlite_only]

PHONE = (390, 844)
DESKTOP = (1280, 900)
#: A guard against a hang only: each wait ends as soon as the page shows what it waits for.
HANG_S = 120.0
SEATS = {"unionist": "alice", "secessionist": "bob"}


def browser(size: tuple[int, int]) -> Any:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM or ""
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    options.add_argument(f"--window-size={size[0]},{size[1]}")
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    # Below Selenium's own 120 s read timeout, so that a hang fails once, saying where.
    driver.set_page_load_timeout(HANG_S - 10)
    driver.set_script_timeout(HANG_S - 10)
    return driver


@pytest.fixture
def chrome() -> Iterator[Any]:
    driver = browser(DESKTOP)
    yield driver
    driver.quit()


async def run(call: Callable[..., Any], *args: Any) -> Any:
    """A blocking Selenium call in a thread, the event loop free to serve the page."""
    return await asyncio.to_thread(call, *args)


def wait_for(driver: Any, seconds: float, check: Callable[[Any], Any]) -> Any:
    # A page being replaced by the next one leaves the elements just read stale: read again.
    return WebDriverWait(
        driver, seconds, poll_frequency=0.02, ignored_exceptions=(StaleElementReferenceException,)
    ).until(check)


def board_drawn(driver: Any) -> bool:
    return bool(
        driver.execute_script(
            "const i = document.getElementById('board');"
            " return i && i.complete && i.naturalWidth > 0;"
        )
    )


def body(driver: Any, name: str) -> str:
    return str(driver.find_element(By.TAG_NAME, "body").get_attribute(f"data-{name}"))


def text(driver: Any, by: str, what: str) -> str:
    return str(driver.find_element(by, what).text)


def title(driver: Any) -> str:
    return str(driver.title)


def mark(driver: Any) -> None:
    """Leaves a mark in the page's window that a reload would wipe."""
    driver.execute_script("window.dispatchStayed = true;")


def stayed(driver: Any) -> bool:
    return driver.execute_script("return window.dispatchStayed === true;") is True


def shots() -> Path | None:
    folder = os.environ.get("DISPATCH_WEB_SCREENSHOTS")
    return Path(folder) if folder else None


async def screenshot(driver: Any, url: str, size: tuple[int, int], name: str, tmp: Path) -> None:
    await run(driver.set_window_size, *size)
    await run(driver.get, url)
    await run(wait_for, driver, HANG_S, board_drawn)
    folder = shots() or tmp
    folder.mkdir(parents=True, exist_ok=True)
    await run(driver.save_screenshot, str(folder / name))


async def fort_sumter(manager: GameManager) -> int:
    info = await manager.create_game(
        "g1", "c1", "alice", NewGame("fort_sumter", seat="unionist", opponent_id="bob", seed=1861)
    )
    return info.id


#: Moves played at most for three changes the page shows.
MOVES = 40


async def shows(manager: GameManager, game_id: int) -> tuple[object, ...]:
    """What the page shows of the game now (its version aside)."""
    game = await read_public(manager.store, game_id)
    assert game is not None
    return (game.view, game.log, game.turn)


async def play_one(manager: GameManager, game_id: int) -> int:
    """The first action the active side is offered; the new version."""
    info = await manager.get_game_info(game_id)
    role = info.active_roles[0]
    view = await manager.view_for(game_id, SEATS[role])
    actions = view.view["actions"]
    verb = sorted(actions)[0]
    arg = None if actions[verb] is True else actions[verb][0]
    result = await manager.act(game_id, SEATS[role], Move(verb, arg, info.version, role=role))
    return int(result.version)


async def test_the_page_in_a_browser_live_then_stepped_through_then_revoked(
    manager: GameManager, db_path: Path | str, chrome: Any, tmp_path: Path
) -> None:
    game_id = await fort_sumter(manager)
    path = await link_path(manager, game_id)
    server = await WebServer.start(db_path, SETTINGS, 0, manager=manager)
    url = f"http://127.0.0.1:{server.port}{path}"
    try:
        await run(chrome.get, url)
        assert "Fort Sumter" in await run(title, chrome)
        await run(wait_for, chrome, HANG_S, board_drawn)
        alt = await run(lambda: chrome.find_element(By.ID, "board").get_attribute("alt"))
        assert alt.startswith("Fort Sumter") and ", the board after: Each side is dealt" in alt
        await run(mark, chrome)
        shown = 0
        for _ in range(MOVES):
            before = await shows(manager, game_id)
            version = await play_one(manager, game_id)
            if await shows(manager, game_id) == before:
                continue  # a decision its player may still take back: not sent
            await run(wait_for, chrome, HANG_S, lambda d, v=version: body(d, "version") == str(v))
            await run(wait_for, chrome, HANG_S, board_drawn)
            assert await run(stayed, chrome), "the turn was put in place without a reload"
            shown += 1
            if shown == 3:
                break
        assert shown == 3, f"three changes shown within {MOVES} moves"
        log = await run(text, chrome, By.ID, "log")
        assert log.strip(), "the log is shown"
        await screenshot(chrome, url, PHONE, "live-phone.png", tmp_path)
        await screenshot(chrome, url, DESKTOP, "live-desktop.png", tmp_path)

        await manager.resign(game_id, "bob")
        await run(chrome.get, url + "turns/0")
        await run(wait_for, chrome, HANG_S, board_drawn)
        assert await run(body, chrome, "step") == "0"
        await run(chrome.find_element(By.ID, "forward").click)
        await run(wait_for, chrome, HANG_S, lambda d: body(d, "step") == "1")
        await run(chrome.find_element(By.ID, "forward").click)
        await run(wait_for, chrome, HANG_S, lambda d: body(d, "step") == "2")
        await run(chrome.find_element(By.ID, "back").click)
        await run(wait_for, chrome, HANG_S, lambda d: body(d, "step") == "1")
        last = await run(body, chrome, "last")
        field = await run(chrome.find_element, By.NAME, "turn")
        await run(field.clear)
        await run(field.send_keys, last + "\n")
        await run(wait_for, chrome, HANG_S, lambda d: body(d, "step") == last)
        await run(wait_for, chrome, HANG_S, board_drawn)
        await screenshot(chrome, url + "turns/1", PHONE, "steps-phone.png", tmp_path)
        await screenshot(chrome, url + "turns/1", DESKTOP, "steps-desktop.png", tmp_path)

        await revoke_links(manager.store, game_id, "alice", is_moderator=False)
        await run(chrome.get, url)
        assert await run(title, chrome) == "Not found"
        assert "does not open a game's page" in await run(text, chrome, By.TAG_NAME, "body")
    finally:
        await server.close()


async def test_a_leagues_standings_update_live_when_one_of_its_games_ends(
    manager: GameManager, db_path: Path | str, chrome: Any
) -> None:
    """The league's page, open in the browser, shows the result and the next round by
    itself (its stream tells it the league changed; it reloads)."""
    league = await toy_league(manager)
    path = await league_path(manager, league.id)
    server = await WebServer.start(db_path, SETTINGS, 0, manager=manager)
    try:
        await run(chrome.get, f"http://127.0.0.1:{server.port}{path}")
        assert await run(title, chrome) == "Winter Cup"
        before = await run(body, chrome, "digest")
        table = await run(text, chrome, By.ID, "standings")
        assert "Round 2" not in await run(text, chrome, By.TAG_NAME, "main")
        played = (await manager.leagues.round(league.id, "g1")).games[0]
        assert played.game_id is not None
        winner = "Ann the Bold" if played.first == ANN else "Entrant 2"
        await manager.resign(played.game_id, played.second)
        await run(wait_for, chrome, HANG_S, lambda d: body(d, "digest") != before)
        now = await run(text, chrome, By.ID, "standings")
        assert now != table
        first_row = await run(text, chrome, By.CSS_SELECTOR, "#standings tbody tr")
        assert first_row.startswith(f"1 {winner} ")
        assert "Round 2" in await run(text, chrome, By.TAG_NAME, "main")
    finally:
        await server.close()
