"""End-to-end: ``/game replay`` on Discord. A game still being played
is refused for the asker alone; once over, the replay (an animated GIF of the public
board after each turn, and the public log) is posted to the channel within the server's
upload limit, which Discord sends with the interaction and the emulator enforces."""

from __future__ import annotations

import io

import discord
import pytest
from PIL import Image

import rules
from bot.tables.requests import Move
from tests.discord_helpers import table

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("discord_guard")]

SEATS = {"union": "alice", "confederate": "bob"}


async def play(manager, game_id: int, actions: int) -> None:
    """``actions`` decisions by the automated player, for whoever must act."""
    game = rules.get_game("war")
    choose = game.automated_player()
    for _ in range(actions):
        info = await manager.get_game_info(game_id)
        role = info.active_roles[0]
        pv = await manager.view_for(game_id, str(info.seat_of(role).user_id), role=role)
        verb, arg = choose(game, pv.view)
        await manager.act(
            game_id, info.seat_of(role).user_id, Move(verb, arg, pv.version, role=role)
        )


async def test_a_replay_is_posted_within_the_servers_upload_limit(tmp_path):
    async with table(tmp_path, "alice", "bob") as t:
        limit = 160 * 2**10  # a small limit, so the movie must be fitted to it
        t.guild.upload_limit = limit
        await t.start()
        # A chosen seed fixes the deal: how small the movie must be drawn to fit the limit
        # depends on the cards played, and an unseeded deal once fitted at full width.
        await t.slash(
            "alice", "game new", game="war", opponent=t.players["bob"], side="union", seed=7
        )
        info = await t.bot.manager.game_in_channel(str(t.channel.id))

        early = await t.slash("alice", "game replay")
        assert early.ephemeral and "still being played" in early.text, early.text
        unknown = await t.slash("bob", "game replay", game=info.id + 40)
        assert unknown.ephemeral and "not a game you played" in unknown.text, unknown.text

        await play(t.bot.manager, info.id, 40)
        await t.slash("alice", "game resign")
        before = len(t.emu.channel_messages(t.channel.id))
        shown = await t.emu.slash(t.players["bob"], t.channel, "game replay", game=info.id)
        [post] = await shown.response(timeout=60)
        assert not post.ephemeral and f"Replay of game #{info.id}" in post.content
        assert len(t.emu.channel_messages(t.channel.id)) == before + 1
        gif, log = post.attachments
        assert gif.filename.endswith(".gif") and log.filename.endswith("-log.txt")
        assert len(gif.data) + len(log.data) <= limit
        movie = Image.open(io.BytesIO(gif.data))
        assert movie.format == "GIF" and movie.n_frames > 3 and movie.width < 800
        final = (await t.bot.manager.view_for(info.id, None)).view
        assert log.data.decode().splitlines() == [
            *final["log"],
            "Game over: Confederacy wins (Union resigned).",
        ]

        again = await t.slash("alice", "game replay")  # this channel's latest: the same
        assert again.messages[0].attachments[0].data == gif.data
        assert t.bot.manager.records.replays.builds == 1


async def test_the_emulator_refuses_an_upload_over_the_servers_limit(tmp_path):
    async with table(tmp_path, "alice") as t:
        t.guild.upload_limit = 100 * 2**10
        bot = await t.start()
        channel = bot.get_channel(t.channel.id)
        small = discord.File(io.BytesIO(b"x" * (99 * 2**10)), filename="small.bin")
        await channel.send("fits", file=small)
        big = discord.File(io.BytesIO(b"x" * (101 * 2**10)), filename="big.bin")
        with pytest.raises(discord.HTTPException) as refused:
            await channel.send("too big", file=big)
        assert refused.value.status == 413 and refused.value.code == 40005
        result = await t.emu.slash(t.players["alice"], t.channel, "game status")
        assert result.record.payload["attachment_size_limit"] == 100 * 2**10
