"""``dispatch worker`` and the jobs Dispatch owes.

A job is written with the turn that makes Dispatch owe a move; a worker (or, with none
alive, the bot's own pool) claims it with a lease and submits the move with the job's
version, so a raced, repeated or stale job never applies a move twice.
"""

from __future__ import annotations

import asyncio

import pytest
from conftest import FakeClock

from bot import errors
from bot.delivery.port import GameInfo
from bot.dispatch_players.bots import BotSeats
from bot.dispatch_players.jobs import JOB_LEASE_S, JOB_MAX_ATTEMPTS
from bot.storage.errors import Unavailable
from bot.storage.rows import BotJobRow
from bot.tables.bot_users import bot_user
from bot.tables.manager import GameManager
from bot.tables.requests import NewGame
from bot.workers.worker import OutboxOnly, Worker
from tests.emulator.state import PATIENCE_S

NORMAL = bot_user("normal")
ITERATIONS = 12
#: A rules refusal may quote the bot's hand: a planted one does (kept out of the line that
#: raises it, which a traceback quotes).
HAND_NAMED = "S12 is not in the secessionist hand"

pytestmark = pytest.mark.usefixtures("toy_game")


async def owed_game(manager: GameManager) -> GameInfo:
    """A game in which Dispatch (normal) owes the first move; the bot's own pool is
    switched off until a test calls it."""
    BotSeats.attach(manager, workers="thread", iterations=ITERATIONS)
    BotSeats.of(manager).nudge = lambda game_id: None  # type: ignore[method-assign]
    return await manager.create_game(
        "g1", "c1", "alice", NewGame("fort_sumter", seat="secessionist", opponent_id=NORMAL)
    )


def worker_on(manager: GameManager) -> Worker:
    """A worker on the same database (its own manager, as in another process)."""
    other = GameManager(manager.store, OutboxOnly())
    return Worker(BotSeats(other, workers="thread", iterations=ITERATIONS))


async def jobs_of(manager: GameManager, game_id: int) -> list[BotJobRow]:
    async with manager.store.read() as db:
        return await db.bot_jobs.of_game(game_id)


async def bot_moves(manager: GameManager, game_id: int) -> list[int]:
    """The action numbers of Dispatch's moves in the game."""
    async with manager.store.read() as db:
        return [a.seq for a in await db.actions(game_id) if a.user_id == NORMAL]


async def test_the_move_owed_is_written_with_the_turn_once(manager: GameManager) -> None:
    info = await owed_game(manager)
    [job] = await jobs_of(manager, info.id)
    assert (job.role, job.version, job.level, job.status) == (
        "unionist",
        info.version,
        "normal",
        "pending",
    )
    assert job.attempts == 0 and job.claimed_by is None
    async with manager.store.write() as db:  # a second write of the same job changes nothing
        assert await db.bot_jobs.owe_bot_move(info.id, "unionist", info.version, "normal") is False
    # With no worker alive the bot plays it itself, claiming it the same way.
    assert await BotSeats.of(manager).play_one(info.id) is True
    jobs = await jobs_of(manager, info.id)
    assert jobs[0].status == "done" and jobs[0].attempts == 1
    assert all(j.status == "pending" for j in jobs[1:])  # the next owed, if any
    assert len(await bot_moves(manager, info.id)) == 1


async def test_two_workers_racing_for_a_job_apply_it_once(manager: GameManager) -> None:
    info = await owed_game(manager)
    first, second = worker_on(manager), worker_on(manager)
    async with manager.store.write() as db:
        [claimed] = await db.bot_jobs.claim_bot_jobs(
            first.id, JOB_LEASE_S, max_attempts=JOB_MAX_ATTEMPTS
        )
        # The other worker finds nothing to claim while the lease holds.
        assert (
            await db.bot_jobs.claim_bot_jobs(second.id, JOB_LEASE_S, max_attempts=JOB_MAX_ATTEMPTS)
            == []
        )
    # Both try to play it at once (the second as if it had claimed it too): one move.
    outcomes = await asyncio.gather(
        first.bots.play_job(claimed, deliver=False), second.bots.play_job(claimed, deliver=False)
    )
    assert sorted(outcomes) == ["done", "stale"]
    assert len(await bot_moves(manager, info.id)) == 1
    assert first.bots.stale + second.bots.stale == 1


async def test_a_job_claimed_by_a_worker_that_hung_is_taken_over_and_the_stale_one_dropped(
    manager: GameManager, clock: FakeClock
) -> None:
    info = await owed_game(manager)
    hung, other = worker_on(manager), worker_on(manager)
    async with manager.store.write() as db:
        [job] = await db.bot_jobs.claim_bot_jobs(
            hung.id, JOB_LEASE_S, max_attempts=JOB_MAX_ATTEMPTS
        )
    clock.advance(JOB_LEASE_S + 1)  # the hung worker's lease runs out
    assert await other.step() is True
    [done, *_] = await jobs_of(manager, info.id)
    assert done.status == "done" and done.attempts == 2
    moves = await bot_moves(manager, info.id)
    # The hung worker wakes up with its old job: dropped as stale, counted, no move.
    assert await hung.bots.play_job(job, deliver=False) == "stale"
    assert hung.bots.stale == 1
    assert await bot_moves(manager, info.id) == moves == moves[:1]


async def test_a_job_whose_game_moves_on_during_the_search_is_refused_and_dropped(
    manager: GameManager, clock: FakeClock
) -> None:
    info = await owed_game(manager)
    slow, fast = worker_on(manager), worker_on(manager)
    async with manager.store.write() as db:
        [job] = await db.bot_jobs.claim_bot_jobs(
            slow.id, JOB_LEASE_S, max_attempts=JOB_MAX_ATTEMPTS
        )
    decide = slow.bots._decide

    async def overtaken(*args: object) -> object:
        found = await decide(*args)  # type: ignore[arg-type]
        clock.advance(JOB_LEASE_S + 1)  # the lease lapsed meanwhile; another took it
        assert await fast.step() is True
        return found

    slow.bots._decide = overtaken  # type: ignore[assignment, method-assign]
    assert await slow.bots.play_job(job, deliver=False) == "stale"
    assert len(await bot_moves(manager, info.id)) == 1
    [first, *_] = await jobs_of(manager, info.id)
    assert first.status == "done"


async def test_the_bot_leaves_jobs_to_live_workers_and_takes_over_a_lapsed_one(
    manager: GameManager, clock: FakeClock
) -> None:
    info = await owed_game(manager)
    worker = worker_on(manager)
    await worker.beat()
    assert await BotSeats.of(manager).play_one(info.id) is False  # the worker's to take
    assert await bot_moves(manager, info.id) == []
    async with manager.store.write() as db:
        await db.bot_jobs.claim_bot_jobs(worker.id, JOB_LEASE_S, max_attempts=JOB_MAX_ATTEMPTS)
    clock.advance(JOB_LEASE_S / 2)
    await worker.beat()  # alive, and its lease renewed
    assert await BotSeats.of(manager).play_one(info.id) is False
    clock.advance(JOB_LEASE_S + 1)  # alive by another beat, but the job's lease lapsed
    async with manager.store.write() as db:
        await db.workers.beat_worker(worker.id)
    assert await BotSeats.of(manager).play_one(info.id) is True
    assert len(await bot_moves(manager, info.id)) >= 1


async def test_a_worker_stopped_gives_its_lease_back_at_once(manager: GameManager) -> None:
    info = await owed_game(manager)
    worker = worker_on(manager)
    thinking = asyncio.Event()
    decide = worker.bots._decide

    async def slow(*args: object) -> object:
        thinking.set()
        await asyncio.Event().wait()  # a long search
        return await decide(*args)  # type: ignore[arg-type]  # pragma: no cover

    worker.bots._decide = slow  # type: ignore[assignment, method-assign]
    running = asyncio.ensure_future(worker.run())
    await thinking.wait()
    [job] = await jobs_of(manager, info.id)
    assert job.claimed_by == worker.id
    await worker.stop()
    await asyncio.wait_for(running, PATIENCE_S)
    [job] = await jobs_of(manager, info.id)
    assert (job.claimed_by, job.lease_until, job.attempts, job.status) == (None, None, 0, "pending")
    async with manager.store.read() as db:
        assert await db.workers.workers_alive(JOB_LEASE_S) == 0
    assert await BotSeats.of(manager).play_one(info.id) is True  # the bot plays it at once


async def test_a_job_that_keeps_losing_its_worker_is_given_up_and_the_game_flagged(
    manager: GameManager, clock: FakeClock
) -> None:
    info = await owed_game(manager)
    for attempt in range(JOB_MAX_ATTEMPTS):
        async with manager.store.write() as db:
            [job] = await db.bot_jobs.claim_bot_jobs(
                f"dead-{attempt}", JOB_LEASE_S, max_attempts=JOB_MAX_ATTEMPTS
            )
        clock.advance(JOB_LEASE_S + 1)  # killed: its lease runs out
    worker = worker_on(manager)
    assert await worker.step() is False  # nothing left to claim
    [job] = await jobs_of(manager, info.id)
    assert job.status == "failed" and job.attempts == JOB_MAX_ATTEMPTS
    async with manager.store.read() as db:
        row = await db.game(info.id)
    assert row is not None and row.damaged
    assert await bot_moves(manager, info.id) == []


async def test_a_worker_logs_a_refused_move_by_its_kind_never_its_message(
    manager: GameManager, caplog: pytest.LogCaptureFixture
) -> None:
    info = await owed_game(manager)
    worker = worker_on(manager)

    async def refused(*args: object, **kwargs: object) -> None:
        raise errors.BadInput(HAND_NAMED)

    worker.manager.act = refused  # type: ignore[assignment, method-assign]
    with caplog.at_level("INFO", logger="dispatch.worker"):
        assert await worker.step() is True
    # The log as written, tracebacks included.
    assert "failed (attempt 1)" in caplog.text and "BadInput" in caplog.text
    assert "S12" not in caplog.text and all(r.exc_info is None for r in caplog.records)
    [job] = [j for j in await jobs_of(manager, info.id) if j.status == "pending"][:1]
    assert job.claimed_by is None  # given back, to be tried again


async def test_a_move_cut_short_by_the_database_is_given_back_uncounted(
    manager: GameManager,
) -> None:
    """A database restart mid-move is no sign that the position kills its worker: the job
    is given back once the database answers, its attempt not counted towards giving up."""
    info = await owed_game(manager)
    worker = worker_on(manager)
    real = worker.bots.play_job

    async def cut_short(job: BotJobRow, *, deliver: bool = True) -> str:
        raise Unavailable()

    worker.bots.play_job = cut_short  # type: ignore[method-assign]
    assert await worker.step()
    [job] = await jobs_of(manager, info.id)
    assert (job.attempts, job.claimed_by) == (1, worker.id)
    worker.bots.play_job = real  # type: ignore[method-assign]
    assert await worker.step()  # given back, claimed again at once, and played
    [job] = await jobs_of(manager, info.id)
    assert job.status == "done" and job.attempts == 1
    await worker.bots.close()
