"""Delivered outbox rows are deleted once older than the host's retention (default 30
days); rows not yet delivered are kept, however old."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import FakeClock, RecordingFrontEnd

from bot.config import Config, ConfigError
from bot.delivery import retention
from bot.tables.manager import GameManager
from bot.tables.requests import Move, NewGame

DAY = 86400.0


async def outbox(manager: GameManager) -> tuple[int, int]:
    """(delivered rows, undelivered rows)."""
    async with manager.store.read() as db:
        rows = await db._all("SELECT delivered_at FROM outbox")
    delivered = sum(1 for r in rows if r["delivered_at"] is not None)
    return delivered, len(rows) - delivered


async def play_a_little(
    manager: GameManager, front_end: RecordingFrontEnd, *, fail_last_turn: bool = True
) -> int:
    await manager.create_game("g1", "c1", "alice", NewGame("toy", seed=5, seat="north"))
    game = await manager.join("c1", "bob")
    await manager.act(game.id, "alice", Move("add", 2, 0))
    await manager.act(game.id, "alice", Move("done", None, 1))
    front_end.crash = fail_last_turn  # the next turn's messages stay undelivered
    await manager.act(game.id, "bob", Move("add", 1, 2))
    await manager.act(game.id, "bob", Move("done", None, 3))
    return game.id


async def test_delivered_rows_go_after_30_days_and_undelivered_ones_stay(
    manager: GameManager, front_end: RecordingFrontEnd, clock: FakeClock
) -> None:
    await play_a_little(manager, front_end)
    delivered, waiting = await outbox(manager)
    assert delivered > 0 and waiting > 0
    clock.advance(29 * DAY)
    assert await manager.background.prune_outbox() == 0
    assert await outbox(manager) == (delivered, waiting)
    clock.advance(1.5 * DAY)
    assert await manager.background.prune_outbox() == delivered
    assert await outbox(manager) == (0, waiting)
    # The rows that wait are still delivered, in order, once the front end is back.
    front_end.crash = False
    clock.advance(60)  # past the retry's wait
    await manager.deliver_due()
    assert await outbox(manager) == (waiting, 0)


async def test_the_host_sets_the_retention(
    db_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch, toy_game: object
) -> None:
    front_end = RecordingFrontEnd()
    manager = await GameManager.open(db_path, front_end, clock=clock, outbox_keep_days=2)
    try:
        await play_a_little(manager, front_end)
        delivered, waiting = await outbox(manager)
        clock.advance(2.5 * DAY)
        # More rows than one statement deletes: the pass goes on until none is left.
        monkeypatch.setattr(retention, "PRUNE_BATCH", 2)
        assert await manager.background.prune_outbox() == delivered
        assert await outbox(manager) == (0, waiting)
    finally:
        await manager.close()


async def test_the_background_pass_prunes_once_an_hour(
    manager: GameManager, front_end: RecordingFrontEnd, clock: FakeClock
) -> None:
    await play_a_little(manager, front_end, fail_last_turn=False)
    delivered, _ = await outbox(manager)
    clock.advance(30 * DAY - 1800)
    await manager.background._prune_hourly()  # nothing is 30 days old yet
    clock.advance(2400)
    await manager.background._prune_hourly()  # now it is, but the last prune was 40 minutes ago
    assert await outbox(manager) == (delivered, 0)
    clock.advance(1200)
    await manager.background._prune_hourly()
    assert await outbox(manager) == (0, 0)


def test_the_retention_is_read_from_the_environment() -> None:
    assert Config.from_env({}).outbox_keep_days == 30
    assert Config.from_env({"DISPATCH_OUTBOX_KEEP_DAYS": " 7.5 "}).outbox_keep_days == 7.5
    for bad in ("0", "-3", "thirty", "nan", "inf"):
        with pytest.raises(ConfigError, match="DISPATCH_OUTBOX_KEEP_DAYS must be a number"):
            Config.from_env({"DISPATCH_OUTBOX_KEEP_DAYS": bad})
