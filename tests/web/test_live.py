"""Live updates: a committed move reaches an open page's event stream, heard from the
store (PostgreSQL's NOTIFY, from the trigger of migration 0027) or, on SQLite inside the
bot's process, from the manager's listeners; alone on SQLite the page says to reload."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import aiohttp
import pytest
from web_helpers import SETTINGS, link_path, toy_game

from bot.storage.store import Store
from bot.tables.manager import GameManager
from bot.tables.requests import Move
from bot.web import app
from bot.web.links import revoke_links
from bot.web.reading import PublicGame, read_public
from bot.web.serve import WebServer

#: A guard against a hang only (never a sleep: a wait on the stream, which ends as soon as
#: the event comes), long enough that a loaded machine is slow rather than failed.
WAIT_S = 60.0


async def next_event(stream: aiohttp.StreamReader) -> tuple[str, dict[str, object]]:
    """The next event of a server-sent stream (its kind and JSON data), within WAIT_S in
    all: the stream's keep-alive comments do not extend it."""
    kind, data = "", ""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT_S
    while True:
        left = max(0.0, deadline - loop.time())
        line = (await asyncio.wait_for(stream.readline(), left)).decode().rstrip("\n")
        if line.startswith("event: "):
            kind = line.removeprefix("event: ")
        elif line.startswith("data: "):
            data = line.removeprefix("data: ")
        elif line == "" and kind:
            return kind, json.loads(data)


async def test_a_committed_move_reaches_an_open_page(
    manager: GameManager, db_path: Path | str
) -> None:
    game_id = await toy_game(manager)
    path = await link_path(manager, game_id)
    server = await WebServer.start(db_path, SETTINGS, 0, manager=manager)
    try:
        assert server.room.live
        base = f"http://127.0.0.1:{server.port}"
        async with aiohttp.ClientSession() as http:
            page = await (await http.get(base + path)).text()
            info = await manager.get_game_info(game_id)
            assert f'data-events="events?v={info.version}"' in page
            async with http.get(f"{base}{path}events?v={info.version}") as stream:
                assert stream.headers["Content-Type"] == "text/event-stream"
                assert stream.headers["X-Robots-Tag"] == "noindex, nofollow"
                await asyncio.wait_for(stream.content.readline(), WAIT_S)  # retry: ...
                # North's add may still be taken back: it reaches the page with the turn.
                await manager.act(game_id, "alice", Move("add", 2, info.version))
                await manager.act(game_id, "alice", Move("done", None, info.version + 1))
                kind, data = await next_event(stream.content)
                assert kind == "turn"
                assert data["version"] == info.version + 2, "nothing was sent before the turn"
                assert "North adds 2: the counter is 2." in data["log"]  # type: ignore[operator]
                assert data["turn"] == "South to play."
                # Revoked: the next update tells the open page its link no longer opens.
                await revoke_links(manager.store, game_id, "alice", is_moderator=False)
                await manager.act(game_id, "bob", Move("add", 1, info.version + 2))
                kind, _ = await next_event(stream.content)
                assert kind == "gone"
    finally:
        await server.close()


async def test_a_page_opened_after_a_move_is_sent_it_at_once(
    manager: GameManager, db_path: Path | str
) -> None:
    """An update missed between drawing the page and opening its stream (or while a
    stream reconnected) is sent as soon as the stream opens."""
    game_id = await toy_game(manager)
    path = await link_path(manager, game_id)
    server = await WebServer.start(db_path, SETTINGS, 0, manager=manager)
    try:
        base = f"http://127.0.0.1:{server.port}"
        info = await manager.get_game_info(game_id)
        await manager.act(game_id, "alice", Move("add", 3, info.version))
        async with (
            aiohttp.ClientSession() as http,
            http.get(f"{base}{path}events?v={info.version}") as stream,
        ):
            kind, data = await next_event(stream.content)
            assert (kind, data["version"]) == ("turn", info.version + 1)
    finally:
        await server.close()


async def test_a_move_committed_while_the_stream_opens_is_not_lost(
    manager: GameManager, db_path: Path | str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A turn committed after the stream read the game but before it joined the room is
    sent to it: it reads the game again once in the room."""
    game_id = await toy_game(manager)
    path = await link_path(manager, game_id)
    info = await manager.get_game_info(game_id)
    reads = 0

    async def read_then_move(store: Store, wanted: int) -> PublicGame | None:
        nonlocal reads
        game = await read_public(store, wanted)
        reads += 1
        if reads == 1:  # the link is checked: a move lands before the stream is in the room
            await manager.act(game_id, "alice", Move("add", 2, info.version))
        return game

    monkeypatch.setattr(app, "read_public", read_then_move)
    server = await WebServer.start(db_path, SETTINGS, 0, manager=manager)
    try:
        base = f"http://127.0.0.1:{server.port}"
        async with (
            aiohttp.ClientSession() as http,
            http.get(f"{base}{path}events?v={info.version}") as stream,
        ):
            kind, data = await next_event(stream.content)
            assert (kind, data["version"]) == ("turn", info.version + 1)
    finally:
        await server.close()


@pytest.mark.sqlite_only
async def test_alone_on_sqlite_the_page_is_not_live_and_says_to_reload(
    manager: GameManager, db_path: Path | str
) -> None:
    """``dispatch web`` beside the bot on its SQLite file: no listener can tell it of a
    move, so its pages open no stream and say that a reload shows the latest turn, and a
    reload does."""
    game_id = await toy_game(manager)
    path = await link_path(manager, game_id)
    server = await WebServer.start(db_path, SETTINGS, 0)
    try:
        assert not server.room.live
        base = f"http://127.0.0.1:{server.port}"
        async with aiohttp.ClientSession() as http:
            page = await (await http.get(base + path)).text()
            assert "data-events" not in page
            assert "Reload the page to see the latest turn" in page
            info = await manager.get_game_info(game_id)
            await manager.act(game_id, "alice", Move("add", 2, info.version))
            page = await (await http.get(base + path)).text()
            assert f'data-version="{info.version + 1}"' in page
    finally:
        await server.close()
