"""Seats that change hands (docs/discord.md) in a store of 10,000 finished games.

    .venv/bin/python bench/bench_seats.py [--finished 10000] [--changes 20]

Builds the store as ``bench_store_scale.py`` does (a few played games copied up to
``--finished``), gives every finished game a seat change and an answered offer (so those
tables are as full as the games table), then on live games of War measures, p50 and p99:
an offer and its acceptance (the change, its notice and the new holder's DM committed
and delivered to a null front end), a hand-over to Dispatch, and the refusal of the old
holder's stale click (``SeatPassed``, from the ``seat_changes`` index). Prints the plans
of the seat queries.

Not a test: it asserts nothing and prints figures.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.bench_store_scale import grow, new_game, pct, play_games  # noqa: E402
from bot import errors  # noqa: E402
from bot.delivery.port import NullFrontEnd  # noqa: E402
from bot.dispatch_players.bots import BotSeats  # noqa: E402
from bot.storage.queries import SEAT_QUERIES  # noqa: E402
from bot.tables.manager import GameManager  # noqa: E402
from bot.tables.requests import Move  # noqa: E402


async def fill_seat_rows(manager: GameManager) -> None:
    """One seat change and one answered offer per finished game."""
    db = manager.store.backend.sqlite  # a benchmark may reach in: plain SQL is fastest
    assert db is not None
    await db.execute(
        "INSERT INTO seat_changes (game_id, role, from_user, to_user, by_user, how,"
        " at_version, at) SELECT game_id, role, 'old-' || user_id, user_id, 'mod', 'reseat',"
        " 0, 0 FROM seats"
    )
    await db.execute(
        "INSERT INTO seat_offers (game_id, role, from_user, to_user, at_version, created_at,"
        " expires_at, status) SELECT game_id, role, user_id, 'x', 0, 0, 0, 'declined'"
        " FROM seats"
    )
    await db.commit()
    await db.execute("ANALYZE")


def ms(t0: float) -> float:
    return (time.perf_counter() - t0) * 1000


async def measure(manager: GameManager, changes: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {"offer+accept": [], "stale click": [], "hand-over": []}
    for i in range(changes):
        gid = await new_game(manager, "war", 800_000 + i)
        t0 = time.perf_counter()
        offer = await manager.seat_changes.offer(gid, f"u{800_000 + i}a", f"new{i}")
        await manager.seat_changes.answer(gid, offer.id, f"new{i}", accept=True)
        times["offer+accept"].append(ms(t0))
        t0 = time.perf_counter()
        try:
            await manager.act(gid, f"u{800_000 + i}a", Move("pass", None, 0))
        except errors.SeatPassed:
            times["stale click"].append(ms(t0))
        t0 = time.perf_counter()
        await manager.seat_changes.hand_over(gid, f"u{800_000 + i}b", "easy")
        times["hand-over"].append(ms(t0))
        # Only the commit is timed, not the bot: its moves are switched off by hand.
        BotSeats.of(manager).nudge = lambda game_id: None  # type: ignore[method-assign]
    return times


async def plans(manager: GameManager) -> list[str]:
    lines = []
    async with manager.store.read() as db:
        for name, (sql, params) in SEAT_QUERIES.items():
            rows = await db._all("EXPLAIN QUERY PLAN " + sql, params)
            lines.append(f"{name}: " + "; ".join(str(r[3]) for r in rows))
    return lines


async def bench(finished: int, changes: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "seats.sqlite3"
        manager = await GameManager.open(path, NullFrontEnd())
        BotSeats.attach(manager, workers="thread").nudge = lambda game_id: None  # type: ignore[method-assign]
        try:
            played = await play_games(manager, 4, random.Random(1))
            await grow(manager, played, finished)
            await fill_seat_rows(manager)
            times = await measure(manager, changes)
            print(f"store: {finished:,} finished games, each with a seat change and an offer")
            for what, values in times.items():
                print(
                    f"{what:>13}: p50 {pct(values, 0.5):6.2f} ms  p99 {pct(values, 0.99):6.2f} ms"
                )
            for line in await plans(manager):
                print("  plan", line)
        finally:
            await manager.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--finished", type=int, default=10_000)
    parser.add_argument("--changes", type=int, default=20)
    args = parser.parse_args()
    asyncio.run(bench(args.finished, args.changes))


if __name__ == "__main__":
    main()
