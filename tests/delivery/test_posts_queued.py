"""A ``dispatch worker``'s posts reach Discord when it says so, not at the bot's next
background pass (PostgreSQL's NOTIFY on ``POSTS_QUEUED``): the worker tells after each
move it made, and the bot, listening, delivers at once. Without it every bot process
had to run its background pass often, a cost each process paid whatever the load."""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncpg
from conftest import RecordingFrontEnd

from bot.discord_app import create_bot
from bot.dispatch_players.bots import BotSeats
from bot.storage.engines import POSTS_QUEUED
from bot.storage.store import Store
from bot.tables.bot_users import bot_user
from bot.tables.manager import GameManager
from bot.tables.requests import Move, NewGame
from bot.workers.worker import OutboxOnly, Worker
from tests.discord_helpers import table

DISPATCH = bot_user("easy")
#: How long the other side may take (a real listener on a real server).
PATIENCE_S = 30.0


async def game_against_dispatch(url: str, guild: str, channel: str, human: str) -> int:
    """A game against Dispatch (seeded), its start post delivered, not to Discord."""
    opening = await GameManager.open(url, RecordingFrontEnd())
    BotSeats.attach(opening, workers="thread").nudge = lambda game_id: None  # type: ignore[method-assign]
    try:
        new = NewGame("fort_sumter", seat="secessionist", opponent_id=DISPATCH, seed=5)
        return (await opening.create_game(guild, channel, human, new)).id
    finally:
        await opening.close()


async def test_a_worker_says_when_its_move_left_posts_in_the_outbox(pg_url: str) -> None:
    game_id = await game_against_dispatch(pg_url, "g1", "c1", "alice")
    told: asyncio.Queue[str] = asyncio.Queue()
    listener = await asyncpg.connect(pg_url)
    await listener.add_listener(POSTS_QUEUED, lambda *args: told.put_nowait(str(args[3])))
    manager = GameManager(await Store.open(pg_url), OutboxOnly())
    seats = BotSeats(manager, workers="thread", iterations=8)
    try:
        assert await Worker(seats, listen=False).step()
        assert await asyncio.wait_for(told.get(), PATIENCE_S) == f"{game_id} g1"
    finally:
        await seats.close()
        await manager.close()
        await listener.close()


async def test_the_bot_delivers_a_workers_posts_when_told_not_at_its_next_pass(
    tmp_path: Path, pg_url: str
) -> None:
    async with table(tmp_path, "alice", store=pg_url) as t:
        # A background pass an hour apart: only being told can bring the posts out.
        t.make_bot = lambda: create_bot(t.config(), delivery_interval=3600.0)  # type: ignore[method-assign]
        await t.start()
        alice = str(t.players["alice"].id)
        game_id = await game_against_dispatch(pg_url, str(t.guild.id), str(t.channel.id), alice)
        # A worker makes Dispatch's move; its front end refuses the posts, which wait.
        manager = GameManager(await Store.open(pg_url), OutboxOnly())
        seats = BotSeats(manager, workers="thread", iterations=8)
        bot_id = t.emu.bot_user.id

        def posted() -> list[object]:
            messages = t.emu.channel_messages(t.channel.id)
            return [m for m in messages if m.author.id == bot_id]

        try:
            worker = Worker(seats, listen=False)
            assert await worker.step()  # Dispatch keeps its objective (nothing to post)
            # The human keeps hers, through a process that leaves its posts waiting too.
            view = await manager.view_for(game_id, alice)
            keep = Move("keep", view.view["actions"]["keep"][0], view.version)
            await manager.act(game_id, alice, keep, deliver=False)
            assert posted() == []
            assert await worker.step()  # Dispatch's next move: a table post waits
            await t.emu.world.wait_until(lambda: bool(posted()), PATIENCE_S, "the post")
        finally:
            await seats.close()
            await manager.close()
