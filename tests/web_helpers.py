"""Helpers of the spectator page's tests (tests/web): a game, a link to it."""

from __future__ import annotations

from bot.config import WebSettings
from bot.tables.manager import GameManager
from bot.tables.requests import NewGame
from bot.web.links import give_link

SECRET = "a test secret of the spectator page"
BASE = "http://page.test"
SETTINGS = WebSettings(url=BASE, secret=SECRET)


async def toy_game(manager: GameManager, guild: str = "g1", channel: str = "c1") -> int:
    """alice (north) against bob (south) at Toy Twenty-One, to 12."""
    info = await manager.create_game(
        guild,
        channel,
        "alice",
        NewGame("toy", options={"target": 12}, seat="north", opponent_id="bob", seed=5),
    )
    return info.id


async def link_path(manager: GameManager, game_id: int) -> str:
    """The path of the game's page, as /game link gives it."""
    url = await give_link(manager.store, SETTINGS, game_id, "alice")
    assert url.startswith(BASE + "/g/")
    return url.removeprefix(BASE)
