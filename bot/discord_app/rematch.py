"""Rematch on Discord: the buttons under a game's last post (same, swapped or random
sides), and what a click on them does: one new game, however many press it.

Their custom id (in ``custom_ids``)::

    dsp:r:<game>:<same|swap|random>   a rematch of the game, with those sides
"""

from __future__ import annotations

from typing import Any

import discord

from bot.discord_app import threads
from bot.discord_app.components import DispatchComponent
from bot.discord_app.custom_ids import rematch_id
from bot.discord_app.interactions import game_in_reach, handling, manager_of, reply, user_id

REMATCH_LABELS: dict[str, str] = {
    "same": "Rematch: same sides",
    "swap": "Rematch: swap sides",
    "random": "Rematch: random sides",
}


class RematchButton(DispatchComponent, kind="rematch"):
    """One of the Rematch buttons under a game's last post."""

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        await on_rematch(interaction, self.click.game_id, str(self.click.sides))


#: This module's kinds, registered by the ``/game`` cog.
ITEMS: tuple[type[DispatchComponent], ...] = (RematchButton,)


def build_end_view(game_id: int) -> discord.ui.View:
    """The last post's buttons: a rematch with the same, swapped or random sides."""
    ui = discord.ui.View(timeout=None)
    for sides, label in REMATCH_LABELS.items():
        style = discord.ButtonStyle.success if sides == "same" else discord.ButtonStyle.secondary
        ui.add_item(RematchButton.button(rematch_id(game_id, sides), label, style))
    return ui


async def on_rematch(interaction: discord.Interaction[Any], game_id: int, sides: str) -> None:
    """Rematch under a game's last post: one new game, however many press it."""
    async with handling(interaction, game_id, "rematch"):
        await interaction.response.defer(ephemeral=True, thinking=True)
        await game_in_reach(interaction, game_id)
        info = await manager_of(interaction).rematch(game_id, user_id(interaction), sides)
        if info.channel_id == str(interaction.channel_id):
            await threads.renumber(interaction.channel, game_id, info.id)
        await reply(interaction, f"Rematch: game #{info.id} is on in this channel.")
