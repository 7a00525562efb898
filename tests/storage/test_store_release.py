"""A clean stop gives back what the process holds, on the real store and both engines: its
claims with a lease, a delivered row's claim, and the rows of workers long dead."""

from __future__ import annotations

import concurrent.futures
import threading
import time
from typing import Any

import pytest
from conftest import FakeClock

from bot.dispatch_players.bots import BotSeats
from bot.dispatch_players.processes import new_worker_pool
from bot.process.lifecycle import release_claims
from bot.storage.store import PROCESS_CLAIMS
from bot.tables.leagues.records import LeagueSpec
from bot.tables.manager import GameManager
from bot.tables.requests import Move, NewGame
from bot.workers.worker import DEAD_AFTER_BEATS, OutboxOnly, Worker

pytestmark = pytest.mark.usefixtures("toy_game")


async def _claimed(manager: GameManager, owner: str) -> dict[str, int]:
    counts = {}
    async with manager.store.read() as db:
        for table in PROCESS_CLAIMS:
            row = await db._one(f"SELECT COUNT(*) FROM {table} WHERE claimed_by = ?", (owner,))
            counts[table] = int(row[0]) if row else 0
    return counts


async def test_a_clean_stop_releases_every_claim_of_the_process(manager: GameManager) -> None:
    await manager.create_game("g1", "c1", "alice", NewGame("toy", seed=5, clock="fast"))
    game = await manager.join("c1", "bob")
    await manager.act(game.id, "alice", Move("add", 1), deliver=False)
    # A league started: its pairings and its posts are claimed work too.
    spec = LeagueSpec("Cup", "toy", "round_robin")
    league = await manager.leagues.create("g1", "lc", "mod", spec, may_run=True)
    for player in ("carol", "dave"):
        await manager.leagues.join(league.id, "g1", player)
    await manager.leagues.start(league.id, "g1", "mod", may_run=True)
    mine, other = manager.store.instance, "another-host:1:abc"
    async with manager.store.write() as db:
        for table in PROCESS_CLAIMS:  # as a pass cut short by the stop leaves them
            await db._run(f"UPDATE {table} SET claimed_by = ?, lease_until = ?", (mine, 1e12))
        await db._run("UPDATE clocks SET claimed_by = ? WHERE role = 'south'", (other,))
    before = await _claimed(manager, mine)
    assert all(before.values()), before  # there is something of each kind to give back

    await release_claims(manager.store)

    assert await _claimed(manager, mine) == dict.fromkeys(PROCESS_CLAIMS, 0)
    assert (await _claimed(manager, other))["clocks"] == 1  # another process's stays


async def test_a_delivered_row_drops_its_claim(manager: GameManager) -> None:
    await manager.create_game("g1", "c1", "alice", NewGame("toy", seed=5))
    game = await manager.join("c1", "bob")
    await manager.act(game.id, "alice", Move("add", 1))
    async with manager.store.read() as db:
        assert await db.outbox.undelivered(game.id) == []
        held = await db._one("SELECT COUNT(*) FROM outbox WHERE claimed_by IS NOT NULL")
    assert held is not None and held[0] == 0


async def test_the_rows_of_workers_silent_for_ten_beats_are_removed(
    manager: GameManager, clock: FakeClock
) -> None:
    worker = Worker(BotSeats(GameManager(manager.store, OutboxOnly()), workers="thread"))
    beat_s = worker.lease_s / 3
    async with manager.store.write() as db:
        await db.workers.beat_worker("dead-worker")
    clock.advance(2 * beat_s)
    async with manager.store.write() as db:
        await db.workers.beat_worker("slow-worker")
    clock.advance((DEAD_AFTER_BEATS - 1) * beat_s + 1)  # dead: 10 beats and more; slow: 9

    await worker.beat()

    async with manager.store.read() as db:
        rows = await db._all("SELECT worker_id FROM bot_workers ORDER BY worker_id")
    assert [r[0] for r in rows] == sorted(["slow-worker", worker.id])
    await worker.bots.close()


def _search_in_flight(pool: concurrent.futures.ProcessPoolExecutor) -> list[Any]:
    """Start a call that runs far longer than any test (a search of a billion iterations
    stands in for it: the point is that it does not end by itself); return the pool's
    worker processes once it runs."""
    running = pool.submit(time.sleep, 3600)
    while not running.running():  # waiting on the worker process, not on a clock
        time.sleep(0.01)
    return list(pool._processes.values())


async def test_closing_the_seats_mid_search_ends_the_search_at_once(
    manager: GameManager,
) -> None:
    seats = BotSeats(manager, workers="process")
    pool = seats._pools[0] = new_worker_pool()
    processes = _search_in_flight(pool)
    # Closed on the test's own loop (it gives the seats' jobs back through the store,
    # which lives there). A close that waited for the search would block that loop for
    # the hour the call takes: a watchdog then ends the search, and says it had to.
    stopped = threading.Event()
    ended_by_watchdog: list[bool] = []

    def watchdog() -> None:
        if not stopped.wait(60):
            ended_by_watchdog.append(True)
            for process in processes:
                process.kill()

    guard = threading.Thread(target=watchdog, daemon=True)
    guard.start()
    try:
        await seats.close()
        stopped.set()
        assert not ended_by_watchdog, "closing the seats waited for the search"
        for process in processes:
            process.join(timeout=30)
            assert not process.is_alive()
    finally:
        stopped.set()
        for process in processes:
            if process.is_alive():
                process.kill()
