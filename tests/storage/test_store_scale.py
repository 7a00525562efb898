"""The store through years of play: hot queries on indexes, delivered rows without payload,
old files shrunk by the migration."""

from __future__ import annotations

import random
import re
import sqlite3
import sys
from pathlib import Path

import aiosqlite
import pytest
from conftest import FakeClock, RecordingFrontEnd

import rules
from bot.storage import migrate
from bot.storage.queries import HOT_QUERIES
from bot.storage.rows import dumps
from bot.storage.store import Store
from bot.tables.manager import GameManager
from bot.tables.requests import Move, NewGame

pytestmark = pytest.mark.usefixtures("toy_game")

#: A plan line that reads a whole table: "SCAN games", not "SCAN outbox USING INDEX ...".
FULL_SCAN = re.compile(r"^SCAN (\w+)$")


async def plan(store: Store, sql: str, params: tuple[object, ...]) -> list[str]:
    async with store.read() as db:
        rows = await db.db.execute_fetchall("EXPLAIN QUERY PLAN " + sql, params)
    return [str(r[3]) for r in rows]


async def fill(manager: GameManager, games: int) -> None:
    """Enough finished and live rows that SQLite's planner sees a real table."""
    for i in range(games):
        info = await manager.create_game(
            "g", f"c{i}", f"a{i}", NewGame("toy", seed=i, opponent_id="b")
        )
        await manager.act(info.id, f"a{i}", Move("add", 1))
        if i % 2:
            await manager.resign(info.id, "b")
    async with manager.store.transaction() as db:
        await db.db.execute_fetchall("ANALYZE")


# SQLite's planner (EXPLAIN QUERY PLAN); PostgreSQL's plans of the same queries, at 10,000
# games: tests/storage/test_store_plans_pg.py.
@pytest.mark.sqlite_only
@pytest.mark.parametrize("name", sorted(HOT_QUERIES))
async def test_every_hot_query_is_answered_from_an_index(
    name: str, db_path: Path, clock: FakeClock
) -> None:
    manager = await GameManager.open(db_path, RecordingFrontEnd(), clock=clock)
    try:
        await fill(manager, 30)
        sql, params = HOT_QUERIES[name]
        lines = await plan(manager.store, sql, params)
    finally:
        await manager.close()
    scans = [line for line in lines if FULL_SCAN.match(line)]
    assert not scans, f"{name} reads a whole table: {lines}"


async def test_the_store_runs_the_hot_queries_it_lists(db_path: Path) -> None:
    # The plans above are only worth something if the store runs these very strings.
    storage = Path(__file__).resolve().parents[2].joinpath("bot", "storage")
    source = "".join(path.read_text() for path in storage.rglob("*.py"))
    for name in HOT_QUERIES:
        assert f'hot_sql("{name}")' in source, f"{name} is listed but the store does not use it"


async def test_a_delivered_row_keeps_no_payload(
    db_path: Path, clock: FakeClock, front_end: RecordingFrontEnd
) -> None:
    manager = await GameManager.open(db_path, front_end, clock=clock)
    try:
        info = await manager.create_game(
            "g", "c", "alice", NewGame("toy", seed=1, opponent_id="bob")
        )
        await manager.act(info.id, "alice", Move("add", 3))
        await manager.act(info.id, "alice", Move("done"))
        async with manager.store.read() as db:
            rows = await db._all("SELECT delivered_at, payload FROM outbox")
    finally:
        await manager.close()
    assert len(rows) >= 4 and front_end.deliveries
    assert all(r["delivered_at"] is not None and r["payload"] == "" for r in rows)


async def test_an_undelivered_row_keeps_its_payload_until_delivered(
    db_path: Path, clock: FakeClock
) -> None:
    down = RecordingFrontEnd(crash=True)
    manager = await GameManager.open(db_path, down, clock=clock)
    try:
        info = await manager.create_game(
            "g", "c", "alice", NewGame("toy", seed=1, opponent_id="bob")
        )
        async with manager.store.read() as db:
            pending = await db.outbox.undelivered(info.id)
        assert pending and all(r.payload_json.startswith("{") for r in pending)
    finally:
        await manager.close()


async def _old_database(path: Path, rows: int) -> None:
    """A file as migrations 0001-0002 left it, with many delivered rows full of views."""
    old = Path(migrate.MIGRATIONS_DIR)
    tmp = path.parent / "old-migrations"
    tmp.mkdir()
    for f in old.iterdir():
        if f.name[:4] in ("0001", "0002"):
            (tmp / f.name).write_text(f.read_text())
    view = {"log": [f"a long log line number {i} of an old game" for i in range(300)]}
    async with aiosqlite.connect(path, isolation_level=None) as db:
        await migrate.migrate(db, tmp)
        await db.execute(
            "INSERT INTO games (channel_id, game_name, seed, status, state, creator_id,"
            " created_at, updated_at) VALUES ('c', 'toy', 1, 'finished', '{}', 'a', 0, 0)"
        )
        await db.execute("BEGIN")
        for i in range(rows):
            delivered = None if i == rows - 1 else 1.0
            await db.execute(
                "INSERT INTO outbox (game_id, kind, payload, created_at, delivered_at,"
                " next_attempt_at) VALUES (1, 'table', ?, 0, ?, 0)",
                (dumps({"kind": "turn", "version": i, "view": view}), delivered),
            )
        await db.execute("COMMIT")


async def test_the_migration_empties_delivered_payloads_and_shrinks_the_file(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.sqlite3"
    await _old_database(path, 200)
    before = path.stat().st_size
    store = await Store.open(path)
    try:
        async with store.read() as db:
            rows = await db._all("SELECT delivered_at, payload FROM outbox ORDER BY id")
            indexes = {r[0] for r in await db._all("SELECT name FROM sqlite_master")}
    finally:
        await store.close()
    after = path.stat().st_size
    assert all(r["payload"] == "" for r in rows[:-1])
    assert rows[-1]["payload"].startswith("{")  # not yet delivered: kept whole
    assert "outbox_undelivered" in indexes and "outbox_pending" not in indexes
    # What the payloads took is gone: beyond an empty store's own pages (its schema
    # grows with every migration), the file keeps less than a tenth of what it was.
    empty_path = tmp_path / "empty.sqlite3"
    await (await Store.open(empty_path)).close()
    empty = empty_path.stat().st_size
    assert after - empty < before / 10, (before, after, empty)


async def test_a_damaged_posted_active_column_is_read_as_nobody(
    db_path: Path, clock: FakeClock
) -> None:
    manager = await GameManager.open(db_path, RecordingFrontEnd(), clock=clock)
    try:
        info = await manager.create_game(
            "g", "c", "alice", NewGame("toy", seed=1, opponent_id="bob")
        )
        async with manager.store.write() as db:
            await db._run("UPDATE games SET posted_active = 'not json' WHERE id = ?", (info.id,))
        async with manager.store.read() as db:
            row = await db.game(info.id)
        assert row is not None and row.posted_active == ()
        await manager.act(info.id, "alice", Move("add", 1))  # the game goes on
    finally:
        await manager.close()


async def play_randomly(manager: GameManager, game_id: int, rng: random.Random) -> None:
    """Random legal moves through the manager until the game ends, as players would."""
    while (info := await manager.get_game_info(game_id)).status == "active":
        role = rng.choice(info.active_roles)
        seat = info.seat_of(role)
        assert seat is not None
        pv = await manager.view_for(game_id, seat.user_id, role=role)
        choices = [
            (verb, arg)
            for verb, args in pv.view["actions"].items()
            if verb != "undo"
            for arg in (args if isinstance(args, list) else [None])
        ]
        verb, arg = rng.choice(choices)
        await manager.act(game_id, seat.user_id, Move(verb, arg, pv.version, role=role))


@pytest.mark.slow
async def test_finished_games_leave_a_packed_file_without_a_vacuum(tmp_path: Path) -> None:
    # Delivered rows were blanked in place and their pages never
    # reused, so real play left 2-3 times what a VACUUM packs the same games into.
    path = tmp_path / "grown.sqlite3"
    manager = await GameManager.open(path, RecordingFrontEnd())
    # The schema's own pages, one or two per table and index: checkpointed first, or the
    # migrations' pages still in the WAL would be counted as the games' growth.
    await manager.store.backend.sqlite.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    empty = path.stat().st_size
    names = sorted(name for name in rules.GAMES if name != "toy") * 2  # each game twice
    games = len(names)
    try:
        rng = random.Random(7)
        for n, name in enumerate(names):
            opponent = "b" if len(rules.GAMES[name].roles) > 1 else None
            info = await manager.create_game(
                "g", f"c{n}", "a", NewGame(name, seed=n, opponent_id=opponent)
            )
            await play_randomly(manager, info.id, rng)
    finally:
        await manager.close()
    grown = path.stat().st_size
    with sqlite3.connect(path) as db:
        db.execute("VACUUM")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    packed = path.stat().st_size
    per_game, packed_per_game = (grown - empty) / games, (packed - empty) / games
    assert per_game < 60 * 1024, (per_game / 1024, packed_per_game / 1024)
    assert per_game < 1.4 * packed_per_game, (per_game / 1024, packed_per_game / 1024)


@pytest.mark.slow
async def test_the_scale_bench_sizes_games_played_through_the_manager(tmp_path: Path) -> None:
    # The bench sized SQL copies of a few games, which pack the pages
    # (about 30 KiB a game where play left 90). It now plays the games it sizes.
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    import bench_store_scale as bench

    manager = await GameManager.open(tmp_path / "bench.sqlite3", RecordingFrontEnd())
    try:
        empty = await bench.checkpointed_size(manager)
        played = await bench.play_games(manager, 2, random.Random(3))
        grown = await bench.checkpointed_size(manager)
        for game_id in played:
            assert (await manager.get_game_info(game_id)).status == "finished"
            async with manager.store.read() as db:
                assert await db.count_actions(game_id) > 0
    finally:
        await manager.close()
    assert grown > empty
