"""Leagues on Discord against a hostile league name: a moderator may name a league
anything visible, and its public posts show that name as plain text, never as a link,
a heading or another user's mention. Everything sent passes the emulator's checks."""

from __future__ import annotations

import dataclasses

import pytest

from bot.discord_app.league_room import DiscordLeagueRoom
from bot.tables.leagues.records import EntrantInfo, LeagueInfo, LeaguePost, LeagueSpec
from bot.tables.leagues.standings import SideRecord, Standing
from tests.discord_helpers import catch_errors, table

pytestmark = pytest.mark.usefixtures("discord_guard")

#: A masked link to a look-alike page, a heading and the markup of a mention.
ODD_NAME = "# [Rules](https://evil.example) **<@{carol}>**"


async def test_a_league_name_is_plain_text_in_its_public_posts(tmp_path):
    with catch_errors() as errors:
        async with table(tmp_path, "alice", "bob", "carol") as t:
            await t.start()
            room = DiscordLeagueRoom(t.bot)
            alice, bob, carol = (str(t.players[n].id) for n in ("alice", "bob", "carol"))
            name = ODD_NAME.format(carol=carol)
            spec = LeagueSpec(name=name, game_name="skirmish", format="swiss", rounds=3)
            league = LeagueInfo(
                id=3,
                guild_id=str(t.guild.id),
                channel_id=str(t.channel.id),
                spec=spec,
                status="running",
                round_number=1,
                created_by=str(t.emu.owner.id),
                entry_deadline=0.0,
                lobby_message_id=None,
                entrants=tuple(EntrantInfo(p, 1500.0, "in") for p in (alice, bob)),
            )
            lines = (f"Board 1: <@{alice}> v <@{bob}>",)
            post = LeaguePost("round", 3, f"{name}: round 1", lines, (alice, bob), 1)
            await room.post(league, post)
            notice = LeaguePost("notice", 3, f"<@{bob}> withdrew from {name}.", (), (), None)
            await room.post(dataclasses.replace(league, status="running"), notice)
            said = [m for m in t.emu.channel_messages(t.channel.id) if "evil" in m.content]
            assert len(said) == 2
            for message in said:
                assert "\\[Rules]" in message.content  # no masked link: its [ is escaped
                assert not message.content.startswith("#")  # no heading
                assert f"<@{carol}>" not in message.content  # no mention markup
                assert int(carol) not in message.pinged
            assert said[0].content.startswith("\\# \\[Rules]")
            assert sorted(said[0].pinged) == sorted([int(alice), int(bob)])
            assert said[1].content.startswith(f"<@{bob}> withdrew from ")
    assert errors.discord_errors() == []


async def test_a_discord_bot_or_dispatch_itself_cannot_replace_a_league_player(tmp_path):
    """A bot account never moves: put in a player's place, it would lose each game on
    time. Dispatch plays a league only as one of its levels, entered before the start."""
    with catch_errors() as errors:
        async with table(tmp_path, "alice", "bob") as t:
            helper = t.emu.add_user("helperbot", bot=True)
            t.emu.add_member(t.guild, helper)
            t.players["owner"] = t.emu.owner
            await t.start()
            await t.emu.wait_for_commands("league")
            await t.slash(
                "owner", "league create", name="Duel", game="skirmish", format="round_robin"
            )
            [league] = await t.bot.manager.leagues.leagues_here(str(t.guild.id))
            for name in ("alice", "bob"):
                await t.slash(name, "league join", league=league.id)
            await t.slash("owner", "league start", league=league.id)
            await t.settle()
            for bot in (helper, t.emu.bot_user):
                refused = await t.slash(
                    "owner", "league replace", league=league.id,
                    player=t.players["alice"], new_player=bot,
                )  # fmt: skip
                assert refused.ephemeral and "bot cannot play in a league" in refused.text
            after = await t.bot.manager.leagues.info(league.id, str(t.guild.id))
            assert {e.player for e in after.entrants} == {
                str(t.players[n].id) for n in ("alice", "bob")
            }
    assert errors.discord_errors() == []


async def test_league_replies_show_its_name_as_plain_text(tmp_path):
    """The lobby's Join already shows the name as typed; the commands answer the same."""
    with catch_errors() as errors:
        async with table(tmp_path, "alice", "bob", "carol") as t:
            t.players["owner"] = t.emu.owner
            await t.start()
            await t.emu.wait_for_commands("league")
            carol = t.players["carol"].id
            name = f"**Big** ||cup|| <@{carol}>"
            made = await t.slash(
                "owner", "league create", name=name, game="skirmish", format="round_robin"
            )
            [league] = await t.bot.manager.leagues.leagues_here(str(t.guild.id))
            assert league.spec.name == name  # kept as typed
            said = [
                made,
                await t.slash("alice", "league join", league=league.id),
                await t.slash("alice", "league leave", league=league.id),
                await t.slash("owner", "league cancel", league=league.id),
            ]
            for result in said:
                assert "\\*\\*Big\\*\\* \\|\\|cup\\|\\|" in result.text, result.text
                assert f"<@{carol}>" not in result.text
                assert not result.original.pinged
    assert errors.discord_errors() == []


async def test_everyone_cannot_be_made_the_league_role(tmp_path):
    """@everyone as the league role would let every member decide results and disqualify
    players: a slip of the picker, refused in a sentence, the role left as it was."""
    with catch_errors() as errors:
        async with table(tmp_path, "alice") as t:
            t.players["owner"] = t.emu.owner
            await t.start()
            await t.emu.wait_for_commands("league")
            everyone = t.guild.roles[t.guild.id]
            said = await t.slash("owner", "league role", role=everyone)
            assert said.ephemeral and "@everyone cannot be the league role" in said.text
            assert await t.bot.manager.leagues.league_role(str(t.guild.id)) is None
            made = await t.slash(
                "alice", "league create", name="Mine", game="skirmish", format="round_robin"
            )
            assert "Manage Server" in made.text
    assert errors.discord_errors() == []


async def test_the_start_reply_counts_its_games_as_a_person_would(tmp_path):
    with catch_errors() as errors:
        async with table(tmp_path, "alice", "bob") as t:
            t.players["owner"] = t.emu.owner
            await t.start()
            await t.emu.wait_for_commands("league")
            await t.slash(
                "owner", "league create", name="Duel", game="skirmish", format="round_robin"
            )
            [league] = await t.bot.manager.leagues.leagues_here(str(t.guild.id))
            for name in ("alice", "bob"):
                await t.slash(name, "league join", league=league.id)
            started = await t.slash("owner", "league start", league=league.id)
            assert "1 games" not in started.text, started.text
            assert "Round 1 has 1 game, opening in threads of this channel." in started.text
    assert errors.discord_errors() == []


async def test_a_dispatch_level_entered_by_mistake_can_be_taken_out(tmp_path):
    """A level has no account to leave with and no member to name in /league replace or
    /league disqualify: without its own command, a level entered by mistake stayed."""
    with catch_errors() as errors:
        async with table(tmp_path, "alice", "bob") as t:
            t.players["owner"] = t.emu.owner
            await t.start()
            await t.emu.wait_for_commands("league")
            await t.slash(
                "owner", "league create", name="Bots", game="skirmish", format="round_robin",
                dispatch_may_enter=True,
            )  # fmt: skip
            [league] = await t.bot.manager.leagues.leagues_here(str(t.guild.id))
            desk, guild, n = t.bot.manager.leagues, str(t.guild.id), league.id
            await t.slash("owner", "league enter-dispatch", league=n, level="hard")
            refused = await t.slash("alice", "league withdraw-dispatch", league=n, level="hard")
            assert refused.ephemeral and "Manage Server" in refused.text
            assert [e.player for e in (await desk.info(n, guild)).entrants] == ["Dispatch (hard)"]
            out = await t.slash("owner", "league withdraw-dispatch", league=n, level="hard")
            assert "Dispatch (hard) is out of **Bots**." in out.text
            assert (await desk.info(n, guild)).entrants == ()
            again = await t.slash("owner", "league withdraw-dispatch", league=n, level="hard")
            assert "Dispatch (hard) is not entered in Bots." in again.text

            for name in ("alice", "bob"):
                await t.slash(name, "league join", league=n)
            await t.slash("owner", "league enter-dispatch", league=n, level="easy")
            await t.slash("owner", "league start", league=n)
            await t.settle()
            await t.slash("owner", "league withdraw-dispatch", league=n, level="easy")
            status = {e.player: e.status for e in (await desk.info(n, guild)).entrants}
            assert status["Dispatch (easy)"] == "withdrawn"
            games = await desk.games(n, guild, "Dispatch (easy)")
            assert games and all(g.outcome is not None for g in games if g.round == 1)
    assert errors.discord_errors() == []


async def test_a_league_name_is_plain_text_in_its_standings_embed(tmp_path):
    with catch_errors() as errors:
        async with table(tmp_path, "alice", "bob") as t:
            await t.start()
            room = DiscordLeagueRoom(t.bot)
            alice, bob = (str(t.players[n].id) for n in ("alice", "bob"))
            name = "**Big** __cup__"
            league = LeagueInfo(
                id=3,
                guild_id=str(t.guild.id),
                channel_id=str(t.channel.id),
                spec=LeagueSpec(name=name, game_name="skirmish", format="round_robin"),
                status="finished",
                round_number=1,
                created_by=str(t.emu.owner.id),
                entry_deadline=0.0,
                lobby_message_id=None,
                entrants=tuple(EntrantInfo(p, 1500.0, "in") for p in (alice, bob)),
            )
            record = SideRecord(1, 0, 0)
            rows = (
                Standing(1, alice, 1.0, 0.0, 0.0, 0.0, 1500.0, record, record, 0, False),
                Standing(2, bob, 0.0, 0.0, 0.0, 0.0, 1500.0, record, record, 0, False),
            )
            final = LeaguePost("final", 3, f"{name} is over", (), (alice, bob), standings=rows)
            await room.post(league, final)
            [said] = [m for m in t.emu.channel_messages(t.channel.id) if m.embeds]
            assert said.embeds[0]["title"] == "\\*\\*Big\\*\\* \\_\\_cup\\_\\_: final standings"
    assert errors.discord_errors() == []


async def test_leaving_after_the_start_says_the_games_are_forfeited(tmp_path):
    """Before the start a player leaving is off the list; after it, the same command
    forfeits their unfinished games, and the answer must say so."""
    with catch_errors() as errors:
        async with table(tmp_path, "alice", "bob", "carol") as t:
            t.players["owner"] = t.emu.owner
            await t.start()
            await t.emu.wait_for_commands("league")
            await t.slash(
                "owner", "league create", name="Trio", game="skirmish", format="round_robin"
            )
            [league] = await t.bot.manager.leagues.leagues_here(str(t.guild.id))
            for name in ("alice", "bob", "carol"):
                await t.slash(name, "league join", league=league.id)
            before = await t.slash("carol", "league leave", league=league.id)
            assert "You have left **Trio**" in before.text and "forfeit" not in before.text
            await t.slash("carol", "league join", league=league.id)
            await t.slash("owner", "league start", league=league.id)
            await t.settle()
            after = await t.slash("carol", "league leave", league=league.id)
            assert "You have withdrawn from **Trio**" in after.text, after.text
            assert "your unfinished games are forfeited" in after.text
    assert errors.discord_errors() == []
