"""The clocks' background queries with 10,000 live games on a clock (docs/discord.md).

    .venv/bin/python bench/bench_clocks.py [--games 10000] [--expired 10]

Builds a store with ``--games`` games, each with two clocks (one running, its deadline
spread over the next week; ``--expired`` of them already past), then times what the
background loop runs every few seconds: the expiry query and the warnings query (each
through its partial index), and the start-up shift of every running clock after
downtime. Prints the query plans. Then the background pass itself, through the manager
(``expire_clocks`` and ``warn_clocks``): with nothing due (its cost every 5 s), and with
the ``--expired`` games due, lost on time, or, where the server lets the win be claimed
(``on_time`` claim, when the store has it), flagged. Prints time per pass and the rows
read from the indexes. Not a test: it asserts nothing and prints figures.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.delivery.port import NullFrontEnd  # noqa: E402
from bot.storage.queries import CLOCK_QUERIES  # noqa: E402
from bot.storage.rows import ClockRow, NewGameRow  # noqa: E402
from bot.storage.session import Session  # noqa: E402
from bot.storage.store import Store  # noqa: E402
from bot.tables.clocks import DAY, next_warning  # noqa: E402
from bot.tables.manager import GameManager  # noqa: E402

NOW = 1_700_000_000.0


async def build(store: Store, games: int, expired: int, guild: str = "g") -> None:
    async with store.transaction() as db:
        for n in range(games):
            game_id = await db.insert_game(
                NewGameRow(
                    guild_id=guild,
                    channel_id=f"c{n}",
                    game_name="war",
                    options={},
                    seed=n,
                    creator_id="u",
                    hotseat=False,
                    state={},
                )
            )
            await db.clocks.set_game_clock(game_id, 3 * DAY, DAY, 7 * DAY)
            deadline = NOW - 60 if n < expired else NOW + (n % 7000) * 86.4 + 60
            running = ClockRow("north", deadline - NOW, NOW, deadline, next_warning(deadline, NOW))
            await db.clocks.save_clocks(game_id, [running, ClockRow("south", 3 * DAY)])
            await db.add_seat(game_id, "north", f"p{n}")
            await db.add_seat(game_id, "south", f"q{n}")
            await db.set_status(game_id, "active")


async def timed(store: Store, sql: str, params: tuple[object, ...], runs: int) -> list[float]:
    spent = []
    for _ in range(runs):
        async with store.read() as db:
            started = time.perf_counter()
            await db.db.execute_fetchall(sql, params)
            spent.append((time.perf_counter() - started) * 1000)
    return spent


async def bench(games: int, expired: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "bench.sqlite3", clock=lambda: NOW)
        try:
            started = time.perf_counter()
            await build(store, games, expired)
            print(f"built {games} games on a clock in {time.perf_counter() - started:.1f} s")
            for name in ("expired_clocks", "due_clock_warnings"):
                sql, _ = CLOCK_QUERIES[name]
                spent = await timed(store, sql, (NOW, 100), 200)
                async with store.read() as db:
                    found = len(await db._all(sql, (NOW, 100)))
                    plan = await db.db.execute_fetchall("EXPLAIN QUERY PLAN " + sql, (NOW, 100))
                print(
                    f"{name}: {found} rows, p50 {statistics.median(spent):.3f} ms, "
                    f"max {max(spent):.3f} ms; plan: {' | '.join(str(r[3]) for r in plan)}"
                )
            started = time.perf_counter()
            async with store.transaction() as db:
                await db.clocks.shift_running_clocks(since=NOW)  # every clock ran before it
            print(
                f"shift_running_clocks ({games} running): "
                f"{(time.perf_counter() - started) * 1000:.1f} ms"
            )
        finally:
            await store.close()
    for on_time in ("lose", "claim"):
        await background_pass(games, expired, on_time)


async def rows_due(store: Store, now: float) -> int:
    async with store.read() as db:
        return len(await db.clocks.expired_clocks(now)) + len(
            await db.clocks.due_clock_warnings(now)
        )


async def background_pass(games: int, expired: int, on_time: str) -> None:
    """The manager's clock pass (expiry, then warnings) over ``games`` live games."""
    if on_time == "claim" and not hasattr(Session, "set_clock_rules"):
        print("(this store has no claimed wins: the claim pass is not measured)")
        return
    with tempfile.TemporaryDirectory() as tmp:
        clock = [NOW - 120]  # before any deadline: nothing due
        manager = await GameManager.open(
            Path(tmp) / "pass.sqlite3", NullFrontEnd(), clock=lambda: clock[0], deliver=False
        )
        try:
            await build(manager.store, games, expired)
            if on_time == "claim":
                async with manager.store.transaction() as db:
                    await db.clocks.set_clock_rules("g", "claim", 14)
            idle = []
            for _ in range(50):
                started = time.perf_counter()
                await manager.clocks.expire()
                await manager.clocks.warn()
                idle.append((time.perf_counter() - started) * 1000)
            read = await rows_due(manager.store, clock[0])
            print(
                f"pass ({on_time}), {games} live games, nothing due: p50 "
                f"{statistics.median(idle):.3f} ms, max {max(idle):.3f} ms, {read} rows read"
            )
            clock[0] = NOW
            read = await rows_due(manager.store, clock[0])
            started = time.perf_counter()
            handled = await manager.clocks.expire()
            await manager.clocks.warn()
            spent = (time.perf_counter() - started) * 1000
            again = await rows_due(manager.store, clock[0])
            print(
                f"pass ({on_time}), {expired} due: {spent:.1f} ms for {handled} "
                f"{'flagged' if on_time == 'claim' else 'ended'}, {read} rows read "
                f"({again} left due after it)"
            )
        finally:
            await manager.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--expired", type=int, default=10)
    args = parser.parse_args()
    asyncio.run(bench(args.games, args.expired))


if __name__ == "__main__":
    main()
