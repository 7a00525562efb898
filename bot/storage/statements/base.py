"""What every group of the store's statements runs on: the session's connection, its
dialect and its one clock reading, and the four ways to send a statement."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from bot.storage.connection import Connection, Row


class SessionContext(NamedTuple):
    """What a session's groups share, one object for all of them: each group reads it
    and none keeps a copy of its own (immutable, and quick to make: one per session)."""

    #: The connection, either engine's spoken to with the same three calls, and its
    #: failures raised as the store's own errors (``bot.storage.errors``).
    db: Connection
    #: One clock reading per session keeps the rows of one transaction consistent.
    now: float


class Statements:
    """A group of statements on a session's connection and clock; ``Session`` holds one
    of each group (``bot.storage.session``)."""

    __slots__ = ("_context",)

    def __init__(self, context: SessionContext) -> None:
        self._context = context

    @property
    def db(self) -> Connection:
        return self._context.db

    @property
    def dialect(self) -> str:
        """ "sqlite" or "postgresql", for the few statements that differ."""
        return self._context.db.dialect

    @property
    def now(self) -> float:
        return self._context.now

    # Each helper is one trip to the connection's thread (a cursor's execute, fetch and
    # close would be three): an action runs a dozen statements.
    async def _one(self, sql: str, params: Iterable[object] = ()) -> Row | None:
        rows = await self._context.db.execute_fetchall(sql, tuple(params))
        return next(iter(rows), None)

    async def _all(self, sql: str, params: Iterable[object] = ()) -> list[Row]:
        return list(await self._context.db.execute_fetchall(sql, tuple(params)))

    async def _run(self, sql: str, params: Iterable[object] = ()) -> None:
        # On PostgreSQL, in a batched transaction it may wait to go with the next ones
        # (bot.storage.batch); on SQLite it runs at once.
        await self._context.db.execute(sql, tuple(params))

    async def _insert(self, sql: str, params: Iterable[object] = ()) -> int:
        row = await self._context.db.execute_insert(sql, tuple(params))
        return int(row[0]) if row else 0

    def _skip_locked(self) -> str:
        """What a claim's sub-select adds on PostgreSQL, so that several processes
        claiming at once each skip the rows another is taking."""
        return " FOR UPDATE SKIP LOCKED" if self.dialect == "postgresql" else ""
