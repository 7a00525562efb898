"""The spectator page's application (aiohttp's test client): a link opens only its game,
a revoked link or a server's page turned off answers the same 404, nothing is indexable
unless the server allows it, each address is rate-limited, and the page's store cannot
write."""

from __future__ import annotations

import html
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient
from web_helpers import BASE, SECRET, SETTINGS, link_path, toy_game

from bot import errors
from bot.config import WebSettings
from bot.storage.errors import StoreError
from bot.storage.read_only import open_read_only
from bot.storage.statements.web import WebServer
from bot.tables.manager import GameManager
from bot.tables.requests import Move, NewGame
from bot.web.app import NOT_FOUND, Room
from bot.web.links import give_link, revoke_links, server_page
from bot.web.tokens import make_token, new_nonce, read_token


async def test_a_link_opens_its_games_public_page(manager: GameManager, client: TestClient) -> None:
    game_id = await toy_game(manager)
    path = await link_path(manager, game_id)
    page = await client.get(path)
    text = await page.text()
    assert page.status == 200, text
    assert "Toy Twenty-One" in text and f"game #{game_id}" in text
    assert "North to play." in text
    # The same link again: /game link gives the game's one live link.
    assert await link_path(manager, game_id) == path
    # The secret codewords are in the state, never on the page.
    state_words = ("amber", "birch", "cobalt", "delta", "ember", "fjord", "garnet", "harbor")
    assert not [w for w in state_words if w in text]


async def test_a_made_up_or_forged_token_answers_the_same_404(
    manager: GameManager, client: TestClient
) -> None:
    game_id = await toy_game(manager)
    path = await link_path(manager, game_id)
    token = path.split("/")[2]
    other = await toy_game(manager, channel="c2")
    nonce = token.split("-")[1]
    unsigned = f"{other}-{nonce}-{'A' * 22}"
    moved = make_token(SECRET, other, nonce)  # signed, but never given for that game
    wrong_key = make_token("another secret entirely", game_id, nonce)
    for bad in ("nothing", unsigned, moved, wrong_key, f"{game_id}-{new_nonce()}-x"):
        answer = await client.get(f"/g/{bad}/")
        assert answer.status == 404, bad
        assert html.escape(NOT_FOUND) in await answer.text()
    assert read_token(SECRET, token) is not None


async def test_a_revoked_link_answers_404_and_a_new_one_opens(
    manager: GameManager, client: TestClient
) -> None:
    game_id = await toy_game(manager)
    path = await link_path(manager, game_id)
    assert (await client.get(path)).status == 200
    assert await revoke_links(manager.store, game_id, "bob", is_moderator=False) == 1
    for where in ("", "events", "turns/0"):
        assert (await client.get(path + where)).status == 404, where
    fresh = await link_path(manager, game_id)
    assert fresh != path
    assert (await client.get(fresh)).status == 200


async def test_only_the_players_or_a_moderator_revoke_and_nothing_changes_otherwise(
    manager: GameManager, client: TestClient
) -> None:
    game_id = await toy_game(manager)
    path = await link_path(manager, game_id)
    with pytest.raises(errors.ModeratorOnly):
        await revoke_links(manager.store, game_id, "carol", is_moderator=False)
    assert (await client.get(path)).status == 200
    assert await revoke_links(manager.store, game_id, "carol", is_moderator=True) == 1


async def test_a_server_that_turned_its_page_off_answers_404_and_gives_no_link(
    manager: GameManager, client: TestClient
) -> None:
    game_id = await toy_game(manager)
    path = await link_path(manager, game_id)
    await server_page(manager.store, "g1", page=False, indexing=None)
    assert (await client.get(path)).status == 404
    with pytest.raises(errors.NotAllowed, match="turned the spectator page off"):
        await give_link(manager.store, SETTINGS, game_id, "alice")
    # Another server's games are not touched.
    other = await toy_game(manager, guild="g2", channel="c9")
    assert (await client.get(await link_path(manager, other))).status == 200
    await server_page(manager.store, "g1", page=True, indexing=None)
    assert (await client.get(path)).status == 200


async def test_no_link_is_given_while_the_page_is_not_set_up(manager: GameManager) -> None:
    game_id = await toy_game(manager)
    with pytest.raises(errors.NotAllowed, match="not set up"):
        await give_link(manager.store, WebSettings(), game_id, "alice")


async def test_nothing_is_indexable_unless_the_server_allows_it(
    manager: GameManager, client: TestClient
) -> None:
    game_id = await toy_game(manager)
    path = await link_path(manager, game_id)
    for where in (path, "/", "/robots.txt", "/static/web.js", "/g/nothing/"):
        answer = await client.get(where)
        assert answer.headers["X-Robots-Tag"] == "noindex, nofollow", where
        assert answer.headers["Referrer-Policy"] == "no-referrer", where
    robots = await (await client.get("/robots.txt")).text()
    assert robots == "User-agent: *\nDisallow: /\n"
    assert await server_page(manager.store, "g1", page=None, indexing=True) == WebServer(
        page_off=False, indexable=True
    )
    answer = await client.get(path)
    assert "X-Robots-Tag" not in answer.headers
    robots = await (await client.get("/robots.txt")).text()
    assert f"Allow: {path}" in robots and robots.endswith("Disallow: /\n")


async def test_each_address_is_held_to_its_bucket_until_the_clock_refills_it(
    manager: GameManager, client: TestClient, room: Room, clock: object
) -> None:
    answers = [(await client.get("/")).status for _ in range(room.limit.burst)]
    assert answers == [200] * room.limit.burst
    refused = await client.get("/")
    assert refused.status == 429
    assert refused.headers["Retry-After"] == "1"
    assert "wait a moment" in await refused.text()
    clock.advance(1.0)  # type: ignore[attr-defined]
    assert (await client.get("/")).status == 200


def test_the_bucket_forgets_nobody_it_refused_and_gives_each_address_its_own() -> None:
    now = [0.0]
    from bot.web.limits import RateLimit

    limit = RateLimit(2.0, 3, lambda: now[0])
    assert [limit.allow("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert limit.allow("a") == pytest.approx(0.5)
    assert limit.allow("b") == 0.0
    now[0] += 0.5
    assert limit.allow("a") == 0.0


async def test_a_bad_turn_number_is_refused_politely(
    manager: GameManager, client: TestClient
) -> None:
    game_id = await toy_game(manager)
    path = await link_path(manager, game_id)
    # Before the end: the step-through is not open yet.
    answer = await client.get(path + "turns/0")
    assert answer.status == 404 and "once the game is over" in await answer.text()
    await manager.resign(game_id, "bob")
    page = await (await client.get(path)).text()
    assert "Game over: North wins (South resigned)." in page
    hostile = ("%C2%B2", "jump?turn=%C2%B2", "9" * 4301, "jump?turn=" + "9" * 4301)
    for bad in ("jump?turn=x", "jump?turn=-1", "jump?turn=99999", "99999", *hostile):
        answer = await client.get(path + "turns/" + bad)
        assert answer.status == 400, bad
        assert "A turn is a whole number from 0 to" in await answer.text()
    answer = await client.get(path + "turns/jump?turn=0", allow_redirects=False)
    assert answer.status == 302 and answer.headers["Location"] == "0"
    # A board's picture of such a turn: refused (the toy game has no board: not found).
    assert (await client.get(path + "turns/%C2%B2.png")).status in (400, 404)


async def test_the_pages_store_cannot_write(manager: GameManager, db_path: Path | str) -> None:
    game_id = await toy_game(manager)
    store = await open_read_only(db_path)
    try:
        async with store.read() as db:
            assert (await db.game(game_id)) is not None
        with pytest.raises(StoreError):
            async with store.read() as db:
                await db.web.add_link(game_id, new_nonce(), "mallory")
        with pytest.raises(StoreError):
            async with store.read() as db:
                await db.set_status(game_id, "abandoned")
    finally:
        await store.close()
    async with manager.store.read() as db:
        assert await db.web.live_nonces(game_id) == []
        assert (await db.game(game_id)).status == "active"  # type: ignore[union-attr]


async def test_a_move_shows_on_the_page_when_it_is_read_again(
    manager: GameManager, client: TestClient
) -> None:
    game_id = await toy_game(manager)
    path = await link_path(manager, game_id)
    info = await manager.get_game_info(game_id)
    await manager.act(game_id, "alice", Move("add", 3, info.version))
    text = await (await client.get(path)).text()
    assert "North to play." in text  # the turn waits for north's done
    assert BASE not in text  # the page names no address of its own but relative ones


async def test_a_lobbys_page_says_it_waits_for_players(
    manager: GameManager, client: TestClient
) -> None:
    info = await manager.create_game("g1", "c1", "alice", NewGame("fort_sumter", seed=3))
    page = await client.get(await link_path(manager, info.id))
    text = await page.text()
    assert page.status == 200, text
    assert "Waiting for players to join." in text and "board/" not in text
