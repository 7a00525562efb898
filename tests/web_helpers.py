"""Helpers of the spectator page's tests (tests/web): a game, a link to it."""

from __future__ import annotations

import json
from typing import Any

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


def hidden_words(game: Any, state: dict[str, Any], ever_public: set[str]) -> set[str]:
    """What no page may show while ``state`` stands: the ids of every card some side
    hides now (``Game.secrets``), the names of those cards never yet public (a name is
    evidence of a leak only while its card has never been seen: a card played and taken
    back into a hand is named in the log by then, without any leak), and the game's
    secret key."""
    catalogue = {str(c["id"]): str(c.get("name", "")) for c in game.catalogue()}
    ids = set().union(*(game.secrets(state, role) for role in game.roles))
    names_of_secret = {catalogue[i] for i in ids if i in catalogue}
    names_elsewhere = {n for i, n in catalogue.items() if i not in ids}
    words = set(ids) | {n for n in names_of_secret - names_elsewhere - ever_public if len(n) > 3}
    rng = state.get("rng")
    if isinstance(rng, dict) and isinstance(rng.get("key"), str):
        words.add(rng["key"])
    return words


def names_in(game: Any, public_view: dict[str, Any]) -> set[str]:
    """The card names a public view shows (they are public from then on)."""
    text = json.dumps(public_view)
    return {str(c.get("name", "")) for c in game.catalogue() if str(c.get("name", "")) in text}
