"""A dead process's claims are taken over within seconds, not when their lease lapses
(bot.storage.liveness): a name silent for two beats loses its claims to a process still
beating; a process back from an outage, or that saw one between two beats, judges
nobody until the database has answered it for two beats; living processes keep theirs,
and a failed beat is tried again a second later. Each "process" is a Store of its own
on the same database."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage.errors import Unavailable
from bot.storage.liveness import BEAT_EVERY_S, RETRY_AFTER_S, SILENT_AFTER_S, Liveness
from bot.storage.store import LEASE_S, Store
from tests.conftest import FakeClock
from tests.storage.test_store_claims import _game_with_timers


@pytest.fixture
async def stores(db_path: Path, clock: FakeClock) -> AsyncIterator[tuple[Store, Store]]:
    first = await Store.open(db_path, clock=clock)
    second = await Store.open(db_path, clock=clock)
    try:
        yield first, second
    finally:
        await first.close()
        await second.close()


async def _claim(store: Store, clock: FakeClock) -> list[int]:
    async with store.transaction() as db:
        return [t.id for t in await db.timers.claim_due_timers(clock(), store.instance, LEASE_S)]


async def test_a_process_silent_for_two_beats_loses_its_claims_to_one_still_beating(
    stores: tuple[Store, Store], clock: FakeClock
) -> None:
    first, second = stores
    dead, alive = Liveness(first, [first.instance]), Liveness(second, [second.instance])
    await _game_with_timers(first, 3)
    await dead.beat()
    await alive.beat()
    mine = await _claim(first, clock)
    assert len(mine) == 3
    # The first process dies here, right after its beat, holding its claims.
    waited = 0.0
    taken: list[str] = []
    while not taken:
        clock.advance(BEAT_EVERY_S)
        waited += BEAT_EVERY_S
        taken = await alive.beat()
        if not taken:
            assert await _claim(second, clock) == [], "taken before the process was judged"
    assert taken == [first.instance]
    assert waited <= SILENT_AFTER_S + BEAT_EVERY_S < LEASE_S
    assert sorted(await _claim(second, clock)) == sorted(mine)


async def test_processes_that_keep_beating_keep_their_claims(
    stores: tuple[Store, Store], clock: FakeClock
) -> None:
    first, second = stores
    one, other = Liveness(first, [first.instance]), Liveness(second, [second.instance])
    await _game_with_timers(first, 2)
    await one.beat()
    await other.beat()
    assert len(await _claim(first, clock)) == 2
    for _ in range(6):
        clock.advance(BEAT_EVERY_S)
        assert await other.beat() == []
        assert await one.beat() == []
    assert await _claim(second, clock) == []


async def test_the_first_process_back_from_an_outage_takes_no_claim_from_the_others(
    stores: tuple[Store, Store], clock: FakeClock
) -> None:
    first, second = stores
    one, other = Liveness(first, [first.instance]), Liveness(second, [second.instance])
    await _game_with_timers(first, 2)
    await one.beat()
    await other.beat()
    assert len(await _claim(first, clock)) == 2
    clock.advance(60.0)  # the database was away: nobody could beat
    assert await other.beat() == []  # back first: its own beat is old, it judges nobody
    await one.beat()
    clock.advance(BEAT_EVERY_S)
    assert await other.beat() == []
    assert await _claim(second, clock) == []


async def test_a_process_whose_beats_fell_in_an_outage_keeps_its_claims(
    stores: tuple[Store, Store], clock: FakeClock
) -> None:
    """The judge beat just before and just after an outage it saw only through another
    of its sessions; the other process's beats fell in the outage, so it was silent for
    more than two beats at the judge's beat. It is alive: its claims stay, until it dies."""
    first, second = stores
    judge, other = Liveness(first, [first.instance]), Liveness(second, [second.instance])
    await _game_with_timers(second, 2)
    await judge.beat()
    await other.beat()
    for _ in range(2):  # both beat steadily; the judge may judge
        clock.advance(BEAT_EVERY_S)
        assert await judge.beat() == []
        assert await other.beat() == []
    assert len(await _claim(second, clock)) == 2
    clock.advance(BEAT_EVERY_S)
    assert await judge.beat() == []  # just before the outage, where the other's fails
    first.reach.down(ConnectionResetError())  # the judge's courier meets the outage
    clock.advance(BEAT_EVERY_S)
    first.reach.up()  # back: the judge's next beat lands, its one before did too
    clock.advance(1.0)
    assert clock() - (other.last_beat or 0.0) > SILENT_AFTER_S
    assert await judge.beat() == [], "taken from a living process silent through an outage"
    clock.advance(RETRY_AFTER_S / 2)
    await other.beat()  # its beat tried again, the second after the one that failed
    for _ in range(3):
        clock.advance(BEAT_EVERY_S)
        assert await other.beat() == []
        assert await judge.beat() == []
    assert await _claim(first, clock) == []
    # Now it dies: the judge, steady again, takes its claims two beats later.
    taken: list[str] = []
    for _ in range(4):
        clock.advance(BEAT_EVERY_S)
        taken += await judge.beat()
    assert taken == [second.instance]
    assert len(await _claim(first, clock)) == 2


async def test_a_failed_beat_is_tried_again_a_second_later_and_judges_nobody(
    stores: tuple[Store, Store], clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, _ = stores
    beats = Liveness(first, [first.instance])
    assert await beats.try_beat() is True
    fail = Unavailable()

    def away() -> object:
        raise fail

    monkeypatch.setattr(first, "transaction", away)
    assert await beats.try_beat() is False
    assert beats.steady_since is None  # whatever it saw before, it must watch anew
    waits: list[float] = []
    stop = asyncio.Event()

    async def no_wait(aw: object, timeout: float) -> None:
        waits.append(timeout)
        if len(waits) == 3:
            stop.set()
        assert asyncio.iscoroutine(aw)
        aw.close()
        raise TimeoutError

    monkeypatch.setattr("bot.storage.liveness.asyncio.wait_for", no_wait)
    await beats.run(stop)
    assert waits == [BEAT_EVERY_S, RETRY_AFTER_S, RETRY_AFTER_S]
    monkeypatch.undo()
    assert await beats.try_beat() is True
    clock.advance(BEAT_EVERY_S)
    await beats.beat()
    assert beats.steady_since is not None and clock() - beats.steady_since < SILENT_AFTER_S


#: A worker's host this far behind the bot's (more than a beat: no time service there).
SKEW_S = 6.0


async def test_a_living_process_on_a_host_whose_clock_lags_keeps_its_claims(
    db_path: Path, clock: FakeClock
) -> None:
    """Beats are stamped by each host's clock: the lagging one's always look more than a
    beat old to the judge, yet they change at every beat, so nothing is taken; once it
    dies, its claims are taken as soon as a living one's would be."""
    judge_store = await Store.open(db_path, clock=clock)
    lagging = await Store.open(db_path, clock=lambda: clock() - SKEW_S)
    try:
        judge = Liveness(judge_store, [judge_store.instance])
        other = Liveness(lagging, [lagging.instance])
        await _game_with_timers(lagging, 2)
        await judge.beat()
        await other.beat()
        async with lagging.transaction() as db:
            mine = await db.timers.claim_due_timers(lagging.clock(), lagging.instance, LEASE_S)
        assert len(mine) == 2
        for _ in range(6):  # in step, the judge's beat just before the other's
            clock.advance(BEAT_EVERY_S)
            assert await judge.beat() == [], "taken from a process that beats on time"
            await other.beat()
        taken: list[str] = []
        waited = 0.0
        while not taken:  # it dies after its last beat
            clock.advance(BEAT_EVERY_S)
            waited += BEAT_EVERY_S
            taken = await judge.beat()
        assert taken == [lagging.instance] and waited <= SILENT_AFTER_S + BEAT_EVERY_S
    finally:
        await judge_store.close()
        await lagging.close()


async def test_a_dead_worker_is_no_longer_counted_alive_and_its_jobs_are_free(
    stores: tuple[Store, Store], clock: FakeClock
) -> None:
    first, second = stores
    worker = "host:1:abc"
    dead, alive = Liveness(first, [worker, first.instance]), Liveness(second, [second.instance])
    game_id = await _game_with_timers(first, 0)
    async with first.transaction() as db:
        await db.set_status(game_id, "active")
        await db.bot_jobs.owe_bot_move(game_id, "r", 1, "easy")
        await db.workers.beat_worker(worker)
        assert len(await db.bot_jobs.claim_bot_jobs(worker, 60.0, max_attempts=3)) == 1
    await dead.beat()
    await alive.beat()
    for _ in range(3):
        clock.advance(BEAT_EVERY_S)
        await alive.beat()
    async with second.transaction() as db:
        assert await db.workers.workers_alive(60.0) == 0
        jobs = await db.bot_jobs.claim_bot_jobs(second.instance, 60.0, max_attempts=3)
    assert [(j.game_id, j.version) for j in jobs] == [(game_id, 1)]


async def test_a_process_beats_before_its_block_runs_on_postgresql_only(
    db_path: Path, clock: FakeClock
) -> None:
    """A process killed right after its first claim is known by its beat already."""
    store = await Store.open(db_path, clock=clock)
    try:
        beats = Liveness(store, [store.instance])
        async with beats.running(asyncio.Event()):
            beaten = beats.last_beat
        # On SQLite one process owns the file: there is no one to take claims over.
        assert beaten == (clock() if store.dialect == "postgresql" else None)
    finally:
        await store.close()
