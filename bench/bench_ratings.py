"""Ratings at scale: what rating a game adds to its last commit, and ``/leaderboard``.

    .venv/bin/python bench/bench_ratings.py [--players 10000] [--games 200] [--actions 1000]

1. Fills the ratings table as a big community would leave it: ``--players`` rated players
   of one game on one server (and as many again spread over nine other servers and three
   other games), then times ``GameManager.leaderboard`` (the top 10 and the top 25) and
   prints its query plan.
2. Rates ``--games`` finished games of ``--actions`` actions each, one transaction each
   (as the result's own commit would), and times ``ratings.rate_game``: counting each
   side's decisions and each player's, reading the seat changes, reading and writing both
   ratings, recording both changes.

Not a test: it asserts nothing and prints figures.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import aiosqlite

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.delivery.port import NullFrontEnd  # noqa: E402
from bot.storage.engines import SqliteConnection  # noqa: E402
from bot.storage.queries import RATING_QUERIES  # noqa: E402
from bot.storage.session import Session  # noqa: E402
from bot.tables.manager import GameManager  # noqa: E402
from bot.tables.records import ratings  # noqa: E402

GAME = "fort_sumter"
SERVER = "g0"


def sqlite(db: Session) -> aiosqlite.Connection:
    """The session's own SQLite connection (the bench's store is a SQLite file): the
    store's connection classes have no executemany, which fills these tables fastest."""
    assert isinstance(db.db, SqliteConnection)
    return db.db.conn


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


async def fill_ratings(manager: GameManager, players: int, rng: random.Random) -> None:
    others = [("g" + str(1 + i % 9), ("war", "lincoln", "toy")[i % 3]) for i in range(players)]
    rows = [(SERVER, GAME, f"u{i}") for i in range(players)]
    rows += [(scope, game, f"v{i}") for i, (scope, game) in enumerate(others)]
    async with manager.store.transaction() as db:
        await sqlite(db).executemany(
            "INSERT INTO ratings (scope, game_name, player_id, mu, sigma, points, games, wins,"
            " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0)",
            [
                (s, g, p, mu, sig, 60 * (mu - 3 * sig) + 1500, 5, 2)
                for s, g, p in rows
                for mu, sig in [(rng.gauss(25, 4), rng.uniform(1.5, 8.3))]
            ],
        )
        await db.db.execute_fetchall("ANALYZE")


async def time_leaderboard(manager: GameManager, size: int, runs: int = 200) -> list[float]:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        board = await manager.records.leaderboard(SERVER, GAME, size)
        times.append((time.perf_counter() - t0) * 1000)
        assert len(board) == size
    return times


async def finished_game(db: Session, n: int, actions: int) -> int:
    game_id = await db._insert(
        "INSERT INTO games (guild_id, channel_id, game_name, seed, status, creator_id,"
        " created_at, updated_at) VALUES (?, ?, ?, -1, 'finished', ?, 0, 0)",
        (SERVER, f"c{n}", GAME, f"p{n}"),
    )
    seats = (("unionist", f"p{n}"), ("secessionist", f"q{n % 37}"))
    for role, user in seats:
        await db.add_seat(game_id, role, user)
    # Each action by the seat's player, as play records it: the rating counts each
    # player's decisions at their seat.
    await sqlite(db).executemany(
        "INSERT INTO actions (game_id, seq, role, user_id, verb, arg, at)"
        " VALUES (?, ?, ?, ?, 'done', 'null', 0)",
        [(game_id, seq, *seats[seq % 2]) for seq in range(1, actions + 1)],
    )
    return game_id


async def time_rating(manager: GameManager, games: int, actions: int) -> list[float]:
    times = []
    for n in range(games):
        async with manager.store.transaction() as db:
            game_id = await finished_game(db, n, actions)
            row = await db.game(game_id)
            seats = await db.seats(game_id)
            assert row is not None
            t0 = time.perf_counter()
            changes = await ratings.rate_game(db, row, seats, ("unionist", "secessionist"), None)
            times.append((time.perf_counter() - t0) * 1000)
            assert len(changes) == 2
    return times


async def bench(players: int, games: int, actions: int, seed: int) -> None:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        manager = await GameManager.open(Path(tmp) / "bench.sqlite3", NullFrontEnd())
        try:
            await fill_ratings(manager, players, rng)
            sql, params = RATING_QUERIES["leaderboard"]
            async with manager.store.read() as db:
                plan = await db.db.execute_fetchall("EXPLAIN QUERY PLAN " + sql, params)
            print(f"ratings rows: {2 * players} ({players} of {GAME} on one server)")
            print("leaderboard plan: " + " / ".join(str(r[3]) for r in plan))
            for size in (10, 25):
                t = await time_leaderboard(manager, size)
                print(
                    f"leaderboard top {size}: p50 {statistics.median(t):.3f} ms,"
                    f" p99 {pct(t, 0.99):.3f} ms"
                )
            t = await time_rating(manager, games, actions)
            print(
                f"rate_game ({games} games of {actions} actions, inside the result's"
                f" transaction): p50 {statistics.median(t):.3f} ms, p99 {pct(t, 0.99):.3f} ms"
            )
        finally:
            await manager.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--actions", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    asyncio.run(bench(args.players, args.games, args.actions, args.seed))


if __name__ == "__main__":
    main()
