"""A turn's statements batched on PostgreSQL (bot/storage/batch.py): at most 8 round trips
a turn, every value written back exactly, reads that see the transaction's own writes,
and a batch that fails changing nothing."""

from __future__ import annotations

import math
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage.batch import ALSO_CHANGES, CASCADES_EVERYWHERE, inline, literal
from bot.storage.engines import counting_round_trips
from bot.storage.errors import Conflict
from bot.storage.store import Store
from bot.tables.manager import GameManager
from bot.tables.requests import Move, NewGame

#: The most round trips a turn may cost on PostgreSQL (BEGIN and the lock, the reads the
#: turn needs, its writes with the COMMIT).
TURN_ROUND_TRIPS = 8


def postgres_only(store_engine: str) -> None:
    if store_engine != "postgresql":
        pytest.skip("round trips are counted on PostgreSQL (SQLite has none: a local file)")


async def test_a_turn_on_postgresql_takes_at_most_8_round_trips(
    manager: GameManager, store_engine: str
) -> None:
    postgres_only(store_engine)
    await manager.create_game("g1", "c1", "alice", NewGame("toy", seed=5, seat="north"))
    game = await manager.join("c1", "bob")
    trips = []
    moves = [("alice", "add", 2), ("alice", "done", None), ("bob", "add", 3), ("bob", "done", None)]
    for version, (user, verb, arg) in enumerate(moves):
        with counting_round_trips() as tally:
            result = await manager.act(game.id, user, Move(verb, arg, version), deliver=False)
        trips.append(tally.count)
        assert result.version == version + 1
    # A move that keeps the turn, and one that hands it over (the next player's
    # notification choice, the table's parked posts and the reminder read too).
    assert max(trips) <= TURN_ROUND_TRIPS, trips
    view = await manager.view_for(game.id, "alice")
    assert view.game.version == 4 and view.view["counter"] == 5


STRANGE = [
    "it's",
    "back\\slash \\' and \\\\",
    "E'x' $1 ? '' ;DROP TABLE games;--",
    "line\nbreak\ttab",
    "é — 🂡 \u2028",
    "",
]


@pytest.fixture
async def store(db_path: Path | str) -> AsyncIterator[Store]:
    opened = await Store.open(db_path)
    async with opened.transaction() as db:
        await db._run(
            "CREATE TABLE batch_probe (id INTEGER PRIMARY KEY, word TEXT,"
            " amount DOUBLE PRECISION, flag BOOLEAN)"
        )
    yield opened
    await opened.close()


async def test_every_value_is_written_back_exactly(store: Store) -> None:
    amounts = [0.1, -2.5e-300, 1e300, math.inf, -math.inf, 3.0, None]
    async with store.transaction(batched=True) as db:
        for n, word in enumerate(STRANGE):
            await db._run(
                "INSERT INTO batch_probe (id, word, amount, flag) VALUES (?, ?, ?, ?)",
                (n, word, amounts[n], n % 2 == 0),
            )
        # The same transaction reads its own writes.
        inside = await db._all("SELECT word FROM batch_probe ORDER BY id")
    async with store.read() as db:
        rows = await db._all("SELECT id, word, amount, flag FROM batch_probe ORDER BY id")
    assert [r["word"] for r in inside] == STRANGE
    assert [r["word"] for r in rows] == STRANGE
    assert [r["amount"] for r in rows] == amounts[: len(STRANGE)]
    assert [bool(r["flag"]) for r in rows] == [n % 2 == 0 for n in range(len(STRANGE))]


async def test_a_batch_that_fails_changes_nothing(store: Store) -> None:
    with pytest.raises(Conflict):
        async with store.transaction(batched=True) as db:
            await db._run("INSERT INTO batch_probe (id, word) VALUES (1, 'first')")
            await db._run("UPDATE games SET updated_at = 0")
            await db._run("INSERT INTO batch_probe (id, word) VALUES (1, 'again')")
    async with store.read() as db:
        rows = await db._all("SELECT id FROM batch_probe")
    assert rows == []


async def test_writes_wait_for_a_read_that_needs_them_only(store: Store, store_engine: str) -> None:
    postgres_only(store_engine)
    with counting_round_trips() as tally:
        async with store.transaction(game=1, batched=True) as db:
            assert tally.count == 0  # BEGIN and the lock wait for the first read
            await db._all("SELECT 1 FROM seats WHERE game_id = 1")
            assert tally.count == 2  # BEGIN and the lock, then the read
            await db._run("INSERT INTO batch_probe (id, word) VALUES (7, 'x')")
            await db._all("SELECT 1 FROM seats WHERE game_id = 1")
            assert tally.count == 3  # the insert still waits: seats are not its table
            [row] = await db._all("SELECT word FROM batch_probe WHERE id = 7")
            assert row["word"] == "x" and tally.count == 5  # sent, then read
    assert tally.count == 6  # COMMIT


def test_placeholders_are_replaced_outside_quotes_only() -> None:
    sql = "UPDATE t SET a = ?, b = 'what?' WHERE c = ? AND d = 'x''?'"
    assert inline(sql, ("it's", 3)) == (
        "UPDATE t SET a = E'it''s', b = 'what?' WHERE c = 3 AND d = 'x''?'"
    )
    with pytest.raises(TypeError):
        inline(sql, ("one",))
    with pytest.raises(TypeError):
        inline(sql, (1, 2, 3))
    with pytest.raises(TypeError):
        literal("a\x00b")
    with pytest.raises(TypeError):
        literal([1, 2])
    assert literal(b"\x00\xff") == "decode('00ff', 'hex')"


async def test_what_a_write_changes_besides_is_known(
    db_path: Path | str, store_engine: str
) -> None:
    """Every trigger and every ON DELETE CASCADE of the schema is followed by the batch:
    a read waits for the writes whose effects it could see."""
    postgres_only(store_engine)
    store = await Store.open(db_path)
    try:
        async with store.read() as db:
            triggered = await db._all(
                "SELECT DISTINCT c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid"
                " WHERE NOT t.tgisinternal"
            )
            cascades = await db._all(
                "SELECT DISTINCT p.relname AS parent, c.relname AS child FROM pg_constraint k"
                " JOIN pg_class p ON p.oid = k.confrelid JOIN pg_class c ON c.oid = k.conrelid"
                " WHERE k.contype = 'f' AND k.confdeltype = 'c'"
            )
    finally:
        await store.close()
    assert {r[0] for r in triggered} <= set(ALSO_CHANGES)
    for r in cascades:
        assert r["parent"] in CASCADES_EVERYWHERE or r["child"] in ALSO_CHANGES[r["parent"]]
