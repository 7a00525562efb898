"""The store opened for reading only, for the spectator page (``bot.web``): whatever runs
there, a bug or a crafted request, cannot change a game.

- SQLite: the file opened with ``mode=ro`` (SQLite refuses every write on that
  connection). It takes no ``ProcessLock`` and runs no migration, so ``dispatch web`` may
  read the file beside the bot that owns it (WAL lets a reader read while the bot writes).
- PostgreSQL: a pool whose connections start with ``default_transaction_read_only``,
  so every statement runs in a read-only transaction; no migration either (the bot's
  processes migrate).

Only ``Store.read()`` is of use on such a store: a write is refused by the database
itself, raised as the store's ``Refused``.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

import aiosqlite
import asyncpg

from bot.storage.backends import PostgresBackend, SqliteBackend
from bot.storage.engines import is_postgres_url
from bot.storage.reach import Reach
from bot.storage.store import BUSY_TIMEOUT_MS, POOL_WAIT_S, Store, StoreUnavailable

#: Connections the page keeps to PostgreSQL at most: its reads are short, and a page's
#: many spectators share one read per turn (``bot.web.reading``).
READ_POOL_SIZE = 4


async def open_read_only(target: Path | str, clock: Callable[[], float] = time.time) -> Store:
    """A store on ``target`` (a SQLite file or a ``postgresql://`` URL) that cannot write."""
    if is_postgres_url(target):
        url = str(target)
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=0,
                max_size=READ_POOL_SIZE,
                command_timeout=60,
                server_settings={"default_transaction_read_only": "on"},
            )
        except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, ValueError) as exc:
            where = url.partition("@")[2] or url  # never the password
            raise StoreUnavailable(where, f"PostgreSQL refused it ({exc})") from None
        reach = Reach()
        return Store(PostgresBackend(pool, reach, POOL_WAIT_S), url, clock, reach)
    path = Path(target)
    if not path.is_file():
        raise StoreUnavailable(path, "there is no such file (start the bot once to create it)")
    try:
        db = await aiosqlite.connect(
            f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None
        )
    except sqlite3.Error as exc:
        raise StoreUnavailable(path, f"it cannot be read ({exc})") from None
    db.row_factory = aiosqlite.Row
    try:
        await db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        await db.execute_fetchall("SELECT COUNT(*) FROM web_links")
    except sqlite3.Error as exc:
        await db.close()
        raise StoreUnavailable(path, f"it cannot be read, or predates the page ({exc})") from None
    return Store(SqliteBackend(db, lambda: None), path, clock, Reach())
