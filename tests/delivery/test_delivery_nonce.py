"""Every delivery carries its outbox row's nonce: the same on each send of that row, and
different for every other row, so Discord can drop a repeat after a crash between the send
and the mark (the Discord side of it: tests/discord/test_discord_crash.py)."""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from conftest import FakeClock, RecordingFrontEnd

from bot.delivery.outbox import NONCE_MAX_LEN, NONCE_WINDOW_S, delivery_nonce
from bot.delivery.port import GameInfo, PrivateMessage, SeatInfo, TablePost
from bot.errors import DeliveryRetry
from bot.tables.manager import GameManager
from bot.tables.requests import Move, NewGame
from tests.store_sql import rows

pytestmark = pytest.mark.usefixtures("toy_game")


class Killed(BaseException):
    """The process dying: not an ``Exception``, so delivery cannot treat it as a failure."""


@dataclass
class SendThenDie(RecordingFrontEnd):
    """Records what it was asked to send (nonce included); the ``die_on``-th send reaches
    "Discord" and then the process dies before delivery can mark the row."""

    sent: list[tuple[str, str]] = field(default_factory=list)
    die_on: int = 0

    def _sent(self, what: str, nonce: str) -> None:
        self.sent.append((what, nonce))
        if len(self.sent) == self.die_on:
            raise Killed

    async def post_table(self, game: GameInfo, post: TablePost) -> None:
        await super().post_table(game, post)
        self._sent(f"table {post.kind}", post.nonce)

    async def send_private(self, game: GameInfo, seat: SeatInfo, message: PrivateMessage) -> None:
        await super().send_private(game, seat, message)
        self._sent(f"{message.role} {message.kind}", message.nonce)


def outbox_nonces(db_path: Path | str) -> dict[str, int]:
    """nonce -> outbox row id, computed from the rows themselves (either engine)."""
    found = rows(db_path, "SELECT id, created_at FROM outbox")
    return {delivery_nonce(row_id, created_at): row_id for row_id, created_at in found}


async def test_every_post_and_message_carries_its_rows_nonce(
    db_path: Path, clock: FakeClock
) -> None:
    front_end = SendThenDie()
    manager = await GameManager.open(db_path, front_end, clock=clock)
    try:
        await manager.create_game("g1", "c1", "alice", NewGame("toy", seed=5))
        game = await manager.join("c1", "bob")
        await manager.act(game.id, "alice", Move("add", 2))
        await manager.act(game.id, "alice", Move("done"))
    finally:
        await manager.close()
    kinds = {what for what, _ in front_end.sent}
    assert {"table start", "table turn"} <= kinds
    assert any(not what.startswith("table") for what in kinds)  # DMs too
    nonces = [nonce for _, nonce in front_end.sent]
    assert len(set(nonces)) == len(nonces), "two rows share a nonce: Discord would drop one"
    by_nonce = outbox_nonces(db_path)
    assert all(nonce in by_nonce for nonce in nonces)
    assert all(0 < len(nonce) <= NONCE_MAX_LEN for nonce in nonces)


async def test_a_row_retried_after_a_failure_keeps_its_nonce(
    db_path: Path, clock: FakeClock
) -> None:
    front_end = SendThenDie(transient_failures=1)
    manager = await GameManager.open(db_path, front_end, clock=clock)
    try:
        await manager.create_game("g1", "c1", "alice", NewGame("toy", seed=5))
        game = await manager.join("c1", "bob")  # the start post fails once (a lost reply)
        assert front_end.posts == []
        clock.advance(60)
        await manager.deliver_due(game.id)
    finally:
        await manager.close()
    [start] = front_end.posts
    assert start.kind == "start" and start.nonce in outbox_nonces(db_path)


@pytest.mark.parametrize("die_on", [1, 2])  # 1: the table post, 2: the first DM
async def test_a_resend_after_dying_between_send_and_mark_has_the_same_nonce(
    db_path: Path, clock: FakeClock, die_on: int
) -> None:
    dying = SendThenDie(die_on=die_on)
    first = await GameManager.open(db_path, dying, clock=clock)
    try:
        await first.create_game("g1", "c1", "alice", NewGame("toy", seed=5))
        with pytest.raises(Killed):
            await first.join("c1", "bob")
    finally:
        await first.close()
    sent_before_death = dying.sent[die_on - 1]
    assert sent_before_death[1] in outbox_nonces(db_path)

    after = SendThenDie()
    second = await GameManager.open(db_path, after, clock=clock)  # start-up redelivery
    await second.close()
    # The unmarked row goes again (at-least-once) with the very nonce Discord already saw.
    assert after.sent[0] == sent_before_death
    assert sent_before_death not in after.sent[1:]
    # Rows marked before the death are not sent again.
    assert not set(dying.sent[: die_on - 1]) & set(after.sent)


def test_nonce_fits_discords_limit_and_differs_between_databases() -> None:
    year_2200 = 7_258_118_400.0
    assert len(delivery_nonce(10**12 - 1, year_2200)) <= NONCE_MAX_LEN
    assert delivery_nonce(1, 1_700_000_000.0) == delivery_nonce(1, 1_700_000_000.0)
    # A reset database numbers its rows from 1 again; its creation times differ.
    assert delivery_nonce(1, 1_700_000_000.0) != delivery_nonce(1, 1_700_000_300.0)
    assert delivery_nonce(1, 1_700_000_000.0) != delivery_nonce(2, 1_700_000_000.0)


async def test_crash_bots_no_nonce_patch_reaches_the_courier(
    db_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    # bench/bench_crash_repeats.py compares the bot with and without its row nonce through
    # tests/crash_bot.py --no-nonce; the patch once blanked a name the courier no longer
    # read, and both runs showed the nonce at work. The patch must reach every send.
    from tests import crash_bot

    module, name = crash_bot.NONCE_TARGET
    target = importlib.import_module(module)
    monkeypatch.setattr(target, name, getattr(target, name))  # restored after the test
    front_end = SendThenDie()
    manager = await GameManager.open(db_path, front_end, clock=clock)
    try:
        crash_bot.disable_row_nonce()
        await manager.create_game("g1", "c1", "alice", NewGame("toy", seed=5))
        await manager.join("c1", "bob")
    finally:
        await manager.close()
    assert front_end.sent, "nothing was delivered"
    assert all(nonce == "" for _, nonce in front_end.sent), front_end.sent


@dataclass
class Remembering(SendThenDie):
    """A front end over a Discord that keeps every message: ``already_sent`` finds one by
    its nonce (``on_discord``), as the Discord front end does in the channel's history.
    ``lose_replies``: how many next sends reach Discord but fail as an unanswered request."""

    on_discord: set[str] = field(default_factory=set)
    looked: list[str] = field(default_factory=list)
    lose_replies: int = 0
    look_fails: bool = False

    def _sent(self, what: str, nonce: str) -> None:
        self.on_discord.add(nonce)
        super()._sent(what, nonce)
        if self.lose_replies:
            self.lose_replies -= 1
            raise DeliveryRetry("timed out")

    async def already_sent(
        self, game: GameInfo, seat: SeatInfo | None, nonce: str, since: float
    ) -> bool:
        self.looked.append(nonce)
        if self.look_fails:
            raise DeliveryRetry("history unavailable")
        return nonce in self.on_discord


@pytest.mark.parametrize("die_on", [1, 2])  # 1: the table post, 2: the first DM
async def test_a_resend_past_the_nonce_window_looks_first_and_posts_once(
    db_path: Path, clock: FakeClock, die_on: int
) -> None:
    # Past Discord's few minutes the nonce no longer makes a repeat
    # harmless; a restart that late must find the message rather than post it again.
    dying = Remembering(die_on=die_on)
    first = await GameManager.open(db_path, dying, clock=clock)
    try:
        await first.create_game("g1", "c1", "alice", NewGame("toy", seed=5))
        with pytest.raises(Killed):
            await first.join("c1", "bob")
    finally:
        await first.close()
    died_on = dying.sent[die_on - 1]
    clock.advance(NONCE_WINDOW_S + 1)

    after = Remembering(on_discord=set(dying.on_discord))
    second = await GameManager.open(db_path, after, clock=clock)  # start-up redelivery
    await second.close()
    assert died_on not in after.sent, after.sent
    assert after.looked == [died_on[1]]  # only the row that may have gone out
    [(undelivered,)] = rows(db_path, "SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL")
    assert undelivered == 0


def starts(front_end: SendThenDie) -> int:
    return [what for what, _ in front_end.sent].count("table start")


async def test_a_late_retry_of_a_create_that_went_through_posts_once(
    db_path: Path, clock: FakeClock
) -> None:
    front_end = Remembering(lose_replies=1)
    manager = await GameManager.open(db_path, front_end, clock=clock)
    try:
        await manager.create_game("g1", "c1", "alice", NewGame("toy", seed=5))
        game = await manager.join("c1", "bob")  # the start post is made; its answer is lost
        assert starts(front_end) == 1
        front_end.look_fails = True
        clock.advance(3600)
        await manager.deliver_due(game.id)  # cannot look: nothing is sent, it waits
        assert starts(front_end) == 1 and front_end.looked
        front_end.look_fails = False
        clock.advance(3600)
        await manager.deliver_due(game.id)
    finally:
        await manager.close()
    assert starts(front_end) == 1, front_end.sent
    assert any(not what.startswith("table") for what, _ in front_end.sent)  # the rest went
