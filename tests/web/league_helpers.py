"""Helpers of the league page's tests: a small league of toy games, a link to it."""

from __future__ import annotations

from web_helpers import BASE, SETTINGS

from bot.tables.leagues.records import LeagueInfo, LeagueSpec
from bot.tables.manager import GameManager
from bot.web.league_links import give_league_link

#: Players by Discord-like ids, which no page may show.
ANN, BEN, CAT = "100000000000000011", "100000000000000022", "100000000000000033"
#: The names the league shows them by (Ben has none kept: he is shown by his place).
NAMES = {ANN: "Ann the Bold", CAT: "Cat <script>"}


async def toy_league(manager: GameManager, guild: str = "g1") -> LeagueInfo:
    """A round robin of three at Toy Twenty-One (a bye each round), started."""
    league = await manager.leagues.create(
        guild, "chan", "mod", LeagueSpec("Winter Cup", "toy", "round_robin"), may_run=True
    )
    for player in (ANN, BEN, CAT):
        await manager.leagues.join(league.id, guild, player)
    await manager.leagues.start(league.id, guild, "mod", may_run=True)
    return await manager.leagues.info(league.id, guild)


async def league_path(manager: GameManager, league_id: int, guild: str = "g1") -> str:
    url = await give_league_link(manager.store, SETTINGS, league_id, guild, "mod", NAMES)
    assert url.startswith(BASE + "/l/")
    return url.removeprefix(BASE)
