"""While a ``dispatch worker`` lives, a bot process's background pass leaves it the jobs
it takes: it nudges only the games whose job no one will take otherwise (none was
written, or a dead process held it), not every game where Dispatch owes a move. Each
process paid for every such game at every pass, however many processes there were. And
a move read before the game moved on writes no job for the version it read: that job
came back after its move was made and its row pruned, and was played again."""

from __future__ import annotations

from pathlib import Path
from unittest.mock import AsyncMock

import pytest
from conftest import FakeClock, RecordingFrontEnd

from bot.dispatch_players.bots import BotSeats
from bot.tables.manager import GameManager
from tests.dispatch_players.test_bot_seats import _leave_a_bot_move_owed


async def test_while_a_worker_lives_the_pass_nudges_only_games_no_worker_will_take(
    db_path: Path, front_end: RecordingFrontEnd, clock: FakeClock
) -> None:
    manager = await GameManager.open(db_path, front_end, clock=clock)
    try:
        queued = await _leave_a_bot_move_owed(manager)  # its job waits for a worker
        held = await _leave_a_bot_move_owed(manager, channel="c2")
        lapsed = await _leave_a_bot_move_owed(manager, channel="c3")
        missing = await _leave_a_bot_move_owed(manager, channel="c4")
        async with manager.store.transaction() as db:
            await db.workers.beat_worker("worker")
            assert await db.bot_jobs.claim_bot_jobs("worker", 60.0, max_attempts=3, game_id=held.id)
            assert await db.bot_jobs.claim_bot_jobs("dead", 1.0, max_attempts=3, game_id=lapsed.id)
            await db.bot_jobs.drop_bot_jobs(missing.id)  # as a game from before the jobs
        clock.advance(2.0)  # the dead process's lease lapsed; the worker still lives
        nudged: list[int] = []
        BotSeats.of(manager).nudge = nudged.append  # type: ignore[method-assign]
        assert await BotSeats.of(manager).resume() == 2
        assert sorted(nudged) == sorted([lapsed.id, missing.id])
        assert queued.id not in nudged and held.id not in nudged
        # No worker alive: the bot plays every game's move itself, as before.
        clock.advance(120.0)
        nudged.clear()
        assert await BotSeats.of(manager).resume() == 4
    finally:
        await manager.close()


async def test_a_move_read_before_the_game_moved_on_brings_back_no_job_of_its_version(
    db_path: Path, front_end: RecordingFrontEnd, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    manager = await GameManager.open(db_path, front_end, clock=clock)
    try:
        owed = await _leave_a_bot_move_owed(manager)
        bots = BotSeats.of(manager)
        assert await bots.play_one(owed.id)  # Dispatch's move: the game moves on
        async with manager.store.transaction() as db:
            await db.bot_jobs.drop_bot_jobs(owed.id)  # its job pruned, as turns go by
        # A read made before that move, acted on after it (another process was faster).
        monkeypatch.setattr(manager, "get_game_info", AsyncMock(return_value=owed))
        await bots.play_one(owed.id)
        async with manager.store.read() as db:
            jobs = await db.bot_jobs.of_game(owed.id)
        assert [j for j in jobs if j.version == owed.version] == []
    finally:
        await manager.close()


async def test_a_decision_owed_while_the_bot_stops_leaves_its_job_unclaimed(
    db_path: Path, front_end: RecordingFrontEnd, clock: FakeClock
) -> None:
    manager = await GameManager.open(db_path, front_end, clock=clock)
    try:
        owed = await _leave_a_bot_move_owed(manager)
        bots = BotSeats.of(manager)
        del bots.nudge  # the real one again (the helper switched it off)
        await bots.close()  # SIGTERM: the process is stopping
        bots.nudge(owed.id)  # a click committed during the stop
        await bots.idle()
        async with manager.store.read() as db:
            jobs = [j for j in await db.bot_jobs.of_game(owed.id) if j.version == owed.version]
        assert [(j.status, j.claimed_by) for j in jobs] == [("pending", None)]
    finally:
        await manager.close()
