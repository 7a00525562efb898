"""A SQLite store's tables copied into a PostgreSQL store (``dispatch store copy``): the
drivers' part of it, below the command (``bot.tables.store_copy``), which checks the copy
by replaying every game.

The SQLite file is read in one read transaction (a consistent snapshot, even while the bot
still runs on it: WAL readers never block its writer and see one moment). The target must
be an empty, migrated PostgreSQL database; a target that already holds a game is refused.
Every table is written with PostgreSQL's COPY, in one transaction, then the identity
sequences are moved past the copied ids.
"""

from __future__ import annotations

from pathlib import Path

import aiosqlite
import asyncpg

from bot.storage.store import Store

#: Copied first (others refer to them), and last.
FIRST = ("games",)
LAST = ("outbox_payloads",)
SKIP = {"schema_migrations", "sqlite_sequence"}


class CopyRefused(Exception):
    """The copy cannot start; ``str()`` is one line for an administrator."""


async def copy_tables(source: Path, target: Store) -> dict[str, int]:
    """Copy every table of ``source`` (a SQLite file) into ``target`` (a PostgreSQL
    store); the rows copied, by table, in the order copied."""
    copied: dict[str, int] = {}
    async with target.bulk_connection() as conn:
        if await conn.fetchval("SELECT EXISTS (SELECT 1 FROM games)"):
            raise CopyRefused("the PostgreSQL database already holds games: copy into an empty one")
        have = {int(r[0]) for r in await conn.fetch("SELECT version FROM schema_migrations")}
        uri = f"file:{source}?mode=ro"
        async with aiosqlite.connect(uri, uri=True, isolation_level=None) as src:
            await src.execute("BEGIN")  # one snapshot for every table
            missing = have - await _versions(src)
            if missing:
                raise CopyRefused(
                    "the SQLite file is older than this Dispatch: start the bot on it "
                    "once (it migrates), then copy"
                )
            async with conn.transaction():
                for table in await _source_tables(src):
                    copied[table] = await _copy_table(src, conn, table)
                await _reset_sequences(conn)
            await src.execute("ROLLBACK")
    return copied


async def _source_tables(src: aiosqlite.Connection) -> list[str]:
    rows = await src.execute_fetchall(
        "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
    )
    names = [str(r[0]) for r in rows if str(r[0]) not in SKIP]
    middle = [n for n in names if n not in FIRST and n not in LAST]
    return [n for n in FIRST if n in names] + middle + [n for n in LAST if n in names]


async def _versions(src: aiosqlite.Connection) -> set[int]:
    rows = await src.execute_fetchall("SELECT version FROM schema_migrations")
    return {int(r[0]) for r in rows}


async def _copy_table(src: aiosqlite.Connection, conn: asyncpg.Connection, table: str) -> int:
    target_columns = {
        str(r[0])
        for r in await conn.fetch(
            "SELECT column_name FROM information_schema.columns WHERE table_name = $1", table
        )
    }
    if not target_columns:
        raise CopyRefused(f"table {table} is not in the PostgreSQL schema")
    cursor = await src.execute(f"SELECT * FROM {table}")
    columns = [d[0] for d in cursor.description if d[0] in target_columns]
    keep = [i for i, d in enumerate(cursor.description) if d[0] in target_columns]
    count = 0
    while batch := await cursor.fetchmany(2000):
        records = [tuple(row[i] for i in keep) for row in batch]
        await conn.copy_records_to_table(table, records=records, columns=columns)
        count += len(records)
    await cursor.close()
    return count


async def _reset_sequences(conn: asyncpg.Connection) -> None:
    rows = await conn.fetch(
        "SELECT table_name FROM information_schema.columns"
        " WHERE column_name = 'id' AND is_identity = 'YES' AND table_schema = current_schema()"
    )
    for r in rows:
        table = str(r[0])
        await conn.execute(
            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
            f" COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
        )
