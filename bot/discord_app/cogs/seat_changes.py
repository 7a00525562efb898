"""``/game offer``, ``/game reseat``, ``/game hand-over``: seats that change hands in a
running game (the rules are in ``bot.tables.seat_changes.changes``). Added to the
``/game`` group of ``cogs/game.py``, so this extension loads after it."""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_app import autocomplete, seat_components
from bot.discord_app.checks import is_moderator
from bot.discord_app.interactions import manager_of, user_id
from bot.discord_app.lobby import level_notes
from bot.discord_app.seat_components import (
    answer_change,
    build_offer_view,
    offer_text,
    refuse_member,
)


def _game_ref(interaction: discord.Interaction[Any]) -> str:
    return str(interaction.channel_id)


@app_commands.command(name="offer")
async def offer(interaction: discord.Interaction[Any], user: discord.Member) -> None:
    """Offer your seat in this channel's game to someone (they accept with a button)

    Parameters
    ----------
    user:
        Who should play your seat from now on
    """
    refuse_member(user, interaction.client.user, what="offer")
    made = await manager_of(interaction).seat_changes.offer(
        _game_ref(interaction), user_id(interaction), str(user.id)
    )
    await interaction.response.send_message(
        offer_text(made),
        view=build_offer_view(made),
        allowed_mentions=discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(id=user.id)]
        ),
    )


@app_commands.command(name="reseat")
@app_commands.autocomplete(side=autocomplete.sides)
async def reseat(interaction: discord.Interaction[Any], side: str, user: discord.Member) -> None:
    """Moderators: give a seat of this channel's game to someone else

    Parameters
    ----------
    side:
        The seat to give
    user:
        Who plays it from now on
    """
    refuse_member(user, interaction.client.user, what="reseat")
    await interaction.response.defer(ephemeral=True, thinking=True)
    change = await manager_of(interaction).seat_changes.reseat(
        _game_ref(interaction),
        side,
        str(user.id),
        user_id(interaction),
        is_moderator=is_moderator(interaction),
    )
    await answer_change(interaction, change)


@app_commands.command(name="hand-over")
async def hand_over(
    interaction: discord.Interaction[Any],
    level: Literal["easy", "normal", "hard"] | None = None,
) -> None:
    """Give your seat in this channel's game to Dispatch, which plays it on

    Parameters
    ----------
    level:
        How well Dispatch plays: easy, normal (about 1 s a move) or hard (5 s)
    """
    await interaction.response.defer(ephemeral=True, thinking=True)
    manager = manager_of(interaction)
    change = await manager.seat_changes.hand_over(
        _game_ref(interaction), user_id(interaction), level
    )
    # A level not shown stronger than the one below it in this game says so here too,
    # as it does wherever levels are offered.
    notes = level_notes(await manager.get_game_info(change.game_id))
    await answer_change(interaction, change, notes)


COMMANDS: tuple[app_commands.Command[Any, Any, None], ...] = (offer, reseat, hand_over)


async def setup(bot: commands.Bot) -> None:
    group = bot.tree.get_command("game")
    if not isinstance(group, app_commands.Group):
        raise RuntimeError("the /game group must be loaded before its seat commands")
    for command in COMMANDS:
        group.add_command(command)
    bot.add_dynamic_items(*seat_components.ITEMS)


async def teardown(bot: commands.Bot) -> None:
    bot.remove_dynamic_items(*seat_components.ITEMS)
