"""kill -9 between Discord accepting a message and the outbox row being marked: the bot,
restarted on the same database, sends the row again, and exactly one message arrives.

The bot runs as its own process (tests/crash_bot.py) against the loopback emulator in this
one. Discord is made slow on the killed send (``slow_next``: the message is created at
once, the answer waits), the process is SIGKILLed the moment the message exists, so the
row is certainly unmarked. The resend carries the row's nonce with ``enforce_nonce``, and
the emulator, like Discord, answers a repeat with the first message.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from bot.delivery.outbox import delivery_nonce
from bot.delivery.port import PrivateMessage, TablePost
from bot.errors import DeliveryRetry, TableUnreachable
from bot.storage.engines import is_postgres_url
from tests import store_sql
from tests.discord_helpers import register_test_game, table, wait_until
from tests.emulator import Emulator, Message
from tests.emulator.state import PATIENCE_S

pytestmark = pytest.mark.slow

CHILD = Path(__file__).resolve().parents[1] / "crash_bot.py"
START_TIMEOUT = 60.0  # a fresh interpreter importing discord.py on a loaded machine
PG_LEASE_S = 1.0


async def spawn(
    emu: Emulator, db: Path | str, guild_id: int, log: Path, *flags: str
) -> asyncio.subprocess.Process:
    """Start tests/crash_bot.py against ``emu`` on the database ``db`` (a SQLite file or a
    PostgreSQL URL; the bot's other files go beside the log). On PostgreSQL the rows a
    killed process claimed wait for their lease to lapse: a short one, so the restarted
    process takes them over within a second or two."""
    flags = (*flags, f"--files={log.parent}")
    if is_postgres_url(db):
        flags = (*flags, f"--lease={PG_LEASE_S}")
    with log.open("ab") as out:
        return await asyncio.create_subprocess_exec(
            sys.executable,
            str(CHILD),
            emu.api_base,
            emu.ws_url,
            emu.token,
            str(db),
            str(guild_id),
            *flags,
            stdout=out,
            stderr=out,
            cwd=str(CHILD.parents[1]),
        )


async def kill_9(process: asyncio.subprocess.Process) -> None:
    if process.returncode is None:
        os.kill(process.pid, signal.SIGKILL)
    await process.wait()


def posts_in(emu: Emulator, channel_id: int) -> list[Message]:
    """The bot's own posts (not answers to interactions, such as a "thinking" placeholder)."""
    return [m for m in emu.channel_messages(channel_id) if m.interaction_id is None]


def outbox(db: Path | str) -> list[tuple[Any, ...]]:
    """(id, kind, created_at, delivered_at, last_error) of every row, read behind the bot."""
    return store_sql.rows(
        db, "SELECT id, kind, created_at, delivered_at, last_error FROM outbox ORDER BY id"
    )


async def test_killed_between_send_and_mark_the_post_and_the_dm_arrive_once(
    tmp_path: Path, db_path: Path | str
) -> None:
    register_test_game()
    db, log = db_path, tmp_path / "bot.log"
    async with Emulator() as emu:
        guild = emu.add_guild()
        table = emu.add_text_channel(guild, "games")
        alice, bob = emu.add_member(guild, "alice"), emu.add_member(guild, "bob")
        dm_channels = [emu.dm_channel(alice), emu.dm_channel(bob)]
        processes: list[asyncio.subprocess.Process] = []
        try:
            # 1. The start post reaches Discord; the process dies before marking it. The
            # game lives in a thread of the channel: the first message the
            # bot creates is that post, in the thread.
            emu.slow_next("POST /channels/*/messages", 1.0)
            processes.append(await spawn(emu, db, guild.id, log))
            await emu.wait_for_commands("game", timeout=START_TIMEOUT)
            await emu.wait_ready(timeout=START_TIMEOUT)
            await emu.slash(alice, table, "game new", game="skirmish", opponent=bob)
            home = await emu.world.wait_until(
                lambda: next(
                    (c for c in emu.world.channels.values() if c.parent_id == table.id), None
                ),
                PATIENCE_S,
                "the game's thread",
            )
            await emu.world.wait_until(lambda: posts_in(emu, home.id), PATIENCE_S, "the start post")
            await kill_9(processes[-1])
            assert outbox(db)[0][3] is None, "the start post was marked"

            # 2. Restarted: the post is resent (a repeat); the first DM reaches Discord and
            # the process dies again before marking it.
            for channel in dm_channels:
                emu.slow_next(f"POST /channels/{channel.id}/messages", 1.0)
            processes.append(await spawn(emu, db, guild.id, log))
            await emu.world.wait_until(
                lambda: emu.dms(alice.id) or emu.dms(bob.id), START_TIMEOUT, "the first DM"
            )
            await kill_9(processes[-1])
            emu.world.faults.clear()
            assert sum(row[3] is None for row in outbox(db)) >= 1, "the DM was marked"

            # 3. Restarted once more: everything left is delivered.
            processes.append(await spawn(emu, db, guild.id, log))
            await wait_until(
                lambda: all(row[3] is not None for row in outbox(db)),
                START_TIMEOUT,
                "the outbox to be delivered",
            )
        finally:
            for process in processes:
                await kill_9(process)

        rows = outbox(db)
        assert all(error is None for *_, error in rows), rows  # none skipped or dropped
        posts = posts_in(emu, home.id)
        assert posts_in(emu, table.id) == []  # the game's posts are in its thread
        dms = emu.dms(alice.id) + emu.dms(bob.id)
        assert [m.content.count("begins") for m in posts] == [1], [m.content for m in posts]
        assert len(posts) == sum(kind == "table" for _, kind, *_ in rows)
        assert len(dms) == sum(kind == "private" for _, kind, *_ in rows) >= 1
        assert len({m.id for m in dms}) == len(dms)
        # Both sends that died were repeated, and both repeats were recognised.
        creates = emu.message_creates
        assert [c.repeat for c in creates].count(True) == 2
        # Every create-message request carried its outbox row's nonce, enforced.
        nonces = {delivery_nonce(row_id, created_at) for row_id, _, created_at, *_ in rows}
        assert all(c.enforce_nonce and c.nonce in nonces for c in creates), creates
    assert "Traceback" not in log.read_text(), log.read_text()[-3000:]


async def test_a_resend_after_the_first_was_deleted_counts_as_delivered(tmp_path: Path) -> None:
    # Discord answers a repeat whose first message was deleted meanwhile (by a moderator,
    # or the player in their DMs) with 404 Unknown Message: it was delivered, and the
    # deletion stands. Any other 404 is still a failure to retry.
    async with table(tmp_path, "alice", "bob") as t:
        await t.start()
        await t.slash("alice", "game new", game="skirmish", opponent=t.players["bob"])
        info = await t.bot.manager.game_in_channel(str(t.channel.id))
        front_end = t.bot.frontend
        notice = TablePost(kind="notice", version=info.version, headline="Mind the gap.")
        notice = dataclasses.replace(notice, nonce="dsp900.test")

        def noticed() -> list[Message]:
            return [m for m in posts_in(t.emu, t.channel.id) if "Mind the gap" in m.content]

        await front_end.post_table(info, notice)
        [posted] = noticed()
        t.emu.world.delete_message(posted)
        await front_end.post_table(info, notice)  # returns: delivered
        assert noticed() == []

        seat = info.seats[0]
        secret = PrivateMessage(
            kind="reveal", role=seat.role, version=info.version, headline="Psst.", nonce="dsp901.t"
        )
        user_id = int(seat.user_id)
        before = len(t.emu.dms(user_id))
        await front_end.send_private(info, seat, secret)
        [dm] = t.emu.dms(user_id)[before:]
        t.emu.world.delete_message(dm)
        await front_end.send_private(info, seat, secret)
        assert len(t.emu.dms(user_id)) == before

        t.emu.fail_next("POST /channels/*/messages", status=404, code=0)
        with pytest.raises(DeliveryRetry):
            await front_end.post_table(info, dataclasses.replace(notice, nonce="dsp902.test"))
        # Unknown Channel (deleted) is no passing failure: the table is unreachable until
        # someone fixes it (the courier parks the post).
        t.emu.fail_next("POST /channels/*/messages", status=404, code=10003)
        with pytest.raises(TableUnreachable):
            await front_end.post_table(info, dataclasses.replace(notice, nonce="dsp903.test"))


async def test_the_front_end_finds_an_earlier_send_by_its_nonce(tmp_path: Path) -> None:
    # Past Discord's nonce window, delivery asks before repeating a send that may have
    # gone through: the table's and the DMs' history, by nonce.
    async with table(tmp_path, "alice", "bob") as t:
        await t.start()
        await t.slash("alice", "game new", game="skirmish", opponent=t.players["bob"])
        info = await t.bot.manager.game_in_channel(str(t.channel.id))
        front_end = t.bot.frontend
        since = time.time()
        notice = TablePost(kind="notice", version=info.version, headline="Hello again.")
        await front_end.post_table(info, dataclasses.replace(notice, nonce="dsp950.test"))
        assert await front_end.already_sent(info, None, "dsp950.test", since)
        assert not await front_end.already_sent(info, None, "dsp951.test", since)

        seat = info.seats[0]
        secret = PrivateMessage(
            kind="reveal", role=seat.role, version=info.version, headline="Psst.", nonce="dsp952.t"
        )
        await front_end.send_private(info, seat, secret)
        assert await front_end.already_sent(info, seat, "dsp952.t", since)
        assert not await front_end.already_sent(info, info.seats[1], "dsp952.t", since)
        assert not await front_end.already_sent(info, None, "dsp952.t", since)
