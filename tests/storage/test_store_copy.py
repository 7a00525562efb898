"""``dispatch store copy --to postgresql://...``: a SQLite store moved into PostgreSQL, every
table, checked by replaying every game from its actions; a target holding games is
refused. Needs a PostgreSQL server (``DISPATCH_TEST_POSTGRES``), else skipped saying so."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import FakeClock, PostgresDatabases, RecordingFrontEnd

from bot.__main__ import main
from bot.storage.rows import NewGameRow
from bot.storage.store import Store, StoreUnavailable
from bot.tables.manager import GameManager
from bot.tables.requests import Move, NewGame


@pytest.fixture
def postgres(postgres_databases: PostgresDatabases | None) -> PostgresDatabases:
    if postgres_databases is None:
        pytest.skip("PostgreSQL run: no server (set DISPATCH_TEST_POSTGRES=postgresql://...)")
    return postgres_databases


async def _sqlite_store_with_games(path: Path, clock: FakeClock) -> None:
    manager = await GameManager.open(path, RecordingFrontEnd(), clock=clock)
    try:
        await manager.create_game("g1", "c1", "alice", NewGame("toy", seed=5, seat="north"))
        game = await manager.join("c1", "bob")
        await manager.act(game.id, "alice", Move("add", 2))
        await manager.act(game.id, "alice", Move("done", None))
        await manager.create_game("g1", "c2", "carol", NewGame("toy", seed=7))  # a lobby
    finally:
        await manager.close()


@pytest.mark.usefixtures("toy_game")
async def test_copy_moves_every_row_and_every_game_replays(
    tmp_path: Path,
    clock: FakeClock,
    postgres: PostgresDatabases,
    capsys: pytest.CaptureFixture[str],
) -> None:
    source = tmp_path / "dispatch.sqlite3"
    await _sqlite_store_with_games(source, clock)
    url = await postgres._fresh()
    assert await _run(["store", "copy", "--to", url, "--from", str(source)]) == 0
    out = capsys.readouterr().out
    assert "games: 2 rows" in out
    assert "games replayed from their actions and matching: 1" in out
    assert "MISMATCH" not in out

    # The copy is a working store: same games, same actions, and new ids follow on.
    sqlite_store = await Store.open(source)
    pg_store = await Store.open(url)
    try:
        for store in (sqlite_store, pg_store):
            async with store.read() as db:
                assert [a.verb for a in await db.actions(1)] == ["add", "done"]
        async with pg_store.transaction() as db:
            new_id = await db.insert_game(
                NewGameRow(
                    guild_id="g1",
                    channel_id="c3",
                    game_name="toy",
                    options={},
                    seed=1,
                    creator_id="dave",
                    hotseat=False,
                    state={},
                )
            )
        assert new_id == 3
    finally:
        await sqlite_store.close()
        await pg_store.close()

    # A second copy into the same database is refused, and changes nothing.
    assert await _run(["store", "copy", "--to", url, "--from", str(source)]) == 3
    assert "already holds games" in capsys.readouterr().err


async def _run(argv: list[str]) -> int:
    import asyncio

    # main() runs its own event loop: give it a thread of its own.
    return await asyncio.to_thread(main, argv)


@pytest.mark.usefixtures("toy_game")
async def test_a_target_that_is_not_postgresql_is_refused_and_nothing_made(
    tmp_path: Path, clock: FakeClock, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "dispatch.sqlite3"
    await _sqlite_store_with_games(source, clock)
    target = tmp_path / "other.sqlite3"
    assert await _run(["store", "copy", "--to", str(target), "--from", str(source)]) == 3
    assert "--to takes a PostgreSQL URL" in capsys.readouterr().err
    assert not target.exists()


async def test_the_bulk_connection_is_postgresql_only(db_path: Path | str) -> None:
    """What the copy uses instead of reaching into the store's pool."""
    store = await Store.open(db_path)
    try:
        if store.dialect == "postgresql":
            async with store.bulk_connection() as conn:
                assert await conn.fetchval("SELECT COUNT(*) FROM games") == 0
        else:
            with pytest.raises(StoreUnavailable, match="needs a PostgreSQL database"):
                async with store.bulk_connection():
                    pass  # pragma: no cover
        async with store.read() as db:
            assert await db.upkeep.game_statuses() == []
    finally:
        await store.close()
