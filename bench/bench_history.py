"""History and records at scale (issue 26 §3): each query of ``/games show:finished``,
``/games show:server``, ``/stats`` and ``/game export game:`` with 10,000 finished games
on one server, 1,000 of them one player's.

    .venv/bin/python bench/bench_history.py [--finished 10000] [--repeats 200]

Grows the store as ``bench_store_scale.py`` does (whole random games of each registered
game, then copies of their rows; the player "regular" sits in the first 1,000, Dispatch
at normal in the others, all on the server "bench"), then times each call through the
``GameManager`` (p50 and p99 in ms) and prints each query's plan.

Not a test: it asserts nothing and prints figures.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_store_scale import grow, pct  # noqa: E402

from bot.delivery.port import NullFrontEnd  # noqa: E402
from bot.storage.history import HISTORY_QUERIES  # noqa: E402
from bot.tables.bot_users import bot_user  # noqa: E402
from bot.tables.manager import GameManager  # noqa: E402

PLAYER = "regular"
SERVER = "bench"


async def timed(call: Callable[[], Awaitable[Any]], repeats: int) -> tuple[float, float]:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        await call()
        times.append((time.perf_counter() - t0) * 1000)
    return pct(times, 0.5), pct(times, 0.99)


def real(params: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(PLAYER if p == "u" else SERVER if p == "g" else p for p in params)


async def plans(manager: GameManager) -> list[str]:
    lines = []
    for name, (sql, params) in HISTORY_QUERIES.items():
        async with manager.store._db.execute("EXPLAIN QUERY PLAN " + sql, real(params)) as cur:
            plan = " / ".join(r[3] for r in await cur.fetchall())
        lines.append(f"  {name:26} {plan}")
    return lines


async def query_times(manager: GameManager, repeats: int) -> list[str]:
    """Each query alone, as SQL, for the player with 1,000 games or the server."""
    lines = []
    db = manager.store._db
    for name, (sql, params) in HISTORY_QUERIES.items():

        async def run(sql: str = sql, params: tuple[Any, ...] = real(params)) -> None:
            await db.execute_fetchall(sql, params)

        p50, p99 = await timed(run, repeats)
        lines.append(f"  {name:40} p50 {p50:7.2f}   p99 {p99:7.2f}")
    return lines


async def calls(manager: GameManager) -> dict[str, Callable[[], Awaitable[Any]]]:
    mine = await manager.finished_page("mine", PLAYER)
    middle = mine.games[-1].id
    for _ in range(40):  # about 400 games in: a deep page
        page = await manager.finished_page("mine", PLAYER, key=middle)
        middle = page.older or middle
    server = await manager.finished_page("server", SERVER)
    deep = server.games[-1].id // 2
    game = mine.games[0].id
    return {
        "/games show:finished, first page": lambda: manager.finished_page("mine", PLAYER),
        "/games show:finished, page 41 (Next)": lambda: manager.finished_page(
            "mine", PLAYER, key=middle
        ),
        "/games show:finished, Previous": lambda: manager.finished_page(
            "mine", PLAYER, older=False, key=middle
        ),
        "/games show:server, first page": lambda: manager.finished_page("server", SERVER),
        "/games show:server, page in the middle": lambda: manager.finished_page(
            "server", SERVER, key=deep
        ),
        "/stats (1,000 games)": lambda: manager.stats(PLAYER),
        "/stats game:war": lambda: manager.stats(PLAYER, "war"),
        "/stats Dispatch (9,000 games)": lambda: manager.stats(bot_user("normal")),
        "/game export game: (check + export)": lambda: manager.export_finished(game, PLAYER, None),
    }


async def bench(finished: int, repeats: int, seed: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        manager = await GameManager.open(Path(tmp) / "big.sqlite3", NullFrontEnd())
        try:
            t0 = time.perf_counter()
            await grow(manager, finished, random.Random(seed))
            print(f"store grown to {finished} finished games in {time.perf_counter() - t0:.0f} s")
            stats = await manager.stats(PLAYER)
            print(f"{PLAYER}: {stats.games} finished games, {stats.turns} turns timed")
            print(f"each call through the GameManager over {repeats} calls (ms):")
            for name, call in (await calls(manager)).items():
                p50, p99 = await timed(call, repeats)
                print(f"  {name:40} p50 {p50:7.2f}   p99 {p99:7.2f}")
            print(f"each query alone over {repeats} calls (ms):")
            print("\n".join(await query_times(manager, repeats)))
            print("query plans:")
            print("\n".join(await plans(manager)))
        finally:
            await manager.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--finished", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    asyncio.run(bench(args.finished, args.repeats, args.seed))


if __name__ == "__main__":
    main()
