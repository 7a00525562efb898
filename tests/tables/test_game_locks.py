"""The manager's per-game locks are pruned of idle ones: one lock per
game ever touched, kept forever, grew without bound on a server with years of games."""

from __future__ import annotations

import asyncio
from pathlib import Path

from conftest import FakeClock, RecordingFrontEnd

from bot.tables.game_locks import LockTable
from bot.tables.manager import GameManager


async def test_the_managers_lock_tables_stay_bounded(db_path: Path, clock: FakeClock) -> None:
    manager = await GameManager.open(db_path, RecordingFrontEnd(), clock=clock)
    try:
        for table in (manager.game_locks, manager._delivery_locks):
            for game_id in range(2000):
                async with table[game_id]:
                    pass
            assert len(table) <= 512, len(table)
    finally:
        await manager.close()


async def test_a_held_or_awaited_lock_is_never_dropped() -> None:
    table = LockTable(bound=4)
    held, awaited = table[1], table[2]
    await held.acquire()
    await awaited.acquire()
    waiter = asyncio.create_task(awaited.acquire())
    await asyncio.sleep(0)  # the waiter queues on the lock
    awaited.release()  # woken, but it has not run yet: still a waiter
    for game_id in range(3, 40):
        async with table[game_id]:
            pass
    assert table[1] is held and table[2] is awaited
    await waiter
    assert awaited.locked()
    awaited.release()
    held.release()
    for game_id in range(40, 80):
        table[game_id]
    assert len(table) < 40
