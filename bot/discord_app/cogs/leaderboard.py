"""``/leaderboard``: a game's rated players on this server."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import rules
from bot.discord_app import autocomplete, formatting
from bot.discord_app.interactions import manager_of, reply
from bot.tables.records import ratings
from bot.tables.results import Standing

#: Under the leaderboard: what is rated and what the number is.
FOOTER = (
    f"Rated: finished games between two players, dealt from a secret key, "
    f"{ratings.MIN_DECISIONS}+ decisions each. Rating: openskill's mu − 3 sigma, "
    f"{int(ratings.NEWCOMER_POINTS)} for a newcomer."
)


def standing_line(standing: Standing) -> str:
    games = f"{standing.games} game" + ("" if standing.games == 1 else "s")
    wins = f"{standing.wins} win" + ("" if standing.wins == 1 else "s")
    who = formatting.mention(standing.player_id)
    return f"**{standing.rank}.** {who}: **{standing.points}** · {games}, {wins}"


def leaderboard_embed(game_name: str, standings: Sequence[Standing]) -> discord.Embed:
    game = rules.get_game(game_name)
    title = f"Leaderboard: {game.title or game.name}"
    embed = discord.Embed(title=formatting.clip(title, 256), colour=formatting.COLOUR_END)
    lines = [standing_line(s) for s in standings]
    embed.description = formatting.clip(
        "\n".join(lines) or f"No rated game of {game.title or game.name} on this server yet.",
        formatting.EMBED_DESCRIPTION_MAX,
    )
    embed.set_footer(text=FOOTER)
    return embed


class RatingsCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="leaderboard")
    @app_commands.guild_only()
    @app_commands.autocomplete(game=autocomplete.rated_game_names)
    async def leaderboard(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        size: app_commands.Range[int, 1, ratings.LEADERBOARD_MAX] = ratings.LEADERBOARD_SIZE,
    ) -> None:
        """A game's best rated players on this server, Dispatch's levels among them

        Parameters
        ----------
        game:
            Which game
        size:
            How many players to show (10 unless you say)
        """
        guild = str(interaction.guild_id) if interaction.guild_id else None
        standings = await manager_of(interaction).records.leaderboard(guild, game, size)
        embed = leaderboard_embed(ratings.rated_game(game), standings)
        await reply(interaction, embed=embed, allowed_mentions=discord.AllowedMentions.none())


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(RatingsCog(bot))
