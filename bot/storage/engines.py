"""The two engines under the store: SQLite (aiosqlite, the default) and PostgreSQL (asyncpg).

``Session`` writes its SQL once, SQLite-style (``?`` placeholders, portable statements),
and runs it on a connection object with aiosqlite's three calls (``execute_fetchall``,
``execute_insert``, ``execute``). For SQLite that object is the aiosqlite connection
itself; for PostgreSQL it is ``PgConnection`` below, which translates each statement once
(``bot.storage.dialect``: ``?`` → ``$n``, cached) and returns asyncpg records, which read
like aiosqlite's rows (``row["column"]``, ``row[0]``, unpacking).

Errors: asyncpg's failures are raised as the store's own (``bot.storage.errors``: a lost
connection as ``Unavailable``, a refused constraint as ``Conflict``...), so nothing above
the store needs the driver's exception names.

Round trips: each call that waits for the server's answer is counted while a
``counting_round_trips()`` block runs (tests and benches hold a turn to a few); a turn's
transaction holds its writes back and sends them together (``bot.storage.batch``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import sqlite3
from collections.abc import Iterable, Iterator
from contextvars import ContextVar
from typing import Any

import aiosqlite
import asyncpg

from bot.storage.dialect import insert_returning_id, to_postgres
from bot.storage.errors import Unavailable, classify

#: The channel PostgreSQL notifies when Dispatch owes a new move (a ``bot_jobs`` row is
#: queued): idle ``dispatch worker``s LISTEN on it and wake at once.
JOBS_QUEUED = "dispatch_bot_jobs"
#: The channel a ``dispatch worker`` notifies after a move whose posts it left in the
#: outbox: the bot processes LISTEN on it and deliver them at once, not at their next
#: background pass (which can then be slow: its cost is every process's, every pass).
POSTS_QUEUED = "dispatch_posts"


def is_postgres_url(target: object) -> bool:
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


@dataclasses.dataclass
class RoundTrips:
    """How many times the code counted waited for PostgreSQL's answer."""

    count: int = 0


_TALLY: ContextVar[RoundTrips | None] = ContextVar("dispatch_pg_round_trips", default=None)


@contextlib.contextmanager
def counting_round_trips() -> Iterator[RoundTrips]:
    """Count the round trips to PostgreSQL made by this task (and the tasks it starts)
    while the block runs: each statement or batch of statements sent, BEGIN and COMMIT.
    For tests and benches; nothing is counted outside such a block."""
    tally = RoundTrips()
    token = _TALLY.set(tally)
    try:
        yield tally
    finally:
        _TALLY.reset(token)


def one_round_trip() -> None:
    tally = _TALLY.get()
    if tally is not None:
        tally.count += 1


class PgConnection:
    """One pooled asyncpg connection, spoken to like an aiosqlite connection."""

    dialect = "postgresql"

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn
        self._transaction: asyncpg.transaction.Transaction | None = None

    async def begin(self) -> None:
        self._transaction = self.conn.transaction()
        one_round_trip()
        await self._transaction.start()

    async def commit(self) -> None:
        assert self._transaction is not None
        one_round_trip()
        await self._transaction.commit()

    async def rollback(self) -> None:
        assert self._transaction is not None
        one_round_trip()
        await self._transaction.rollback()

    async def execute_fetchall(self, sql: str, params: Any = ()) -> list[asyncpg.Record]:
        one_round_trip()
        try:
            return list(await self.conn.fetch(to_postgres(sql), *params))
        except Exception as exc:
            raise self._failure(exc) from exc

    async def execute_insert(self, sql: str, params: Any = ()) -> tuple[int] | None:
        """Insert one row and return ``(id,)``: the id the database gave it, for a table
        with an identity column named ``id`` (``dialect.insert_returning_id``)."""
        one_round_trip()
        try:
            row = await self.conn.fetchrow(insert_returning_id(sql), *params)
        except Exception as exc:
            raise self._failure(exc) from exc
        return (int(row[0]),) if row is not None else None

    async def execute(self, sql: str, params: Any = ()) -> None:
        """A statement whose rows, if any, nobody reads."""
        await self.execute_fetchall(sql, params)

    def _failure(self, exc: Exception) -> Exception:
        """The store's error for a statement's failure. Whatever the driver raised once
        its connection is gone (a lost connection can surface as an odd error of its
        own) is the database out of reach, never a bug of ours or the rules'."""
        failure = classify(exc, networked=True)
        if failure is not None:
            return failure
        try:
            gone = self.conn.is_closed()
        except asyncpg.InterfaceError:  # already handed back: gone for this session
            gone = True
        return Unavailable() if gone else exc


class SqliteConnection:
    """The aiosqlite connection with its failures as the store's own errors, as
    ``PgConnection``'s are: a caller above the store never meets ``sqlite3``'s classes."""

    dialect = "sqlite"

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def execute_fetchall(self, sql: str, params: Any = ()) -> Iterable[aiosqlite.Row]:
        try:
            return await self.conn.execute_fetchall(sql, params)
        except sqlite3.Error as exc:
            raise (classify(exc) or exc) from exc

    async def execute_insert(self, sql: str, params: Any = ()) -> aiosqlite.Row | None:
        try:
            return await self.conn.execute_insert(sql, params)
        except sqlite3.Error as exc:
            raise (classify(exc) or exc) from exc

    async def execute(self, sql: str, params: Any = ()) -> None:
        await self.execute_fetchall(sql, params)
