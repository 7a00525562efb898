"""``dispatch worker``: open the store, make Dispatch's moves until SIGTERM."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from bot.process.lifecycle import graceful
from bot.tables.manager import GameManager
from bot.workers.worker import OutboxOnly, Worker, iterations_from


async def serve(database: Path | str) -> None:
    """Run one worker on ``database`` until it is asked to stop."""
    iterations = iterations_from(os.environ)
    manager = await GameManager.open(database, OutboxOnly(), deliver=False, bot_workers="thread")
    manager.bots.iterations = iterations
    worker = Worker(manager)
    try:
        await graceful(worker.run(), worker.stop)
    finally:
        await manager.close()


def run(database: Path | str) -> int:
    asyncio.run(serve(database))
    return 0
