"""``/game vacation``: pause your clocks for some days, or end your vacation early (the
rules are in ``bot.tables.clocks.vacations``). Added to the ``/game`` group
of ``cogs/game.py``, so this extension loads after it."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_app.interactions import manager_of, reply, user_id


@app_commands.command(name="vacation")
async def vacation(
    interaction: discord.Interaction[Any],
    days: app_commands.Range[int, 0, 366] | None = None,
) -> None:
    """Pause your clocks in this server's games for some days (no days: end your vacation)

    Parameters
    ----------
    days:
        Whole days away (up to what you have left this year); leave out or 0 to come back
    """
    guild = str(interaction.guild_id) if interaction.guild_id else None
    manager = manager_of(interaction)
    news = await manager.clocks.vacation(guild, user_id(interaction), days or None)
    games = len(news.games)
    clocks = f"{games} game{'s' if games != 1 else ''} on a clock"
    if news.ended:
        text = (
            f"Welcome back: your clocks run again ({clocks}). This vacation counted "
            f"{news.days} day{'s' if news.days != 1 else ''}; you have {news.left} left this year."
        )
    else:
        text = (
            f"You are on vacation until <t:{int(news.until)}:f> (<t:{int(news.until)}:R>): "
            f"your clocks are paused ({clocks}), and the tables are told. You have "
            f"{news.left} vacation day{'s' if news.left != 1 else ''} left this year; "
            "/game vacation with no days ends it early and gives back the days not begun."
        )
    await reply(interaction, text)


async def setup(bot: commands.Bot) -> None:
    group = bot.tree.get_command("game")
    if not isinstance(group, app_commands.Group):
        raise RuntimeError("the /game group must be loaded before its vacation command")
    group.add_command(vacation)
