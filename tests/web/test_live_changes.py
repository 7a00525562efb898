"""Every committed change reaches a live page on SQLite inside the bot's process, where
the page hears of changes from the manager's listeners: a resignation, an abandon, a loss
on time, a claimed win and a league's round deadline each reach an open page's stream at
once, not only with the next move; a decision its player takes back before the turn
passes (and the undo) reaches it never. Dispatch's seats, listeners too,
make no move for a game that ended."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import aiohttp
import pytest
from league_helpers import league_path, toy_league
from test_live import WAIT_S, next_event
from web_helpers import SETTINGS, link_path, toy_game

from bot.dispatch_players.bots import BotSeats
from bot.tables.bot_users import bot_user
from bot.tables.clocks import DAY
from bot.tables.manager import GameManager
from bot.tables.requests import Move, NewGame
from bot.web.app import Room
from bot.web.serve import WebServer
from tests.conftest import FakeClock

pytestmark = pytest.mark.sqlite_only

Stream = aiohttp.StreamReader


@asynccontextmanager
async def stream_of(manager: GameManager, db_path: Path | str, path: str) -> AsyncIterator[Stream]:
    """The page's live stream, opened at the version the page shows (its first line read)."""
    server = await WebServer.start(db_path, SETTINGS, 0, manager=manager)
    try:
        base = f"http://127.0.0.1:{server.port}"
        async with aiohttp.ClientSession() as http:
            events = "events?d=" if path.startswith("/l/") else "events?v="
            page = await (await http.get(base + path)).text()
            start = page.index(events) + len(events)
            mark = page[start : page.index('"', start)]
            async with http.get(f"{base}{path}{events}{mark}") as stream:
                await asyncio.wait_for(stream.content.readline(), WAIT_S)  # retry: ...
                yield stream.content
    finally:
        await server.close()


async def fast_game(manager: GameManager) -> int:
    info = await manager.create_game(
        "g1", "c1", "alice", NewGame("toy", opponent_id="bob", clock="fast", seed=5)
    )
    return info.id


async def turn_after(
    manager: GameManager, db_path: Path | str, game_id: int, change: Callable[[], Awaitable[object]]
) -> str:
    """The turn's words an open page of ``game_id`` is sent after ``change``."""
    path = await link_path(manager, game_id)
    async with stream_of(manager, db_path, path) as stream:
        await change()
        kind, data = await next_event(stream)
    assert kind == "turn"
    return str(data["turn"])


async def test_a_resignation_reaches_an_open_page(
    manager: GameManager, db_path: Path | str
) -> None:
    game = await toy_game(manager)
    said = await turn_after(manager, db_path, game, lambda: manager.resign(game, "alice"))
    assert "South" in said and "resign" in said.lower()


async def test_a_decision_taken_back_never_reaches_an_open_page(
    manager: GameManager, db_path: Path | str
) -> None:
    """A player's decisions stay theirs to take back until the turn passes, and the page
    is sent none of them: North adds 2 and takes it back, adds 3 and passes the turn; the
    first thing the open page hears is the turn passing, with the 3 and never the 2."""
    game = await toy_game(manager)
    path = await link_path(manager, game)
    async with stream_of(manager, db_path, path) as stream:
        info = await manager.act(game, "alice", Move("add", 2, None))
        info = await manager.undo(game, "alice", info.version)
        info = await manager.act(game, "alice", Move("add", 3, info.version))
        info = await manager.act(game, "alice", Move("done", None, info.version))
        kind, data = await next_event(stream)
    assert kind == "turn" and data["version"] == info.version
    shown = " ".join(map(str, data["log"]))  # type: ignore[call-overload]
    assert "North adds 3" in shown and "adds 2" not in shown
    assert data["turn"] == "South to play."


async def test_on_a_clocked_game_a_decision_open_to_undo_is_not_sent_for_its_clock_line(
    manager: GameManager, room: Room, clock: FakeClock
) -> None:
    """The clocks' words change with the minutes: a decision open to undo made minutes
    after the page was last sent anything must still send nothing (not even its moment);
    the turn passing does, with the clocks as they stand."""
    info = await manager.create_game(
        "g1", "c1", "alice", NewGame("toy", opponent_id="bob", seat="north", clock="fast", seed=5)
    )
    await link_path(manager, info.id)
    queue = room.spectators.join(info.id)  # a page open, sent the game as it stands
    try:
        now = await room.fresh(info.id)
        assert now is not None
        room.opened(info.id, now)
        clock.advance(120)
        added = await manager.act(info.id, "alice", Move("add", 2, info.version))
        assert await room.update(info.id) is None, "the moment of a decision open to undo"
        clock.advance(120)
        await manager.act(info.id, "alice", Move("done", None, added.version))
        passed = await room.update(info.id)
        assert passed is not None and b'"clocks":["' in passed
    finally:
        room.spectators.leave(info.id, queue)


async def test_an_abandon_reaches_an_open_page(manager: GameManager, db_path: Path | str) -> None:
    game = await toy_game(manager)
    said = await turn_after(
        manager, db_path, game, lambda: manager.abandon(game, "mod", is_moderator=True)
    )
    assert said == "The game was abandoned, without a result."


async def test_a_loss_on_time_reaches_an_open_page(
    manager: GameManager, db_path: Path | str, clock: FakeClock
) -> None:
    game = await fast_game(manager)

    async def run_out() -> None:
        clock.advance(DAY)
        assert await manager.clocks.expire() == 1

    said = await turn_after(manager, db_path, game, run_out)
    assert "time" in said.lower()


async def test_a_claimed_win_reaches_an_open_page(
    manager: GameManager, db_path: Path | str, clock: FakeClock
) -> None:
    await manager.clocks.rules("g1", on_time="claim")
    game = await fast_game(manager)
    clock.advance(DAY)
    assert await manager.clocks.expire() == 1  # offered to bob, not ended
    said = await turn_after(manager, db_path, game, lambda: manager.clocks.claim_win(game, "bob"))
    assert "time" in said.lower()


async def test_a_leagues_round_deadline_reaches_its_games_page_and_its_own(
    manager: GameManager, db_path: Path | str, clock: FakeClock
) -> None:
    league = await toy_league(manager)
    (played,) = (await manager.leagues.round(league.id, "g1")).games
    assert played.game_id is not None
    game_id = played.game_id

    async def deadline() -> None:
        clock.advance(15 * DAY)  # past the round's 14 days
        assert await manager.leagues.pass_deadlines() >= 1

    said = await turn_after(manager, db_path, game_id, deadline)
    assert "time" in said.lower()

    league = await toy_league(manager, guild="g2")
    path = await league_path(manager, league.id, guild="g2")
    async with stream_of(manager, db_path, path) as stream:
        clock.advance(15 * DAY)
        assert await manager.leagues.pass_deadlines() >= 1
        kind, _ = await next_event(stream)
    assert kind == "league"


async def test_dispatch_makes_no_move_for_a_game_that_ended(
    manager: GameManager, db_path: Path | str
) -> None:
    """Told of a resignation or an abandon, Dispatch's seats find nothing owed."""
    seats = BotSeats.attach(manager, workers="thread", iterations=4)
    made: list[int] = []
    seats.on_move = lambda game_id, *_: made.append(game_id)
    for end in ("resign", "abandon"):
        info = await manager.create_game(
            "g1", "c1", "alice", NewGame("toy", seat="north", opponent_id=bot_user("easy"))
        )
        await seats.idle()
        before = (await manager.get_game_info(info.id)).version
        if end == "resign":
            await manager.resign(info.id, "alice")
        else:
            await manager.abandon(info.id, "mod", is_moderator=True)
        await seats.idle()
        assert (await manager.get_game_info(info.id)).version == before
    assert made == []
