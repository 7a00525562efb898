"""History and records at scale (docs/storage.md), on SQLite and on PostgreSQL: each query of
``/games show:finished``, ``/games show:server``, ``/stats`` and ``/game export game:``
with 10,000 finished games on one server, 1,000 of them one player's.

    .venv/bin/python bench/bench_history.py [--finished 10000] [--repeats 200]
    DISPATCH_TEST_POSTGRES=postgresql://postgres@127.0.0.1:55499/postgres \
        .venv/bin/python bench/bench_history.py

Fills each store with the same rows (tests/scale_fill.py: portable set-based SQL, the
shape the query-plan tests use: every game on the server "bench", the player "regular"
in every tenth game, Dispatch at normal in half of them), then times each call through
the ``GameManager`` (p50 and p99 in ms), each query alone, and prints each query's plan.
SQLite always; PostgreSQL too when ``DISPATCH_TEST_POSTGRES`` names a server (a fresh
database is made there and dropped after).

Not a test: it asserts nothing and prints figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import asyncpg

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.bench_store_scale import pct  # noqa: E402
from bot.delivery.port import NullFrontEnd  # noqa: E402
from bot.storage.dialect import to_postgres  # noqa: E402
from bot.storage.engines import PgConnection  # noqa: E402
from bot.storage.finished_pages import HISTORY_QUERIES  # noqa: E402
from bot.storage.store import Store  # noqa: E402
from bot.tables.manager import GameManager  # noqa: E402
from tests.scale_fill import DISPATCH, PLAYER, SERVER, Shape, fill  # noqa: E402

POSTGRES_ENV = "DISPATCH_TEST_POSTGRES"


async def timed(call: Callable[[], Awaitable[Any]], repeats: int) -> tuple[float, float]:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        await call()
        times.append((time.perf_counter() - t0) * 1000)
    return pct(times, 0.5), pct(times, 0.99)


def real(params: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(PLAYER if p == "u" else SERVER if p == "g" else p for p in params)


def _pg_nodes(node: dict[str, Any]) -> list[str]:
    here = node["Node Type"]
    if "Relation Name" in node:
        here += f" {node['Relation Name']}"
    if "Index Name" in node:
        here += f" ({node['Index Name']})"
    found = [here] if "Relation Name" in node or "Index Name" in node else []
    for child in node.get("Plans", ()):
        found += _pg_nodes(child)
    return found


async def plans(manager: GameManager) -> list[str]:
    lines = []
    async with manager.store.read() as db:
        for name, (sql, params) in HISTORY_QUERIES.items():
            if db.dialect == "postgresql":
                assert isinstance(db.db, PgConnection)
                conn = db.db.conn
                [(text,)] = await conn.fetch(
                    "EXPLAIN (FORMAT JSON) " + to_postgres(sql), *real(params)
                )
                plan = " / ".join(_pg_nodes(json.loads(text)[0]["Plan"]))
            else:
                rows = await db.db.execute_fetchall("EXPLAIN QUERY PLAN " + sql, real(params))
                plan = " / ".join(str(r[3]) for r in rows)
            lines.append(f"  {name:26} {plan}")
    return lines


async def query_times(manager: GameManager, repeats: int) -> list[str]:
    """Each query alone, as SQL, for the player with 1,000 games or the server."""
    lines = []
    for name, (sql, params) in HISTORY_QUERIES.items():

        async def run(sql: str = sql, params: tuple[Any, ...] = real(params)) -> None:
            async with manager.store.read() as db:
                await db.db.execute_fetchall(sql, params)

        p50, p99 = await timed(run, repeats)
        lines.append(f"  {name:40} p50 {p50:7.2f}   p99 {p99:7.2f}")
    return lines


async def calls(manager: GameManager) -> dict[str, Callable[[], Awaitable[Any]]]:
    mine = await manager.records.finished_page("mine", PLAYER)
    middle = mine.finished()[-1].id
    for _ in range(40):  # about 400 games in: a deep page
        page = await manager.records.finished_page("mine", PLAYER, key=middle)
        middle = page.older or middle
    server = await manager.records.finished_page("server", SERVER)
    deep = server.finished()[-1].id // 2
    game = mine.finished()[0].id
    return {
        "/games show:finished, first page": lambda: manager.records.finished_page("mine", PLAYER),
        "/games show:finished, page 41 (Next)": lambda: manager.records.finished_page(
            "mine", PLAYER, key=middle
        ),
        "/games show:finished, Previous": lambda: manager.records.finished_page(
            "mine", PLAYER, older=False, key=middle
        ),
        "/games show:server, first page": lambda: manager.records.finished_page("server", SERVER),
        "/games show:server, page in the middle": lambda: manager.records.finished_page(
            "server", SERVER, key=deep
        ),
        "/stats (1,000 games)": lambda: manager.records.stats(PLAYER),
        "/stats game:war": lambda: manager.records.stats(PLAYER, "war"),
        "/stats Dispatch (half the games)": lambda: manager.records.stats(DISPATCH),
        "/game export game: (check + export)": lambda: manager.records.export_finished(
            game, PLAYER, None
        ),
    }


async def bench_store(target: Path | str, label: str, shape: Shape, repeats: int) -> None:
    store = await Store.open(target)
    try:
        t0 = time.perf_counter()
        await fill(store, shape)
        print(
            f"== {label}: filled with {shape.finished} finished games in "
            f"{time.perf_counter() - t0:.1f} s"
        )
    finally:
        await store.close()
    # deliver=False: the filled rows waiting in the outbox are for the query plans.
    manager = await GameManager.open(target, NullFrontEnd(), deliver=False)
    try:
        stats = await manager.records.stats(PLAYER)
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


async def on_postgres(url: str, shape: Shape, repeats: int) -> None:
    """The bench on a fresh database of the server ``url`` names, dropped after."""
    name = f"bench_history_{os.getpid()}"
    base = url.rstrip("/").rpartition("/")[0]
    admin = await asyncpg.connect(url)
    try:
        await admin.execute(f"DROP DATABASE IF EXISTS {name}")
        await admin.execute(f"CREATE DATABASE {name}")
        try:
            await bench_store(f"{base}/{name}", "PostgreSQL", shape, repeats)
        finally:
            await admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    finally:
        await admin.close()


async def bench(finished: int, repeats: int) -> None:
    shape = Shape(finished=finished)
    with tempfile.TemporaryDirectory() as tmp:
        await bench_store(Path(tmp) / "big.sqlite3", "SQLite", shape, repeats)
    url = os.environ.get(POSTGRES_ENV)
    if url:
        await on_postgres(url, shape, repeats)
    else:
        print(f"(PostgreSQL: set {POSTGRES_ENV}=postgresql://... to run it there too)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--finished", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=200)
    args = parser.parse_args()
    asyncio.run(bench(args.finished, args.repeats))


if __name__ == "__main__":
    main()
