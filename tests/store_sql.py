"""Plain SQL on a test's database, whichever engine holds it, from synchronous code.

Tests that check rows behind the store's back (an outbox row's nonce, whether a crashed
process marked a row) read them here: a SQLite file through ``sqlite3``, a PostgreSQL
database (a ``postgresql://`` URL, as ``db_path`` gives on that engine) through asyncpg on
a thread of its own, so it may be called while the test's event loop runs. The SQL is
written SQLite-style (``?`` placeholders), as the store's is.
"""

from __future__ import annotations

import asyncio
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import asyncpg

from bot.storage.dialect import to_postgres
from bot.storage.engines import is_postgres_url


async def _pg_rows(url: str, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    conn = await asyncpg.connect(url)
    try:
        return [tuple(r) for r in await conn.fetch(to_postgres(sql), *params)]
    finally:
        await conn.close()


def rows(target: Path | str, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every row ``sql`` returns, as tuples."""
    if is_postgres_url(target):
        with ThreadPoolExecutor(1) as thread:
            return thread.submit(asyncio.run, _pg_rows(str(target), sql, params)).result()
    with sqlite3.connect(target) as db:
        return [tuple(r) for r in db.execute(sql, params).fetchall()]
