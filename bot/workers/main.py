"""``dispatch worker``: open the store, make Dispatch's moves until SIGTERM."""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from pathlib import Path

from bot.dispatch_players.bots import BotSeats
from bot.process import health
from bot.process.lifecycle import graceful
from bot.storage.store import Store
from bot.tables.manager import GameManager
from bot.workers.wake import listen_from
from bot.workers.worker import OutboxOnly, Worker, iterations_from


async def serve(database: Path | str, health_file: Path | None = None) -> None:
    """Run one worker on ``database`` until it is asked to stop; with ``health_file``,
    keep a sign of life there while its heartbeats reach the database."""
    iterations = iterations_from(os.environ)
    # Not GameManager.open: a worker delivers nothing, and it must not forgive clocks
    # "downtime" at its start (the bots beat; only a bot's start may do that).
    manager = GameManager(await Store.open(database, patient=True), OutboxOnly())
    # Seats that play only the jobs this worker claims: not attached, they hear nothing.
    seats = BotSeats(manager, workers="daemon", iterations=iterations)
    worker = Worker(seats, listen=listen_from(os.environ))

    def healthy() -> bool:
        return time.monotonic() - worker.last_beat < worker.lease_s

    alive = (
        asyncio.get_running_loop().create_task(health.keep_alive(health_file, healthy))
        if health_file is not None
        else None
    )
    try:
        await graceful(worker.run(), worker.stop)
    finally:
        if alive is not None and health_file is not None:
            alive.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await alive
            health.forget(health_file)
        await seats.close()
        await manager.close()


def run(database: Path | str, health_file: Path | None = None) -> int:
    asyncio.run(serve(database, health_file))
    return 0
