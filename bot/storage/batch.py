"""A turn's statements on PostgreSQL in a few round trips.

Each statement sent on its own costs a round trip to the server, and a turn writes a
dozen rows or more (its action, the game, the seats, the outbox, timers, jobs). In a
batched transaction (``Store.transaction(batched=True)``, used by a turn) a statement
that returns nothing (``Session._run``: the game's lock, an update, an insert whose id
nobody asks for, a delete) is not sent at once: it waits, its values written into it as
literals, and the statements waiting go to the server together, as one simple query:

- before a read that names a table one of them writes (or after a statement that
  writes no table it names, such as BEGIN or the game's lock: then before any read), so
  that a read sees the transaction's own writes as it would unbatched;
- before an insert that returns its id, which runs at once after them;
- at COMMIT, which goes with the last of them: BEGIN and the lock go with the first
  read, and every write of the turn with the COMMIT.

Values are written as literals that no value can break out of: text as an escaped
``E'...'`` string (backslash and quote doubled), numbers as numbers, bytes as hex. A
statement with a value of any other type is sent at once, with its parameters.
"""

from __future__ import annotations

import math
import re
from typing import Any

import asyncpg

from bot.storage.dialect import template
from bot.storage.engines import PgConnection, one_round_trip

#: What a change to a table changes besides (PostgreSQL does it for the statement): the
#: trigger that deletes a delivered row's payload (migration 0009) and the foreign keys
#: with ON DELETE CASCADE from ``outbox``. A deleted game cascades to most tables: a
#: statement deleting from ``games`` is sent before any read. Held to the schema by
#: tests/storage/test_store_batch.py.
#: ``games`` has a trigger too (migration 0027), which only notifies the spectator pages
#: and changes no table.
ALSO_CHANGES: dict[str, tuple[str, ...]] = {"outbox": ("outbox_payloads",), "games": ()}

#: Tables whose deletes cascade too widely to follow: sent before any read (a league's
#: delete takes its entrants, rounds, games, byes, audit list, posts and standings).
CASCADES_EVERYWHERE = frozenset({"games", "leagues"})

_WRITE = re.compile(r"^\s*(INSERT|UPDATE|DELETE|WITH)\b", re.IGNORECASE)
_WRITTEN = re.compile(r"\b(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+(\w+)", re.IGNORECASE)


def written_tables(sql: str) -> frozenset[str] | None:
    """The tables the statement changes, with what they change besides; None when that
    cannot be told from its text (BEGIN, a function call such as a lock, a delete that
    cascades widely): then every read waits for it to be sent."""
    if not _WRITE.match(sql):
        return None
    tables: set[str] = set()
    for verb, table in _WRITTEN.findall(sql):
        table = table.lower()
        if table == "set":  # ON CONFLICT ... DO UPDATE SET: the table already counted
            continue
        if verb.upper().startswith("DELETE") and table in CASCADES_EVERYWHERE:
            return None
        tables.add(table)
        tables.update(ALSO_CHANGES.get(table, ()))
    return frozenset(tables) if tables else None


def literal(value: Any) -> str:
    """``value`` as a PostgreSQL literal; TypeError for a type not written so."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        text = repr(value) if math.isfinite(value) else str(value)
        return f"'{text}'::float8"
    if isinstance(value, str):
        if "\x00" in value:
            raise TypeError("PostgreSQL text cannot hold a NUL character")
        return "E'" + value.replace("\\", "\\\\").replace("'", "''") + "'"
    if isinstance(value, bytes | bytearray | memoryview):
        return f"decode('{bytes(value).hex()}', 'hex')"
    raise TypeError(f"no literal for {type(value).__name__}")


def inline(sql: str, params: tuple[Any, ...]) -> str:
    """The statement in PostgreSQL's words with each placeholder (``dialect.template``:
    a ``?`` outside strings, identifiers, comments and dollar quotes) replaced by its
    value's literal; TypeError when a value has none or the counts differ."""
    translated = template(sql)
    if len(params) < translated.placeholders:
        raise TypeError("fewer values than placeholders")
    if len(params) > translated.placeholders:
        raise TypeError("more values than placeholders")
    return translated.fill(literal(value) for value in params)


class BatchedPgConnection(PgConnection):
    """A pooled connection for one batched transaction: writes wait to go together."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        super().__init__(conn)
        self._waiting: list[str] = []
        self._tables: set[str] = set()
        #: A waiting statement changes tables its text does not name: any read sends it.
        self._blind = False
        #: BEGIN went to the server (a ROLLBACK is then owed on failure).
        self._begun = False

    async def begin(self) -> None:
        self._waiting.append("BEGIN")
        self._blind = True

    async def commit(self) -> None:
        if self._begun or len(self._waiting) > 1:
            await self._send("COMMIT")
        self._waiting.clear()

    async def rollback(self) -> None:
        self._waiting.clear()
        if self._begun:
            self._begun = False
            one_round_trip()
            await self.conn.execute("ROLLBACK")

    async def execute(self, sql: str, params: Any = ()) -> None:
        try:
            text = inline(sql, tuple(params))
        except TypeError:
            await self._send()
            await super().execute(sql, params)
            return
        self._waiting.append(text)
        tables = written_tables(sql)
        if tables is None:
            self._blind = True
        else:
            self._tables |= tables

    async def execute_fetchall(self, sql: str, params: Any = ()) -> list[asyncpg.Record]:
        if self._waiting and (self._blind or self._names_a_waiting_table(sql)):
            await self._send()
        return await super().execute_fetchall(sql, params)

    async def execute_insert(self, sql: str, params: Any = ()) -> tuple[int] | None:
        await self._send()
        return await super().execute_insert(sql, params)

    def _names_a_waiting_table(self, sql: str) -> bool:
        words = {w.lower() for w in re.findall(r"\w+", sql)}
        return not words.isdisjoint(self._tables)

    async def _send(self, last: str | None = None) -> None:
        """The waiting statements (and ``last``), as one simple query."""
        script = [*self._waiting, *([last] if last else [])]
        self._waiting.clear()
        self._tables.clear()
        self._blind = False
        if not script:
            return
        if script[0] == "BEGIN":
            self._begun = True
        if last in ("COMMIT", "ROLLBACK"):
            self._begun = False
        one_round_trip()
        try:
            await self.conn.execute(";\n".join(script))
        except Exception as exc:
            if last == "COMMIT":
                self._begun = True  # the failure left the transaction open: roll it back
            raise self._failure(exc) from exc
