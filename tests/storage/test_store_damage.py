"""Only damage flags a game: a database fault during delivery leaves it healthy, and
``dispatch store check`` unflags a flagged game that loads and replays."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import pytest
from conftest import FakeClock, RecordingFrontEnd
from pg_proxy import PgProxy

from bot import __main__ as cli
from bot.delivery.port import GameInfo
from bot.errors import SaveFailed
from bot.storage.statements.outbox import OutboxStatements
from bot.tables.manager import GameManager
from bot.tables.requests import Move, NewGame
from bot.tables.store_check import check_store

pytestmark = pytest.mark.usefixtures("toy_game")


async def _played(manager: GameManager) -> GameInfo:
    await manager.create_game("g1", "c1", "alice", NewGame("toy", seed=5))
    game = await manager.join("c1", "bob")
    await manager.act(game.id, "alice", Move("add", 2))
    await manager.act(game.id, "alice", Move("done"), deliver=False)
    return game


async def _damaged(manager: GameManager, game_id: int) -> str | None:
    async with manager.store.read() as db:
        row = await db.game(game_id)
    assert row is not None
    return row.damaged


async def test_a_connection_lost_during_delivery_leaves_the_game_healthy(
    proxy: PgProxy, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    front_end = RecordingFrontEnd()
    manager = await GameManager.open(await proxy.start(), front_end, clock=clock)
    try:
        game = await _played(manager)
        real = OutboxStatements.mark_delivered
        cuts = []

        async def cut_once(self: OutboxStatements, *args: Any, **kwargs: Any) -> None:
            if not cuts:  # the connection dies under this one statement
                cuts.append(1)
                proxy.drop_all()
            await real(self, *args, **kwargs)

        monkeypatch.setattr(OutboxStatements, "mark_delivered", cut_once)
        with contextlib.suppress(SaveFailed):
            await manager.deliver_due()
        assert cuts
        assert await _damaged(manager, game.id) is None
        # The next pass delivers what waited: the game was never taken out of it.
        await manager.deliver_due()
        async with manager.store.read() as db:
            assert await db.outbox.undelivered(game.id) == []
    finally:
        await manager.close()


async def test_store_check_unflags_a_game_that_replays_and_keeps_a_damaged_one(
    manager: GameManager,
) -> None:
    healthy = await _played(manager)
    await manager.create_game("g1", "c2", "carol", NewGame("toy", seed=6))
    broken = await manager.join("c2", "dave")
    async with manager.store.write() as db:
        await db.mark_damaged(healthy.id, "delivery failed: ConnectionDoesNotExistError()")
    async with manager.store.write() as db:
        await db.mark_damaged(broken.id, "the saved state is not valid JSON")
    async with manager.store.write() as db:
        await db._run("UPDATE games SET state = ? WHERE id = ?", ("{not json", broken.id))

    report = await check_store(manager.store)

    assert report.unflagged == [healthy.id]
    assert report.damaged == {broken.id: "the saved state is not valid JSON"}
    assert await _damaged(manager, healthy.id) is None
    assert await _damaged(manager, broken.id) is not None
    assert "still damaged: 1" in report.lines()[-1]


async def test_store_check_finds_a_replay_that_differs(manager: GameManager) -> None:
    game = await _played(manager)
    async with manager.store.write() as db:
        await db.mark_damaged(game.id, "delivery failed")
        await db._run("DELETE FROM actions WHERE game_id = ? AND seq = 2", (game.id,))
    report = await check_store(manager.store)
    assert report.damaged == {game.id: "its replay differs from its stored state"}


@pytest.mark.sqlite_only  # the command's exit code; the check itself runs on both above
async def test_the_store_check_command_exits_0_once_nothing_is_flagged(
    db_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    manager = await GameManager.open(db_path, RecordingFrontEnd(), clock=FakeClock())
    try:
        game = await _played(manager)
        async with manager.store.write() as db:
            await db.mark_damaged(game.id, "delivery failed")
    finally:
        await manager.close()
    monkeypatch.setenv("DISPATCH_DB", str(db_path))
    monkeypatch.delenv("DISPATCH_DATABASE_URL", raising=False)
    assert await _in_thread(cli.main, ["store", "check"]) == 0
    assert f"game {game.id}: loads and replays: unflagged" in capsys.readouterr().out


async def _in_thread(main: Any, args: list[str]) -> int:
    import asyncio

    return int(await asyncio.to_thread(main, args))
