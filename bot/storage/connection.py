"""What a session speaks to: one connection of either engine, seen through the same three
calls (``bot.storage.engines``: ``SqliteConnection``, ``PgConnection`` and its batched
kind), so that every statement group is typed against this and never names an engine."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Protocol


class Row(Protocol):
    """A row as both engines return it: read by column name or position, unpacked.

    Its values are whatever the column holds (text, number, NULL): the readers in
    ``bot.storage.rows`` turn them into typed rows."""

    def __getitem__(self, key: int | str, /) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...

    def __len__(self) -> int: ...


class Connection(Protocol):
    """One engine's connection for the length of a session, its failures raised as the
    store's own errors (``bot.storage.errors``)."""

    @property
    def dialect(self) -> str:
        """ "sqlite" or "postgresql", for the few statements that differ."""
        ...

    async def execute_fetchall(self, sql: str, params: Iterable[object] = ()) -> Iterable[Row]:
        """Run one statement (SQLite-style, ``?`` placeholders) and return its rows."""
        ...

    async def execute_insert(self, sql: str, params: Iterable[object] = ()) -> Sequence[Any] | None:
        """Insert one row and return ``(id,)``."""
        ...

    async def execute(self, sql: str, params: Iterable[object] = ()) -> None:
        """A statement whose rows, if any, nobody reads (on PostgreSQL, in a batched
        transaction, it may wait to be sent with the next ones: ``bot.storage.batch``)."""
        ...
