"""End-to-end: a rated game on Discord. The end post shows each
player's rating change; the change is made once, also when the bot stops after the result
was committed but before its end post went out (the restarted bot posts it, once, and
rates nothing again); ``/leaderboard`` shows the same numbers, in an embed."""

from __future__ import annotations

import re

import pytest

from bot.errors import DeliveryRetry
from tests.discord.test_discord_end import play_to_the_end
from tests.discord_helpers import table, wait_until

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("discord_guard")]


async def start_rated_game(t) -> int:
    """alice (north) against bob, dealt from a secret key: a rated game."""
    await t.start()
    await t.emu.wait_for_commands("leaderboard")
    result = await t.slash(
        "alice", "game new", game="skirmish", opponent=t.players["bob"], options="rounds=3"
    )
    assert "the game is on" in result.text and "Seed" not in result.text
    info = await t.bot.manager.game_in_channel(str(t.channel.id))
    return info.id


def ratings_lines(text: str) -> dict[str, tuple[int, int]]:
    """{mention: (before, after)} from a post's Ratings field."""
    found = re.findall(r"\((<@\d+>)\): (\d+) → (\d+) \(([+−±]\d+)\)", text)
    return {who: (int(before), int(after)) for who, before, after, _ in found}


async def test_the_end_post_and_the_leaderboard_show_one_rating_change_across_a_restart(
    tmp_path,
    db_path,
):
    async with table(tmp_path, "alice", "bob", store=db_path) as t:
        game_id = await start_rated_game(t)
        # The end post cannot go out: the result (and the rating) is committed, the post
        # waits in the outbox, and the bot is stopped before it is delivered.
        front_end = t.bot.manager.front_end
        post_table = front_end.post_table

        async def no_end_post(game, post):
            if post.kind == "end":
                raise DeliveryRetry("Discord is down")
            await post_table(game, post)

        front_end.post_table = no_end_post
        await play_to_the_end(t, game_id)
        assert not any("Game over" in m.content for m in t.emu.channel_messages(t.channel.id))
        board_before = await t.bot.manager.records.leaderboard(str(t.guild.id), "skirmish")
        assert {s.games for s in board_before} == {1}

        await t.restart()
        await t.emu.wait_for_commands("leaderboard")
        ends = await wait_until(
            lambda: [m for m in t.emu.channel_messages(t.channel.id) if "Game over" in m.content],
            what="the end post after the restart",
        )
        await t.bot.manager.deliver_pending()
        [end] = [m for m in t.emu.channel_messages(t.channel.id) if "Game over" in m.content]
        assert ends == [end]
        alice, bob = (f"<@{t.players[n].id}>" for n in ("alice", "bob"))
        changes = ratings_lines(end.text())
        assert set(changes) == {alice, bob}, end.text()
        assert all(before == 1500 for before, _ in changes.values())

        board = await t.bot.manager.records.leaderboard(str(t.guild.id), "skirmish")
        assert board == board_before  # rated once: the restart rated nothing again
        assert {f"<@{s.player_id}>": s.points for s in board} == {
            who: after for who, (_, after) in changes.items()
        }

        shown = await t.slash("bob", "leaderboard", game="skirmish")
        [message] = shown.messages
        assert shown.ephemeral and len(message.embeds) == 1
        text = message.text()
        assert "Leaderboard: Skirmish (test game)" in text
        for s in board:
            assert f"**{s.rank}.** <@{s.player_id}>: **{s.points}** · 1 game" in text, text
        assert message.embeds[0]["footer"]["text"].startswith("Rated: finished games")


async def test_the_leaderboard_answers_bad_input_politely(tmp_path):
    async with table(tmp_path, "alice") as t:
        await t.start()
        await t.emu.wait_for_commands("leaderboard")
        empty = await t.slash("alice", "leaderboard", game="skirmish")
        assert "No rated game of Skirmish (test game) on this server yet." in empty.text
        unknown = await t.slash("alice", "leaderboard", game="chess")
        assert "There is no game called “chess”" in unknown.text and unknown.ephemeral
        solo = await t.slash("alice", "leaderboard", game="solo")
        assert "is played alone, so it has no ratings" in solo.text
