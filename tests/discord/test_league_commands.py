"""``/league`` on Discord, before and at the start: a moderator (Manage Server, or the
server's league role) creates a league in a channel where Dispatch can open its games'
threads (not in a thread), and bad values are refused; its lobby post has a Join button; the post
follows its entrants and loses its button at the start; a Join forged in another server,
or pressed once the league started, is refused politely and changes nothing; autocomplete
offers this server's leagues only. In a forum the lobby is a post of its own, under which
the league's posts go."""

from __future__ import annotations

import pytest

from bot.discord_app.custom_ids import league_join_id
from bot.tables.clocks import DAY
from tests.discord_helpers import catch_errors, table, wait_until
from tests.emulator.state import CREATE_PUBLIC_THREADS

pytestmark = pytest.mark.usefixtures("discord_guard")

MANAGE_GUILD = 1 << 5


async def _create(t, who: str = "owner", **options):  # type: ignore[no-untyped-def]
    options = {"name": "Autumn Swiss", "game": "skirmish", "format": "swiss", "rounds": 3} | options
    return await t.slash(
        who, "league create", **{k: v for k, v in options.items() if v is not None}
    )


def lobby_posts(t):  # type: ignore[no-untyped-def]
    return [m for m in t.emu.channel_messages(t.channel.id) if m.content.startswith("**League #")]


async def test_a_moderator_opens_a_league_whose_lobby_post_takes_entrants(tmp_path):
    with catch_errors() as errors:
        async with table(tmp_path, "alice", "bob") as t:
            t.players["owner"] = t.emu.owner
            await t.start()
            await t.emu.wait_for_commands("league")
            refused = await _create(t, "alice")
            assert refused.ephemeral and "Manage Server" in refused.text
            nonsense = await _create(t, clock="soon")
            assert nonsense.ephemeral and "A clock is none, relaxed" in nonsense.text
            thread = t.emu.add_thread(t.channel, "a thread")
            result = await t.emu.slash(
                t.emu.owner, thread, "league create", name="In a thread", game="skirmish",
                format="round_robin",
            )  # fmt: skip
            await result.response()
            assert "run /league create in a text channel or a forum" in result.text
            t.emu.deny_bot(t.channel, CREATE_PUBLIC_THREADS)
            cannot = await _create(t)
            assert "Create Public Threads" in cannot.text and cannot.ephemeral
            t.emu.deny_bot(t.channel, 0)
            assert await t.bot.manager.leagues.leagues_here(str(t.guild.id)) == []

            made = await _create(t)
            assert made.ephemeral and "its lobby post (with a Join button)" in made.text
            await t.settle()
            [lobby] = lobby_posts(t)
            assert "**League #1: Autumn Swiss**" in lobby.text()
            assert "Swiss of 3 rounds" in lobby.text() and "Entrants: 0" in lobby.text()
            [league] = await t.bot.manager.leagues.leagues_here(str(t.guild.id))
            assert league.lobby_message_id == str(lobby.id)

            joined = await t.press("alice", lobby, league_join_id(league.id))
            assert joined.ephemeral is False or "You are in" in joined.text
            alice = f"<@{t.players['alice'].id}>"
            assert "Entrants: 1: " + alice in t.emu.message(lobby.id).text()
            again = await t.press("alice", lobby, league_join_id(league.id))
            assert again.ephemeral  # already in: refused, the post unchanged
            assert "Entrants: 1: " in t.emu.message(lobby.id).text()

            by_command = await t.slash("bob", "league join", league=league.id)
            assert by_command.ephemeral and "You are in **Autumn Swiss**" in by_command.text
            await t.settle()
            assert "Entrants: 2" in t.emu.message(lobby.id).text()
            left = await t.slash("bob", "league leave", league=league.id)
            assert "You have left" in left.text
            await t.settle()
            assert "Entrants: 1" in t.emu.message(lobby.id).text()
            assert not lobby.pinged and not t.emu.message(lobby.id).pinged
    assert errors.discord_errors() == []


async def test_a_join_forged_in_another_server_or_after_the_start_changes_nothing(tmp_path):
    with catch_errors():
        async with table(tmp_path, "alice", "bob", "carol") as t:
            t.players["owner"] = t.emu.owner
            elsewhere = t.emu.add_guild("Elsewhere")
            far = t.emu.add_text_channel(elsewhere, "far")
            t.emu.add_member(elsewhere, t.players["alice"])
            await t.start()
            await t.emu.wait_for_commands("league")
            await _create(t)
            [league] = await t.bot.manager.leagues.leagues_here(str(t.guild.id))
            button = {
                "type": 2,
                "style": 3,
                "label": "Join",
                "custom_id": league_join_id(league.id),
            }
            row = [{"type": 1, "components": [button]}]
            forged = t.emu.inject_message(far, "forged", components=row)
            result = await t.emu.click(t.players["alice"], forged, league_join_id(league.id))
            await result.response()
            await t.settle()
            assert f"There is no league #{league.id} on this server." in result.text
            info = await t.bot.manager.leagues.info(league.id, str(t.guild.id))
            assert info.entrants == ()
            assert forged.text() == "forged"

            # Once the league started, a Join (a copy of the old button) takes no one.
            for name in ("alice", "bob"):
                await t.slash(name, "league join", league=league.id)
            started = await t.slash("owner", "league start", league=league.id)
            assert "has started" in started.text, started.text
            await t.settle()
            [lobby] = lobby_posts(t)
            assert not lobby.components and "round 1 is being played" in lobby.text()
            stale = t.emu.inject_message(t.channel, "old lobby", components=row)
            result = await t.press("carol", stale, league_join_id(league.id))
            assert "entries are closed" in result.text and result.ephemeral
            info = await t.bot.manager.leagues.info(league.id, str(t.guild.id))
            assert len(info.entrants) == 2


async def test_the_league_role_lets_its_members_run_leagues_and_autocomplete_stays_here(
    tmp_path,
):
    with catch_errors():
        async with table(tmp_path) as t:
            t.players["owner"] = t.emu.owner
            runners = t.emu.add_role(t.guild, "league runners")
            t.players["carol"] = t.emu.add_member(t.guild, "carol", roles=[runners])
            elsewhere = t.emu.add_guild("Elsewhere")
            t.emu.add_text_channel(elsewhere, "far")
            await t.start()
            await t.emu.wait_for_commands("league")
            assert "league" in (await _create(t, "carol")).text.lower()
            assert await t.bot.manager.leagues.leagues_here(str(t.guild.id)) == []
            said = await t.slash("owner", "league role", role=runners)
            assert "may now run leagues here" in said.text
            await _create(t, "carol", name="Carol's Cup", format="round_robin", rounds=None)
            await t.settle()
            assert "Carol's Cup" in lobby_posts(t)[0].text()
            await t.bot.manager.leagues.create(
                str(elsewhere.id),
                str(t.emu.add_text_channel(elsewhere, "other").id),
                str(t.emu.owner.id),
                (await t.bot.manager.leagues.leagues_here(str(t.guild.id)))[0].spec,
                may_run=True,
            )
            offered = await t.emu.autocomplete(
                t.players["carol"], t.channel, "league join", league=""
            )
            assert [c["name"] for c in offered] == ["#1 Carol's Cup (entry)"]


async def test_a_league_in_a_forum_has_its_own_post_for_its_lobby_and_rounds(tmp_path):
    with catch_errors() as errors:
        async with table(tmp_path, "alice", "bob") as t:
            t.players["owner"] = t.emu.owner
            forum = t.emu.add_forum_channel(t.guild, "leagues")
            await t.start()
            await t.emu.wait_for_commands("league")
            made = await t.emu.slash(
                t.emu.owner, forum, "league create", name="Forum Cup", game="skirmish",
                format="round_robin",
            )  # fmt: skip
            await made.response()
            await t.settle()
            [league] = await t.bot.manager.leagues.leagues_here(str(t.guild.id))
            league = await t.bot.manager.leagues.info(league.id, str(t.guild.id))
            post = t.emu.world.channels[int(league.lobby_message_id or 0)]
            assert post.parent_id == forum.id and post.name == "League #1: Forum Cup"
            [lobby] = t.emu.channel_messages(post.id)
            for name in ("alice", "bob"):
                await t.press(name, lobby, league_join_id(league.id))
            assert "Entrants: 2" in t.emu.message(lobby.id).text()
            started = await t.emu.slash(t.emu.owner, forum, "league start", league=league.id)
            await started.response()
            await t.settle()
            [game] = (await t.bot.manager.leagues.round(league.id, str(t.guild.id))).games
            assert t.emu.world.channels[int(game.channel_id or 0)].parent_id == forum.id
            said = [
                m
                for m in t.emu.channel_messages(post.id)
                if m.content.startswith("Forum Cup: round 1")
            ]
            assert said and f"<#{game.channel_id}>" in said[0].content
            assert not t.emu.message(lobby.id).components
    assert errors.discord_errors() == []


async def test_a_league_starts_by_itself_at_its_entry_deadline_and_its_lobby_closes(tmp_path):
    with catch_errors() as errors:
        async with table(tmp_path, "alice", "bob") as t:
            t.players["owner"] = t.emu.owner
            await t.start()
            await t.emu.wait_for_commands("league")
            await _create(t, entry_days=0.5, name="Quick", format="round_robin", rounds=None)
            await t.settle()
            [lobby] = lobby_posts(t)
            [league] = await t.bot.manager.leagues.leagues_here(str(t.guild.id))
            for name in ("alice", "bob"):
                await t.press(name, lobby, league_join_id(league.id))
            t.clock_offset += DAY / 2 + 60  # past the entry deadline: the background starts it
            said = await wait_until(
                lambda: [
                    m
                    for m in t.emu.channel_messages(t.channel.id)
                    if m.content.startswith("Quick: round 1")
                ],
                what="round 1's post",
            )
            assert sorted(said[0].pinged) == sorted(t.players[n].id for n in ("alice", "bob"))
            await wait_until(
                lambda: not t.emu.message(lobby.id).components, what="the lobby's button gone"
            )
            assert "round 1 is being played" in t.emu.message(lobby.id).text()
    assert errors.discord_errors() == []
