"""Numbered SQL migrations: ``bot/storage/migrations/NNNN_name.sql``, applied in order, once.

The applied versions are recorded in ``schema_migrations``; running again applies only
the files not recorded there, so it is safe on every start-up (and a migration numbered
below one already applied, as when two lines of work each added one, is still applied).
Each file runs in its own transaction together with its bookkeeping row, so a failed
migration leaves the schema as it was.

One set of files serves both engines: a migration is written in SQL that SQLite and
PostgreSQL both accept, read on PostgreSQL through ``dialect.migration_in_postgresql_words``
(SQLite's ``INTEGER`` and ``REAL`` at their widths, ``INTEGER PRIMARY KEY AUTOINCREMENT``
as an identity column, ``WITHOUT ROWID`` dropped). Where no such translation can serve (a
SQLite trigger, SQLite's JSON functions), a twin named ``NNNN_name.postgresql.sql`` holds
the same change in PostgreSQL's words and replaces the file on PostgreSQL. New migrations
are portable and need no twin. On PostgreSQL the migrations of several processes starting
together are serialised by an advisory lock.
"""

from __future__ import annotations

import logging
import re
import time
from dataclasses import dataclass
from pathlib import Path

import aiosqlite
import asyncpg

from bot.storage.dialect import migration_in_postgresql_words

log = logging.getLogger("dispatch.migrate")

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
_NAME = re.compile(r"^(\d{4})_([\w-]+)\.sql$")
_TWIN = re.compile(r"^(\d{4})_([\w-]+)\.postgresql\.sql$")
#: The advisory lock key that serialises migrations on PostgreSQL.
MIGRATION_LOCK = 7_203_001
#: A migration containing this line is followed by a VACUUM (it freed much space).
VACUUM_AFTER = "-- dispatch: vacuum after"


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    path: Path


def discover(directory: Path = MIGRATIONS_DIR, dialect: str = "sqlite") -> list[Migration]:
    found: list[Migration] = []
    twins: dict[int, Path] = {}
    for path in directory.iterdir():
        match = _NAME.match(path.name)
        twin = _TWIN.match(path.name)
        if twin:
            twins[int(twin.group(1))] = path
        elif match:
            found.append(Migration(int(match.group(1)), match.group(2), path))
    if dialect == "postgresql":
        found = [Migration(m.version, m.name, twins.get(m.version, m.path)) for m in found]
    found.sort(key=lambda m: m.version)
    versions = [m.version for m in found]
    if len(set(versions)) != len(versions):
        raise RuntimeError(f"two migrations share a number in {directory}")
    return found


async def applied_versions(db: aiosqlite.Connection) -> set[int]:
    await db.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"
    )
    await db.commit()
    async with db.execute("SELECT version FROM schema_migrations") as cur:
        return {int(row[0]) for row in await cur.fetchall()}


async def migrate(db: aiosqlite.Connection, directory: Path = MIGRATIONS_DIR) -> list[int]:
    """Apply, in order, every migration not recorded as applied; return those applied."""
    have = await applied_versions(db)
    applied: list[int] = []
    for migration in discover(directory):
        if migration.version in have:
            continue
        sql = migration.path.read_text(encoding="utf-8")
        # executescript commits any open transaction first, then runs the script as
        # written; the explicit BEGIN/COMMIT makes the file and its record one unit.
        script = (
            "BEGIN;\n"
            f"{sql}\n;"
            "INSERT INTO schema_migrations (version, name, applied_at) VALUES "
            f"({migration.version}, '{migration.name}', {time.time()!r});\n"
            "COMMIT;"
        )
        try:
            await db.executescript(script)
        except Exception:
            await db.rollback()
            raise
        log.info("applied migration %04d_%s", migration.version, migration.name)
        applied.append(migration.version)
        if VACUUM_AFTER in sql:
            # Gives the space a migration freed back to the file system; it cannot run
            # inside the migration's transaction. Slow on a big file, but only once.
            log.info("compacting the database after migration %04d", migration.version)
            await db.execute("VACUUM")
    return applied


async def migrate_postgres(conn: asyncpg.Connection, directory: Path = MIGRATIONS_DIR) -> list[int]:
    """``migrate`` for PostgreSQL: each file (or its twin) and its record in one transaction."""
    await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
    try:
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY,"
            " name TEXT NOT NULL, applied_at DOUBLE PRECISION NOT NULL)"
        )
        have = {int(r[0]) for r in await conn.fetch("SELECT version FROM schema_migrations")}
        applied: list[int] = []
        for migration in discover(directory, "postgresql"):
            if migration.version in have:
                continue
            sql = migration_in_postgresql_words(migration.path.read_text(encoding="utf-8"))
            async with conn.transaction():
                await conn.execute(sql)
                await conn.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
                    migration.version,
                    migration.name,
                    time.time(),
                )
            log.info("applied migration %04d_%s (PostgreSQL)", migration.version, migration.name)
            applied.append(migration.version)
        return applied
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)
