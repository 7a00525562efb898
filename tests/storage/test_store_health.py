"""One damaged row, file or neighbour never stops the bot for everyone.

- background work (deliveries, reminders) is isolated per game: a failing game is logged
  once, marked damaged and skipped, and every other game goes on;
- a damaged game tells its players so, politely, and changes nothing;
- a database file that cannot be used gives one line and a distinct exit code at start;
- a second Dispatch process on the same file is refused.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import FakeClock, RecordingFrontEnd

import bot.delivery.courier
import bot.storage.store
import bot.tables.core
from bot import errors
from bot.delivery.port import GameInfo
from bot.storage.rows import GameRow, dumps
from bot.storage.store import Store, StoreInUse, StoreUnavailable
from bot.tables.manager import GameManager
from bot.tables.requests import Move, NewGame

ROOT = Path(__file__).resolve().parents[2]


async def start(manager: GameManager, channel: str) -> GameInfo:
    return await manager.create_game(
        "g", channel, "alice", NewGame("toy", seed=3, opponent_id="bob")
    )


async def damage(manager: GameManager, game_id: int, sql: str) -> None:
    async with manager.store.write() as db:
        await db._run(sql, (game_id,))


Change = Callable[[dict[str, Any]], None]


async def damage_state(manager: GameManager, game_id: int, change: Change) -> None:
    """Change the stored state in place, as a bad edit of the database would: read, changed
    in Python and written back, the same on either engine (no engine's JSON functions)."""
    async with manager.store.transaction() as db:
        [(text,)] = await db._all("SELECT state FROM games WHERE id = ?", (game_id,))
        state = json.loads(text)
        change(state)
        await db._run("UPDATE games SET state = ? WHERE id = ?", (dumps(state), game_id))


def emptied(state: dict[str, Any]) -> None:
    state.clear()


def without_codeword(state: dict[str, Any]) -> None:
    del state["codeword"]


def unknown_step(state: dict[str, Any]) -> None:
    state["step"] = "secret-U99x"


def unknown_card(state: dict[str, Any]) -> None:
    state["columns"]["left"]["union"][0] = "secret-U99x"


def errors_about(caplog: pytest.LogCaptureFixture, game_id: int) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.levelno >= logging.ERROR and f"game={game_id} " in r.getMessage()
    ]


# -- background work, game by game ----------------------------------------------------


@pytest.mark.usefixtures("toy_game")
@pytest.mark.parametrize("change", [emptied, without_codeword], ids=["empty-state", "missing-key"])
async def test_a_damaged_game_loses_its_reminders_and_no_one_else_does(
    change: Change, db_path: Path, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    front_end = RecordingFrontEnd()
    manager = await GameManager.open(db_path, front_end, clock=clock)
    try:
        broken = await start(manager, "c1")  # first in line: its timer fires first
        healthy = await start(manager, "c2")
        await damage_state(manager, broken.id, change)
        front_end.clear()
        clock.advance(25 * 3600)
        for _ in range(3):  # three background passes: the damage is logged once
            await manager.background.fire_due_timers()
            clock.advance(49 * 3600)
        reminded = {d.game.id for d in front_end.deliveries if d.post and d.post.kind == "reminder"}
        assert reminded == {healthy.id}
        assert len(errors_about(caplog, broken.id)) == 1
        info = await manager.get_game_info(broken.id)
        assert info.damaged and "reminder" in info.damaged
    finally:
        await manager.close()


@pytest.mark.usefixtures("toy_game")
async def test_a_game_whose_delivery_breaks_is_skipped_and_the_rest_delivered(
    db_path: Path,
    clock: FakeClock,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    down = RecordingFrontEnd(crash=True)
    manager = await GameManager.open(db_path, down, clock=clock)
    try:
        broken = await start(manager, "c1")
        healthy = await start(manager, "c2")
        reader = bot.tables.core.READER  # how the courier reads a game (injected)
        real = reader.info

        def breaks_for_one_game(row: GameRow, seats: object) -> GameInfo:
            if row.id == broken.id:  # anything unforeseen inside the courier
                raise ValueError("unreadable seat table")
            return real(row, seats)  # type: ignore[arg-type]

        broken_reader = dataclasses.replace(reader, info=breaks_for_one_game)
        monkeypatch.setattr(bot.tables.core, "READER", broken_reader)
        manager.front_end = up = RecordingFrontEnd()
        for _ in range(3):
            await manager.deliver_due(ignore_backoff=True)
        assert {d.game.id for d in up.deliveries} == {healthy.id}
        assert len(errors_about(caplog, broken.id)) == 1
        assert (await manager.get_game_info(broken.id)).damaged
    finally:
        await manager.close()


@pytest.mark.usefixtures("toy_game")
async def test_a_non_json_posted_active_does_not_stop_the_background_pass(
    db_path: Path, clock: FakeClock
) -> None:
    front_end = RecordingFrontEnd(crash=True)
    manager = await GameManager.open(db_path, front_end, clock=clock)
    try:
        odd = await start(manager, "c1")
        other = await start(manager, "c2")
        await damage(manager, odd.id, "UPDATE games SET posted_active = '[' WHERE id = ?")
        manager.front_end = up = RecordingFrontEnd()
        await manager.deliver_due(ignore_backoff=True)
        clock.advance(25 * 3600)
        await manager.background.fire_due_timers()
        assert {d.game.id for d in up.deliveries} == {odd.id, other.id}
    finally:
        await manager.close()


# -- what the players of a damaged game are told ---------------------------------------


@pytest.mark.usefixtures("toy_game")
async def test_players_of_a_damaged_game_are_told_so_and_nothing_changes(
    db_path: Path, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    manager = await GameManager.open(db_path, RecordingFrontEnd(), clock=clock)
    try:
        game = await start(manager, "c1")
        await damage(manager, game.id, "UPDATE games SET state = '{}' WHERE id = ?")
        async with manager.store.read() as db:
            before = (await db.actions(game.id), await db.version_of(game.id))
        calls = {
            "view": manager.view_for(game.id, "alice"),
            "act": manager.act(game.id, "alice", Move("add", 1)),
            "log": manager.records.log(game.id),
            "observer": manager.view_for(game.id, None),
        }
        for name, call in calls.items():
            with pytest.raises(errors.CorruptGame) as raised:
                await call
            text = str(raised.value)
            assert "damaged" in text and "/game abandon" in text and "/game export" in text, name
        async with manager.store.read() as db:
            assert (await db.actions(game.id), await db.version_of(game.id)) == before
        assert await manager.records.damage(game.id)
        # The ways out still work on it.
        exported = await manager.records.export(game.id)
        assert exported["actions"] == []
        await manager.resign(game.id, "bob")
        assert (await manager.get_game_info(game.id)).status == "finished"
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR and r.exc_info]
    finally:
        await manager.close()


# A step of play the rules do not know, and a card id no deck holds: both names could carry
# hidden things; the message names only the kind of failure.
@pytest.mark.parametrize(
    "change", [unknown_step, unknown_card], ids=["unknown-step", "unknown-card"]
)
async def test_a_damaged_war_game_is_refused_without_naming_what_it_holds(
    change: Change, db_path: Path, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    front_end = RecordingFrontEnd()
    manager = await GameManager.open(db_path, front_end, clock=clock)
    try:
        game = await manager.create_game(
            "g", "w", "alice", NewGame("war", seed=3, opponent_id="bob")
        )
        healthy = await manager.create_game(
            "g", "w2", "carol", NewGame("war", seed=4, opponent_id="dan")
        )
        await damage_state(manager, game.id, change)
        calls = [
            manager.view_for(game.id, "alice"),
            manager.view_for(game.id, "bob"),
            manager.view_for(game.id, None),
        ]
        for call in calls:
            with pytest.raises(errors.CorruptGame) as raised:
                await call
            assert "secret-U99x" not in str(raised.value) and "damaged" in str(raised.value)
        assert await manager.records.damage(game.id)
        front_end.clear()
        clock.advance(25 * 3600)
        await manager.background.fire_due_timers()
        assert {d.game.id for d in front_end.deliveries} == {healthy.id}
        logged = " ".join(r.getMessage() for r in caplog.records)
        assert "secret-U99x" not in logged
    finally:
        await manager.close()


# About SQLite's file lock: another program holds the file's write lock past the busy
# timeout (a PRAGMA). PostgreSQL has no such lock; its writers wait on rows.
@pytest.mark.sqlite_only
@pytest.mark.usefixtures("toy_game")
async def test_a_database_locked_past_the_timeout_during_play_changes_nothing(
    db_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    manager = await GameManager.open(db_path, RecordingFrontEnd(), clock=clock)
    try:
        game = await start(manager, "c1")
        await manager.store.pragma("busy_timeout = 50")
        other = sqlite3.connect(db_path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another program holds the write lock
        try:
            with pytest.raises(errors.SaveFailed, match="nothing changed"):
                await manager.act(game.id, "alice", Move("add", 1))
        finally:
            other.execute("ROLLBACK")
            other.close()
        result = await manager.act(game.id, "alice", Move("add", 1))
        assert result.version == 1
    finally:
        await manager.close()


# -- database files at start -----------------------------------------------------------


def run_bot(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DISCORD_TOKEN": "not-a-real-token", "DISPATCH_DB": str(db)}
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def one_clear_line(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr
    return lines[0]


def test_a_file_that_is_not_a_database_gives_one_line_and_exit_code_3(tmp_path: Path) -> None:
    db = tmp_path / "notes.sqlite3"
    db.write_text("these are my notes, not a database\n" * 100)
    done = run_bot(db)
    assert done.returncode == 3
    assert "not a Dispatch database" in one_clear_line(done.stderr)


async def test_a_truncated_database_gives_one_line_and_exit_code_3(tmp_path: Path) -> None:
    db = tmp_path / "cut.sqlite3"
    store = await Store.open(db)
    await store.close()
    (tmp_path / "cut.sqlite3-wal").unlink(missing_ok=True)
    data = db.read_bytes()
    db.write_bytes(data[:100] + b"\0" * 50)
    done = run_bot(db)
    assert done.returncode == 3
    one_clear_line(done.stderr)


def test_the_sandbox_refuses_a_damaged_file_the_same_way(tmp_path: Path) -> None:
    db = tmp_path / "notes.sqlite3"
    db.write_text("not a database\n" * 100)
    done = run_bot(db, "sandbox", "--db", str(db), "--out", str(tmp_path))
    assert done.returncode == 3
    assert "not a Dispatch database" in done.stdout and "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("message", "says"),
    [
        ("attempt to write a readonly database", "read-only"),
        ("database or disk is full", "disk is full"),
        ("database is locked", "locked"),
    ],
)
async def test_sqlite_refusals_at_start_become_one_sentence(
    message: str, says: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As root, permissions and quotas cannot be made to bite; SQLite's own words can.
    async def refuse(db: object, *args: object) -> list[int]:
        raise sqlite3.OperationalError(message)

    monkeypatch.setattr(bot.storage.store, "migrate", refuse)
    with pytest.raises(StoreUnavailable) as raised:
        await Store.open(tmp_path / "x.sqlite3")
    assert says in str(raised.value) and raised.value.exit_code == 3
    # and the file is free again for the next attempt
    monkeypatch.undo()
    store = await Store.open(tmp_path / "x.sqlite3")
    await store.close()


async def test_a_database_locked_by_another_program_at_start_gives_exit_code_3(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "busy.sqlite3"
    sqlite3.connect(db).execute("CREATE TABLE t (x)").connection.close()
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    monkeypatch.setattr(bot.storage.store, "BUSY_TIMEOUT_MS", 50)
    try:
        with pytest.raises(StoreUnavailable, match="locked") as raised:
            await Store.open(db)
        assert raised.value.exit_code == 3
    finally:
        holder.execute("ROLLBACK")
        holder.close()


# -- two processes ---------------------------------------------------------------------

HOLDER = textwrap.dedent(
    """
    import asyncio, sys
    from bot.storage.store import Store

    async def main():
        store = await Store.open(sys.argv[1])
        print("ready", flush=True)
        await asyncio.sleep(60)

    asyncio.run(main())
    """
)


def hold(db: Path) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(db)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    return proc


async def test_a_second_process_on_the_same_database_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "shared.sqlite3"
    other = hold(db)
    try:
        with pytest.raises(StoreInUse) as raised:
            await Store.open(db)
        assert raised.value.exit_code == 4
        assert "another Dispatch process" in str(raised.value)
        done = run_bot(db)
        assert done.returncode == 4
        assert "another Dispatch process" in one_clear_line(done.stderr)
    finally:
        other.send_signal(signal.SIGKILL)  # as a crash would: the OS frees the lock
        other.wait()
    store = await Store.open(db)
    await store.close()


async def test_a_process_holding_the_database_refuses_a_second_one(tmp_path: Path) -> None:
    db = tmp_path / "mine.sqlite3"
    store = await Store.open(db)
    try:
        proc = subprocess.run(
            [sys.executable, "-c", HOLDER, str(db)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode != 0 and "another Dispatch process" in proc.stderr
    finally:
        await store.close()


async def test_the_sandbox_starts_on_a_store_with_damaged_games(tmp_path: Path) -> None:
    import io

    from bot.terminal.sandbox import build_parser, run_sandbox

    db = tmp_path / "sandbox.sqlite3"
    args = build_parser().parse_args(["--db", str(db), "--out", str(tmp_path / "out")])
    first = await run_sandbox(args, stdin=io.StringIO("new war\n"), stdout=io.StringIO())
    assert first == 0
    store = await Store.open(db)
    async with store.write() as session:
        await session._run("UPDATE games SET posted_active = 'x', state = '{}'")
    await store.close()
    out = io.StringIO()
    code = await run_sandbox(args, stdin=io.StringIO("status\nhand\n"), stdout=out)
    text = out.getvalue()
    assert code == 0 and "Traceback" not in text
    assert "damaged" in text and "/game abandon" in text


@pytest.mark.usefixtures("toy_game")
@pytest.mark.parametrize(
    "damage_sql",
    [
        "UPDATE actions SET arg = 'not json' WHERE game_id = ?",
        "UPDATE actions SET arg = '[\"secret-U99x\"]' WHERE game_id = ?",
        "UPDATE actions SET verb = 'secret-U99x' WHERE game_id = ?",
        "INSERT INTO actions (game_id, seq, role, user_id, verb, arg, at)"
        " SELECT game_id, seq + 100, role, user_id, verb, arg, at FROM actions WHERE game_id = ?",
    ],
    ids=["unreadable-arg", "wrong-arg", "unknown-verb", "after-the-end"],
)
async def test_exporting_or_replaying_a_damaged_log_is_refused_politely(
    damage_sql: str, db_path: Path, clock: FakeClock
) -> None:
    # A moderator's export or replay check of a damaged game raised
    # raw JSONDecodeError, TypeError or NotAllowedNow.
    manager = await GameManager.open(db_path, RecordingFrontEnd(), clock=clock)
    try:
        game = await start(manager, "c1")
        await manager.act(game.id, "alice", Move("add", 2))
        await manager.resign(game.id, "bob")
        await damage(manager, game.id, damage_sql)
        for call in (manager.records.export(game.id), manager.records.verify_replay(game.id)):
            try:
                await call
            except errors.DispatchError as exc:
                assert "damaged" in exc.message and "secret-U99x" not in exc.message
    finally:
        await manager.close()
