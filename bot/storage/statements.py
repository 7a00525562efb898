"""What every group of the store's statements runs on: the session's connection, its
dialect and its one clock reading, and the four ways to send a statement."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import aiosqlite

from bot.storage.engines import PgConnection, SqliteConnection


class Statements:
    """A session's connection and clock; the statements themselves are in the groups that
    make up ``bot.storage.session.Session``."""

    def __init__(self, db: aiosqlite.Connection | PgConnection, now: float) -> None:
        #: The connection, either engine's spoken to with the same three calls, and its
        #: failures raised as the store's own errors (``bot.storage.errors``).
        self.db: PgConnection | SqliteConnection = (
            db if isinstance(db, PgConnection) else SqliteConnection(db)
        )
        #: "sqlite" or "postgresql", for the few statements that differ.
        self.dialect: str = self.db.dialect
        #: One clock reading per session keeps the rows of one transaction consistent.
        self.now = now

    # Each helper is one trip to the connection's thread (a cursor's execute, fetch and
    # close would be three): an action runs a dozen statements.
    async def _one(self, sql: str, params: Iterable[Any] = ()) -> aiosqlite.Row | None:
        rows = await self.db.execute_fetchall(sql, tuple(params))
        return next(iter(rows), None)

    async def _all(self, sql: str, params: Iterable[Any] = ()) -> list[aiosqlite.Row]:
        return list(await self.db.execute_fetchall(sql, tuple(params)))

    async def _run(self, sql: str, params: Iterable[Any] = ()) -> None:
        if isinstance(self.db, PgConnection):
            # In a batched transaction it may wait to go with the next ones (bot.storage.batch).
            await self.db.execute(sql, tuple(params))
        else:
            await self.db.execute_fetchall(sql, tuple(params))

    async def _insert(self, sql: str, params: Iterable[Any] = ()) -> int:
        row = await self.db.execute_insert(sql, tuple(params))
        return int(row[0]) if row else 0
