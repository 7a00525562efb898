"""The ``/league`` group: run a league or a tournament on this server. Each command parses
its options and asks the league desk (``manager.leagues``), which checks every league named
is this server's own and that moderator acts come from someone who may run leagues here
(Manage Server, or the server's league role); its typed refusals reach the user as every
other command's do. What a league says in its channel goes through its room
(``league_room``), its lobby post included: ``/league create`` answers only its creator,
and the lobby is said from the league's outbox, once."""

from __future__ import annotations

import io
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot import errors
from bot.discord_app import autocomplete, league_lobby, league_room, threads
from bot.discord_app.interactions import answering, manager_of, reply, user_id
from bot.discord_app.league_checks import (
    desk_of,
    guild,
    league_choices,
    may_run,
    named,
    player_of,
    refuse_bot,
    refuse_place,
)
from bot.discord_app.league_lobby import edit_lobby
from bot.discord_app.league_views import games_text, round_text
from bot.discord_app.room import client_of
from bot.tables.bot_users import bot_user
from bot.tables.leagues.entrants import Outcome
from bot.tables.leagues.records import LeagueSpec
from bot.web import league_links
from rules.core.log import plural

#: A league's number as an option: Discord's largest integer bound is 2**53 - 1.
LeagueNumber = app_commands.Range[int, 1, 2**53 - 1]
OutcomeName = Literal["first wins", "second wins", "draw", "first forfeits", "second forfeits"]
#: What a reply about a league pings: no one (it names players, but tells them nothing new).
NO_PINGS = discord.AllowedMentions.none()
Format = Literal["round_robin", "double_round_robin", "swiss", "elimination"]


@app_commands.guild_only()
class LeagueCog(
    commands.GroupCog, group_name="league", group_description="Leagues and tournaments here"
):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*league_lobby.ITEMS)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*league_lobby.ITEMS)

    # -- entry --------------------------------------------------------------------
    @app_commands.command(name="create")
    @app_commands.autocomplete(
        game=autocomplete.rated_game_names, clock=autocomplete.clock_controls
    )
    # A slash command's options are its parameters (discord.py's idiom).
    async def create(  # noqa: PLR0913
        self,
        interaction: discord.Interaction[Any],
        name: app_commands.Range[str, 1, 60],
        game: str,
        format: Format,
        rounds: app_commands.Range[int, 1, 20] | None = None,
        clock: str | None = None,
        entry_days: app_commands.Range[float, 0.5, 60.0] = 7.0,
        round_days: app_commands.Range[float, 1.0, 90.0] = 14.0,
        rated: bool = True,
        cap: app_commands.Range[int, 2, 1000] | None = None,
        dispatch_may_enter: bool = False,
        games_per_tie: app_commands.Range[int, 1, 2] = 1,
    ) -> None:
        """Moderators: open a league here, with a lobby post to join it

        Parameters
        ----------
        name:
            The league's name, shown in its posts
        game:
            Which game
        format:
            round_robin, double_round_robin, swiss or elimination
        rounds:
            Swiss only: how many rounds
        clock:
            Each game's time control: a preset, or written like 3d+1d/7d
        entry_days:
            Days until entries close (the league then starts by itself)
        round_days:
            Days each round lasts; then the clock decides the unfinished games
        rated:
            Whether its games count for the ratings
        cap:
            The most entrants
        dispatch_may_enter:
            Whether Dispatch's levels may enter as players
        games_per_tie:
            Elimination only: 1, or 2 (one on each side)
        """
        spec = LeagueSpec(
            name=name,
            game_name=game,
            format=format,
            rounds=rounds,
            games_per_tie=games_per_tie,
            clock=clock,
            entry_days=entry_days,
            round_days=round_days,
            rated=rated,
            cap=cap,
            dispatch_may_enter=dispatch_may_enter,
        )
        allowed = await may_run(interaction)
        refuse_place(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        desk = desk_of(interaction)
        league = await desk.create(
            guild(interaction),
            str(interaction.channel_id),
            user_id(interaction),
            spec,
            may_run=allowed,
        )
        await reply(
            interaction,
            f"League #{league.id}, **{named(league)}**, is open: its lobby post (with "
            "a Join button) is in this channel.",
        )
        async with answering(interaction):
            await desk.open_pending()  # says the lobby post now, not at the next pass

    @app_commands.command(name="join")
    @app_commands.autocomplete(league=league_choices)
    async def join(self, interaction: discord.Interaction[Any], league: LeagueNumber) -> None:
        """Enter a league of this server while its entries are open

        Parameters
        ----------
        league:
            Which league
        """
        info = await desk_of(interaction).join(league, guild(interaction), user_id(interaction))
        await reply(interaction, f"You are in **{named(info)}** (league #{info.id}).")
        async with answering(interaction):
            await edit_lobby(client_of(interaction), info)

    @app_commands.command(name="leave")
    @app_commands.autocomplete(league=league_choices)
    async def leave(self, interaction: discord.Interaction[Any], league: LeagueNumber) -> None:
        """Leave a league: before it starts you are off the list; after, you withdraw
        and forfeit your unfinished games

        Parameters
        ----------
        league:
            Which league
        """
        await interaction.response.defer(ephemeral=True, thinking=True)
        info = await desk_of(interaction).leave(league, guild(interaction), user_id(interaction))
        said = (
            f"You have left **{named(info)}** (league #{info.id})."
            if info.status == "entry"
            else f"You have withdrawn from **{named(info)}** (league #{info.id}): your "
            "unfinished games are forfeited, and you are not paired again."
        )
        await reply(interaction, said)
        async with answering(interaction):
            await edit_lobby(client_of(interaction), info)

    @app_commands.command(name="enter-dispatch")
    @app_commands.autocomplete(league=league_choices)
    async def enter_dispatch(
        self,
        interaction: discord.Interaction[Any],
        league: LeagueNumber,
        level: Literal["easy", "normal", "hard"],
    ) -> None:
        """Moderators: enter one of Dispatch's levels as a player

        Parameters
        ----------
        league:
            Which league
        level:
            Which of Dispatch's levels
        """
        allowed = await may_run(interaction)
        info = await desk_of(interaction).enter_dispatch(
            league, guild(interaction), level, user_id(interaction), may_run=allowed
        )
        await reply(interaction, f"{bot_user(level)} is in **{named(info)}**.")
        async with answering(interaction):
            await edit_lobby(client_of(interaction), info)

    @app_commands.command(name="withdraw-dispatch")
    @app_commands.autocomplete(league=league_choices)
    async def withdraw_dispatch(
        self,
        interaction: discord.Interaction[Any],
        league: LeagueNumber,
        level: Literal["easy", "normal", "hard"],
    ) -> None:
        """Moderators: take one of Dispatch's levels out (after the start it withdraws,
        forfeiting its unfinished games)

        Parameters
        ----------
        league:
            Which league
        level:
            Which of Dispatch's levels
        """
        allowed = await may_run(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        info = await desk_of(interaction).withdraw_dispatch(
            league, guild(interaction), level, user_id(interaction), may_run=allowed
        )
        await reply(interaction, f"{bot_user(level)} is out of **{named(info)}**.")
        async with answering(interaction):
            await edit_lobby(client_of(interaction), info)

    @app_commands.command(name="start")
    @app_commands.autocomplete(league=league_choices)
    async def start(self, interaction: discord.Interaction[Any], league: LeagueNumber) -> None:
        """Moderators: close the entries and start round 1 now

        Parameters
        ----------
        league:
            Which league
        """
        allowed = await may_run(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        desk = desk_of(interaction)
        started = await desk.start(
            league, guild(interaction), user_id(interaction), may_run=allowed
        )
        forum = threads.is_forum(interaction.channel)
        where = "posts of this forum" if forum else "threads of this channel"
        await reply(
            interaction,
            f"League #{league} has started. Round {started.number} has "
            f"{plural(len(started.games), 'game')}, opening in {where}.",
        )
        async with answering(interaction):
            await edit_lobby(client_of(interaction), await desk.info(league, guild(interaction)))

    # -- reading --------------------------------------------------------------------
    @app_commands.command(name="standings")
    @app_commands.autocomplete(league=league_choices)
    async def standings(self, interaction: discord.Interaction[Any], league: LeagueNumber) -> None:
        """A league's table: points, tiebreaks and each player's record per side

        Parameters
        ----------
        league:
            Which league
        """
        await interaction.response.defer(ephemeral=True, thinking=True)
        desk = desk_of(interaction)
        info = await desk.info(league, guild(interaction))
        table = await desk.standings(league, guild(interaction))
        title = f"{info.spec.name}: standings"
        sent = await league_room.standings_message(client_of(interaction), info, table, title)
        await reply(interaction, embed=sent["embed"], files=[sent["file"]])

    @app_commands.command(name="round")
    @app_commands.autocomplete(league=league_choices)
    async def round(
        self,
        interaction: discord.Interaction[Any],
        league: LeagueNumber,
        number: app_commands.Range[int, 1, 1000] | None = None,
    ) -> None:
        """A round's games and results (the current round unless you say)

        Parameters
        ----------
        league:
            Which league
        number:
            Which round
        """
        desk = desk_of(interaction)
        info = await desk.info(league, guild(interaction))
        shown = await desk.round(league, guild(interaction), number)
        await reply(interaction, round_text(info, shown), allowed_mentions=NO_PINGS)

    @app_commands.command(name="games")
    @app_commands.autocomplete(league=league_choices)
    async def games(
        self,
        interaction: discord.Interaction[Any],
        league: LeagueNumber,
        player: discord.User | None = None,
    ) -> None:
        """A league's games, or one player's

        Parameters
        ----------
        league:
            Which league
        player:
            Only this player's games
        """
        desk = desk_of(interaction)
        info = await desk.info(league, guild(interaction))
        who = player_of(player) if player else None
        found = await desk.games(league, guild(interaction), who)
        await reply(interaction, games_text(info, found), allowed_mentions=NO_PINGS)

    @app_commands.command(name="export")
    @app_commands.autocomplete(league=league_choices)
    async def export(self, interaction: discord.Interaction[Any], league: LeagueNumber) -> None:
        """A league's whole record as JSON and CSV: entrants, rounds, games, standings and
        the audit list of every change

        Parameters
        ----------
        league:
            Which league
        """
        await interaction.response.defer(ephemeral=True, thinking=True)
        made = await desk_of(interaction).export(league, guild(interaction))
        files = [
            discord.File(io.BytesIO(made.json_text.encode()), filename=f"league-{league}.json"),
            discord.File(io.BytesIO(made.csv_text.encode()), filename=f"league-{league}.csv"),
        ]
        await reply(interaction, f"League #{league}'s record.", files=files)

    @app_commands.command(name="link")
    @app_commands.autocomplete(league=league_choices)
    async def link(
        self, interaction: discord.Interaction[Any], league: LeagueNumber, revoke: bool = False
    ) -> None:
        """The address of a league's web page (standings and rounds, each game linked)

        Parameters
        ----------
        league:
            Which league
        revoke:
            Turn the league's link away (its creator or a moderator); ask again for a new one
        """
        await interaction.response.defer(ephemeral=True, thinking=True)
        store, here = manager_of(interaction).store, guild(interaction)
        if revoke:
            count = await league_links.revoke_league_links(
                store, league, here, user_id(interaction), is_moderator=await may_run(interaction)
            )
            await reply(interaction, _revoked_words(league, count), ephemeral=True)
            return
        info = await desk_of(interaction).info(league, here)
        players = [e.player for e in info.entrants]
        names = await league_room.display_names(client_of(interaction), here, players)
        # A member who left is named by their id: the page shows their place instead.
        kept = {p: n for p, n in names.items() if n != f"user {p}"}
        url = await league_links.give_league_link(
            store, client_of(interaction).web, league, here, user_id(interaction), kept
        )
        await reply(interaction, f"{info.spec.name}'s page, for anyone you give it to: {url}")

    # -- moderators -------------------------------------------------------------------
    @app_commands.command(name="replace")
    @app_commands.autocomplete(league=league_choices)
    async def replace(
        self,
        interaction: discord.Interaction[Any],
        league: LeagueNumber,
        player: discord.User,
        new_player: discord.Member,
    ) -> None:
        """Moderators: someone takes a player's place, score and games

        Parameters
        ----------
        league:
            Which league
        player:
            The player who goes
        new_player:
            Who plays on in their place
        """
        allowed = await may_run(interaction)
        refuse_bot(new_player)
        await interaction.response.defer(ephemeral=True, thinking=True)
        info = await desk_of(interaction).replace(
            league,
            guild(interaction),
            player_of(player),
            player_of(new_player),
            user_id(interaction),
            may_run=allowed,
        )
        await reply(
            interaction,
            f"<@{new_player.id}> plays on for <@{player.id}> in {named(info)}.",
            allowed_mentions=NO_PINGS,
        )

    @app_commands.command(name="decide")
    @app_commands.autocomplete(league=league_choices)
    async def decide(
        self,
        interaction: discord.Interaction[Any],
        league: LeagueNumber,
        round: app_commands.Range[int, 1, 1000],
        board: app_commands.Range[int, 1, 1000],
        outcome: OutcomeName,
        reason: app_commands.Range[str, 1, 300],
    ) -> None:
        """Moderators: set a game's result by decision (logged in the audit list)

        Parameters
        ----------
        league:
            Which league
        round:
            The game's round
        board:
            The game's board in that round
        outcome:
            The result, by the side of the game's first and second player
        reason:
            Why (kept in the audit list)
        """
        allowed = await may_run(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        desk = desk_of(interaction)
        game = await desk.decide(
            league,
            guild(interaction),
            round,
            board,
            Outcome(outcome),
            user_id(interaction),
            reason,
            may_run=allowed,
        )
        await reply(interaction, f"Round {game.round}, board {game.board}: {outcome}.")

    @app_commands.command(name="disqualify")
    @app_commands.autocomplete(league=league_choices)
    async def disqualify(
        self,
        interaction: discord.Interaction[Any],
        league: LeagueNumber,
        player: discord.User,
        reason: app_commands.Range[str, 1, 300],
    ) -> None:
        """Moderators: disqualify a player (their unfinished games are forfeited)

        Parameters
        ----------
        league:
            Which league
        player:
            Who
        reason:
            Why (kept in the audit list)
        """
        allowed = await may_run(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        desk = desk_of(interaction)
        await desk.disqualify(
            league,
            guild(interaction),
            player_of(player),
            user_id(interaction),
            reason,
            may_run=allowed,
        )
        await reply(
            interaction,
            f"<@{player.id}> is disqualified from league #{league}.",
            allowed_mentions=NO_PINGS,
        )

    @app_commands.command(name="cancel")
    @app_commands.autocomplete(league=league_choices)
    async def cancel(self, interaction: discord.Interaction[Any], league: LeagueNumber) -> None:
        """Moderators: cancel a league

        Parameters
        ----------
        league:
            Which league
        """
        allowed = await may_run(interaction)
        info = await desk_of(interaction).cancel(
            league, guild(interaction), user_id(interaction), may_run=allowed
        )
        await reply(interaction, f"**{named(info)}** (league #{info.id}) is cancelled.")
        async with answering(interaction):
            await edit_lobby(client_of(interaction), info)

    @app_commands.command(name="role")
    async def role(
        self, interaction: discord.Interaction[Any], role: discord.Role | None = None
    ) -> None:
        """Moderators: the role whose members may run leagues here (none: Manage Server only)

        Parameters
        ----------
        role:
            The league role (leave out to remove it)
        """
        allowed = await may_run(interaction)
        if allowed and role is not None and role.is_default():
            raise errors.NotAllowed(
                "@everyone cannot be the league role: every member could then decide "
                "results and disqualify players. Pick a role of the league's runners."
            )
        role_id = str(role.id) if role else None
        await desk_of(interaction).set_league_role(
            guild(interaction), role_id, by=user_id(interaction), may_run=allowed
        )
        said = (
            f"Members of <@&{role.id}> may now run leagues here."
            if role
            else ("Only members with Manage Server may now run leagues here.")
        )
        await reply(interaction, said)


def _revoked_words(league: int, count: int) -> str:
    if not count:
        return f"League #{league} has no link to revoke."
    return (
        f"League #{league}'s link is revoked: it now answers “not found”. "
        "/league link gives a new one."
    )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(LeagueCog(bot))
