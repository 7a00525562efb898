"""A thread per game, end to end through the emulator: ``/game new`` in a
text channel opens a public thread named after the game, its players and its number, and
the game lives there (a channel holds any number of games); the lobby post in the channel
links the thread and is edited when the game starts and ends; in a thread the game uses
it, in a forum channel it opens a post; ``/game settings threads:off`` goes back to one game
per channel. A missing permission is named before anything is opened. A table that stops
taking posts tells both players by DM of ``/game move``, which moves the game to another
channel or thread, where the board is posted again."""

from __future__ import annotations

import pytest

from bot.discord_app import threads
from bot.tables.requests import Move
from tests.discord_helpers import catch_errors, table, wait_until
from tests.emulator.state import (
    CREATE_PUBLIC_THREADS,
    PATIENCE_S,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
)

pytestmark = pytest.mark.slow


def public(t, channel) -> list:
    return [m for m in t.emu.channel_messages(channel.id) if not m.ephemeral]


def threads_of(t, parent) -> list:
    return [c for c in t.emu.world.channels.values() if c.parent_id == parent.id]


async def open_game(t, who: str = "alice", **options):
    """``/game new`` of the test game in the text channel; (result, thread, game info)."""
    parent = t.parent or t.channel
    before = {c.id for c in threads_of(t, parent)}
    result = await t.emu.slash(t.players[who], parent, "game new", game="skirmish", **options)
    await result.response()
    await t.settle()  # the lobby post is completed after the first answer
    [thread] = [c for c in threads_of(t, parent) if c.id not in before]
    info = await t.bot.manager.game_in_channel(str(thread.id))
    assert info is not None, result.text
    return result, thread, info


async def test_game_new_opens_a_thread_and_its_lobby_post_follows_the_game(tmp_path, db_path):
    with catch_errors() as errors_seen:
        async with table(tmp_path, "alice", "bob", "carol", store=db_path) as t:
            await t.start()
            channel = t.channel
            result, thread, info = await open_game(t)
            # A public thread (type 11) of the channel, named after game, players, number.
            assert thread.type == 11 and thread.parent_id == channel.id
            assert thread.name == f"Skirmish (test game) · alice · #{info.id}"
            assert info.channel_id == str(thread.id)
            # The lobby post stays in the channel and links the thread.
            [lobby] = await result.response()
            assert lobby.channel_id == channel.id and not lobby.ephemeral
            link = f"https://discord.com/channels/{t.guild.id}/{thread.id}"
            assert link in lobby.content
            assert await t.bot.manager.threads.lobby_post(info.id) == (
                str(channel.id),
                str(lobby.id),
            )

            # Bob joins from the lobby post in the channel: the game starts in the thread.
            join = next(c for c in lobby.custom_ids() if c.startswith("dsp:") and ":j" in c)
            await t.press("bob", lobby, join)
            await t.emu.world.wait_until(
                lambda: any("to act" in m.text() or m.attachments for m in public(t, thread)),
                PATIENCE_S,
                "the start post in the thread",
            )
            await t.emu.world.wait_until(
                lambda: f"the game is on, in <#{thread.id}>" in t.emu.message(lobby.id).content,
                5.0,
                "the lobby post edited at the start",
            )
            assert t.emu.message(lobby.id).components == []
            # Nothing of the game itself is posted in the channel: only lobby posts.
            assert [m.id for m in public(t, channel)] == [lobby.id]

            # A second game in the same channel: its own thread, both live.
            _, second, other = await open_game(t, "carol")
            assert second.id != thread.id and other.id != info.id
            assert {g.id for g in await t.bot.manager.threads.games_living_in(str(channel.id))} == {
                info.id,
                other.id,
            }

            # The game ends (alice resigns, in the thread): the lobby post says so.
            resigned = await t.emu.slash(t.players["alice"], thread, "game resign")
            await resigned.response()
            await t.settle()
            await t.emu.world.wait_until(
                lambda: "Game over: South wins" in t.emu.message(lobby.id).content,
                PATIENCE_S,
                "the lobby post edited at the end",
            )
            assert f"<#{thread.id}>" in t.emu.message(lobby.id).content
    assert errors_seen.all_errors() == []


async def test_a_command_in_the_channel_names_the_games_of_its_threads(tmp_path):
    async with table(tmp_path, "alice", "bob") as t:
        await t.start()
        channel = t.channel
        opened, thread, info = await open_game(t, opponent=t.players["bob"])
        # The game starts at once: its start post and the lobby's edit are out before the
        # commands (nothing of the bot's is still on its way when the table closes).
        [lobby] = await opened.response()
        await t.emu.world.wait_until(
            lambda: any("to act" in m.text() or m.attachments for m in public(t, thread)),
            PATIENCE_S,
            "the start post in the thread",
        )
        await t.emu.world.wait_until(
            lambda: "the game is on" in t.emu.message(lobby.id).content,
            PATIENCE_S,
            "the lobby post edited at the start",
        )
        result = await t.emu.slash(t.players["alice"], channel, "game status")
        text = (await result.response())[0].content
        assert result.ephemeral
        assert f"#{info.id}" in text and f"<#{thread.id}>" in text and "thread" in text
        # In the thread, the same command finds its game.
        looked = await t.emu.slash(t.players["alice"], thread, "game status")
        assert f"(#{info.id})" in (await looked.response())[0].text()


@pytest.mark.parametrize(
    ("denied", "named"),
    [
        (CREATE_PUBLIC_THREADS, "Create Public Threads"),
        (SEND_MESSAGES_IN_THREADS, "Send Messages in Threads"),
    ],
)
async def test_a_missing_thread_permission_is_named_and_nothing_is_opened(tmp_path, denied, named):
    with catch_errors() as errors_seen:
        async with table(tmp_path, "alice", "bob") as t:
            await t.start()
            t.emu.deny_bot(t.channel, denied)
            result = await t.emu.slash(t.players["alice"], t.channel, "game new", game="skirmish")
            [answer] = await result.response()
            assert result.ephemeral and named in answer.content, answer.content
            assert "open a thread" in answer.content
            assert threads_of(t, t.channel) == []
            assert await t.bot.manager.threads.games_living_in(str(t.channel.id)) == []
            async with t.bot.manager.store.read() as db:
                assert await db.game(1) is None
    assert errors_seen.all_errors() == []


async def test_send_messages_alone_does_not_stop_a_thread_game(tmp_path):
    """Posting in the game's thread needs Send Messages in Threads, not Send Messages:
    Dispatch asks only for what it uses."""
    async with table(tmp_path, "alice", "bob") as t:
        await t.start()
        t.emu.deny_bot(t.channel, SEND_MESSAGES)
        _, thread, info = await open_game(t, opponent=t.players["bob"])
        assert info.status == "active"
        await t.emu.world.wait_until(lambda: public(t, thread), PATIENCE_S, "the start post")


async def test_in_a_thread_the_game_uses_it_and_in_a_forum_it_opens_a_post(tmp_path):
    async with table(tmp_path, "alice", "bob") as t:
        existing = t.emu.add_thread(t.channel, "our game")
        forum = t.emu.add_forum_channel(t.guild, "games-forum")
        await t.start()
        result = await t.emu.slash(
            t.players["alice"], existing, "game new", game="skirmish", opponent=t.players["bob"]
        )
        await result.response()
        info = await t.bot.manager.game_in_channel(str(existing.id))
        assert info is not None and info.status == "active"
        assert [c.id for c in threads_of(t, t.channel)] == [existing.id]  # no new thread
        assert await t.bot.manager.threads.lobby_post(info.id) is None

        result = await t.emu.slash(t.players["bob"], forum, "game new", game="skirmish")
        await result.response()
        [post] = threads_of(t, forum)
        assert post.type == 11 and post.parent_id == forum.id
        first = public(t, post)[0]
        assert first.content.startswith(
            "Skirmish (test game): bob, waiting for an opponent. This post is the game's table."
        )
        game = await t.bot.manager.game_in_channel(str(post.id))
        assert game is not None and post.name.endswith(f"#{game.id}")


async def test_threads_off_plays_in_the_channel_one_game_at_a_time(tmp_path):
    async with table(tmp_path, "alice", "bob") as t:
        await t.start()
        refused = await t.emu.slash(t.players["alice"], t.channel, "game settings", threads="off")
        assert "Manage Channels" in (await refused.response())[0].content
        assert await t.bot.manager.threads.enabled(str(t.guild.id)) is True
        answer = await t.emu.slash(t.emu.owner, t.channel, "game settings", threads="off")
        assert "threads: off" in (await answer.response())[0].content
        assert await t.bot.manager.threads.enabled(str(t.guild.id)) is False

        await t.slash("alice", "game new", game="skirmish", opponent=t.players["bob"])
        assert t.parent is None and threads_of(t, t.channel) == []
        info = await t.bot.manager.game_in_channel(str(t.channel.id))
        assert info is not None and info.status == "active"
        busy = await t.emu.slash(t.players["bob"], t.channel, "game new", game="skirmish")
        assert "already has a game" in (await busy.response())[0].content

        again = await t.emu.slash(t.emu.owner, t.channel, "game settings", threads="on")
        assert "threads: on" in (await again.response())[0].content


async def test_a_thread_archived_after_a_quiet_week_is_reopened_not_parked(tmp_path):
    """Discord archives a thread after a week without posts; a player of a long game may
    take that long. The next table post reopens it and arrives, once; nobody is told the
    table is unreachable. A thread a moderator locked stays closed (the test below)."""
    with catch_errors() as errors_seen:
        async with table(tmp_path, "alice", "bob") as t:
            await t.start()
            _, thread, info = await open_game(t, opponent=t.players["bob"])
            manager = t.bot.manager
            t.emu.archive_thread(thread)
            before = len(public(t, thread))
            for who in ("alice", "bob"):
                user = str(t.players[who].id)
                pv = await manager.view_for(info.id, user)
                await manager.act(
                    info.id, user, Move("card", pv.view["actions"]["card"][0], pv.version)
                )
            await t.emu.world.wait_until(
                lambda: any("Round 1: north played" in m.text() for m in public(t, thread)),
                PATIENCE_S,
                "the reveal posted in the reopened thread",
            )
            assert not thread.archived and not thread.locked
            reveals = [m for m in public(t, thread)[before:] if "Round 1: north played" in m.text()]
            assert len(reveals) == 1
            async with manager.store.read() as db:
                assert not await db.outbox.table_parked(info.id)
            for who in ("alice", "bob"):
                assert not any(
                    "/game move" in t.emu.message(m.id).text() for m in t.emu.dms(t.players[who].id)
                )
            assert (await manager.get_game_info(info.id)).channel_id == str(thread.id)
    assert errors_seen.all_errors() == []


async def test_an_unreachable_thread_tells_the_players_of_game_move_which_moves_it(tmp_path):
    with catch_errors() as errors_seen:
        async with table(tmp_path, "alice", "bob", "mallory") as t:
            elsewhere = t.emu.add_text_channel(t.guild, "elsewhere")
            await t.start()
            channel = t.channel
            _, thread, info = await open_game(t, opponent=t.players["bob"])
            manager = t.bot.manager
            t.emu.lock_thread(thread)  # a moderator locked it: 400 Thread is archived

            # Both choose a card: the reveal is a table post, which is parked, not retried.
            for who in ("alice", "bob"):
                user = str(t.players[who].id)
                pv = await manager.view_for(info.id, user)
                await manager.act(
                    info.id, user, Move("card", pv.view["actions"]["card"][0], pv.version)
                )
            for who in ("alice", "bob"):
                await t.emu.world.wait_until(
                    lambda who=who: any(
                        "/game move" in t.emu.message(m.id).text()
                        for m in t.emu.dms(t.players[who].id)
                    ),
                    PATIENCE_S,
                    f"{who} told of /game move",
                )
            async with manager.store.read() as db:
                assert await db.outbox.table_parked(info.id)

            # Nobody else may move it; nor to a channel Dispatch cannot post in.
            stranger = await t.emu.slash(
                t.players["mallory"], channel, "game move", channel=elsewhere, game=info.id
            )
            assert "Only a player" in (await stranger.response())[0].content
            t.emu.deny_bot(elsewhere, SEND_MESSAGES_IN_THREADS)
            denied = await t.emu.slash(
                t.players["alice"], channel, "game move", channel=elsewhere, game=info.id
            )
            assert "Send Messages in Threads" in (await denied.response())[0].content
            assert threads_of(t, elsewhere) == []
            assert (await manager.get_game_info(info.id)).channel_id == str(thread.id)

            # Alice moves it: a new thread in the other channel, the board posted again.
            t.emu.deny_bot(elsewhere, 0)
            moved = await t.emu.slash(
                t.players["alice"], channel, "game move", channel=elsewhere, game=info.id
            )
            answer = (await moved.response())[0].content
            [home] = threads_of(t, elsewhere)
            assert f"<#{home.id}>" in answer and home.name.endswith(f"#{info.id}")
            assert (await manager.get_game_info(info.id)).channel_id == str(home.id)
            await t.emu.world.wait_until(
                lambda: any("moved here" in m.text() for m in public(t, home)),
                PATIENCE_S,
                "the board posted again",
            )
            posts = public(t, home)
            [board] = [m for m in posts if "moved here" in m.text()]
            assert f"(#{info.id})" in board.text() and "Waiting for" in board.text()
            # What waited for the locked thread went first, in order, then the board.
            waited = [m for m in posts if "Round 1: north played" in m.text()]
            assert waited and posts.index(waited[0]) < posts.index(board)
            async with manager.store.read() as db:
                assert not await db.outbox.table_parked(info.id)
                assert [r for r in await db.outbox.undelivered(info.id) if r.kind == "table"] == []
            # Play goes on in the new thread: the next table post goes there.
            count = len(public(t, home))
            for _ in range(8):
                now = await manager.get_game_info(info.id)
                seat = now.seat_of(now.active_roles[0])
                pv = await manager.view_for(info.id, seat.user_id)
                acts = pv.view["actions"]
                verb = "done" if "done" in acts else next(iter(acts))
                arg = acts[verb][0] if isinstance(acts[verb], list) else None
                await manager.act(info.id, seat.user_id, Move(verb, arg, pv.version))
                await manager.deliver_due(info.id)
                if len(public(t, home)) > count:
                    break
            assert len(public(t, home)) > count
    assert errors_seen.all_errors() == []


def test_a_thread_name_holds_game_players_and_number_within_discords_limit() -> None:
    name = threads.thread_name("Fort Sumter", ["alice", "bob"], 12)
    assert name == "Fort Sumter · alice vs bob · #12"
    long = threads.thread_name("G" * 90, ["x" * 40, "y" * 40], 123456)
    assert len(long) <= 100 and long.endswith(" · #123456")


def test_the_invite_grants_everything_dispatch_checks_for() -> None:
    """Every permission ``/game new`` and ``/game move`` check is in the invite's integer
    (docs/discord.md), and nothing it does not use (no Manage Threads)."""
    import discord

    from tests.process.test_startup_settings import PERMISSION_NAMES

    invite = discord.Permissions(**dict.fromkeys(PERMISSION_NAMES, True))
    for needed in (
        threads.POST_PERMISSIONS,
        threads.IN_THREAD_PERMISSIONS,
        threads.THREAD_PERMISSIONS,
        threads.FORUM_PERMISSIONS,
    ):
        assert all(getattr(invite, attr) for attr in needed), needed
    assert not invite.manage_threads and not invite.create_private_threads


async def test_a_moderator_moves_a_game_into_a_thread_which_then_holds_only_it(tmp_path, db_path):
    """Moving into a thread plays there (no new thread); a thread with a live game takes
    no second one, and the game stays where it was."""
    async with table(tmp_path, "alice", "bob", "carol", "dave", store=db_path) as t:
        await t.start()
        _, first, game = await open_game(t, opponent=t.players["bob"])
        _, second, other = await open_game(t, "carol", opponent=t.players["dave"])
        target = t.emu.add_thread(t.emu.add_text_channel(t.guild, "annex"), "annex thread")
        await wait_until(
            lambda: t.bot.get_channel(target.id), PATIENCE_S, "the thread in the cache"
        )
        moved = await t.emu.slash(t.emu.owner, first, "game move", channel=target)
        assert f"<#{target.id}>" in (await moved.response())[0].content
        assert (await t.bot.manager.get_game_info(game.id)).channel_id == str(target.id)
        assert any("moved here" in m.text() for m in public(t, target))
        assert threads_of(t, target) == []

        busy = await t.emu.slash(t.players["carol"], second, "game move", channel=target)
        assert f"already has a game (#{game.id})" in (await busy.response())[0].content
        assert (await t.bot.manager.get_game_info(other.id)).channel_id == str(second.id)


async def test_a_rematch_in_the_thread_renames_it_with_the_new_number(tmp_path):
    with catch_errors() as errors_seen:
        async with table(tmp_path, "alice", "bob") as t:
            await t.start()
            _, thread, info = await open_game(t, opponent=t.players["bob"])
            assert thread.name.endswith(f" · #{info.id}")
            resigned = await t.emu.slash(t.players["bob"], thread, "game resign")
            await resigned.response()
            await wait_until(
                lambda: any(m.custom_ids() for m in public(t, thread) if "resigned" in m.text()),
                what="the end post with its rematch buttons",
            )
            [end] = [m for m in public(t, thread) if "resigned" in m.text() and m.custom_ids()]
            answer = await t.press("alice", end, f"dsp:r:{info.id}:same")
            rematch = await t.bot.manager.game_in_channel(str(thread.id))
            assert rematch is not None and rematch.id != info.id
            assert f"game #{rematch.id}" in answer.text
            assert thread.name.endswith(f" · #{rematch.id}") and f"#{info.id}" not in thread.name
    assert errors_seen.all_errors() == []
