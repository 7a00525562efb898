"""Idle workers are woken by PostgreSQL when a job is queued: LISTEN on
the channel the store NOTIFYs in the transaction that queues the move, the poll kept as
the fallback (and the only way on SQLite, or with ``DISPATCH_WORKER_LISTEN=off``)."""

from __future__ import annotations

import asyncio

import pytest
from conftest import POSTGRES_ENV, PostgresDatabases, RecordingFrontEnd

from bot.dispatch_players.bots import BotSeats
from bot.storage.store import Store
from bot.tables.bot_users import bot_user
from bot.tables.manager import GameManager
from bot.tables.requests import NewGame
from bot.workers.wake import listen_from
from bot.workers.worker import OutboxOnly, Worker

NORMAL = bot_user("normal")
#: Far longer than the test waits: a worker that only polls cannot pass it.
SLOW_POLL_S = 600.0
PATIENCE_S = 30.0


@pytest.fixture
def pg_url(postgres_databases: PostgresDatabases | None) -> str:
    if postgres_databases is None:
        pytest.skip(f"PostgreSQL run: no server (set {POSTGRES_ENV}=postgresql://...)")
    return postgres_databases.fresh()


async def idle_worker(url: str, *, listen: bool) -> tuple[Worker, asyncio.Task[None]]:
    """A worker on its own store, gone idle (its first look found nothing)."""
    manager = GameManager(await Store.open(url), OutboxOnly())
    seats = BotSeats(manager, workers="thread", iterations=8)  # not attached: a worker's
    worker = Worker(seats, poll_s=SLOW_POLL_S, listen=listen)
    task = asyncio.get_running_loop().create_task(worker.run())
    async with asyncio.timeout(PATIENCE_S):
        while worker.last_beat == float("-inf") or (listen and not worker.bell.listening):
            await asyncio.sleep(0.01)
    return worker, task


async def owe_a_move(url: str) -> tuple[GameManager, int]:
    """A game whose first move is Dispatch's: its job is queued with the game."""
    manager = await GameManager.open(url, RecordingFrontEnd())
    BotSeats.attach(manager, workers="thread").nudge = lambda game_id: None  # type: ignore[method-assign]
    info = await manager.create_game(
        "g1", "c1", "alice", NewGame("fort_sumter", seat="secessionist", opponent_id=NORMAL)
    )
    return manager, info.id


async def job_status(manager: GameManager, game_id: int) -> list[str]:
    async with manager.store.read() as db:
        return [j.status for j in await db.bot_jobs.of_game(game_id)]


async def test_an_idle_worker_takes_a_queued_job_at_once_not_at_its_next_poll(
    pg_url: str,
) -> None:
    worker, task = await idle_worker(pg_url, listen=True)
    manager, game = await owe_a_move(pg_url)
    try:
        async with asyncio.timeout(PATIENCE_S):
            while worker.bots.done < 1:
                await asyncio.sleep(0.02)
        assert await job_status(manager, game) == ["done"]
        assert worker.bell.rung >= 1
    finally:
        await worker.stop()
        await task
        await worker.manager.close()
        await manager.close()


async def test_with_listen_off_the_worker_only_polls(pg_url: str) -> None:
    worker, task = await idle_worker(pg_url, listen=False)
    manager, game = await owe_a_move(pg_url)
    try:
        # Nothing listens: the job waits for the worker's next poll, ten minutes away.
        assert not worker.bell.listening
        assert await job_status(manager, game) == ["pending"]
        assert worker.bell.rung == 0
    finally:
        await worker.stop()
        await task
        await worker.manager.close()
        await manager.close()


def test_listen_setting_reads_on_and_off_and_refuses_anything_else() -> None:
    assert listen_from({}) is True
    assert listen_from({"DISPATCH_WORKER_LISTEN": "on"}) is True
    assert listen_from({"DISPATCH_WORKER_LISTEN": " OFF "}) is False
    with pytest.raises(ValueError, match="must be on or off"):
        listen_from({"DISPATCH_WORKER_LISTEN": "sometimes"})
