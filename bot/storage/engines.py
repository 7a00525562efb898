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
"""

from __future__ import annotations

import functools
import sqlite3
from typing import Any

import asyncpg

#: The channel PostgreSQL notifies when Dispatch owes a new move (a ``bot_jobs`` row is
#: queued): idle ``dispatch worker``s LISTEN on it and wake at once (issue 25 §4).
JOBS_QUEUED = "dispatch_bot_jobs"
#: The channel a ``dispatch worker`` notifies after a move whose posts it left in the
#: outbox: the bot processes LISTEN on it and deliver them at once, not at their next
#: background pass (which can then be slow: its cost is every process's, every pass).
POSTS_QUEUED = "dispatch_posts"

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


class PgConnection:
    """One pooled asyncpg connection, spoken to like an aiosqlite connection."""

    dialect = "postgresql"

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn

    async def execute_fetchall(self, sql: str, params: Any = ()) -> list[asyncpg.Record]:
        try:
            return list(await self.conn.fetch(to_postgres(sql), *params))
        except Exception as exc:
            raise (translate_error(exc) or exc) from exc

    async def execute_insert(self, sql: str, params: Any = ()) -> tuple[int] | None:
        """Insert one row and return ``(id,)``: every table inserted this way has an
        identity column named ``id``."""
        try:
            row = await self.conn.fetchrow(to_postgres(sql) + " RETURNING id", *params)
        except Exception as exc:
            raise (translate_error(exc) or exc) from exc
        return (int(row[0]),) if row is not None else None

    async def execute(self, sql: str, params: Any = ()) -> None:
        await self.execute_fetchall(sql, params)
