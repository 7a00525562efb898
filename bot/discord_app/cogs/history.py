"""``/games`` and ``/stats``: a player's games, page by page, and a record.

Look-ups that change nothing, answered to the asker alone."""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_app import autocomplete, history_ui
from bot.discord_app.interactions import manager_of, reply, user_id


class HistoryCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*history_ui.ITEMS)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*history_ui.ITEMS)

    @app_commands.command(name="games")
    async def games(
        self,
        interaction: discord.Interaction[Any],
        show: Literal["live", "finished", "server"] = "live",
    ) -> None:
        """Your games: being played (everywhere), finished, or this server's finished ones

        Parameters
        ----------
        show:
            live (default), finished (yours), or server (finished here)
        """
        await interaction.response.defer(ephemeral=True, thinking=True)
        await history_ui.send_first_page(interaction, "mine" if show == "finished" else show)

    @app_commands.command(name="stats")
    @app_commands.autocomplete(game=autocomplete.game_names)
    async def stats(
        self,
        interaction: discord.Interaction[Any],
        user: discord.User | None = None,
        game: str | None = None,
    ) -> None:
        """A player's record: wins and losses by side, on time, time per turn, against Dispatch

        Parameters
        ----------
        user:
            Whose record (default: yours)
        game:
            Only this game
        """
        await interaction.response.defer(ephemeral=True, thinking=True)
        who = str(user.id) if user is not None else user_id(interaction)
        found = await manager_of(interaction).records.stats(who, game)
        await reply(
            interaction,
            history_ui.stats_text(found),
            allowed_mentions=discord.AllowedMentions.none(),
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(HistoryCog(bot))
