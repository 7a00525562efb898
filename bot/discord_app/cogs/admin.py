"""``/dispatch sync``: the bot owner publishes the slash commands (never done on every start)."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_app.checks import owner_only
from bot.discord_app.interactions import reply

log = logging.getLogger("dispatch.discord")


@app_commands.default_permissions(administrator=True)
class AdminCog(commands.GroupCog, group_name="dispatch", group_description="Bot administration"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="sync")
    @app_commands.choices(
        scope=[
            app_commands.Choice(name="global", value="global"),
            app_commands.Choice(name="here", value="here"),
        ]
    )
    @owner_only()
    async def sync(self, interaction: discord.Interaction[Any], scope: str = "global") -> None:
        """Publish the slash commands (bot owner only)

        Parameters
        ----------
        scope:
            global (up to an hour to appear) or here (this server, at once)
        """
        await interaction.response.defer(ephemeral=True, thinking=True)
        if scope == "here":
            if interaction.guild is None:
                await reply(interaction, "Use scope:here inside a server.")
                return
            self.bot.tree.copy_global_to(guild=interaction.guild)
            synced = await self.bot.tree.sync(guild=interaction.guild)
        else:
            synced = await self.bot.tree.sync()
        log.info("commands synced (%s) by %s: %d", scope, interaction.user.id, len(synced))
        await reply(interaction, f"Synced {len(synced)} commands ({scope}).")


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(AdminCog(bot))
