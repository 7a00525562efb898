"""The manager's listeners (the bot seats in a room of their own that listens
to the manager): what the manager announces and when, that a failing listener never
breaks a commit, and that Dispatch's seats play only once attached to a manager."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import FakeClock, RecordingFrontEnd

from bot.dispatch_players.bots import BotSeats
from bot.tables.bot_users import bot_user
from bot.tables.listeners import InThread, Owed
from bot.tables.manager import GameManager
from bot.tables.requests import Move, NewGame


class Ear:
    """A listener that writes down what it hears (and may do something on a resumption)."""

    def __init__(self, on_resumed: Callable[[], None] = lambda: None) -> None:
        self.heard: list[tuple[str, ...]] = []
        self.on_resumed = on_resumed

    async def decision_owed(self, news: Owed) -> None:
        self.heard.append(("owed", str(news.game.id), news.game.status, *news.roles))

    async def resumed(self) -> None:
        self.heard.append(("resumed",))
        self.on_resumed()

    async def closing(self) -> None:
        self.heard.append(("closing",))


class Broken:
    """A listener whose every hook fails."""

    async def decision_owed(self, news: Owed) -> None:
        raise RuntimeError("broken listener")

    async def resumed(self) -> None:
        raise RuntimeError("broken listener")

    async def closing(self) -> None:
        raise RuntimeError("broken listener")


@pytest.mark.usefixtures("toy_game")
async def test_each_committed_change_is_announced_with_the_roles_that_owe_a_decision(
    db_path: Path, front_end: RecordingFrontEnd, clock: FakeClock
) -> None:
    manager = await GameManager.open(db_path, front_end, clock=clock, deliver=False)
    stop = asyncio.Event()
    ear = Ear(on_resumed=stop.set)
    manager.add_listener(ear)
    manager.add_listener(ear)  # once is enough
    try:
        await manager.deliver_pending()  # the start
        lobby = await manager.create_game("g1", "c1", "alice", NewGame("toy", seat="north"))
        game = await manager.join(lobby.id, "bob")
        await manager.act(game.id, "alice", Move("add", 1))
        await manager.act(game.id, "alice", Move("done"))
        gid = str(game.id)
        assert ear.heard == [
            ("resumed",),
            ("owed", gid, "lobby"),  # created: nobody owes anything yet
            ("owed", gid, "active", "north"),  # started
            ("owed", gid, "active", "north"),  # a small decision: still north's turn
            ("owed", gid, "active", "south"),  # the turn passed
        ]
        ear.heard.clear()
        stop.clear()
        await manager.background.run(60.0, stop=stop)  # one pass: the ear stops it
        assert ear.heard == [("resumed",)]
        manager.remove_listener(ear)
        assert manager.listeners == ()
        await manager.create_game("g1", "c2", "carol", NewGame("toy"))
        assert ear.heard == [("resumed",)]  # removed: heard nothing more
        manager.add_listener(ear)
    finally:
        await manager.close()
    assert ear.heard[-1] == ("closing",)


@pytest.mark.usefixtures("toy_game")
async def test_a_failing_listener_is_logged_and_breaks_no_commit_nor_the_others(
    db_path: Path, front_end: RecordingFrontEnd, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    manager = await GameManager.open(db_path, front_end, clock=clock)
    ear = Ear()
    manager.add_listener(Broken())
    manager.add_listener(ear)
    try:
        with caplog.at_level(logging.ERROR, logger="dispatch.listeners"):
            game = await manager.create_game(
                "g1", "c1", "alice", NewGame("toy", seat="north", opponent_id="bob")
            )
            done = await manager.act(game.id, "alice", Move("add", 2))
            await manager.deliver_pending()
        assert done.version == 1
        assert (await manager.get_game_info(game.id)).version == 1  # committed
        assert [h[0] for h in ear.heard] == ["owed", "owed", "resumed"]  # heard all
        failed = [r for r in caplog.records if r.name == "dispatch.listeners"]
        assert len(failed) == 3 and all(r.exc_info for r in failed)
    finally:
        await manager.close()
    assert ear.heard[-1] == ("closing",)


async def test_dispatch_plays_only_once_its_seats_listen_to_the_manager(
    db_path: Path, front_end: RecordingFrontEnd, clock: FakeClock
) -> None:
    """The manager makes no bot seats of its own: until the seats are attached, nobody
    plays Dispatch's move; attached, they hear the start and play what is owed."""
    manager = await GameManager.open(db_path, front_end, clock=clock, deliver=False)
    try:
        assert manager.listeners == ()
        with pytest.raises(LookupError):
            BotSeats.of(manager)
        war = NewGame("war", seed=1, seat="confederate", opponent_id=bot_user("easy"))
        info = await manager.create_game("g1", "c1", "alice", war)
        bot_role = next(s.role for s in info.seats if s.user_id == bot_user("easy"))
        assert bot_role in info.active_roles  # war (seed 1): both sides place at once
        await asyncio.sleep(0)  # no task was started that could play it
        assert (await manager.get_game_info(info.id)).version == info.version
        seats = BotSeats.attach(manager, workers="thread", iterations=4)
        await manager.deliver_pending()  # the start, as the processes assemble it
        await seats.idle()
        after = await manager.get_game_info(info.id)
        assert after.version > info.version and bot_role not in after.active_roles
    finally:
        await manager.close()


async def test_attaching_seats_replaces_the_earlier_ones_and_lends_hints_their_workers(
    db_path: Path, front_end: RecordingFrontEnd, clock: FakeClock
) -> None:
    manager = await GameManager.open(db_path, front_end, clock=clock)
    try:
        assert isinstance(manager.searches, InThread)  # no seats: hints search in a thread
        first = BotSeats.attach(manager, workers="thread")
        ear = Ear()
        manager.add_listener(ear)
        second = BotSeats.attach(manager, workers="thread", iterations=3)
        assert manager.listeners == (ear, second) and first not in manager.listeners
        assert BotSeats.of(manager) is second
        assert manager.searches is second and manager.searches.iterations == 3
    finally:
        await manager.close()
