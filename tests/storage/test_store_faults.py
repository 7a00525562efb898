"""The store's faults in its own words: transient (``Unavailable``), a COMMIT whose fate the
connection took with it (``CommitUnknown``, found out by reading back), a clash
(``Conflict``); and what a player is told of each when they make a move."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import asyncpg
import pytest
from conftest import FakeClock, RecordingFrontEnd
from pg_proxy import PgProxy

import bot.storage.store
from bot.delivery.port import GameInfo
from bot.storage.engines import PgConnection
from bot.storage.errors import (
    MOVE_NOT_MADE,
    OUTCOME_UNKNOWN,
    Busy,
    CommitUnknown,
    Unavailable,
)
from bot.storage.store import Store
from bot.tables import turn
from bot.tables.manager import GameManager
from bot.tables.requests import Move, NewGame

STORE_LOG = "dispatch.store"


async def _terminate(url: str, pid: int) -> None:
    admin = await asyncpg.connect(url)
    try:
        await admin.execute("SELECT pg_terminate_backend($1)", pid)
    finally:
        await admin.close()


def _store_lines(caplog: pytest.LogCaptureFixture, level: int) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == STORE_LOG and r.levelno == level]


async def test_a_lost_connection_is_unavailable_told_once_and_never_lent_again(
    pg_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger=STORE_LOG)
    store = await Store.open(pg_url)
    try:
        for _ in range(2):  # a session's connection killed under it, twice over
            with pytest.raises(Unavailable) as raised:
                async with store.read() as db:
                    pid = (await db._one("SELECT pg_backend_pid() AS pid"))["pid"]  # type: ignore[index]
                    await _terminate(pg_url, pid)
                    await db._one("SELECT 1 AS n")
            assert not isinstance(raised.value, sqlite3.Error)
        # The broken connection was closed, not put back: the next session gets a new one.
        async with store.read() as db:
            row = await db._one("SELECT 1 AS n")
        assert row is not None and row["n"] == 1
    finally:
        await store.close()
    assert len(_store_lines(caplog, logging.WARNING)) == 1, caplog.text
    assert "out of reach" in _store_lines(caplog, logging.WARNING)[0]
    assert len(_store_lines(caplog, logging.INFO)) == 1
    assert "back" in _store_lines(caplog, logging.INFO)[0]
    assert "another operation is in progress" not in caplog.text


@pytest.mark.sqlite_only  # SQLite's own lock on its file, held past the busy timeout
async def test_a_lock_held_past_the_timeout_is_busy_and_changes_nothing(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bot.storage.store, "BUSY_TIMEOUT_MS", 50)
    store = await Store.open(db_path)
    holder = sqlite3.connect(db_path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(Busy, match="nothing changed"):
            async with store.write() as db:
                await db.settings.set_notify("alice", "dm")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
        await store.close()


# -- a move when the database fails under it (PostgreSQL, through a relay) ---------------


async def _table(url: str, clock: FakeClock) -> tuple[GameManager, GameInfo]:
    manager = await GameManager.open(url, RecordingFrontEnd(), clock=clock)
    await manager.create_game("g1", "c1", "alice", NewGame("toy", seed=5))
    return manager, await manager.join("c1", "bob")


async def _actions(url: str, game_id: int) -> list[tuple[int, str, object]]:
    store = await Store.open(url)
    try:
        async with store.read() as db:
            return [(a.seq, a.verb, a.arg) for a in await db.actions(game_id)]
    finally:
        await store.close()


@pytest.mark.usefixtures("toy_game")
async def test_a_move_cut_at_commit_before_the_server_had_it_was_not_made(
    pg_url: str, proxy: PgProxy, clock: FakeClock
) -> None:
    manager, game = await _table(await proxy.start(), clock)
    try:
        proxy.cut_at_commit = "before"
        with pytest.raises(Unavailable) as raised:
            await manager.act(game.id, "alice", Move("add", 2))
        assert proxy.cut.is_set()
        assert str(raised.value) == MOVE_NOT_MADE
        assert await _actions(pg_url, game.id) == []
        # The player tries again once it is back, and the move is made once.
        result = await manager.act(game.id, "alice", Move("add", 2))
        assert result.version == game.version + 1
    finally:
        await manager.close()
    assert await _actions(pg_url, game.id) == [(1, "add", 2)]


@pytest.mark.usefixtures("toy_game")
async def test_a_move_whose_commit_answer_was_lost_is_found_made(
    pg_url: str, proxy: PgProxy, clock: FakeClock
) -> None:
    manager, game = await _table(await proxy.start(), clock)
    try:
        proxy.cut_at_commit = "after"
        result = await manager.act(game.id, "alice", Move("add", 2))
        assert proxy.cut.is_set()
        # Read back by its own key: saved, so the player is told it was made.
        assert result.version == game.version + 1
        assert (await manager.get_game_info(game.id)).version == result.version
        done = await manager.act(game.id, "alice", Move("done", expected_version=result.version))
        assert done.version == result.version + 1
    finally:
        await manager.close()
    assert await _actions(pg_url, game.id) == [(1, "add", 2), (2, "done", None)]


@pytest.mark.usefixtures("toy_game")
async def test_a_move_cut_at_commit_that_cannot_be_read_back_says_nobody_knows_yet(
    pg_url: str, proxy: PgProxy, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(turn, "READ_BACK_DELAYS_S", (0.0, 0.0, 0.0))
    manager, game = await _table(await proxy.start(), clock)
    try:
        proxy.cut_at_commit, proxy.down_at_cut = "before", True
        with pytest.raises(CommitUnknown) as raised:
            await manager.act(game.id, "alice", Move("add", 2))
        assert str(raised.value) == OUTCOME_UNKNOWN
        proxy.down = False
        assert await _actions(pg_url, game.id) == []  # cut before the server had it
    finally:
        await manager.close()


@pytest.mark.usefixtures("toy_game")
async def test_a_move_while_the_server_is_down_was_not_made_and_says_so(
    proxy: PgProxy, clock: FakeClock
) -> None:
    manager, game = await _table(await proxy.start(), clock)
    try:
        proxy.down = True
        proxy.drop_all()
        with pytest.raises(Unavailable) as raised:
            await manager.act(game.id, "alice", Move("add", 1))
        assert str(raised.value) == MOVE_NOT_MADE
        proxy.down = False
        result = await manager.act(game.id, "alice", Move("add", 1))
        assert result.version == game.version + 1
    finally:
        await manager.close()


class _DeadConnection:
    """An asyncpg connection whose socket went away under a statement, and which answers
    with an error of the driver's own rather than a clean one."""

    async def fetch(self, *args: object) -> list[object]:
        raise AttributeError("'NoneType' object has no attribute 'write'")

    def is_closed(self) -> bool:
        return True


async def test_any_failure_of_a_closed_connection_is_unavailable_not_a_bug() -> None:
    db = PgConnection(_DeadConnection())  # type: ignore[arg-type]
    with pytest.raises(Unavailable):
        await db.execute_fetchall("SELECT 1")


async def test_a_connection_that_breaks_as_it_goes_back_does_not_fail_the_session(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server going away just after a session: the pool's reset of the connection
    finds "another operation is in progress", and closes it. The session's work stands."""
    store = await Store.open(pg_url)
    try:
        real = asyncpg.pool.Pool.release
        broke: list[object] = []

        async def breaks(pool: asyncpg.pool.Pool, conn: object, *args: object) -> None:
            await real(pool, conn)  # type: ignore[arg-type]
            if not broke:  # once: the reset after this session finds the server gone
                broke.append(conn)
                raise asyncpg.InternalClientError(
                    "cannot switch to state 15; another operation (2) is in progress"
                )

        monkeypatch.setattr(asyncpg.pool.Pool, "release", breaks)
        async with store.read() as db:
            row = await db._one("SELECT 1 AS n")
        assert row is not None and row["n"] == 1
        assert broke
        async with store.read() as db:  # and the pool still lends connections
            assert await db._one("SELECT 1 AS n") is not None
    finally:
        await store.close()
