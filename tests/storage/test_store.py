"""The store: migrations, pragmas, the one-live-game-per-channel rule, transactions."""

from __future__ import annotations

import os
import sqlite3
import stat
from pathlib import Path

import aiosqlite
import asyncpg
import pytest

from bot.storage.engines import is_postgres_url
from bot.storage.errors import Conflict
from bot.storage.migrate import discover, migrate, migrate_postgres
from bot.storage.rows import NewGameRow
from bot.storage.store import Store


async def test_migrations_are_idempotent(db_path: Path | str) -> None:
    store = await Store.open(db_path)
    await store.close()
    store = await Store.open(db_path)  # second open applies nothing and keeps the data
    async with store.read() as db:
        rows = await db._all("SELECT version FROM schema_migrations ORDER BY version")
    await store.close()
    assert [r[0] for r in rows] == [m.version for m in discover()]

    if is_postgres_url(db_path):
        raw = await asyncpg.connect(str(db_path))
        try:
            assert await migrate_postgres(raw) == []
        finally:
            await raw.close()
        return
    async with aiosqlite.connect(db_path) as raw:
        assert await migrate(raw) == []


# About SQLite's own settings (journal mode, foreign keys, busy timeout: PRAGMAs).
@pytest.mark.sqlite_only
async def test_wal_foreign_keys_and_busy_timeout(db_path: Path) -> None:
    store = await Store.open(db_path)
    try:
        assert str(await store.pragma("journal_mode")).lower() == "wal"
        assert await store.pragma("foreign_keys") == 1
        assert await store.pragma("busy_timeout") >= 1000
    finally:
        await store.close()


@pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")
async def test_a_new_database_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    """It holds every hidden hand and every game's secret key."""
    path = tmp_path / "new.sqlite3"
    store = await Store.open(path)
    try:
        for file in (path, path.with_name(path.name + "-wal")):
            assert stat.S_IMODE(file.stat().st_mode) & 0o077 == 0, file
    finally:
        await store.close()


async def test_failed_migration_leaves_no_trace(tmp_path: Path) -> None:
    migrations = tmp_path / "migrations"
    migrations.mkdir()
    (migrations / "0001_good.sql").write_text("CREATE TABLE a (x INTEGER);")
    (migrations / "0002_bad.sql").write_text("CREATE TABLE b (x INTEGER); NOT SQL AT ALL;")
    async with aiosqlite.connect(tmp_path / "m.sqlite3", isolation_level=None) as db:
        with pytest.raises(sqlite3.OperationalError):
            await migrate(db, migrations)
        async with db.execute("SELECT name FROM sqlite_master WHERE type = 'table'") as cur:
            tables = {r[0] for r in await cur.fetchall()}
        async with db.execute("SELECT MAX(version) FROM schema_migrations") as cur:
            row = await cur.fetchone()
    assert "a" in tables and "b" not in tables
    assert row is not None and row[0] == 1


async def test_a_migration_numbered_below_an_applied_one_is_still_applied(
    tmp_path: Path,
) -> None:
    """Two lines of work each add a migration; the store that took the higher number
    first still takes the lower one, once."""
    migrations = tmp_path / "migrations"
    migrations.mkdir()
    (migrations / "0001_a.sql").write_text("CREATE TABLE a (x INTEGER);")
    (migrations / "0003_c.sql").write_text("CREATE TABLE c (x INTEGER);")
    async with aiosqlite.connect(tmp_path / "m.sqlite3", isolation_level=None) as db:
        assert await migrate(db, migrations) == [1, 3]
        (migrations / "0002_b.sql").write_text("CREATE TABLE b (x INTEGER);")
        assert await migrate(db, migrations) == [2]
        assert await migrate(db, migrations) == []
        async with db.execute("SELECT name FROM sqlite_master WHERE type = 'table'") as cur:
            tables = {r[0] for r in await cur.fetchall()}
    assert {"a", "b", "c"} <= tables


async def _new_game(db, channel: str) -> int:  # type: ignore[no-untyped-def]
    return await db.insert_game(
        NewGameRow(
            guild_id="g",
            channel_id=channel,
            game_name="toy",
            options={},
            seed=1,
            creator_id="alice",
            hotseat=False,
            state={"version": 1},
        )
    )


async def test_one_live_game_per_channel(db_path: Path) -> None:
    store = await Store.open(db_path)
    try:
        async with store.transaction() as db:
            first = await _new_game(db, "c1")
        with pytest.raises(Conflict):
            async with store.transaction() as db:
                await _new_game(db, "c1")
        async with store.transaction() as db:
            await db.set_status(first, "finished")
        async with store.transaction() as db:
            await _new_game(db, "c1")  # a finished game frees the channel
    finally:
        await store.close()


async def test_transaction_rolls_back_on_error(db_path: Path) -> None:
    store = await Store.open(db_path)
    try:
        with pytest.raises(RuntimeError):
            async with store.transaction() as db:
                await _new_game(db, "c1")
                raise RuntimeError("boom")
        async with store.read() as db:
            assert await db.lobby.live_game_in_channel("c1") is None
    finally:
        await store.close()


async def test_seats_cascade_and_foreign_keys(db_path: Path) -> None:
    store = await Store.open(db_path)
    try:
        with pytest.raises(Conflict):
            async with store.transaction() as db:
                await db.add_seat(999, "north", "alice")  # no such game
    finally:
        await store.close()


async def test_injected_clock_stamps_rows(db_path: Path) -> None:
    store = await Store.open(db_path, clock=lambda: 1234.5)
    try:
        async with store.transaction() as db:
            game_id = await _new_game(db, "c1")
        async with store.read() as db:
            row = await db.game(game_id)
        assert row is not None and row.created_at == 1234.5
    finally:
        await store.close()
