"""Crashes: whatever was committed is delivered exactly once after a restart, and a
failure inside the transaction leaves the game exactly as it was."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from conftest import FakeClock, RecordingFrontEnd

from bot.delivery.port import GameInfo, PrivateMessage, SeatInfo, TablePost
from bot.errors import SaveFailed
from bot.storage.statements.outbox import OutboxStatements
from bot.tables.manager import GameManager
from bot.tables.requests import Move, NewGame

pytestmark = pytest.mark.usefixtures("toy_game")


async def open_manager(db_path: Path, front_end: object, clock: FakeClock) -> GameManager:
    return await GameManager.open(db_path, front_end, clock=clock)  # type: ignore[arg-type]


async def start(manager: GameManager) -> GameInfo:
    await manager.create_game("g1", "c1", "alice", NewGame("toy", seed=5))
    return await manager.join("c1", "bob")


async def test_front_end_down_then_restart_redelivers_once(db_path: Path, clock: FakeClock) -> None:
    down = RecordingFrontEnd(crash=True)
    first = await open_manager(db_path, down, clock)
    game = await start(first)
    await first.act(game.id, "alice", Move("add", 2))
    await first.act(game.id, "alice", Move("done"))
    assert down.deliveries == [] and down.attempts > 0
    await first.close()

    up = RecordingFrontEnd()
    second = await open_manager(db_path, up, clock)  # start-up delivers, ignoring backoff
    try:
        kinds = [(d.kind, d.post.kind if d.post else d.message.kind) for d in up.deliveries]  # type: ignore[union-attr]
        assert kinds.count(("table", "start")) == 1
        assert kinds.count(("table", "turn")) == 1
        turn = next(p for p in up.posts if p.kind == "turn")
        assert turn.log_lines == ("North adds 2: the counter is 2.",)
        assert [m.kind for m in up.privates("bob")] == ["reveal", "turn"]
        # alice's start prompt is superseded: her turn is over, so it is not sent late
        assert up.privates("alice") == []
        assert await second.deliver_pending() == 0
    finally:
        await second.close()

    third = RecordingFrontEnd()
    again = await open_manager(db_path, third, clock)
    await again.close()
    assert third.deliveries == []


async def test_manager_dropped_between_commit_and_delivery(
    db_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = RecordingFrontEnd()
    first = await open_manager(db_path, seen, clock)
    game = await start(first)
    seen.clear()

    class Killed(Exception):
        """Stands in for the process dying (SystemExit would stop the event loop)."""

    async def crash_before_delivery(*args: object, **kwargs: object) -> int:
        raise Killed

    await first.act(game.id, "alice", Move("add", 1))
    monkeypatch.setattr(first, "deliver_due", crash_before_delivery)
    try:
        with pytest.raises(Killed):
            await first.act(game.id, "alice", Move("done"))
    finally:
        await first.close()
    assert seen.deliveries == []

    after = RecordingFrontEnd()
    second = await open_manager(db_path, after, clock)
    try:
        assert [p.kind for p in after.posts] == ["turn"]
        assert [m.kind for m in after.privates("bob")] == ["turn"]
        info = await second.get_game_info(game.id)
        assert info.version == 2 and info.active_roles == ("south",)
    finally:
        await second.close()


class HangingFrontEnd(RecordingFrontEnd):
    """Never finishes a delivery: the process dies while talking to Discord."""

    async def post_table(self, game: GameInfo, post: TablePost) -> None:
        await asyncio.Event().wait()

    async def send_private(self, game: GameInfo, seat: SeatInfo, message: PrivateMessage) -> None:
        await asyncio.Event().wait()


async def test_cancelled_during_delivery(db_path: Path, clock: FakeClock) -> None:
    first = await open_manager(db_path, RecordingFrontEnd(), clock)
    game = await start(first)
    await first.act(game.id, "alice", Move("add", 1))
    first.front_end = HangingFrontEnd()
    task = asyncio.create_task(first.act(game.id, "alice", Move("done")))
    await asyncio.sleep(0.2)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await first.close()

    after = RecordingFrontEnd()
    second = await open_manager(db_path, after, clock)
    try:
        assert [p.kind for p in after.posts] == ["turn"]
        assert (await second.get_game_info(game.id)).version == 2
    finally:
        await second.close()


async def test_failure_inside_the_transaction_changes_nothing(
    db_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    front_end = RecordingFrontEnd()
    manager = await open_manager(db_path, front_end, clock)
    try:
        game = await start(manager)
        await manager.act(game.id, "alice", Move("add", 1))
        async with manager.store.read() as db:
            before = (
                await db.game(game.id),
                await db.actions(game.id),
                await db.outbox.undelivered(),
            )

        async def disk_full(self: OutboxStatements, *args: object, **kwargs: object) -> int:
            raise OSError("disk full")

        # The player is told politely that nothing changed (no traceback).
        with monkeypatch.context() as patch, pytest.raises(SaveFailed, match="nothing changed"):
            patch.setattr(OutboxStatements, "queue", disk_full)
            await manager.act(game.id, "alice", Move("done"))
        async with manager.store.read() as db:
            after = (
                await db.game(game.id),
                await db.actions(game.id),
                await db.outbox.undelivered(),
            )
        assert after == before
        # and the game goes on normally
        result = await manager.act(game.id, "alice", Move("done", expected_version=1))
        assert result.version == 2
    finally:
        await manager.close()


async def test_replay_equals_state_after_many_actions_and_restarts(
    db_path: Path, clock: FakeClock
) -> None:
    import random

    rng = random.Random(4)
    games = []
    manager = await open_manager(db_path, RecordingFrontEnd(), clock)
    for i in range(3):
        await manager.create_game("g1", f"c{i}", "alice", NewGame("toy", seed=i, opponent_id="bob"))
        games.append((await manager.game_in_channel(f"c{i}")).id)  # type: ignore[union-attr]
    for step in range(300):
        if step % 50 == 0:  # restart now and then: nothing may depend on memory
            await manager.close()
            manager = await open_manager(db_path, RecordingFrontEnd(), clock)
        game_id = rng.choice(games)
        info = await manager.get_game_info(game_id)
        if info.status != "active":
            continue
        role = rng.choice(info.active_roles)
        user = info.seat_of(role).user_id  # type: ignore[union-attr]
        pv = await manager.view_for(game_id, user, role=role)
        choices = [
            (verb, arg)
            for verb, args in pv.view["actions"].items()
            for arg in (args if isinstance(args, list) else [None])
        ]
        verb, arg = rng.choice(choices)
        await manager.act(game_id, user, Move(verb, arg, expected_version=pv.version, role=role))
    try:
        for game_id in games:
            assert await manager.records.verify_replay(game_id)
    finally:
        await manager.close()
