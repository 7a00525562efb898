"""An outbox claim lives as long as its delivery: a process still sending a
game's rows (a slow answer from Discord, its rate limit's wait) renews its lease, so no
other process takes the rows over and posts them a second time; a process that died
stops renewing and its claim is taken over once the lease lapses. Two bot processes on
one database, each a GameManager with a Store of its own, on both engines."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from conftest import FakeClock, RecordingFrontEnd

from bot.delivery import courier
from bot.delivery.outbox import post_payload
from bot.delivery.port import GameInfo, TablePost
from bot.storage.store import LEASE_S
from bot.tables.manager import GameManager
from bot.tables.requests import NewGame
from tests.emulator.state import PATIENCE_S

pytestmark = pytest.mark.usefixtures("toy_game")


@dataclass
class SlowFrontEnd(RecordingFrontEnd):
    """A front end whose table posts wait while ``hold`` is set (Discord answering slowly)."""

    hold: asyncio.Event | None = None
    entered: asyncio.Event = field(default_factory=asyncio.Event)

    async def post_table(self, game: GameInfo, post: TablePost) -> None:
        if self.hold is not None:
            self.entered.set()
            await self.hold.wait()
        await super().post_table(game, post)


@pytest.fixture
async def processes(
    db_path: Path | str, clock: FakeClock
) -> AsyncIterator[tuple[GameManager, GameManager]]:
    first = await GameManager.open(db_path, SlowFrontEnd(), clock=clock)
    second = await GameManager.open(db_path, RecordingFrontEnd(), clock=clock)
    yield first, second
    await first.close()
    await second.close()


async def a_game_with_a_post_waiting(manager: GameManager) -> int:
    """A game whose start went out, and one more table post waiting in the outbox."""
    info = await manager.create_game("g", "c", "alice", NewGame("toy", opponent_id="bob"))
    post = TablePost(kind="notice", version=info.version, headline="The slow one.")
    async with manager.store.transaction() as db:
        await db.outbox.queue(info.id, "table", None, post_payload(post))
    return info.id


async def lease_of(manager: GameManager, game_id: int) -> float:
    async with manager.store.read() as db:
        r = await db._one(
            "SELECT MIN(lease_until) FROM outbox WHERE game_id = ? AND delivered_at IS NULL",
            (game_id,),
        )
    assert r is not None and r[0] is not None
    return float(r[0])


async def renewed_past(manager: GameManager, game_id: int, now: float) -> None:
    """Until the sender's renewal (every tick here) has moved its lease past ``now``."""
    while await lease_of(manager, game_id) <= now:
        await asyncio.sleep(0)


def slow_posts(front_end: RecordingFrontEnd) -> list[TablePost]:
    return [p for p in front_end.posts if p.headline == "The slow one."]


async def test_a_delivery_held_past_the_lease_keeps_its_claim(
    processes: tuple[GameManager, GameManager], clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = processes
    monkeypatch.setattr(courier, "RENEW_EVERY_S", 0.0)  # a renewal at every turn of the loop
    game = await a_game_with_a_post_waiting(first)
    slow: SlowFrontEnd = first.front_end  # type: ignore[assignment]
    slow.hold = asyncio.Event()
    sending = asyncio.ensure_future(first.deliver_due(game))
    await asyncio.wait_for(slow.entered.wait(), PATIENCE_S)  # the post is on its way to Discord
    for _ in range(3):  # three leases and more: the answer still has not come
        clock.advance(LEASE_S + 1)
        await asyncio.wait_for(renewed_past(first, game, clock()), PATIENCE_S)
        assert await second.deliver_due(game) == 0
        assert await second.deliver_due(game, ignore_backoff=True) == 0
    assert slow_posts(second.front_end) == []  # type: ignore[arg-type]
    slow.hold.set()  # Discord answers at last
    assert await asyncio.wait_for(sending, PATIENCE_S) == 1
    assert len(slow_posts(slow)) == 1
    assert await second.deliver_due(game) == 0
    assert slow_posts(second.front_end) == []  # type: ignore[arg-type]


async def test_a_dead_process_claim_is_taken_over_after_the_lease(
    processes: tuple[GameManager, GameManager], clock: FakeClock
) -> None:
    first, second = processes
    game = await a_game_with_a_post_waiting(first)
    async with first.store.transaction(game=game) as db:  # claimed, then the process died
        assert await db.outbox.claim_outbox(game, first.store.instance, LEASE_S)
    clock.advance(LEASE_S - 1)
    assert await second.deliver_due(game) == 0  # the lease still holds
    clock.advance(2)
    assert await second.deliver_due(game) == 1  # lapsed: taken over and sent, once
    assert len(slow_posts(second.front_end)) == 1  # type: ignore[arg-type]
    assert await first.deliver_due(game) == 0
    assert slow_posts(first.front_end) == []  # type: ignore[arg-type]
