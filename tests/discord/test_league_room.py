"""The Discord room of leagues: a game's table is a public thread of the league's channel
(a post, in a forum) named after the game, its round and board and its players; a round
post pings exactly the players it names to ping, once; the final post carries the
standings as an embed with the table's picture. Everything sent passes the emulator's
OpenAPI checks."""

from __future__ import annotations

import io

import discord
import pytest
from PIL import Image

from bot.discord_app.league_room import DiscordLeagueRoom
from bot.tables.bot_users import bot_user
from bot.tables.leagues.records import (
    EntrantInfo,
    LeagueGameInfo,
    LeagueInfo,
    LeaguePost,
    LeagueSpec,
)
from bot.tables.leagues.standings import SideRecord, Standing
from tests.discord_helpers import catch_errors, table

pytestmark = pytest.mark.usefixtures("discord_guard")


def _league(t, channel_id: int) -> LeagueInfo:  # type: ignore[no-untyped-def]
    players = [str(t.players[n].id) for n in ("alice", "bob")] + [bot_user("easy")]
    return LeagueInfo(
        id=3,
        guild_id=str(t.guild.id),
        channel_id=str(channel_id),
        spec=LeagueSpec(name="Winter Swiss", game_name="skirmish", format="swiss", rounds=3),
        status="running",
        round_number=1,
        created_by=str(t.emu.owner.id),
        entry_deadline=0.0,
        lobby_message_id=None,
        entrants=tuple(EntrantInfo(p, 25.0, "in") for p in players),
    )


def _game(first: str, second: str) -> LeagueGameInfo:
    return LeagueGameInfo(3, 1, 2, first, second, None, None, None, None)


def _standing(rank: int, player: str, points: float) -> Standing:
    record = SideRecord(1, 0, 0)
    return Standing(rank, player, points, 1.0, 1.0, 0.0, 25.0, record, record, 0, False)


async def test_a_game_opens_a_named_thread_and_a_round_post_pings_its_players_once(tmp_path):
    with catch_errors() as errors:
        async with table(tmp_path, "alice", "bob", "carol") as t:
            await t.start()
            room = DiscordLeagueRoom(t.bot)
            alice, bob, carol = (str(t.players[n].id) for n in ("alice", "bob", "carol"))
            league = _league(t, t.channel.id)
            opened = await room.open_table(league, _game(alice, bob), "ignored")
            thread = t.emu.world.channels[int(opened)]
            assert thread.parent_id == t.channel.id and thread.type == 11
            assert thread.name.startswith("Skirmish (test game) · R1 B2 · alice vs bob")

            lines = (
                f"Board 1: <@{alice}> v <@{bob}>: <#{opened}>",
                f"Board 2: <@{carol}> v {bot_user('easy')}",
            )
            post = LeaguePost("round", 3, "Round 1 of Winter Swiss", lines, (alice, bob, carol), 1)
            await room.post(league, post)
            [said] = [m for m in t.emu.channel_messages(t.channel.id) if "Round 1" in m.content]
            assert sorted(said.pinged) == sorted(int(p) for p in (alice, bob, carol))
            assert said.content == "\n".join([post.headline, *lines])
    assert errors.discord_errors() == []


async def test_a_forum_league_opens_posts_and_the_final_post_shows_the_table(tmp_path):
    with catch_errors() as errors:
        async with table(tmp_path, "alice", "bob") as t:
            forum = t.emu.add_forum_channel(t.guild, "league")
            await t.start()
            room = DiscordLeagueRoom(t.bot)
            alice, bob = (str(t.players[n].id) for n in ("alice", "bob"))
            league = _league(t, forum.id)
            opened = await room.open_table(league, _game(bob, alice), "ignored")
            assert t.emu.world.channels[int(opened)].parent_id == forum.id
            assert "bob vs alice" in t.emu.world.channels[int(opened)].name

            text_league = _league(t, t.channel.id)
            table_rows = (_standing(1, alice, 2.0), _standing(2, bot_user("easy"), 1.0))
            final = LeaguePost(
                "final", 3, "Winter Swiss is over", (), (alice, bob), standings=table_rows
            )
            await room.post(text_league, final)
            [said] = [m for m in t.emu.channel_messages(t.channel.id) if "is over" in m.content]
            assert sorted(said.pinged) == sorted([int(alice), int(bob)])
            [embed] = said.embeds
            assert embed["title"] == "Winter Swiss: final standings"
            assert f"**1.** <@{alice}>: **2**" in embed["fields"][0]["value"]
            [picture] = said.attachments
            assert picture.filename == "standings.png"
            assert Image.open(io.BytesIO(picture.data)).width == 820
    assert errors.discord_errors() == []


async def test_a_long_post_that_failed_part_way_is_finished_without_a_second_ping(
    tmp_path, monkeypatch
):
    """A post too long for one message goes out as several; when one fails, the desk says
    the post again (it raises), and the parts already said are not said twice."""
    with catch_errors():
        async with table(tmp_path, "alice", "bob") as t:
            await t.start()
            room = DiscordLeagueRoom(t.bot)
            alice, bob = (str(t.players[n].id) for n in ("alice", "bob"))
            league = _league(t, t.channel.id)
            lines = tuple(
                f"Board {b}: <@{alice if b == 1 else bob}> v someone who plays a long name {b}"
                for b in range(1, 80)
            )
            post = LeaguePost("round", 3, "Round 1 of Winter Swiss", lines, (alice, bob), 1)
            send = discord.TextChannel.send
            calls = []

            async def second_fails(channel, *args, **kwargs):  # type: ignore[no-untyped-def]
                calls.append(kwargs["content"])
                if len(calls) == 2:
                    raise RuntimeError("Discord is down")
                return await send(channel, *args, **kwargs)

            monkeypatch.setattr(discord.TextChannel, "send", second_fails)
            with pytest.raises(RuntimeError):
                await room.post(league, post)
            await room.post(league, post)  # the retry
            said = [m for m in t.emu.channel_messages(t.channel.id) if "Board" in m.content]
            assert "\n".join(m.content for m in said) == "\n".join([post.headline, *lines])
            assert len(said) == len({m.content for m in said}) >= 3
            pinged = [u for m in said for u in m.pinged]
            assert sorted(pinged) == sorted([int(alice), int(bob)])
