"""The two engines under the store: SQLite (aiosqlite, the default) and PostgreSQL (asyncpg).

``Session`` writes its SQL once, SQLite-style (``?`` placeholders, portable statements),
and runs it on a connection object with aiosqlite's three calls (``execute_fetchall``,
``execute_insert``, ``execute``). For SQLite that object is the aiosqlite connection
itself; for PostgreSQL it is ``PgConnection`` below, which translates each statement once
(``?`` → ``$n``, cached) and returns asyncpg records, which read like aiosqlite's rows
(``row["column"]``, ``row[0]``, unpacking).

Errors: PostgreSQL's failures are raised as the DB-API classes of ``sqlite3`` (a refused
constraint as ``IntegrityError``, anything else as ``OperationalError``), so the store's
callers handle one hierarchy whichever engine runs.

Round trips: each call that waits for the server's answer is counted while a
``counting_round_trips()`` block runs (tests and benches hold a turn to a few); a turn's
transaction holds its writes back and sends them together (``bot.storage.batch``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import sqlite3
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Any

import asyncpg

#: The channel PostgreSQL notifies when Dispatch owes a new move (a ``bot_jobs`` row is
#: queued): idle ``dispatch worker``s LISTEN on it and wake at once (issue 25 §4).
JOBS_QUEUED = "dispatch_bot_jobs"

#: The few SQLite function names without a portable spelling, and PostgreSQL's.
_REWRITES = (("group_concat(", "string_agg("), ("char(10)", "chr(10)"))


def is_postgres_url(target: object) -> bool:
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


@functools.lru_cache(maxsize=2048)
def to_postgres(sql: str) -> str:
    """The statement with ``$1, $2...`` for its ``?`` (never inside a quoted literal)."""
    for old, new in _REWRITES:
        sql = sql.replace(old, new)
    out: list[str] = []
    n = 0
    quoted = False
    for ch in sql:
        if ch == "'":
            quoted = not quoted
        if ch == "?" and not quoted:
            n += 1
            out.append(f"${n}")
        else:
            out.append(ch)
    return "".join(out)


class IntegrityError(sqlite3.IntegrityError):
    """PostgreSQL refused a row for a constraint (a unique index, a foreign key...)."""


class OperationalError(sqlite3.OperationalError):
    """PostgreSQL failed a statement, or the server could not be reached."""


def translate_error(exc: BaseException) -> BaseException | None:
    """The ``sqlite3``-class error for an asyncpg failure (None: not a database failure)."""
    if isinstance(exc, asyncpg.IntegrityConstraintViolationError):
        return IntegrityError(str(exc))
    if isinstance(exc, asyncpg.PostgresError | asyncpg.InterfaceError | OSError):
        return OperationalError(str(exc))
    return None


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
            raise (translate_error(exc) or exc) from exc

    async def execute_insert(self, sql: str, params: Any = ()) -> tuple[int] | None:
        """Insert one row and return ``(id,)``: every table inserted this way has an
        identity column named ``id``."""
        one_round_trip()
        try:
            row = await self.conn.fetchrow(to_postgres(sql) + " RETURNING id", *params)
        except Exception as exc:
            raise (translate_error(exc) or exc) from exc
        return (int(row[0]),) if row is not None else None

    async def execute(self, sql: str, params: Any = ()) -> None:
        """A statement whose rows, if any, nobody reads."""
        await self.execute_fetchall(sql, params)
