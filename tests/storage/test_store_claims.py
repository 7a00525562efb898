"""Several bot processes on one database: background work is claimed with a
lease. A claim another live process holds is skipped; a dead process's claims are taken
over once its lease lapses; two claimers racing never get the same row. Each "process"
is a Store of its own on the same database (on PostgreSQL, its own connection pool)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.storage.rows import NewGameRow
from bot.storage.store import LEASE_S, Store
from tests.conftest import FakeClock


async def _game_with_timers(store: Store, count: int) -> int:
    async with store.transaction() as db:
        game_id = await db.insert_game(
            NewGameRow(
                guild_id="g",
                channel_id="c",
                game_name="toy",
                options={},
                seed=1,
                creator_id="u",
                hotseat=False,
                state={},
            )
        )
        for n in range(count):
            await db.timers.set_timer(game_id, "remind", f"r{n}", "u", db.now - 1, 60.0)
    return game_id


async def test_a_dead_process_timers_are_taken_over_after_the_lease(
    db_path: Path, clock: FakeClock
) -> None:
    first = await Store.open(db_path, clock=clock)
    second = await Store.open(db_path, clock=clock)
    try:
        await _game_with_timers(first, 3)
        async with first.transaction() as db:
            mine = await db.timers.claim_due_timers(clock(), first.instance, LEASE_S)
        assert len(mine) == 3
        # The first process dies here, mid-work, holding its claims.
        async with second.transaction() as db:
            assert await db.timers.claim_due_timers(clock(), second.instance, LEASE_S) == []
        clock.advance(LEASE_S - 1)
        async with second.transaction() as db:
            assert await db.timers.claim_due_timers(clock(), second.instance, LEASE_S) == []
        clock.advance(2)
        async with second.transaction() as db:
            taken = await db.timers.claim_due_timers(clock(), second.instance, LEASE_S)
        assert sorted(t.id for t in taken) == sorted(t.id for t in mine)
        # Released work is free at once (a rescheduled timer is not claimed by anyone).
        async with second.write() as db:
            await db.timers.reschedule_timer(taken[0].id, clock() - 1, 60.0)
        async with first.transaction() as db:
            again = await db.timers.claim_due_timers(clock(), first.instance, LEASE_S)
        assert [t.id for t in again] == [taken[0].id]
    finally:
        await first.close()
        await second.close()


async def test_two_claimers_never_get_the_same_timer(db_path: Path, clock: FakeClock) -> None:
    stores = [await Store.open(db_path, clock=clock) for _ in range(3)]
    try:
        await _game_with_timers(stores[0], 40)

        async def claim_all(store: Store) -> list[int]:
            got: list[int] = []
            while True:
                async with store.transaction() as db:
                    rows = await db.timers.claim_due_timers(
                        clock(), store.instance, LEASE_S, limit=3
                    )
                if not rows:
                    return got
                got.extend(r.id for r in rows)
                await asyncio.sleep(0)

        claimed = await asyncio.gather(*(claim_all(s) for s in stores))
        every = [i for got in claimed for i in got]
        assert len(every) == 40 and len(set(every)) == 40
    finally:
        for store in stores:
            await store.close()


async def test_clocks_and_outbox_claims(db_path: Path, clock: FakeClock) -> None:
    first = await Store.open(db_path, clock=clock)
    second = await Store.open(db_path, clock=clock)
    try:
        game_id = await _game_with_timers(first, 0)
        async with first.transaction() as db:
            await db.outbox.queue(game_id, "table", None, {"text": "hello"})
            await db.clocks.set_game_clock(game_id, 60.0, 0.0, 60.0)
            from bot.storage.rows import ClockRow

            await db.clocks.save_clocks(
                game_id, [ClockRow("a", 60.0, db.now - 61, db.now - 1, None)]
            )
        async with first.transaction(game=game_id) as db:
            assert await db.outbox.claim_outbox(game_id, first.instance, LEASE_S)
            assert await db.clocks.claim_expired_clocks(clock(), first.instance, LEASE_S) == [
                (game_id, "a")
            ]
        async with second.transaction(game=game_id) as db:
            assert not await db.outbox.claim_outbox(game_id, second.instance, LEASE_S)
            assert await db.clocks.claim_expired_clocks(clock(), second.instance, LEASE_S) == []
        # The first process finishes its work: its claims are released.
        async with first.transaction() as db:
            await db.outbox.release_outbox(game_id, first.instance)
            await db.clocks.release_clock(game_id, "a", first.instance)
        async with second.transaction(game=game_id) as db:
            assert await db.outbox.claim_outbox(game_id, second.instance, LEASE_S)
            assert await db.clocks.claim_expired_clocks(clock(), second.instance, LEASE_S) == [
                (game_id, "a")
            ]
    finally:
        await first.close()
        await second.close()
