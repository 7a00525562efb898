"""A league's page: its standings and rounds, each game linked to its own page; its link
signed and revocable like a game's; the server's page setting; nothing private on it;
and its live stream told when a game of the league ends."""

from __future__ import annotations

import asyncio
import html
import json
import re
from pathlib import Path

import aiohttp
import pytest
from aiohttp.test_utils import TestClient
from league_helpers import ANN, BEN, CAT, league_path, toy_league
from test_live import WAIT_S, next_event
from web_helpers import SETTINGS

from bot import errors
from bot.config import WebSettings
from bot.discord_app.web_links import _revoked_words
from bot.storage.store import Store
from bot.tables.lobby import NO_SEED
from bot.tables.manager import GameManager
from bot.web import league_routes
from bot.web.app import NOT_FOUND
from bot.web.league_links import give_league_link, revoke_league_links
from bot.web.league_page import PublicLeague, read_league
from bot.web.links import (
    NOT_SET_UP,
    PAGE_OFF,
    give_link,
    linked_by_a_league,
    revoke_links,
    server_page,
)
from bot.web.serve import WebServer


def game_paths(page: str) -> list[str]:
    return re.findall(r'href="(/g/[^"]+/)"', page)


async def test_the_page_shows_standings_and_rounds_each_game_linked(
    manager: GameManager, client: TestClient
) -> None:
    league = await toy_league(manager)
    played = await manager.leagues.round(league.id, "g1")
    (game,) = played.games
    assert game.game_id is not None
    await manager.resign(game.game_id, game.second)  # the first player wins
    path = await league_path(manager, league.id)
    answer = await client.get(path)
    assert answer.status == 200
    page = html.unescape(await answer.text())
    assert "Winter Cup" in page and "Toy Twenty-One" in page
    # Names as the league shows them, escaped; a player without a kept name by place.
    assert "Ann the Bold" in page and "Entrant 2" in page
    assert "Cat <script>" in page and "Cat <script>" not in await answer.text()
    assert "Buchholz" in page and "Sonneborn–Berger" in page
    assert "Round 1" in page and "Bye:" in page
    assert f"game #{game.game_id}" in page and "won" in page
    # The second round, paired by that result, is on the page too.
    assert "Round 2" in page
    # Each opened game (one a round) is linked to its own page, which opens.
    links = game_paths(await answer.text())
    assert len(links) == 2
    for link in links:
        opened = await client.get(link)
        assert opened.status == 200
        assert f"game #{link.split('/')[2].split('-')[0]}" in await opened.text()


async def test_a_withdrawn_player_is_marked(manager: GameManager, client: TestClient) -> None:
    league = await toy_league(manager)
    await manager.leagues.leave(league.id, "g1", CAT)
    page = html.unescape(await (await client.get(await league_path(manager, league.id))).text())
    assert 'Cat <script> <span class="out">(withdrawn)</span>' in page


async def test_asking_again_gives_the_same_link_and_revoking_turns_it_away(
    manager: GameManager, client: TestClient
) -> None:
    league = await toy_league(manager)
    path = await league_path(manager, league.id)
    assert await league_path(manager, league.id) == path
    game_link = game_paths(await (await client.get(path)).text())[0]
    with pytest.raises(errors.ModeratorOnly):
        await revoke_league_links(manager.store, league.id, "g1", ANN, is_moderator=False)
    assert await revoke_league_links(manager.store, league.id, "g1", "mod", is_moderator=False)
    for gone in (path, game_link):
        answer = await client.get(gone)
        assert answer.status == 404
        assert NOT_FOUND in html.unescape(await answer.text())
    again = await league_path(manager, league.id)
    assert again != path
    assert (await client.get(again)).status == 200


async def test_another_servers_league_gives_no_link(
    manager: GameManager, client: TestClient
) -> None:
    league = await toy_league(manager, guild="g2")
    with pytest.raises(errors.UnknownLeague):
        await give_league_link(manager.store, SETTINGS, league.id, "g1", "mod", {})
    with pytest.raises(errors.UnknownLeague):
        await revoke_league_links(manager.store, league.id, "g1", "mod", is_moderator=True)


async def test_a_league_token_opens_no_game_and_a_game_token_no_league(
    manager: GameManager, client: TestClient
) -> None:
    league = await toy_league(manager)
    path = await league_path(manager, league.id)
    token = path.split("/")[2]
    assert (await client.get(f"/g/{token}/")).status == 404
    game_link = game_paths(await (await client.get(path)).text())[0]
    assert (await client.get(game_link.replace("/g/", "/l/"))).status == 404


async def test_a_server_with_the_page_off(manager: GameManager, client: TestClient) -> None:
    league = await toy_league(manager)
    path = await league_path(manager, league.id)
    game_link = game_paths(await (await client.get(path)).text())[0]
    await server_page(manager.store, "g1", page=False, indexing=None)
    assert (await client.get(path)).status == 404
    assert (await client.get(game_link)).status == 404
    with pytest.raises(errors.NotAllowed, match=PAGE_OFF):
        await give_league_link(manager.store, SETTINGS, league.id, "g1", "mod", {})


async def test_no_link_when_the_web_is_not_set_up(manager: GameManager) -> None:
    league = await toy_league(manager)
    with pytest.raises(errors.NotAllowed, match="not set up"):
        await give_league_link(manager.store, WebSettings(), league.id, "g1", "mod", {})
    assert "not set up" in NOT_SET_UP


async def test_the_page_shows_nothing_private(manager: GameManager, client: TestClient) -> None:
    """No player's id, no game's seed or key: only names, numbers and outcomes."""
    league = await toy_league(manager)
    page = await (await client.get(await league_path(manager, league.id))).text()
    for player in (ANN, BEN, CAT):
        assert player not in page
    async with manager.store.read() as db:
        for found in await db.leagues.games(league.id):
            assert found.game_id is not None
            row = await db.game(found.game_id)
            assert row is not None
            state = json.loads(row.state_json or "{}")
            rng = state.get("rng")
            generator = rng.get("key") if isinstance(rng, dict) else None
            if generator:
                assert str(generator) not in page
            # A league game is dealt from a secret key: its seed column holds only the
            # marker NO_SEED, which a random link token may contain by chance; the key
            # is the secret to look for. A chosen seed would be one too.
            if row.seed != NO_SEED:
                assert str(row.seed) not in page
            key = await db.game_key(found.game_id)
            assert key, "a league game is dealt from a key"
            assert key not in page
    assert "seed" not in page.lower()


@pytest.mark.sqlite_only
async def test_the_stream_is_told_when_a_game_of_the_league_ends(
    manager: GameManager, db_path: Path | str
) -> None:
    league = await toy_league(manager)
    path = await league_path(manager, league.id)
    server = await WebServer.start(db_path, SETTINGS, 0, manager=manager)
    try:
        base = f"http://127.0.0.1:{server.port}"
        async with aiohttp.ClientSession() as http:
            page = await (await http.get(base + path)).text()
            events = re.search(r'data-events="([^"]+)"', page)
            digest = re.search(r'data-digest="([^"]+)"', page)
            assert events and digest
            async with http.get(f"{base}{path}{html.unescape(events[1])}") as stream:
                await asyncio.wait_for(stream.content.readline(), WAIT_S)  # retry: ...
                played = await manager.leagues.round(league.id, "g1")
                game_id = played.games[0].game_id
                assert game_id is not None
                await manager.resign(game_id, played.games[0].second)
                kind, data = await next_event(stream.content)
                assert kind == "league" and data["digest"] != digest[1]
                again = await (await http.get(base + path)).text()
                assert f'data-digest="{data["digest"]}"' in again
    finally:
        await server.close()


@pytest.mark.sqlite_only
async def test_a_change_made_while_the_stream_opens_is_not_lost(
    manager: GameManager, db_path: Path | str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game of the league ending after the stream read the league but before it joined
    the room reaches the stream: it reads the league again once in the room."""
    league = await toy_league(manager)
    path = await league_path(manager, league.id)
    played = (await manager.leagues.round(league.id, "g1")).games[0]
    assert played.game_id is not None
    game_id = played.game_id
    reads = 0

    async def read_then_end(store: Store, wanted: int) -> PublicLeague | None:
        nonlocal reads
        found = await read_league(store, wanted)
        reads += 1
        if reads == 2:  # the page was drawn and the link checked: now the game ends
            await manager.resign(game_id, played.second)
        return found

    monkeypatch.setattr(league_routes, "read_league", read_then_end)
    server = await WebServer.start(db_path, SETTINGS, 0, manager=manager)
    try:
        base = f"http://127.0.0.1:{server.port}"
        async with aiohttp.ClientSession() as http:
            page = await (await http.get(base + path)).text()
            events = re.search(r'data-events="([^"]+)"', page)
            digest = re.search(r'data-digest="([^"]+)"', page)
            assert events and digest
            async with http.get(f"{base}{path}{html.unescape(events[1])}") as stream:
                kind, data = await next_event(stream.content)
                assert kind == "league" and data["digest"] != digest[1]
    finally:
        await server.close()


async def test_revoking_a_league_games_link_turns_away_the_one_its_leagues_page_made(
    manager: GameManager, client: TestClient
) -> None:
    """``/game link revoke`` turns away every link to the game's page, the one its
    league's page made for it included: that link answers 404, the league's page lists
    the game without a link, and the league's page and its other games go on."""
    league = await toy_league(manager)
    path = await league_path(manager, league.id)
    played = await manager.leagues.round(league.id, "g1")
    (game,) = played.games
    assert game.game_id is not None
    await manager.resign(game.game_id, game.second)  # round 2 opens: two games linked
    links = game_paths(await (await client.get(path)).text())
    assert len(links) == 2
    revoked = next(link for link in links if f"/g/{game.game_id}-" in link)
    other = next(link for link in links if link != revoked)
    assert await linked_by_a_league(manager.store, game.game_id)
    words = _revoked_words(game.game_id, 0, True)
    assert "no link of its own" in words and "no longer opens it" in words
    assert "league" not in _revoked_words(game.game_id, 1, False)
    assert await revoke_links(manager.store, game.game_id, game.first, is_moderator=False) == 0
    assert not await linked_by_a_league(manager.store, game.game_id)
    assert (await client.get(revoked)).status == 404
    assert (await client.get(other)).status == 200
    page = await client.get(path)
    assert page.status == 200
    assert game_paths(await page.text()) == [other]
    assert f"game #{game.game_id}" in html.unescape(await page.text())
    # The game's own new link opens it again; the league's made one stays turned away.
    own = await give_link(manager.store, SETTINGS, game.game_id, game.first)
    assert (await client.get(own.removeprefix(SETTINGS.url or ""))).status == 200
    assert (await client.get(revoked)).status == 404
