"""Numbered SQL migrations: ``bot/storage/migrations/NNNN_name.sql``, applied in order, once.

The applied versions are recorded in ``schema_migrations``; running again applies only
the files not recorded there, so it is safe on every start-up (and a migration numbered
below one already applied, as when two lines of work each added one, is still applied).
Each file runs in its own transaction together with its bookkeeping row, so a failed
migration leaves the schema as it was.
"""

from __future__ import annotations

import logging
import re
import time
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

log = logging.getLogger("dispatch.migrate")

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
_NAME = re.compile(r"^(\d{4})_([\w-]+)\.sql$")
#: A migration containing this line is followed by a VACUUM (it freed much space).
VACUUM_AFTER = "-- dispatch: vacuum after"


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    path: Path


def discover(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    found: list[Migration] = []
    for path in directory.iterdir():
        match = _NAME.match(path.name)
        if match:
            found.append(Migration(int(match.group(1)), match.group(2), path))
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
