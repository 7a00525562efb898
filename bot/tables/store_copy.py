"""``dispatch store copy --to postgresql://...``: move a SQLite store into PostgreSQL.

The SQLite file is read in one read transaction (a consistent snapshot, even while the bot
still runs on it: WAL readers never block its writer and see one moment). The target must
be an empty, migrated PostgreSQL database (it is migrated here); a target that already
holds a game is refused. Every table is copied, the identity sequences are moved past
the copied ids, then every game is replayed from its actions and compared with the
state copied beside them: any difference is reported and the command fails.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiosqlite
import asyncpg

from bot import errors
from bot.storage.engines import is_postgres_url
from bot.storage.store import Store
from bot.tables.loading import rules_or_none
from bot.tables.replay import export_game, replayed_state, stored_state

#: Copied first (others refer to them), and last.
FIRST = ("games",)
LAST = ("outbox_payloads",)
SKIP = {"schema_migrations", "sqlite_sequence"}


class CopyRefused(Exception):
    """The copy cannot start; ``str()`` is one line for an administrator."""


@dataclass
class CopyReport:
    rows: dict[str, int] = field(default_factory=dict)
    replayed: int = 0
    not_replayable: int = 0
    mismatches: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        out = [f"{table}: {count} rows" for table, count in self.rows.items()]
        out.append(f"games replayed from their actions and matching: {self.replayed}")
        if self.not_replayable:
            out.append(f"games not replayable here (rules unknown or lobby): {self.not_replayable}")
        out += [f"MISMATCH: {m}" for m in self.mismatches]
        return out


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


async def copy_store(source: Path, url: str) -> CopyReport:
    """Copy ``source`` (a SQLite file) into the PostgreSQL database at ``url``."""
    if not source.exists():
        raise CopyRefused(f"there is no database file at {source}")
    if not is_postgres_url(url):
        raise CopyRefused("--to takes a PostgreSQL URL: postgresql://user:password@host/db")
    target = await Store.open(url)
    report = CopyReport()
    try:
        async with target.bulk_connection() as conn:
            if await conn.fetchval("SELECT EXISTS (SELECT 1 FROM games)"):
                raise CopyRefused(
                    "the PostgreSQL database already holds games: copy into an empty one"
                )
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
                        report.rows[table] = await _copy_table(src, conn, table)
                    await _reset_sequences(conn)
                await src.execute("ROLLBACK")
        await _replay_all(target, report)
    finally:
        await target.close()
    return report


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


async def _replay_all(store: Store, report: CopyReport) -> None:
    async with store.read() as db:
        games = await db.upkeep.game_statuses()
    for game_id, status in games:
        if status == "lobby":
            report.not_replayable += 1
            continue
        data: dict[str, Any] = await export_game(store, game_id)
        if rules_or_none(str(data["game"])) is None:
            report.not_replayable += 1
            continue
        try:
            replayed = replayed_state(data)
            stored = await stored_state(store, game_id)
        except errors.DispatchError as exc:
            report.mismatches.append(f"game {game_id}: {exc}")
            continue
        if stored is None or json.loads(stored) != replayed:
            report.mismatches.append(f"game {game_id}: its replay differs from its stored state")
        else:
            report.replayed += 1
