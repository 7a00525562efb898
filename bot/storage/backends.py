"""The store's two backends, one seam: how each engine lends a connection to a session,
begins, commits and rolls back a transaction, and closes. ``Store`` speaks to either
through ``Backend`` and never asks which it has.

- ``SqliteBackend``: one aiosqlite connection shared by every coroutine, so an open
  transaction would otherwise swallow another coroutine's writes: the backend's lock
  keeps each session whole (one at a time on it).
- ``PostgresBackend``: an asyncpg pool, so that sessions run side by side, as those of
  several processes do (a game's transactions are kept one at a time by its advisory
  lock, ``Session.lock_game``; claims skip what is locked).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any, Protocol

import aiosqlite
import asyncpg

from bot.storage.batch import BatchedPgConnection
from bot.storage.engines import PgConnection, SqliteConnection
from bot.storage.errors import Busy, Unavailable, classify, connection_lost
from bot.storage.reach import Reach

log = logging.getLogger("dispatch.store")

#: A connection lent to a session, of either engine.
Lent = PgConnection | SqliteConnection
#: BEGIN, COMMIT or ROLLBACK on a lent connection.
Step = Callable[[], Awaitable[Any]]


class Backend(Protocol):
    """What the store needs of an engine, and nothing that names it."""

    @property
    def dialect(self) -> str:
        """ "sqlite" or "postgresql"."""
        ...

    @property
    def networked(self) -> bool:
        """Whether the driver's own failures (BEGIN, COMMIT) that are an ``OSError`` are
        the network's (PostgreSQL) rather than the disk's (SQLite)."""
        ...

    @property
    def sqlite(self) -> aiosqlite.Connection | None:
        """The SQLite file's one connection, for the benches that write it directly;
        None on PostgreSQL."""
        ...

    @property
    def pool(self) -> asyncpg.Pool | None:
        """The PostgreSQL pool, for bulk work that sessions do not speak (``dispatch
        store copy``); None on SQLite, which has none."""
        ...

    def connection(self, batched: bool = False) -> AbstractAsyncContextManager[Lent]:
        """A connection for one session; ``batched``: a turn's writes held back and sent
        together on PostgreSQL (``bot.storage.batch``)."""
        ...

    def transaction_calls(self, conn: Lent) -> tuple[Step, Step, Step]:
        """BEGIN, COMMIT and ROLLBACK on ``conn``."""
        ...

    def commit_lost(self, exc: BaseException) -> bool:
        """Whether COMMIT failed because the connection died on its way: the server may
        have committed, and only a read says (``CommitUnknown``)."""
        ...

    async def pragma(self, name: str) -> Any:
        """A SQLite pragma's value (None on PostgreSQL, which has none)."""
        ...

    async def close(self) -> None: ...


class SqliteBackend:
    """One aiosqlite connection (WAL), one session at a time on it."""

    dialect = "sqlite"
    networked = False
    pool = None

    def __init__(self, db: aiosqlite.Connection, on_close: Callable[[], None]) -> None:
        self.sqlite = db
        self._lock = asyncio.Lock()
        #: Called once the connection is closed (the file's process lock let go).
        self._on_close: Callable[[], None] | None = on_close

    @asynccontextmanager
    async def connection(self, batched: bool = False) -> AsyncIterator[Lent]:
        async with self._lock:
            yield SqliteConnection(self.sqlite)

    def transaction_calls(self, conn: Lent) -> tuple[Step, Step, Step]:
        db = self.sqlite

        async def begin() -> None:
            await db.execute_fetchall("BEGIN IMMEDIATE")

        return begin, db.commit, db.rollback

    def commit_lost(self, exc: BaseException) -> bool:
        # A local file: a failed COMMIT is known not to have happened.
        return False

    async def pragma(self, name: str) -> Any:
        async with self._lock:
            rows = await self.sqlite.execute_fetchall(f"PRAGMA {name}")
        row = next(iter(rows), None)
        return row[0] if row else None

    async def close(self) -> None:
        async with self._lock:
            await self.sqlite.close()
            if self._on_close is not None:
                self._on_close()
                self._on_close = None


class PostgresBackend:
    """An asyncpg pool; a session's connection goes back to it when the session ends."""

    dialect = "postgresql"
    networked = True
    sqlite = None

    def __init__(self, pool: asyncpg.Pool, reach: Reach, wait_s: float) -> None:
        self.pool = pool
        self._reach = reach
        #: How long a session waits for a connection of an exhausted pool.
        self._wait_s = wait_s

    @asynccontextmanager
    async def connection(self, batched: bool = False) -> AsyncIterator[Lent]:
        """A connection of the pool. One whose session failed for a transient fault, or
        was cancelled mid-statement, is closed before it goes back: the pool opens a
        fresh one, and a broken connection is never lent out again ("another operation
        is in progress")."""
        try:
            conn = await self.pool.acquire(timeout=self._wait_s)
        except Exception as exc:
            if classify(exc, networked=True) is None:
                raise
            # Whatever kept us from a connection (the server gone, starting, full; the
            # pool exhausted past its wait), nothing was sent: a transient fault.
            raise self._reach.down(exc) from None
        broken = True
        try:
            yield BatchedPgConnection(conn) if batched else PgConnection(conn)
            broken = False
        except BaseException as exc:
            # Busy: the server answered (a lock, a serialization failure); the
            # connection is sound and goes back.
            broken = isinstance(exc, asyncio.CancelledError | Unavailable) and not isinstance(
                exc, Busy
            )
            raise
        finally:
            if broken:
                # A connection the driver already closed has left the pool by itself.
                with contextlib.suppress(asyncpg.InterfaceError):
                    conn.terminate()
            await self._give_back(conn)

    async def _give_back(self, conn: asyncpg.pool.PoolConnectionProxy) -> None:
        """Return a connection to the pool. One that broke as it came back (the server
        going away just after the session: its reset finds "another operation is in
        progress") is closed by the pool, which opens a fresh one when next asked; the
        session's own work stands, and the next session finds the database as it is."""
        try:
            await self.pool.release(conn)
        except Exception as exc:
            if classify(exc, networked=True) is None:
                raise
            log.debug("a connection broke as it went back to the pool: %r", exc)

    def transaction_calls(self, conn: Lent) -> tuple[Step, Step, Step]:
        assert isinstance(conn, PgConnection), "a pooled connection is PostgreSQL's"
        return conn.begin, conn.commit, conn.rollback

    def commit_lost(self, exc: BaseException) -> bool:
        return connection_lost(exc)

    async def pragma(self, name: str) -> Any:
        return None

    async def close(self) -> None:
        await self.pool.close()  # waits for the connections lent out to come back
