"""The standings of a season of 10,000 finished league games, read from the store and
ranked, as ``/league standings`` asks for them (``manager.leagues.standings``).

    .venv/bin/python bench/bench_league_standings.py [--players 1000] [--rounds 20]
        [--repeats 30] [--postgres postgresql://...]

Writes one Swiss league of ``--players`` players and ``--rounds`` rounds (half as many
games a round as players: 1,000 x 20 = 10,000 games), every game with a random result
(a fixed seed), beside a second league of the same size (so the first is read out of a
table twice as big). Then times ``--repeats`` looks at the standings, and prints the
median (p50) and the 90th percentile (p90) of two kinds: a look at standings kept since
the league's last change (every look but the first after a change), and standings ranked
afresh from every game (the first look after a change: ``bot.tables.leagues.table``).
SQLite always; PostgreSQL as well when ``--postgres`` or ``DISPATCH_TEST_POSTGRES`` names
a server whose user may create databases (a scratch database is created and dropped).
The target is 50 ms p50 on both.

Not a test: it asserts nothing and prints figures.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import asyncpg

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.storage.league_rows import NewLeagueRow  # noqa: E402
from bot.storage.store import Store  # noqa: E402
from bot.tables.leagues import reading, table  # noqa: E402
from bot.tables.leagues.entrants import Outcome  # noqa: E402

OUTCOMES = [o.value for o in Outcome]
WEIGHTS = [45, 45, 6, 2, 2]


async def fill(store: Store, players: int, rounds: int, seed: int) -> int:
    """Two leagues of ``players`` x ``rounds`` / 2 finished games; the first's id."""
    deal = random.Random(seed)
    ids = []
    for n in range(2):
        async with store.transaction() as db:
            league_id = await db.leagues.insert_league(
                NewLeagueRow(
                    "guild",
                    "chan",
                    f"Season {n}",
                    "war",
                    "swiss",
                    rounds,
                    1,
                    None,
                    7.0,
                    14.0,
                    True,
                    None,
                    False,
                    "mod",
                    db.now,
                )
            )
            await db.leagues.set_status(league_id, "finished")
            names = [f"{n}-{i:05d}" for i in range(players)]
            for name in names:
                await db.leagues.add_entrant(league_id, name, deal.gauss(1500, 200))
            for number in range(1, rounds + 1):
                await db.leagues.add_round(league_id, number, db.now)
                order = deal.sample(names, len(names))
                for board in range(len(order) // 2):
                    pair = (order[2 * board], order[2 * board + 1])
                    await db.leagues.add_game(league_id, number, board + 1, pair)
            outcomes = deal.choices(OUTCOMES, WEIGHTS, k=players * rounds // 2)
            await db._run(  # every result at once: the season is over
                "UPDATE league_games SET outcome = CASE id % 5 WHEN 0 THEN ? WHEN 1 THEN ?"
                " WHEN 2 THEN ? WHEN 3 THEN ? ELSE ? END WHERE league_id = ?",
                (*outcomes[:5], league_id),
            )
        ids.append(league_id)
    return ids[0]


async def standings_once(store: Store, league_id: int, *, kept: bool) -> float:
    """One look at the standings, as the desk answers it; ``kept``: as ranked at the
    league's last change (every look but the first after it), else ranked afresh."""
    if not kept:
        async with store.write() as db:
            await db._run("DELETE FROM league_standings WHERE league_id = ?", (league_id,))
    started = time.perf_counter()
    async with store.read() as db:
        league = await reading.league_here(db, league_id, "guild")
        ranked = await table.ranked(db, league)
    assert ranked
    return (time.perf_counter() - started) * 1000


async def measure(path: str, args: argparse.Namespace, engine: str) -> None:
    store = await Store.open(path)
    try:
        started = time.perf_counter()
        league_id = await fill(store, args.players, args.rounds, args.seed)
        filled = time.perf_counter() - started
        fresh = [await standings_once(store, league_id, kept=False) for _ in range(args.repeats)]
        kept = [await standings_once(store, league_id, kept=True) for _ in range(args.repeats)]
    finally:
        await store.close()
    games = args.players * args.rounds // 2
    print(
        f"{engine}: standings of {games:,} games, {args.players} players (filled in {filled:.1f} s)"
    )
    for name, times in (("kept (a look)", kept), ("ranked afresh (after a change)", fresh)):
        times.sort()
        p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
        print(
            f"  {name}: p50 {statistics.median(times):.1f} ms, p90 {p90:.1f} ms"
            f" over {args.repeats} repeats"
        )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--postgres", default=os.environ.get("DISPATCH_TEST_POSTGRES", ""))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        await measure(str(Path(folder) / "bench.sqlite3"), args, "sqlite")
    if not args.postgres:
        print("postgresql: not measured (give --postgres or DISPATCH_TEST_POSTGRES)")
        return
    name = f"bench_league_standings_{os.getpid()}"
    admin = await asyncpg.connect(args.postgres)
    try:
        await admin.execute(f"CREATE DATABASE {name}")
        base, _, _ = args.postgres.rpartition("/")
        await measure(f"{base}/{name}", args, "postgresql")
    finally:
        await admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        await admin.close()


if __name__ == "__main__":
    asyncio.run(main())
