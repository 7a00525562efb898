"""``dispatch worker`` processes on PostgreSQL: real processes race for
the jobs and each move is applied once; a worker killed with SIGKILL mid-search has its
job taken over after the lease, and the move is applied once."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from chaos import moves_not_once
from conftest import FakeClock, RecordingFrontEnd
from job_history import job_history, keep_job_history

from bot.dispatch_players.bots import BotSeats
from bot.dispatch_players.jobs import JOB_LEASE_S
from bot.storage.rows import BotJobRow
from bot.storage.store import Store
from bot.tables.bot_users import bot_user
from bot.tables.manager import GameManager
from bot.tables.requests import NewGame
from bot.workers.worker import OutboxOnly, Worker

ROOT = Path(__file__).resolve().parents[2]
NORMAL = bot_user("normal")
#: How long to wait for the other processes (not a clock of ours: they run for real).
PATIENCE_S = 120.0


async def games_owing_a_move(url: str, count: int) -> list[int]:
    manager = await GameManager.open(url, RecordingFrontEnd())
    BotSeats.attach(manager, workers="thread").nudge = lambda game_id: None  # type: ignore[method-assign]
    await keep_job_history(manager.store)
    try:
        return [
            (
                await manager.create_game(
                    "g1",
                    f"c{n}",
                    "alice",
                    NewGame("fort_sumter", seat="secessionist", opponent_id=NORMAL),
                )
            ).id
            for n in range(count)
        ]
    finally:
        await manager.close()


def start_worker(url: str, iterations: int) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "DISPATCH_DATABASE_URL": url,
        "DISPATCH_WORKER_ITERATIONS": str(iterations),
    }
    return subprocess.Popen(
        [sys.executable, "-m", "bot", "worker"], cwd=ROOT, env=env, stderr=subprocess.DEVNULL
    )


async def all_jobs(store: Store, games: list[int]) -> list[BotJobRow]:
    """The games' jobs, with those pruned or dropped at a game's end (``job_history``)."""
    return [job for game in games for job in await job_history(store, game)]


async def bot_moves(store: Store, game_id: int) -> int:
    async with store.read() as db:
        return sum(1 for a in await db.actions(game_id) if a.user_id == NORMAL)


def stop(process: subprocess.Popen[bytes], sig: signal.Signals) -> int:
    if process.poll() is None:
        process.send_signal(sig)
    return process.wait(timeout=30)


async def test_two_worker_processes_race_for_the_jobs_and_apply_each_move_once(
    pg_url: str,
) -> None:
    games = await games_owing_a_move(pg_url, 6)
    workers = [start_worker(pg_url, 16), start_worker(pg_url, 16)]
    store = await Store.open(pg_url)
    try:
        deadline = time.monotonic() + PATIENCE_S
        while time.monotonic() < deadline:
            jobs = await all_jobs(store, games)
            async with store.read() as db:
                both_up = await db.workers.workers_alive(JOB_LEASE_S) == 2
            # Both must have started (their SIGTERM handler is in place before their first
            # heartbeat): a process still starting Python dies of the signal instead.
            if both_up and all(j.status != "pending" for j in jobs):
                break
            await asyncio.sleep(0.1)
        assert [stop(w, signal.SIGTERM) for w in workers] == [0, 0]
        jobs = await all_jobs(store, games)
        assert jobs and all(j.status in ("done", "stale") for j in jobs), jobs
        for game in games:
            async with store.read() as db:
                actions = await db.actions(game)
            mine = [j for j in jobs if j.game_id == game]
            assert any(j.status == "done" for j in mine)
            # Every move applied once: each from its job done, none for the rest.
            assert moves_not_once(actions, mine) == []
        async with store.read() as db:
            assert await db.workers.workers_alive(JOB_LEASE_S) == 0  # both left cleanly
    finally:
        for w in workers:
            if w.poll() is None:
                w.kill()
                w.wait()
        await store.close()


async def test_a_worker_killed_mid_search_has_its_job_taken_over_after_the_lease(
    pg_url: str,
) -> None:
    [game] = await games_owing_a_move(pg_url, 1)
    worker = start_worker(pg_url, 10**9)  # searching far longer than the test
    store = await Store.open(pg_url)
    try:
        deadline = time.monotonic() + PATIENCE_S
        while time.monotonic() < deadline:
            [job] = await all_jobs(store, [game])
            if job.claimed_by is not None:
                break
            await asyncio.sleep(0.05)
        assert job.claimed_by is not None and job.attempts == 1
        worker.kill()  # SIGKILL: no clean stop, the lease stays
        worker.wait()
    finally:
        if worker.poll() is None:
            worker.kill()
            worker.wait()
        await store.close()
    # Another worker, on a clock past the dead one's lease.
    clock = FakeClock(time.time())
    other = GameManager(await Store.open(pg_url, clock=clock), OutboxOnly())
    taker = Worker(BotSeats(other, workers="thread", iterations=12))
    try:
        assert await taker.step() is False  # the lease still holds
        clock.advance(JOB_LEASE_S + 1)
        assert await taker.step() is True
        [first, *_] = await all_jobs(other.store, [game])
        assert (first.status, first.attempts, first.claimed_by) == ("done", 2, None)
        assert await bot_moves(other.store, game) >= 1
        async with other.store.read() as db:
            actions = await db.actions(game)
        assert moves_not_once(actions, await all_jobs(other.store, [game])) == []
    finally:
        await other.close()
