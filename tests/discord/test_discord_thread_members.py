"""Players find their game's thread: it starts from the lobby post (the channel holds one
entry per game, no "started a thread" line), each seated player and each new holder of a
seat is made a member (it is in their sidebar), and a thread opened by ``/game move`` is
named after the players as Discord knows them, though the bot has no member cache."""

from __future__ import annotations

import pytest

from tests.discord_helpers import table, wait_until
from tests.emulator.state import THREAD_CREATED

pytestmark = pytest.mark.slow


def threads_of(t, parent) -> list:  # type: ignore[no-untyped-def]
    return [c for c in t.emu.world.channels.values() if c.parent_id == parent.id]


def ids(*users) -> set[int]:  # type: ignore[no-untyped-def]
    return {u.id for u in users}


async def test_the_thread_starts_from_the_lobby_post_and_the_channel_holds_only_it(tmp_path):
    async with table(tmp_path, "alice", "bob") as t:
        await t.start()
        channel = t.channel
        opened = await t.emu.slash(t.players["alice"], channel, "game new", game="skirmish")
        await opened.response()
        await t.settle()
        [lobby] = t.emu.channel_messages(channel.id)
        [thread] = threads_of(t, channel)
        assert thread.id == lobby.id  # a thread started from a message has its id
        assert lobby.type != THREAD_CREATED and "Join" in " ".join(lobby.button_labels())
        assert "Skirmish (test game) · alice · #" in thread.name


async def test_seated_players_are_members_of_the_games_thread(tmp_path):
    async with table(tmp_path, "alice", "bob", "carol") as t:
        await t.start()
        await t.slash("alice", "game new", game="skirmish", opponent=t.players["bob"])
        thread = t.channel
        await wait_until(
            lambda: ids(t.players["alice"], t.players["bob"]) <= thread.members,
            what="both players in the thread",
        )
        assert t.players["carol"].id not in thread.members
        done = await t.emu.slash(
            t.emu.owner, thread, "game reseat", side="north", user=t.players["carol"]
        )
        await done.response()
        await wait_until(lambda: t.players["carol"].id in thread.members, what="the new holder")


async def test_a_player_who_joins_from_the_lobby_becomes_a_member(tmp_path):
    async with table(tmp_path, "alice", "bob") as t:
        await t.start()
        await t.slash("alice", "game new", game="skirmish")
        [lobby] = t.emu.channel_messages(t.parent.id)
        join = next(c for c in lobby.custom_ids() if c.startswith("dsp:") and ":j" in c)
        await t.press("bob", lobby, join)
        await wait_until(
            lambda: ids(t.players["alice"], t.players["bob"]) <= t.channel.members,
            what="both players in the thread",
        )


async def test_a_moved_game_gets_a_thread_named_after_its_players(tmp_path):
    async with table(tmp_path, "alice", "bob") as t:
        await t.start()
        await t.slash("alice", "game new", game="skirmish", opponent=t.players["bob"])
        info = await t.bot.manager.game_in_channel(str(t.channel.id))
        assert info is not None
        annex = t.emu.add_text_channel(t.guild, "annex")
        await wait_until(lambda: t.bot.get_channel(annex.id), what="the channel in the cache")
        moved = await t.emu.slash(t.emu.owner, t.channel, "game move", channel=annex)
        await moved.response()
        [thread] = threads_of(t, annex)
        assert thread.name == f"Skirmish (test game) · alice vs bob · #{info.id}"
        # The annex holds one entry for the game: the line the thread starts from.
        [note] = t.emu.channel_messages(annex.id)
        assert note.id == thread.id and note.type != THREAD_CREATED
        assert f"Game #{info.id}" in note.content
        await wait_until(
            lambda: ids(t.players["alice"], t.players["bob"]) <= thread.members,
            what="both players in the new thread",
        )
